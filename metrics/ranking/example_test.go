package ranking_test

import (
	"context"
	"fmt"

	"github.com/euroexec/euroexec/metrics/ranking"
	"github.com/euroexec/euroexec/study"
)

// Four models A–D in rank order; A–C, A–D and B–D differ significantly.
func ExampleCompactLetters() {
	sig := map[[2]int]bool{{0, 2}: true, {0, 3}: true, {1, 3}: true}
	letters := ranking.CompactLetters(4, func(i, j int) bool { return sig[[2]int{i, j}] })
	fmt.Println(letters)
	// Output: [a ab bc c]
}

// Two models, one comparison each on ten questions: A preferred 7 times, B
// 3 times. With one pseudo-win each, γ_A = 2·(7+1)/(10+2) = 4/3.
func ExampleFitPlackettLuce() {
	var obs []ranking.Ordering
	for i := 0; i < 10; i++ {
		if i < 7 {
			obs = append(obs, ranking.Ordering{0, 1})
		} else {
			obs = append(obs, ranking.Ordering{1, 0})
		}
	}
	fit := ranking.FitPlackettLuce(obs, nil, 2, 1, nil)
	fmt.Printf("%.4f %.4f\n", fit.Strength[0], fit.Strength[1])
	// Output: 1.3333 0.6667
}

// Three models graded and ranked by one human on three questions.
func ExampleAnalyze() {
	s := &study.Study{MainRound: "main", Attributes: []string{"Overall"}, ScaleMin: 1, ScaleMax: 5}
	score := map[string]float64{"A": 5, "B": 3, "C": 1}
	rank := map[string]int{"A": 1, "B": 2, "C": 3}
	for _, q := range []string{"q1", "q2", "q3"} {
		for _, m := range []string{"A", "B", "C"} {
			s.Gradings = append(s.Gradings, study.Grading{Evaluator: "h", Kind: study.Human, Round: "main",
				QuestionID: q, Model: m, Rubric: []float64{score[m]}, Rank: rank[m]})
		}
	}
	opt := ranking.DefaultOptions()
	opt.Bootstrap = 200
	res, err := ranking.Analyze(context.Background(), s, opt)
	if err != nil {
		panic(err)
	}
	for _, m := range res.Models {
		fmt.Printf("%s rubric %.0f solve rate %.2f rank %.0f\n", m.Model, m.Rubric, m.SolveRate, m.Rank)
	}
	// Output:
	// A rubric 5 solve rate 1.00 rank 1
	// B rubric 3 solve rate 1.00 rank 2
	// C rubric 1 solve rate 0.00 rank 3
}
