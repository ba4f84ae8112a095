// Package ranking orders the models of a study with their uncertainty: a
// Plackett–Luce model fitted to the explicit preference rankings, 95 % rank
// intervals of the rubric order, and a compact letter display of which
// models differ significantly. It returns typed results only; report/tables
// presents them (tables `rankings` and `pairwise_significance`, and the
// rank columns of the summary table).
//
// Data. The gradings of one round (Options.Round, default the study's main
// round) by the human graders, over the models other than the graded human
// answer (Study.HumanLabel) — the `all` set of docs/METHODS.md; a model graded on
// fewer than Options.MinCoverage (default 90 %) of the set's questions is
// left out with a Note. Judge runs are averaged first (package scores).
//
//   - Rubric and Solve Rate of a model are means over its human gradings
//     (every grading counts once), as in summary.csv.
//   - rank is the model's rank by rubric (1 = best; ties share the mean
//     rank). rank_lo and rank_hi are the 2.5th and 97.5th percentiles (type 7)
//     of that rank over the bootstrap replicates.
//   - Plackett–Luce: each (human grader, question) ranking is one
//     observation over the models it ranked (re-derived among the included
//     models: the excluded ones are dropped from the ordering, which is the
//     Plackett–Luce marginal); rankings with tied ranks or fewer than two
//     included models are left out (counted in a warning). Strengths are
//     the posterior mode under a Gamma(1 + c, c) prior with c =
//     Options.PLPrior pseudo-wins (default 1), found by Hunter's MM
//     algorithm (FitPlackettLuce); they average exactly 1, so a strength of 2
//     means twice the odds of the average model of being preferred. Without
//     ranks the pl_ columns are empty and a Note says so.
//   - Bootstrap: one cluster bootstrap over the questions
//     (stats.ClusterBootstrap, Options.Bootstrap replicates, default 2,000,
//     seeded from Options.Seed and the replicate index) gives, from the same
//     resamples, the Plackett–Luce percentile intervals and the rank
//     intervals.
//   - Pairwise tests, for every pair of models (a before b in rank order):
//     paired_t_rubric, the paired two-sided t test (stats.TTestRel) of the
//     per-question mean human rubric over the questions where both have one
//     (estimate = mean difference a − b); and paired_solve_rate, the
//     difference of Solve Rates a − b over the questions where both have a
//     solved grading, tested with the questions as clusters
//     (stats.PairedClusterDiff: cluster-robust t, or McNemar's mid-p when
//     every response has one solved flag). Both p-values are continuous in
//     the data: a bootstrap p-value cannot fall below 2/(B + 1), which
//     Holm over many pairs multiplies past any α. All tests of the table
//     together are adjusted with Holm's method (stats.HolmReject);
//     significant means rejected at Options.Alpha (default 0.05).
//   - group is the compact letter display (CompactLetters, Piepho 2004) of
//     the rubric t tests and group_solve_rate that of the Solve Rate tests:
//     models sharing a letter do not differ significantly. Letters follow
//     the rank order (the best model has a).
//
// Undefined values are NaN (empty cells), explained in the Notes.
package ranking

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// Options control the analysis.
type Options struct {

	// Seed seeds the bootstrap; default 1.
	Seed uint64
	// Bootstrap is the number of cluster-bootstrap replicates over
	// questions; default 2000. 0 (or less) leaves the intervals empty and
	// the Solve Rate tests undefined.
	Bootstrap int
	// Level is the coverage of the intervals, in (0, 1); default (and when
	// 0) 0.95; another value outside (0, 1) is warned about and replaced.
	Level float64
	// Alpha is the significance level after Holm's adjustment, in (0, 1);
	// default (and when 0) 0.05; another value outside (0, 1) is warned
	// about and replaced.
	Alpha float64
	// PLPrior is the Plackett–Luce prior in pseudo-wins per model (see
	// FitPlackettLuce); default 1. 0 is plain maximum likelihood, which is
	// undefined (NaN) when a model always wins or always loses.
	PLPrior float64
	// MinCoverage is the share of the set's questions a model must be
	// graded on to be ranked; default 0.90.
	MinCoverage float64
	// Round is the grading round; "" (the default) means the study's
	// MainRound, or "main" when that is empty too.
	Round string
	// Scores are the Solve Rate rules; default scores.DefaultOptions().
	Scores scores.Options
	// Graded, when not nil, is scores.Compute(s, Scores), computed once by
	// the caller and shared read-only with other analyses; default nil:
	// computed here.
	Graded []scores.Grading
}

