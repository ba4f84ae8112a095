package stats

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// meanStat returns a bootstrap statistic: the mean of the clusters' values.
func meanStat(v []float64) func(idx []int, out []float64) {
	return func(idx []int, out []float64) {
		s := make([]float64, len(idx))
		for i, c := range idx {
			s[i] = v[c]
		}
		out[0] = Mean(s)
	}
}

func TestBootstrapFromIndicesHandComputed(t *testing.T) {
	v := []float64{1, 2, 3, 10}
	idx := [][]int{
		{0, 0, 0, 0}, // mean 1, max 1
		{0, 1, 2, 3}, // mean 4, max 10
		{3, 3, 3, 3}, // mean 10, max 10
		{1, 2, 1, 2}, // mean 2.5, max 3
		{0, 3, 0, 3}, // mean 5.5, max 10
	}
	reps := BootstrapFromIndices(idx, 2, func(idx []int, out []float64) {
		meanStat(v)(idx, out)
		out[1] = math.Inf(-1)
		for _, c := range idx {
			out[1] = math.Max(out[1], v[c])
		}
	})
	want := [][]float64{{1, 1}, {4, 10}, {10, 10}, {2.5, 3}, {5.5, 10}}
	for r := range want {
		if !slices.Equal(reps[r], want[r]) {
			t.Errorf("row %d = %v, want %v", r, reps[r], want[r])
		}
	}
	// Column 0 sorted: 1, 2.5, 4, 5.5, 10 (n = 5).
	// level 0.5 → percentiles 25 and 75: h = 4·0.25 = 1 → 2.5; h = 3 → 5.5.
	lo, hi := PercentileInterval(reps, 0, 0.5)
	checkClose(t, "lo(0.5)", lo, 2.5, 0)
	checkClose(t, "hi(0.5)", hi, 5.5, 0)
	// level 0.95 → 2.5 and 97.5: h = 0.1 → 1 + 1.5·0.1 = 1.15;
	// h = 3.9 → 10 − 4.5·0.1 = 9.55.
	lo, hi = PercentileInterval(reps, 0, 0.95)
	checkClose(t, "lo(0.95)", lo, 1.15, 1e-12)
	checkClose(t, "hi(0.95)", hi, 9.55, 1e-12)
	// Column 1 sorted: 1, 3, 10, 10, 10; level 0.5 → h = 1 → 3; h = 3 → 10.
	lo, hi = PercentileInterval(reps, 1, 0.5)
	checkClose(t, "lo col 1", lo, 3, 0)
	checkClose(t, "hi col 1", hi, 10, 0)
}

func TestPercentileIntervalNaN(t *testing.T) {
	nan := math.NaN()
	// NaN rows are ignored: [1, 3] → 25th: 1 + 2·0.25 = 1.5; 75th: g = 0.75
	// ≥ 0.5 → 3 − 2·0.25 = 2.5.
	lo, hi := PercentileInterval([][]float64{{1}, {nan}, {3}}, 0, 0.5)
	checkClose(t, "lo", lo, 1.5, 0)
	checkClose(t, "hi", hi, 2.5, 0)
	for name, reps := range map[string][][]float64{
		"all NaN":  {{nan}, {nan}},
		"empty":    nil,
		"all +Inf": {{math.Inf(1)}},
	} {
		lo, hi := PercentileInterval(reps, 0, 0.95)
		if !math.IsNaN(lo) || !math.IsNaN(hi) {
			t.Errorf("%s: interval %v, %v, want NaN", name, lo, hi)
		}
	}
	for _, bad := range []struct {
		j     int
		level float64
	}{{-1, 0.95}, {5, 0.95}, {0, 0}, {0, 1}, {0, nan}} {
		lo, hi := PercentileInterval([][]float64{{1}, {2}}, bad.j, bad.level)
		if !math.IsNaN(lo) || !math.IsNaN(hi) {
			t.Errorf("j=%d level=%v: interval %v, %v, want NaN", bad.j, bad.level, lo, hi)
		}
	}
}

func TestClusterBootstrapUsesNewRand(t *testing.T) {
	v := []float64{0.5, 1.5, 4, 7, 11, 2, 3}
	reps := ClusterBootstrap(len(v), 20, 42, 1, meanStat(v))
	if len(reps) != 20 {
		t.Fatalf("%d rows, want 20", len(reps))
	}
	for r := range reps {
		idx := make([]int, len(v))
		rng := rand.New(rand.NewPCG(42, uint64(r)))
		for i := range idx {
			idx[i] = rng.IntN(len(v))
		}
		out := []float64{0}
		meanStat(v)(idx, out)
		if reps[r][0] != out[0] {
			t.Errorf("row %d = %v, want %v from PCG(42, %d)", r, reps[r][0], out[0], r)
		}
	}
}

