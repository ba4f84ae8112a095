package tables

import (
	"math"
	"reflect"
	"testing"

	"github.com/euroexec/euroexec/metrics/ranking"
	"github.com/euroexec/euroexec/report"
)

// TestRankingAnnotateSummary: the rank columns go to the humans rows of
// set all of the ranked models only, undefined letters as empty cells; a
// summary without the columns, or no rankings, leaves it as it is.
func TestRankingAnnotateSummary(t *testing.T) {
	nan := math.NaN()
	sum := &report.Table{Columns: []report.Column{{Name: "graders"}, {Name: "model"}, {Name: "x"}, {Name: "set"}}, Rows: [][]any{
		{"humans", "a", 1, "all"}, {"judge:j", "a", 2, "all"}, {"humans", "a", 3, "reference_subset"}, {"humans", "b", 4, "all"}, {"humans", "c", 5, "all"},
	}}
	res := ranking.Result{Models: []ranking.Ranked{
		{Model: "b", Rank: 1, RankLo: 1, RankHi: 1.5, Group: "a", GroupSolveRate: "a", PL: nan},
		{Model: "a", Rank: 2, RankLo: 1.5, RankHi: 2, Group: "ab", GroupSolveRate: "", PL: nan},
	}}
	RankingAnnotateSummary(res, sum)
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
	if len(sum.Columns) != 4+len(RankingSummaryColumns) {
		t.Errorf("columns = %d, want %d", len(sum.Columns), 4+len(RankingSummaryColumns))
	}

	// Nothing to rank, or a summary without the columns: left as it is.
	for _, c := range []struct {
		name string
		res  ranking.Result
		tab  *report.Table
	}{
		{"no rankings", ranking.Result{}, &report.Table{Columns: []report.Column{{Name: "set"}, {Name: "graders"}, {Name: "model"}}, Rows: [][]any{{"all", "humans", "a"}}}},
		{"no model column", res, &report.Table{Columns: []report.Column{{Name: "set"}, {Name: "graders"}}, Rows: [][]any{{"all", "humans"}}}},
	} {
		before := len(c.tab.Columns)
		RankingAnnotateSummary(c.res, c.tab)
		if len(c.tab.Columns) != before || len(c.tab.Rows[0]) != before {
			t.Errorf("%s: the summary was changed: %v", c.name, c.tab.Rows)
		}
	}
	RankingAnnotateSummary(res, nil) // no summary: no panic
}

// TestRankingFromTyped: the rankings and pairwise_significance rows are
// the typed values, undefined letters and significance as empty cells; the
// figures follow HasRanks and HasRubric; notes name the rankings table.
func TestRankingFromTyped(t *testing.T) {
	nan := math.NaN()
	res := ranking.Result{HasRubric: true,
		Models: []ranking.Ranked{{Model: "m", Gradings: 3, Rubric: 2.5, SolveRate: 0.5, Rank: 1, RankLo: 1, RankHi: 2, Group: "a", Rankings: 0, PL: nan, PLLo: nan, PLHi: nan,
			RankSolveRate: 1, RankSolveRateLo: 1, RankSolveRateHi: 2, PBest: 0.75, PBestSolveRate: 0.5}},
		Tests: []ranking.Test{{A: "m", B: "n", Name: ranking.TestPairedT, Method: ranking.MethodPairedT, Estimate: 0.5, Lo: 0.1, Hi: 0.9, MDE: 0.3, N: 3, P: 0.04, PHolm: 0.08, Significant: false},
			{A: "m", B: "n", Name: ranking.TestPairedSR, Method: ranking.MethodClusterT, Estimate: 0.1, N: 0, P: nan, PHolm: nan, Significant: true}},
		Notes: []string{"r"}}
	p := Ranking(res)
	if len(p.Tables) != 2 || p.Tables[0].Name != ranking.RankingsTable || p.Tables[1].Name != ranking.PairwiseTable {
		t.Fatalf("tables %v", p.Tables)
	}
	rt, pt := p.Tables[0], p.Tables[1]
	for _, tb := range p.Tables {
		if tb.Section != report.SectionBeyond || tb.Doc == "" {
			t.Errorf("table %s in section %q, doc %q", tb.Name, tb.Section, tb.Doc)
		}
	}
	for name, want := range map[string]any{"model": "m", "n_gradings": int64(3), "rubric": 2.5, "solve_rate": 0.5, "rank": 1.0, "rank_lo": 1.0,
		"rank_hi": 2.0, "group": "a", "group_solve_rate": nil, "n_rankings": int64(0), "pl_strength": nan, "pl_lo": nan, "pl_hi": nan,
		"rank_solve_rate": 1.0, "rank_solve_rate_lo": 1.0, "rank_solve_rate_hi": 2.0, "p_best": 0.75, "p_best_solve_rate": 0.5} {
		checkCell(t, rt, rt.Rows[0], name, want)
	}
	if len(rt.Columns) != 18 || len(pt.Columns) != 12 {
		t.Errorf("columns %d and %d, want 18 and 12", len(rt.Columns), len(pt.Columns))
	}
	for name, want := range map[string]any{"model_a": "m", "model_b": "n", "test": ranking.TestPairedT, "method": ranking.MethodPairedT,
		"estimate": 0.5, "estimate_lo": 0.1, "estimate_hi": 0.9, "n": int64(3), "mde": 0.3, "p": 0.04, "p_holm": 0.08, "significant": false} {
		checkCell(t, pt, pt.Rows[0], name, want)
	}
	if got := pt.Rows[1][11]; got != nil {
		t.Errorf("undefined p: significant = %v, want an empty cell", got)
	}
	if len(p.Figures) != 1 || p.Figures[0].ID != "ranking_rank_intervals" {
		t.Errorf("figures %v, want the rank intervals only (no preference ranks)", p.Figures)
	}
	if len(p.Notes) != 1 || p.Notes[0] != (report.Note{Table: ranking.RankingsTable, Reason: "r"}) {
		t.Errorf("notes %v", p.Notes)
	}
	res.HasRanks = true
	if p := Ranking(res); len(p.Figures) != 2 || p.Figures[0].ID != "ranking_pl_strength" {
		t.Errorf("figures %v, want the strengths and the rank intervals", p.Figures)
	}
	if p := Ranking(ranking.Result{Notes: res.Notes}); len(p.Tables) != 0 || len(p.Notes) != 1 {
		t.Errorf("empty analysis: %d tables, notes %v", len(p.Tables), p.Notes)
	}
}
