package paper

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// pair is one compared pair of models (indexes into view.models order).
type pair struct{ a, b int }

// questionScores returns, per model of v (view order) and question of v
// (view order), the mean over the model's gradings on the question of the
// rubric mean; NaN where there is none.
func (a *run) questionScores(v *view) [][]float64 {
	p := a.p
	mp := a.modelPos(v)
	nQ := len(v.questions)
	// exact means over the graders (study.RatSum), divided once
	acc := make([][]study.RatSum, len(v.models))
	for i := range acc {
		acc[i] = make([]study.RatSum, nQ)
	}
	for _, gi := range v.g {
		g := &p.grades[gi]
		if math.IsNaN(g.rubMean) {
			continue
		}
		acc[mp[g.m]][v.qPos[g.q]].Add(g.rub, g.rubMean)
	}
	out := make([][]float64, len(v.models))
	for mi := range acc {
		out[mi] = make([]float64, nQ)
		for qi := range acc[mi] {
			out[mi][qi] = acc[mi][qi].Mean()
		}
	}
	return out
}

// rubricOrder returns the view's model positions ordered by overall rubric
// (descending; ties by model name).
func (a *run) rubricOrder(set string, v *view) []int {
	st := sortByValue(a.stats(set, -1), func(o modelStats) float64 { return o.rubric })
	mp := a.modelPos(v)
	var out []int
	for _, o := range st {
		if !math.IsNaN(o.rubric) {
			out = append(out, mp[o.model])
		}
	}
	return out
}

// pairedDefined returns the paired values of two score rows where both are
// defined, restricted to the question positions in idx (all when nil).
func pairedDefined(x, y []float64, idx []int, bx, by []float64) ([]float64, []float64) {
	bx, by = bx[:0], by[:0]
	if idx == nil {
		for i := range x {
			if !math.IsNaN(x[i]) && !math.IsNaN(y[i]) {
				bx = append(bx, x[i])
				by = append(by, y[i])
			}
		}
		return bx, by
	}
	for _, i := range idx {
		if !math.IsNaN(x[i]) && !math.IsNaN(y[i]) {
			bx = append(bx, x[i])
			by = append(by, y[i])
		}
	}
	return bx, by
}

// Significance is the significance of the rubric ranking: paired t-tests
// (pairwise_tests) and Figure 3 (pvalue_curve, pvalue_crossings). A nil
// slice is a table left out (the notes say why).
type Significance struct {
	// Tests are the adjacent pairs of the rubric order (set all), then the
	// human label against every model (reference_subset).
	Tests []PairTest
	// Curve is pair by pair (adjacent pairs of set all), each pair with
	// one point per entry of Sizes; Resamples is the draws per point.
	Curve     []PValuePoint
	Sizes     []int64
	Resamples int
	// Crossings are per pair the thresholds 0.01 and 0.001.
	Crossings []Crossing
}

// PairTest is one paired two-sided t-test over questions of the
// per-question rubric score.
type PairTest struct {
	// Set is all or reference_subset; Comparison adjacent or human_label.
	Set, Comparison, ModelA, ModelB string
	// N counts the questions with a score for both.
	N int64
	// MeanA and MeanB are the mean per-question scores; T, DF, P the test
	// (a − b); PHolm the Holm-adjusted p within the set's comparisons.
	MeanA, MeanB, T, DF, P, PHolm float64
}

// PValuePoint is the median p-value of a pair at one sample size.
type PValuePoint struct {
	ModelA, ModelB string
	N              int64
	// MedianP is the median over the draws with a defined p; Defined
	// counts those draws.
	MedianP float64
	Defined int64
}

// Crossing is the smallest sample size from which a pair's median p stays
// below a threshold.
type Crossing struct {
	ModelA, ModelB string
	Threshold      float64
	// Crossed is false when the median p never stays below (NCross 0).
	Crossed bool
	NCross  int64
	// FullN is the questions of the full comparison, FullP the median p
	// there.
	FullN int64
	FullP float64
}

