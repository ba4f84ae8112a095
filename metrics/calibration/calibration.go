package calibration

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/metrics/stats"
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

// Result is what Analyze produced, as typed values; report/tables
// presents it (tables judge_calibration, judge_calibration_summary and
// length_controlled with their figures).
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
	Notes []Note
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

// Note says why (part of) a table was left out: Table is one of the
// table names below.
type Note struct {
	Table, Reason string
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

// Analyze computes the rows of judge_calibration,
// judge_calibration_summary and length_controlled. Invalid options are replaced by their defaults with a
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
		r.Notes = append(r.Notes, Note{Table: TableCalibration, Reason: "no study"})
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
			r.Notes = append(r.Notes, Note{Table: n, Reason: "the study has no judge gradings in the main round"})
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
		r.Notes = append(r.Notes, Note{Table: TableCalibration, Reason: fmt.Sprintf("%d row(s) have no PPI or human-only estimate: fewer than 2 questions graded by both the judge and humans", noPPI)})
	}
	if noCal > 0 {
		r.Notes = append(r.Notes, Note{Table: TableCalibration, Reason: fmt.Sprintf("%d row(s) have no calibrated values: the judge has fewer than 2 labelled questions, or the model none", noCal)})
	}
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
		TunedWidthRatio: stats.Mean(wT) / hw}
}

// closed is 1 − cal/raw; NaN when raw is 0 or NaN.
func closed(cal, raw float64) float64 {
	if !(raw > 0) {
		return math.NaN()
	}
	return 1 - cal/raw
}
