package reliability

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/internal/tabletest"
	"github.com/euroexec/euroexec/report"
)

// checkCell fails when the cell of row in column name is not want.
func checkCell(t *testing.T, tab *report.Table, row []any, name string, want any) {
	t.Helper()
	if tab.Index(name) < 0 {
		t.Fatalf("table %s has no column %q", tab.Name, name)
	}
	if got := tab.Get(row, name); !tabletest.SameCell(got, want) {
		t.Errorf("%s.%s = %v (%T), want %v (%T)", tab.Name, name, got, got, want, want)
	}
}

// TestPartFromTyped: the reliability table's cells, read by column name,
// are the typed rows of the Result, and the figure's bars are their α.
func TestPartFromTyped(t *testing.T) {
	opt := DefaultOptions()
	opt.Bootstrap = 30
	res := analyze(t, studyFromMatrix(krippC(), 1, 5, map[int]bool{3: true}), opt)
	if len(res.Rows) == 0 {
		t.Fatal("no rows")
	}
	p := res.Part()
	if len(p.Tables) != 1 || p.Tables[0].Name != TableName {
		t.Fatalf("tables %v", p.Tables)
	}
	tab := p.Tables[0]
	if len(tab.Rows) != len(res.Rows) {
		t.Fatalf("%d table rows, %d typed rows", len(tab.Rows), len(res.Rows))
	}
	withInterval := 0
	for i, r := range res.Rows {
		row := tab.Rows[i]
		checkCell(t, tab, row, "instrument", r.Instrument)
		checkCell(t, tab, row, "population", r.Population)
		checkCell(t, tab, row, "statistic", r.Statistic)
		checkCell(t, tab, row, "value", r.Value)
		checkCell(t, tab, row, "n_units", r.Units)
		checkCell(t, tab, row, "n_graders", r.Graders)
		checkCell(t, tab, row, "lo", r.Lo)
		checkCell(t, tab, row, "hi", r.Hi)
		checkCell(t, tab, row, "note", r.Note)
		if !math.IsNaN(r.Lo) {
			withInterval++
		}
	}
	if withInterval == 0 {
		t.Error("no row has an interval: the check of lo/hi proves nothing")
	}
	if want := []string{"humans", "humans+judge:g4"}; len(res.Populations) != 2 || res.Populations[0] != want[0] || res.Populations[1] != want[1] {
		t.Errorf("populations %v, want %v", res.Populations, want)
	}
	if len(p.Figures) != 1 {
		t.Fatalf("figures %v", p.Figures)
	}
	f := p.Figures[0]
	for si, s := range f.Series {
		for ci, inst := range f.Categories {
			for _, r := range res.Rows {
				if r.Population == s.Name && r.Instrument == inst && r.Statistic == AlphaInterval {
					if !tabletest.SameCell(s.Values[ci], r.Value) || !tabletest.SameCell(s.Lo[ci], r.Lo) || !tabletest.SameCell(s.Hi[ci], r.Hi) {
						t.Errorf("series %d %s: bar %v [%v, %v], want %v [%v, %v]", si, inst, s.Values[ci], s.Lo[ci], s.Hi[ci], r.Value, r.Lo, r.Hi)
					}
				}
			}
		}
	}
	if len(Result{Notes: res.Notes}.Part().Tables) != 0 {
		t.Error("a result without rows made a table")
	}
}