// significanceTables builds pairwise_tests, pvalue_curve and pvalue_crossings.
func (a *run) significanceTables() {
	p := a.p
	if !p.hasRubric {
		for _, n := range []string{"pairwise_tests", "pvalue_curve", "pvalue_crossings"} {
			a.leaveOut(n, "the study has no rubric")
		}
		return
	}
	a.res.Significance.Tests = []PairTest{}
	v := a.view(setAll, -1)
	if len(v.g) > 0 {
		sc := a.questionScores(v)
		ord := a.rubricOrder(setAll, v)
		var pairs []pair
		for i := 0; i+1 < len(ord); i++ {
			pairs = append(pairs, pair{ord[i], ord[i+1]})
		}
		a.pairRows(setAll, "adjacent", v, sc, pairs)
		a.pvalueCurve(v, sc, pairs)
	} else {
		a.leaveOut("pvalue_curve", "no human gradings in the main round")
	}
	if r := a.view(setRef, -1); len(r.g) > 0 && p.label >= 0 {
		sc := a.questionScores(r)
		mp := a.modelPos(r)
		if li, ok := mp[p.label]; ok {
			var pairs []pair
			for _, mi := range a.rubricOrder(setRef, r) {
				if mi != li {
					pairs = append(pairs, pair{li, mi})
				}
			}
			a.pairRows(setRef, "human_label", r, sc, pairs)
		}
	} else {
		p.note("pairwise_tests", "no reference_subset rows: the human label %q has no human gradings", p.s.HumanLabel)
	}
}

func (a *run) pairRows(set, kind string, v *view, sc [][]float64, pairs []pair) {
	ps := make([]float64, len(pairs))
	type res struct {
		n      int
		ma, mb float64
		tt     stats.TTest
	}
	rs := make([]res, len(pairs))
	for i, pr := range pairs {
		x, y := pairedDefined(sc[pr.a], sc[pr.b], nil, nil, nil)
		rs[i] = res{n: len(x), ma: stats.Mean(x), mb: stats.Mean(y), tt: stats.TTestRel(x, y)}
		ps[i] = rs[i].tt.P
	}
	holm := stats.Holm(ps)
	for i, pr := range pairs {
		r := rs[i]
		a.res.Significance.Tests = append(a.res.Significance.Tests, PairTest{Set: set, Comparison: kind,
			ModelA: a.p.s.Models[v.models[pr.a]].Name, ModelB: a.p.s.Models[v.models[pr.b]].Name,
			N: int64(r.n), MeanA: r.ma, MeanB: r.mb, T: r.tt.T, DF: r.tt.DF, P: r.tt.P, PHolm: holm[i]})
	}
}

// pvalueGrid returns the sample sizes of Figure 3: 10, 20, 30, … below n
// and n itself; when that is more than 200 points, 10…1000 and then 100
// log-spaced sizes up to n.
func pvalueGrid(n int) []int {
	if n < 2 {
		return nil
	}
	var g []int
	for k := 10; k < n; k += 10 {
		g = append(g, k)
	}
	if len(g)+1 <= 200 {
		return append(g, n)
	}
	g = g[:100] // 10 … 1000
	for i := 1; i <= 100; i++ {
		k := int(math.Round(1000 * math.Pow(float64(n)/1000, float64(i)/100)))
		if i == 100 {
			k = n
		}
		if k > g[len(g)-1] {
			g = append(g, k)
		}
	}
	return g
}

// pvalueSeedTag is the stream tag of the Figure 3 draws.
const pvalueSeedTag = 3

// pairDiffs holds, per pair, the per-question difference a − b of the
// scores (NaN where either is missing), as stats.TTestRel forms it, and
// whether the pair has a NaN at all.
type pairDiffs struct {
	d      [][]float64
	hasNaN []bool
}

// newPairDiffs returns the differences of the pairs' score rows.
func newPairDiffs(sc [][]float64, pairs []pair) *pairDiffs {
	out := &pairDiffs{d: make([][]float64, len(pairs)), hasNaN: make([]bool, len(pairs))}
	for k, pr := range pairs {
		d := make([]float64, len(sc[pr.a]))
		for i := range d {
			d[i] = sc[pr.a][i] - sc[pr.b][i]
			if math.IsNaN(d[i]) {
				out.hasNaN[k] = true
			}
		}
		out.d[k] = d
	}
	return out
}

