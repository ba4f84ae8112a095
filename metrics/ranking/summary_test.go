package ranking

import (
	"reflect"
	"testing"

	"github.com/euroexec/euroexec/report"
)

func TestAnnotateSummary(t *testing.T) {
	sum := &report.Table{Columns: []report.Column{{Name: "set"}, {Name: "graders"}, {Name: "model"}}, Rows: [][]any{
		{"all", "humans", "a"}, {"all", "judge:j", "a"}, {"reference_subset", "humans", "a"}, {"all", "humans", "b"}, {"all", "humans", "c"},
	}}
	rk := &report.Table{Columns: []report.Column{{Name: "model"}, {Name: "rank"}, {Name: "rank_lo"}, {Name: "rank_hi"}, {Name: "group"}, {Name: "group_solve_rate"}},
		Rows: [][]any{{"b", int64(1), 1.0, 1.5, "a", "a"}, {"a", int64(2), 1.5, 2.0, "ab", "b"}}}
	AnnotateSummary(sum, rk)
	want := [][]any{
		{"all", "humans", "a", int64(2), 1.5, 2.0, "ab", "b"},
		{"all", "judge:j", "a", nil, nil, nil, nil, nil},
		{"reference_subset", "humans", "a", nil, nil, nil, nil, nil},
		{"all", "humans", "b", int64(1), 1.0, 1.5, "a", "a"},
		{"all", "humans", "c", nil, nil, nil, nil, nil}, // not ranked (e.g. below coverage)
	}
	if !reflect.DeepEqual(sum.Rows, want) {
		t.Errorf("rows = %v\nwant %v", sum.Rows, want)
	}
	if len(sum.Columns) != 3+len(SummaryColumns) {
		t.Errorf("columns = %d", len(sum.Columns))
	}
}
