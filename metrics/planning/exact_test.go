package planning

import (
	"fmt"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// TestPlanExactTie: two models whose mean human rubrics are equal as
// fractions (both 30/9) but whose per-question grader means are thirds
// that do not cancel in floating point. Plan must see d = 0 ("cannot be
// separated", no sample sizes) and equal means, as the exact fractions say.
func TestPlanExactTie(t *testing.T) {
	a := [][]float64{{1, 5, 5}, {3, 4, 2}, {3, 4, 3}}
	b := [][]float64{{5, 3, 5}, {3, 1, 4}, {5, 3, 1}}
	var qs []string
	var gs []study.Grading
	var diff []float64 // the float path: per-question differences of float means
	for q := range a {
		id := fmt.Sprintf("q%d", q)
		qs = append(qs, id)
		for h := 0; h < 3; h++ {
			for _, m := range []struct {
				name string
				x    float64
			}{{"A", a[q][h]}, {"B", b[q][h]}} {
				gs = append(gs, study.Grading{Evaluator: fmt.Sprintf("h%d", h), Kind: study.Human, Round: "main",
					QuestionID: id, Model: m.name, Rubric: []float64{m.x}})
			}
		}
		diff = append(diff, stats.Mean(a[q])-stats.Mean(b[q]))
	}
	if stats.Mean(diff) == 0 {
		t.Fatal("the float differences cancel: pick other scores (the test would prove nothing)")
	}
	pairs, err := Plan(newStudy(qs, gs), DefaultPlanOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 1 {
		t.Fatalf("%d pairs, want 1", len(pairs))
	}
	ps := pairs[0]
	if ps.ModelA != "A" || ps.ModelB != "B" {
		t.Errorf("pair %v vs %v, want A vs B (a tie is ordered by name)", ps.ModelA, ps.ModelB)
	}
	const want = 30.0 / 9
	for c, got := range map[string]float64{"mean_a": ps.MeanA, "mean_b": ps.MeanB} {
		if got != want {
			t.Errorf("%s = %v, want %v (30/9)", c, got, float64(want))
		}
	}
	if ps.MeanAExact != study.NewRat(30, 9) || ps.MeanBExact != study.NewRat(30, 9) || ps.DExact != study.NewRat(0, 1) {
		t.Errorf("exact means %v %v d %v, want 30/9, 30/9, 0", ps.MeanAExact, ps.MeanBExact, ps.DExact)
	}
	if ps.D != 0.0 {
		t.Errorf("d = %v, want exactly 0", ps.D)
	}
	if ps.QuestionsPilot != 0 {
		t.Errorf("n_questions_pilot = %v, want none (0)", ps.QuestionsPilot)
	}
	if !strings.Contains(ps.Note, "cannot be separated") {
		t.Errorf("note %q, want 'cannot be separated'", ps.Note)
	}
}
