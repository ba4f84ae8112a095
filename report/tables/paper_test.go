package tables

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/paper"
)

// TestPaperOrderAndNotes: tables.Paper puts the concepts in the report's
// order (summary before dataset before cost), copies the overview, keeps
// the analysis's notes first and then adds one note per table with empty
// cells, counting them, and passes the warnings on.
func TestPaperOrderAndNotes(t *testing.T) {
	nan := math.NaN()
	r := &paper.Result{Title: "t", Attributes: []string{"A"},
		Overview:     paper.Overview{Questions: 3, Models: 2, HumanLabel: "HE", Instruments: []string{"rubric"}, Missing: []string{"cost"}},
		Summary:      []paper.SummaryRow{{Set: "all", Graders: "humans", Model: "M1", SolveRate: nan, SolveRateLo: nan, SolveRateHi: nan}},
		Dataset:      paper.Dataset{Domains: []paper.DomainRow{}, Total: paper.DomainRow{Domain: "Total"}},
		Cost:         paper.Cost{LengthCorrelations: []paper.LengthCorrelation{{Length: "chars", Score: "rubric", R: nan, P: nan, Lo: nan, Hi: nan}}},
		Consistency:  []paper.ConsistencyRow{{Comparison: "cross_rubric", Scope: "across", Value: 0.5}},
		Notes:        []paper.Note{{Table: "consistency", Reason: "no explicit rows"}},
		Warnings:     []string{"w"},
		Significance: paper.Significance{},
	}
	rep := Paper(r)
	var names []string
	for _, tb := range rep.Tables {
		names = append(names, tb.Name)
	}
	want := []string{"summary", "domains", "consistency", "length_correlations"}
	if len(names) != len(want) {
		t.Fatalf("tables %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("tables %v, want %v", names, want)
		}
	}
	if rep.Title != "t" || rep.Overview.HumanLabel != "HE" || rep.Overview.Missing[0] != "cost" || rep.Warnings[0] != "w" {
		t.Errorf("report head %+v", rep)
	}
	wantNotes := [][2]string{
		{"consistency", "no explicit rows"},
		{"summary", "3 empty cells (undefined, not zero): " + paperUndefinedWhy["summary"]},
		{"length_correlations", "4 empty cells (undefined, not zero): " + paperUndefinedWhy["length_correlations"]},
	}
	if len(rep.Notes) != len(wantNotes) {
		t.Fatalf("notes %+v", rep.Notes)
	}
	for i, w := range wantNotes {
		if rep.Notes[i].Table != w[0] || rep.Notes[i].Reason != w[1] {
			t.Errorf("note %d: %+v, want %v", i, rep.Notes[i], w)
		}
	}
}
