package prbench

import (
	"math"
	"slices"

	"github.com/euroexec/euroexec/metrics/stats"
)

// conf2 is a 2×2 confusion of two graders' criterion grades: index a·2 + b
// with a, b ∈ {0 = not met, 1 = met} the grades of grader_a and grader_b.
type conf2 [4]int64

func (c *conf2) addAll(o conf2) {
	for i := range c {
		c[i] += o[i]
	}
}

func (c conf2) n() int64 { return c[0] + c[1] + c[2] + c[3] }

// agreement is the share of cells with equal grades; NaN when empty.
func (c conf2) agreement() float64 {
	n := c.n()
	if n == 0 {
		return math.NaN()
	}
	return float64(c[0]+c[3]) / float64(n)
}

// kappa is Cohen's κ of the confusion, the same operations as
// stats.CohenKappa(a, b, []int{0, 1}, "") on the expanded grades (tested
// to agree bit for bit); NaN when empty or when both graders are constant
// on the same grade.
func (c conf2) kappa() float64 {
	n := c.n()
	if n == 0 {
		return math.NaN()
	}
	rows := [2]int64{c[0] + c[1], c[2] + c[3]} // grader a
	cols := [2]int64{c[0] + c[2], c[1] + c[3]} // grader b
	e01 := float64(cols[0]*rows[1]) / float64(n)
	e10 := float64(cols[1]*rows[0]) / float64(n)
	sum := 0.0
	sum += e01
	sum += e10
	return 1 - float64(c[1]+c[2])/sum
}

// macroF1 is the mean F1 of the classes not met and met with grader_b as
// the reference, the same operations as stats.MacroF1(b, a, []int{0, 1});
// NaN when empty.
func (c conf2) macroF1() float64 {
	if c.n() == 0 {
		return math.NaN()
	}
	var f [2]float64
	for l := 0; l < 2; l++ {
		tp := c[l*2+l]
		fp := c[l*2+1-l]   // a says l, b does not
		fn := c[(1-l)*2+l] // b says l, a does not
		var prec, rec float64
		if tp+fp > 0 {
			prec = float64(tp) / float64(tp+fp)
		}
		if tp+fn > 0 {
			rec = float64(tp) / float64(tp+fn)
		}
		if den := prec + rec; den != 0 {
			f[l] = float64(2*prec*rec) / den
		}
	}
	return stats.Mean(f[:])
}

// expand returns the grade vectors of the confusion.
func (c conf2) expand() (a, b []int) {
	n := c.n()
	a, b = make([]int, 0, n), make([]int, 0, n)
	for i, k := range c {
		for ; k > 0; k-- {
			a = append(a, i/2)
			b = append(b, i%2)
		}
	}
	return a, b
}

// pairAcc holds one pair's confusions per question and category slot
// (slot 0: no category, slot c+1: category c).
type pairAcc struct {
	a, b int
	perQ map[int][]conf2
}

// parityAcc holds, per question, a judge's cells shared with two experts.
type parityAcc struct {
	pairs map[[2]int]bool
	perQ  map[int]*[3]int64 // n cells, #(J = e1) + #(J = e2), #(e1 = e2)
}

