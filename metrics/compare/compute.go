package compare

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// comparison holds the state of one Analyze call.
type comparison struct {
	opt      Options
	runs     []Run
	rd       []*runData
	old, new *runData

	models []string // union of OLD's and NEW's models, ascending
	pops   []string // union of populations, humans first
	boots  map[string]*pairBoot

	modelRows []modelRow
	rankRows  []rankRow
	drift     []driftRow
	trend     []trendRow
	warnings  []string

	pwRows  []pwRow   // compare_pairwise
	pwDrift []pwDrift // pairwise_judge_drift
}

// modelRow is one row of compare_models.csv.
type modelRow struct {
	model, metric, pop         string
	old, new, delta, lo, hi    float64
	oldLo, oldHi, newLo, newHi float64
	paired                     bool
	shared                     int
	sameResp                   int // shared questions whose response text is the same in both runs
	p                          float64
	flagged                    bool
	// non-inferiority (Options.Margins): the margin, the one-sided lower
	// bound of the improvement, and the verdicts; margin NaN when none
	margin, niLo, niP       float64
	nonInferior, equivalent bool
}

// rankRow is one row of compare_rankings.csv.
type rankRow struct {
	pop, model            string
	oldRank, oldLo, oldHi float64
	newRank, newLo, newHi float64
	flipped, significant  []string
}

// driftRow is one row of judge_drift.csv.
type driftRow struct {
	judge                  string
	n, nQ, nChanged        int
	oldMean, newMean, diff float64
	lo, hi, p              float64
	kappa, flipped         float64
	flagged                bool
}

// trendRow is one row of compare_trend.csv.
type trendRow struct {
	pop, model, metric string
	run                int
	value, lo, hi      float64
}

func (c *comparison) compute(ctx context.Context) error {
	seen := map[string]bool{}
	for _, d := range []*runData{c.old, c.new} {
		for _, m := range d.models {
			if !seen[m] {
				seen[m] = true
				c.models = append(c.models, m)
			}
		}
	}
	sort.Strings(c.models)
	seenP := map[string]bool{}
	for _, d := range []*runData{c.old, c.new} {
		for _, p := range d.popOrder {
			if !seenP[p] {
				seenP[p] = true
				c.pops = append(c.pops, p)
			}
		}
	}
	sort.SliceStable(c.pops, func(i, j int) bool {
		if (c.pops[i] == Humans) != (c.pops[j] == Humans) {
			return c.pops[i] == Humans
		}
		return c.pops[i] < c.pops[j]
	})
	c.boots = map[string]*pairBoot{}
	for _, p := range c.pops {
		pb := c.newPairBoot(p)
		if c.opt.Bootstrap > 0 {
			if err := pb.run(ctx, c.opt.Bootstrap, c.opt.Seed); err != nil {
				return fmt.Errorf("compare: %w", err)
			}
		}
		c.boots[p] = pb
		c.modelTable(p, pb)
		c.rankings(p, pb)
	}
	c.flag()
	if err := c.judgeDrift(ctx); err != nil {
		return err
	}
	if len(c.rd) >= 3 {
		if err := c.trends(ctx); err != nil {
			return err
		}
	}
	c.matchWarnings()
	var err error
	c.pwRows, c.pwDrift, err = c.pairwiseRuns(ctx)
	return err
}

func (c *comparison) newPairBoot(p string) *pairBoot {
	a, b := c.old.pops[p], c.new.pops[p]
	pb := &pairBoot{a: a, b: b, nMA: len(c.old.models), nMB: len(c.new.models), nU: len(c.models)}
	if a != nil && b != nil {
		for i, q := range a.qIDs {
			if j, ok := b.qIdx[q]; ok {
				pb.shared = append(pb.shared, [2]int{i, j})
			} else {
				pb.onlyA = append(pb.onlyA, i)
			}
		}
		for j, q := range b.qIDs {
			if _, ok := a.qIdx[q]; !ok {
				pb.onlyB = append(pb.onlyB, j)
			}
		}
	} else if a != nil {
		for i := range a.qIDs {
			pb.onlyA = append(pb.onlyA, i)
		}
	} else {
		for j := range b.qIDs {
			pb.onlyB = append(pb.onlyB, j)
		}
	}
	for _, u := range c.models {
		pb.mA = append(pb.mA, modelIn(c.old, a, u))
		pb.mB = append(pb.mB, modelIn(c.new, b, u))
	}
	return pb
}

