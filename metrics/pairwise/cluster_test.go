package pairwise

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// clusteredShareP against scipy 1.x (stats.ttest_1samp on k − n/2 and
// stats.binomtest), run by hand: it is the larger of the two.
func TestClusteredShareP(t *testing.T) {
	tests := []struct {
		k, n []int32
		want float64
	}{
		// t 0.17780780835622126, binomial 0.14599609375.
		{[]int32{3, 0, 2, 1, 3}, []int32{3, 1, 2, 2, 4}, 0.17780780835622126},
		// t 0.0008870513737432898, binomial 1.2913485988974571e-05.
		{[]int32{5, 4, 6, 5, 6, 5}, []int32{6, 6, 6, 6, 6, 6}, 0.0008870513737432898},
		// Every question exactly half: no evidence at all.
		{[]int32{1, 2, 0}, []int32{2, 4, 0}, 1},
		// Constant d: the t test is undefined, the binomial decides (2·2^−6).
		{[]int32{3, 3}, []int32{3, 3}, 2.0 / 64},
	}
	for i, tc := range tests {
		checkClose(t, fmt.Sprint("case ", i), clusteredShareP(tc.k, tc.n), tc.want, 1e-12)
	}
}

// A position-neutral judge rerun 10 times on each of 40 questions, whose
// verdicts within a question are strongly correlated (on a question it
// prefers the first-shown answer with probability 0.9 or 0.1): the
// question-clustered test rejects at 5 % in about 5 % of 200 studies, where
// the binomial test, treating the 400 verdicts as independent, rejects in
// most of them (issue 36: "with judge reruns it becomes exactly 0").
func TestPositionClusteredNull(t *testing.T) {
	rej := 0
	const seeds = 200
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		var cs []study.Comparison
		for q := range 40 {
			pFirst := []float64{0.9, 0.1}[r.IntN(2)]
			a, b := "A", "B"
			if r.IntN(2) == 0 {
				a, b = b, a
			}
			for run := range 10 {
				w := study.PreferB
				if r.Float64() < pFirst {
					w = study.PreferA
				}
				c := judg("j", J, fmt.Sprintf("q%02d", q), a, b, w)
				c.Run = fmt.Sprint(run)
				cs = append(cs, c)
			}
		}
		res := run(t, studyOf(cs...), 0)
		if res.Populations[0].Position.PValue < 0.05 {
			rej++
		}
	}
	if rej > 20 {
		t.Errorf("rejected in %d of %d position-neutral studies; want about 5 %%", rej, seeds)
	}
	t.Logf("position-neutral judge with reruns: rejected in %d of %d", rej, seeds)
}
