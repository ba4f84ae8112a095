package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// checkClose fails when got is not within tol of want (NaN matches NaN;
// tol 0 means exact).
func checkClose(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(want) {
		if !math.IsNaN(got) {
			t.Errorf("%s = %v, want NaN", name, got)
		}
		return
	}
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.17g, want %.17g (tol %g)", name, got, want, tol)
	}
}

func TestDescriptive(t *testing.T) {
	tenth := []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}
	tests := []struct {
		name      string
		got, want float64
	}{
		// numpy: np.sum([0.1]*10) == 1.0 (pairwise: eight running sums
		// combined, then the two leftovers), while a left-to-right sum
		// gives 0.9999999999999999.
		{"Sum(0.1×10)", Sum(tenth), 1.0},
		{"Mean(1,2,3,4)", Mean([]float64{1, 2, 3, 4}), 2.5},
		// Σ(x−2.5)² = 5, /3.
		{"Variance(1,2,3,4)", Variance([]float64{1, 2, 3, 4}), 5.0 / 3},
		{"SD(2,4,4,4,5,5,7,9)", SD([]float64{2, 4, 4, 4, 5, 5, 7, 9}), math.Sqrt(32.0 / 7)},
		{"Median odd", Median([]float64{3, 1, 2}), 2},
		{"Median even", Median([]float64{4, 1, 3, 2}), 2.5},
		// type 7: h = 3·0.5 = 1.5 between 2 and 3.
		{"Percentile 50", Percentile([]float64{4, 1, 3, 2}, 50), 2.5},
		{"Percentile 0", Percentile([]float64{4, 1, 3, 2}, 0), 1},
		{"Percentile 100", Percentile([]float64{4, 1, 3, 2}, 100), 4},
	}
	for _, tc := range tests {
		checkClose(t, tc.name, tc.got, tc.want, 0)
	}
	if got := Rank([]float64{10, 20, 10, 30}); !slices.Equal(got, []float64{1.5, 3, 1.5, 4}) {
		t.Errorf("Rank = %v, want [1.5 3 1.5 4]", got)
	}
}

