package paper

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// Instruments of the consistency analyses.
const (
	insExplicit = iota
	insRubric
	insChecklist
	nIns
)

var insNames = [nIns]string{"explicit", "rubric", "checklist"}

// entry is one grading's three orderable values: −rank (so that a larger
// value is better, as for the scores), rubric mean, checklist rate; NaN
// when undefined.
type entry struct {
	e, m int
	val  [nIns]float64
	rat  [nIns]study.Rat // val as exact fractions where known (means over graders are exact)
}

// byQuestion groups a view's gradings per question position, each group
// sorted by (evaluator, model). The groups share one backing array sized
// by a first counting pass (no slack from growing a slice per question).
func (a *run) byQuestion(v *view) [][]entry {
	out := make([][]entry, len(v.questions))
	n := make([]int32, len(v.questions))
	for _, gi := range v.g {
		n[v.qPos[a.p.grades[gi].q]]++
	}
	backing := make([]entry, len(v.g))
	at := 0
	for qi, k := range n {
		out[qi] = backing[at : at : at+int(k)]
		at += int(k)
	}
	for _, gi := range v.g {
		g := &a.p.grades[gi]
		e := entry{e: g.e, m: g.m, val: [nIns]float64{math.NaN(), g.rubMean, g.rate}}
		e.rat[insRubric] = g.rub
		if g.chkExact {
			e.rat[insChecklist] = study.NewRat(g.chkNum, g.chkDen)
		}
		if g.rank > 0 {
			e.val[insExplicit] = -g.rank
			e.rat[insExplicit], _ = study.RatOf(-g.rank)
		}
		qi := v.qPos[g.q]
		out[qi] = append(out[qi], e)
	}
	// (evaluator, model) is unique within a question (one grade per
	// evaluator, response and round; a view holds one round per question),
	// so the order does not depend on the sort algorithm.
	for _, es := range out {
		slices.SortFunc(es, func(x, y entry) int {
			if c := cmp.Compare(x.e, y.e); c != 0 {
				return c
			}
			return cmp.Compare(x.m, y.m)
		})
	}
	return out
}

// splitEvaluators splits a question's entries into per-evaluator runs.
func splitEvaluators(es []entry) [][]entry {
	var out [][]entry
	for i := 0; i < len(es); {
		j := i + 1
		for j < len(es) && es[j].e == es[i].e {
			j++
		}
		out = append(out, es[i:j])
		i = j
	}
	return out
}

// tauOf is Kendall τ-b between two orderings over the models both define
// (lists sorted by model); NaN when undefined. The paired values of a
// question's few models stay on the stack, and stats.KendallTau counts
// their pairs without the p-value KendallTauB would compute.
func tauOf(x []entry, ix int, y []entry, iy int) float64 {
	var ab, bb [16]float64
	a, b := ab[:0], bb[:0]
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		switch {
		case x[i].m < y[j].m:
			i++
		case x[i].m > y[j].m:
			j++
		default:
			if !math.IsNaN(x[i].val[ix]) && !math.IsNaN(y[j].val[iy]) {
				a = append(a, x[i].val[ix])
				b = append(b, y[j].val[iy])
			}
			i++
			j++
		}
	}
	if len(a) < 2 {
		return math.NaN()
	}
	return stats.KendallTau(a, b)
}

// meanAcc accumulates an average of per-unit values per question cluster,
// counting undefined units, with a cluster-bootstrap interval.
type meanAcc struct {
	sum, n    []float64 // per question position
	total     float64
	count     int64
	undefined int64
}

func newMeanAcc(nQ int) *meanAcc { return &meanAcc{sum: make([]float64, nQ), n: make([]float64, nQ)} }

func (m *meanAcc) add(qi int, x float64) {
	if math.IsNaN(x) {
		m.undefined++
		return
	}
	m.sum[qi] += x
	m.n[qi]++
	m.total += x
	m.count++
}

func (m *meanAcc) mean() float64 { return meanOf(m.total, int(m.count)) }

