package tables

import (
	"math"

	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report"
)

// paperJudges presents Table 8 (judge_consistency) and Table 9
// (judge_vs_human with its scatter of rubric means against y = x,
// judge_crispness); a table the analysis left out (nil rows) is absent,
// and the figure is absent without a model that both rated.
func paperJudges(j paper.Judges) report.Part {
	var p report.Part
	if j.Consistency != nil {
		t := &report.Table{Name: "judge_consistency", Title: "Table 8: Judge–human ranking agreement", Section: report.SectionJudges,
			Doc: "Kendall τ-b between each judge's ranking (explicit, rubric-derived, checklist-derived) and each human's ranking of the same question, averaged over (human, question) (llm_indiv), and the mean-human ranking, averaged over questions (llm_mean); beside the humans' cross-evaluator τ (Table 6) and, on questions with 3 or more humans, each human against the mean of the other humans. Main round; 95 % cluster-bootstrap intervals.",
			Columns: []report.Column{
				paperCol("graders", report.Text, "judge:<id>, or humans for the human baselines"),
				paperCol("instrument", report.Text, "explicit, rubric or checklist"),
				paperCol("comparison", report.Text, "llm_indiv, llm_mean, cross_evaluator, human_vs_mean_of_others"),
				paperCol("tau", report.Float, "mean Kendall τ-b"),
				paperCol("n", report.Int, "units averaged"),
				paperCol("n_undefined", report.Int, "units with an undefined τ, left out"),
				paperCol("lo", report.Float, "95 % cluster-bootstrap interval over questions, lower end"),
				paperCol("hi", report.Float, "95 % cluster-bootstrap interval over questions, upper end"),
			}}
		for _, r := range j.Consistency {
			t.Rows = append(t.Rows, []any{r.Graders, r.Instrument, r.Comparison, r.Tau, r.N, r.Undefined, r.Lo, r.Hi})
		}
		p.Tables = append(p.Tables, t)
	}
	if j.VsHuman == nil {
		return p
	}
	t := &report.Table{Name: "judge_vs_human", Title: "Table 9: Human and judge scores per model", Section: report.SectionJudges,
		Doc: "Per judge and model, on the responses graded by both humans and the judge (main round): mean rubric, checklist rate and Solve Rate from the humans and from the judge, and the bias judge − human with a 95 % cluster-bootstrap interval.",
		Columns: []report.Column{
			paperCol("judge", report.Text, "judge:<id>"),
			paperCol("model", report.Text, "model"),
			paperCol("n_questions", report.Int, "questions with the model's response graded by both"),
			paperCol("human_rubric", report.Float, "mean rubric over the human gradings"),
			paperCol("judge_rubric", report.Float, "mean rubric over the judge gradings"),
			paperCol("rubric_bias", report.Float, "judge − human"),
			paperCol("rubric_bias_lo", report.Float, "95 % interval, lower end"),
			paperCol("rubric_bias_hi", report.Float, "95 % interval, upper end"),
			paperCol("human_checklist_rate", report.Fraction, "mean checklist rate, humans"),
			paperCol("judge_checklist_rate", report.Fraction, "mean checklist rate, judge"),
			paperCol("checklist_bias", report.Float, "judge − human"),
			paperCol("checklist_bias_lo", report.Float, "95 % interval, lower end"),
			paperCol("checklist_bias_hi", report.Float, "95 % interval, upper end"),
			paperCol("human_solve_rate", report.Fraction, "Solve Rate, humans"),
			paperCol("judge_solve_rate", report.Fraction, "Solve Rate, judge"),
			paperCol("solve_bias", report.Float, "judge − human"),
			paperCol("solve_bias_lo", report.Float, "95 % interval, lower end"),
			paperCol("solve_bias_hi", report.Float, "95 % interval, upper end"),
		}}
	f := &report.Figure{ID: "table9_judge_vs_human", Section: report.SectionJudges,
		Title: "Table 9: Judge against human rubric per model", Kind: report.Scatter,
		XName: "human rubric", YName: "judge rubric", Table: t.Name}
	// one series per judge, a point per model with both rubric means
	var pts []report.Point
	flush := func(judge string) {
		if len(pts) > 0 {
			f.Series = append(f.Series, report.Series{Name: judge, Points: pts})
		}
		pts = nil
	}
	for i, r := range j.VsHuman {
		row := []any{r.Judge, r.Model, r.Questions}
		for _, b := range []paper.JudgeBias{r.Rubric, r.Checklist, r.Solve} {
			row = append(row, b.Human, b.Judge, b.Bias, b.Lo, b.Hi)
		}
		t.Rows = append(t.Rows, row)
		if !math.IsNaN(r.Rubric.Human) && !math.IsNaN(r.Rubric.Judge) {
			pts = append(pts, report.Point{X: r.Rubric.Human, Y: r.Rubric.Judge, Label: r.Model})
		}
		if i == len(j.VsHuman)-1 || j.VsHuman[i+1].Judge != r.Judge {
			flush(r.Judge)
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range f.Series {
		for _, pt := range s.Points {
			lo, hi = math.Min(lo, math.Min(pt.X, pt.Y)), math.Max(hi, math.Max(pt.X, pt.Y))
		}
	}
	if len(f.Series) > 0 {
		f.Lines = []report.RefLine{{Name: "y = x", X1: lo, Y1: lo, X2: hi, Y2: hi}}
		p.Figures = append(p.Figures, f)
	}
	c := &report.Table{Name: "judge_crispness", Title: "Table 9: Judge over-crispness", Section: report.SectionJudges,
		Doc: "Least-squares slope of the judge's model means on the human model means (slope > 1: the judge spreads models further apart than humans) with a 95 % cluster-bootstrap interval, and the ratio of their SDs (n − 1) across models.",
		Columns: []report.Column{
			paperCol("judge", report.Text, "judge:<id>"),
			paperCol("measure", report.Text, "rubric, checklist_rate or solve_rate"),
			paperCol("n_models", report.Int, "models with both means"),
			paperCol("slope", report.Float, "slope of judge means on human means"),
			paperCol("slope_lo", report.Float, "95 % interval, lower end"),
			paperCol("slope_hi", report.Float, "95 % interval, upper end"),
			paperCol("intercept", report.Float, "intercept of the fit"),
			paperCol("r", report.Float, "Pearson r of the model means"),
			paperCol("sd_human", report.Float, "SD of the human model means"),
			paperCol("sd_judge", report.Float, "SD of the judge model means"),
			paperCol("sd_ratio", report.Float, "sd_judge / sd_human"),
			paperCol("sd_ratio_lo", report.Float, "95 % interval, lower end"),
			paperCol("sd_ratio_hi", report.Float, "95 % interval, upper end"),
		}}
	for _, r := range j.Crispness {
		c.Rows = append(c.Rows, []any{r.Judge, r.Measure, r.Models, r.Slope, r.SlopeLo, r.SlopeHi, r.Intercept, r.R,
			r.SDHuman, r.SDJudge, r.SDRatio, r.SDRatioLo, r.SDRatioHi})
	}
	p.Tables = append(p.Tables, t, c)
	return p
}
