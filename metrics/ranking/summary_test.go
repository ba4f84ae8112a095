package ranking

import (
	"math"
	"reflect"
	"testing"

	"github.com/euroexec/euroexec/report"
)

func TestAnnotateSummary(t *testing.T) {
	nan := math.NaN()
	sum := &report.Table{Columns: []report.Column{{Name: "graders"}, {Name: "model"}, {Name: "x"}, {Name: "set"}}, Rows: [][]any{
		{"humans", "a", 1, "all"}, {"judge:j", "a", 2, "all"}, {"humans", "a", 3, "reference_subset"}, {"humans", "b", 4, "all"}, {"humans", "c", 5, "all"},
	}}
	res := Result{made: true, Models: []Ranked{
		{Model: "b", Rank: 1, RankLo: 1, RankHi: 1.5, Group: "a", GroupSolveRate: "a", PL: nan},
		{Model: "a", Rank: 2, RankLo: 1.5, RankHi: 2, Group: "ab", GroupSolveRate: "", PL: nan},
	}}
	res.AnnotateSummary(sum)
	want := [][]any{
		{"humans", "a", 1, "all", 2.0, 1.5, 2.0, "ab", nil}, // no Solve Rate letters: an empty cell
		{"judge:j", "a", 2, "all", nil, nil, nil, nil, nil},
		{"humans", "a", 3, "reference_subset", nil, nil, nil, nil, nil},
		{"humans", "b", 4, "all", 1.0, 1.0, 1.5, "a", "a"},
		{"humans", "c", 5, "all", nil, nil, nil, nil, nil}, // not ranked (e.g. below coverage)
	}
	if !reflect.DeepEqual(sum.Rows, want) {
		t.Errorf("rows = %v\nwant %v", sum.Rows, want)
	}
	if len(sum.Columns) != 4+len(SummaryColumns) {
		t.Errorf("columns = %d, want %d", len(sum.Columns), 4+len(SummaryColumns))
	}

	// Nothing to rank, or a summary without the columns: left as it is.
	for _, c := range []struct {
		name string
		res  Result
		tab  *report.Table
	}{
		{"no rankings", Result{}, &report.Table{Columns: []report.Column{{Name: "set"}, {Name: "graders"}, {Name: "model"}}, Rows: [][]any{{"all", "humans", "a"}}}},
		{"no model column", res, &report.Table{Columns: []report.Column{{Name: "set"}, {Name: "graders"}}, Rows: [][]any{{"all", "humans"}}}},
	} {
		before := len(c.tab.Columns)
		c.res.AnnotateSummary(c.tab)
		if len(c.tab.Columns) != before || len(c.tab.Rows[0]) != before {
			t.Errorf("%s: the summary was changed: %v", c.name, c.tab.Rows)
		}
	}
	Result{made: true}.AnnotateSummary(nil) // no summary: no panic
}

// TestPartFromTyped: the rankings and pairwise_significance rows are the
// typed values, undefined letters and significance as empty cells.
func TestPartFromTyped(t *testing.T) {
	nan := math.NaN()
	res := Result{made: true, HasRubric: true,
		Models: []Ranked{{Model: "m", Gradings: 3, Rubric: 2.5, SolveRate: 0.5, Rank: 1, RankLo: 1, RankHi: 2, Group: "a", Rankings: 0, PL: nan, PLLo: nan, PLHi: nan}},
		Tests: []Test{{A: "m", B: "n", Name: TestPairedT, Estimate: 0.5, N: 3, P: 0.04, PHolm: 0.08, Significant: false},
			{A: "m", B: "n", Name: TestPairedSR, Estimate: 0.1, N: 0, P: nan, PHolm: nan, Significant: true}},
		Notes: []report.Note{{Table: RankingsTable, Reason: "r"}}}
	p := res.Part()
	if len(p.Tables) != 2 || p.Tables[0].Name != RankingsTable || p.Tables[1].Name != PairwiseTable {
		t.Fatalf("tables %v", p.Tables)
	}
	row := p.Tables[0].Rows[0]
	if row[0] != "m" || row[1] != int64(3) || row[2] != 2.5 || row[7] != "a" || row[8] != nil || row[9] != int64(0) {
		t.Errorf("rankings row %v", row)
	}
	if got := p.Tables[1].Rows[0][11]; got != false {
		t.Errorf("t test significant = %v, want false", got)
	}
	if got := p.Tables[1].Rows[1][11]; got != nil {
		t.Errorf("undefined p: significant = %v, want an empty cell", got)
	}
	if len(p.Figures) != 1 || p.Figures[0].ID != "ranking_rank_intervals" {
		t.Errorf("figures %v, want the rank intervals only (no preference ranks)", p.Figures)
	}
	if len(p.Notes) != 1 {
		t.Errorf("notes %v", p.Notes)
	}
	if p := (Result{Notes: res.Notes}).Part(); len(p.Tables) != 0 || len(p.Notes) != 1 {
		t.Errorf("empty analysis: %d tables, notes %v", len(p.Tables), p.Notes)
	}
}
