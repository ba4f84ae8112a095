package paper

import (
	"math"
	"testing"
)

// TestEdgeInterval: a rate at 100 % on 30 questions, or any rate on fewer
// than 10 questions, gets the Wilson interval on the questions
// (hand-computed, z = 1.959964: 30/30 → centre 0.943244, half-width
// 0.0567564; 2.5/5 → centre 0.5, half-width 0.329576); an interior rate on
// enough questions keeps its percentile interval.
func TestEdgeInterval(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		rate, lo, hi float64
		nQ           int
		wlo, whi     float64
		wilson       bool
	}{
		{1, 1, 1, 30, 0.886488, 1, true},
		{0.5, 0.4, 0.6, 5, 0.170424, 0.829576, true},
		{0.5, 0.4, 0.6, 60, 0.4, 0.6, false},
		{0.5, 0.5, 0.5, 60, 0.377352, 0.622648, true}, // collapsed: half-width 0.122648
		{nan, nan, nan, 0, nan, nan, false},
	} {
		lo, hi, w := edgeInterval(tc.rate, tc.lo, tc.hi, tc.nQ)
		same := func(a, b float64) bool { return math.Abs(a-b) < 2e-6 || math.IsNaN(a) && math.IsNaN(b) }
		if w != tc.wilson || !same(lo, tc.wlo) || !same(hi, tc.whi) {
			t.Errorf("edgeInterval(%v, %v, %v, %d) = %v, %v, %v; want %v, %v, %v", tc.rate, tc.lo, tc.hi, tc.nQ, lo, hi, w, tc.wlo, tc.whi, tc.wilson)
		}
	}
}
