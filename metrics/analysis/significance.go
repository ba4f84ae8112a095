package analysis

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
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

// significanceTables builds pairwise_tests, pvalue_curve and pvalue_crossings.
func (a *run) significanceTables() {
	p := a.p
	if !p.hasRubric {
		for _, n := range []string{"pairwise_tests", "pvalue_curve", "pvalue_crossings"} {
			a.leaveOut(n, "the study has no rubric")
		}
		return
	}
	t := newTable("pairwise_tests", "Significance of the rubric ranking", report.SectionRubric,
		"Paired two-sided t-tests over questions of the per-question rubric score (mean over the question's human gradings): each pair of models adjacent in the overall rubric order (set all), and the human label against every model (reference_subset).",
		col("set", report.Text, "all or reference_subset"),
		col("comparison", report.Text, "adjacent (next in the rubric order) or human_label"),
		col("model_a", report.Text, "higher-ranked model (or the human label)"),
		col("model_b", report.Text, "the other model"),
		col("n", report.Int, "questions with a score for both"),
		col("mean_a", report.Float, "mean per-question score of model_a"),
		col("mean_b", report.Float, "mean per-question score of model_b"),
		col("t", report.Float, "paired t statistic (a − b)"),
		col("df", report.Float, "degrees of freedom (n − 1)"),
		col("p", report.Float, "two-sided p-value"),
		col("p_holm", report.Float, "Holm-adjusted p-value within the set's comparisons"))
	v := a.view(setAll, -1)
	if len(v.g) > 0 {
		sc := a.questionScores(v)
		ord := a.rubricOrder(setAll, v)
		var pairs []pair
		for i := 0; i+1 < len(ord); i++ {
			pairs = append(pairs, pair{ord[i], ord[i+1]})
		}
		a.pairRows(t, setAll, "adjacent", v, sc, pairs)
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
			a.pairRows(t, setRef, "human_label", r, sc, pairs)
		}
	} else {
		p.note(t.Name, "no reference_subset rows: the human label %q has no human gradings", p.s.HumanLabel)
	}
	a.addTable(t)
}

func (a *run) pairRows(t *report.Table, set, kind string, v *view, sc [][]float64, pairs []pair) {
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
		addRow(t, set, kind, a.p.s.Models[v.models[pr.a]].Name, a.p.s.Models[v.models[pr.b]].Name,
			int64(r.n), r.ma, r.mb, r.tt.T, r.tt.DF, r.tt.P, holm[i])
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
			break // cancelled: Analyze returns the error after this stage
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
	t := newTable("pvalue_curve", "Figure 3: Median p-value against sample size", report.SectionRubric,
		fmt.Sprintf("Median over %d draws of n questions without replacement of the paired t-test p-value of each adjacent pair (rubric order), set all, human graders. Sizes: 10, 20, 30, … below the number of questions and that number; beyond 200 sizes, 10…1000 and then 100 log-spaced sizes.", a.opt.Resamples),
		col("model_a", report.Text, "higher-ranked model"),
		col("model_b", report.Text, "next model"),
		col("n", report.Int, "questions drawn"),
		col("median_p", report.Float, "median p-value over the draws with a defined p"),
		col("defined", report.Int, "draws with a defined p-value"))
	f := &report.Figure{ID: "fig3_pvalue_curve", Section: report.SectionRubric,
		Title: fmt.Sprintf("Figure 3: Median p-value (%d resamples) of paired t-tests against sample size", a.opt.Resamples),
		Kind:  report.Line, XName: "questions (n)", YName: "median p-value", LogX: true, LogY: true, Table: t.Name}
	for k, pr := range pairs {
		na, nb := name(pr)
		s := report.Series{Name: na + " vs " + nb}
		for i, n := range grid {
			addRow(t, na, nb, int64(n), med[i][k], int64(def[i][k]))
			s.Points = append(s.Points, report.Point{X: float64(n), Y: med[i][k], Label: s.Name})
		}
		f.Series = append(f.Series, s)
	}
	lo, hi := float64(grid[0]), float64(grid[len(grid)-1])
	f.Lines = []report.RefLine{{Name: "p = 0.01", X1: lo, Y1: 0.01, X2: hi, Y2: 0.01},
		{Name: "p = 0.001", X1: lo, Y1: 0.001, X2: hi, Y2: 0.001}}
	a.addTable(t)
	a.addFigure(f)
	a.crossings(diffs, pairs, nQ, grid, med, name)
}

// crossings finds, per pair and threshold, the smallest n from which the
// median p stays below the threshold: the smallest grid size from which
// every later grid point is below, refined with step 1 back to the
// previous grid point (or to n = 2 before the first).
func (a *run) crossings(diffs *pairDiffs, pairs []pair, nQ int, grid []int, med [][]float64, name func(pair) (string, string)) {
	t := newTable("pvalue_crossings", "Figure 3: Sample size at which each pair crosses p = 0.01 and 0.001", report.SectionRubric,
		"Smallest number of questions from which the median p-value of the pair stays below the threshold (grid, then refined with step 1); empty when it never does.",
		col("model_a", report.Text, "higher-ranked model"),
		col("model_b", report.Text, "next model"),
		col("threshold", report.Float, "p-value threshold"),
		col("n_cross", report.Int, "smallest n from which the median p stays below the threshold; empty if never"),
		col("full_n", report.Int, "questions in the full comparison"),
		col("full_p", report.Float, "median p at the full n"))
	thr := []float64{0.01, 0.001}
	res := make([]any, len(pairs)*len(thr))
	parallelFor(len(res), func(j int) {
		k, th := j/len(thr), thr[j%len(thr)]
		i0 := len(grid)
		for i := len(grid) - 1; i >= 0 && med[i][k] < th; i-- {
			i0 = i
		}
		if i0 == len(grid) {
			res[j] = nil
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
		addRow(t, na, nb, thr[j%len(thr)], res[j], int64(grid[len(grid)-1]), med[len(grid)-1][k])
		if res[j] == nil {
			a.p.note(t.Name, "%s vs %s never stays below p = %v", na, nb, thr[j%len(thr)])
		}
	}
	a.addTable(t)
}