// intervals bootstraps the means of several accumulators over the same
// questions with one shared resample per replicate. The accumulators'
// per-question sums and counts are interleaved (question c's at
// cl[c·2K:]), so that one pass over a replicate's draws adds them all,
// each accumulator's in draw order as when they were added one
// accumulator at a time.
func (a *run) intervals(nQ int, accs []*meanAcc) [][2]float64 {
	K := len(accs)
	cl := make([]float64, nQ*2*K)
	for k, m := range accs {
		for c := range nQ {
			cl[c*2*K+2*k] = m.sum[c]
			cl[c*2*K+2*k+1] = m.n[c]
		}
	}
	pool := sync.Pool{New: func() any { s := make([]float64, 2*K); return &s }}
	reps := a.bootstrap(nQ, K, func(idx []int, o []float64) {
		sp := pool.Get().(*[]float64)
		sn := *sp
		clear(sn)
		for _, c := range idx {
			x := cl[c*2*K : (c+1)*2*K : (c+1)*2*K]
			sn := sn[:len(x)]
			for j, v := range x {
				sn[j] += v
			}
		}
		for k := range K {
			o[k] = ratioF(sn[2*k], sn[2*k+1])
		}
		pool.Put(sp)
	})
	out := make([][2]float64, len(accs))
	for k := range accs {
		out[k][0], out[k][1] = a.interval(reps, k)
	}
	return out
}

// ConsistencyRow is one comparison of Table 6: a mean Kendall τ-b over
// units (within one evaluator's instruments, or across pairs of
// evaluators), or the evaluator-pair Pearson r (both orders).
type ConsistencyRow struct {
	// Comparison is explicit_vs_rubric, explicit_vs_checklist,
	// checklist_vs_rubric, cross_<instrument> or pearson_<instrument>;
	// Scope within, across or pearson.
	Comparison, Scope string
	// Value is the mean τ-b or Pearson r; N the units averaged (τ) or
	// points (Pearson); Undefined the units with an undefined τ.
	Value        float64
	N, Undefined int64
	// Lo and Hi bound the 95 % cluster-bootstrap interval over questions.
	Lo, Hi float64
}

// consistencyTables is Table 6.
func (a *run) consistencyTables() {
	p := a.p
	v := a.view(setAll, -1)
	if len(v.g) == 0 {
		a.leaveOut("consistency", "no human gradings in the main round")
		return
	}
	have := [nIns]bool{p.hasRanks, p.hasRubric, p.hasChecklist}
	bq := a.byQuestion(v)
	nQ := len(bq)
	type cmp struct {
		name  string
		scope string
		x, y  int
	}
	var cmps []cmp
	for _, c := range []cmp{{"explicit_vs_rubric", "within", insExplicit, insRubric},
		{"explicit_vs_checklist", "within", insExplicit, insChecklist},
		{"checklist_vs_rubric", "within", insChecklist, insRubric}} {
		if have[c.x] && have[c.y] {
			cmps = append(cmps, c)
		}
	}
	for k := 0; k < nIns; k++ {
		if have[k] {
			cmps = append(cmps, cmp{"cross_" + insNames[k], "across", k, k})
		}
	}
	accs := make([]*meanAcc, len(cmps))
	for i := range accs {
		accs[i] = newMeanAcc(nQ)
	}
	// The units' τ per question, computed on up to GOMAXPROCS goroutines
	// over blocks of questions into each question's own slots
	// (vals[off[qi]:off[qi+1]], comparison by comparison, units in order),
	// then added in question order, as when they were computed one by one.
	nUnits := func(c cmp, nEv int) int {
		if c.scope == "within" {
			return nEv
		}
		return nEv * (nEv - 1) / 2
	}
	nEv := make([]int, nQ) // evaluators per question
	off := make([]int, nQ+1)
	for qi, es := range bq {
		for i := range es {
			if i == 0 || es[i].e != es[i-1].e {
				nEv[qi]++
			}
		}
		off[qi+1] = off[qi]
		for _, c := range cmps {
			off[qi+1] += nUnits(c, nEv[qi])
		}
	}
	vals := make([]float64, off[nQ])
	const block = 512
	parallelFor((nQ+block-1)/block, func(b int) {
		for qi := b * block; qi < min(nQ, (b+1)*block); qi++ {
			evs := splitEvaluators(bq[qi])
			v := vals[off[qi]:off[qi]:off[qi+1]]
			for _, c := range cmps {
				if c.scope == "within" {
					for _, ev := range evs {
						v = append(v, tauOf(ev, c.x, ev, c.y))
					}
					continue
				}
				for i := 0; i < len(evs); i++ {
					for j := i + 1; j < len(evs); j++ {
						v = append(v, tauOf(evs[i], c.x, evs[j], c.y))
					}
				}
			}
		}
	})
	for qi := range nQ {
		v := vals[off[qi]:off[qi+1]]
		for ci, c := range cmps {
			n := nUnits(c, nEv[qi])
			for _, x := range v[:n] {
				accs[ci].add(qi, x)
			}
			v = v[n:]
		}
	}
	rows := []ConsistencyRow{}
	iv := a.intervals(nQ, accs)
	a.crossTau = map[int]*meanAcc{}
	for ci, c := range cmps {
		m := accs[ci]
		rows = append(rows, ConsistencyRow{Comparison: c.name, Scope: c.scope, Value: m.mean(), N: m.count, Undefined: m.undefined, Lo: iv[ci][0], Hi: iv[ci][1]})
		if c.scope == "across" {
			a.crossTau[c.x] = m
			a.crossIv[c.x] = iv[ci]
		}
	}
	for _, k := range []int{insRubric, insChecklist} {
		if !have[k] {
			continue
		}
		r, n, lo, hi := a.pairPearson(v, bq, k)
		rows = append(rows, ConsistencyRow{Comparison: "pearson_" + insNames[k], Scope: "pearson", Value: r, N: int64(n), Lo: lo, Hi: hi})
	}
	for k := 0; k < nIns; k++ {
		if !have[k] {
			p.note("consistency", "no %s rows: the study has no %s", insNames[k], map[int]string{insExplicit: "preference ranks", insRubric: "rubric", insChecklist: "checklist"}[k])
		}
	}
	a.res.Consistency = rows
}

