// Package ranking orders the models of a study with their uncertainty: a
// Plackett–Luce model fitted to the explicit preference rankings, 95 % rank
// intervals of the rubric order, and a compact letter display of which
// models differ significantly. It fills the tables `rankings` and
// `pairwise_significance` of the section report.SectionBeyond.
//
// Data. The gradings of one round (Options.Round, default the study's main
// round) by the human graders, over the models other than the graded human
// answer (Study.HumanLabel) — the `all` set of DESIGN.md; a model graded on
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
//     resamples, the Plackett–Luce percentile intervals, the rank intervals
//     and the Solve Rate differences.
//   - Pairwise tests, for every pair of models (a before b in rank order):
//     paired_t_rubric, the paired two-sided t test (stats.TTestRel) of the
//     per-question mean human rubric over the questions where both have one
//     (estimate = mean difference a − b); and bootstrap_solve_rate, the
//     difference of Solve Rates a − b with a two-sided bootstrap p-value
//     p = min(1, 2·min(1 + #{Δ* ≤ 0}, 1 + #{Δ* ≥ 0}) / (B + 1)) over the B
//     replicates where both rates are defined (Δ* the replicate
//     differences; the +1 keeps p above 0 with finitely many replicates).
//     All tests of the table together are adjusted with Holm's method
//     (stats.HolmReject); significant means rejected at Options.Alpha
//     (default 0.05).
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

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
)

// Options control the analysis.
type Options struct {
	ctx context.Context // set by Analyze; the bootstraps stop when it is done

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
}

// DefaultOptions returns Seed 1, 2,000 replicates, 95 % intervals, α =
// 0.05, one pseudo-win, 90 % coverage, the main round and the EuroExec
// Solve Rate rule.
func DefaultOptions() Options {
	return Options{Seed: 1, Bootstrap: 2000, Level: 0.95, Alpha: 0.05, PLPrior: 1, MinCoverage: 0.90, Scores: scores.DefaultOptions()}
}

// Result is what Analyze produces, ready to be appended to a report.Report.
type Result = report.Part

// Table names, and the test names of the pairwise_significance table.
const (
	RankingsTable   = "rankings"
	PairwiseTable   = "pairwise_significance"
	TestPairedT     = "paired_t_rubric"
	TestBootstrapSR = "bootstrap_solve_rate"
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
	nRanked   []int        // rankings each model appears in
	hasSolve  bool         // the study has a rubric or a checklist, so Solve Rate is defined
}

// Analyze computes the rankings and pairwise_significance tables of s. It
// never panics on user input.
// A cancelled ctx stops it between bootstrap replicates and returns ctx's
// error (and no result).
func Analyze(ctx context.Context, s *analysis.Study, opt Options) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	opt.ctx = ctx
	// Run in a goroutine so that a cancel returns at once even from parts
	// that do not check ctx; the abandoned computation skips its remaining
	// bootstrap replicates and its result is dropped.
	done := make(chan Result, 1)
	go func() { done <- analyze(s, opt) }()
	select {
	case r := <-done:
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		return r, nil
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
}

