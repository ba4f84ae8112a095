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
	tb, err := Plan(newStudy(qs, gs), DefaultPlanOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(tb.Rows) != 1 {
		t.Fatalf("%d rows, want 1", len(tb.Rows))
	}
	row := tb.Rows[0]
	if row[col(t, tb, "model_a")] != "A" || row[col(t, tb, "model_b")] != "B" {
		t.Errorf("pair %v vs %v, want A vs B (a tie is ordered by name)", row[col(t, tb, "model_a")], row[col(t, tb, "model_b")])
	}
	const want = 30.0 / 9
	for _, c := range []string{"mean_a", "mean_b"} {
		if got := row[col(t, tb, c)]; got != want {
			t.Errorf("%s = %v, want %v (30/9)", c, got, float64(want))
		}
	}
	if got := row[col(t, tb, "d")]; got != 0.0 {
		t.Errorf("d = %v, want exactly 0", got)
	}
	if got := row[col(t, tb, "n_questions_pilot")]; got != nil {
		t.Errorf("n_questions_pilot = %v, want empty", got)
	}
	if note := row[col(t, tb, "note")].(string); !strings.Contains(note, "cannot be separated") {
		t.Errorf("note %q, want 'cannot be separated'", note)
	}
}