func TestClusterBootstrapDeterministic(t *testing.T) {
	v := make([]float64, 37)
	for i := range v {
		v[i] = float64(i*i%11) + 0.25
	}
	stat := func(idx []int, out []float64) {
		meanStat(v)(idx, out)
		out[1] = Median(pick(v, idx))
		if idx[0] == 0 {
			out[2] = math.NaN() // NaN results are kept
		} else {
			out[2] = float64(idx[0])
		}
	}
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	one := ClusterBootstrap(len(v), 300, 9, 3, stat)
	runtime.GOMAXPROCS(2)
	two := ClusterBootstrap(len(v), 300, 9, 3, stat)
	runtime.GOMAXPROCS(8)
	eight := ClusterBootstrap(len(v), 300, 9, 3, stat)
	for r := range one {
		for j := range one[r] {
			a, b, c := one[r][j], two[r][j], eight[r][j]
			if math.Float64bits(a) != math.Float64bits(b) || math.Float64bits(a) != math.Float64bits(c) {
				t.Fatalf("row %d col %d: GOMAXPROCS 1 → %v, 2 → %v, 8 → %v", r, j, a, b, c)
			}
		}
	}
	other := ClusterBootstrap(len(v), 300, 10, 3, stat)
	if slices.Equal(one[0], other[0]) && slices.Equal(one[1], other[1]) {
		t.Errorf("seeds 9 and 10 gave the same replicates")
	}
}

func pick(v []float64, idx []int) []float64 {
	s := make([]float64, len(idx))
	for i, c := range idx {
		s[i] = v[c]
	}
	return s
}

func TestClusterBootstrapDegenerate(t *testing.T) {
	called := false
	stat := func(idx []int, out []float64) { called = true }
	if reps := ClusterBootstrap(5, 0, 1, 2, stat); len(reps) != 0 {
		t.Errorf("replicates 0: %d rows", len(reps))
	}
	reps := ClusterBootstrap(0, 3, 1, 2, stat)
	if called || len(reps) != 3 || len(reps[0]) != 2 || !math.IsNaN(reps[2][1]) {
		t.Errorf("nClusters 0: called %v, reps %v; want 3 NaN rows and no call", called, reps)
	}
	if reps := ClusterBootstrap(3, 2, 1, -1, func(idx []int, out []float64) {}); len(reps) != 2 || len(reps[0]) != 0 {
		t.Errorf("nOut −1: %v", reps)
	}
}

// TestBootstrapCoverage simulates 1,000 studies of 50 clusters drawn from
// N(μ = 3, 1); in each, the 95 % percentile interval of the mean from 500
// replicates must cover μ in 93–97 % of studies (the percentile interval
// of a mean at n = 50 covers about 94 %).
func TestBootstrapCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("coverage simulation skipped in -short mode")
	}
	const (
		studies  = 1000
		clusters = 50
		B        = 500
		mu       = 3.0
	)
	covered := 0
	for s := 0; s < studies; s++ {
		data := rand.New(rand.NewPCG(2024, uint64(s)))
		v := make([]float64, clusters)
		for i := range v {
			v[i] = mu + data.NormFloat64()
		}
		reps := ClusterBootstrap(clusters, B, uint64(1000+s), 1, meanStat(v))
		lo, hi := PercentileInterval(reps, 0, 0.95)
		if lo <= mu && mu <= hi {
			covered++
		}
	}
	rate := float64(covered) / studies
	t.Logf("coverage %.3f over %d studies", rate, studies)
	if rate < 0.93 || rate > 0.97 {
		t.Errorf("coverage %.3f, want 0.93–0.97", rate)
	}
}

func TestSubsample(t *testing.T) {
	r := NewRand(5, 0)
	for _, k := range []int{0, 1, 7, 20} {
		s := Subsample(20, k, r)
		if len(s) != k || !slices.IsSorted(s) {
			t.Fatalf("Subsample(20, %d) = %v", k, s)
		}
		for i, v := range s {
			if v < 0 || v >= 20 || (i > 0 && s[i-1] == v) {
				t.Fatalf("Subsample(20, %d) = %v: out of range or repeated", k, s)
			}
		}
	}
	if s := Subsample(5, 5, r); !slices.Equal(s, []int{0, 1, 2, 3, 4}) {
		t.Errorf("Subsample(5, 5) = %v", s)
	}
	for _, bad := range [][2]int{{5, 6}, {5, -1}, {-1, 0}} {
		if s := Subsample(bad[0], bad[1], r); s != nil {
			t.Errorf("Subsample(%d, %d) = %v, want nil", bad[0], bad[1], s)
		}
	}
	if s := Subsample(5, 2, nil); s != nil {
		t.Errorf("Subsample(nil rng) = %v", s)
	}
	a := Subsample(100, 10, NewRand(3, 4))
	b := Subsample(100, 10, NewRand(3, 4))
	if !slices.Equal(a, b) {
		t.Errorf("same (seed, rep) gave %v and %v", a, b)
	}
	// Uniformity: over 20,000 draws of 3 of 10, each index appears with
	// probability 0.3 → 6,000 ± 65 (sd); allow ±5 sd.
	counts := make([]int, 10)
	rng := NewRand(11, 0)
	for i := 0; i < 20000; i++ {
		for _, v := range Subsample(10, 3, rng) {
			counts[v]++
		}
	}
	for i, c := range counts {
		if c < 6000-325 || c > 6000+325 {
			t.Errorf("index %d drawn %d times, want 6000 ± 325", i, c)
		}
	}
}