// only returns the differences of pair k alone.
func (d *pairDiffs) only(k int) *pairDiffs {
	return &pairDiffs{d: d.d[k : k+1], hasNaN: d.hasNaN[k : k+1]}
}

// medianP returns, for each pair, the median over Options.Resamples draws
// of n questions without replacement of the pair's paired t-test p-value
// (questions where either model has no score are left out of a draw), and
// how many draws gave a defined p. Draw r at size n is
// stats.Subsample(nQ, n, stats.NewRand(mixSeed(Seed, 3), n·Resamples + r)),
// shared by all pairs. The draws' t statistics are computed as pairedP
// does, and their median p by pMedian, which evaluates the t distribution
// only near the median (the same number as the median of every draw's p).
func (a *run) medianP(diffs *pairDiffs, nQ, n int) ([]float64, []int) {
	R := a.opt.Resamples
	seed := mixSeed(a.opt.Seed, pvalueSeedTag)
	nP := len(diffs.d)
	ts := make([][]tdraw, nP)
	for k := range ts {
		ts[k] = make([]tdraw, 0, R)
	}
	d := make([]float64, 0, n)
	ss := newSubsampler(nQ)
	sq := make([]float64, n)
	for r := 0; r < R; r++ {
		if a.ctx.Err() != nil {
			break // cancelled: AnalyzeResult returns the error after this stage
		}
		rng := stats.NewRand(seed, n*R+r)
		idx := ss.draw(n, rng)
		for k, dk := range diffs.d {
			if !diffs.hasNaN[k] { // every drawn question counts: no gathering
				if td, ok := pairedTAt(dk, idx); ok {
					ts[k] = append(ts[k], td)
				}
				continue
			}
			d = d[:0]
			for _, i := range idx {
				if v := dk[i]; !math.IsNaN(v) {
					d = append(d, v)
				}
			}
			if td, ok := pairedT(d, sq); ok {
				ts[k] = append(ts[k], td)
			}
		}
	}
	med := make([]float64, nP)
	def := make([]int, nP)
	var sel pMedian
	for k := range ts {
		med[k] = sel.median(ts[k])
		def[k] = len(ts[k])
	}
	return med, def
}

// pairedP is stats.TTestRel(x, y).P computed from the differences d = x − y
// with a reusable buffer, in the same operations as stats.TTest1Samp(d, 0)
// (TestPairedPMatchesStats checks bit equality). NaN when len(d) < 2.
func pairedP(d, sq []float64) float64 {
	td, ok := pairedT(d, sq)
	if !ok {
		return math.NaN()
	}
	return pOf(td)
}

// subsampler draws exactly what stats.Subsample draws (the same r.IntN
// calls and partial Fisher–Yates swaps, the indices sorted ascending) but
// reuses its buffers, so a draw costs O(k + n/64) instead of O(n + k log k)
// (TestSubsamplerMatchesStats checks equality).
//
// The permutation is held as int32 (a study has far fewer than 2³¹
// questions): half the memory of int, so that more of it stays in cache
// under the random swaps of a draw.
type subsampler struct {
	perm    []int32 // the identity outside the positions touched by a draw
	touched []int32
	bits    []uint64
	out     []int
}

func newSubsampler(n int) *subsampler {
	s := &subsampler{perm: make([]int32, n), bits: make([]uint64, (n+63)/64)}
	for i := range s.perm {
		s.perm[i] = int32(i)
	}
	return s
}

