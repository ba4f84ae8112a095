package tables

import (
	"math"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/internal/tabletest"
	"github.com/euroexec/euroexec/metrics/compare"
	"github.com/euroexec/euroexec/report"
)

// compareResult is a hand-made comparison of three runs (a, b, c) with
// one row of every table, a margin and a pairwise judge.
func compareResult() compare.Result {
	nan := math.NaN()
	return compare.Result{
		Labels: []string{"a", "b", "c"}, Populations: []string{compare.Humans}, Alpha: 0.05,
		Margins: map[string]float64{"solve_rate": 0.02},
		Models: []compare.ModelRow{{Model: "m", Metric: "solve_rate", Graders: compare.Humans, Old: 0.5, New: 0.6,
			OldLo: 0.4, OldHi: 0.6, NewLo: 0.5, NewHi: 0.7, Delta: 0.1, Lo: 0.02, Hi: 0.18, Paired: true, SharedQuestions: 40, SameResponses: 25,
			P: 0.01, PHolm: 0.03, Flagged: true, Margin: 0.02, ImprovementLo: 0.03, PNonInferior: 0.001, NonInferior: true},
			{Model: "m", Metric: "rubric", Graders: compare.Humans, Old: 3, New: nan, OldLo: nan, OldHi: nan, NewLo: nan, NewHi: nan,
				Delta: nan, Lo: nan, Hi: nan, P: nan, PHolm: nan, Margin: nan, ImprovementLo: nan, PNonInferior: nan}},
		Questions: []compare.QuestionRow{{QuestionID: "q1", Model: "m", Graders: compare.Humans, OldShare: 1, NewShare: 0.5, Delta: -0.5,
			Change: "regressed", OldChars: 120, NewChars: -1, OldPage: "../a/q1.html"}},
		Drift: []compare.DriftRow{{Judge: "j", Responses: 30, Questions: 10, TextChanged: 2, OldRubric: 3.5, NewRubric: 3.8, Diff: 0.3,
			Lo: 0.1, Hi: 0.5, Kappa: 0.7, FlippedShare: 0.1, P: 0.002, PHolm: 0.002, Flagged: true}},
		Rankings: []compare.RankRow{{Graders: compare.Humans, Model: "m", OldRank: 2, OldLo: 1, OldHi: 3, NewRank: 1, NewLo: 1, NewHi: 2,
			Flipped: []string{"x", "y"}, Significant: []string{"x"}}},
		Matching: []compare.MatchRow{{Kind: "question", ID: "q9", OnlyIn: "new"}},
		Trend:    []compare.TrendRow{{Graders: compare.Humans, Model: "m", Metric: "solve_rate", Run: 2, Label: "c", Value: 0.6, Lo: 0.5, Hi: 0.7}},
		Pairwise: []compare.PairwiseRow{{Graders: compare.Humans, Model: "m", Metric: "win_rate", NOld: 8, NNew: 9, Old: 0.75, New: 0.25,
			Delta: -0.5, Lo: -0.8, Hi: -0.2, P: 0.004, Significant: true}},
		PairwiseDrift: []compare.PairwiseDriftRow{{Judge: "j", Items: 4, Changed: 1, Agreement: 0.75, AgreementLo: 0.5, AgreementHi: 1,
			Kappa: 0.5, KappaLo: nan, KappaHi: nan}},
		Notes:    []compare.Note{{Table: compare.DriftTable, Reason: "why"}},
		Warnings: []string{"w"},
	}
}

