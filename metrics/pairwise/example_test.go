package pairwise_test

import (
	"context"
	"fmt"

	"github.com/euroexec/euroexec/metrics/pairwise"
	"github.com/euroexec/euroexec/study"
)

// Model 0 beat model 1 three times and lost once: β₀ − β₁ = ln 3, so the
// ratings are 1000 ± 200·log10(3).
func ExampleFitBradleyTerry() {
	wins := []float64{
		0, 3,
		1, 0,
	}
	f := pairwise.FitBradleyTerry(wins, 2, 0)
	fmt.Printf("%.3f %.3f %v\n", pairwise.Rating(f.Beta[0]), pairwise.Rating(f.Beta[1]), f.Regularised)
	// Output: 1095.424 904.576 false
}

// One human compares two models on four questions; the answer shown first
// is ModelA.
func ExampleAnalyze() {
	s := &study.Study{MainRound: "main"}
	for i, w := range []study.Preference{study.PreferA, study.PreferA, study.Tie, study.PreferB} {
		s.Comparisons = append(s.Comparisons, study.Comparison{Evaluator: "ann", Kind: study.Human, Round: "main",
			QuestionID: fmt.Sprint("q", i), ModelA: "alpha", ModelB: "beta", Winner: w})
	}
	opt := pairwise.DefaultOptions()
	opt.Bootstrap = 0
	res, err := pairwise.Analyze(context.Background(), s, opt)
	if err != nil {
		panic(err)
	}
	for _, pop := range res.Populations {
		for _, m := range pop.Models {
			w := m.WinRateExact()
			fmt.Printf("%s %s win rate %.3f (%d/%d) rating %.1f rank %d\n", pop.Name, m.Model, m.WinRate.Value, w.Num, w.Den, m.Rating.Value, m.Rank)
		}
	}
	// Output:
	// humans alpha win rate 0.625 (5/8) rating 1044.4 rank 1
	// humans beta win rate 0.375 (3/8) rating 955.6 rank 2
}
