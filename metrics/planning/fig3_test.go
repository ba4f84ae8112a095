package planning

import (
	"math"
	"sort"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// TestFigure3Relation checks the relation stated in the package comment:
// the sample size at which the median p-value of subsampled paired t-tests
// (the paper's Figure 3) falls below α is the sample size Plan returns for
// Power = 0.5 with the pilot's design. Pilot: 3000 simulated questions, 2
// graders, true d = 0.3 and Var(D) = 0.5 + 0.25 (d_z = 0.346; the leniency
// cancels). For n = 10 … 200 the median over 500 subsamples without
// replacement (as Figure 3 draws them) of the paired t-test p is
// computed; the crossing is the smallest n from which it stays below
// α = 0.01. Both sides use the same pilot (its d came out 0.330, var_diff
// 0.748): measured Plan n = 49, crossing n = 50 (the true parameters would
// give 59).
func TestFigure3Relation(t *testing.T) {
	if testing.Short() {
		t.Skip("subsampling")
	}
	const nQ = 3000
	rng := stats.NewRand(31, 0)
	var qs []string
	var gs []study.Grading
	var diff []float64
	for q := 0; q < nQ; q++ {
		id := "q" + itoa4(q)
		qs = append(qs, id)
		ua, ub := 0.5*rng.NormFloat64(), 0.5*rng.NormFloat64()
		var ma, mb float64
		for _, e := range []string{"e1", "e2"} {
			l := 0.4 * rng.NormFloat64()
			a := 3.3 + ua + l + 0.5*rng.NormFloat64()
			b := 3.0 + ub + l + 0.5*rng.NormFloat64()
			gs = append(gs, grading(e, id, "A", a), grading(e, id, "B", b))
			ma += a / 2
			mb += b / 2
		}
		diff = append(diff, ma-mb)
	}
	opt := DefaultPlanOptions()
	opt.Power = 0.5
	pairs, err := Plan(newStudy(qs, gs), opt)
	if err != nil {
		t.Fatal(err)
	}
	planned := pairs[0].QuestionsPilot
	crossing := -1
	for n := 200; n >= 10; n-- {
		ps := make([]float64, 500)
		x := make([]float64, n)
		for r := range ps {
			idx := stats.Subsample(nQ, n, stats.NewRand(32, n*500+r))
			for i, k := range idx {
				x[i] = diff[k]
			}
			ps[r] = stats.TTest1Samp(x, 0).P // paired test on the differences
		}
		sort.Float64s(ps)
		med := (ps[249] + ps[250]) / 2
		if med >= 0.01 {
			crossing = n + 1
			break
		}
	}
	nTrue, _, _ := PairedSampleSize(0.3/math.Sqrt(0.75), 0.01, 0.5)
	t.Logf("pilot d %.4f var_diff %.4f; Plan(power 0.5) n = %d (true-parameter n %d); Figure 3 crossing of p = 0.01 at n = %d",
		pairs[0].D, pairs[0].VarDiff, planned, nTrue, crossing)
	if math.Abs(float64(crossing)-float64(planned)) > 0.15*float64(planned) {
		t.Errorf("crossing %d vs planned %d: more than 15 %% apart", crossing, planned)
	}
}

func itoa4(i int) string {
	b := []byte("0000")
	for k := 3; k >= 0; k-- {
		b[k] = byte('0' + i%10)
		i /= 10
	}
	return string(b)
}
