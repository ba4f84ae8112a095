package paper

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
)

// checkMedianP checks that pMedian gives medianPFull's bits.
func checkMedianP(t *testing.T, what string, s *pMedian, ts []tdraw) {
	t.Helper()
	want := medianPFull(append([]tdraw(nil), ts...))
	got := s.median(append([]tdraw(nil), ts...))
	if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
		t.Fatalf("%s (%d draws): median p = %v (%#x), want %v (%#x)", what, len(ts), got, math.Float64bits(got), want, math.Float64bits(want))
	}
}

// randomDraws returns R draws of paired t statistics as medianP forms
// them: differences of discrete scores, some questions missing (so the
// draws have several df), ties, constant differences (|t| = Inf) and,
// with shift, tiny p-values.
func randomDraws(r *rand.Rand, R, n int, missing, shift float64, constant bool) []tdraw {
	var ts []tdraw
	d := make([]float64, 0, n)
	sq := make([]float64, n)
	for k := 0; k < R; k++ {
		d = d[:0]
		for i := 0; i < n; i++ {
			if r.Float64() < missing {
				continue
			}
			v := float64(r.IntN(5)-2)/2 + shift
			if constant {
				v = shift
			}
			d = append(d, v)
		}
		if td, ok := pairedT(d, sq); ok {
			ts = append(ts, td)
		}
	}
	return ts
}

func TestPMedianMatchesFull(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	var s pMedian
	cases := 0
	for c := 0; c < 3000; c++ {
		R := 1 + r.IntN(60)
		if c%10 == 0 {
			R = 200 + r.IntN(301) // odd and even, as Resamples = 500
		}
		n := 2 + r.IntN(40)
		if c%7 == 0 {
			n = 200 + r.IntN(800)
		}
		missing := []float64{0, 0, 0.02, 0.1, 0.4, 0.8}[r.IntN(6)]
		shift := []float64{0, 0, 0.05, 0.2, 1, 3}[r.IntN(6)]
		ts := randomDraws(r, R, n, missing, shift, c%50 == 0)
		checkMedianP(t, "random", &s, ts)
		cases++
	}
	// hand-made patterns: empty, one, ties only, Inf, zeros, two df
	// values with equal |t|, |t| within the tie tolerance
	for _, ts := range [][]tdraw{
		nil,
		{{1.5, 9}},
		{{1.5, 9}, {1.5, 9}},
		{{1.5, 9}, {1.5, 10}},
		{{math.Inf(1), 9}, {math.Inf(1), 9}, {2, 9}},
		{{math.Inf(1), 9}, {2, 9}, {2, 9}, {math.Inf(1), 30}},
		{{0, 4}, {0, 4}, {0, 5}, {1e-300, 5}},
		{{3, 9}, {3 * (1 + 1e-15), 9}, {3 * (1 - 1e-15), 9}, {3, 8}, {3, 10}},
		{{40, 1}, {60, 1}, {1e3, 2}, {1e5, 3}, {0.5, 1}},
		{{38, 999}, {38.0000001, 999}, {37.9999999, 998}, {38, 997}},
	} {
		checkMedianP(t, "hand-made", &s, ts)
	}
	t.Logf("%d random cases", cases)
}

// TestPMedianEvaluatesFew checks that the selection evaluates the t
// distribution for a small share of the draws.
func TestPMedianEvaluatesFew(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		missing float64
		most    int
	}{{0, 10}, {0.05, 120}} {
		ts := randomDraws(r, 500, 400, c.missing, 0.05, false)
		var s pMedian
		s.median(ts)
		evaluated := 0
		for _, it := range s.items {
			if it.done {
				evaluated++
			}
		}
		if evaluated > c.most {
			t.Errorf("missing %v: %d of %d draws evaluated, want at most %d", c.missing, evaluated, len(ts), c.most)
		}
		t.Logf("missing %v: %d of %d draws evaluated", c.missing, evaluated, len(ts))
	}
}

