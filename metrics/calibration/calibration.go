package calibration

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

// Options control Analyze.
type Options struct {

	// Seed seeds the fold assignment (stream = judge index) and the
	// length-controlled bootstrap; default 1.
	Seed uint64
	// Folds is the number of cross-fitting folds over questions; default 5.
	// Accepted: ≥ 2; a judge with fewer labelled questions than Folds uses
	// one fold per question (leave-one-question-out).
	Folds int
	// Level is the confidence level of the PPI, human-only and bootstrap
	// intervals; default 0.95. Accepted: (0, 1).
	Level float64
	// Bootstrap is the number of cluster-bootstrap replicates (resampling
	// questions) behind the length_controlled intervals; default 2000; 0
	// leaves the intervals empty.
	Bootstrap int
	// Scores is the Solve Rate rule; default scores.DefaultOptions().
	Scores scores.Options
	// Graded, when not nil, is scores.Compute(s, Scores), computed once by
	// the caller and shared read-only with other analyses; default nil:
	// computed here.
	Graded []scores.Grading
}

// DefaultOptions returns Seed 1, Folds 5, Level 0.95, Bootstrap 2000 and
// the EuroExec Solve Rate rule.
func DefaultOptions() Options {
	return Options{Seed: 1, Folds: 5, Level: 0.95, Bootstrap: 2000, Scores: scores.DefaultOptions()}
}

// Result is what Analyze produced, as typed values; Part builds the
// judge_calibration, judge_calibration_summary and length_controlled tables
// and their figures from them in one place.
type Result struct {
	// Judges are the judges of the main round, in name order; without
	// judges there are no calibration tables (see Notes).
	Judges []string
	// Calibration are the rows of judge_calibration: per judge (in Judges
	// order), metric (rubric before solve_rate) and model (in name order),
	// for the models the judge graded.
	Calibration []CalibrationRow
	// Summary are the rows of judge_calibration_summary, one per judge and
	// metric, in the order of Calibration.
	Summary []SummaryRow
	// Length is the length-controlled model comparison; no rows when it
	// could not be fitted (see Notes).
	Length Length
	// Notes say which tables were left out and why.
	Notes []report.Note
	// Warnings are non-fatal problems (such as a judge with too few
	// labelled questions to calibrate).
	Warnings []string
}

// CalibrationRow is one (judge, model, metric) row of judge_calibration.
// Undefined numbers are NaN (empty cells).
type CalibrationRow struct {
	Judge, Model string
	// Metric is MetricRubric or MetricSolveRate.
	Metric string
	// Human is the mean over the labelled questions (graded by the judge
	// and by humans) of the per-question human value, graders averaged;
	// HumanExact is the same mean as an exact fraction (the zero Rat when
	// a term was not exact).
	Human      float64
	HumanExact study.Rat
	// JudgeRaw is the judge's own value on the same questions (rubric
	// mean, or share solved by the judge's rule); JudgeRawExact is it as an
	// exact fraction (the zero Rat when not exact).
	JudgeRaw      float64
	JudgeRawExact study.Rat
	// JudgeLinear and JudgeIsotonic are the means of the held-out linear
	// (solve_rate: clipped to [0, 1]) and isotonic calibrated judge scores.
	JudgeLinear, JudgeIsotonic float64
	// PPI is the prediction-powered estimate of the human mean from the
	// judge on all its questions, with the power-tuned and human-only
	// intervals.
	PPI PPI
	// Questions are the labelled questions; JudgeQuestions the questions
	// graded by the judge (the PPI's unlabelled pool includes the labelled
	// ones).
	Questions, JudgeQuestions int64
}

// ErrRaw is JudgeRaw − Human.
func (c CalibrationRow) ErrRaw() float64 { return c.JudgeRaw - c.Human }

// ErrLinear is JudgeLinear − Human (held out).
func (c CalibrationRow) ErrLinear() float64 { return c.JudgeLinear - c.Human }

// ErrIsotonic is JudgeIsotonic − Human (held out).
func (c CalibrationRow) ErrIsotonic() float64 { return c.JudgeIsotonic - c.Human }

