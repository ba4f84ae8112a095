package calibration_test

import (
	"context"
	"fmt"
	"math"

	"github.com/euroexec/euroexec/metrics/calibration"
	"github.com/euroexec/euroexec/study"
)

// A judge that scores every response one point too high, checked against
// one human on 8 of 12 questions. Human means on those 8: A 23/8, B 25/8;
// the isotonic map learns "subtract 1" and the PPI estimate is the mean
// human score over all 12 questions (36/12 = 3 for both), because judge
// minus human is the same on every question.
func ExampleAnalyze() {
	s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"Quality"}}
	for q := 0; q < 12; q++ {
		id := fmt.Sprintf("q%02d", q)
		s.Questions = append(s.Questions, study.Question{ID: id, GateScore: math.NaN()})
		for m, model := range []string{"A", "B"} {
			human := float64(2 + (q+m)%3) // 2, 3 or 4
			if q < 8 {
				s.Gradings = append(s.Gradings, study.Grading{Evaluator: "expert", Kind: study.Human, Round: "main",
					QuestionID: id, Model: model, Rubric: []float64{human}})
			}
			s.Gradings = append(s.Gradings, study.Grading{Evaluator: "gpt-judge", Kind: study.Judge, Round: "main",
				QuestionID: id, Model: model, Rubric: []float64{human + 1}})
		}
	}
	res, err := calibration.Analyze(context.Background(), s, calibration.DefaultOptions())
	if err != nil {
		panic(err)
	}
	fmt.Println(calibration.TableCalibration, len(res.Calibration))
	fmt.Println(calibration.TableSummary, len(res.Summary))
	for _, c := range res.Calibration {
		if c.Metric == calibration.MetricRubric {
			fmt.Printf("%s: human %.3f (%d/%d), judge raw %.3f, isotonic %.3f, PPI %.3f\n",
				c.Model, c.Human, c.HumanExact.Num, c.HumanExact.Den, c.JudgeRaw, c.JudgeIsotonic, c.PPI.Estimate)
		}
	}
	// Output:
	// judge_calibration 4
	// judge_calibration_summary 2
	// A: human 2.875 (23/8), judge raw 3.875, isotonic 2.875, PPI 3.000
	// B: human 3.125 (25/8), judge raw 4.125, isotonic 3.125, PPI 3.000
}

// PPI with eight judged units, four of them also graded by humans. The
// expected output was recomputed independently in Python (statistics
// module, t quantile 3.182446305284263 for 3 df).
func ExamplePPIMean() {
	nan := math.NaN()
	judge := []float64{3, 4, 2, 5, 3, 4, 5, 4}
	human := []float64{2.5, 3.5, 2, 4, nan, nan, nan, nan}
	r := calibration.PPIMean(judge, human, 0.95)
	fmt.Printf("PPI %.3f [%.3f, %.3f]\n", r.Estimate, r.Lo, r.Hi)
	fmt.Printf("tuned %.3f (lambda %.3f) [%.3f, %.3f]\n", r.Tuned, r.Lambda, r.TunedLo, r.TunedHi)
	fmt.Printf("humans only %.3f [%.3f, %.3f]\n", r.HumanMean, r.HumanLo, r.HumanHi)
	// Output:
	// PPI 3.250 [2.307, 4.193]
	// tuned 3.272 (lambda 1.089) [2.298, 4.246]
	// humans only 3.000 [1.547, 4.453]
}
