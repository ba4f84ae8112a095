package prbench

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"

	"github.com/euroexec/euroexec/study"
)

// clippedScore returns max(raw/max, 0) for integer raw and max, as an
// exact fraction; undefined (the zero Rat) when max = 0.
func clippedScore(raw, pos int64) study.Rat {
	if pos <= 0 {
		return study.Rat{}
	}
	if raw < 0 {
		return study.NewRat(0, pos)
	}
	return study.NewRat(raw, pos)
}

// normalizedScore returns (raw − min)/(max − min) as an exact fraction;
// undefined (the zero Rat) when max = min.
func normalizedScore(raw, pos, neg int64) study.Rat {
	if pos-neg == 0 {
		return study.Rat{}
	}
	return study.NewRat(raw-neg, pos-neg)
}

// exactMean sums fractions exactly (integer numerators per denominator) and
// divides once.
type exactMean struct {
	byDen map[int64]int64
	n     int64
}

func (e *exactMean) add(r study.Rat) {
	if !r.OK() {
		return
	}
	if e.byDen == nil {
		e.byDen = map[int64]int64{}
	}
	e.byDen[r.Den] += r.Num
	e.n++
}

// exact returns the exact mean; nil when empty.
func (e *exactMean) exact() *big.Rat {
	if e.n == 0 {
		return nil
	}
	dens := make([]int64, 0, len(e.byDen))
	for d := range e.byDen {
		dens = append(dens, d)
	}
	slices.Sort(dens)
	s := new(big.Rat)
	for _, d := range dens {
		s.Add(s, big.NewRat(e.byDen[d], d))
	}
	return s.Quo(s, new(big.Rat).SetInt64(e.n))
}

// mean returns the exact mean rounded once to float64; NaN when empty.
func (e *exactMean) mean() float64 {
	r := e.exact()
	if r == nil {
		return math.NaN()
	}
	v, _ := r.Float64()
	return v
}

type crit struct {
	id     string
	w      int64
	cat    int // index into prep.cats; −1 = no category
	catStr string
	graded bool
}

type question struct {
	id, domain string
	tags       []study.Tag
	crit       []crit
	critPos    map[string]int
	hard       bool
}

// unit is one grader's grading of one response.
type unit struct {
	q, m, g    int
	vals       []int8 // per criterion of the question: −1 ungraded, 0 not met, 1 met
	clip, norm study.Rat
}

type grader struct {
	id    string
	judge bool
	pop   int
}

// prep is the indexed study.
type prep struct {
	s       *study.Study
	opt     Options
	qs      []question
	models  []string
	graders []grader
	pops    []string // "humans" then "judge:<id>" in id order
	popJud  []bool
	units   []unit // sorted by (q, m, g)
	cats    []string
	domains []string
	res     *Result
}

func (p *prep) warnf(format string, a ...any) {
	p.res.Warnings = append(p.res.Warnings, fmt.Sprintf(format, a...))
}

func (p *prep) note(table, format string, a ...any) {
	p.res.Notes = append(p.res.Notes, Note{Table: table, Reason: fmt.Sprintf(format, a...)})
}

// checkOptions replaces invalid option values by their defaults.
func (p *prep) checkOptions() {
	d := DefaultOptions()
	o := &p.opt
	if !(o.HardShare > 0 && o.HardShare <= 1) {
		p.warnf("prbench: hard_share %v is not in (0, 1]; using %v", o.HardShare, d.HardShare)
		o.HardShare = d.HardShare
	}
	if o.HardCount < 0 {
		p.warnf("prbench: hard_count %d is negative; using hard_share", o.HardCount)
		o.HardCount = 0
	}
	if !(o.ParityMargin >= 0) || math.IsInf(o.ParityMargin, 0) {
		p.warnf("prbench: parity_margin %v is not a finite non-negative number; using %v", o.ParityMargin, d.ParityMargin)
		o.ParityMargin = d.ParityMargin
	}
	if o.Bootstrap < 0 {
		o.Bootstrap = 0
	}
}

