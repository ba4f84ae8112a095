package prbench_test

import (
	"context"
	"fmt"

	"github.com/euroexec/euroexec/metrics/prbench"
	"github.com/euroexec/euroexec/study"
)

// One question with a +6, a +4 and a −5 criterion (max 10, min −5), two
// models graded by one judge:
//
//	alpha meets the +6 and the −5 criteria: raw 1 → clipped 1/10, normalised 6/15
//	beta  meets the +6 and the +4 criteria: raw 10 → clipped 1, normalised 1
func ExampleAnalyze() {
	s := &study.Study{
		Questions: []study.Question{{ID: "q1", Domain: "Legal"}},
		Criteria: []study.Criterion{
			{QuestionID: "q1", ID: "a", Weight: 6, Category: "Legal Accuracy"},
			{QuestionID: "q1", ID: "b", Weight: 4, Category: "Practical Utility"},
			{QuestionID: "q1", ID: "c", Weight: -5, Category: "Legal Accuracy"},
		},
	}
	for model, met := range map[string][3]bool{"alpha": {true, false, true}, "beta": {true, true, false}} {
		for i, id := range []string{"a", "b", "c"} {
			s.CriterionGrades = append(s.CriterionGrades, study.CriterionGrade{
				Evaluator: "o4-mini", Kind: study.Judge, QuestionID: "q1", Model: model,
				CriterionID: id, Met: met[i]})
		}
	}
	res, err := prbench.Analyze(context.Background(), s, prbench.DefaultOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Scores {
		fmt.Printf("%s %s %s: clipped %.2f, normalized %.2f\n", r.Set, r.Graders, r.Model, r.Clipped.Mean, r.Normalized.Mean)
	}
	// Output:
	// all judge:o4-mini alpha: clipped 0.10, normalized 0.40
	// all judge:o4-mini beta: clipped 1.00, normalized 1.00
	// hard judge:o4-mini alpha: clipped 0.10, normalized 0.40
	// hard judge:o4-mini beta: clipped 1.00, normalized 1.00
}
