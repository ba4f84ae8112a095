package tables

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report"
)

// TestPaperCostFromTyped: cost_vs_solve, length_vs_scores and
// length_correlations hold the typed rows cell by cell; Figure 8 plots only
// the models with a total cost and draws the fitted line; Figure 9 only
// the models with text; a nil slice leaves its table out.
func TestPaperCostFromTyped(t *testing.T) {
	nan := math.NaN()
	c := paper.Cost{
		Solve: []paper.CostRow{
			{Model: "A", Responses: 2, WithCost: 2, TotalUSD: 2, KnownUSD: 2, SolveRate: 0.5, FitSolveRate: 0.5},
			{Model: "B", Responses: 2, WithCost: 1, TotalUSD: nan, KnownUSD: 1.5, SolveRate: 0.25, FitSolveRate: nan},
		},
		Fit:                &paper.CostLine{X1: 1, Y1: 0.25, X2: 2, Y2: 0.5},
		Length:             []paper.LengthRow{{Model: "A", Responses: 2, MeanChars: 30, MeanWords: 3, SolveRate: 0.5}, {Model: "B", MeanChars: nan, MeanWords: nan, SolveRate: 0.25}},
		LengthCorrelations: []paper.LengthCorrelation{{Length: "chars", Score: "rubric", N: 3, R: -1, P: 0, Lo: nan, Hi: nan}},
	}
	p := paperCost(c)
	if len(p.Tables) != 3 || len(p.Figures) != 2 {
		t.Fatalf("%d tables, %d figures; want 3 and 2", len(p.Tables), len(p.Figures))
	}
	cs := p.Tables[0]
	if cs.Name != "cost_vs_solve" || len(cs.Rows) != 2 {
		t.Fatalf("first table %s with %d rows", cs.Name, len(cs.Rows))
	}
	wantCols := []string{"model", "responses", "responses_with_cost", "total_cost_usd", "known_cost_usd", "solve_rate", "fit_solve_rate"}
	for i, w := range wantCols {
		if cs.Columns[i].Name != w {
			t.Errorf("cost_vs_solve column %d is %s, want %s", i, cs.Columns[i].Name, w)
		}
	}
	b := cs.Rows[1]
	checkCell(t, cs, b, "model", "B")
	checkCell(t, cs, b, "responses_with_cost", int64(1))
	checkCell(t, cs, b, "total_cost_usd", nan)
	checkCell(t, cs, b, "known_cost_usd", 1.5)
	checkCell(t, cs, b, "fit_solve_rate", nan)
	f8 := p.Figures[0]
	if f8.ID != "fig8_cost_vs_solve" || len(f8.Series) != 1 || len(f8.Series[0].Points) != 1 || f8.Series[0].Points[0] != (report.Point{X: 2, Y: 0.5, Label: "A"}) {
		t.Errorf("Figure 8 %+v: want one point (2, 0.5) for A", f8.Series)
	}
	if len(f8.Lines) != 1 || f8.Lines[0].X1 != 1 || f8.Lines[0].Y2 != 0.5 {
		t.Errorf("Figure 8 lines %+v", f8.Lines)
	}
	lv := p.Tables[1]
	checkCell(t, lv, lv.Rows[0], "mean_chars", 30.0)
	checkCell(t, lv, lv.Rows[1], "responses", int64(0))
	if pts := p.Figures[1].Series[0].Points; len(pts) != 1 || pts[0].Label != "A" {
		t.Errorf("Figure 9 points %+v: want A only", pts)
	}
	lc := p.Tables[2]
	checkCell(t, lc, lc.Rows[0], "r", -1.0)
	checkCell(t, lc, lc.Rows[0], "n", int64(3))

	// Left out: no rows, no table, no figure.
	if p := paperCost(paper.Cost{}); len(p.Tables)+len(p.Figures) != 0 {
		t.Errorf("empty Cost gives %d tables, %d figures", len(p.Tables), len(p.Figures))
	}
	// The empty-cell note counts NaN cells of each table.
	notes := paperUndefinedNotes(p.Tables)
	if len(notes) != 3 || notes[0].Table != "cost_vs_solve" || notes[0].Reason[:2] != "2 " {
		t.Errorf("undefined notes %+v: want 2 empty cells in cost_vs_solve first", notes)
	}
}
