package ranking

// The bootstrap by its definition: in each replicate, every ranking of
// every drawn question, weighted by how often the question was drawn (the
// study with each question repeated as drawn), fitted by Plackett–Luce, and
// the rates from the drawn questions' sums. It is the independent check of
// the bootstrap on distinct orderings with counts (TestBootstrapEqualsNaive)
// and the baseline of BenchmarkBootstrap.

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

func naiveOrderList(d *data) []Ordering {
	var out []Ordering
	for _, os := range d.orders {
		out = append(out, os...)
	}
	return out
}

func naiveOrderWeights(d *data, cnt []int) []float64 {
	var out []float64
	for q, os := range d.orders {
		for range os {
			out = append(out, float64(cnt[q]))
		}
	}
	return out
}

func naiveRates(d *data, cnt []int) (rub, sr []float64) {
	K := len(d.models)
	rub, sr = make([]float64, K), make([]float64, K)
	for m := 0; m < K; m++ {
		var s float64
		var n, sv, sn int
		for q, c := range cnt {
			if c == 0 {
				continue
			}
			s += float64(c) * d.rubSum[m][q]
			n += c * d.rubN[m][q]
			sv += c * d.solved[m][q]
			sn += c * d.solveN[m][q]
		}
		rub[m], sr[m] = math.NaN(), math.NaN()
		if n > 0 {
			rub[m] = s / float64(n)
		}
		if sn > 0 && d.hasSolve {
			sr[m] = float64(sv) / float64(sn)
		}
	}
	return rub, sr
}

func naiveRanksDesc(x []float64) []float64 {
	out := make([]float64, len(x))
	var vals []float64
	var at []int
	for i, v := range x {
		out[i] = math.NaN()
		if !math.IsNaN(v) {
			vals = append(vals, -v)
			at = append(at, i)
		}
	}
	if len(vals) == 0 {
		return out
	}
	r := stats.Rank(vals)
	for k, i := range at {
		out[i] = r[k]
	}
	return out
}

// naiveBootstrap is the bootstrap by its definition: every ranking of
// every drawn question, weighted by its draw count, allocated afresh per
// replicate.
func naiveBootstrap(d *data, opt Options, start []float64) [][]float64 {
	K := len(d.models)
	orders := naiveOrderList(d)
	return stats.ClusterBootstrap(d.nQ, opt.Bootstrap, opt.Seed, 2*K, func(idx []int, out []float64) {
		cnt := make([]int, d.nQ)
		for _, q := range idx {
			cnt[q]++
		}
		f := FitPlackettLuce(orders, naiveOrderWeights(d, cnt), K, opt.PLPrior, start)
		copy(out[:K], f.Strength)
		r, _ := naiveRates(d, cnt)
		copy(out[K:2*K], naiveRanksDesc(r))
	})
}

// rankedStudy: nQ questions, six models, two human graders per question
// who score (one attribute, 1…5) and rank all six; a latent quality per
// model, so that rankings repeat across questions as in real studies.
func rankedStudy(nQ int, seed uint64) *study.Study {
	r := rand.New(rand.NewPCG(seed, 11))
	models := []string{"a", "b", "c", "d", "e", "f"}
	var gs []study.Grading
	for q := 0; q < nQ; q++ {
		id := fmt.Sprintf("q%06d", q)
		for h := 0; h < 2; h++ {
			lat := make([]float64, len(models))
			for i := range models {
				lat[i] = 4 - 0.35*float64(i) + r.NormFloat64()*0.6
			}
			for i, m := range models {
				rank := 1
				for j := range models {
					if lat[j] > lat[i] || (lat[j] == lat[i] && j < i) {
						rank++
					}
				}
				gs = append(gs, grading(fmt.Sprintf("h%d", (q+h)%7), id, m, math.Max(1, math.Min(5, math.Round(lat[i]))), rank))
			}
		}
	}
	return newStudy(gs)
}

func fullFit(t testing.TB, d *data, opt Options) []float64 {
	t.Helper()
	all := make([]int32, d.nQ)
	for i := range all {
		all[i] = 1
	}
	return FitPlackettLuce(d.patterns, d.patternWeights(all, make([]float64, len(d.patterns))), len(d.models), opt.PLPrior, nil).Strength
}

// The bootstrap on distinct orderings equals the bootstrap by its
// definition on the same draws: ranks bit for bit; the Plackett–Luce
// strengths (the same estimator, its sums taken over distinct orderings in
// another order) to 1e-9
// relative, well inside the fit's own tolerance of 1e-10 per step times
// the iterations. The full-data fit on distinct orderings equals the fit on
// all rankings to the same tolerance.
func TestBootstrapEqualsNaive(t *testing.T) {
	s := rankedStudy(300, 3)
	opt := DefaultOptions()
	opt.Bootstrap = 200
	d, _, _ := build(s, opt)
	K := len(d.models)
	if len(d.patterns) >= len(naiveOrderList(d)) {
		t.Fatalf("%d distinct orderings of %d: the data does not exercise the deduplication", len(d.patterns), len(naiveOrderList(d)))
	}
	start := fullFit(t, d, opt)
	all := make([]int, d.nQ)
	for i := range all {
		all[i] = 1
	}
	naive := FitPlackettLuce(naiveOrderList(d), naiveOrderWeights(d, all), K, opt.PLPrior, nil).Strength
	for m := range naive {
		if math.Abs(start[m]-naive[m]) > 1e-9*naive[m] {
			t.Errorf("full fit model %d: distinct orderings %v, all rankings %v", m, start[m], naive[m])
		}
	}
	want := naiveBootstrap(d, opt, start)
	for _, procs := range []int{1, 3} {
		prev := runtime.GOMAXPROCS(procs)
		got, err := d.bootstrap(context.Background(), opt, start, true, true)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		for r := range want {
			for j := range want[r] {
				g, w := got[r][j], want[r][j]
				if j < K {
					if !(math.Abs(g-w) <= 1e-9*math.Abs(w)) {
						t.Fatalf("GOMAXPROCS %d replicate %d strength %d: got %v, by definition %v", procs, r, j, g, w)
					}
				} else if math.Float64bits(g) != math.Float64bits(w) {
					t.Fatalf("GOMAXPROCS %d replicate %d column %d: got %v, by definition %v", procs, r, j, g, w)
				}
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, s, opt); err == nil {
		t.Error("Analyze with a cancelled context: no error")
	}
}

// BenchmarkBootstrap compares the bootstrap by its definition (naive:
// every ranking, allocating per replicate) with the one the analysis runs
// (distinct orderings with counts, no allocation per replicate) on the same 5,000-question study,
// 100 replicates.
func BenchmarkBootstrap(b *testing.B) {
	s := rankedStudy(5000, 3)
	opt := DefaultOptions()
	opt.Bootstrap = 100
	d, _, _ := build(s, opt)
	start := fullFit(b, d, opt)
	b.Logf("%d rankings, %d distinct orderings", len(naiveOrderList(d)), len(d.patterns))
	b.Run("naive", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			naiveBootstrap(d, opt, start)
		}
	})
	b.Run("counts", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := d.bootstrap(context.Background(), opt, start, true, true); err != nil {
				b.Fatal(err)
			}
		}
	})
}