// SummaryRow is one (judge, metric) row of judge_calibration_summary: how
// much calibration closes the judge–human gap. Undefined numbers are NaN.
type SummaryRow struct {
	Judge, Metric string
	// Models are the models with a raw and an isotonic error.
	Models int64
	// MAERaw, MAELinear and MAEIsotonic are the mean absolute errors
	// against the human means over those models.
	MAERaw, MAELinear, MAEIsotonic float64
	// GapClosedLinear and GapClosedIsotonic are 1 − MAE calibrated / MAERaw
	// (negative: calibration adds error; NaN when MAERaw is 0).
	GapClosedLinear, GapClosedIsotonic float64
	// PPIWidth and HumanOnlyWidth are the mean interval widths over models;
	// WidthRatio is PPIWidth / HumanOnlyWidth and TunedWidthRatio the mean
	// power-tuned PPI width / HumanOnlyWidth.
	PPIWidth, HumanOnlyWidth, WidthRatio, TunedWidthRatio float64
	// Sentence is the result in one sentence.
	Sentence string
}

// Length is the length-controlled model comparison (table
// length_controlled).
type Length struct {
	// Rows are the models with responses in the fit, in name order.
	Rows []LengthRow
	// Coef is the rubric points per standard deviation of log length, with
	// CoefLo and CoefHi its bootstrap interval (NaN without one).
	Coef, CoefLo, CoefHi float64
}

// LengthRow is one model of the length-controlled comparison. Undefined
// numbers are NaN.
type LengthRow struct {
	Model string
	// Responses are the model's responses in the fit (with text and human
	// rubric gradings).
	Responses int64
	// MeanChars is the mean response length in characters.
	MeanChars float64
	// RawMean is the mean over the model's responses of the mean human
	// rubric_mean; RawMeanExact is it as an exact fraction (the zero Rat
	// when not exact).
	RawMean      float64
	RawMeanExact study.Rat
	// RawEffect is RawMean − the mean of RawMean over the models.
	RawEffect float64
	// AdjustedEffect is the length-adjusted model effect (fixed-effects
	// coefficient, centred over models), AdjustedLo and AdjustedHi its
	// bootstrap interval.
	AdjustedEffect, AdjustedLo, AdjustedHi float64
}

// Table names.
const (
	TableCalibration = "judge_calibration"
	TableSummary     = "judge_calibration_summary"
	TableLength      = "length_controlled"
)

// Metric names of judge_calibration.
const (
	MetricRubric    = "rubric"
	MetricSolveRate = "solve_rate"
)

// Analyze builds judge_calibration, judge_calibration_summary (section
// report.SectionJudges) and length_controlled (report.SectionBeyond) with
// their figures. Invalid options are replaced by their defaults with a
// warning. The only error is ctx's, checked between bootstrap replicates.
func Analyze(ctx context.Context, s *study.Study, opt Options) (Result, error) {
	var r Result
	def := DefaultOptions()
	if opt.Folds < 2 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("calibration: folds %d < 2; using %d", opt.Folds, def.Folds))
		opt.Folds = def.Folds
	}
	if !(opt.Level > 0 && opt.Level < 1) {
		r.Warnings = append(r.Warnings, fmt.Sprintf("calibration: level %v not in (0, 1); using %v", opt.Level, def.Level))
		opt.Level = def.Level
	}
	if opt.Bootstrap < 0 {
		opt.Bootstrap = 0
	}
	if s == nil {
		r.Notes = append(r.Notes, report.Note{Table: TableCalibration, Reason: "no study"})
		return r, nil
	}
	d := load(s, opt.Scores, opt.Graded)
	calibrate(d, opt, &r)
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if err := lengthControlled(ctx, s, d, opt, &r); err != nil {
		return Result{}, err
	}
	return r, nil
}

// metric says how one judge_calibration metric reads the data.
type metric struct {
	name string
	// feat is the judge score the maps take, raw the judge's own value of
	// the metric (also PPI's prediction), y the human value.
	feat, raw [][]float64
	y         [][]float64
	// rawR and yR are raw and y as exact fractions (zero Rat: not exact),
	// for the exact means judge_raw and human; rawR nil: raw is an integer
	// (a 0/1 verdict) and is its own fraction.
	rawR, yR [][]study.Rat
	clip     bool // clip linear predictions to [0, 1]
}