// pairPearson is the Pearson r between evaluators on instrument k of the
// same response, every unordered pair of evaluators entering in both
// orders, with a cluster-bootstrap interval.
func (a *run) pairPearson(v *view, bq [][]entry, k int) (r float64, n int, lo, hi float64) {
	var x, y []float64
	type mom = [6]float64
	cl := make([]mom, len(bq))
	var pts [][3]float64 // qi, x, y
	for qi, es := range bq {
		byM := map[int][]float64{}
		var ms []int
		for _, e := range es {
			if math.IsNaN(e.val[k]) {
				continue
			}
			if _, ok := byM[e.m]; !ok {
				ms = append(ms, e.m)
			}
			byM[e.m] = append(byM[e.m], e.val[k])
		}
		sort.Ints(ms)
		for _, m := range ms {
			vs := byM[m]
			for i := 0; i < len(vs); i++ {
				for j := i + 1; j < len(vs); j++ {
					x = append(x, vs[i], vs[j])
					y = append(y, vs[j], vs[i])
					pts = append(pts, [3]float64{float64(qi), vs[i], vs[j]}, [3]float64{float64(qi), vs[j], vs[i]})
				}
			}
		}
	}
	r, _ = stats.Pearson(x, y)
	c := stats.Mean(x)
	for _, pt := range pts {
		qi, a, b := int(pt[0]), pt[1]-c, pt[2]-c
		m := &cl[qi]
		m[0]++
		m[1] += a
		m[2] += b
		m[3] += a * a
		m[4] += b * b
		m[5] += a * b
	}
	reps := a.bootstrap(len(bq), 1, func(idx []int, o []float64) {
		var s mom
		for _, q := range idx {
			for j := range s {
				s[j] += cl[q][j]
			}
		}
		o[0] = momentR(s)
	})
	lo, hi = a.interval(reps, 0)
	return r, len(x), lo, hi
}

// momentR is Pearson r from centred moment sums (n, Σx, Σy, Σxx, Σyy, Σxy).
func momentR(s [6]float64) float64 {
	n := s[0]
	if n < 2 {
		return math.NaN()
	}
	sxy := s[5] - s[1]*s[2]/n
	sxx := s[3] - s[1]*s[1]/n
	syy := s[4] - s[2]*s[2]/n
	if sxx <= 0 || syy <= 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}
