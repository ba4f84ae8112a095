package tables

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/paper"
)

// TestPaperSummaryFromTyped: the summary table holds the typed rows cell
// by cell in its 20 columns; the headline figure follows the primary
// metric (Solve Rate by default, rubric with its lower-is-better title)
// in the order of the bars; no headline gives no figure.
func TestPaperSummaryFromTyped(t *testing.T) {
	nan := math.NaN()
	rows := []paper.SummaryRow{{Set: "all", Graders: "humans", Model: "A", Questions: 2, Gradings: 2,
		SolveRate: 0.5, SolveRateLo: 0.1, SolveRateHi: 0.9, AvgRank: 1.5, AvgRankLo: nan, AvgRankHi: nan,
		WinRate: 0.5, WinRateLo: 0, WinRateHi: 1, Rubric: 3.25, RubricLo: 3, RubricHi: 3.5, Checklist: 0.5, ChecklistLo: 0.25, ChecklistHi: 0.75}}
	h := &paper.Headline{Bars: []paper.HeadlineBar{{Model: "B", Value: 0.75, Lo: 0.5, Hi: 1}, {Model: "A", Value: 0.5, Lo: 0.1, Hi: 0.9}}}
	p := paperSummary(rows, h)
	if len(p.Tables) != 1 || len(p.Figures) != 1 {
		t.Fatalf("%d tables, %d figures", len(p.Tables), len(p.Figures))
	}
	s := p.Tables[0]
	if s.Name != "summary" || len(s.Columns) != 20 {
		t.Fatalf("table %s with %d columns", s.Name, len(s.Columns))
	}
	checkCell(t, s, s.Rows[0], "n_gradings", int64(2))
	checkCell(t, s, s.Rows[0], "avg_rank_lo", nan)
	checkCell(t, s, s.Rows[0], "rubric", 3.25)
	checkCell(t, s, s.Rows[0], "checklist_rate_hi", 0.75)
	f := p.Figures[0]
	if f.ID != "solve_rate_by_model" || f.Series[0].Name != "Solve Rate" || f.Categories[0] != "B" || f.Series[0].Hi[1] != 0.9 {
		t.Errorf("headline %+v", f)
	}
	h.Primary, h.LowerIsBetter = "rubric", true
	if f := paperHeadline(h); f.ID != "rubric_by_model" || f.Percent || f.Title != "Mean rubric score by model, lower is better (human graders, 95 % interval)" {
		t.Errorf("rubric headline %+v", f)
	}
	if p := paperSummary([]paper.SummaryRow{}, nil); len(p.Tables) != 1 || len(p.Figures) != 0 {
		t.Errorf("no rows, no headline: %d tables, %d figures; want the empty table only", len(p.Tables), len(p.Figures))
	}
}
