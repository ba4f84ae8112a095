package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func benchData(n int) (x, y []float64) {
	r := rand.New(rand.NewPCG(1, 2))
	x = make([]float64, n)
	y = make([]float64, n)
	for i := range x {
		x[i] = math.Round(r.NormFloat64()*100) / 100 // 2 decimals: many ties
		y[i] = x[i] + r.NormFloat64()
	}
	return x, y
}

// BenchmarkKendallTauB compares the O(n log n) KendallTauB with the O(n²)
// pair loop at n = 5000 and reports their time ratio (quadratic/fast).
func BenchmarkKendallTauB(b *testing.B) {
	x, y := benchData(5000)
	var fast, slow time.Duration
	b.Run("knight-n5000", func(b *testing.B) {
		start := time.Now()
		for i := 0; i < b.N; i++ {
			KendallTauB(x, y)
		}
		fast = time.Since(start) / time.Duration(b.N)
	})
	b.Run("quadratic-n5000", func(b *testing.B) {
		start := time.Now()
		for i := 0; i < b.N; i++ {
			kendallTauBrute(x, y)
		}
		slow = time.Since(start) / time.Duration(b.N)
	})
	if fast > 0 {
		b.Logf("n=5000: O(n log n) %v, O(n²) %v, ratio %.1f×", fast, slow, float64(slow)/float64(fast))
	}
}

// BenchmarkKendallScaling measures KendallTauB at n = 10,000 and 80,000 (8×)
// in the same run and logs the time ratio:
// n log n predicts about 9.8, a quadratic algorithm 64. It is a benchmark,
// not a test, because a wall-clock bound fails on a busy machine.
func BenchmarkKendallScaling(b *testing.B) {
	per := map[int]time.Duration{}
	for _, n := range []int{10000, 80000} {
		x, y := benchData(n)
		b.Run(fmt.Sprintf("n%d", n), func(b *testing.B) {
			start := time.Now()
			for i := 0; i < b.N; i++ {
				KendallTauB(x, y)
			}
			per[n] = time.Since(start) / time.Duration(b.N)
		})
	}
	if per[10000] > 0 {
		b.Logf("n=10000 %v, n=80000 %v, ratio %.1f (n log n predicts ≈9.8, n² 64)",
			per[10000], per[80000], float64(per[80000])/float64(per[10000]))
	}
}

// BenchmarkICC measures the exact-rational ICC on 1,000 targets × 10 raters
// of continuous data.
func BenchmarkICC(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	x := make([][]float64, 1000)
	for i := range x {
		x[i] = make([]float64, 10)
		for j := range x[i] {
			x[i][j] = r.NormFloat64()*2 + 5
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ICC(x)
	}
}
