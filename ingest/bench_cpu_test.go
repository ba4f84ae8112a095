package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/euroexec/euroexec/sample"
)

// cpuTime is the process's user+system CPU time so far, DuckDB's threads
// included (wall time is meaningless on a shared machine).
func cpuTime(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// judgeOnlyStudy writes (once per process) a judge-only study like the
// 200,000-question one of the scale issue, at EUROEXEC_BENCH_JUDGE_QUESTIONS
// questions (default 20,000) × 6 models, one judge run once, short answers.
func judgeOnlyStudy(b *testing.B) string {
	b.Helper()
	n := 20000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_JUDGE_QUESTIONS")); err == nil && v > 0 {
		n = v
	}
	dir := filepath.Join(os.TempDir(), "euroexec-bench-judge-"+strconv.Itoa(n))
	if _, err := os.Stat(filepath.Join(dir, "questions.csv")); err != nil {
		opt := sample.DefaultOptions()
		opt.Questions, opt.Evaluators, opt.ReferenceShare = n, 0, 0
		opt.Judges, opt.SingleRun, opt.ResponseChars = 1, true, 100
		os.RemoveAll(dir)
		if _, err := sample.Write(dir, opt); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkIngestDictionaries loads the same studies with the dictionary
// columns' values kept from batch to batch (arrow-go's default, the load
// before) and reset at every batch (the load now), in one run. Report: CPU
// seconds per load, DuckDB's threads included; compare the two lines.
//
//	go test -tags duckdb_arrow -run X -bench IngestDictionaries -benchtime 2x ./ingest
func BenchmarkIngestDictionaries(b *testing.B) {
	for _, st := range []struct {
		name string
		dir  func(*testing.B) string
	}{
		{"judge-only", judgeOnlyStudy},
		{"default", func(b *testing.B) string { d, _ := benchStudy(b); return d }},
	} {
		dir := st.dir(b)
		out := b.TempDir()
		for _, keep := range []bool{true, false} {
			name := st.name + "/reset"
			if keep {
				name = st.name + "/kept"
			}
			b.Run(name, func(b *testing.B) {
				defer func(k bool) { keepDictionaries = k }(keepDictionaries)
				keepDictionaries = keep
				cpu0 := cpuTime(b)
				for i := 0; i < b.N; i++ {
					if _, err := Ingest(context.Background(), dir, Options{DB: filepath.Join(out, "s.duckdb")}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((cpuTime(b)-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			})
		}
	}
}