// modelIn is u's index in run d when the population has gradings of it, else −1.
func modelIn(d *runData, p *pop, u string) int {
	if p == nil {
		return -1
	}
	if m, ok := d.mIdx[u]; ok && p.has[m] {
		return m
	}
	return -1
}

func (c *comparison) modelTable(p string, pb *pairBoot) {
	for u, name := range c.models {
		va, vb := nanValues(), nanValues()
		if m := pb.mA[u]; m >= 0 {
			va = pb.a.ex[m].values()
		}
		if m := pb.mB[u]; m >= 0 {
			vb = pb.b.ex[m].values()
		}
		shared, same := 0, 0
		if pb.mA[u] >= 0 && pb.mB[u] >= 0 {
			for _, s := range pb.shared {
				if pb.a.perQM[[2]int{s[0], pb.mA[u]}] && pb.b.perQM[[2]int{s[1], pb.mB[u]}] {
					shared++
					k := [2]string{pb.a.qIDs[s[0]], name}
					ha, okA := c.old.respHash[k]
					hb, okB := c.new.respHash[k]
					if okA && okB && ha == hb {
						same++
					}
				}
			}
		}
		for k, metric := range Metrics {
			r := modelRow{model: name, metric: metric, pop: p, old: va[k], new: vb[k], delta: vb[k] - va[k],
				paired: shared > 0, shared: shared, sameResp: same}
			ia, ib := outIdx(u, k, 0), outIdx(u, k, 1)
			r.lo, r.hi, r.p = math.NaN(), math.NaN(), math.NaN()
			r.oldLo, r.oldHi, _ = interval(column(pb.reps, func(row []float64) float64 { return row[ia] }))
			r.newLo, r.newHi, _ = interval(column(pb.reps, func(row []float64) float64 { return row[ib] }))
			r.margin, r.niLo, r.niP = math.NaN(), math.NaN(), math.NaN()
			if !math.IsNaN(r.delta) {
				t := pb.change(u, k, 0.95)
				r.lo, r.hi, r.p = t.Lo, t.Hi, t.P
				if m, ok := c.opt.Margins[metric]; ok {
					r.margin = m
					r.niLo, r.niP, r.nonInferior, r.equivalent = NonInferiority(r.delta, t.SE, t.DF, m, c.higherIsBetter(metric), c.opt.Alpha)
				}
			}
			c.modelRows = append(c.modelRows, r)
		}
	}
}

// flag applies Holm's step-down procedure across every row of
// compare_models with a defined p-value.
func (c *comparison) flag() {
	p := make([]float64, len(c.modelRows))
	for i, r := range c.modelRows {
		p[i] = r.p
	}
	_, rej := stats.HolmReject(p, c.opt.Alpha)
	for i := range c.modelRows {
		c.modelRows[i].flagged = rej[i]
	}
}

// rankOf ranks v among vals (1 = highest; ties share the better rank); NaN
// when v is NaN.
func rankOf(vals []float64, i int) float64 {
	if math.IsNaN(vals[i]) {
		return math.NaN()
	}
	r := 1
	for j, x := range vals {
		if j != i && !math.IsNaN(x) && x > vals[i] {
			r++
		}
	}
	return float64(r)
}

