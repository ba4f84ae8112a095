package stats

import (
	"math"
	"testing"
)

func TestPairedClusterDiffHand(t *testing.T) {
	near := func(t *testing.T, what string, got, want, tol float64) {
		t.Helper()
		if !(math.Abs(got-want) <= tol) {
			t.Errorf("%s = %.15g, want %.15g", what, got, want)
		}
	}
	t.Run("unequal counts", func(t *testing.T) {
		// ma = 3/5, mb = 2/4, Δ = 0.1; u = 0.285, −0.165, −0.12;
		// Σu² = 0.12285, Var = 3/2·Σu² = 0.184275; t on 2 df, whose
		// two-sided p is 1 − t/√(2 + t²).
		r := PairedClusterDiff([]ClusterPair{{2, 2, 0, 1}, {1, 2, 1, 1}, {0, 1, 1, 2}, {1, 1, 0, 0}}, 0.95)
		se := math.Sqrt(0.184275)
		tt := 0.1 / se
		near(t, "estimate", r.Estimate, 0.1, 1e-15)
		near(t, "se", r.SE, se, 1e-15)
		near(t, "t", r.T, tt, 1e-14)
		near(t, "p", r.P, 1-tt/math.Sqrt(2+tt*tt), 1e-12)
		// t_{2, 0.975} = 4.302652729749464 (scipy.stats.t.ppf)
		near(t, "lo", r.Lo, 0.1-4.302652729749464*se, 1e-9)
		if r.Clusters != 3 || r.DF != 2 || r.Exact {
			t.Errorf("clusters %d df %v exact %v; want 3, 2, false (the cluster without b is left out)", r.Clusters, r.DF, r.Exact)
		}
	})
	t.Run("one unit a side is the paired t test", func(t *testing.T) {
		x := []float64{3.5, 4, 2, 5, 4.5, 3}
		y := []float64{3, 4.5, 1, 4, 4, 2.5}
		var cl []ClusterPair
		for i := range x {
			cl = append(cl, ClusterPair{x[i], 1, y[i], 1})
		}
		r, want := PairedClusterDiff(cl, 0.95), TTestRel(x, y)
		near(t, "t", r.T, want.T, 1e-12)
		near(t, "p", r.P, want.P, 1e-12)
		near(t, "se", r.SE, want.SE, 1e-12)
	})
	t.Run("binary singletons use McNemar's mid-p", func(t *testing.T) {
		// 5 clusters where only a solved, 1 where only b, 4 agreeing:
		// mid-p = 2·(P(Bin(6, ½) = 0) + ½·P(Bin(6, ½) = 1)) = 2·(1 + 3)/64.
		var cl []ClusterPair
		for range 5 {
			cl = append(cl, ClusterPair{1, 1, 0, 1})
		}
		cl = append(cl, ClusterPair{0, 1, 1, 1}, ClusterPair{1, 1, 1, 1}, ClusterPair{1, 1, 1, 1}, ClusterPair{0, 1, 0, 1}, ClusterPair{0, 1, 0, 1})
		r := PairedClusterDiff(cl, 0.95)
		if !r.Exact {
			t.Fatal("not exact")
		}
		near(t, "p", r.P, 8.0/64, 1e-15)
		near(t, "estimate", r.Estimate, 0.4, 1e-15)
	})
	t.Run("agreement everywhere", func(t *testing.T) {
		r := PairedClusterDiff([]ClusterPair{{2, 2, 2, 2}, {0, 3, 0, 3}, {1.5, 2, 1.5, 2}}, 0.95)
		if r.P != 1 || r.Estimate != 0 {
			t.Errorf("p %v estimate %v, want 1, 0", r.P, r.Estimate)
		}
	})
	t.Run("too few clusters", func(t *testing.T) {
		r := PairedClusterDiff([]ClusterPair{{1, 1, 0, 1}, {1, 1, 0, 0}}, 0.95)
		if !math.IsNaN(r.P) || r.Clusters != 1 {
			t.Errorf("p %v clusters %d, want NaN, 1", r.P, r.Clusters)
		}
	})
}

// simPairs simulates one study of q questions for two models whose
// per-question solve probabilities are the question's difficulty plus
// delta for a; each response is graded by 1 to maxGraders graders (1 only
// when maxGraders is 1), each grading solved with the response's
// probability plus a grader-level nudge.
func simPairs(seed uint64, q, maxGraders int, delta float64) []ClusterPair {
	r := NewRand(seed, 0)
	cl := make([]ClusterPair, q)
	for i := range cl {
		p := 0.15 + 0.7*r.Float64()
		for side := range 2 {
			pp := p
			if side == 0 {
				pp += delta
			}
			pp = math.Min(1, math.Max(0, pp+0.1*r.NormFloat64()))
			n := 1 + r.IntN(maxGraders)
			s := 0
			for range n {
				if r.Float64() < pp {
					s++
				}
			}
			if side == 0 {
				cl[i].SumA, cl[i].NA = float64(s), float64(n)
			} else {
				cl[i].SumB, cl[i].NB = float64(s), float64(n)
			}
		}
	}
	return cl
}