// DefaultOptions returns Seed 1, 2,000 replicates, 95 % intervals, α =
// 0.05, one pseudo-win, 90 % coverage, the main round and the EuroExec
// Solve Rate rule.
func DefaultOptions() Options {
	return Options{Seed: 1, Bootstrap: 2000, Level: 0.95, Alpha: 0.05, PLPrior: 1, MinCoverage: 0.90, Scores: scores.DefaultOptions()}
}

// Result is what Analyze produces: the models in rank order and the
// pairwise tests as typed values, which report/tables presents.
type Result struct {
	// Models are the ranked models in rank order (by rubric rank, then
	// name; models without a rubric last). Empty when the study gave
	// nothing to rank (see Notes).
	Models []Ranked
	// Tests are the pairwise tests, pairs in rank order, the rubric t test
	// (when there is a rubric) before the Solve Rate test of each pair.
	Tests []Test
	// HasRubric says some ranked model has a human rubric mean, so the
	// ranks, their intervals, Group and the t tests are defined.
	HasRubric bool
	// HasRanks says the study has preference ranks, so the Plackett–Luce
	// strengths are defined.
	HasRanks bool
	// Notes say what was left out of the rankings and why.
	Notes []string
	// Warnings are non-fatal findings (options replaced, no convergence).
	Warnings []string
}

// Ranked is one model of the rankings table. Undefined numbers are NaN,
// undefined letters "".
type Ranked struct {
	Model     string
	Gradings  int64   // human gradings of the model
	Rubric    float64 // exact mean of the gradings' rubric means, divided once
	SolveRate float64 // share of the defined gradings that solve the question
	// Rank is the rank by rubric (1 = best, ties share the mean rank);
	// RankLo and RankHi bound its bootstrap interval.
	Rank, RankLo, RankHi float64
	// Group and GroupSolveRate are the compact letter displays of the
	// rubric t tests and of the Solve Rate bootstrap tests.
	Group, GroupSolveRate string
	Rankings              int64 // preference rankings the model appears in
	// PL is the Plackett–Luce strength (mean 1); PLLo and PLHi bound its
	// bootstrap interval.
	PL, PLLo, PLHi float64
	// RankSolveRate is the rank by Solve Rate (1 = best, ties share the
	// mean rank); RankSolveRateLo and RankSolveRateHi bound its bootstrap
	// interval, from the same resamples as the rubric ranks.
	RankSolveRate, RankSolveRateLo, RankSolveRateHi float64
	// PBest and PBestSolveRate are the shares of the bootstrap replicates
	// in which the model has the best rubric mean (the lowest for a
	// lower-is-better rubric) and the highest Solve Rate; a tie for the
	// best splits the replicate equally. NaN without a bootstrap.
	PBest, PBestSolveRate float64
}

// Test is one row of the pairwise_significance table.
type Test struct {
	A, B     string // A is ranked before B by rubric
	Name     string // TestPairedT or TestPairedSR
	Method   string // MethodPairedT, MethodClusterT or MethodMcNemar
	Estimate float64
	Lo, Hi   float64 // the t interval of Estimate at Options.Level
	// MDE is the smallest difference the test detects with 80 % power at
	// Options.Alpha before Holm's adjustment (stats.MDE from its standard
	// error): a difference below it is likely to go unseen at this size.
	MDE      float64
	N        int64   // questions both models have
	P, PHolm float64 // NaN when undefined
	// Significant says the test is rejected after Holm at Options.Alpha
	// (meaningless when P is NaN).
	Significant bool
}