// collectPairs walks the units response by response.
func (p *prep) collectPairs() ([]*pairAcc, map[int]*parityAcc) {
	nG := len(p.graders)
	pairs := map[int]*pairAcc{}
	parity := map[int]*parityAcc{}
	nSlots := len(p.cats) + 1
	for start := 0; start < len(p.units); {
		end := start + 1
		for end < len(p.units) && p.units[end].q == p.units[start].q && p.units[end].m == p.units[start].m {
			end++
		}
		group := p.units[start:end]
		q := &p.qs[group[0].q]
		for i := range group {
			for j := i + 1; j < len(group); j++ {
				ua, ub := &group[i], &group[j]
				if !p.graders[ua.g].judge && p.graders[ub.g].judge {
					ua, ub = ub, ua
				}
				key := ua.g*nG + ub.g
				pa := pairs[key]
				if pa == nil {
					pa = &pairAcc{a: ua.g, b: ub.g, perQ: map[int][]conf2{}}
					pairs[key] = pa
				}
				cs := pa.perQ[ua.q]
				if cs == nil {
					cs = make([]conf2, nSlots)
					pa.perQ[ua.q] = cs
				}
				for ci, va := range ua.vals {
					vb := ub.vals[ci]
					if va < 0 || vb < 0 {
						continue
					}
					cs[q.crit[ci].cat+1][int(va)*2+int(vb)]++
				}
			}
		}
		// Judge parity: every judge unit against every pair of expert units.
		for _, uj := range group {
			if !p.graders[uj.g].judge {
				continue
			}
			for i := range group {
				if p.graders[group[i].g].judge {
					continue
				}
				for j := i + 1; j < len(group); j++ {
					if p.graders[group[j].g].judge {
						continue
					}
					e1, e2 := &group[i], &group[j]
					var acc [3]int64
					for ci, vj := range uj.vals {
						v1, v2 := e1.vals[ci], e2.vals[ci]
						if vj < 0 || v1 < 0 || v2 < 0 {
							continue
						}
						acc[0]++
						if vj == v1 {
							acc[1]++
						}
						if vj == v2 {
							acc[1]++
						}
						if v1 == v2 {
							acc[2]++
						}
					}
					if acc[0] == 0 {
						continue
					}
					pa := parity[uj.g]
					if pa == nil {
						pa = &parityAcc{pairs: map[[2]int]bool{}, perQ: map[int]*[3]int64{}}
						parity[uj.g] = pa
					}
					pa.pairs[[2]int{e1.g, e2.g}] = true
					t := pa.perQ[uj.q]
					if t == nil {
						t = new([3]int64)
						pa.perQ[uj.q] = t
					}
					for k := range acc {
						t[k] += acc[k]
					}
				}
			}
		}
		start = end
	}
	var out []*pairAcc
	for _, pa := range pairs {
		out = append(out, pa)
	}
	slices.SortFunc(out, func(x, y *pairAcc) int {
		if c := kindOrder(p, x) - kindOrder(p, y); c != 0 {
			return c
		}
		if x.a != y.a {
			return x.a - y.a
		}
		return x.b - y.b
	})
	return out, parity
}

func kindOrder(p *prep, pa *pairAcc) int {
	ja, jb := p.graders[pa.a].judge, p.graders[pa.b].judge
	switch {
	case ja && !jb:
		return 0
	case !ja && !jb:
		return 1
	}
	return 2
}

func pairKind(p *prep, pa *pairAcc) string {
	return [...]string{"judge-expert", "expert-expert", "judge-judge"}[kindOrder(p, pa)]
}

// agreeRow is the agreement statistics of one breakdown.
type agreeRow struct {
	nQ                  int
	total               conf2
	agr, kap, f1        float64
	agrLo, agrHi, kapLo float64
	kapHi, f1Lo, f1Hi   float64
}

// agreeStats computes the point estimates with stats.CohenKappa and
// stats.MacroF1 and the bootstrap intervals over the clusters.
func (p *prep) agreeStats(clusters []conf2) agreeRow {
	var r agreeRow
	r.nQ = len(clusters)
	for _, c := range clusters {
		r.total.addAll(c)
	}
	a, b := r.total.expand()
	labels := []int{0, 1}
	r.agr = r.total.agreement()
	r.kap, r.f1 = math.NaN(), math.NaN()
	if len(a) > 0 {
		r.kap = stats.CohenKappa(a, b, labels, stats.KappaUnweighted)
		r.f1 = stats.MacroF1(b, a, labels)
	}
	nan := math.NaN()
	r.agrLo, r.agrHi, r.kapLo, r.kapHi, r.f1Lo, r.f1Hi = nan, nan, nan, nan, nan, nan
	if len(clusters) > 0 && p.opt.Bootstrap > 0 {
		reps := stats.ClusterBootstrap(len(clusters), p.opt.Bootstrap, p.opt.Seed, 3, func(idx []int, o []float64) {
			if p.opt.cancelled() {
				return
			}
			var s conf2
			for _, c := range idx {
				s.addAll(clusters[c])
			}
			o[0], o[1], o[2] = s.agreement(), s.kappa(), s.macroF1()
		})
		r.agrLo, r.agrHi = stats.PercentileInterval(reps, 0, level)
		r.kapLo, r.kapHi = stats.PercentileInterval(reps, 1, level)
		r.f1Lo, r.f1Hi = stats.PercentileInterval(reps, 2, level)
	}
	return r
}