func calibrate(d *data, opt Options, r *Result) {
	if len(d.judges) == 0 {
		for _, n := range []string{TableCalibration, TableSummary} {
			r.Notes = append(r.Notes, report.Note{Table: n, Reason: "the study has no judge gradings in the main round"})
		}
		return
	}
	r.Judges = append([]string(nil), d.judges...)
	noPPI, noCal := 0, 0 // rows without a PPI estimate, without calibrated values
	for j, judge := range d.judges {
		ms := []metric{}
		if d.hasRubric {
			ms = append(ms, metric{name: MetricRubric, feat: d.jRub[j], raw: d.jRub[j], y: d.hRub, rawR: d.jRubR[j], yR: d.hRubR})
		}
		feat := d.jChk[j]
		if d.hasRubric {
			feat = d.jRub[j]
		}
		ms = append(ms, metric{name: MetricSolveRate, feat: feat, raw: d.jSolve[j], y: d.hSolve, yR: d.hSolveR, clip: true})
		for _, mt := range ms {
			rows, warn := calibrateOne(d, j, mt, opt)
			if warn != "" {
				r.Warnings = append(r.Warnings, fmt.Sprintf("calibration: judge %s, %s: %s", judge, mt.name, warn))
			}
			for _, cr := range rows {
				if math.IsNaN(cr.PPI.Estimate) {
					noPPI++
				}
				if math.IsNaN(cr.JudgeIsotonic) {
					noCal++
				}
			}
			r.Calibration = append(r.Calibration, rows...)
			r.Summary = append(r.Summary, summarize(judge, mt.name, rows))
		}
	}
	if noPPI > 0 {
		r.Notes = append(r.Notes, report.Note{Table: TableCalibration, Reason: fmt.Sprintf("%d row(s) have no PPI or human-only estimate: fewer than 2 questions graded by both the judge and humans", noPPI)})
	}
	if noCal > 0 {
		r.Notes = append(r.Notes, report.Note{Table: TableCalibration, Reason: fmt.Sprintf("%d row(s) have no calibrated values: the judge has fewer than 2 labelled questions, or the model none", noCal)})
	}
}

// Part builds the report tables and figures of r (judge_calibration and
// judge_calibration_summary with a scatter per metric when there are
// judges, length_controlled with its bar chart when it was fitted); with
// its Notes and Warnings it is ready for report.Report.Add.
func (r Result) Part() report.Part {
	p := report.Part{Notes: r.Notes, Warnings: r.Warnings}
	if len(r.Judges) > 0 {
		t := calTable()
		for _, cr := range r.Calibration {
			t.Rows = append(t.Rows, []any{cr.Judge, cr.Model, cr.Metric, cr.Human, cr.JudgeRaw, cr.JudgeLinear, cr.JudgeIsotonic,
				cr.PPI.Estimate, cr.PPI.Lo, cr.PPI.Hi, cr.PPI.Tuned, cr.PPI.TunedLo, cr.PPI.TunedHi, cr.PPI.Lambda,
				cr.PPI.HumanLo, cr.PPI.HumanHi,
				cr.ErrRaw(), cr.ErrLinear(), cr.ErrIsotonic(), cr.Questions, cr.JudgeQuestions})
		}
		sum := summaryTable()
		figs := map[string]*report.Figure{}
		var order []string
		for _, sr := range r.Summary {
			sum.Rows = append(sum.Rows, []any{sr.Judge, sr.Metric, sr.Models, sr.MAERaw, sr.MAELinear, sr.MAEIsotonic,
				sr.GapClosedLinear, sr.GapClosedIsotonic, sr.PPIWidth, sr.HumanOnlyWidth, sr.WidthRatio, sr.TunedWidthRatio, sr.Sentence})
			f := figs[sr.Metric]
			if f == nil {
				f = &report.Figure{ID: "judge_calibration_" + sr.Metric, Section: report.SectionJudges,
					Title: "Judge vs human " + sr.Metric + " per model, raw and isotonic-calibrated (held out)",
					Kind:  report.Scatter, XName: "human " + sr.Metric, YName: "judge " + sr.Metric,
					Percent: sr.Metric == MetricSolveRate, Table: TableCalibration}
				figs[sr.Metric] = f
				order = append(order, sr.Metric)
			}
			for k, name := range []string{"raw", "isotonic"} {
				s := report.Series{Name: sr.Judge + " " + name}
				for _, cr := range r.Calibration {
					if cr.Judge != sr.Judge || cr.Metric != sr.Metric {
						continue
					}
					y := cr.JudgeRaw
					if k == 1 {
						y = cr.JudgeIsotonic
					}
					if !math.IsNaN(cr.Human) && !math.IsNaN(y) {
						s.Points = append(s.Points, report.Point{X: cr.Human, Y: y, Label: cr.Model})
					}
				}
				f.Series = append(f.Series, s)
			}
		}
		p.Tables = append(p.Tables, t, sum)
		for _, name := range order {
			f := figs[name]
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, sr := range f.Series {
				for _, pt := range sr.Points {
					lo = math.Min(lo, math.Min(pt.X, pt.Y))
					hi = math.Max(hi, math.Max(pt.X, pt.Y))
				}
			}
			if lo <= hi {
				f.Lines = []report.RefLine{{Name: "y = x", X1: lo, Y1: lo, X2: hi, Y2: hi}}
			}
			p.Figures = append(p.Figures, f)
		}
	}
	if len(r.Length.Rows) > 0 {
		t, f := r.Length.tables()
		p.Tables = append(p.Tables, t)
		p.Figures = append(p.Figures, f)
	}
	return p
}