// Table names, and the test names of the pairwise_significance table.
const (
	RankingsTable = "rankings"
	PairwiseTable = "pairwise_significance"
	TestPairedT   = "paired_t_rubric"
	TestPairedSR  = "paired_solve_rate"
)

// mdePower is the power at which the pairwise tests' minimum detectable
// effects are stated.
const mdePower = 0.8

// The methods of the pairwise tests (column method).
const (
	MethodPairedT  = "paired t"
	MethodClusterT = "cluster-robust t"
	MethodMcNemar  = "McNemar mid-p"
)

// defaultHumanName is the human label when Study.HumanLabel is empty.
const defaultHumanName = "Human Expert"

// data is the analysed set in arrays: models m (sorted by name), questions q.
type data struct {
	models    []string
	nQ        int
	rubSum    [][]float64 // [m][q] Σ rubric_mean over human gradings
	rubN      [][]int     // [m][q] gradings with a rubric mean
	solved    [][]int     // [m][q]
	solveN    [][]int     // [m][q]
	nGradings []int
	orders    [][]Ordering // [q] rankings
	// The distinct orderings (in order of first appearance, question by
	// question) and, per question, how often each occurs: question q's
	// entries are [patStart[q], patStart[q+1]) of patIdx and patN.
	patterns []Ordering
	patStart []int32
	patIdx   []int32
	patN     []int32
	nRanked  []int          // rankings each model appears in
	hasSolve bool           // the study has a rubric or a checklist, so Solve Rate is defined
	rubExact []study.RatSum // per model: exact sum of the gradings' rubric means
	lower    bool           // lower rubric means rank first ([rubric] direction = "lower")
}

