package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/euroexec/euroexec/sample"
)

// BenchmarkRun measures what `euroexec run` does, every stage (load, read
// back, analyse, beyond the paper, write), on `euroexec sample --questions N`
// with the defaults otherwise; N is EUROEXEC_BENCH_QUESTIONS (default
// 2,000). Besides ns/op it reports CPU seconds per run (user + system of the
// process, less sensitive to a shared machine's load than wall time) and
// allocated bytes. For the peak RSS run the binary under
// `/usr/bin/time -v euroexec run --stats` (README, Performance).
func BenchmarkRun(b *testing.B) {
	n := 2000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		n = v
	}
	study := filepath.Join(b.TempDir(), "study")
	opt := sample.DefaultOptions()
	opt.Questions = n
	if _, err := sample.Write(study, opt); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		out := filepath.Join(b.TempDir(), "out")
		o := runOptions{out: out, quiet: true, noWarnings: true, now: time.Now}
		if _, err := runStudy(context.Background(), io.Discard, io.Discard, study, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((processCPU()-cpu0).Seconds()/float64(b.N), "CPU-s/op")
}
