package tables

import (
	"math"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/metrics/paper"
)

// TestPaperEvaluatorsFromTyped: the evaluators table holds its typed rows;
// Figure 6's bins are labelled [from, to) with the last closed and the
// width in the doc; Figure 7 has one series per group over the models.
func TestPaperEvaluatorsFromTyped(t *testing.T) {
	nan := math.NaN()
	e := paper.Evaluators{
		Rows: []paper.EvaluatorRow{{Evaluator: "e1", Domain: "D", Gradings: 6, RubricMean: 3.5, ChecklistRate: 0.5, SolveRate: 1.0 / 3,
			Group: "critical", Shared: 6, AbsDiffOthers: 1.25, SpearmanOthers: nan, SolveAgreement: 1.0 / 3, SolvePairs: 6}},
		Leniency: []paper.LeniencyBin{{From: 1, To: 1.25, Evaluators: 2}, {From: 1.25, To: 1.5, Evaluators: 0}},
		Width:    0.25,
		Extreme: []paper.ExtremeRow{
			{Group: "critical", Model: "M1", Evaluators: 1, Gradings: 6, SolveRate: 0.5, Lo: 0.2, Hi: 0.8},
			{Group: "lenient", Model: "M1", Evaluators: 1, Gradings: 4, SolveRate: 0.75, Lo: nan, Hi: nan},
		},
		Models: []string{"M1"}, Critical: 1, Lenient: 1,
	}
	p := paperEvaluators(e)
	if len(p.Tables) != 3 || len(p.Figures) != 2 {
		t.Fatalf("%d tables, %d figures; want 3 and 2", len(p.Tables), len(p.Figures))
	}
	ev := p.Tables[0]
	checkCell(t, ev, ev.Rows[0], "rubric_abs_diff_others", 1.25)
	checkCell(t, ev, ev.Rows[0], "spearman_others", nan)
	checkCell(t, ev, ev.Rows[0], "group", "critical")
	checkCell(t, ev, ev.Rows[0], "n_solve_pairs", int64(6))
	le := p.Tables[1]
	checkCell(t, le, le.Rows[0], "bin", "[1, 1.25)")
	checkCell(t, le, le.Rows[1], "bin", "[1.25, 1.5]")
	checkCell(t, le, le.Rows[0], "evaluators", int64(2))
	if !strings.Contains(le.Doc, "per 0.25-wide bin") || p.Figures[0].Series[0].Values[0] != 2 {
		t.Errorf("Figure 6: doc %q, series %+v", le.Doc, p.Figures[0].Series)
	}
	ex := p.Tables[2]
	checkCell(t, ex, ex.Rows[1], "group", "lenient")
	checkCell(t, ex, ex.Rows[1], "solve_rate_lo", nan)
	if f := p.Figures[1]; len(f.Series) != 2 || f.Series[1].Name != "lenient" || f.Series[1].Values[0] != 0.75 || f.Categories[0] != "M1" {
		t.Errorf("Figure 7 %+v", f)
	}
	if !strings.Contains(ex.Doc, "the 1 most critical and 1 most lenient") {
		t.Errorf("Figure 7 doc %q", ex.Doc)
	}
}