// TestDegenerate: empty, n = 1, constant, NaN and mismatched input never
// panic and give NaN where documented.
func TestDegenerate(t *testing.T) {
	nan := math.NaN()
	empty := []float64{}
	one := []float64{3}
	cons := []float64{2, 2, 2, 2}
	withNaN := []float64{1, nan, 3, 4}
	inc := []float64{1, 2, 3, 4}
	pair := func(f func(x, y []float64) (float64, float64)) func(x, y []float64) []float64 {
		return func(x, y []float64) []float64 { a, b := f(x, y); return []float64{a, b} }
	}
	ttest := func(f func(x, y []float64) TTest) func(x, y []float64) []float64 {
		return func(x, y []float64) []float64 { r := f(x, y); return []float64{r.T, r.P} }
	}
	fns := map[string]func(x, y []float64) []float64{
		"Pearson":     pair(Pearson),
		"Spearman":    pair(Spearman),
		"KendallTauB": pair(KendallTauB),
		"Wilcoxon":    pair(Wilcoxon),
		"TTestRel":    ttest(TTestRel),
		"TTestWelch":  ttest(TTestWelch),
		"TTest1Samp":  func(x, _ []float64) []float64 { r := TTest1Samp(x, 0); return []float64{r.T, r.P} },
		"LinRegress":  func(x, y []float64) []float64 { r := LinRegress(x, y); return []float64{r.Slope, r.P} },
		"Mean":        func(x, _ []float64) []float64 { return []float64{Mean(x)} },
		"Variance":    func(x, _ []float64) []float64 { return []float64{Variance(x)} },
		"SD":          func(x, _ []float64) []float64 { return []float64{SD(x)} },
		"Median":      func(x, _ []float64) []float64 { return []float64{Median(x)} },
		"Percentile":  func(x, _ []float64) []float64 { return []float64{Percentile(x, 50)} },
	}
	type in struct {
		name string
		x, y []float64
		// nanFor lists the functions whose every output must be NaN.
		nanFor []string
	}
	all := []string{"Pearson", "Spearman", "KendallTauB", "Wilcoxon", "TTestRel", "TTestWelch", "TTest1Samp", "LinRegress", "Mean", "Variance", "SD", "Median", "Percentile"}
	inputs := []in{
		{"empty", empty, empty, all},
		{"n=1", one, one, []string{"Pearson", "Spearman", "KendallTauB", "TTestRel", "TTest1Samp", "LinRegress", "Variance", "SD", "Wilcoxon"}},
		{"constant x", cons, inc, []string{"Pearson", "Spearman", "KendallTauB", "LinRegress"}},
		{"constant y", inc, cons, []string{"Pearson", "Spearman", "KendallTauB"}},
		{"NaN", withNaN, inc, all},
		{"lengths differ", inc, inc[:3], []string{"Pearson", "Spearman", "KendallTauB", "Wilcoxon", "TTestRel", "LinRegress"}},
		{"identical", inc, inc, []string{"Wilcoxon", "TTestRel"}},
	}
	for _, tc := range inputs {
		for name, f := range fns {
			out := f(tc.x, tc.y) // must not panic
			if slices.Contains(tc.nanFor, name) {
				for i, v := range out {
					if !math.IsNaN(v) {
						t.Errorf("%s(%s): output %d = %v, want NaN", name, tc.name, i, v)
					}
				}
			}
		}
	}
	// constant vectors for the t tests: mean ≠ mu → ±Inf, p = 0.
	if r := TTest1Samp(cons, 0); !math.IsInf(r.T, 1) || r.P != 0 {
		t.Errorf("TTest1Samp(constant 2, 0) = %+v, want T=+Inf P=0", r)
	}
	if r := TTest1Samp(cons, 2); !math.IsNaN(r.T) || !math.IsNaN(r.P) {
		t.Errorf("TTest1Samp(constant 2, 2) = %+v, want NaN", r)
	}
	if lo, hi := FisherZInterval(0.5, 3, 0.95); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("FisherZInterval(n=3) = %v, %v, want NaN", lo, hi)
	}
	if lo, hi := FisherZInterval(nan, 30, 0.95); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("FisherZInterval(NaN) = %v, %v, want NaN", lo, hi)
	}
	if v := CohenKappa([]int{1, 2}, []int{1, 2}, nil, "cubic"); !math.IsNaN(v) {
		t.Errorf("CohenKappa(weights cubic) = %v, want NaN", v)
	}
	if v := CohenKappa(nil, nil, nil, ""); !math.IsNaN(v) {
		t.Errorf("CohenKappa(empty) = %v, want NaN", v)
	}
	if v := CohenKappa([]int{1}, []int{1, 2}, nil, ""); !math.IsNaN(v) {
		t.Errorf("CohenKappa(lengths differ) = %v, want NaN", v)
	}
	if v := MacroF1(nil, nil, nil); !math.IsNaN(v) {
		t.Errorf("MacroF1(empty) = %v, want NaN", v)
	}
	if v := KrippendorffAlpha([][]float64{{1, 2}, {1, 2}}, "bogus"); !math.IsNaN(v) {
		t.Errorf("KrippendorffAlpha(level bogus) = %v, want NaN", v)
	}
	if v := KrippendorffAlpha([][]float64{{1, 2}, {1}}, Nominal); !math.IsNaN(v) {
		t.Errorf("KrippendorffAlpha(ragged) = %v, want NaN", v)
	}
	if v := KrippendorffAlpha(nil, Nominal); !math.IsNaN(v) {
		t.Errorf("KrippendorffAlpha(nil) = %v, want NaN", v)
	}
	for name, x := range map[string][][]float64{
		"empty":    nil,
		"1 target": {{1, 2}},
		"1 rater":  {{1}, {2}},
		"ragged":   {{1, 2}, {3}},
		"NaN":      {{1, 2}, {3, nan}},
	} {
		r := ICC(x)
		if !math.IsNaN(r.ICC1) || !math.IsNaN(r.ICC2k) || !math.IsNaN(r.P) {
			t.Errorf("ICC(%s) = %+v, want NaN", name, r)
		}
	}
	// all values equal: every ICC is 0/0.
	if r := ICC([][]float64{{3, 3}, {3, 3}, {3, 3}}); !math.IsNaN(r.ICC1) || !math.IsNaN(r.ICC3k) {
		t.Errorf("ICC(all equal) = %+v, want NaN", r)
	}
	if r := McNemar([2][2]int{{1, -1}, {2, 3}}); !math.IsNaN(r.ExactP) || !math.IsNaN(r.Chi2P) {
		t.Errorf("McNemar(negative) = %+v, want NaN", r)
	}
	if got := Holm(nil); len(got) != 0 {
		t.Errorf("Holm(nil) = %v", got)
	}
	for _, v := range []float64{StudentTCDF(nan, 3), StudentTCDF(1, 0), StudentTCDF(1, -2), StudentTSF(1, nan)} {
		if !math.IsNaN(v) {
			t.Errorf("StudentT with NaN/invalid input = %v, want NaN", v)
		}
	}
}