// naiveMedianP is medianP from its definition (METHODS.md, "p-value
// curve"): for draw r of R, the n questions of stats.Subsample with
// stats.NewRand(seed, n·R + r); per pair, the paired t
// test's p of the drawn questions' differences (pairedP, which equals
// stats.TTestRel: TestPairedPMatchesStats); the median over the draws
// whose p is defined. The oracle of TestMedianPMatchesNaive and the
// baseline of BenchmarkMedianP.
func naiveMedianP(a *run, diffs [][]float64, nQ, n int) ([]float64, []int) {
	R := a.opt.Resamples
	seed := mixSeed(a.opt.Seed, pvalueSeedTag)
	pv := make([][]float64, len(diffs))
	d := make([]float64, 0, n)
	sq := make([]float64, n)
	for r := 0; r < R; r++ {
		idx := stats.Subsample(nQ, n, stats.NewRand(seed, n*R+r))
		for k, dk := range diffs {
			d = d[:0]
			for _, i := range idx {
				if v := dk[i]; !math.IsNaN(v) {
					d = append(d, v)
				}
			}
			if pval := pairedP(d, sq); !math.IsNaN(pval) {
				pv[k] = append(pv[k], pval)
			}
		}
	}
	med := make([]float64, len(diffs))
	def := make([]int, len(diffs))
	for k := range diffs {
		med[k] = math.NaN()
		if len(pv[k]) > 0 {
			med[k] = stats.Median(pv[k])
		}
		def[k] = len(pv[k])
	}
	return med, def
}

// scoreRows returns per-question scores of nM models: a question effect
// shared by the models (its difficulty, 1…5) plus, per model, the mean of
// one to three gradings' deviations in quarter points (−1…1), the better
// models shifted up by gap per rank; NaN with probability missing.
func scoreRows(r *rand.Rand, nM, nQ int, missing, gap float64) [][]float64 {
	base := make([]float64, nQ)
	for q := range base {
		base[q] = float64(1 + r.IntN(5))
	}
	sc := make([][]float64, nM)
	for m := range sc {
		sc[m] = make([]float64, nQ)
		for q := range sc[m] {
			if r.Float64() < missing {
				sc[m][q] = math.NaN()
				continue
			}
			g := 1 + r.IntN(3)
			s := 0.0
			for range g {
				s += float64(r.IntN(9)-4) / 4
			}
			sc[m][q] = base[q] + s/float64(g) + gap*float64(nM-m)
		}
	}
	return sc
}

func adjacentPairs(nM int) []pair {
	var ps []pair
	for m := 0; m+1 < nM; m++ {
		ps = append(ps, pair{m, m + 1})
	}
	return ps
}

// naiveDiffs are the per-pair differences naiveMedianP reads.
func naiveDiffs(sc [][]float64, pairs []pair) [][]float64 {
	out := make([][]float64, len(pairs))
	for k, pr := range pairs {
		out[k] = make([]float64, len(sc[pr.a]))
		for i := range out[k] {
			out[k][i] = sc[pr.a][i] - sc[pr.b][i]
		}
	}
	return out
}

func TestMedianPMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		nM, nQ, R    int
		missing, gap float64
	}{
		{4, 60, 101, 0, 0.05},
		{5, 200, 100, 0.03, 0.1},
		{3, 150, 64, 0.3, 0.02},
		{2, 40, 7, 0.9, 0},
		{6, 300, 50, 0, 0.5},
	} {
		sc := scoreRows(r, c.nM, c.nQ, c.missing, c.gap)
		pairs := adjacentPairs(c.nM)
		a := &run{ctx: context.Background(), opt: Options{Resamples: c.R, Seed: 42}}
		nd, od := newPairDiffs(sc, pairs), naiveDiffs(sc, pairs)
		for _, n := range []int{2, 3, 10, c.nQ / 3, c.nQ - 1, c.nQ} {
			gm, gd := a.medianP(nd, c.nQ, n)
			wm, wd := naiveMedianP(a, od, c.nQ, n)
			for k := range pairs {
				if math.Float64bits(gm[k]) != math.Float64bits(wm[k]) && !(math.IsNaN(gm[k]) && math.IsNaN(wm[k])) || gd[k] != wd[k] {
					t.Fatalf("%+v n=%d pair %d: median p %v (%d defined), want %v (%d)", c, n, k, gm[k], gd[k], wm[k], wd[k])
				}
				one, oneDef := a.medianP(nd.only(k), c.nQ, n)
				if math.Float64bits(one[0]) != math.Float64bits(wm[k]) && !(math.IsNaN(one[0]) && math.IsNaN(wm[k])) || oneDef[0] != wd[k] {
					t.Fatalf("%+v n=%d pair %d alone: median p %v (%d defined), want %v (%d)", c, n, k, one[0], oneDef[0], wm[k], wd[k])
				}
			}
		}
	}
}

