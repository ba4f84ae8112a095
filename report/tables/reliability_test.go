package tables

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/internal/tabletest"
	"github.com/euroexec/euroexec/metrics/reliability"
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

// TestReliabilityFromTyped: the reliability table's cells, read by column
// name, are the typed rows of the Result; the figure draws interval α for
// the rubric and nominal α for the checklist; notes keep their reasons;
// a result without rows has no table.
func TestReliabilityFromTyped(t *testing.T) {
	nan := math.NaN()
	res := reliability.Result{
		Instruments: []string{"rubric:A", "checklist"},
		Populations: []string{"humans", "humans+judge:j"},
		Notes:       []string{"humans: icc2_1 and icc2_k left out (graders differ)"},
		Warnings:    []string{"a warning"},
		Rows: []reliability.Row{
			{Instrument: "rubric:A", Population: "humans", Statistic: reliability.AlphaNominal, Value: 0.5, Units: 10, Graders: 3, Lo: 0.2, Hi: 0.7, Note: "n"},
			{Instrument: "rubric:A", Population: "humans", Statistic: reliability.AlphaInterval, Value: 0.8, Units: 10, Graders: 3, Lo: 0.6, Hi: 0.9},
			{Instrument: "checklist", Population: "humans", Statistic: reliability.AlphaNominal, Value: 0.4, Units: 30, Graders: 3, Lo: 0.1, Hi: 0.6},
			{Instrument: "rubric:A", Population: "humans+judge:j", Statistic: reliability.AlphaInterval, Value: 0.7, Units: 10, Graders: 4, Lo: nan, Hi: nan},
		},
	}
	p := Reliability(res)
	if len(p.Tables) != 1 || p.Tables[0].Name != ReliabilityTable {
		t.Fatalf("tables %v", p.Tables)
	}
	tab := p.Tables[0]
	if len(tab.Rows) != len(res.Rows) {
		t.Fatalf("%d table rows, %d typed rows", len(tab.Rows), len(res.Rows))
	}
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
	}
	if len(p.Notes) != 1 || p.Notes[0].Table != ReliabilityTable || p.Notes[0].Reason != res.Notes[0] || len(p.Warnings) != 1 {
		t.Errorf("notes %v warnings %v", p.Notes, p.Warnings)
	}
	if len(p.Figures) != 1 {
		t.Fatalf("figures %v", p.Figures)
	}
	f := p.Figures[0]
	want := map[string][]float64{ // population → bar per instrument (rubric:A interval α, checklist nominal α)
		"humans":         {0.8, 0.4},
		"humans+judge:j": {0.7, nan},
	}
	for _, s := range f.Series {
		for ci := range f.Categories {
			if !tabletest.SameCell(s.Values[ci], want[s.Name][ci]) {
				t.Errorf("series %s %s: bar %v, want %v", s.Name, f.Categories[ci], s.Values[ci], want[s.Name][ci])
			}
		}
	}
	if got := Reliability(reliability.Result{Notes: res.Notes}); len(got.Tables) != 0 || len(got.Notes) != 1 {
		t.Errorf("a result without rows: %d tables, notes %v", len(got.Tables), got.Notes)
	}
}
