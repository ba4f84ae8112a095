package calibration

import (
	"fmt"
	"math"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// TestHumanMeanExact: the human column of judge_calibration is the exact
// mean over the labelled questions of the per-question human means,
// divided once. Three graders give integer scores; the per-question means
// are 10/3, 8/3, 8/3 and 8/3, whose exact mean 34/12 = 17/6 rounds to
// 2.8333333333333335 while averaging the rounded thirds in floating point
// gives 2.833333333333333.
func TestHumanMeanExact(t *testing.T) {
	scores := [][]float64{{5, 2, 3}, {2, 2, 4}, {3, 1, 4}, {5, 1, 2}}
	s := &study.Study{MainRound: "main", Attributes: []string{"A"}, ScaleMin: 1, ScaleMax: 5}
	for q, hs := range scores {
		id := fmt.Sprintf("q%d", q)
		s.Questions = append(s.Questions, study.Question{ID: id, GateScore: math.NaN()})
		for h, x := range hs {
			s.Gradings = append(s.Gradings, study.Grading{Evaluator: fmt.Sprintf("h%d", h), Kind: study.Human,
				Round: "main", QuestionID: id, Model: "m", Rubric: []float64{x}})
		}
		s.Gradings = append(s.Gradings, study.Grading{Evaluator: "j", Kind: study.Judge, Round: "main",
			QuestionID: id, Model: "m", Rubric: []float64{float64(2 + q%2)}})
	}
	// the naive float mean really differs here (else the test proves nothing)
	naive := 0.0
	for _, hs := range scores {
		naive += (hs[0] + hs[1] + hs[2]) / 3
	}
	naive /= float64(len(scores))
	const want = 17.0 / 6
	if naive == want {
		t.Fatalf("the float mean %v equals the exact one: pick other scores", naive)
	}
	res := analyze(t, s, noLength())
	rows := rowsOf(calRows(t, res), MetricRubric)
	row, ok := rows["m"]
	if !ok {
		t.Fatalf("no rubric row for m: %v", rows)
	}
	if got := row.Human; got != want || row.HumanExact != study.NewRat(17, 6) {
		t.Errorf("human = %v (exact %v), want %v (17/6)", got, row.HumanExact, want)
	}
	// judge_raw: (2+3+2+3)/4 = 2.5 exactly
	if got := row.JudgeRaw; got != 2.5 {
		t.Errorf("judge_raw = %v, want 2.5", got)
	}
	raw, human := 2.5, float64(want) // float64 values: err_raw is their float difference
	if got := row.ErrRaw(); got != raw-human {
		t.Errorf("err_raw = %v, want %v", got, raw-human)
	}
}
