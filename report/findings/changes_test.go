package findings

import (
	"math"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/report"
)

// compareReport is a comparison's report with the given compare_models
// rows (model, metric, graders, old, new, delta, lo, hi, p_holm, flagged).
func compareReport(rows [][]any, kv ...string) *report.Report {
	t := &report.Table{Name: CompareModelsTable, Columns: []report.Column{{Name: "model"}, {Name: "metric"}, {Name: "graders"}, {Name: "old"}, {Name: "new"},
		{Name: "delta"}, {Name: "delta_lo"}, {Name: "delta_hi"}, {Name: "p_holm"}, {Name: "flagged"}}, Rows: rows}
	return withSettings(&report.Report{Title: "Comparison: a → b", Tables: []*report.Table{t}}, kv...)
}

// TestWhatChanged: the flagged rows in metric order, worsening first;
// the direction of each (up is better, down for the average rank and a
// lower-is-better rubric); the finding names them all with their
// intervals; a comparison without flags says so with the number of
// changes tested.
func TestWhatChanged(t *testing.T) {
	rows := [][]any{
		{"m1", "avg_rank", "humans", 2.0, 1.5, -0.5, -0.8, -0.2, 0.01, "yes"},
		{"m1", "solve_rate", "humans", 0.6, 0.5, -0.1, -0.15, -0.05, 0.001, "yes"},
		{"m2", "solve_rate", "humans", 0.4, 0.6, 0.2, 0.1, 0.3, 0.001, "yes"},
		{"m2", "rubric", "judge:j", 3.0, 3.5, 0.5, 0.2, 0.8, 0.01, "yes"},
		{"m3", "solve_rate", "humans", 0.4, 0.41, 0.01, -0.1, 0.12, 1.0, "no"},
		{"m3", "win_rate", "humans", nil, 0.5, math.NaN(), math.NaN(), math.NaN(), math.NaN(), "no"},
	}
	cs := WhatChanged(compareReport(rows, "old_label", "v1", "new_label", "v2"))
	if !cs.Found || cs.Old != "v1" || cs.New != "v2" || cs.Tests != 5 || len(cs.Flagged) != 4 {
		t.Fatalf("%+v", cs)
	}
	var got []string
	for _, c := range cs.Flagged {
		got = append(got, c.Model+" "+c.Metric+" "+map[bool]string{true: "better", false: "worse"}[c.Better]+" "+c.DeltaText())
	}
	want := []string{"m1 solve_rate worse -10.0 pp [-15.0, -5.0 pp]", "m2 solve_rate better +20.0 pp [+10.0, +30.0 pp]",
		"m2 rubric better +0.50 [+0.20, +0.80] points", "m1 avg_rank better -0.50 [-0.80, -0.20] places"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("flagged\n got %q\nwant %q", got, want)
	}
	s := cs.Sentence()
	for _, w := range []string{"What changed from v1 to v2: 4 of 5 changes are significant", "(1 worse, 3 better;", "m1's Solve Rate (human graders) changed by -10.0 pp [-15.0, -5.0 pp] (worse)", "m2's mean rubric score (judge j) changed by +0.50 [+0.20, +0.80] points (better)"} {
		if !strings.Contains(s, w) {
			t.Errorf("sentence lacks %q:\n%s", w, s)
		}
	}
	// a lower-is-better rubric: a rise is worse; labels from the title
	lo := WhatChanged(compareReport(rows, "rubric.direction", "lower"))
	for _, c := range lo.Flagged {
		if c.Metric == "rubric" && c.Better {
			t.Errorf("lower-is-better rubric up by %v: better", c.Delta)
		}
	}
	if lo.Old != "a" || lo.New != "b" {
		t.Errorf("labels from the title: %q, %q", lo.Old, lo.New)
	}
	// nothing flagged
	none := WhatChanged(compareReport(rows[4:]))
	if s := none.Sentence(); !strings.Contains(s, "no change of a model's metric is significant after Holm's adjustment across the 1 changes") {
		t.Errorf("no flags: %q", s)
	}
	if f := Make(compareReport(rows[4:])); len(f.Headlines) == 0 || f.Headlines[0].Topic != "changes" {
		t.Errorf("a comparison's first finding: %+v", f.Headlines)
	}
	if cs := WhatChanged(&report.Report{}); cs.Found {
		t.Error("a report without compare_models is a comparison")
	}
}

// TestDeltaFigures: one dot plot per metric with flagged changes (one unit
// per chart), each change its own series valued at its own category only
// (no line joins two changes), its interval beside it; one population is
// named in the title, several in the categories.
func TestDeltaFigures(t *testing.T) {
	cs := WhatChanged(compareReport([][]any{
		{"m1", "solve_rate", "humans", 0.6, 0.5, -0.1, -0.15, -0.05, 0.001, "yes"},
		{"m2", "solve_rate", "judge:j", 0.4, 0.6, 0.2, 0.1, 0.3, 0.001, "yes"},
		{"m2", "rubric", "judge:j", 3.0, 3.5, 0.5, 0.2, 0.8, 0.01, "yes"},
	}))
	figs := DeltaFigures(cs)
	if len(figs) != 2 || figs[0].ID != "compare_delta_solve_rate" || figs[1].ID != "compare_delta_rubric" {
		t.Fatalf("figures %d: %v", len(figs), figs)
	}
	sr := figs[0]
	if !sr.Percent || sr.Kind != report.Line || strings.Join(sr.Categories, ",") != "m1 (humans),m2 (j)" || len(sr.Series) != 2 {
		t.Errorf("Solve Rate plot: percent %v, kind %v, categories %q, %d series", sr.Percent, sr.Kind, sr.Categories, len(sr.Series))
	}
	for i, s := range sr.Series {
		for k := range s.Values {
			if (k == i) == math.IsNaN(s.Values[k]) || (k == i) == math.IsNaN(s.Lo[k]) {
				t.Errorf("series %d: value %v, lo %v at category %d", i, s.Values[k], s.Lo[k], k)
			}
		}
	}
	if s := sr.Series[1]; s.Values[1] != 0.2 || s.Lo[1] != 0.1 || s.Hi[1] != 0.3 {
		t.Errorf("m2: %v [%v, %v]", s.Values[1], s.Lo[1], s.Hi[1])
	}
	if r := figs[1]; r.Percent || r.YUnit != "points" || !strings.Contains(r.Title, "judge j") || r.Categories[0] != "m2" {
		t.Errorf("rubric plot: %+v", r)
	}
	if len(DeltaFigures(Changes{Found: true})) != 0 {
		t.Error("figures without flagged changes")
	}
}
