package planning_test

import (
	"fmt"

	"github.com/euroexec/euroexec/metrics/planning"
	"github.com/euroexec/euroexec/study"
)

// Cohen's d_z = 0.5 at α = 0.05 and 80 % power: R's pwr.t.test prints
// n = 33.36713 for a paired test.
func ExamplePairedSampleSize() {
	n, exact, err := planning.PairedSampleSize(0.5, 0.05, 0.8)
	fmt.Println(n, fmt.Sprintf("%.4f", exact), err)
	// Output: 34 33.3671 <nil>
}

// A three-question pilot with two graders per response (the TestPlanHand
// data): how many questions would separate A from B?
func ExamplePlan() {
	s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"Quality"}}
	add := func(q string, scores ...float64) {
		s.Questions = append(s.Questions, study.Question{ID: q})
		for i, m := range []string{"A", "A", "B", "B"} {
			s.Gradings = append(s.Gradings, study.Grading{Evaluator: fmt.Sprint("e", i%2), Kind: study.Human,
				Round: "main", QuestionID: q, Model: m, Rubric: []float64{scores[i]}})
		}
	}
	add("q1", 5, 4, 3, 3)
	add("q2", 4, 4, 3, 2)
	add("q3", 3, 4, 3, 3)
	t, err := planning.Plan(s, planning.DefaultPlanOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, c := range t.Columns {
		switch v := t.Rows[0][i].(type) {
		case float64:
			fmt.Printf("%s=%.4g\n", c.Name, v)
		case int64, string:
			if c.Name != "note" {
				fmt.Printf("%s=%v\n", c.Name, v)
			}
		}
	}
	// The sizes agree with the normal approximation plus Guenther's
	// correction, n ≈ ((z₀.₉₉₅ + z₀.₈)/δ)² + z₀.₉₉₅²/2: 8.3, 6.2, 5.5 → 9, 7, 6.

	// Output:
	// model_a=A
	// model_b=B
	// n_pilot=3
	// graders_pilot=2
	// mean_a=4
	// mean_b=2.833
	// d=1.167
	// var_diff=0.3333
	// var_question=0.08333
	// var_grader=0.25
	// n_grader_questions=3
	// effect_size=2.021
	// power_pilot=0.1236
	// mde_pilot=3.662
	// n_questions_pilot=7
	// n_questions_g1=9
	// n_questions_g2=7
	// n_questions_g3=6
}