// Analyze computes the rankings and pairwise_significance tables of s. It
// never panics on user input. The only error is ctx's, checked between
// bootstrap replicates.
func Analyze(ctx context.Context, s *study.Study, opt Options) (Result, error) {
	var res Result
	if s == nil {
		res.Notes = append(res.Notes, "no study")
		return res, nil
	}
	if opt.Level == 0 {
		opt.Level = 0.95
	}
	if opt.Alpha == 0 {
		opt.Alpha = 0.05
	}
	if !(opt.Level > 0 && opt.Level < 1) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("ranking: level %v is not in (0, 1); using 0.95", opt.Level))
		opt.Level = 0.95
	}
	if !(opt.Alpha > 0 && opt.Alpha < 1) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("ranking: alpha %v is not in (0, 1); using 0.05", opt.Alpha))
		opt.Alpha = 0.05
	}
	if !(opt.PLPrior >= 0) || math.IsInf(opt.PLPrior, 0) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("ranking: Plackett–Luce prior %v is not ≥ 0; using 1", opt.PLPrior))
		opt.PLPrior = 1
	}
	d, notes, warns := build(s, opt)
	res.Notes = append(res.Notes, notes...)
	res.Warnings = append(res.Warnings, warns...)
	if d == nil {
		return res, nil
	}
	K := len(d.models)
	hasRubric, hasRanks := false, false
	for m := range d.models {
		for q := 0; q < d.nQ; q++ {
			if d.rubN[m][q] > 0 {
				hasRubric = true
			}
		}
		if d.nRanked[m] > 0 {
			hasRanks = true
		}
	}
	all := make([]int32, d.nQ)
	for i := range all {
		all[i] = 1
	}
	rub, sr := make([]float64, K), make([]float64, K)
	d.rates(all, rub, sr)
	for m := range rub {
		// the point estimate: the exact mean of the gradings' rubric means,
		// as in summary.csv, so that equal means tie (replicates use rates)
		if d.rubExact[m].N() > 0 {
			rub[m] = d.rubExact[m].Mean()
		}
	}
	rank := ranksDesc(rub, make([]float64, K), d.lower)
	rankSR := ranksDesc(sr, make([]float64, K), false)
	// rank order of the models: by rank, then name (models without rubric last)
	order := make([]int, K)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ra, rb := rank[order[a]], rank[order[b]]
		if math.IsNaN(ra) != math.IsNaN(rb) {
			return !math.IsNaN(ra)
		}
		if ra != rb {
			return ra < rb
		}
		return d.models[order[a]] < d.models[order[b]]
	})
	var pl PLFit
	if hasRanks {
		pl = FitPlackettLuce(d.patterns, d.patternWeights(all, make([]float64, len(d.patterns))), K, opt.PLPrior, nil)
		if !pl.Converged && !math.IsNaN(pl.Strength[0]) {
			res.Warnings = append(res.Warnings, fmt.Sprintf("ranking: Plackett–Luce did not converge in %d steps", pl.Iterations))
		}
		for m := range d.models {
			if d.nRanked[m] == 0 {
				pl.Strength[m] = math.NaN()
			}
		}
	} else {
		res.Notes = append(res.Notes, "no preference ranks: the Plackett–Luce columns are empty")
	}
	if !hasRubric {
		res.Notes = append(res.Notes, "no rubric: rank, rank intervals, group and the paired t tests are left out")
	}
	if !d.hasSolve {
		res.Notes = append(res.Notes, "neither rubric nor checklist: Solve Rate, its tests and group_solve_rate are empty")
	}
	// pairs in rank order
	var pairs []pair
	for i := 0; i < K; i++ {
		for j := i + 1; j < K; j++ {
			pairs = append(pairs, pair{order[i], order[j]})
		}
	}
	// bootstrap: [0,K) PL, [K,2K) rubric ranks, [2K,3K) Solve Rate ranks,
	// [3K,4K) and [4K,5K) the replicate's share of the best rubric and
	// Solve Rate
	var reps [][]float64
	if opt.Bootstrap > 0 && (hasRanks || hasRubric || d.hasSolve) {
		var err error
		if reps, err = d.bootstrap(ctx, opt, pl.Strength, hasRanks, hasRubric); err != nil {
			return Result{}, fmt.Errorf("ranking: %w", err)
		}
	}
	interval := func(j int) (float64, float64) {
		if reps == nil {
			return math.NaN(), math.NaN()
		}
		return stats.PercentileInterval(reps, j, opt.Level)
	}
	// pairwise tests
	type test struct {
		a, b    int
		name    string
		est     float64
		n       int
		p       float64
		lo, hi  float64
		mde     float64
		method  string
		pairPos int
	}
	var tests []test
	qs := d.questionMeans()
	for pi, pr := range pairs {
		if hasRubric {
			x, y := pairedDefined(qs[pr.a], qs[pr.b])
			tt := stats.TTestRel(x, y)
			lo, hi := stats.TInterval(tt.Mean, tt.SE, tt.DF, opt.Level)
			tests = append(tests, test{pr.a, pr.b, TestPairedT, tt.Mean, len(x), tt.P, lo, hi, stats.MDE(tt.SE, tt.DF, opt.Alpha, mdePower), MethodPairedT, pi})
		}
		if d.hasSolve {
			st := d.solveTest(pr.a, pr.b, opt.Level)
			method := MethodClusterT
			if st.Exact {
				method = MethodMcNemar
			}
			tests = append(tests, test{pr.a, pr.b, TestPairedSR, st.Estimate, st.Clusters, st.P, st.Lo, st.Hi, stats.MDE(st.SE, st.DF, opt.Alpha, mdePower), method, pi})
		}
	}
	ps := make([]float64, len(tests))
	for i, t := range tests {
		ps[i] = t.p
	}
	adj, rej := stats.HolmReject(ps, opt.Alpha)
	sigT := map[[2]int]bool{}
	sigS := map[[2]int]bool{}
	for i, t := range tests {
		sig := rej[i] && !math.IsNaN(t.p)
		res.Tests = append(res.Tests, Test{A: d.models[t.a], B: d.models[t.b], Name: t.name, Method: t.method, Estimate: t.est, Lo: t.lo, Hi: t.hi, MDE: t.mde, N: int64(t.n), P: t.p, PHolm: adj[i], Significant: sig})
		if sig {
			if t.name == TestPairedT {
				sigT[[2]int{t.a, t.b}] = true
			} else {
				sigS[[2]int{t.a, t.b}] = true
			}
		}
	}
	differ := func(m map[[2]int]bool) func(i, j int) bool {
		return func(i, j int) bool { return m[[2]int{order[i], order[j]}] || m[[2]int{order[j], order[i]}] }
	}
	var groupT, groupS []string
	if hasRubric {
		groupT = CompactLetters(K, differ(sigT))
	}
	if d.hasSolve {
		groupS = CompactLetters(K, differ(sigS))
	}
	res.HasRubric, res.HasRanks = hasRubric, hasRanks
	for pos, m := range order {
		r := Ranked{Model: d.models[m], Gradings: int64(d.nGradings[m]), Rubric: rub[m], SolveRate: sr[m],
			Rank: rank[m], RankLo: math.NaN(), RankHi: math.NaN(), Rankings: int64(d.nRanked[m]),
			PL: math.NaN(), PLLo: math.NaN(), PLHi: math.NaN()}
		if groupT != nil && !math.IsNaN(rank[m]) {
			r.Group = groupT[pos]
		}
		if groupS != nil {
			r.GroupSolveRate = groupS[pos]
		}
		r.RankSolveRate, r.RankSolveRateLo, r.RankSolveRateHi = math.NaN(), math.NaN(), math.NaN()
		r.PBest, r.PBestSolveRate = math.NaN(), math.NaN()
		if hasRubric {
			r.RankLo, r.RankHi = interval(K + m)
			if reps != nil && !math.IsNaN(rank[m]) {
				r.PBest = columnMean(reps, 3*K+m)
			}
		}
		if d.hasSolve && !math.IsNaN(rankSR[m]) {
			r.RankSolveRate = rankSR[m]
			r.RankSolveRateLo, r.RankSolveRateHi = interval(2*K + m)
			if reps != nil {
				r.PBestSolveRate = columnMean(reps, 4*K+m)
			}
		}
		if hasRanks {
			r.PL = pl.Strength[m]
			if !math.IsNaN(r.PL) {
				r.PLLo, r.PLHi = interval(m)
			}
		}
		res.Models = append(res.Models, r)
	}
	if opt.Bootstrap <= 0 {
		res.Notes = append(res.Notes, "bootstrap disabled: intervals, Solve Rate tests and group_solve_rate are empty")
	}
	return res, nil
}

