package pipeline

import (
	"math"
	"slices"
	"testing"

	"github.com/euroexec/euroexec/report"
)

func TestLeaveOutUndefined(t *testing.T) {
	nan := math.NaN()
	cols := []report.Column{{Name: "model"}, {Name: "n", Kind: report.Int}, {Name: "value", Kind: report.Float}, {Name: "rate", Kind: report.Fraction}}
	table := func(name, section string, rows ...[]any) *report.Table {
		return &report.Table{Name: name, Section: section, Columns: cols, Rows: rows}
	}
	rep := &report.Report{
		Tables: []*report.Table{
			table("undefined", report.SectionBeyond, []any{"m1", int64(3), nan, nil}, []any{"m2", int64(0), nil, nan}),
			table("one_value", report.SectionBeyond, []any{"m1", int64(3), nan, nil}, []any{"m2", int64(1), nil, 0.0}),
			table("no_rows", report.SectionBeyond),
			table("listing", report.SectionDataset, []any{"m1", int64(3), nan, nil}),
			{Name: "text_only", Columns: []report.Column{{Name: "model"}}, Rows: [][]any{{"m1"}}},
		},
		Figures: []*report.Figure{
			{ID: "of_undefined", Table: "undefined", Series: []report.Series{{Values: []float64{1}}}},
			{ID: "gaps", Table: "one_value", Series: []report.Series{{Values: []float64{nan}}, {Points: []report.Point{{X: 1, Y: nan}}}, {Cells: []report.Cell{{Value: nan}}}}},
			{ID: "a_cell", Table: "one_value", Series: []report.Series{{Values: []float64{nan}}, {Cells: []report.Cell{{Value: 0}}}}},
			{ID: "no_series", Table: "one_value"},
		},
	}
	leaveOutUndefined(rep)
	var tables, figures []string
	for _, tb := range rep.Tables {
		tables = append(tables, tb.Name)
	}
	for _, f := range rep.Figures {
		figures = append(figures, f.ID)
	}
	if want := []string{"one_value", "listing", "text_only"}; !slices.Equal(tables, want) {
		t.Errorf("tables kept %q, want %q", tables, want)
	}
	if want := []string{"a_cell", "no_series"}; !slices.Equal(figures, want) {
		t.Errorf("figures kept %q, want %q", figures, want)
	}
	wantNotes := []report.Note{
		{Table: "undefined", Reason: "left out: every value is undefined (value, rate empty in all 2 rows)"},
		{Table: "no_rows", Reason: "left out: no rows"},
		{Table: "of_undefined", Reason: "not drawn: every value of its table undefined is undefined"},
		{Table: "gaps", Reason: "not drawn: it has no defined value to show"},
	}
	if !slices.Equal(rep.Notes, wantNotes) {
		t.Errorf("notes %q, want %q", rep.Notes, wantNotes)
	}
}