// index builds the prep from the study. It returns false when the study
// has no criteria.
func (p *prep) index() bool {
	s := p.s
	qPos := make(map[string]int, len(s.Questions))
	for _, q := range s.Questions {
		if _, dup := qPos[q.ID]; dup {
			continue
		}
		qPos[q.ID] = len(p.qs)
		p.qs = append(p.qs, question{id: q.ID, domain: q.Domain, tags: q.Tags, critPos: map[string]int{}})
	}
	catSet := map[string]bool{}
	var unknownQ, dupCrit int
	for _, c := range s.Criteria {
		qi, ok := qPos[c.QuestionID]
		if !ok {
			unknownQ++
			continue
		}
		q := &p.qs[qi]
		if _, dup := q.critPos[c.ID]; dup {
			dupCrit++
			continue
		}
		q.critPos[c.ID] = len(q.crit)
		q.crit = append(q.crit, crit{id: c.ID, w: int64(c.Weight), cat: -1, catStr: c.Category})
		if c.Category != "" {
			catSet[c.Category] = true
		}
	}
	if unknownQ > 0 {
		p.warnf("prbench: %d criteria belong to questions not in the study; ignored", unknownQ)
	}
	if dupCrit > 0 {
		p.warnf("prbench: %d criteria repeat a (question, criterion id) already given; the first is used", dupCrit)
	}
	nCrit := 0
	for _, q := range p.qs {
		nCrit += len(q.crit)
	}
	if nCrit == 0 {
		return false
	}
	for c := range catSet {
		p.cats = append(p.cats, c)
	}
	slices.Sort(p.cats)
	catPos := map[string]int{}
	for i, c := range p.cats {
		catPos[c] = i
	}
	for qi := range p.qs {
		for ci := range p.qs[qi].crit {
			c := &p.qs[qi].crit[ci]
			if c.catStr != "" {
				c.cat = catPos[c.catStr]
			}
		}
	}
	domSet := map[string]bool{}
	for _, q := range p.qs {
		if len(q.crit) > 0 {
			domSet[q.domain] = true
		}
	}
	for d := range domSet {
		p.domains = append(p.domains, d)
	}
	slices.Sort(p.domains)
	for qi := range p.qs {
		var pos bool
		for _, c := range p.qs[qi].crit {
			pos = pos || c.w > 0
		}
		if len(p.qs[qi].crit) > 0 && !pos {
			p.warnf("prbench: question %s has no positive-weight criterion; its clipped score is undefined", p.qs[qi].id)
		}
	}

	// Graders and models.
	gKind := map[string]bool{} // id → judge
	mSet := map[string]bool{}
	for _, g := range s.CriterionGrades {
		if _, ok := gKind[g.Evaluator]; !ok {
			gKind[g.Evaluator] = g.Kind == study.Judge
		}
		mSet[g.Model] = true
	}
	for id, j := range gKind {
		p.graders = append(p.graders, grader{id: id, judge: j})
	}
	slices.SortFunc(p.graders, func(a, b grader) int { return cmp.Compare(a.id, b.id) })
	gPos := map[string]int{}
	hasHuman := false
	for i, g := range p.graders {
		gPos[g.id] = i
		hasHuman = hasHuman || !g.judge
	}
	if hasHuman {
		p.pops = append(p.pops, "humans")
		p.popJud = append(p.popJud, false)
	}
	for i := range p.graders {
		if p.graders[i].judge {
			p.graders[i].pop = len(p.pops)
			p.pops = append(p.pops, "judge:"+p.graders[i].id)
			p.popJud = append(p.popJud, true)
		}
	}
	for m := range mSet {
		p.models = append(p.models, m)
	}
	slices.Sort(p.models)
	mPos := map[string]int{}
	for i, m := range p.models {
		mPos[m] = i
	}

	// Units.
	nM, nG := int64(len(p.models)), int64(len(p.graders))
	uPos := map[int64]int{}
	var gUnknownQ, gUnknownC, dupGrade, conflict int
	for _, g := range s.CriterionGrades {
		qi, ok := qPos[g.QuestionID]
		if !ok {
			gUnknownQ++
			continue
		}
		q := &p.qs[qi]
		ci, ok := q.critPos[g.CriterionID]
		if !ok {
			gUnknownC++
			continue
		}
		mi, gi := mPos[g.Model], gPos[g.Evaluator]
		key := (int64(qi)*nM+int64(mi))*nG + int64(gi)
		ui, ok := uPos[key]
		if !ok {
			ui = len(p.units)
			uPos[key] = ui
			vals := make([]int8, len(q.crit))
			for i := range vals {
				vals[i] = -1
			}
			p.units = append(p.units, unit{q: qi, m: mi, g: gi, vals: vals})
		}
		v := int8(0)
		if g.Met {
			v = 1
		}
		u := &p.units[ui]
		if u.vals[ci] >= 0 {
			dupGrade++
			if u.vals[ci] != v {
				conflict++
			}
			continue
		}
		u.vals[ci] = v
		q.crit[ci].graded = true
	}
	if gUnknownQ > 0 {
		p.warnf("prbench: %d criterion grades refer to questions not in the study; ignored", gUnknownQ)
	}
	if gUnknownC > 0 {
		p.warnf("prbench: %d criterion grades refer to criteria not in the criteria table; ignored", gUnknownC)
	}
	if dupGrade > 0 {
		p.warnf("prbench: %d criterion grades repeat a (grader, question, model, criterion) already graded (%d of them disagreeing); the first is used", dupGrade, conflict)
	}
	slices.SortFunc(p.units, func(a, b unit) int {
		return cmp.Or(cmp.Compare(a.q, b.q), cmp.Compare(a.m, b.m), cmp.Compare(a.g, b.g))
	})

	// Scores and missing grades.
	var partial, missing, noClip int
	for ui := range p.units {
		u := &p.units[ui]
		q := &p.qs[u.q]
		var raw, pos, neg int64
		miss := 0
		for ci, v := range u.vals {
			if v < 0 {
				miss++
				continue
			}
			w := q.crit[ci].w
			if w > 0 {
				pos += w
			} else {
				neg += w
			}
			if v == 1 {
				raw += w
			}
		}
		if miss > 0 {
			partial++
			missing += miss
		}
		u.clip = clippedScore(raw, pos)
		u.norm = normalizedScore(raw, pos, neg)
		if !u.clip.OK() {
			noClip++
		}
	}
	if partial > 0 {
		p.warnf("prbench: %d gradings lack grades for some of their question's criteria (%d missing grades in all); each is scored over the criteria it graded", partial, missing)
	}
	if noClip > 0 {
		p.warnf("prbench: %d gradings have no graded positive-weight criterion; their clipped score is undefined and left out of the clipped means", noClip)
	}
	return true
}

// ceilShare returns ⌈share·n⌉ computed exactly on share's shortest decimal
// form, at least 1 and at most n (0 when n = 0).
func ceilShare(share float64, n int) int {
	if n <= 0 {
		return 0
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(share, 'g', -1, 64))
	if !ok {
		return 1
	}
	r.Mul(r, new(big.Rat).SetInt64(int64(n)))
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	k := q.Int64()
	if m.Sign() > 0 {
		k++
	}
	return int(min(max(k, 1), int64(n)))
}
