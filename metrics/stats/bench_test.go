package stats

import (
	"math"
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"
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

// TestKendallScaling checks the O(n log n) claim without a benchmark run:
// going from n = 10,000 to 80,000 (8×) must cost well under the 64× of a
// quadratic algorithm (n log n predicts about 9.8×; the bound 40 leaves room
// for a busy machine). It measures the CPU time of the calling thread
// (locked to it; KendallTauB runs on the caller's goroutine), not wall
// time, so that a machine shared with other processes does not stretch the
// larger run more than the smaller (under a load of 20 on 2 cores wall time
// gave ratios of 65).
func TestKendallScaling(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test skipped in -short mode")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	threadCPU := func() time.Duration {
		var ts syscall.Timespec
		const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID (Linux)
		if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
			t.Skipf("no thread CPU clock: %v", errno)
		}
		return time.Duration(ts.Nano())
	}
	timeIt := func(n int) time.Duration {
		x, y := benchData(n)
		best := time.Duration(math.MaxInt64)
		for rep := 0; rep < 3; rep++ {
			start := threadCPU()
			KendallTauB(x, y)
			best = min(best, threadCPU()-start)
		}
		return best
	}
	small, large := timeIt(10000), timeIt(80000)
	ratio := float64(large) / float64(small)
	t.Logf("n=10000 %v, n=80000 %v, ratio %.1f (n log n predicts ≈9.8, n² 64)", small, large, ratio)
	if ratio > 40 {
		t.Errorf("time ratio %.1f for 8× n: not O(n log n)", ratio)
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