// draw returns k distinct indices of 0…n−1 (n = the size given to
// newSubsampler); the slice is valid until the next draw.
func (s *subsampler) draw(k int, r *rand.Rand) []int {
	n := len(s.perm)
	if k < 0 || k > n {
		return nil
	}
	s.touched = s.touched[:0]
	for i := 0; i < k; i++ {
		j := i + r.IntN(n-i)
		s.perm[i], s.perm[j] = s.perm[j], s.perm[i]
		s.touched = append(s.touched, int32(j))
	}
	out := s.out[:0]
	if k < 32 {
		for _, v := range s.perm[:k] {
			out = append(out, int(v))
		}
		slices.Sort(out)
	} else {
		for _, v := range s.perm[:k] {
			s.bits[v>>6] |= 1 << (uint(v) & 63)
		}
		for w, word := range s.bits {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				out = append(out, w<<6|b)
				word &= word - 1
			}
			s.bits[w] = 0
		}
	}
	for i := 0; i < k; i++ {
		s.perm[i] = int32(i)
	}
	for _, j := range s.touched {
		s.perm[j] = j
	}
	s.out = out
	return out
}

// pvalueCurve is Figure 3 and the crossing sizes.
func (a *run) pvalueCurve(v *view, sc [][]float64, pairs []pair) {
	p := a.p
	if a.opt.Resamples == 0 {
		a.leaveOut("pvalue_curve", "resamples = 0")
		return
	}
	if len(pairs) == 0 {
		a.leaveOut("pvalue_curve", "fewer than two models have rubric scores")
		return
	}
	nQ := len(v.questions)
	grid := pvalueGrid(nQ)
	if len(grid) == 0 {
		a.leaveOut("pvalue_curve", "fewer than two questions")
		return
	}
	diffs := newPairDiffs(sc, pairs)
	med := make([][]float64, len(grid))
	def := make([][]int, len(grid))
	parallelFor(len(grid), func(i int) {
		med[i], def[i] = a.medianP(diffs, nQ, grid[i])
	})
	name := func(pr pair) (string, string) {
		return p.s.Models[v.models[pr.a]].Name, p.s.Models[v.models[pr.b]].Name
	}
	sig := &a.res.Significance
	sig.Resamples = a.opt.Resamples
	for _, n := range grid {
		sig.Sizes = append(sig.Sizes, int64(n))
	}
	sig.Curve = make([]PValuePoint, 0, len(pairs)*len(grid))
	for k, pr := range pairs {
		na, nb := name(pr)
		for i, n := range grid {
			sig.Curve = append(sig.Curve, PValuePoint{ModelA: na, ModelB: nb, N: int64(n), MedianP: med[i][k], Defined: int64(def[i][k])})
		}
	}
	a.crossings(diffs, pairs, nQ, grid, med, name)
}

// crossings finds, per pair and threshold, the smallest n from which the
// median p stays below the threshold: the smallest grid size from which
// every later grid point is below, refined with step 1 back to the
// previous grid point (or to n = 2 before the first).
func (a *run) crossings(diffs *pairDiffs, pairs []pair, nQ int, grid []int, med [][]float64, name func(pair) (string, string)) {
	thr := []float64{0.01, 0.001}
	res := make([]int64, len(pairs)*len(thr)) // 0: never below
	parallelFor(len(res), func(j int) {
		k, th := j/len(thr), thr[j%len(thr)]
		i0 := len(grid)
		for i := len(grid) - 1; i >= 0 && med[i][k] < th; i-- {
			i0 = i
		}
		if i0 == len(grid) {
			res[j] = 0
			return
		}
		from := 2
		if i0 > 0 {
			from = grid[i0-1] + 1
		}
		cross := grid[i0]
		for n := grid[i0] - 1; n >= from; n-- {
			m, _ := a.medianP(diffs.only(k), nQ, n)
			if !(m[0] < th) {
				break
			}
			cross = n
		}
		res[j] = int64(cross)
	})
	for j := range res {
		k := j / len(thr)
		na, nb := name(pairs[k])
		a.res.Significance.Crossings = append(a.res.Significance.Crossings, Crossing{ModelA: na, ModelB: nb, Threshold: thr[j%len(thr)],
			Crossed: res[j] != 0, NCross: res[j], FullN: int64(grid[len(grid)-1]), FullP: med[len(grid)-1][k]})
		if res[j] == 0 {
			a.p.note("pvalue_crossings", "%s vs %s never stays below p = %v", na, nb, thr[j%len(thr)])
		}
	}
	if a.res.Significance.Crossings == nil {
		a.res.Significance.Crossings = []Crossing{}
	}
}