func TestFisherZInterval(t *testing.T) {
	// Expected values from Python's math.atanh/tanh and
	// statistics.NormalDist().inv_cdf: tanh(atanh(r) ∓ z/√(n−3)).
	tests := []struct {
		r              float64
		n              int
		level          float64
		wantLo, wantHi float64
	}{
		{0.5, 28, 0.95, 0.15602836252908606, 0.7358184794439374},
		{-0.3, 103, 0.95, -0.4664441315320442, -0.11303802922252026},
		{0, 4, 0.95, -0.9610870825606609, 0.9610870825606609},
		{0.2, 50, 0.90, -0.03717686441902518, 0.4158461505884102},
		{1, 10, 0.95, 1, 1},
	}
	for _, tc := range tests {
		lo, hi := FisherZInterval(tc.r, tc.n, tc.level)
		checkClose(t, "lo", lo, tc.wantLo, 1e-12)
		checkClose(t, "hi", hi, tc.wantHi, 1e-12)
	}
}

func TestMultipleTestingNaN(t *testing.T) {
	nan := math.NaN()
	// NaN is left out: m = 2. Holm: 0.01·2 = 0.02, max(0.02, 0.04·1) = 0.04.
	// BH: 0.04/(2/2) = 0.04, min(0.04, 0.01/(1/2)) = 0.02.
	p := []float64{0.01, nan, 0.04}
	holm, rej := HolmReject(p, 0.05)
	bh, bhRej := BenjaminiHochbergReject(p, 0.05)
	for i, want := range []float64{0.02, nan, 0.04} {
		checkClose(t, "holm", holm[i], want, 0)
		checkClose(t, "bh", bh[i], want, 0)
	}
	// Holm: 0.01 ≤ 0.05/2 rejected, 0.04 ≤ 0.05/1 rejected; BH: 0.04 ≤ 0.05.
	if !slices.Equal(rej, []bool{true, false, true}) || !slices.Equal(bhRej, []bool{true, false, true}) {
		t.Errorf("reject holm %v bh %v, want [true false true]", rej, bhRej)
	}
}

// kendallBrute is the O(n²) definition of the pair counts, used as an
// independent reference.
func kendallBrute(x, y []float64) (con, dis, tx, ty, tb int64) {
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			dx, dy := x[i]-x[j], y[i]-y[j]
			switch {
			case dx == 0 && dy == 0:
				tb++
			case dx == 0:
				tx++
			case dy == 0:
				ty++
			case (dx > 0) == (dy > 0):
				con++
			default:
				dis++
			}
		}
	}
	return
}

func kendallTauBrute(x, y []float64) float64 {
	con, dis, tx, ty, tb := kendallBrute(x, y)
	n := int64(len(x))
	pairs := n * (n - 1) / 2
	return float64(con-dis) / math.Sqrt(float64(pairs-(tx+tb))) / math.Sqrt(float64(pairs-(ty+tb)))
}

func TestKendallAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 0))
	for trial := 0; trial < 200; trial++ {
		n := 2 + r.IntN(60)
		levels := 2 + r.IntN(8) // few levels → many ties
		if trial%4 == 0 {
			levels = 1 << 20 // almost no ties
		}
		x := make([]float64, n)
		y := make([]float64, n)
		for i := range x {
			x[i] = float64(r.IntN(levels))
			y[i] = float64(r.IntN(levels))
		}
		k := KendallTauBDetail(x, y)
		con, dis, tx, ty, tb := kendallBrute(x, y)
		if k.Concordant != con || k.Discordant != dis || k.TiesXOnly != tx || k.TiesYOnly != ty || k.TiesBoth != tb {
			t.Fatalf("n=%d: counts %d %d %d %d %d, brute force %d %d %d %d %d", n,
				k.Concordant, k.Discordant, k.TiesXOnly, k.TiesYOnly, k.TiesBoth, con, dis, tx, ty, tb)
		}
		if want := kendallTauBrute(x, y); !same(k.Tau, clip1(want)) {
			t.Fatalf("n=%d: tau %v, brute force %v", n, k.Tau, want)
		}
	}
}

// TestKendallExactEnumeration checks the exact p-value against a full
// enumeration of the 5040 permutations of 7 elements.
func TestKendallExactEnumeration(t *testing.T) {
	const n = 7
	counts := make([]int, n*(n-1)/2+1)
	perm := []int{0, 1, 2, 3, 4, 5, 6}
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			inv := 0
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					if perm[i] > perm[j] {
						inv++
					}
				}
			}
			counts[inv]++
			return
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			rec(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	rec(0)
	cum := 0
	for c := 0; c < len(counts); c++ {
		cum += counts[c]
		if 2*c > n*(n-1)/2 {
			break
		}
		want := math.Min(1, 2*float64(cum)/5040)
		if 2*c == n*(n-1)/2 {
			want = 1
		}
		checkClose(t, "kendallPExact", kendallPExact(n, int64(c)), want, 1e-15)
	}
}
