package compare_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/euroexec/euroexec/metrics/compare"

	"github.com/euroexec/euroexec/metrics/scores"
)

// BenchmarkCompare40k compares two runs of 40,000 questions × 6 models (two
// human gradings and one judge grading per response: 720,000 gradings per
// run) with 2,000 replicates, from loaded studies (loading each run's
// database is transform.Load's time, not measured here). Target: < 30 s.
func BenchmarkCompare40k(b *testing.B) {
	old, new := simulate(simParams{questions: benchQuestions, seed: 1, improve: 0.05, lenient: 0.2, models: 6})
	runs := []compare.Run{{Label: "old", Study: old, Scores: scores.DefaultOptions()}, {Label: "new", Study: new, Scores: scores.DefaultOptions()}}
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := compare.Analyze(context.Background(), runs, compare.DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
	// CPU seconds of the process per comparison: on a shared machine the
	// wall time also counts other processes' load.
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
}

// cpuTime is the process's user + system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchQuestions is the size of BenchmarkCompare40k's runs.
var benchQuestions = 40000