// rankings ranks models by Solve Rate in each run, with rank intervals from
// the replicates, and tests every pair's change of gap.
func (c *comparison) rankings(p string, pb *pairBoot) {
	nU := len(c.models)
	const k = 0 // solve_rate
	side := func(row []float64, s int) []float64 {
		v := make([]float64, nU)
		for u := range v {
			v[u] = row[outIdx(u, k, s)]
		}
		return v
	}
	pointOld, pointNew := make([]float64, nU), make([]float64, nU)
	for u := range c.models {
		pointOld[u], pointNew[u] = math.NaN(), math.NaN()
		if m := pb.mA[u]; m >= 0 {
			pointOld[u] = pb.a.ex[m].values()[k]
		}
		if m := pb.mB[u]; m >= 0 {
			pointNew[u] = pb.b.ex[m].values()[k]
		}
	}
	rows := make([]rankRow, nU)
	for u, name := range c.models {
		r := rankRow{pop: p, model: name, oldRank: rankOf(pointOld, u), newRank: rankOf(pointNew, u)}
		r.oldLo, r.oldHi, _ = interval(column(pb.reps, func(row []float64) float64 { return rankOf(side(row, 0), u) }))
		r.newLo, r.newHi, _ = interval(column(pb.reps, func(row []float64) float64 { return rankOf(side(row, 1), u) }))
		rows[u] = r
	}
	type pair struct{ u, v int }
	var pairs []pair
	var ps []float64
	for u := 0; u < nU; u++ {
		for v := u + 1; v < nU; v++ {
			g := (pointNew[u] - pointNew[v]) - (pointOld[u] - pointOld[v])
			if math.IsNaN(g) {
				continue
			}
			pairs = append(pairs, pair{u, v})
			ps = append(ps, pb.gapChange(u, v, k, 0.95).P)
		}
	}
	_, rej := stats.HolmReject(ps, c.opt.Alpha)
	for i, pr := range pairs {
		u, v := pr.u, pr.v
		if (pointOld[u]-pointOld[v])*(pointNew[u]-pointNew[v]) >= 0 {
			continue
		}
		rows[u].flipped = append(rows[u].flipped, c.models[v])
		rows[v].flipped = append(rows[v].flipped, c.models[u])
		if rej[i] {
			rows[u].significant = append(rows[u].significant, c.models[v])
			rows[v].significant = append(rows[v].significant, c.models[u])
		}
	}
	c.rankRows = append(c.rankRows, rows...)
}

