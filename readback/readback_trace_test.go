//go:build duckdb_arrow

package readback

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/metrics/paper"
)

// TestReadBackMemoryTrace measures what read back's memory is made of on
// an existing study database: after each step of Load (questions, models
// and gate, responses, gradings, scores, the rest) and of pipeline's
// readBack (the texts the analysis needs, the listings) it prints the Go
// heap in use, the GC's heap goal, the memory Go holds from the OS, the
// process's RSS and its peak during the step, and DuckDB's own memory
// (duckdb_memory()). It is a measuring tool, not a check: it runs only
// when EUROEXEC_TRACE_DB names a study.duckdb (read only) and
// EUROEXEC_TRACE_TOML its study.toml. EUROEXEC_TRACE_GC=1 collects
// garbage after each step and prints the live heap (which lowers the
// peaks that follow); EUROEXEC_TRACE_SET is SQL run first (e.g. "SET
// GLOBAL memory_limit='500MB'"); EUROEXEC_TRACE_HEAP names a file for a
// heap profile taken with the study held.
func TestReadBackMemoryTrace(t *testing.T) {
	path := os.Getenv("EUROEXEC_TRACE_DB")
	if path == "" {
		t.Skip("EUROEXEC_TRACE_DB is not set")
	}
	cfg, err := config.Load(os.Getenv("EUROEXEC_TRACE_TOML"))
	if err != nil {
		t.Fatal(err)
	}
	gc := os.Getenv("EUROEXEC_TRACE_GC") == "1"
	ctx := context.Background()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if set := os.Getenv("EUROEXEC_TRACE_SET"); set != "" {
		if _, err := db.db.ExecContext(ctx, set); err != nil {
			t.Fatal(err)
		}
	}
	if v := os.Getenv("EUROEXEC_TRACE_TEXTMEM"); v != "" {
		mib, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("EUROEXEC_TRACE_TEXTMEM: %v", err)
		}
		defer func(old int64) { textScanMemory = old }(textScanMemory)
		textScanMemory = mib << 20
	}
	var limit, threads, bg string
	if err := db.db.QueryRowContext(ctx, `SELECT current_setting('memory_limit'), current_setting('threads')::VARCHAR,
		current_setting('allocator_background_threads')::VARCHAR`).Scan(&limit, &threads, &bg); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("memory_limit %s, threads %s, allocator_background_threads %s, GC after each step %v\n", limit, threads, bg, gc)
	fmt.Printf("%-14s %7s %7s %8s %8s %8s %8s %8s %8s %8s\n", "step", "wall-s", "cpu-s", "heap-MB", "goal-MB", "live-MB", "goOS-MB", "rss-MB", "peak-MB", "duck-MB")
	samples := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}, {Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	mb := func(v uint64) float64 { return float64(v) / (1 << 20) }
	start, cpu0 := time.Now(), cpuSeconds()
	resetPeak()
	step := func(name string) {
		wall, cpu := time.Since(start).Seconds(), cpuSeconds()-cpu0
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		metrics.Read(samples)
		goal := samples[0].Value.Uint64()
		goOS := samples[1].Value.Uint64() - samples[2].Value.Uint64()
		rss, peak := procStatus("VmRSS"), procStatus("VmHWM")
		var duck int64
		if err := db.db.QueryRowContext(ctx, `SELECT coalesce(sum(memory_usage_bytes), 0)::BIGINT FROM duckdb_memory()`).Scan(&duck); err != nil {
			t.Fatal(err)
		}
		live := "-"
		if gc {
			runtime.GC()
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			live = fmt.Sprintf("%.0f", mb(after.HeapAlloc))
		}
		fmt.Printf("%-14s %7.1f %7.1f %8.0f %8.0f %8s %8.0f %8.0f %8.0f %8.0f\n", name, wall, cpu, mb(ms.HeapAlloc), mb(goal), live, mb(goOS), rss, peak, mb(uint64(duck)))
		start, cpu0 = time.Now(), cpuSeconds()
		resetPeak()
	}
	db.step = step
	s, _, err := db.LoadWithoutTexts(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	aopt := paper.DefaultOptions()
	aopt.RubricThreshold, aopt.ChecklistThreshold, aopt.PartialCredit = cfg.Solve.RubricThreshold, cfg.Solve.ChecklistThreshold, cfg.Solve.PartialCredit
	aopt.QuestionPages = cfg.SiteQuestionPages()
	need, err := paper.TextsNeeded(s, aopt)
	if err != nil {
		t.Fatal(err)
	}
	step("texts-needed")
	if _, err := db.LoadTexts(ctx, s, need.Responses); err != nil {
		t.Fatal(err)
	}
	step("texts")
	if _, err := db.LoadQuestionTexts(ctx, s, need.Questions); err != nil {
		t.Fatal(err)
	}
	step("question-texts")
	l, err := db.Listings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	step("listings")
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("study held: %.0f MB live heap; %d gradings, %d responses, %d listing rows\n",
		mb(ms.HeapAlloc), len(s.Gradings), len(s.Responses), len(l.Responses))
	if f := os.Getenv("EUROEXEC_TRACE_HEAP"); f != "" {
		out, err := os.Create(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := pprof.WriteHeapProfile(out); err != nil {
			t.Fatal(err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
	}
	runtime.KeepAlive(s)
	runtime.KeepAlive(l)
}

// cpuSeconds is the process's user+system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// procStatus is the value in MiB of a kB field of /proc/self/status.
func procStatus(field string) float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			v, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return v / 1024
		}
	}
	return 0
}

// resetPeak resets the kernel's RSS high-water mark (VmHWM).
func resetPeak() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }
