package calibration

import (
	"math"
	"testing"
)

// TestPPIMeanHand: f = 1,2,3,4 on four units, labels y = 2,4 on the first
// two (n = 2, N = 4, ρ = 1/2).
//
//	θ = mean(f) + mean(y − f) = 2.5 + (1 + 2)/2 = 4
//	y − (1−ρ)f = 1.5, 3 → variance 1.125; /n = 0.5625
//	Var(f) over all = 5/3; (1−ρ)·(5/3)/4 = 5/24
//	V = 0.5625 + 5/24 = 37/48; half-width q·√V with q the 0.975 quantile
//	of Student t with n − 1 = 1 df, i.e. of the Cauchy: tan(0.475π)
//	human-only: mean 3, SD √2, half-width q·√2/√2 = q
func TestPPIMeanHand(t *testing.T) {
	nan := math.NaN()
	z := math.Tan(0.475 * math.Pi) // 12.706204736174…
	r := PPIMean([]float64{1, 2, 3, 4}, []float64{2, 4, nan, nan}, 0.95)
	if r.N != 4 || r.NLabelled != 2 {
		t.Fatalf("N, n = %d, %d; want 4, 2", r.N, r.NLabelled)
	}
	h := z * math.Sqrt(37.0/48)
	for _, c := range [][3]float64{{r.Estimate, 4}, {r.Lo, 4 - h}, {r.Hi, 4 + h},
		{r.HumanMean, 3}, {r.HumanLo, 3 - z}, {r.HumanHi, 3 + z}} {
		if math.Abs(c[0]-c[1]) > 1e-12 {
			t.Errorf("got %v, want %v", c[0], c[1])
		}
	}
	// Power tuning: Cov_L(y, f) = ((1−1.5)(2−3) + (2−1.5)(4−3))/1 = 1,
	// λ = 1/(5/3) = 0.6; θ = 3 + 0.6·(2.5 − 1.5) = 3.6; y − 0.3f = 1.7, 3.4
	// → variance 1.445, /2 = 0.7225; λ²(1−ρ)Var(f)/N = 0.36·0.5·(5/3)/4 =
	// 0.075; V = 0.7975.
	ht := z * math.Sqrt(0.7975)
	for _, c := range [][3]float64{{r.Lambda, 0.6}, {r.Tuned, 3.6}, {r.TunedLo, 3.6 - ht}, {r.TunedHi, 3.6 + ht}} {
		if math.Abs(c[0]-c[1]) > 1e-12 {
			t.Errorf("tuned: got %v, want %v", c[0], c[1])
		}
	}
	// A unit without prediction is left out entirely.
	r2 := PPIMean([]float64{1, 2, 3, 4, nan}, []float64{2, 4, nan, nan, 100}, 0.95)
	if r2.N != 4 || r2.Estimate != r.Estimate {
		t.Errorf("NaN prediction not ignored: %+v", r2)
	}
	// All labelled: the PPI interval is the human-only one.
	r3 := PPIMean([]float64{1, 5, 2}, []float64{2, 3, 7}, 0.95)
	if math.Abs(r3.Lo-r3.HumanLo) > 1e-12 || math.Abs(r3.Hi-r3.HumanHi) > 1e-12 {
		t.Errorf("all labelled: PPI [%v, %v] vs human [%v, %v]", r3.Lo, r3.Hi, r3.HumanLo, r3.HumanHi)
	}
	// One label: NaN.
	if r4 := PPIMean([]float64{1, 2}, []float64{1, nan}, 0.95); !math.IsNaN(r4.Estimate) || !math.IsNaN(r4.HumanLo) || !math.IsNaN(r4.Tuned) {
		t.Errorf("one label: %+v, want NaN", r4)
	}
}