// BenchmarkMedianP compares the p-value curve, naive and new, on a
// study-like score matrix (4 adjacent pairs of 5 models 0.2 points apart,
// p down to ~1e-30 as in the sample study; every score present, as in
// the sample, or 2 % missing; 500 draws): at 1,000 questions every size
// of Figure 3's grid (as a 1,000-question run), at 10,000 every tenth.
func BenchmarkMedianP(b *testing.B) {
	for _, nQ := range []int{1000, 10000} {
		for _, missing := range []float64{0, 0.02} {
			r := rand.New(rand.NewPCG(8, 9))
			sc := scoreRows(r, 5, nQ, missing, 0.2)
			pairs := adjacentPairs(5)
			a := &run{ctx: context.Background(), opt: Options{Resamples: 500, Seed: 1}}
			nd, od := newPairDiffs(sc, pairs), naiveDiffs(sc, pairs)
			var sizes []int
			for i, n := range pvalueGrid(nQ) {
				if nQ < 10000 || i%10 == 0 {
					sizes = append(sizes, n)
				}
			}
			b.Run(fmt.Sprintf("naive/q=%d/missing=%v", nQ, missing), func(b *testing.B) {
				for b.Loop() {
					for _, n := range sizes {
						naiveMedianP(a, od, nQ, n)
					}
				}
			})
			b.Run(fmt.Sprintf("new/q=%d/missing=%v", nQ, missing), func(b *testing.B) {
				for b.Loop() {
					for _, n := range sizes {
						a.medianP(nd, nQ, n)
					}
				}
			})
		}
	}
}

// BenchmarkSubsamplerDraw compares stats.Subsample (a fresh permutation
// per draw) and the subsampler on 40,000 questions over sizes spread like
// Figure 3's grid, in the same run.
func BenchmarkSubsamplerDraw(b *testing.B) {
	const n = 40000
	var sizes []int
	for i, k := range pvalueGrid(n) {
		if i%5 == 0 {
			sizes = append(sizes, k)
		}
	}
	b.Run("stats", func(b *testing.B) {
		for i := range b.N {
			r := stats.NewRand(1, i)
			for _, k := range sizes {
				stats.Subsample(n, k, r)
			}
		}
	})
	b.Run("subsampler", func(b *testing.B) {
		ss := newSubsampler(n)
		for i := range b.N {
			r := stats.NewRand(1, i)
			for _, k := range sizes {
				ss.draw(k, r)
			}
		}
	})
}

// TestPairedTAtMatches checks pairedTAt, which sums over the indices,
// against pairedT of the gathered differences, bit for bit, at every
// length up to 300 (the pairwise sums' groupings at 8, 128 and above)
// and a few larger ones.
func TestPairedTAtMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	v := make([]float64, 5000)
	for i := range v {
		v[i] = float64(r.IntN(33)-16)/12 + r.NormFloat64()*1e-3*float64(i%3)
	}
	sq := make([]float64, len(v))
	lengths := []int{0, 1, 2, 1023, 1024, 1025, 4999, 5000}
	for n := 3; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	ss := newSubsampler(len(v))
	for c, n := range lengths {
		idx := ss.draw(n, stats.NewRand(uint64(c), 1))
		d := make([]float64, 0, n)
		for _, i := range idx {
			d = append(d, v[i])
		}
		want, wok := pairedT(d, sq)
		got, gok := pairedTAt(v, idx)
		if gok != wok || math.Float64bits(got.at) != math.Float64bits(want.at) || got.df != want.df {
			t.Fatalf("n=%d: pairedTAt = %+v %v, pairedT = %+v %v", n, got, gok, want, wok)
		}
		if got, want := 0.0+pairwiseAt(v, idx), stats.Sum(d); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("n=%d: pairwiseAt = %v, stats.Sum = %v", n, got, want)
		}
	}
	// a constant difference: t = ±Inf, p = 0
	c := []float64{0.5, 0.5, 0.5, 0.5}
	if got, ok := pairedTAt(c, []int{0, 1, 2, 3}); !ok || !math.IsInf(got.at, 1) {
		t.Errorf("constant differences: %+v %v, want |t| = +Inf", got, ok)
	}
	// all zero: t = 0/0, no p
	if _, ok := pairedTAt([]float64{0, 0, 0}, []int{0, 1, 2}); ok {
		t.Error("zero differences: a defined t, want none")
	}
}
