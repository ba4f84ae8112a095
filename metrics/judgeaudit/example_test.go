package judgeaudit_test

import (
	"context"
	"fmt"

	"github.com/euroexec/euroexec/metrics/judgeaudit"
	"github.com/euroexec/euroexec/study"
)

// A judge scores four responses 1 point above the single human (residuals
// 1, 1, 1, 1), so leniency is exactly 1; by hand the scale ratio is 1 too
// (the same spread). One question per response, no bootstrap.
func ExampleAnalyze() {
	s := &study.Study{MainRound: "main", Attributes: []string{"Quality"}, ScaleMin: 1, ScaleMax: 5}
	for i, h := range []float64{2, 3, 3, 4} {
		q := fmt.Sprint("q", i)
		s.Questions = append(s.Questions, study.Question{ID: q})
		s.Gradings = append(s.Gradings,
			study.Grading{Evaluator: "alice", Kind: study.Human, Round: "main", QuestionID: q, Model: "m", Rubric: []float64{h}},
			study.Grading{Evaluator: "judge", Kind: study.Judge, Round: "main", QuestionID: q, Model: "m", Rubric: []float64{h + 1}})
	}
	opt := judgeaudit.DefaultOptions()
	opt.Bootstrap = 0
	res, err := judgeaudit.Analyze(context.Background(), s, opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, j := range res.Judges {
		for _, b := range j.Biases {
			if b.Name == judgeaudit.Leniency || b.Name == judgeaudit.Scale {
				fmt.Printf("%s %s %.2f n=%d\n", j.Judge, b.Name, b.Estimate, b.N)
			}
		}
	}
	// Output:
	// judge leniency 1.00 n=4
	// judge scale 1.00 n=4
}
