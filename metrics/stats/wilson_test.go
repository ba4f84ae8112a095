package stats

import (
	"math"
	"testing"
)

func TestWilson(t *testing.T) {
	// By hand with z = 1.959964 (z² = 3.841459): centre (p + z²/2n)/(1 + z²/n),
	// half-width z/(1 + z²/n)·√(p(1−p)/n + z²/4n²). 0/10: centre = half =
	// 0.138766; 5/10: half 0.263407; 1/30: centre 0.0863064, half 0.0803974.
	for _, tc := range []struct{ x, n, lo, hi float64 }{
		{0, 10, 0, 0.277533},
		{10, 10, 0.722467, 1},
		{5, 10, 0.236593, 0.763407},
		{1, 30, 0.005909, 0.166704},
	} {
		lo, hi := Wilson(tc.x, tc.n, 0.95)
		if math.Abs(lo-tc.lo) > 2e-6 || math.Abs(hi-tc.hi) > 2e-6 {
			t.Errorf("Wilson(%v, %v) = [%v, %v], want [%v, %v]", tc.x, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
	if lo, _ := Wilson(1, 0, 0.95); !math.IsNaN(lo) {
		t.Error("n = 0: not NaN")
	}
}