// agreementRows are the rows of criterion_agreement and judge_parity.
func (p *prep) agreementRows() ([]AgreementRow, []ParityRow) {
	pairs, parity := p.collectPairs()
	if len(pairs) == 0 {
		p.note("criterion_agreement", "no two graders graded the same (response, criterion) cells; the agreement tables are left out")
		return nil, nil
	}
	var out []AgreementRow
	for _, pa := range pairs {
		qs := make([]int, 0, len(pa.perQ))
		for q := range pa.perQ {
			qs = append(qs, q)
		}
		slices.Sort(qs)
		emit := func(breakdown string, clusters []conf2) {
			if len(clusters) == 0 {
				return
			}
			r := p.agreeStats(clusters)
			c := r.total
			out = append(out, AgreementRow{GraderA: p.graders[pa.a].id, GraderB: p.graders[pa.b].id, PairKind: pairKind(p, pa),
				Breakdown: breakdown, Questions: int64(r.nQ), N: c.n(), BothMet: c[3], AOnly: c[2], BOnly: c[1], Neither: c[0],
				Agreement: Interval{r.agr, r.agrLo, r.agrHi}, Kappa: Interval{r.kap, r.kapLo, r.kapHi}, MacroF1: Interval{r.f1, r.f1Lo, r.f1Hi}})
		}
		sumSlots := func(q int, slot int) conf2 {
			if slot >= 0 {
				return pa.perQ[q][slot]
			}
			var s conf2
			for _, c := range pa.perQ[q] {
				s.addAll(c)
			}
			return s
		}
		collect := func(keep func(q int) bool, slot int) []conf2 {
			var cl []conf2
			for _, q := range qs {
				if keep != nil && !keep(q) {
					continue
				}
				if c := sumSlots(q, slot); c.n() > 0 {
					cl = append(cl, c)
				}
			}
			return cl
		}
		emit("all", collect(nil, -1))
		for _, d := range p.domains {
			emit("domain:"+d, collect(func(q int) bool { return p.qs[q].domain == d }, -1))
		}
		for ci, c := range p.cats {
			emit("category:"+c, collect(nil, ci+1))
		}
	}
	return out, p.parityRows(parity)
}

// parityRows are the rows of judge_parity.
func (p *prep) parityRows(parity map[int]*parityAcc) []ParityRow {
	var out []ParityRow
	for gi, g := range p.graders {
		if !g.judge {
			continue
		}
		pa := parity[gi]
		if pa == nil {
			p.note("judge_parity", "judge %s shares no cells with two experts; its parity is undefined", g.id)
			continue
		}
		qs := make([]int, 0, len(pa.perQ))
		for q := range pa.perQ {
			qs = append(qs, q)
		}
		slices.Sort(qs)
		cl := make([][3]int64, len(qs))
		var tot [3]int64
		for i, q := range qs {
			cl[i] = *pa.perQ[q]
			for k := range tot {
				tot[k] += cl[i][k]
			}
		}
		diff := func(s [3]int64) float64 {
			if s[0] == 0 {
				return math.NaN()
			}
			return float64(s[1]-2*s[2]) / float64(2*s[0])
		}
		lo, hi := math.NaN(), math.NaN()
		if p.opt.Bootstrap > 0 {
			reps := stats.ClusterBootstrap(len(cl), p.opt.Bootstrap, p.opt.Seed, 1, func(idx []int, o []float64) {
				if p.opt.cancelled() {
					return
				}
				var s [3]int64
				for _, c := range idx {
					for k := range s {
						s[k] += cl[c][k]
					}
				}
				o[0] = diff(s)
			})
			lo, hi = stats.PercentileInterval(reps, 0, level)
		}
		if math.IsNaN(lo) {
			p.note("judge_parity", "judge %s: the bootstrap interval is undefined (no replicates), so within_expert_range is empty", g.id)
		}
		out = append(out, ParityRow{Judge: g.id, ExpertPairs: int64(len(pa.pairs)), Questions: int64(len(qs)), N: tot[0],
			JudgeExpert: float64(tot[1]) / float64(2*tot[0]), ExpertExpert: float64(tot[2]) / float64(tot[0]), Difference: diff(tot),
			DifferenceLo: lo, DifferenceHi: hi, ParityMargin: p.opt.ParityMargin, Within: !math.IsNaN(lo) && lo > -p.opt.ParityMargin})
	}
	if len(out) == 0 && len(parity) == 0 {
		p.note("judge_parity", "no judge shares criterion cells with two experts; judge parity is left out")
	}
	return out
}