// TestPairedClusterDiffSizeAndPower simulates 400 studies under the null
// (type I error at α = 5 % must be within [3 %, 7 %]) and 400 with a true
// difference of 10 points (power), with several graders per response
// (cluster-robust t) and with one (McNemar's mid-p).
func TestPairedClusterDiffSizeAndPower(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	const studies = 400
	for _, tc := range []struct {
		name       string
		graders, q int
		minPower   float64
	}{
		{"cluster t, 1-3 graders, 300 questions", 3, 300, 0.8},
		{"cluster t, 1-3 graders, 40 questions", 3, 40, 0.2},
		{"McNemar mid-p, 1 grader, 500 questions", 1, 500, 0.8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rejNull, rejAlt := 0, 0
			for s := range studies {
				if r := PairedClusterDiff(simPairs(uint64(1000+s), tc.q, tc.graders, 0), 0.95); r.P < 0.05 {
					rejNull++
				}
				if r := PairedClusterDiff(simPairs(uint64(5000+s), tc.q, tc.graders, 0.1), 0.95); r.P < 0.05 {
					rejAlt++
				}
			}
			size, power := float64(rejNull)/studies, float64(rejAlt)/studies
			t.Logf("size %.3f, power %.3f", size, power)
			if size < 0.03 || size > 0.07 {
				t.Errorf("type I error %.3f outside [0.03, 0.07]", size)
			}
			if power < tc.minPower {
				t.Errorf("power %.3f < %.2f", power, tc.minPower)
			}
		})
	}
}

func TestTInterval(t *testing.T) {
	// scipy.stats.t.ppf(0.975, 2) = 4.302652729749464, ppf(0.95, 10) = 1.812461122811676
	for _, tc := range []struct{ est, se, df, level, lo, hi float64 }{
		{1, 0.5, 2, 0.95, 1 - 0.5*4.302652729749464, 1 + 0.5*4.302652729749464},
		{0, 2, 10, 0.90, -2 * 1.812461122811676, 2 * 1.812461122811676},
	} {
		lo, hi := TInterval(tc.est, tc.se, tc.df, tc.level)
		if math.Abs(lo-tc.lo) > 1e-9 || math.Abs(hi-tc.hi) > 1e-9 {
			t.Errorf("TInterval(%v, %v, %v, %v) = %v, %v; want %v, %v", tc.est, tc.se, tc.df, tc.level, lo, hi, tc.lo, tc.hi)
		}
	}
	if lo, _ := TInterval(1, 1, math.NaN(), 0.95); !math.IsNaN(lo) {
		t.Errorf("NaN df: lo %v", lo)
	}
}

func TestMcNemarMidP(t *testing.T) {
	for _, tc := range []struct {
		b, c int
		want float64
	}{
		{0, 0, 1},
		{5, 1, 8.0 / 64},                   // 2·(1 + 6/2)/64
		{1, 5, 8.0 / 64},                   // symmetric
		{3, 3, 1},                          // 2·(1+6+15 + 20/2)/64 = 64/64
		{10, 0, 1.0 / 1024},                // 2·(½·1)/1024
		{7, 2, 2 * (1 + 9 + 36.0/2) / 512}, // n = 9, k = 2
		{-1, 2, math.NaN()},
	} {
		got := McNemarMidP(tc.b, tc.c)
		if !(got == tc.want || math.IsNaN(got) && math.IsNaN(tc.want)) && math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("McNemarMidP(%d, %d) = %v, want %v", tc.b, tc.c, got, tc.want)
		}
		// mid-p = exact p − P(X = k) whenever the exact p is below 1
		if tc.b >= 0 && tc.b != tc.c {
			ex := McNemar([2][2]int{{0, tc.b}, {tc.c, 0}}).ExactP
			k, n := min(tc.b, tc.c), tc.b+tc.c
			pk := binomHalf(n, k)
			if ex < 1 && math.Abs(ex-pk-got) > 1e-12 {
				t.Errorf("McNemarMidP(%d, %d) = %v, exact %v − P(X=k) %v", tc.b, tc.c, got, ex, pk)
			}
		}
	}
}

// binomHalf is P(Bin(n, ½) = k) by the product formula.
func binomHalf(n, k int) float64 {
	p := math.Pow(0.5, float64(n))
	for j := 1; j <= k; j++ {
		p *= float64(n-j+1) / float64(j)
	}
	return p
}

func TestMDE(t *testing.T) {
	// t tables: t_{0.975, 10} = 2.228139, t_{0.80, 10} = 0.879058;
	// normal: z_{0.975} + z_{0.80} = 1.959964 + 0.841621.
	for _, tc := range []struct{ se, df, want float64 }{
		{1, 10, 2.228139 + 0.879058},
		{0.5, 1e9, 0.5 * (1.959964 + 0.841621)},
	} {
		if got := MDE(tc.se, tc.df, 0.05, 0.8); math.Abs(got-tc.want) > 2e-6 {
			t.Errorf("MDE(%v, %v) = %v, want %v", tc.se, tc.df, got, tc.want)
		}
	}
	if !math.IsNaN(MDE(1, 0, 0.05, 0.8)) {
		t.Error("df 0: not NaN")
	}
}