// pair is two model indexes.
type pair struct{ a, b int }

// bootstrap returns the replicates × 5K matrix of the cluster bootstrap
// over questions: [0,K) Plackett–Luce strengths (when hasRanks;
// warm-started at start), [K,2K) rubric ranks and [3K,4K) each model's
// share of the best rubric (when hasRubric), [2K,3K) Solve Rate ranks and
// [4K,5K) each model's share of the best Solve Rate (when d.hasSolve). Each
// replicate is a weighted sum over the per-question sums with its counts,
// and the Plackett–Luce fit runs on the distinct orderings weighted by
// their counts in the resample; nothing is allocated per replicate.
func (d *data) bootstrap(ctx context.Context, opt Options, start []float64, hasRanks, hasRubric bool) ([][]float64, error) {
	K := len(d.models)
	return stats.ClusterBootstrapCounts(ctx, d.nQ, opt.Bootstrap, opt.Seed, 5*K, func() stats.CountStat {
		// per worker: everything a replicate needs, reused
		var ws plWork
		wts := make([]float64, len(d.patterns))
		r, s := make([]float64, K), make([]float64, K)
		return func(cnt []int32, out []float64) {
			if hasRanks {
				f := ws.fit(d.patterns, d.patternWeights(cnt, wts), K, opt.PLPrior, start)
				copy(out[:K], f.Strength)
			}
			if hasRubric || d.hasSolve {
				d.rates(cnt, r, s)
			}
			if hasRubric {
				ranksDesc(r, out[K:2*K], d.lower)
				bestShare(r, out[3*K:4*K], d.lower)
			}
			if d.hasSolve {
				ranksDesc(s, out[2*K:3*K], false)
				bestShare(s, out[4*K:5*K], false)
			}
		}
	})
}

