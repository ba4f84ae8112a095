package findings

import (
	"math"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/report"
)

// TestStyleControlFinding: a finding when the style-controlled ratings
// order the models differently from the raw ratings, saying whether the
// length effect is significant and whether the intervals overlap; none
// when the order is the same or the model was not fitted.
func TestStyleControlFinding(t *testing.T) {
	nan := math.NaN()
	mk := func(lengthP float64, rows ...[]any) *report.Report {
		r := &report.Report{}
		cols := []report.Column{{Name: "graders"}, {Name: "model"}, {Name: "bt_rating"}, {Name: "sc_bt_rating"}, {Name: "sc_bt_rating_lo"}, {Name: "sc_bt_rating_hi"}}
		lt := &report.Table{Name: "pairwise_length", Columns: []report.Column{{Name: "graders"}, {Name: "length_logit"}, {Name: "length_p"}, {Name: "bold_logit"}, {Name: "bold_p"}},
			Rows: [][]any{{"judge", 0.41, lengthP, nan, nan}}}
		r.Add(report.Part{Tables: []*report.Table{{Name: "pairwise_models", Columns: cols, Rows: rows}, lt}})
		return r
	}
	tests := []struct {
		name    string
		r       *report.Report
		want    []string
		wantNot []string
	}{
		{"order changes, effect significant, intervals apart", mk(0.001,
			[]any{"judge", "a", 1100.0, 1000.0, 990.0, 1010.0}, []any{"judge", "b", 1000.0, 1050.0, 1040.0, 1060.0}),
			[]string{"Pairwise judgments of judge", "b above a", "length +0.41 logit per doubling (p = 0.001)"}, []string{"noise", "overlap"}},
		{"order changes, effect not significant, intervals overlap", mk(0.4,
			[]any{"judge", "a", 1100.0, 1000.0, 900.0, 1100.0}, []any{"judge", "b", 1000.0, 1050.0, 950.0, 1150.0}),
			[]string{"b above a", "may be noise", "overlap"}, nil},
		{"raw tie", mk(0.001, []any{"judge", "a", 1100.0, 1000.0, 990.0, 1010.0}, []any{"judge", "b", 1100.0, 1050.0, 1040.0, 1060.0}), nil, nil},
		{"same order", mk(0.001, []any{"judge", "a", 1100.0, 1060.0, 1050.0, 1070.0}, []any{"judge", "b", 1000.0, 1050.0, 1040.0, 1060.0}), nil, nil},
		{"no model", mk(0.001, []any{"judge", "a", 1100.0, nan, nan, nan}, []any{"judge", "b", 1000.0, nan, nan, nan}), nil, nil},
	}
	for _, tc := range tests {
		got := strings.Join(styleControl(tc.r), "\n")
		if len(tc.want) == 0 && got != "" {
			t.Errorf("%s: got %q, want no finding", tc.name, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: got %q, want it to contain %q", tc.name, got, w)
			}
		}
		for _, w := range tc.wantNot {
			if strings.Contains(got, w) {
				t.Errorf("%s: got %q, want it not to contain %q", tc.name, got, w)
			}
		}
	}
}
