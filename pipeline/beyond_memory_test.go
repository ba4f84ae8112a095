package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/metrics/calibration"
	"github.com/euroexec/euroexec/metrics/judgeaudit"
	"github.com/euroexec/euroexec/metrics/planning"
	"github.com/euroexec/euroexec/metrics/ranking"
	"github.com/euroexec/euroexec/metrics/reliability"
	"github.com/euroexec/euroexec/metrics/scores"
)

// BenchmarkBeyondMemory measures, one analysis at a time, what each job of
// the stage "analyse beyond the paper" costs on an existing study database:
// EUROEXEC_BEYOND_DB is the database written by `euroexec ingest` (or
// `run`), EUROEXEC_BEYOND_STUDY the study folder (for its study.toml),
// EUROEXEC_BEYOND_JOBS an optional comma-separated list of job names
// (default all). The study is read back as Run does (readBack, then the
// texts dropped) and the shared per-grading scores computed before any
// job (included in study-MB); then each job runs alone and reports
//
//   - alloc-MB: bytes allocated by the job;
//   - peak-MB: its peak live heap above the study and shared scores (the
//     largest live heap at the end of a GC cycle while it runs, with
//     GOGC=10 so that cycles come every 10 % of growth);
//   - cpu-s: process CPU seconds (user+sys) while it runs.
//
// The study's own live heap is reported as study-MB. It is skipped when
// EUROEXEC_BEYOND_DB is not set.
func BenchmarkBeyondMemory(b *testing.B) {
	dbPath, dir := os.Getenv("EUROEXEC_BEYOND_DB"), os.Getenv("EUROEXEC_BEYOND_STUDY")
	if dbPath == "" || dir == "" {
		b.Skip("EUROEXEC_BEYOND_DB and EUROEXEC_BEYOND_STUDY not set")
	}
	want := map[string]bool{}
	for _, n := range strings.Split(os.Getenv("EUROEXEC_BEYOND_JOBS"), ",") {
		if n = strings.TrimSpace(n); n != "" {
			want[n] = true
		}
	}
	ctx := context.Background()
	cfg, err := config.Load(filepath.Join(dir, "study.toml"))
	if err != nil {
		b.Fatal(err)
	}
	s, _, _, err := readBack(ctx, dbPath, cfg, analysisOptions(cfg))
	if err != nil {
		b.Fatal(err)
	}
	dropTexts(s)
	// The jobs of laterAnalyses, but sharing scores computed here, before
	// any is measured (there the first job that needs them computes them).
	sc := scoreOptions(cfg)
	graded := scores.Compute(s, sc)
	jobs, _ := laterAnalyses(s, cfg)
	for i, j := range jobs {
		switch j.name {
		case "reliability":
			jobs[i].run = func(ctx context.Context) (func(*Result), error) {
				o := reliability.DefaultOptions()
				o.Seed, o.Bootstrap, o.Round, o.Scores, o.Graded = cfg.Analysis.Seed, cfg.Analysis.Bootstrap, cfg.MainRound, sc, graded
				_, err := reliability.Analyze(ctx, s, o)
				return nil, err
			}
		case "ranking":
			jobs[i].run = func(ctx context.Context) (func(*Result), error) {
				o := ranking.DefaultOptions()
				o.Seed, o.Bootstrap, o.Round, o.Scores, o.Graded = cfg.Analysis.Seed, cfg.Analysis.Bootstrap, cfg.MainRound, sc, graded
				_, err := ranking.Analyze(ctx, s, o)
				return nil, err
			}
		case "calibration":
			jobs[i].run = func(ctx context.Context) (func(*Result), error) {
				o := calibration.DefaultOptions()
				o.Seed, o.Bootstrap, o.Scores, o.Graded = cfg.Analysis.Seed, cfg.Analysis.Bootstrap, sc, graded
				_, err := calibration.Analyze(ctx, s, o)
				return nil, err
			}
		case "planning":
			jobs[i].run = func(ctx context.Context) (func(*Result), error) {
				o := planning.DefaultOptions()
				o.Plan.Scores, o.Plan.Graded = sc, graded
				_, err := planning.Analyze(ctx, s, o)
				return nil, err
			}
		case "judge audit":
			jobs[i].run = func(ctx context.Context) (func(*Result), error) {
				o := judgeaudit.DefaultOptions()
				o.Seed, o.Bootstrap, o.Round = cfg.Analysis.Seed, cfg.Analysis.Bootstrap, cfg.MainRound
				o.Scores, o.Graded = sc, graded
				_, err := judgeaudit.Analyze(ctx, s, o)
				return nil, err
			}
		}
	}
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	b.ResetTimer()
	for b.Loop() {
		base := liveAfterGC()
		b.ReportMetric(float64(base)/1e6, "study-MB")
		for _, j := range jobs {
			if len(want) > 0 && !want[j.name] {
				continue
			}
			before := liveAfterGC()
			alloc0 := readUint(metricAllocs)
			cpu0 := cpuSeconds()
			stop := watchLive()
			if _, err := j.run(ctx); err != nil {
				b.Fatal(j.name, ": ", err)
			}
			peak := stop()
			cpu := cpuSeconds() - cpu0
			alloc := readUint(metricAllocs) - alloc0
			after := liveAfterGC()
			name := strings.ReplaceAll(j.name, " ", "")
			b.ReportMetric(float64(alloc)/1e6, name+"-alloc-MB")
			b.ReportMetric(float64(peak-min(peak, before))/1e6, name+"-peak-MB")
			b.ReportMetric(cpu, name+"-cpu-s")
			b.Logf("%s: alloc %.0f MB, peak live %.0f MB above %.0f MB before (%.0f after), %.2f CPU-s",
				j.name, float64(alloc)/1e6, float64(peak-min(peak, before))/1e6, float64(before)/1e6, float64(after)/1e6, cpu)
		}
	}
	runtime.KeepAlive(graded)
	runtime.KeepAlive(s)
}

const (
	metricLive   = "/gc/heap/live:bytes"
	metricAllocs = "/gc/heap/allocs:bytes"
)

func readUint(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// liveAfterGC is the live heap after a full collection.
func liveAfterGC() uint64 {
	runtime.GC()
	return readUint(metricLive)
}

// watchLive polls the live heap (as of the last GC cycle) every
// millisecond until the returned function is called, which returns the
// largest value seen (including one final cycle's).
func watchLive() func() uint64 {
	var (
		mu   sync.Mutex
		peak uint64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	see := func() {
		v := readUint(metricLive)
		mu.Lock()
		peak = max(peak, v)
		mu.Unlock()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				see()
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		see()
		return peak
	}
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