// bestShare writes to out each entry's share of the best value of x (the
// largest, or the smallest when lower): 1/k for each of the k entries
// equal to the best, 0 for the others and for NaN entries (all 0 when
// every entry is NaN). It allocates nothing.
func bestShare(x, out []float64, lower bool) {
	best, k := math.NaN(), 0
	for _, v := range x {
		switch {
		case math.IsNaN(v):
		case math.IsNaN(best) || (v > best) != lower && v != best:
			best, k = v, 1
		case v == best:
			k++
		}
	}
	for i, v := range x {
		out[i] = 0
		if k > 0 && v == best {
			out[i] = 1 / float64(k)
		}
	}
}

// columnMean is the mean of column j over the rows of reps, NaN rows left
// out (NaN when every row is).
func columnMean(reps [][]float64, j int) float64 {
	var s float64
	n := 0
	for _, row := range reps {
		if v := row[j]; !math.IsNaN(v) {
			s += v
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return s / float64(n)
}

// solveTest is the paired Solve Rate test of models a and b
// (stats.PairedClusterDiff over the questions, each question's solved
// gradings and gradings with a solved flag).
func (d *data) solveTest(a, b int, level float64) stats.PairedDiff {
	cl := make([]stats.ClusterPair, d.nQ)
	for q := range cl {
		cl[q] = stats.ClusterPair{SumA: float64(d.solved[a][q]), NA: float64(d.solveN[a][q]),
			SumB: float64(d.solved[b][q]), NB: float64(d.solveN[b][q])}
	}
	return stats.PairedClusterDiff(cl, level)
}

// ranksDesc writes to out (and returns it) the ranks of x, largest first
// (smallest first when lower: a lower-is-better rubric) (1 = best; ties
// get the mean rank, as stats.Rank); NaN entries get NaN and are not
// counted. It allocates nothing.
func ranksDesc(x, out []float64, lower bool) []float64 {
	for i, v := range x {
		out[i] = math.NaN()
		if math.IsNaN(v) {
			continue
		}
		above, ties := 0, 0
		for _, u := range x {
			switch {
			case u == v:
				ties++
			case (u > v) != lower && !math.IsNaN(u):
				above++
			}
		}
		out[i] = float64(above) + float64(ties+1)/2
	}
	return out
}

// pairedDefined returns the values of x and y at the positions where both
// are defined.
func pairedDefined(x, y []float64) ([]float64, []float64) {
	var a, b []float64
	for i := range x {
		if !math.IsNaN(x[i]) && !math.IsNaN(y[i]) {
			a = append(a, x[i])
			b = append(b, y[i])
		}
	}
	return a, b
}

// rates sets per model the rubric and Solve Rate over the resample with
// cnt[q] copies of question q (means over gradings; NaN without gradings)
// into rub and sr.
func (d *data) rates(cnt []int32, rub, sr []float64) {
	K := len(d.models)
	for m := 0; m < K; m++ {
		var s float64
		var n, sv, sn int
		rs, rn, so, sN := d.rubSum[m], d.rubN[m], d.solved[m], d.solveN[m]
		for q, c32 := range cnt {
			if c32 == 0 {
				continue
			}
			c := int(c32)
			s += float64(c) * rs[q]
			n += c * rn[q]
			sv += c * so[q]
			sn += c * sN[q]
		}
		rub[m], sr[m] = math.NaN(), math.NaN()
		if n > 0 {
			rub[m] = s / float64(n)
		}
		if sn > 0 && d.hasSolve {
			sr[m] = float64(sv) / float64(sn)
		}
	}
}

// questionMeans returns per model and question the mean human rubric_mean
// (NaN where there is none).
func (d *data) questionMeans() [][]float64 {
	out := make([][]float64, len(d.models))
	for m := range out {
		out[m] = make([]float64, d.nQ)
		for q := range out[m] {
			out[m][q] = math.NaN()
			if d.rubN[m][q] > 0 {
				out[m][q] = d.rubSum[m][q] / float64(d.rubN[m][q])
			}
		}
	}
	return out
}

// patternWeights sets w[p] to the number of times distinct ordering p
// occurs in the resample with cnt[q] copies of question q, and returns w.
// The counts are summed as integers, so they are exact.
func (d *data) patternWeights(cnt []int32, w []float64) []float64 {
	clear(w)
	for q := 0; q+1 < len(d.patStart); q++ {
		c := int64(cnt[q])
		if c == 0 {
			continue
		}
		for i := d.patStart[q]; i < d.patStart[q+1]; i++ {
			w[d.patIdx[i]] += float64(c * int64(d.patN[i]))
		}
	}
	return w
}

// dedupe fills the distinct orderings of d.orders with their counts per
// question.
func (d *data) dedupe() {
	seen := map[string]int32{}
	d.patStart = make([]int32, 1, d.nQ+1)
	key := make([]byte, 0, 64)
	local := map[int32]int32{}
	var order []int32
	for _, os := range d.orders {
		clear(local)
		order = order[:0]
		for _, o := range os {
			key = key[:0]
			for _, t := range o {
				key = append(key, byte(t), byte(t>>8), byte(t>>16), byte(t>>24))
			}
			p, ok := seen[string(key)]
			if !ok {
				p = int32(len(d.patterns))
				seen[string(key)] = p
				d.patterns = append(d.patterns, o)
			}
			if _, ok := local[p]; !ok {
				order = append(order, p)
			}
			local[p]++
		}
		for _, p := range order {
			d.patIdx = append(d.patIdx, p)
			d.patN = append(d.patN, local[p])
		}
		d.patStart = append(d.patStart, int32(len(d.patIdx)))
	}
}

// build gathers the data of the analysed set.
func build(s *study.Study, opt Options) (*data, []string, []string) {
	var notes []string
	var warns []string
	round := opt.Round
	if round == "" {
		round = s.MainRound
	}
	if round == "" {
		round = "main"
	}
	human := s.HumanLabel
	if human == "" {
		human = defaultHumanName
	}
	// gs points into the (shared, read-only) scored gradings: the analysed
	// set without a copy of each.
	var gs []*scores.Grading
	qpos := map[string]int{}
	var questions []string
	// modelQs[m][q] says model m is graded on question q (by position);
	// nQ[m] counts them.
	modelQs, nQ := map[string][]bool{}, map[string]int{}
	all := scores.OrCompute(opt.Graded, s, opt.Scores)
	for i := range all {
		g := &all[i]
		if g.Round != round || g.Kind != study.Human || g.Model == human {
			continue
		}
		gs = append(gs, g)
		if _, ok := qpos[g.QuestionID]; !ok {
			qpos[g.QuestionID] = len(questions)
			questions = append(questions, g.QuestionID)
		}
		q := qpos[g.QuestionID]
		seen := modelQs[g.Model]
		if len(seen) <= q {
			seen = append(seen, make([]bool, q+1-len(seen))...)
			modelQs[g.Model] = seen
		}
		if !seen[q] {
			seen[q] = true
			nQ[g.Model]++
		}
	}
	if len(gs) == 0 {
		notes = append(notes, fmt.Sprintf("no human gradings of models in round %q", round))
		return nil, notes, warns
	}
	var names []string
	for m := range modelQs {
		names = append(names, m)
	}
	sort.Strings(names)
	var models []string
	for _, m := range names {
		cov := float64(nQ[m]) / float64(len(questions))
		if cov < opt.MinCoverage {
			notes = append(notes, fmt.Sprintf("model %s left out: graded on %d of %d questions (%.1f %%, below %.0f %%)",
				m, nQ[m], len(questions), 100*cov, 100*opt.MinCoverage))
			continue
		}
		models = append(models, m)
	}
	if len(models) < 2 {
		notes = append(notes, fmt.Sprintf("%d model(s) to rank; rankings need at least two", len(models)))
		return nil, notes, warns
	}
	mpos := map[string]int{}
	for i, m := range models {
		mpos[m] = i
	}
	K, Q := len(models), len(questions)
	grid := func() [][]int {
		g := make([][]int, K)
		for i := range g {
			g[i] = make([]int, Q)
		}
		return g
	}
	hasSolve := len(s.Attributes) > 0
	for _, g := range gs {
		hasSolve = hasSolve || len(g.Verdicts) > 0
	}
	d := &data{models: models, nQ: Q, hasSolve: hasSolve, lower: s.LowerIsBetter, rubN: grid(), solved: grid(), solveN: grid(), nGradings: make([]int, K),
		orders: make([][]Ordering, Q), nRanked: make([]int, K)}
	d.rubExact = make([]study.RatSum, K)
	d.rubSum = make([][]float64, K)
	for i := range d.rubSum {
		d.rubSum[i] = make([]float64, Q)
	}
	type ek struct{ e, q string }
	type ranked struct {
		m    int
		rank float64
	}
	byEQ := map[ek][]ranked{}
	var eqs []ek
	for _, g := range gs {
		m, ok := mpos[g.Model]
		if !ok {
			continue
		}
		q := qpos[g.QuestionID]
		d.nGradings[m]++
		if !math.IsNaN(g.RubricMean) {
			d.rubExact[m].Add(g.RubricRat, g.RubricMean)
			d.rubSum[m][q] += g.RubricMean
			d.rubN[m][q]++
		}
		if g.Solve != scores.Undefined { // undefined: out of the Solve Rate (scores.Scorer.Rule)
			d.solveN[m][q]++
			if g.Solved {
				d.solved[m][q]++
			}
		}
		if g.Rank > 0 {
			k := ek{g.Evaluator, g.QuestionID}
			if _, ok := byEQ[k]; !ok {
				eqs = append(eqs, k)
			}
			byEQ[k] = append(byEQ[k], ranked{m, g.Rank})
		}
	}
	sort.Slice(eqs, func(a, b int) bool {
		if eqs[a].q != eqs[b].q {
			return qpos[eqs[a].q] < qpos[eqs[b].q]
		}
		return eqs[a].e < eqs[b].e
	})
	tied, short := 0, 0
	for _, k := range eqs {
		rs := byEQ[k]
		sort.SliceStable(rs, func(a, b int) bool { return rs[a].rank < rs[b].rank })
		if len(rs) < 2 {
			short++
			continue
		}
		tie := false
		for i := 1; i < len(rs); i++ {
			if rs[i].rank == rs[i-1].rank {
				tie = true
			}
		}
		if tie {
			tied++
			continue
		}
		o := make(Ordering, len(rs))
		for i, r := range rs {
			o[i] = r.m
			d.nRanked[r.m]++
		}
		q := qpos[k.q]
		d.orders[q] = append(d.orders[q], o)
	}
	d.dedupe()
	if tied > 0 {
		warns = append(warns, fmt.Sprintf("ranking: %d preference rankings with tied ranks left out of Plackett–Luce", tied))
	}
	if short > 0 {
		warns = append(warns, fmt.Sprintf("ranking: %d preference rankings rank fewer than two of the compared models and were left out", short))
	}
	return d, notes, warns
}
