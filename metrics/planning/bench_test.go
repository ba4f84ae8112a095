package planning

import (
	"fmt"
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// BenchmarkPlan10k: Plan on 10,000 questions × 6 models × 2 human graders
// (120,000 gradings, integer scores). Compare ns/op, B/op and allocs/op
// with the same benchmark on an earlier commit.
func BenchmarkPlan10k(b *testing.B) {
	rng := stats.NewRand(1, 0)
	var qs []string
	var gs []study.Grading
	for q := 0; q < 10000; q++ {
		id := fmt.Sprintf("q%05d", q)
		qs = append(qs, id)
		for m := 0; m < 6; m++ {
			for h := 0; h < 2; h++ {
				x := math.Max(1, math.Min(5, math.Round(2.5+0.2*float64(m)+rng.NormFloat64())))
				gs = append(gs, study.Grading{Evaluator: fmt.Sprintf("h%d", h), Kind: study.Human, Round: "main",
					QuestionID: id, Model: fmt.Sprintf("m%d", m), Rubric: []float64{x}})
			}
		}
	}
	s := newStudy(qs, gs)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Plan(s, DefaultPlanOptions()); err != nil {
			b.Fatal(err)
		}
	}
}