// unit is one (model, question) response graded by the judge.
type unit struct {
	m, q      int
	x, raw, y float64 // y NaN when no human label
	rawR, yR  study.Rat
	lin, iso  float64 // held-out predictions (labelled units only)
}

// calibrateOne cross-fits the linear and isotonic maps of judge j for one
// metric and computes the per-model rows.
//
// Its units are the labelled responses the judge scored (a human label
// y, a judge feature and a judge value), model by model (question order
// within a model): mStart[m] is where model m's begin. Only they enter the
// maps and the calibrated means; the judge's unlabelled responses are read
// from the grids for PPI. Buffers are sized once (the units, the folds'
// training points, the per-model series) and reused.
func calibrateOne(d *data, j int, mt metric, opt Options) ([]CalibrationRow, string) {
	scored := func(m, q int) bool { return !math.IsNaN(mt.feat[m][q]) && !math.IsNaN(mt.raw[m][q]) }
	nL := 0
	for m := range d.models {
		for q := range d.questions {
			if scored(m, q) && !math.IsNaN(mt.y[m][q]) {
				nL++
			}
		}
	}
	us := make([]unit, 0, nL)
	mStart := make([]int, len(d.models)+1)
	for m := range d.models {
		mStart[m] = len(us)
		for q := range d.questions {
			if !scored(m, q) || math.IsNaN(mt.y[m][q]) {
				continue
			}
			x, raw := mt.feat[m][q], mt.raw[m][q]
			u := unit{m: m, q: q, x: x, raw: raw, y: mt.y[m][q], yR: mt.yR[m][q], lin: math.NaN(), iso: math.NaN()}
			if mt.rawR != nil {
				u.rawR = mt.rawR[m][q]
			} else {
				u.rawR, _ = study.RatOf(raw)
			}
			us = append(us, u)
		}
	}
	mStart[len(d.models)] = len(us)
	// Labelled questions and their folds.
	fold := make([]int, len(d.questions))
	for i := range fold {
		fold[i] = -1
	}
	var lq []int
	seen := make([]bool, len(d.questions))
	for _, u := range us {
		if !math.IsNaN(u.y) && !seen[u.q] {
			seen[u.q] = true
			lq = append(lq, u.q)
		}
	}
	sort.Ints(lq)
	warn := ""
	if len(lq) >= 2 {
		k := min(opt.Folds, len(lq))
		perm := stats.NewRand(opt.Seed, j).Perm(len(lq))
		for i, p := range perm {
			fold[lq[p]] = i % k
		}
		xs, ys := make([]float64, 0, nL), make([]float64, 0, nL)
		for f := 0; f < k; f++ {
			xs, ys = xs[:0], ys[:0]
			for _, u := range us {
				if !math.IsNaN(u.y) && fold[u.q] != f {
					xs = append(xs, u.x)
					ys = append(ys, u.y)
				}
			}
			lr := stats.LinRegress(xs, ys)
			iso, err := FitIsotonic(xs, ys, nil)
			ym := stats.Mean(ys)
			for i := range us {
				u := &us[i]
				if math.IsNaN(u.y) || fold[u.q] != f {
					continue
				}
				if math.IsNaN(lr.Slope) {
					u.lin = ym // constant judge score: the least-squares map is the mean
				} else {
					u.lin = lr.Intercept + float64(lr.Slope*u.x)
				}
				if mt.clip {
					u.lin = math.Min(1, math.Max(0, u.lin))
				}
				if err == nil {
					u.iso = iso.Predict(u.x)
				}
			}
		}
	} else {
		warn = fmt.Sprintf("%d labelled question(s); calibration needs 2", len(lq))
	}
	var rows []CalibrationRow
	f := make([]float64, len(d.questions))
	y := make([]float64, len(d.questions))
	lin, iso := make([]float64, 0, nL), make([]float64, 0, nL)
	for m, model := range d.models {
		lin, iso = lin[:0], iso[:0]
		var human, raw study.RatSum // the exact human and judge_raw means
		for q := range f {
			f[q], y[q] = math.NaN(), math.NaN()
		}
		nJ := 0
		for q := range f {
			if scored(m, q) {
				nJ++
				f[q] = mt.raw[m][q]
			}
		}
		for _, u := range us[mStart[m]:mStart[m+1]] {
			y[u.q] = u.y
			human.Add(u.yR, u.y)
			raw.Add(u.rawR, u.raw)
			lin = append(lin, u.lin)
			iso = append(iso, u.iso)
		}
		if nJ == 0 {
			continue
		}
		rows = append(rows, CalibrationRow{Judge: d.judges[j], Model: model, Metric: mt.name,
			Human: human.Mean(), HumanExact: human.Rat(), JudgeRaw: raw.Mean(), JudgeRawExact: raw.Rat(),
			JudgeLinear: stats.Mean(lin), JudgeIsotonic: stats.Mean(iso),
			PPI: PPIMean(f, y, opt.Level), Questions: human.N(), JudgeQuestions: int64(nJ)})
	}
	return rows, warn
}

