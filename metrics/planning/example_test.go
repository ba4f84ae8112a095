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
	pairs, err := planning.Plan(s, planning.DefaultPlanOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	ps := pairs[0]
	fmt.Printf("%s vs %s: %d questions, %.4g graders per response\n", ps.ModelA, ps.ModelB, ps.Questions, ps.Graders)
	fmt.Printf("means %.4g %.4g (exact %d/%d), d=%.4g (exact %d/%d)\n", ps.MeanA, ps.MeanB, ps.MeanBExact.Num, ps.MeanBExact.Den, ps.D, ps.DExact.Num, ps.DExact.Den)
	fmt.Printf("var_diff=%.4g var_question=%.4g var_grader=%.4g on %d questions\n", ps.VarDiff, ps.VarQuestion, ps.VarGrader, ps.GraderQuestions)
	fmt.Printf("effect_size=%.4g power_pilot=%.4g mde_pilot=%.4g\n", ps.EffectSize, ps.PowerPilot, ps.MDEPilot)
	fmt.Println("questions needed: pilot design", ps.QuestionsPilot, "with 1, 2, 3 graders", ps.QuestionsByGraders)
	// The sizes agree with the normal approximation plus Guenther's
	// correction, n ≈ ((z₀.₉₉₅ + z₀.₈)/δ)² + z₀.₉₉₅²/2: 8.3, 6.2, 5.5 → 9, 7, 6.

	// Output:
	// A vs B: 3 questions, 2 graders per response
	// means 4 2.833 (exact 17/6), d=1.167 (exact 7/6)
	// var_diff=0.3333 var_question=0.08333 var_grader=0.25 on 3 questions
	// effect_size=2.021 power_pilot=0.1236 mde_pilot=3.662
	// questions needed: pilot design 7 with 1, 2, 3 graders [9 7 6]
}
