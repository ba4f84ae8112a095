package paper

import (
	"cmp"
	"fmt"
	"slices"
)

// view is the gradings one table compares: one set, one grader population,
// the models that pass the coverage rule, and ranks re-derived among them.
type view struct {
	set   string
	judge int // evaluator index of the judge; -1 = all humans
	pop   string

	questions []int   // the set's questions graded by the population, ascending
	qPos      []int32 // question index → position in questions (cluster id); −1 = not in the view
	models    []int   // models compared, ascending (= by name)
	dropped   []int   // models left out by the coverage rule
	coverage  map[int]float64

	g    []int     // grade indexes of the compared models, in Study order
	rank []float64 // re-derived rank per entry of g; 0 = not ranked
	win  []bool    // whether entry wins its (evaluator, question, round)
}

// coverageMin is the share of a set's questions a model must have gradings
// on to be in a table (DESIGN "Ranks per table").
const coverageNum, coverageDen = 9, 10

// makeView selects the gradings of a set and a population. models, when
// not nil, restricts the candidates further.
func (p *prep) makeView(set string, judge int) *view {
	v := &view{set: set, judge: judge, pop: p.popName(judge), coverage: map[int]float64{}}
	nM := p.nM()
	seen := make([]bool, p.nQ())
	graded := make([]bool, p.nQ()*nM) // (question, model) with a grading
	perModel := make([]int64, nM)     // questions per model
	var cand []int
	for i := range p.grades {
		g := &p.grades[i]
		if !inPop(judge, g) || !p.inSet(set, g) {
			continue
		}
		cand = append(cand, i)
		seen[g.q] = true
		if k := g.q*nM + g.m; !graded[k] {
			graded[k] = true
			perModel[g.m]++
		}
	}
	v.qPos = make([]int32, len(seen))
	for q, ok := range seen {
		v.qPos[q] = -1
		if ok {
			v.qPos[q] = int32(len(v.questions))
			v.questions = append(v.questions, q)
		}
	}
	nq := int64(len(v.questions))
	for m := 0; m < nM; m++ {
		if perModel[m] == 0 {
			continue
		}
		c := perModel[m]
		v.coverage[m] = frac(c, nq)
		if c*coverageDen >= coverageNum*nq {
			v.models = append(v.models, m)
		} else {
			v.dropped = append(v.dropped, m)
		}
	}
	in := make([]bool, nM)
	for _, m := range v.models {
		in[m] = true
	}
	for _, i := range cand {
		if in[p.grades[i].m] {
			v.g = append(v.g, i)
		}
	}
	p.deriveRanks(v)
	return v
}

// deriveRanks re-derives each (evaluator, question, round)'s ranks among
// the view's models, keeping the evaluator's order (ties of averaged judge
// ranks broken by model name), so every group has ranks 1..k and exactly
// one winner. The ranked entries are bucketed by question (a counting
// sort on the view's question positions), and each question's few entries
// sorted by (evaluator, round, rank, model): a group is a run of equal
// (evaluator, round), ordered as the group's own sort by (rank, model)
// orders it, which is a strict order (a group has one grade per model).
func (p *prep) deriveRanks(v *view) {
	v.rank = make([]float64, len(v.g))
	v.win = make([]bool, len(v.g))
	nQ := len(v.questions)
	start := make([]int32, nQ+1)
	for _, i := range v.g {
		if g := &p.grades[i]; g.rank > 0 {
			start[v.qPos[g.q]+1]++
		}
	}
	for qi := range nQ {
		start[qi+1] += start[qi]
	}
	ps := make([]int32, start[nQ]) // positions in v.g, by question
	next := append([]int32(nil), start[:nQ]...)
	for pos, i := range v.g {
		if g := &p.grades[i]; g.rank > 0 {
			qi := v.qPos[g.q]
			ps[next[qi]] = int32(pos)
			next[qi]++
		}
	}
	for qi := range nQ {
		b := ps[start[qi]:start[qi+1]]
		slices.SortFunc(b, func(x, y int32) int {
			ga, gb := &p.grades[v.g[x]], &p.grades[v.g[y]]
			if c := cmp.Compare(ga.e, gb.e); c != 0 {
				return c
			}
			if c := cmp.Compare(ga.round, gb.round); c != 0 {
				return c
			}
			if ga.rank != gb.rank {
				return cmp.Compare(ga.rank, gb.rank)
			}
			return cmp.Compare(ga.m, gb.m)
		})
		for i := 0; i < len(b); {
			g0 := &p.grades[v.g[b[i]]]
			j := i
			for ; j < len(b); j++ {
				if g := &p.grades[v.g[b[j]]]; g.e != g0.e || g.round != g0.round {
					break
				}
				v.rank[b[j]] = float64(j - i + 1)
			}
			v.win[b[i]] = true
			i = j
		}
	}
}

// pos returns the position of question q in v.questions (its cluster id)
// and whether the view has it.
func (v *view) pos(q int) (int, bool) {
	i := v.qPos[q]
	return int(i), i >= 0
}

// noteCoverage lists the models a view left out.
func (p *prep) noteCoverage(table string, v *view) {
	for _, m := range v.dropped {
		p.note(table, "model %s left out of set %s, graders %s: gradings on %s of the set's %d questions (needs at least 90 %%)",
			p.s.Models[m].Name, v.set, v.pop, pct(v.coverage[m]), len(v.questions))
	}
}

func pct(x float64) string { return fmt.Sprintf("%.1f %%", 100*x) }