func calTable() *report.Table {
	return &report.Table{
		Name: TableCalibration, Title: "Judge calibration and prediction-powered estimates", Section: report.SectionJudges,
		Doc: "Per judge, model and metric: the human mean and the judge's raw, linearly and isotonically calibrated means on the questions both graded (maps fitted on the other folds of questions, so every calibrated value is held out), and prediction-powered estimates of the human mean using the judge on all its questions.",
		Columns: []report.Column{
			{Name: "judge", Kind: report.Text, Doc: "judge evaluator id"},
			{Name: "model", Kind: report.Text, Doc: "evaluated model"},
			{Name: "metric", Kind: report.Text, Doc: "rubric (mean rubric score) or solve_rate"},
			{Name: "human", Kind: report.Float, Doc: "mean over labelled questions of the per-question human value (graders averaged)"},
			{Name: "judge_raw", Kind: report.Float, Doc: "judge's own value on the same questions (rubric mean, or share solved by the judge's rule)"},
			{Name: "judge_linear", Kind: report.Float, Doc: "mean of held-out least-squares calibrated judge scores (solve_rate: clipped to [0,1])"},
			{Name: "judge_isotonic", Kind: report.Float, Doc: "mean of held-out isotonic (PAV) calibrated judge scores"},
			{Name: "ppi", Kind: report.Float, Doc: "prediction-powered estimate: mean judge value on all its questions + mean human − judge on labelled ones"},
			{Name: "ppi_lo", Kind: report.Float, Doc: "lower end of the PPI CLT interval"},
			{Name: "ppi_hi", Kind: report.Float, Doc: "upper end of the PPI CLT interval"},
			{Name: "ppi_tuned", Kind: report.Float, Doc: "power-tuned PPI (PPI++): human mean + ppi_lambda × (judge mean on all − judge mean on labelled)"},
			{Name: "ppi_tuned_lo", Kind: report.Float, Doc: "lower end of the power-tuned PPI interval"},
			{Name: "ppi_tuned_hi", Kind: report.Float, Doc: "upper end of the power-tuned PPI interval"},
			{Name: "ppi_lambda", Kind: report.Float, Doc: "power-tuning weight Cov(human, judge)/Var(judge) (1 = classic PPI, 0 = humans only)"},
			{Name: "human_only_lo", Kind: report.Float, Doc: "lower end of the human-only CLT interval on the labelled questions"},
			{Name: "human_only_hi", Kind: report.Float, Doc: "upper end of the human-only CLT interval"},
			{Name: "err_raw", Kind: report.Float, Doc: "judge_raw − human"},
			{Name: "err_linear", Kind: report.Float, Doc: "judge_linear − human (held out)"},
			{Name: "err_isotonic", Kind: report.Float, Doc: "judge_isotonic − human (held out)"},
			{Name: "n_questions", Kind: report.Int, Doc: "labelled questions: graded by the judge and by humans"},
			{Name: "n_judge_questions", Kind: report.Int, Doc: "questions graded by the judge (the PPI's unlabelled pool includes the labelled ones)"},
		},
	}
}

