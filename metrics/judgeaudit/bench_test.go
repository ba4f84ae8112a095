package judgeaudit

import (
	"context"
	"testing"
)

// BenchmarkAudit times Analyze with the default 2000 replicates on a
// paper-sized study (413 questions × 4 models, 2 humans, 2 judges run twice)
// and on 40,000 questions (targets: < 1 s and < 10 s per audit). Beside
// wall time it reports the process CPU time per audit (cpu-s/op), which a
// shared machine does not inflate; wall time on an idle 2-core machine is
// at most that.
func BenchmarkAudit(b *testing.B) {
	for _, c := range []struct {
		name string
		nQ   int
	}{{"paper_413q", 413}, {"40000q", 40000}} {
		s := simStudyOf(1, c.nQ, simJudges[:2])
		b.Run(c.name, func(b *testing.B) {
			opt := DefaultOptions()
			start := processCPUTime()
			for b.Loop() {
				if _, err := Analyze(context.Background(), s, opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((processCPUTime()-start).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}
