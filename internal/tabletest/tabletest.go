// Package tabletest holds the checks the analyses' tests share to compare a
// report table's cells, read by column name, with typed results.
package tabletest

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/report"
)

// SameCell says a table cell holds want: floats equal bit for bit or both
// NaN, other values equal.
func SameCell(got, want any) bool {
	if w, ok := want.(float64); ok {
		g, ok := got.(float64)
		return ok && (g == w || math.IsNaN(g) && math.IsNaN(w))
	}
	return got == want
}

// CheckCells fails t when a cell of row, read by column name, is not the
// wanted value, when want names a column tab does not have, or when want
// does not cover every column of tab.
func CheckCells(t testing.TB, tab *report.Table, row []any, want map[string]any) {
	t.Helper()
	for name, w := range want {
		if tab.Index(name) < 0 {
			t.Fatalf("table %s has no column %q", tab.Name, name)
		}
		if got := tab.Get(row, name); !SameCell(got, w) {
			t.Errorf("%s.%s = %v (%T), want %v (%T)", tab.Name, name, got, got, w, w)
		}
	}
	if len(want) != len(tab.Columns) {
		t.Errorf("%s: checked %d of %d columns", tab.Name, len(want), len(tab.Columns))
	}
}
