package planning

import (
	"fmt"
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/stats"
)

// pilotStudy has 5 models and up to 4 human graders per response with
// irregular coverage: graders skip responses at random, some grade with a
// non-integer score (not exact), some have no rubric score, and one
// grading is of a question that is not in the study.
func pilotStudy(seed uint64) *analysis.Study {
	rng := stats.NewRand(seed, 0)
	var qs []string
	var gs []analysis.Grading
	for q := 0; q < 200; q++ {
		id := fmt.Sprintf("q%03d", q)
		qs = append(qs, id)
		for m := 0; m < 5; m++ {
			for _, h := range []string{"h3", "h1", "h0", "h2"} { // not in name order
				if rng.IntN(3) == 0 {
					continue
				}
				x := math.Max(1, math.Min(5, math.Round(2.5+0.3*float64(m)+rng.NormFloat64())))
				switch rng.IntN(15) {
				case 0:
					x += 0.123456789
				case 1:
					x = math.NaN()
				}
				gs = append(gs, analysis.Grading{Evaluator: h, Kind: analysis.Human, Round: "main",
					QuestionID: id, Model: fmt.Sprintf("m%d", m), Rubric: []float64{x}})
			}
		}
	}
	gs = append(gs, analysis.Grading{Evaluator: "h1", Kind: analysis.Human, Round: "main", QuestionID: "zz", Model: "m1", Rubric: []float64{5}})
	return newStudy(qs, gs)
}

// TestPilotMatchesOld checks the compact pilot against the map-based one
// it replaced (old_test.go): the same models in the same order and, for
// every pair of models (not only the adjacent ones Plan reports), the same
// Pair, every number bit for bit (fmt prints the shortest representation
// that reads back to the same float64).
func TestPilotMatchesOld(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		s := pilotStudy(seed)
		opt := DefaultPlanOptions()
		p, old := loadPilot(s, opt.Scores, opt.Graded), loadPilotOld(s, opt.Scores, opt.Graded)
		if fmt.Sprint(p.models) != fmt.Sprint(old.models) || len(p.models) != 5 {
			t.Fatalf("seed %d: models %v, want %v", seed, p.models, old.models)
		}
		for i := range p.models {
			for j := range p.models {
				if i == j {
					continue
				}
				got, want := p.pair(i, j, opt), old.pair(i, j, opt)
				if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
					t.Errorf("seed %d pair %d, %d:\n got %+v\nwant %+v", seed, i, j, got, want)
				}
			}
		}
	}
}
