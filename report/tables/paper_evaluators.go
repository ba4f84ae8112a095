package tables

import (
	"fmt"

	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report"
)

// paperEvaluators presents the evaluators table, Figure 6
// (evaluator_leniency) and Figure 7 (extreme_evaluators), each figure
// with its table; a table the analysis left out (nil rows) is absent.
func paperEvaluators(e paper.Evaluators) report.Part {
	var p report.Part
	if e.Rows != nil {
		t := &report.Table{Name: "evaluators", Title: "Human evaluators", Section: report.SectionConsistency,
			Doc: "Each human evaluator of the main round: gradings, mean rubric and checklist rate over LLM responses, Solve Rate, the Figure 7 group, and their agreement with the other human graders of the same responses (mean absolute difference from the others' mean, Spearman's ρ with it, share of agreeing solved verdicts).",
			Columns: []report.Column{
				paperCol("evaluator", report.Text, "evaluator id"),
				paperCol("domain", report.Text, "evaluators.domain"),
				paperCol("n_gradings", report.Int, "gradings of LLM responses in the main round"),
				paperCol("rubric_mean", report.Float, "mean over the evaluator's gradings of the rubric mean"),
				paperCol("checklist_rate", report.Fraction, "mean over the evaluator's gradings of the checklist rate"),
				paperCol("solve_rate", report.Fraction, "share of the evaluator's gradings solved"),
				paperCol("group", report.Text, "critical or lenient (Figure 7), else empty"),
				paperCol("n_shared", report.Int, "the evaluator's gradings with a rubric mean of responses another human grader also scored: the units of rubric_abs_diff_others and spearman_others"),
				paperCol("rubric_abs_diff_others", report.Float, "mean over the shared responses of |the evaluator's rubric mean − the mean of the other human graders' rubric means|, in rubric points (0 = always agrees)"),
				paperCol("spearman_others", report.Float, "Spearman's ρ between the evaluator's rubric means and the other graders' mean (leave-one-out) over the shared responses; empty below 3 or when either side is constant"),
				paperCol("solve_agreement", report.Fraction, "share of the pairs (this grading, another human grader's grading of the same response), both with a defined solved flag, that agree on solved"),
				paperCol("n_solve_pairs", report.Int, "pairs behind solve_agreement"),
			}}
		for _, r := range e.Rows {
			t.Rows = append(t.Rows, []any{r.Evaluator, r.Domain, r.Gradings, r.RubricMean, r.ChecklistRate, r.SolveRate, r.Group,
				r.Shared, r.AbsDiffOthers, r.SpearmanOthers, r.SolveAgreement, r.SolvePairs})
		}
		p.Tables = append(p.Tables, t)
	}
	if e.Leniency != nil {
		t := &report.Table{Name: "evaluator_leniency", Title: "Figure 6: Evaluators by mean rubric score", Section: report.SectionConsistency,
			Doc: fmt.Sprintf("Number of human evaluators per %g-wide bin of their mean rubric score over LLM responses (main round).", e.Width),
			Columns: []report.Column{
				paperCol("bin", report.Text, "score range, [from, to)"),
				paperCol("bin_from", report.Float, "lower end (inclusive)"),
				paperCol("bin_to", report.Float, "upper end (exclusive, inclusive for the last bin)"),
				paperCol("evaluators", report.Int, "evaluators whose mean falls in the bin"),
			}}
		f := &report.Figure{ID: "fig6_evaluator_leniency", Section: report.SectionConsistency,
			Title: "Figure 6: Number of evaluators by their mean rubric score", Kind: report.Histogram,
			XName: "mean rubric score", YName: "evaluators", Table: t.Name}
		s := report.Series{Name: "evaluators"}
		for b, r := range e.Leniency {
			close := ")"
			if b == len(e.Leniency)-1 {
				close = "]"
			}
			name := fmt.Sprintf("[%g, %g%s", r.From, r.To, close)
			t.Rows = append(t.Rows, []any{name, r.From, r.To, r.Evaluators})
			f.Categories = append(f.Categories, name)
			s.Values = append(s.Values, float64(r.Evaluators))
		}
		f.Series = []report.Series{s}
		p.Tables = append(p.Tables, t)
		p.Figures = append(p.Figures, f)
	}
	if e.Extreme != nil {
		t := &report.Table{Name: "extreme_evaluators", Title: "Figure 7: Solve Rate by the most critical and most lenient evaluators", Section: report.SectionConsistency,
			Doc: fmt.Sprintf("Solve Rate per model from the gradings of the %d most critical and %d most lenient human evaluators (by mean rubric score over LLM responses; ties at the cut by evaluator id).", e.Critical, e.Lenient),
			Columns: []report.Column{
				paperCol("group", report.Text, "critical or lenient"),
				paperCol("model", report.Text, "model"),
				paperCol("n_evaluators", report.Int, "evaluators in the group"),
				paperCol("n_gradings", report.Int, "gradings of the model by the group"),
				paperCol("solve_rate", report.Fraction, "share solved"),
				paperCol("solve_rate_lo", report.Fraction, "95 % cluster-bootstrap interval, lower end"),
				paperCol("solve_rate_hi", report.Fraction, "95 % cluster-bootstrap interval, upper end"),
			}}
		f := &report.Figure{ID: "fig7_extreme_evaluators", Section: report.SectionConsistency,
			Title: "Figure 7: Solve Rate according to the most critical and most lenient evaluators", Kind: report.Bar,
			XName: "model", YName: "Solve Rate", YUnit: "%", Percent: true, Table: t.Name, Categories: e.Models}
		for _, g := range []string{"critical", "lenient"} {
			s := report.Series{Name: g}
			for _, r := range e.Extreme {
				if r.Group != g {
					continue
				}
				t.Rows = append(t.Rows, []any{r.Group, r.Model, r.Evaluators, r.Gradings, r.SolveRate, r.Lo, r.Hi})
				s.Values = append(s.Values, r.SolveRate)
				s.Lo = append(s.Lo, r.Lo)
				s.Hi = append(s.Hi, r.Hi)
			}
			f.Series = append(f.Series, s)
		}
		p.Tables = append(p.Tables, t)
		p.Figures = append(p.Figures, f)
	}
	return p
}
