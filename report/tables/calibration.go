package tables

import (
	"fmt"
	"math"

	"github.com/euroexec/euroexec/metrics/calibration"
	"github.com/euroexec/euroexec/report"
)

// Calibration presents r: judge_calibration and judge_calibration_summary
// with a scatter per metric when there are judges, length_controlled with
// its bar chart when it was fitted; with r's notes and warnings it is
// ready for report.Report.Add.
func Calibration(r calibration.Result) report.Part {
	p := report.Part{Warnings: r.Warnings}
	for _, n := range r.Notes {
		p.Notes = append(p.Notes, report.Note{Table: n.Table, Reason: n.Reason})
	}
	if len(r.Judges) > 0 {
		t := calibrationTable()
		for _, cr := range r.Calibration {
			t.Rows = append(t.Rows, []any{cr.Judge, cr.Model, cr.Metric, cr.Human, cr.JudgeRaw, cr.JudgeLinear, cr.JudgeIsotonic,
				cr.PPI.Estimate, cr.PPI.Lo, cr.PPI.Hi, cr.PPI.Tuned, cr.PPI.TunedLo, cr.PPI.TunedHi, cr.PPI.Lambda,
				cr.PPI.HumanLo, cr.PPI.HumanHi,
				cr.ErrRaw(), cr.ErrLinear(), cr.ErrIsotonic(), cr.Questions, cr.JudgeQuestions})
		}
		sum := calibrationSummaryTable()
		figs := map[string]*report.Figure{}
		var order []string
		for _, sr := range r.Summary {
			sum.Rows = append(sum.Rows, []any{sr.Judge, sr.Metric, sr.Models, sr.MAERaw, sr.MAELinear, sr.MAEIsotonic,
				sr.GapClosedLinear, sr.GapClosedIsotonic, sr.PPIWidth, sr.HumanOnlyWidth, sr.WidthRatio, sr.TunedWidthRatio, calibrationSentence(sr)})
			f := figs[sr.Metric]
			if f == nil {
				f = &report.Figure{ID: "judge_calibration_" + sr.Metric, Section: report.SectionJudges,
					Title: "Judge vs human " + sr.Metric + " per model, raw and isotonic-calibrated (held out)",
					Kind:  report.Scatter, XName: "human " + sr.Metric, YName: "judge " + sr.Metric,
					Percent: sr.Metric == calibration.MetricSolveRate, Table: calibration.TableCalibration}
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
		t, f := calibrationLength(r.Length)
		p.Tables = append(p.Tables, t)
		p.Figures = append(p.Figures, f)
	}
	return p
}

// calibrationTable is the empty judge_calibration table.
func calibrationTable() *report.Table {
	return &report.Table{
		Name: calibration.TableCalibration, Title: "Judge calibration and prediction-powered estimates", Section: report.SectionJudges,
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

// calibrationSummaryTable is the empty judge_calibration_summary table.
func calibrationSummaryTable() *report.Table {
	return &report.Table{
		Name: calibration.TableSummary, Title: "How much calibration closes the judge–human gap", Section: report.SectionJudges,
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

// calibrationLength builds the length_controlled table and its figure.
func calibrationLength(l calibration.Length) (*report.Table, *report.Figure) {
	t := &report.Table{
		Name: calibration.TableLength, Title: "Length-controlled model comparison", Section: report.SectionBeyond,
		Doc: "Per model, the mean human rubric and the model effect after controlling for response length: least squares of each response's mean human rubric_mean on standardised log length with question and model fixed effects; effects are centred on the mean model, intervals from a bootstrap over questions.",
		Columns: []report.Column{
			{Name: "model", Kind: report.Text, Doc: "evaluated model"},
			{Name: "n_responses", Kind: report.Int, Doc: "responses in the fit (with text and human rubric gradings)"},
			{Name: "mean_chars", Kind: report.Float, Doc: "mean response length in characters"},
			{Name: "raw_mean", Kind: report.Float, Doc: "mean over the model's responses of the mean human rubric_mean"},
			{Name: "raw_effect", Kind: report.Float, Doc: "raw_mean − mean of raw_mean over models"},
			{Name: "adjusted_effect", Kind: report.Float, Doc: "length-adjusted model effect (fixed-effects coefficient, centred over models)"},
			{Name: "adjusted_lo", Kind: report.Float, Doc: "lower end of its bootstrap interval"},
			{Name: "adjusted_hi", Kind: report.Float, Doc: "upper end of its bootstrap interval"},
			{Name: "length_coef", Kind: report.Float, Doc: "rubric points per standard deviation of log length (same on every row)"},
			{Name: "length_coef_lo", Kind: report.Float, Doc: "lower end of its bootstrap interval"},
			{Name: "length_coef_hi", Kind: report.Float, Doc: "upper end of its bootstrap interval"},
		},
	}
	fig := &report.Figure{ID: "length_controlled_effects", Section: report.SectionBeyond,
		Title: "Model effects on the human rubric, raw and length-adjusted", Kind: report.Bar,
		XName: "model", YName: "effect (rubric points vs the mean model)", Table: calibration.TableLength}
	raw := report.Series{Name: "raw"}
	adj := report.Series{Name: "length-adjusted"}
	for _, m := range l.Rows {
		t.Rows = append(t.Rows, []any{m.Model, m.Responses, m.MeanChars, m.RawMean, m.RawEffect,
			m.AdjustedEffect, m.AdjustedLo, m.AdjustedHi, l.Coef, l.CoefLo, l.CoefHi})
		fig.Categories = append(fig.Categories, m.Model)
		raw.Values = append(raw.Values, m.RawEffect)
		adj.Values = append(adj.Values, m.AdjustedEffect)
		adj.Lo = append(adj.Lo, m.AdjustedLo)
		adj.Hi = append(adj.Hi, m.AdjustedHi)
	}
	fig.Series = []report.Series{raw, adj}
	return t, fig
}

// calibrationSentence is the result of one judge_calibration_summary row
// in one sentence.
func calibrationSentence(sr calibration.SummaryRow) string {
	judge, metric, n, mr, mi, gi, gl := sr.Judge, sr.Metric, sr.Models, sr.MAERaw, sr.MAEIsotonic, sr.GapClosedIsotonic, sr.GapClosedLinear
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