// analyze is Analyze without the context.
func analyze(s *analysis.Study, opt Options) Result {
	var res Result
	if s == nil {
		res.Notes = append(res.Notes, report.Note{Table: RankingsTable, Reason: "no study"})
		return res
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
		return res
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
	all := make([]int, d.nQ)
	for i := range all {
		all[i] = 1
	}
	rub, sr := d.rates(all)
	rank := ranksDesc(rub)
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
		pl = FitPlackettLuce(d.orderList(), d.orderWeights(all), K, opt.PLPrior, nil)
		if !pl.Converged && !math.IsNaN(pl.Strength[0]) {
			res.Warnings = append(res.Warnings, fmt.Sprintf("ranking: Plackett–Luce did not converge in %d steps", pl.Iterations))
		}
		for m := range d.models {
			if d.nRanked[m] == 0 {
				pl.Strength[m] = math.NaN()
			}
		}
	} else {
		res.Notes = append(res.Notes, report.Note{Table: RankingsTable, Reason: "no preference ranks: the Plackett–Luce columns are empty"})
	}
	if !hasRubric {
		res.Notes = append(res.Notes, report.Note{Table: RankingsTable, Reason: "no rubric: rank, rank intervals, group and the paired t tests are left out"})
	}
	if !d.hasSolve {
		res.Notes = append(res.Notes, report.Note{Table: RankingsTable, Reason: "neither rubric nor checklist: Solve Rate, its tests and group_solve_rate are empty"})
	}
	// pairs in rank order
	type pair struct{ a, b int }
	var pairs []pair
	for i := 0; i < K; i++ {
		for j := i + 1; j < K; j++ {
			pairs = append(pairs, pair{order[i], order[j]})
		}
	}
	// bootstrap: [0,K) PL, [K,2K) ranks, [2K, 2K+P) solve-rate differences
	nOut := 2*K + len(pairs)
	var reps [][]float64
	if opt.Bootstrap > 0 {
		orders := d.orderList()
		start := pl.Strength
		reps = stats.ClusterBootstrap(d.nQ, opt.Bootstrap, opt.Seed, nOut, func(idx []int, out []float64) {
			if opt.cancelled() {
				return
			}
			cnt := make([]int, d.nQ)
			for _, q := range idx {
				cnt[q]++
			}
			if hasRanks {
				f := FitPlackettLuce(orders, d.orderWeights(cnt), K, opt.PLPrior, start)
				copy(out[:K], f.Strength)
			}
			r, s := d.rates(cnt)
			if hasRubric {
				copy(out[K:2*K], ranksDesc(r))
			}
			for p, pr := range pairs {
				out[2*K+p] = s[pr.a] - s[pr.b]
			}
		})
	}
	interval := func(j int) (float64, float64) {
		if reps == nil {
			return math.NaN(), math.NaN()
		}
		return stats.PercentileInterval(reps, j, opt.Level)
	}
	// pairwise tests
	pt := &report.Table{
		Name:    PairwiseTable,
		Title:   "Pairwise significance of model differences",
		Section: report.SectionBeyond,
		Doc: "Every pair of models (a ranked before b by rubric): paired t test of the per-question mean human rubric, and the Solve Rate difference with a two-sided cluster-bootstrap p-value; " +
			"p_holm adjusts all tests of the table together (Holm).",
		Columns: []report.Column{
			{Name: "model_a", Kind: report.Text, Doc: "the model ranked higher by rubric"},
			{Name: "model_b", Kind: report.Text, Doc: "the model ranked lower"},
			{Name: "test", Kind: report.Text, Doc: "paired_t_rubric or bootstrap_solve_rate"},
			{Name: "estimate", Kind: report.Float, Doc: "mean per-question rubric difference a − b, or Solve Rate a − b"},
			{Name: "n", Kind: report.Int, Doc: "questions used (paired t), or bootstrap replicates used"},
			{Name: "p", Kind: report.Float, Doc: "two-sided p-value"},
			{Name: "p_holm", Kind: report.Float, Doc: "Holm-adjusted p-value over all tests of the table"},
			{Name: "significant", Kind: report.Text, Doc: "true when rejected after Holm at the chosen α (default 0.05); empty when p is undefined"},
		},
	}
	type test struct {
		a, b    int
		name    string
		est     float64
		n       int
		p       float64
		pairPos int
	}
	var tests []test
	qs := d.questionMeans()
	for pi, pr := range pairs {
		if hasRubric {
			x, y := pairedDefined(qs[pr.a], qs[pr.b])
			tt := stats.TTestRel(x, y)
			tests = append(tests, test{pr.a, pr.b, TestPairedT, tt.Mean, len(x), tt.P, pi})
		}
		est := sr[pr.a] - sr[pr.b]
		p, n := math.NaN(), 0
		if reps != nil {
			p, n = bootstrapP(reps, 2*K+pi)
		}
		tests = append(tests, test{pr.a, pr.b, TestBootstrapSR, est, n, p, pi})
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
		var sv any = sig
		if math.IsNaN(t.p) {
			sv = nil
		}
		pt.Rows = append(pt.Rows, []any{d.models[t.a], d.models[t.b], t.name, t.est, int64(t.n), t.p, adj[i], sv})
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
	if reps != nil && d.hasSolve {
		groupS = CompactLetters(K, differ(sigS))
	}
	// rankings table
	rt := &report.Table{
		Name:    RankingsTable,
		Title:   "Model rankings with uncertainty",
		Section: report.SectionBeyond,
		Doc: "Per model (human gradings): rubric and Solve Rate, rank by rubric with its 95 % bootstrap rank interval, compact letter displays " +
			"(models sharing a letter do not differ significantly after Holm), and Plackett–Luce strengths of the explicit preference rankings (mean 1) with bootstrap intervals.",
		Columns: []report.Column{
			{Name: "model", Kind: report.Text, Doc: "model name"},
			{Name: "n_gradings", Kind: report.Int, Doc: "human gradings of the model"},
			{Name: "rubric", Kind: report.Float, Doc: "mean rubric_mean over the human gradings"},
			{Name: "solve_rate", Kind: report.Fraction, Doc: "share of the human gradings that solve the question"},
			{Name: "rank", Kind: report.Float, Doc: "rank by rubric, 1 = best (ties share the mean rank)"},
			{Name: "rank_lo", Kind: report.Float, Doc: "lower end of the bootstrap rank interval"},
			{Name: "rank_hi", Kind: report.Float, Doc: "upper end of the bootstrap rank interval"},
			{Name: "group", Kind: report.Text, Doc: "compact letter display of the paired rubric t tests"},
			{Name: "group_solve_rate", Kind: report.Text, Doc: "compact letter display of the bootstrap Solve Rate tests"},
			{Name: "n_rankings", Kind: report.Int, Doc: "preference rankings the model appears in"},
			{Name: "pl_strength", Kind: report.Float, Doc: "Plackett–Luce strength (posterior mode, strengths average 1)"},
			{Name: "pl_lo", Kind: report.Float, Doc: "lower end of the bootstrap interval of the strength"},
			{Name: "pl_hi", Kind: report.Float, Doc: "upper end of the bootstrap interval of the strength"},
		},
	}
	figPL := &report.Figure{ID: "ranking_pl_strength", Section: report.SectionBeyond, Title: "Plackett–Luce strengths of the preference rankings",
		Kind: report.Bar, XName: "model", YName: "strength (mean 1)", Table: RankingsTable}
	figRank := &report.Figure{ID: "ranking_rank_intervals", Section: report.SectionBeyond, Title: "Rank by rubric with 95 % bootstrap rank intervals",
		Kind: report.Bar, XName: "model", YName: "rank (1 = best)", Table: RankingsTable}
	sPL := report.Series{Name: "Plackett–Luce strength"}
	sRank := report.Series{Name: "rank"}
	for pos, m := range order {
		var g, gs any
		if groupT != nil && !math.IsNaN(rank[m]) {
			g = groupT[pos]
		}
		if groupS != nil {
			gs = groupS[pos]
		}
		rlo, rhi := math.NaN(), math.NaN()
		if hasRubric {
			rlo, rhi = interval(K + m)
		}
		plv, plo, phi := math.NaN(), math.NaN(), math.NaN()
		if hasRanks {
			plv = pl.Strength[m]
			if !math.IsNaN(plv) {
				plo, phi = interval(m)
			}
		}
		rt.Rows = append(rt.Rows, []any{d.models[m], int64(d.nGradings[m]), rub[m], sr[m], rank[m], rlo, rhi, g, gs,
			int64(d.nRanked[m]), plv, plo, phi})
		figPL.Categories = append(figPL.Categories, d.models[m])
		figRank.Categories = append(figRank.Categories, d.models[m])
		sPL.Values, sPL.Lo, sPL.Hi = append(sPL.Values, plv), append(sPL.Lo, plo), append(sPL.Hi, phi)
		sRank.Values, sRank.Lo, sRank.Hi = append(sRank.Values, rank[m]), append(sRank.Lo, rlo), append(sRank.Hi, rhi)
	}
	figPL.Series = []report.Series{sPL}
	figRank.Series = []report.Series{sRank}
	res.Tables = append(res.Tables, rt, pt)
	if hasRanks {
		res.Figures = append(res.Figures, figPL)
	}
	if hasRubric {
		res.Figures = append(res.Figures, figRank)
	}
	if opt.Bootstrap <= 0 {
		res.Notes = append(res.Notes, report.Note{Table: RankingsTable, Reason: "bootstrap disabled: intervals, Solve Rate tests and group_solve_rate are empty"})
	}
	return res
}

// bootstrapP returns the two-sided bootstrap p-value of column j (see the
// package comment) and the number of replicates used.
func bootstrapP(reps [][]float64, j int) (float64, int) {
	le, ge, n := 0, 0, 0
	for _, r := range reps {
		v := r[j]
		if math.IsNaN(v) {
			continue
		}
		n++
		if v <= 0 {
			le++
		}
		if v >= 0 {
			ge++
		}
	}
	if n == 0 {
		return math.NaN(), 0
	}
	p := 2 * float64(min(le, ge)+1) / float64(n+1)
	return math.Min(1, p), n
}

// ranksDesc returns the ranks of x, largest first (1 = best; ties get the
// mean rank); NaN entries get NaN and are not counted.
func ranksDesc(x []float64) []float64 {
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

// rates returns per model the rubric and Solve Rate over the resample with
// cnt[q] copies of question q (means over gradings; NaN without gradings).
func (d *data) rates(cnt []int) (rub, sr []float64) {
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

// orderList returns every ranking, question by question.
func (d *data) orderList() []Ordering {
	var out []Ordering
	for _, os := range d.orders {
		out = append(out, os...)
	}
	return out
}

// orderWeights returns the weight of each ranking of orderList: the
// multiplicity of its question.
func (d *data) orderWeights(cnt []int) []float64 {
	var out []float64
	for q, os := range d.orders {
		for range os {
			out = append(out, float64(cnt[q]))
		}
	}
	return out
}

// build gathers the data of the analysed set.
func build(s *analysis.Study, opt Options) (*data, []report.Note, []string) {
	var notes []report.Note
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
	var gs []scores.Grading
	qpos := map[string]int{}
	var questions []string
	modelQs := map[string]map[string]bool{}
	for _, g := range scores.Compute(s, opt.Scores) {
		if g.Round != round || g.Kind != analysis.Human || g.Model == human {
			continue
		}
		gs = append(gs, g)
		if _, ok := qpos[g.QuestionID]; !ok {
			qpos[g.QuestionID] = len(questions)
			questions = append(questions, g.QuestionID)
		}
		if modelQs[g.Model] == nil {
			modelQs[g.Model] = map[string]bool{}
		}
		modelQs[g.Model][g.QuestionID] = true
	}
	if len(gs) == 0 {
		notes = append(notes, report.Note{Table: RankingsTable, Reason: fmt.Sprintf("no human gradings of models in round %q", round)})
		return nil, notes, warns
	}
	var names []string
	for m := range modelQs {
		names = append(names, m)
	}
	sort.Strings(names)
	var models []string
	for _, m := range names {
		cov := float64(len(modelQs[m])) / float64(len(questions))
		if cov < opt.MinCoverage {
			notes = append(notes, report.Note{Table: RankingsTable, Reason: fmt.Sprintf("model %s left out: graded on %d of %d questions (%.1f %%, below %.0f %%)",
				m, len(modelQs[m]), len(questions), 100*cov, 100*opt.MinCoverage)})
			continue
		}
		models = append(models, m)
	}
	if len(models) < 2 {
		notes = append(notes, report.Note{Table: RankingsTable, Reason: fmt.Sprintf("%d model(s) to rank; rankings need at least two", len(models))})
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
	d := &data{models: models, nQ: Q, hasSolve: hasSolve, rubN: grid(), solved: grid(), solveN: grid(), nGradings: make([]int, K),
		orders: make([][]Ordering, Q), nRanked: make([]int, K)}
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
			d.rubSum[m][q] += g.RubricMean
			d.rubN[m][q]++
		}
		d.solveN[m][q]++
		if g.Solved {
			d.solved[m][q]++
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
	if tied > 0 {
		warns = append(warns, fmt.Sprintf("ranking: %d preference rankings with tied ranks left out of Plackett–Luce", tied))
	}
	if short > 0 {
		warns = append(warns, fmt.Sprintf("ranking: %d preference rankings rank fewer than two of the compared models and were left out", short))
	}
	return d, notes, warns
}

// cancelled reports whether Analyze's context is done (false outside Analyze).
func (o Options) cancelled() bool { return o.ctx != nil && o.ctx.Err() != nil }
