package scores_test

import (
	"fmt"

	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/study"
)

// ExampleEach turns the scored gradings into the caller's own records one
// at a time: a judge's two runs are averaged into one grading.
func ExampleEach() {
	s := &study.Study{
		Attributes: []string{"Accuracy", "Clarity"},
		Gradings: []study.Grading{
			{Evaluator: "expert_1", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "m1", Rubric: []float64{4, 3}},
			{Evaluator: "judge_a", Kind: study.Judge, Round: "main", Run: "1", QuestionID: "q1", Model: "m1", Rubric: []float64{5, 2}},
			{Evaluator: "judge_a", Kind: study.Judge, Round: "main", Run: "2", QuestionID: "q1", Model: "m1", Rubric: []float64{4, 2}},
		},
	}
	type record struct {
		who    string
		runs   int32
		rubric float64
	}
	var recs []record
	scores.Each(s, scores.DefaultOptions(), func(g *scores.Grading) {
		recs = append(recs, record{g.Evaluator, g.Runs, g.RubricMean})
	})
	for _, r := range recs {
		fmt.Printf("%s: %d run(s), rubric mean %.3g\n", r.who, r.runs, r.rubric)
	}
	// Output:
	// expert_1: 1 run(s), rubric mean 3.5
	// judge_a: 2 run(s), rubric mean 3.25
}