func summaryTable() *report.Table {
	return &report.Table{
		Name: TableSummary, Title: "How much calibration closes the judge–human gap", Section: report.SectionJudges,
		Doc: "Per judge and metric: mean absolute error over models of the judge's model means against the human means, raw and after held-out calibration, the share of the error calibration removes, and the PPI interval width relative to the human-only one.",
		Columns: []report.Column{
			{Name: "judge", Kind: report.Text, Doc: "judge evaluator id"},
			{Name: "metric", Kind: report.Text, Doc: "rubric or solve_rate"},
			{Name: "n_models", Kind: report.Int, Doc: "models with a raw and an isotonic error"},
			{Name: "mae_raw", Kind: report.Float, Doc: "mean |err_raw| over those models"},
			{Name: "mae_linear", Kind: report.Float, Doc: "mean |err_linear|"},
			{Name: "mae_isotonic", Kind: report.Float, Doc: "mean |err_isotonic|"},
			{Name: "gap_closed_linear", Kind: report.Float, Doc: "1 − mae_linear/mae_raw: share of the error linear calibration removes (negative: it adds error)"},
			{Name: "gap_closed_isotonic", Kind: report.Float, Doc: "1 − mae_isotonic/mae_raw"},
			{Name: "ppi_width", Kind: report.Float, Doc: "mean PPI interval width over models"},
			{Name: "human_only_width", Kind: report.Float, Doc: "mean human-only interval width over models"},
			{Name: "width_ratio", Kind: report.Float, Doc: "ppi_width / human_only_width (below 1: the judge narrows the interval)"},
			{Name: "tuned_width_ratio", Kind: report.Float, Doc: "mean power-tuned PPI width / human_only_width"},
			{Name: "summary", Kind: report.Text, Doc: "the result in one sentence"},
		},
	}
}

// summarize is the summary row of one judge and metric.
func summarize(judge, metric string, rows []CalibrationRow) SummaryRow {
	var eR, eL, eI, wP, wH, wT []float64
	for _, cr := range rows {
		if r, i := cr.ErrRaw(), cr.ErrIsotonic(); !math.IsNaN(r) && !math.IsNaN(i) {
			eR = append(eR, math.Abs(r))
			eI = append(eI, math.Abs(i))
			eL = append(eL, math.Abs(cr.ErrLinear()))
		}
		if w, h := cr.PPI.Hi-cr.PPI.Lo, cr.PPI.HumanHi-cr.PPI.HumanLo; !math.IsNaN(w) && !math.IsNaN(h) {
			wP = append(wP, w)
			wH = append(wH, h)
			wT = append(wT, cr.PPI.TunedHi-cr.PPI.TunedLo)
		}
	}
	mr, ml, mi := stats.Mean(eR), stats.Mean(eL), stats.Mean(eI)
	gl, gi := closed(ml, mr), closed(mi, mr)
	pw, hw := stats.Mean(wP), stats.Mean(wH)
	return SummaryRow{Judge: judge, Metric: metric, Models: int64(len(eR)), MAERaw: mr, MAELinear: ml, MAEIsotonic: mi,
		GapClosedLinear: gl, GapClosedIsotonic: gi, PPIWidth: pw, HumanOnlyWidth: hw, WidthRatio: pw / hw,
		TunedWidthRatio: stats.Mean(wT) / hw, Sentence: sentence(judge, metric, len(eR), mr, mi, gi, gl)}
}

// closed is 1 − cal/raw; NaN when raw is 0 or NaN.
func closed(cal, raw float64) float64 {
	if !(raw > 0) {
		return math.NaN()
	}
	return 1 - cal/raw
}

func sentence(judge, metric string, n int, mr, mi, gi, gl float64) string {
	what := "human " + metric + " means"
	switch {
	case n == 0 || math.IsNaN(mr) || math.IsNaN(mi):
		return fmt.Sprintf("Judge %s: too few labelled questions to calibrate its %s.", judge, metric)
	case mr == 0:
		return fmt.Sprintf("Judge %s already matches the %s exactly.", judge, what)
	}
	verb := func(g float64) string {
		if g >= 0 {
			return fmt.Sprintf("closes %.0f%% of", 100*g)
		}
		return fmt.Sprintf("widens by %.0f%%", -100*g)
	}
	return fmt.Sprintf("Isotonic calibration %s the gap between judge %s and the %s (mean absolute error over %d models %.3g → %.3g, held out); linear calibration %s it.",
		verb(gi), judge, what, n, mr, mi, verb(gl))
}
