package main

import (
	"strings"
	"testing"
)

func TestParseMargins(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want map[string]float64
		err  string
	}{
		{[]string{"2pp"}, map[string]float64{"solve_rate": 0.02, "checklist_rate": 0.02, "win_rate": 0.02}, ""},
		{[]string{"2pp", "rubric=0.1", "solve_rate=5pp"}, map[string]float64{"solve_rate": 0.05, "checklist_rate": 0.02, "win_rate": 0.02, "rubric": 0.1}, ""},
		{[]string{"avg_rank=0.25"}, map[string]float64{"avg_rank": 0.25}, ""},
		{[]string{"solve_rate=0.03"}, map[string]float64{"solve_rate": 0.03}, ""},
		{[]string{"0.02"}, nil, "must be in percentage points"},
		{[]string{"rubric=2pp"}, nil, "not a rate"},
		{[]string{"-1pp"}, nil, "positive number"},
		{[]string{"NaNpp"}, nil, "positive number"},
		{[]string{"150pp"}, nil, "at most 100 pp"},
		{[]string{"speed=1"}, nil, "unknown metric"},
	} {
		got, err := parseMargins(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: error %v, want one containing %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || len(got) != len(tc.want) {
			t.Errorf("%v: got %v, %v; want %v", tc.in, got, err, tc.want)
			continue
		}
		for k, v := range tc.want {
			if d := got[k] - v; d > 1e-15 || d < -1e-15 {
				t.Errorf("%v: %s = %v, want %v", tc.in, k, got[k], v)
			}
		}
	}
}
