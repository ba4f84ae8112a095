package tables

import (
	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report"
)

// paperConsistency presents Table 6 (consistency); none when the analysis
// left it out (nil rows).
func paperConsistency(rows []paper.ConsistencyRow) report.Part {
	if rows == nil {
		return report.Part{}
	}
	t := &report.Table{Name: "consistency", Title: "Table 6: Consistency of instruments and evaluators", Section: report.SectionConsistency,
		Doc: "Kendall τ-b between explicit and derived rankings within each (evaluator, question) and across each (question, evaluator pair), averaged; Pearson r between evaluators on the rubric mean and checklist rate of the same response (every pair in both orders). Human gradings of the main round; 95 % cluster-bootstrap intervals.",
		Columns: []report.Column{
			paperCol("comparison", report.Text, "what is compared (see the table doc)"),
			paperCol("scope", report.Text, "within (one evaluator's instruments), across (pairs of evaluators), pearson (evaluator-pair Pearson r, double entry)"),
			paperCol("value", report.Float, "mean Kendall τ-b over units, or Pearson r"),
			paperCol("n", report.Int, "units averaged (τ) or points (Pearson, both orders)"),
			paperCol("n_undefined", report.Int, "units whose τ is undefined (a constant side or fewer than 2 models), left out"),
			paperCol("lo", report.Float, "95 % cluster-bootstrap interval over questions, lower end"),
			paperCol("hi", report.Float, "95 % cluster-bootstrap interval over questions, upper end"),
		}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.Comparison, r.Scope, r.Value, r.N, r.Undefined, r.Lo, r.Hi})
	}
	return report.Part{Tables: []*report.Table{t}}
}