// TestCompareFromTyped: each table's cells, read by column name, are the
// hand-made typed values (yes/no for booleans, empty for an absent
// length, an unknown text comparison and undecided non-inferiority; run
// index from 1; lists joined by "; "), in table order, with the notes and
// warnings.
func TestCompareFromTyped(t *testing.T) {
	nan := math.NaN()
	p := Compare(compareResult())
	var names []string
	tabs := map[string]*report.Table{}
	for _, tb := range p.Tables {
		names = append(names, tb.Name)
		tabs[tb.Name] = tb
	}
	want := []string{compare.ModelsTable, compare.QuestionsTable, compare.DriftTable, compare.RankingsTable, compare.MatchingTable,
		compare.TrendTable, compare.PairwiseTable, compare.PairwiseDriftTable}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("tables %v, want %v", names, want)
	}
	for _, c := range []struct {
		table string
		row   int
		want  map[string]any
	}{
		{compare.ModelsTable, 0, map[string]any{"model": "m", "metric": "solve_rate", "graders": "humans", "old": 0.5, "new": 0.6, "delta": 0.1,
			"delta_lo": 0.02, "delta_hi": 0.18, "paired": "yes", "n_shared_questions": int64(40), "n_same_responses": int64(25), "p_holm": 0.03, "flagged": "yes",
			"margin": 0.02, "improvement_lo": 0.03, "p_noninferior": 0.001, "noninferior": "yes", "equivalent": "no"}},
		{compare.ModelsTable, 1, map[string]any{"model": "m", "metric": "rubric", "graders": "humans", "old": 3.0, "new": nan, "delta": nan,
			"delta_lo": nan, "delta_hi": nan, "paired": "no", "n_shared_questions": int64(0), "n_same_responses": int64(0), "p_holm": nan, "flagged": "no",
			"margin": nan, "improvement_lo": nan, "p_noninferior": nan, "noninferior": nil, "equivalent": nil}},
		{compare.QuestionsTable, 0, map[string]any{"question_id": "q1", "model": "m", "graders": "humans", "old_share": 1.0, "new_share": 0.5,
			"delta": -0.5, "change": "regressed", "old_chars": int64(120), "new_chars": nil, "same_text": "", "old_page": "../a/q1.html", "new_page": ""}},
		{compare.DriftTable, 0, map[string]any{"judge": "j", "n_responses": int64(30), "n_questions": int64(10), "n_text_changed": int64(2),
			"old_rubric": 3.5, "new_rubric": 3.8, "rubric_diff": 0.3, "rubric_diff_lo": 0.1, "rubric_diff_hi": 0.5, "kappa_solved": 0.7,
			"flipped_share": 0.1, "p_holm": 0.002, "flagged": "yes"}},
		{compare.RankingsTable, 0, map[string]any{"graders": "humans", "model": "m", "old_rank": 2.0, "old_rank_lo": 1.0, "old_rank_hi": 3.0,
			"new_rank": 1.0, "new_rank_lo": 1.0, "new_rank_hi": 2.0, "flipped_with": "x; y", "significant_flips": "x"}},
		{compare.MatchingTable, 0, map[string]any{"kind": "question", "id": "q9", "only_in": "new", "note": ""}},
		{compare.TrendTable, 0, map[string]any{"graders": "humans", "model": "m", "metric": "solve_rate", "run_index": int64(3), "run": "c",
			"value": 0.6, "value_lo": 0.5, "value_hi": 0.7}},
		{compare.PairwiseTable, 0, map[string]any{"graders": "humans", "model": "m", "metric": "win_rate", "n_old": int64(8), "n_new": int64(9),
			"old": 0.75, "new": 0.25, "delta": -0.5, "delta_lo": -0.8, "delta_hi": -0.2, "p_value": 0.004, "significant": "yes"}},
		{compare.PairwiseDriftTable, 0, map[string]any{"judge": "j", "items": int64(4), "changed": int64(1), "agreement": 0.75,
			"agreement_lo": 0.5, "agreement_hi": 1.0, "kappa": 0.5, "kappa_lo": nan, "kappa_hi": nan}},
	} {
		tb := tabs[c.table]
		if c.row >= len(tb.Rows) {
			t.Fatalf("%s: %d rows", c.table, len(tb.Rows))
		}
		tabletest.CheckCells(t, tb, tb.Rows[c.row], c.want)
	}
	if len(p.Notes) != 1 || p.Notes[0].Table != compare.DriftTable || len(p.Warnings) != 1 {
		t.Errorf("notes %v warnings %v", p.Notes, p.Warnings)
	}
	// Two runs: no trend table; no margins: no non-inferiority columns;
	// no pairwise rows: no pairwise tables.
	r := compareResult()
	r.Labels, r.Margins, r.Trend, r.Pairwise, r.PairwiseDrift = []string{"a", "c"}, nil, nil, nil, nil
	p = Compare(r)
	if len(p.Tables) != 5 || p.Tables[0].Index("margin") >= 0 {
		t.Errorf("two runs, no margins, no pairwise: %d tables, margin column %d", len(p.Tables), p.Tables[0].Index("margin"))
	}
}

// TestCompareFigures: the OLD → NEW figure of a metric draws the first
// population's rows with both runs' own intervals, in percent for a rate;
// a metric undefined in both runs has no figure; the trend figure puts
// each run's value at its position.
func TestCompareFigures(t *testing.T) {
	p := Compare(compareResult())
	byID := map[string]*report.Figure{}
	for _, f := range p.Figures {
		byID[f.ID] = f
	}
	f := byID["compare_solve_rate"]
	if f == nil || !f.Percent || len(f.Series) != 2 || f.Series[0].Name != "a" || f.Series[1].Name != "c" {
		t.Fatalf("compare_solve_rate: %+v", f)
	}
	if f.Series[0].Values[0] != 0.5 || f.Series[0].Lo[0] != 0.4 || f.Series[1].Values[0] != 0.6 || f.Series[1].Hi[0] != 0.7 {
		t.Errorf("solve_rate series %+v", f.Series)
	}
	if byID["compare_rubric"] == nil || byID["compare_checklist_rate"] != nil {
		t.Errorf("rubric (old defined) drawn %v, checklist (no row) drawn %v", byID["compare_rubric"] != nil, byID["compare_checklist_rate"] != nil)
	}
	tr := byID["compare_trend_solve_rate"]
	if tr == nil || len(tr.Series) != 1 || !math.IsNaN(tr.Series[0].Values[0]) || tr.Series[0].Values[2] != 0.6 {
		t.Errorf("trend figure %+v", tr)
	}
}
