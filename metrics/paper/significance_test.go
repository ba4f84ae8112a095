package paper

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
)

func TestPairedPMatchesStats(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for c := 0; c < 300; c++ {
		n := 1 + r.IntN(60)
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i] = float64(1+r.IntN(5)) + float64(r.IntN(4))/4
			y[i] = float64(1+r.IntN(5)) + float64(r.IntN(3))/3
			if c%10 == 0 {
				y[i] = x[i] - 0.5 // constant difference: T = ±Inf, p = 0
			}
		}
		d := make([]float64, n)
		for i := range d {
			d[i] = x[i] - y[i]
		}
		got := pairedP(d, make([]float64, n))
		want := stats.TTestRel(x, y).P
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("case %d (n=%d): pairedP = %v, stats.TTestRel = %v", c, n, got, want)
		}
	}
}

func TestSubsamplerMatchesStats(t *testing.T) {
	for _, n := range []int{1, 5, 40, 413, 1000} {
		ss := newSubsampler(n)
		for _, k := range []int{0, 1, 2, n / 3, n / 2, n - 1, n} {
			if k < 0 {
				continue
			}
			for rep := 0; rep < 20; rep++ {
				got := slices.Clone(ss.draw(k, stats.NewRand(9, rep)))
				want := stats.Subsample(n, k, stats.NewRand(9, rep))
				if !slices.Equal(got, want) {
					t.Fatalf("n=%d k=%d rep=%d: got %v, want %v", n, k, rep, got, want)
				}
			}
		}
	}
}

func TestPvalueGrid(t *testing.T) {
	cases := []struct {
		n          int
		first, len int
		last       int
	}{
		{1, 0, 0, 0},
		{3, 3, 1, 3},
		{10, 10, 1, 10},
		{413, 10, 42, 413}, // 10, 20, …, 410, 413
		{2000, 10, 200, 2000},
		{40000, 10, 200, 40000}, // 10…1000 then 100 log-spaced sizes
	}
	for _, c := range cases {
		g := pvalueGrid(c.n)
		if len(g) != c.len {
			t.Errorf("n=%d: %d points, want %d", c.n, len(g), c.len)
			continue
		}
		if c.len == 0 {
			continue
		}
		if g[0] != c.first || g[len(g)-1] != c.last {
			t.Errorf("n=%d: grid %d…%d, want %d…%d", c.n, g[0], g[len(g)-1], c.first, c.last)
		}
		for i := 1; i < len(g); i++ {
			if g[i] <= g[i-1] {
				t.Errorf("n=%d: grid not increasing at %d", c.n, i)
			}
		}
	}
}
