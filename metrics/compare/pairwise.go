package compare

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/euroexec/euroexec/metrics/pairwise"
	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// Tables of the pairwise judgments' comparison.
const (
	PairwiseTable      = "compare_pairwise"
	PairwiseDriftTable = "pairwise_judge_drift"
)

// pwBattle is one run's judgments of an unordered model pair on a
// question: n judgments, s2 = 2·wins + ties of the pair's first model.
type pwBattle struct {
	q, lo, hi int32
	s2, n     int64
}

// pwRow is one row of compare_pairwise.
type pwRow struct {
	pop, model, metric string
	old, new, delta    float64
	lo, hi, p          float64
	n                  [2]int64
	significant        bool
}

// pwDrift is one row of pairwise_judge_drift.
type pwDrift struct {
	judge            string
	items, changed   int64
	agree, kappa, f1 float64
	agreeLo, agreeHi float64
	kappaLo, kappaHi float64
}

// pairwiseRuns compares OLD's and NEW's pairwise judgments (main rounds):
// per grader population (humans pooled, each judge) and model present in
// both runs, the win rate and the Bradley–Terry rating over the judgments
// between such models, with paired cluster-bootstrap intervals of the
// change (questions drawn once for both runs); and per judge of both runs,
// its agreement with itself over the items (question, model pair) it
// judged in both.
func (c *comparison) pairwiseRuns(ctx context.Context) ([]pwRow, []pwDrift, error) {
	runs := [2]*study.Study{c.old.run.Study, c.new.run.Study}
	names := [2]func(string) string{renamer(runs[0], c.opt.Map), renamer(runs[1], c.opt.Map)}
	popsOf := func(s *study.Study) map[string]bool {
		out := map[string]bool{}
		for _, cm := range s.Comparisons {
			if cm.Round == s.MainRound && cm.ModelA != cm.ModelB {
				out[popName(cm)] = true
			}
		}
		return out
	}
	p0, p1 := popsOf(runs[0]), popsOf(runs[1])
	var pops []string
	for p := range p0 {
		if p1[p] {
			pops = append(pops, p)
		}
	}
	sort.Slice(pops, func(i, j int) bool {
		if (pops[i] == Humans) != (pops[j] == Humans) {
			return pops[i] == Humans
		}
		return pops[i] < pops[j]
	})
	var rows []pwRow
	var drift []pwDrift
	for _, pop := range pops {
		// Models judged by the population in both runs.
		in := [2]map[string]bool{{}, {}}
		for r, s := range runs {
			for _, cm := range s.Comparisons {
				if cm.Round == s.MainRound && cm.ModelA != cm.ModelB && popName(cm) == pop {
					in[r][names[r](cm.ModelA)], in[r][names[r](cm.ModelB)] = true, true
				}
			}
		}
		var models []string
		for m := range in[0] {
			if in[1][m] {
				models = append(models, m)
			}
		}
		sort.Strings(models)
		if len(models) < 2 {
			continue
		}
		mi := map[string]int32{}
		for i, m := range models {
			mi[m] = int32(i)
		}
		qi := map[string]int32{}
		var battles [2][]pwBattle
		for r, s := range runs {
			acc := map[[3]int32]*pwBattle{}
			var order [][3]int32
			for _, cm := range s.Comparisons {
				if cm.Round != s.MainRound || cm.ModelA == cm.ModelB || popName(cm) != pop {
					continue
				}
				a, okA := mi[names[r](cm.ModelA)]
				b, okB := mi[names[r](cm.ModelB)]
				if !okA || !okB {
					continue
				}
				q, ok := qi[cm.QuestionID]
				if !ok {
					q = int32(len(qi))
					qi[cm.QuestionID] = q
				}
				s2 := map[study.Preference]int64{study.PreferA: 2, study.Tie: 1, study.PreferB: 0}[cm.Winner]
				if a > b {
					a, b, s2 = b, a, 2-s2
				}
				k := [3]int32{q, a, b}
				bt := acc[k]
				if bt == nil {
					bt = &pwBattle{q: q, lo: a, hi: b}
					acc[k] = bt
					order = append(order, k)
				}
				bt.s2 += s2
				bt.n++
			}
			for _, k := range order {
				battles[r] = append(battles[r], *acc[k])
			}
		}
		k := len(models)
		nQ := len(qi)
		// stat fills, per run, k win rates then k ratings.
		stat := func(wt []int32, out []float64) {
			w := make([]float64, k*k)
			for r := 0; r < 2; r++ {
				num, den := make([]float64, k), make([]float64, k)
				clear(w)
				for _, b := range battles[r] {
					f := float64(wt[b.q])
					if f == 0 {
						continue
					}
					s2, n2 := f*float64(b.s2), f*float64(2*b.n)
					num[b.lo] += s2
					num[b.hi] += n2 - s2
					den[b.lo] += n2
					den[b.hi] += n2
					w[int(b.lo)*k+int(b.hi)] += s2 / 2
					w[int(b.hi)*k+int(b.lo)] += (n2 - s2) / 2
				}
				fit := pairwise.FitBradleyTerry(w, k, 0.01)
				for i := 0; i < k; i++ {
					out[r*2*k+i] = num[i] / den[i]
					out[r*2*k+k+i] = pairwise.Rating(fit.Beta[i])
				}
			}
		}
		ones := make([]int32, nQ)
		for i := range ones {
			ones[i] = 1
		}
		point := make([]float64, 4*k)
		stat(ones, point)
		var reps [][]float64
		if c.opt.Bootstrap > 0 {
			reps = stats.ClusterBootstrap(nQ, c.opt.Bootstrap, c.opt.Seed, 4*k, func(idx []int, out []float64) {
				if ctx.Err() != nil {
					return
				}
				wt := make([]int32, nQ)
				for _, q := range idx {
					wt[q]++
				}
				stat(wt, out)
			})
			if err := ctx.Err(); err != nil {
				return nil, nil, fmt.Errorf("compare: %w", err)
			}
		}
		var nj [2][]int64
		for r := 0; r < 2; r++ {
			nj[r] = make([]int64, k)
			for _, b := range battles[r] {
				nj[r][b.lo] += b.n
				nj[r][b.hi] += b.n
			}
		}
		for j, metric := range []string{"win_rate", "bt_rating"} {
			for i, m := range models {
				o, n := j*k+i, 2*k+j*k+i
				row := pwRow{pop: pop, model: m, metric: metric, old: point[o], new: point[n], delta: point[n] - point[o],
					lo: math.NaN(), hi: math.NaN(), p: math.NaN(), n: [2]int64{nj[0][i], nj[1][i]}}
				if reps != nil {
					d := column(reps, func(x []float64) float64 { return x[n] - x[o] })
					var se float64
					row.lo, row.hi, se = interval(d)
					row.p = pValue(row.delta, se)
				}
				rows = append(rows, row)
			}
		}
		if pop == Humans {
			continue
		}
		// Judge drift: per item judged in both runs, the verdict of each.
		verdict := func(b pwBattle) int {
			switch d := b.s2 - b.n; {
			case d > 0:
				return 0
			case d < 0:
				return 2
			}
			return 1
		}
		type item struct{ q, lo, hi int32 }
		oldV := map[item]int{}
		for _, b := range battles[0] {
			oldV[item{b.q, b.lo, b.hi}] = verdict(b)
		}
		type cell struct {
			q int32
			c int
		}
		var cells []cell
		for _, b := range battles[1] {
			if v, ok := oldV[item{b.q, b.lo, b.hi}]; ok {
				cells = append(cells, cell{b.q, 3*v + verdict(b)})
			}
		}
		if len(cells) == 0 {
			continue
		}
		conf := func(wt []int32) [9]int64 {
			var cf [9]int64
			for _, x := range cells {
				cf[x.c] += int64(wt[x.q])
			}
			return cf
		}
		cf := conf(ones)
		dr := pwDrift{judge: pop, items: int64(len(cells)), agreeLo: math.NaN(), agreeHi: math.NaN(), kappaLo: math.NaN(), kappaHi: math.NaN()}
		dr.changed = dr.items - cf[0] - cf[4] - cf[8]
		dr.agree, dr.kappa, dr.f1 = pairwise.SymmetricAgreement(cf)
		if c.opt.Bootstrap > 0 {
			dreps := stats.ClusterBootstrap(nQ, c.opt.Bootstrap, c.opt.Seed, 2, func(idx []int, out []float64) {
				wt := make([]int32, nQ)
				for _, q := range idx {
					wt[q]++
				}
				out[0], out[1], _ = pairwise.SymmetricAgreement(conf(wt))
			})
			dr.agreeLo, dr.agreeHi = stats.PercentileInterval(dreps, 0, 0.95)
			dr.kappaLo, dr.kappaHi = stats.PercentileInterval(dreps, 1, 0.95)
		}
		drift = append(drift, dr)
	}
	// Holm over every change with a p-value.
	var ps []float64
	var at []int
	for i, r := range rows {
		if !math.IsNaN(r.p) {
			ps, at = append(ps, r.p), append(at, i)
		}
	}
	for j, p := range holm(ps) {
		rows[at[j]].significant = p < c.opt.Alpha
	}
	return rows, drift, nil
}

// popName is a pairwise judgment's population: humans, or the judge's id.
func popName(c study.Comparison) string {
	if c.Kind == study.Judge {
		return c.Evaluator
	}
	return Humans
}

// pValue is the two-sided normal-approximation p-value of an estimate
// with the bootstrap standard error se (1 when both are 0, 0 when only se
// is): the pairwise changes' test, whose Bradley–Terry refits have no
// closed-form variance. It is continuous in the data, so its resolution
// does not depend on the number of replicates.
func pValue(est, se float64) float64 {
	switch {
	case math.IsNaN(est) || math.IsNaN(se):
		return math.NaN()
	case se == 0 && est == 0:
		return 1
	case se == 0:
		return 0
	}
	return math.Erfc(math.Abs(est) / se / math.Sqrt2)
}
