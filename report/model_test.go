package report

import (
	"fmt"
	"testing"
)

func TestTableGet(t *testing.T) {
	tb := &Table{Columns: []Column{{Name: "model"}, {Name: "solve_rate"}}}
	row := []any{"atlas-5", 0.5}
	for _, c := range []struct {
		name  string
		index int
		want  any
	}{
		{"model", 0, "atlas-5"},
		{"solve_rate", 1, 0.5},
		{"missing", -1, nil},
	} {
		if got := tb.Index(c.name); got != c.index {
			t.Errorf("Index(%q) = %d, want %d", c.name, got, c.index)
		}
		if got := tb.Get(row, c.name); got != c.want {
			t.Errorf("Get(row, %q) = %v, want %v", c.name, got, c.want)
		}
	}
	if got := tb.Get([]any{"short"}, "solve_rate"); got != nil {
		t.Errorf("Get on a short row = %v, want nil", got)
	}
}

func ExampleTable_Get() {
	t := &Table{Name: "summary", Columns: []Column{{Name: "model"}, {Name: "solve_rate"}}}
	t.Rows = [][]any{{"atlas-5", 0.64}}
	fmt.Println(t.Get(t.Rows[0], "model"), t.Get(t.Rows[0], "solve_rate"))
	// Output: atlas-5 0.64
}
