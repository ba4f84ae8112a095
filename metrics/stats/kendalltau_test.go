package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// checkTau compares KendallTau with the τ of KendallTauB bit for bit.
func checkTau(t *testing.T, what string, x, y []float64) {
	t.Helper()
	got := KendallTau(x, y)
	want, _ := KendallTauB(x, y)
	if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
		t.Fatalf("%s: KendallTau(%v, %v) = %v (%x), want KendallTauB's %v (%x)",
			what, x, y, got, math.Float64bits(got), want, math.Float64bits(want))
	}
}

func TestKendallTauEqualsTauB(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name string
		x, y []float64
	}{
		{"empty", nil, nil},
		{"one", []float64{1}, []float64{2}},
		{"lengths differ", []float64{1, 2, 3}, []float64{1, 2}},
		{"NaN in x", []float64{1, nan, 3}, []float64{1, 2, 3}},
		{"NaN in y", []float64{1, 2, 3}, []float64{1, 2, nan}},
		{"constant x", []float64{2, 2, 2}, []float64{1, 2, 3}},
		{"constant y", []float64{1, 2, 3}, []float64{5, 5, 5}},
		{"perfect", []float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}},
		{"reversed", []float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}},
		{"ties both", []float64{1, 1, 2, 3, 3, 4}, []float64{2, 2, 1, 3, 4, 4}},
		{"signed zeros", []float64{0, math.Copysign(0, -1), 1}, []float64{1, 2, 3}},
		{"infinities", []float64{-inf, 0, inf, 1}, []float64{1, inf, 2, -inf}},
		{"ranks of 6", []float64{-1, -2, -3, -4, -5, -6}, []float64{3.2, 3.2, 2.8, 4, 1.6, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkTau(t, tc.name, tc.x, tc.y) })
	}
	// random inputs with many ties on both sides of kendallDirectMax
	r := rand.New(rand.NewPCG(7, 11))
	for n := 2; n <= kendallDirectMax+3; n++ {
		for rep := range 200 {
			x, y := make([]float64, n), make([]float64, n)
			levels := 2 + r.IntN(2*n)
			for i := range x {
				x[i] = float64(r.IntN(levels)) / 5
				y[i] = float64(r.IntN(levels))/7 - 1
			}
			checkTau(t, fmt.Sprintf("n=%d rep %d", n, rep), x, y)
		}
	}
}

// BenchmarkKendallTau compares KendallTauB (sort, merge count and the
// p-value, whose τ the analyses used) with KendallTau on the rankings of
// one question: 6 models, ties on one side.
func BenchmarkKendallTau(b *testing.B) {
	x := []float64{-1, -2, -3, -4, -5, -6}
	y := []float64{3.2, 3.2, 2.8, 4, 1.6, 3}
	var sink float64
	b.Run("old/KendallTauB", func(b *testing.B) {
		for range b.N {
			t, _ := KendallTauB(x, y)
			sink += t
		}
	})
	b.Run("new/KendallTau", func(b *testing.B) {
		for range b.N {
			sink += KendallTau(x, y)
		}
	})
	_ = sink
}
