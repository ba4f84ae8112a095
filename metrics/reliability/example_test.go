package reliability_test

import (
	"context"
	"fmt"

	"github.com/euroexec/euroexec/metrics/reliability"
	"github.com/euroexec/euroexec/study"
)

// Two human graders score three responses on one rubric attribute: (4, 4),
// (2, 3), (5, 5). By hand: nominal α = 1 − 5·2/26 = 16/26; interval α =
// 1 − 5·2/82 = 72/82; κ = (2/3 − 2/9)/(1 − 2/9) = 4/7; quadratic κ = 1 − 1/7;
// MSR = 19/6, MSW = MSE = MSC = 1/6, so ICC(1,1) = ICC(2,1) = 18/20 and
// ICC(1,k) = ICC(2,k) = 18/19.
func ExampleAnalyze() {
	s := &study.Study{MainRound: "main", Attributes: []string{"Reasoning"}, ScaleMin: 1, ScaleMax: 5}
	scores := map[string][]float64{"alice": {4, 2, 5}, "bob": {4, 3, 5}}
	for _, e := range []string{"alice", "bob"} {
		for i, m := range []string{"m1", "m2", "m3"} {
			s.Gradings = append(s.Gradings, study.Grading{Evaluator: e, Kind: study.Human, Round: "main",
				QuestionID: "q1", Model: m, Rubric: []float64{scores[e][i]}})
		}
	}
	opt := reliability.DefaultOptions()
	opt.Bootstrap = 0 // one question: a bootstrap over questions says nothing
	res, err := reliability.Analyze(context.Background(), s, opt)
	if err != nil {
		panic(err)
	}
	for _, r := range res.Rows {
		if r.Instrument == "rubric:Reasoning" {
			fmt.Printf("%s %.4f (%d units, %d graders)\n", r.Statistic, r.Value, r.Units, r.Graders)
		}
	}
	// Output:
	// alpha_nominal 0.6154 (3 units, 2 graders)
	// alpha_ordinal 0.9495 (3 units, 2 graders)
	// alpha_interval 0.8780 (3 units, 2 graders)
	// kappa 0.5714 (3 units, 2 graders)
	// kappa_quadratic 0.8571 (3 units, 2 graders)
	// icc1_1 0.9000 (3 units, 2 graders)
	// icc1_k 0.9474 (3 units, 2 graders)
	// icc2_1 0.9000 (3 units, 2 graders)
	// icc2_k 0.9474 (3 units, 2 graders)
}
