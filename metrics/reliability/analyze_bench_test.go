package reliability

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/euroexec/euroexec/metrics/scores"
)

// BenchmarkAnalyze runs the whole analysis (builder, point estimates, 200
// bootstrap replicates per population) on a generated study of
// EUROEXEC_BENCH_QUESTIONS questions (default 5,000; sampleStudy, shaped
// like `euroexec sample`) with the per-grading scores computed beforehand
// and shared (Options.Graded, as the pipeline runs it), and reports the CPU
// seconds, the bytes allocated and the largest live heap above the study's
// seen by a sampler (peak-live-MiB; a sample every 5 ms, after a GC at
// every 1 % of growth: GOGC=1 while it runs, so that the heap holds little
// garbage and the figure is the analysis' live data).
func BenchmarkAnalyze(b *testing.B) {
	nQ := 5000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		nQ = v
	}
	s := sampleStudy(nQ, 5)
	opt := DefaultOptions()
	opt.Bootstrap = 200
	opt.Graded = scores.Compute(s, opt.Scores)
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	stop := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var m runtime.MemStats
		var p uint64
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				peak <- p
				return
			case <-t.C:
				runtime.ReadMemStats(&m)
				p = max(p, m.HeapAlloc)
			}
		}
	}()
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Analyze(context.Background(), s, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	close(stop)
	p := <-peak
	cpu := time.Duration(ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano())
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(p-min(p, base.HeapAlloc))/(1<<20), "peak-live-MiB")
}