// judgeDrift compares each judge present in both runs on the responses it
// graded in both whose text is the same (SHA-256 of the text).
func (c *comparison) judgeDrift(ctx context.Context) error {
	var judges []string
	for j := range c.old.judges {
		if c.new.judges[j] != nil {
			judges = append(judges, j)
		}
	}
	sort.Strings(judges)
	var ps []float64
	for _, j := range judges {
		a, b := c.old.judges[j], c.new.judges[j]
		var keys [][2]string
		changed := 0
		for k, sa := range a {
			sb, ok := b[k]
			if !ok || math.IsNaN(sa.rubric) || math.IsNaN(sb.rubric) {
				continue
			}
			ha, okA := c.old.respHash[k]
			hb, okB := c.new.respHash[k]
			if !okA || !okB || ha != hb {
				changed++
				continue
			}
			keys = append(keys, k)
		}
		sort.Slice(keys, func(x, y int) bool {
			if keys[x][0] != keys[y][0] {
				return keys[x][0] < keys[y][0]
			}
			return keys[x][1] < keys[y][1]
		})
		r := driftRow{judge: j, n: len(keys), nChanged: changed}
		r.oldMean, r.newMean, r.diff, r.lo, r.hi, r.p, r.kappa, r.flipped =
			math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
		if len(keys) > 0 {
			// Clusters are questions: per question, the sum of differences
			// and the count of responses.
			var cl [][2]float64
			var sa, sb, sd study.RatSum // exact old, new means and their difference
			var va, vb []int            // verdicts defined in both runs
			flips := 0
			for i, k := range keys {
				x, y := a[k], b[k]
				if i == 0 || keys[i-1][0] != k[0] {
					cl = append(cl, [2]float64{})
				}
				d := y.rubric - x.rubric
				cl[len(cl)-1][0] += d
				cl[len(cl)-1][1]++
				sa.Add(x.rubricR, x.rubric)
				sb.Add(y.rubricR, y.rubric)
				sd.Add(y.rubricR.Add(x.rubricR.MulInt(-1)), d)
				if !x.defined || !y.defined {
					continue // an undefined verdict is left out, as from every Solve Rate
				}
				va = append(va, b2i(x.solved))
				vb = append(vb, b2i(y.solved))
				if x.solved != y.solved {
					flips++
				}
			}
			r.nQ = len(cl)
			r.oldMean, r.newMean, r.diff = sa.Mean(), sb.Mean(), sd.Mean()
			if len(va) > 0 {
				r.kappa = stats.CohenKappa(va, vb, []int{0, 1}, stats.KappaUnweighted)
				r.flipped = float64(flips) / float64(len(va))
			}
			// the mean difference with questions as clusters: the
			// cluster-robust t of run's and compare's other tests
			sum, n := make([][]float64, len(cl)), make([][]float64, len(cl))
			for i, x := range cl {
				sum[i], n[i] = []float64{x[0]}, []float64{x[1]}
			}
			t := stats.RatioContrast(sum, n, []float64{1}, 0.95)
			r.lo, r.hi, r.p = t.Lo, t.Hi, t.P
		}
		ps = append(ps, r.p)
		c.drift = append(c.drift, r)
	}
	_, rej := stats.HolmReject(ps, c.opt.Alpha)
	for i := range c.drift {
		r := &c.drift[i]
		r.flagged = rej[i]
		if r.flagged {
			c.warnings = append(c.warnings, fmt.Sprintf("judge %s scores the same responses %+.2f points differently in %s than in %s (judge_drift.csv): "+
				"the changes under graders judge:%s in compare_models.csv reflect the judge, not the models",
				r.judge, r.diff, c.new.run.Label, c.old.run.Label, r.judge))
		}
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// trends computes every run's value and cluster-bootstrap interval per
// population, model and metric.
func (c *comparison) trends(ctx context.Context) error {
	for i, d := range c.rd {
		for _, p := range d.popOrder {
			pp := d.pops[p]
			nM := len(d.models)
			var reps [][]float64
			if c.opt.Bootstrap > 0 {
				reps = stats.ClusterBootstrap(len(pp.qIDs), c.opt.Bootstrap, c.opt.Seed, nM*len(Metrics), func(idx []int, out []float64) {
					s := make([]float64, nM*acLen)
					stride := nM * acLen
					for _, q := range idx {
						row := pp.acc[q*stride : (q+1)*stride]
						for x, v := range row {
							s[x] += v
						}
					}
					for m := 0; m < nM; m++ {
						v := values(s[m*acLen : (m+1)*acLen])
						copy(out[m*len(Metrics):], v[:])
					}
				})
				if err := ctx.Err(); err != nil {
					return fmt.Errorf("compare: %w", err)
				}
			}
			for m, name := range d.models {
				if !pp.has[m] {
					continue
				}
				v := pp.ex[m].values()
				for k, metric := range Metrics {
					r := trendRow{pop: p, model: name, metric: metric, run: i, value: v[k], lo: math.NaN(), hi: math.NaN()}
					if reps != nil && !math.IsNaN(v[k]) {
						r.lo, r.hi = stats.PercentileInterval(reps, m*len(Metrics)+k, 0.95)
					}
					c.trend = append(c.trend, r)
				}
			}
		}
	}
	return nil
}

// matchWarnings warns about what exists in one run only and about solve
// rules that differ.
func (c *comparison) matchWarnings() {
	counts := map[[2]string]int{}
	for _, m := range c.matching() {
		if m.onlyIn != "" {
			counts[[2]string{m.kind, m.onlyIn}]++
		}
	}
	for _, kind := range []string{"model", "question", "human evaluator", "judge"} {
		for _, side := range []string{"old", "new"} {
			if n := counts[[2]string{kind, side}]; n > 0 {
				label := c.old.run.Label
				if side == "new" {
					label = c.new.run.Label
				}
				c.warnings = append(c.warnings, fmt.Sprintf("%d %s(s) only in %s (%s); listed in compare_matching.csv", n, kind, side, label))
			}
		}
	}
	if c.old.run.Scores != c.new.run.Scores {
		c.warnings = append(c.warnings, fmt.Sprintf("the Solve rule differs: %s uses %+v, %s uses %+v; each run is scored with its own rule",
			c.old.run.Label, c.old.run.Scores, c.new.run.Label, c.new.run.Scores))
	}
	c.designWarnings()
}

// designWarnings says what the comparison cannot claim: no question graded
// in both runs (every change unpaired: a difference mixes the graders'
// leniency with different questions), and human graders who differ between
// the runs (a change in human scores mixes who graded with what changed).
func (c *comparison) designWarnings() {
	paired := false
	for _, r := range c.modelRows {
		if r.paired {
			paired = true
			break
		}
	}
	if len(c.modelRows) > 0 && !paired {
		c.warnings = append(c.warnings, fmt.Sprintf("%s and %s share no question graded in both: every change in compare_models.csv is unpaired (paired = no), "+
			"and a difference mixes the graders' leniency with different questions", c.old.run.Label, c.new.run.Label))
	}
	humans := func(d *runData) map[string]bool {
		h := map[string]bool{}
		if p := d.pops[Humans]; p != nil {
			for e, k := range d.evals {
				if k == study.Human {
					h[e] = true
				}
			}
		}
		return h
	}
	ho, hn := humans(c.old), humans(c.new)
	if len(ho) == 0 || len(hn) == 0 {
		return
	}
	both := 0
	for e := range hn {
		if ho[e] {
			both++
		}
	}
	switch {
	case both == 0:
		c.warnings = append(c.warnings, fmt.Sprintf("no human grader of %s graded %s (%d and %d graders): changes in the human scores mix who graded with what changed",
			c.new.run.Label, c.old.run.Label, len(hn), len(ho)))
	case both < len(hn) || both < len(ho):
		c.warnings = append(c.warnings, fmt.Sprintf("note: %d of %s's %d human graders also graded %s (%d graders): part of a change in the human scores may be who graded",
			both, c.new.run.Label, len(hn), c.old.run.Label, len(ho)))
	}
}

// match is one row of compare_matching.csv.
type match struct{ kind, id, onlyIn, note string }

func (c *comparison) matching() []match {
	var out []match
	keys := make([]string, 0, len(c.opt.Map))
	for k := range c.opt.Map {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, match{"model", k + " → " + c.opt.Map[k], "", "renamed before matching (--map)"})
	}
	one := func(kind string, a, b map[string]bool) {
		var ids []string
		for id := range a {
			if !b[id] {
				ids = append(ids, id)
			}
		}
		for id := range b {
			if !a[id] {
				ids = append(ids, id)
			}
		}
		sort.Strings(ids)
		for _, id := range ids {
			side := "old"
			if b[id] {
				side = "new"
			}
			out = append(out, match{kind, id, side, ""})
		}
	}
	set := func(xs []string) map[string]bool {
		m := map[string]bool{}
		for _, x := range xs {
			m[x] = true
		}
		return m
	}
	one("model", set(c.old.models), set(c.new.models))
	one("question", c.old.questions, c.new.questions)
	ev := func(d *runData, kind string) map[string]bool {
		m := map[string]bool{}
		for id, k := range d.evals {
			if (k == "judge") == (kind == "judge") {
				m[id] = true
			}
		}
		return m
	}
	one("human evaluator", ev(c.old, "human"), ev(c.new, "human"))
	one("judge", ev(c.old, "judge"), ev(c.new, "judge"))
	return out
}

func holm(p []float64) []float64 { return stats.Holm(p) }

// NonInferiority tests whether NEW is not worse than OLD by more than
// margin (> 0), from the change est = new − old, its cluster-robust
// standard error se and degrees of freedom df (stats.RatioContrast): the
// improvement d = est (or −est when lower is better) has the one-sided
// lower confidence bound lo = d − t_{1−alpha, df}·se; NEW is non-inferior
// when lo > −margin, with the one-sided p-value P(T_df ≥ (d + margin)/se);
// equivalent when also d + t_{1−alpha, df}·se < margin (two one-sided
// tests, TOST). NaN and false when est, se or df is not usable.
func NonInferiority(est, se, df, margin float64, higherBetter bool, alpha float64) (lo, p float64, nonInferior, equivalent bool) {
	nan := math.NaN()
	if math.IsNaN(est) || math.IsNaN(se) || !(df > 0) || !(margin > 0) || !(alpha > 0 && alpha < 1) {
		return nan, nan, false, false
	}
	d := est
	if !higherBetter {
		d = -est
	}
	lo, hi := stats.TInterval(d, se, df, 1-2*alpha)
	switch {
	case se == 0 && d > -margin:
		p = 0
	case se == 0:
		p = 1
	default:
		p = stats.StudentTCDF(-(d+margin)/se, df)
	}
	nonInferior = lo > -margin
	return lo, p, nonInferior, nonInferior && hi < margin
}

// higherIsBetter is HigherIsBetter for this comparison: the rubric of a
// lower-is-better study (penalties such as MQM, the first run's
// [rubric] direction) improves downwards.
func (c *comparison) higherIsBetter(metric string) bool {
	if metric == "rubric" && c.old.run.Study != nil && c.old.run.Study.LowerIsBetter {
		return false
	}
	return HigherIsBetter[metric]
}
