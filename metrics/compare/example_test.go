package compare_test

import (
	"context"
	"fmt"

	"github.com/euroexec/euroexec/metrics/compare"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/study"
)

// Two runs of a two-question study: in NEW the model also solves q2.
func ExampleAnalyze() {
	run := func(solvedQ2 bool) *study.Study {
		s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"A"},
			Questions:  []study.Question{{ID: "q1"}, {ID: "q2"}},
			Models:     []study.Model{{Name: "m"}},
			Evaluators: []study.Evaluator{{ID: "h", Kind: study.Human}}}
		q2 := 2.0
		if solvedQ2 {
			q2 = 4
		}
		s.Gradings = []study.Grading{
			{Evaluator: "h", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "m", Rubric: []float64{4}},
			{Evaluator: "h", Kind: study.Human, Round: "main", QuestionID: "q2", Model: "m", Rubric: []float64{q2}},
		}
		return s
	}
	opt := compare.DefaultOptions()
	opt.Bootstrap = 0 // point estimates only
	res, err := compare.Analyze(context.Background(), []compare.Run{
		{Label: "old", Study: run(false), Scores: scores.DefaultOptions()},
		{Label: "new", Study: run(true), Scores: scores.DefaultOptions()},
	}, opt)
	if err != nil {
		panic(err)
	}
	for _, r := range res.Models {
		if r.Metric == "solve_rate" {
			fmt.Printf("%s %s: old %v new %v delta %v (paired %v, %d shared questions)\n", r.Model, r.Metric, r.Old, r.New, r.Delta, r.Paired, r.SharedQuestions)
		}
	}
	// Output:
	// m solve_rate: old 0.5 new 1 delta 0.5 (paired true, 2 shared questions)
}
