package tables

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/paper"
)

// TestPaperChecklistFromTyped: checklist_distribution and verdict_pairs
// hold the typed rows (the six shares in their columns); Figure 4 has one
// series per model over the bins, Figure 5 one series per pair category
// over the domains.
func TestPaperChecklistFromTyped(t *testing.T) {
	nan := math.NaN()
	bins := []string{"[0, 0.2)", "[0.2, 0.4)", "[0.4, 0.6)", "[0.6, 0.8)", "[0.8, 1]"}
	var dist []paper.ChecklistBinRow
	for _, m := range []string{"M1", "M2"} {
		for b, name := range bins {
			dist = append(dist, paper.ChecklistBinRow{Model: m, Bin: name, BinIndex: int64(b), Gradings: int64(b), N: 10, Share: float64(b) / 10})
		}
	}
	c := paper.Checklist{Distribution: dist, Bins: bins, VerdictPairs: []paper.VerdictPairRow{
		{Domain: "D1", Cells: 3, LeftOut: 1, NA: 2, Shares: [6]float64{1.0 / 9, 3.0 / 9, 3.0 / 9, 0, 1.0 / 9, 1.0 / 9}},
		{Domain: "Overall", Shares: [6]float64{nan, nan, nan, nan, nan, nan}},
	}}
	p := paperChecklist(c)
	if len(p.Tables) != 2 || len(p.Figures) != 2 {
		t.Fatalf("%d tables, %d figures; want 2 and 2", len(p.Tables), len(p.Figures))
	}
	d := p.Tables[0]
	checkCell(t, d, d.Rows[7], "model", "M2")
	checkCell(t, d, d.Rows[7], "bin", "[0.4, 0.6)")
	checkCell(t, d, d.Rows[7], "share", 0.2)
	if f := p.Figures[0]; len(f.Series) != 2 || len(f.Series[1].Values) != 5 || f.Series[1].Values[4] != 0.4 {
		t.Errorf("Figure 4 series %+v", f.Series)
	}
	v := p.Tables[1]
	checkCell(t, v, v.Rows[0], "na_verdicts", int64(2))
	checkCell(t, v, v.Rows[0], "cells_left_out", int64(1))
	checkCell(t, v, v.Rows[0], "yes_no", 3.0/9)
	checkCell(t, v, v.Rows[0], "no_no", 1.0/9)
	checkCell(t, v, v.Rows[1], "partial_partial", nan)
	f := p.Figures[1]
	if len(f.Series) != 6 || f.Series[2].Name != "yes_no" || f.Series[2].Values[0] != 3.0/9 || f.Categories[1] != "Overall" {
		t.Errorf("Figure 5 %+v", f)
	}
	if p := paperChecklist(paper.Checklist{}); len(p.Tables) != 0 {
		t.Errorf("empty Checklist gives %d tables", len(p.Tables))
	}
}
