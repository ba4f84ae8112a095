package stats_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/euroexec/euroexec/metrics/stats"
)

func ExamplePearson() {
	x := []float64{1, 2, 3, 4, 5}
	y := []float64{2, 4, 5, 4, 5}
	// Centred: x − 3 = (−2, −1, 0, 1, 2), y − 4 = (−2, 0, 1, 0, 1), so
	// r = 6/√(10·6) = 0.7746 and t = r·√(3/(1−r²)) = 2.121 on 3 df.
	r, p := stats.Pearson(x, y)
	fmt.Printf("r = %.4f, p = %.4f\n", r, p)
	// Output: r = 0.7746, p = 0.1240
}

func ExampleKendallTauB() {
	// Two rankings of five models (1 = best) that swap one adjacent pair.
	a := []float64{1, 2, 3, 4, 5}
	b := []float64{1, 3, 2, 4, 5}
	// 9 concordant pairs, 1 discordant: tau = 8/10. No ties and n ≤ 33, so
	// the p-value is exact: 2·P(at most 1 inversion) = 2·(1+4)/5! = 1/12.
	tau, p := stats.KendallTauB(a, b)
	fmt.Printf("tau = %.1f, p = %.4f\n", tau, p)
	// Output: tau = 0.8, p = 0.0833
}

func ExampleClusterBootstrap() {
	// Per-question scores of one model; questions are the clusters.
	scores := []float64{0.2, 0.9, 0.4, 0.7, 0.5, 0.8, 0.3, 0.6}
	reps := stats.ClusterBootstrap(len(scores), 2000, 1, 1, func(idx []int, out []float64) {
		s := make([]float64, len(idx))
		for i, q := range idx {
			s[i] = scores[q]
		}
		out[0] = stats.Mean(s)
	})
	lo, hi := stats.PercentileInterval(reps, 0, 0.95)
	fmt.Printf("mean %.3f, 95%% interval [%.3f, %.3f]\n", stats.Mean(scores), lo, hi)
	// Output: mean 0.550, 95% interval [0.400, 0.713]
}

func ExampleClusterBootstrapCounts() {
	// The same resamples as ExampleClusterBootstrap, as counts: the mean of
	// the drawn scores is a weighted sum of per-question sums (here the
	// scores themselves), so each replicate reads every question once and
	// allocates nothing. The scores are given in tenths, whole numbers, so
	// that the sum is exact in any order. The interval is that of
	// ExampleClusterBootstrap (0.400 and 0.713 there: its sums of 0.1-steps
	// in draw order land just above 0.7125).
	tenths := []float64{2, 9, 4, 7, 5, 8, 3, 6}
	reps, err := stats.ClusterBootstrapCounts(context.Background(), len(tenths), 2000, 1, 1, func() stats.CountStat {
		return func(cnt []int32, out []float64) {
			var s float64
			for q, c := range cnt {
				s += float64(c) * tenths[q]
			}
			out[0] = s / 10 / float64(len(tenths))
		}
	})
	if err != nil {
		panic(err)
	}
	lo, hi := stats.PercentileInterval(reps, 0, 0.95)
	fmt.Printf("95%% interval [%.4f, %.4f]\n", lo, hi)
	// Output: 95% interval [0.3997, 0.7125]
}

func ExampleClusterBootstrapCountBlocks() {
	// ExampleClusterBootstrapCounts in blocks: the statistic gets up to 16
	// replicates at once, the counts laid out question by question
	// (cnt[q·len(out)+b] is how often question q was drawn in replicate b),
	// so one pass over the per-question data serves the whole block. Each
	// replicate's sum is taken in question order as before, so the interval
	// is the same.
	tenths := []float64{2, 9, 4, 7, 5, 8, 3, 6}
	reps, err := stats.ClusterBootstrapCountBlocks(context.Background(), len(tenths), 2000, 1, 1, 16, func() stats.CountBlockStat {
		var sums []float64
		return func(cnt []int32, out [][]float64) {
			nb := len(out)
			sums = append(sums[:0], make([]float64, nb)...)
			for q, v := range tenths {
				for b, c := range cnt[q*nb : q*nb+nb] {
					sums[b] += float64(c) * v
				}
			}
			for b, o := range out {
				o[0] = sums[b] / 10 / float64(len(tenths))
			}
		}
	})
	if err != nil {
		panic(err)
	}
	lo, hi := stats.PercentileInterval(reps, 0, 0.95)
	fmt.Printf("95%% interval [%.4f, %.4f]\n", lo, hi)
	// Output: 95% interval [0.3997, 0.7125]
}

func ExampleKrippendorffAlphaUnits() {
	// Krippendorff (2011), example C: 12 units rated by up to 4 observers,
	// each unit's values listed without the missing ones. Published α:
	// nominal .743, ordinal .815, interval .849.
	units := [][]float64{
		{1, 1, 1}, {2, 2, 3, 2}, {3, 3, 3, 3}, {3, 3, 3, 3}, {2, 2, 2, 2}, {1, 2, 3, 4},
		{4, 4, 4, 4}, {1, 1, 2, 1}, {2, 2, 2, 2}, {5, 5, 5}, {1, 1}, {3},
	}
	res, err := stats.KrippendorffAlphaUnits(slices.Values(units), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("nominal %.3f ordinal %.3f interval %.3f, %d pairable units\n", res.Nominal, res.Ordinal, res.Interval, res.PairableUnits)
	// Output: nominal 0.743 ordinal 0.815 interval 0.849, 11 pairable units
}
