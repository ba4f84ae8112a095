package pairwise

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/study"
)

// Verdicts in canonical orientation: the pair's models ordered by name,
// vLow = the first (by name) won, vTie, vHigh = the second won.
const (
	vLow  = 0
	vTie  = 1
	vHigh = 2
)

// population is one grader population's judgments, per question.
type population struct {
	name       string // "humans" or the judge's id
	kind       string
	n          int   // judgments
	posUnknown int64 // judgments whose order shown is unknown

	// Battles deduplicated per question: for question q the entries
	// qStart[q] … qStart[q+1]−1 of cells (cell = (lo·m + hi)·3 + verdict,
	// lo < hi model indices) with their counts.
	qStart []int32
	cells  []int32
	counts []int32

	// Per-question counts (dense, one slot per question).
	posN, posFirst       []int32 // non-tie verdicts; won by the first-shown answer
	swapN, swapSame      []int32 // comparisons judged in both orders; same verdict
	swapConflict         []int32 // … opposite winners
	lenN, lenLonger      []int32 // non-tie, |Δlength| > margin; longer won
	rubN, rubAgree       []int32 // non-tie, both rubric means known and different; rubric order agrees
	hasLen, hasRub, swap bool

	// qs lists the questions with any non-zero count above, with the ten
	// counts in the order of the sShare… constants, for one-pass sums.
	qs []qstat

	// lm are the rows of the length and style model (nil: no judgment of
	// two responses with texts).
	lm *lmData
}

// qstat is one question's position, swap, length and rubric counts.
type qstat struct {
	q int32
	c [10]int32 // posFirst, posN, swapSame, swapN, swapConflict, swapN, lenLonger, lenN, rubAgree, rubN
}

// agreePair is the per-question confusion of two raters: entries of
// (question, cell = 3·reference + other, count), sorted by question.
type agreePair struct {
	a, b   string // grader_a (predicted) and grader_b (reference)
	ra, rb int32  // their grader ids (rb = the majority's pseudo-id)
	q      []int32
	cell   []uint8
	counts []int32
	n      int
}

// prepared is the study reduced to what the bootstrap needs.
type prepared struct {
	models    []string
	questions []string
	pops      []*population
	pairs     []*agreePair
	dropped   int // grader pairs with fewer than MinOverlap comparisons in common
}

// MajorityName is grader_b of the agreement rows against the majority of
// the other human graders.
const MajorityName = "majority of other humans"

// HumansName is the name of the pooled human population.
const HumansName = "humans"

// rec is one comparison in compact form.
type rec struct {
	q, lo, hi int32 // question; the pair's model indices, lo < hi
	ev, run   int32 // grader and run ids
	pop       int32 // population index
	v         uint8 // verdict in canonical orientation (vLow, vTie, vHigh)
	loFirst   bool  // the model lo was shown first
	posKnown  bool  // the order shown is known (else loFirst means nothing)
	human     bool
}

func prepare(s *study.Study, round string, margin, minOverlap int) *prepared {
	p := &prepared{}
	mi, qi := map[string]int32{}, map[string]int32{}
	n := 0
	for _, c := range s.Comparisons {
		if c.Round != round || c.ModelA == c.ModelB {
			continue
		}
		n++
		for _, m := range []string{c.ModelA, c.ModelB} {
			if _, ok := mi[m]; !ok {
				mi[m] = 0
				p.models = append(p.models, m)
			}
		}
		if _, ok := qi[c.QuestionID]; !ok {
			qi[c.QuestionID] = 0
			p.questions = append(p.questions, c.QuestionID)
		}
	}
	if n == 0 {
		return nil
	}
	sort.Strings(p.models)
	sort.Strings(p.questions)
	for i, m := range p.models {
		mi[m] = int32(i)
	}
	for i, q := range p.questions {
		qi[q] = int32(i)
	}
	m, nQ := int32(len(p.models)), len(p.questions)

	// Graders and populations: humans pooled, then each judge by id.
	evID, runID := map[string]int32{}, map[string]int32{}
	var evNames []string
	var evHuman []bool
	popOf := map[string]int32{}
	var judges []string
	hasHumans := false
	for _, c := range s.Comparisons {
		if c.Round != round || c.ModelA == c.ModelB {
			continue
		}
		if _, ok := evID[c.Evaluator]; !ok {
			evID[c.Evaluator] = int32(len(evNames))
			evNames = append(evNames, c.Evaluator)
			evHuman = append(evHuman, c.Kind != study.Judge)
			if c.Kind == study.Judge {
				judges = append(judges, c.Evaluator)
			} else {
				hasHumans = true
			}
		}
	}
	sort.Strings(judges)
	if hasHumans {
		popOf[HumansName] = 0
		p.pops = append(p.pops, &population{name: HumansName, kind: study.Human})
	}
	for _, j := range judges {
		popOf["\x00"+j] = int32(len(p.pops))
		p.pops = append(p.pops, &population{name: j, kind: study.Judge})
	}
	recs := make([]rec, 0, n)
	for _, c := range s.Comparisons {
		if c.Round != round || c.ModelA == c.ModelB {
			continue
		}
		a, b := mi[c.ModelA], mi[c.ModelB]
		v := uint8(vTie)
		switch c.Winner {
		case study.PreferA:
			v = vLow
		case study.PreferB:
			v = vHigh
		}
		r := rec{q: qi[c.QuestionID], lo: a, hi: b, v: v, loFirst: true, posKnown: !c.PositionUnknown, ev: evID[c.Evaluator], human: c.Kind != study.Judge}
		if a > b {
			r.lo, r.hi, r.loFirst = b, a, false
			if v != vTie {
				r.v = 2 - v
			}
		}
		id, ok := runID[c.Run]
		if !ok {
			id = int32(len(runID))
			runID[c.Run] = id
		}
		r.run = id
		if r.human {
			r.pop = popOf[HumansName]
		} else {
			r.pop = popOf["\x00"+c.Evaluator]
		}
		recs = append(recs, r)
	}

	// Response lengths and rubric means, when the study has them, by
	// (question, model) index.
	key := func(q, mod string) (int64, bool) {
		qq, ok1 := qi[q]
		mm, ok2 := mi[mod]
		return int64(qq)*int64(m) + int64(mm), ok1 && ok2
	}
	chars := map[int64]int{}
	styles := map[int64][3]int32{}
	for _, r := range s.Responses {
		if k, ok := key(r.QuestionID, r.Model); ok {
			chars[k] = r.Chars
			if r.HasStyle {
				styles[k] = [3]int32{r.Headers, r.ListItems, r.Bold}
			}
		}
	}
	type rubAcc struct {
		sum float64
		n   int
	}
	rub := make([]map[int64]*rubAcc, len(p.pops))
	if len(s.Attributes) > 0 {
		for _, g := range s.Gradings {
			if g.Round != round {
				continue
			}
			k, ok := key(g.QuestionID, g.Model)
			if !ok {
				continue
			}
			mean, ok := rubricMean(g.Rubric)
			if !ok {
				continue
			}
			var pi int32
			if g.Kind == study.Judge {
				if pi, ok = popOf["\x00"+g.Evaluator]; !ok {
					continue
				}
			} else if pi, ok = popOf[HumansName]; !ok {
				continue
			}
			if rub[pi] == nil {
				rub[pi] = map[int64]*rubAcc{}
			}
			a := rub[pi][k]
			if a == nil {
				a = &rubAcc{}
				rub[pi][k] = a
			}
			a.sum += mean
			a.n++
		}
	}

	for _, pp := range p.pops {
		pp.posN, pp.posFirst = make([]int32, nQ), make([]int32, nQ)
		pp.swapN, pp.swapSame, pp.swapConflict = make([]int32, nQ), make([]int32, nQ), make([]int32, nQ)
		pp.lenN, pp.lenLonger = make([]int32, nQ), make([]int32, nQ)
		pp.rubN, pp.rubAgree = make([]int32, nQ), make([]int32, nQ)
		pp.qStart = make([]int32, nQ+1)
	}
	for _, r := range recs {
		pp := p.pops[r.pop]
		pp.n++
		if !r.posKnown {
			pp.posUnknown++
		}
		if r.v == vTie {
			continue
		}
		if r.posKnown {
			pp.posN[r.q]++
			if (r.v == vLow) == r.loFirst {
				pp.posFirst[r.q]++
			}
		}
		winner, loser := r.lo, r.hi
		if r.v == vHigh {
			winner, loser = loser, winner
		}
		kw, kl := int64(r.q)*int64(m)+int64(winner), int64(r.q)*int64(m)+int64(loser)
		lw, okw := chars[kw]
		ll, okl := chars[kl]
		if okw && okl {
			pp.hasLen = true
			if d := lw - ll; d > margin || -d > margin {
				pp.lenN[r.q]++
				if d > 0 {
					pp.lenLonger[r.q]++
				}
			}
		}
		if rm := rub[r.pop]; rm != nil {
			rw, okw := rm[kw]
			rl, okl := rm[kl]
			if okw && okl {
				pp.hasRub = true
				mw, ml := rw.sum/float64(rw.n), rl.sum/float64(rl.n)
				if mw != ml {
					pp.rubN[r.q]++
					if mw > ml != s.LowerIsBetter { // the winner has the better rubric mean
						pp.rubAgree[r.q]++
					}
				}
			}
		}
	}

	// Battles deduplicated per population and question.
	cellOf := func(r rec) int32 { return (r.lo*m+r.hi)*3 + int32(r.v) }
	slices.SortFunc(recs, func(x, y rec) int {
		if x.pop != y.pop {
			return cmp.Compare(x.pop, y.pop)
		}
		if x.q != y.q {
			return cmp.Compare(x.q, y.q)
		}
		return cmp.Compare(cellOf(x), cellOf(y))
	})
	for i := 0; i < len(recs); {
		pp := p.pops[recs[i].pop]
		j := i
		c := cellOf(recs[i])
		for j < len(recs) && recs[j].pop == recs[i].pop && recs[j].q == recs[i].q && cellOf(recs[j]) == c {
			j++
		}
		pp.cells = append(pp.cells, c)
		pp.counts = append(pp.counts, int32(j-i))
		pp.qStart[recs[i].q+1] = int32(len(pp.cells))
		i = j
	}
	for _, pp := range p.pops {
		for q := 1; q <= nQ; q++ {
			pp.qStart[q] = max(pp.qStart[q], pp.qStart[q-1])
		}
		pp.lm = lmRows(pp, m, nQ, chars, styles)
	}

	// Swap consistency: per grader, run, question and pair, the judgment in
	// each order (the first by verdict if there were several); judgments
	// whose order shown is unknown sort last and are left out.
	slices.SortFunc(recs, func(x, y rec) int {
		switch {
		case x.posKnown != y.posKnown:
			return -cmp.Compare(b2i(x.posKnown), b2i(y.posKnown))
		case x.ev != y.ev:
			return cmp.Compare(x.ev, y.ev)
		case x.run != y.run:
			return cmp.Compare(x.run, y.run)
		case x.q != y.q:
			return cmp.Compare(x.q, y.q)
		case x.lo != y.lo:
			return cmp.Compare(x.lo, y.lo)
		case x.hi != y.hi:
			return cmp.Compare(x.hi, y.hi)
		case x.loFirst != y.loFirst:
			return cmp.Compare(b2i(x.loFirst), b2i(y.loFirst))
		}
		return cmp.Compare(x.v, y.v)
	})
	for i := 0; i < len(recs) && recs[i].posKnown; {
		j := i
		var have [2]bool
		var v [2]uint8
		for j < len(recs) && recs[j].posKnown && recs[j].ev == recs[i].ev && recs[j].run == recs[i].run && recs[j].q == recs[i].q &&
			recs[j].lo == recs[i].lo && recs[j].hi == recs[i].hi {
			o := 0
			if !recs[j].loFirst {
				o = 1
			}
			if !have[o] {
				have[o], v[o] = true, recs[j].v
			}
			j++
		}
		if have[0] && have[1] {
			pp := p.pops[recs[i].pop]
			q := recs[i].q
			pp.swap = true
			pp.swapN[q]++
			if v[0] == v[1] {
				pp.swapSame[q]++
			} else if v[0] != vTie && v[1] != vTie {
				pp.swapConflict[q]++
			}
		}
		i = j
	}
	for _, pp := range p.pops {
		for q := 0; q < nQ; q++ {
			st := qstat{q: int32(q), c: [10]int32{pp.posFirst[q], pp.posN[q], pp.swapSame[q], pp.swapN[q], pp.swapConflict[q], pp.swapN[q],
				pp.lenLonger[q], pp.lenN[q], pp.rubAgree[q], pp.rubN[q]}}
			if st.c != [10]int32{} {
				pp.qs = append(pp.qs, st)
			}
		}
	}
	p.pairs, p.dropped = agreementPairs(recs, evNames, evHuman, minOverlap)
	return p
}

// rubricMean is the mean of a grading's rubric scores present (NaN left out).
func rubricMean(sc []float64) (float64, bool) {
	sum, n := 0.0, 0
	for _, v := range sc {
		if !math.IsNaN(v) {
			sum += v
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// agreementPairs builds the confusion entries of every two graders and of
// each grader against the strict majority of the other humans. A grader's
// verdict on an item (question, unordered model pair) is the sign of
// (wins of the first model by name − wins of the second) over all its
// judgments of the item, both orders and all runs. Rows with fewer than
// minOverlap items are dropped (their number is returned).
func agreementPairs(recs []rec, evNames []string, evHuman []bool, minOverlap int) ([]*agreePair, int) {
	slices.SortFunc(recs, func(x, y rec) int {
		switch {
		case x.q != y.q:
			return cmp.Compare(x.q, y.q)
		case x.lo != y.lo:
			return cmp.Compare(x.lo, y.lo)
		case x.hi != y.hi:
			return cmp.Compare(x.hi, y.hi)
		}
		return cmp.Compare(x.ev, y.ev)
	})
	// Grader order: judges first, then humans, each by id.
	rank := make([]int32, len(evNames))
	ord := make([]int32, len(evNames))
	for i := range ord {
		ord[i] = int32(i)
	}
	less := func(x, y int32) int {
		if evHuman[x] != evHuman[y] {
			if !evHuman[x] {
				return -1
			}
			return 1
		}
		return strings.Compare(evNames[x], evNames[y])
	}
	slices.SortFunc(ord, less)
	for r, e := range ord {
		rank[e] = int32(r)
	}
	majority := int32(len(evNames)) // pseudo-grader id
	pairs := map[[2]int32]*agreePair{}
	add := func(a, b int32, q int32, ref, oth uint8) {
		ap := pairs[[2]int32{a, b}]
		if ap == nil {
			ap = &agreePair{ra: a, rb: b}
			pairs[[2]int32{a, b}] = ap
		}
		cell := 3*ref + oth
		ap.n++
		if n := len(ap.q); n > 0 && ap.q[n-1] == q && ap.cell[n-1] == cell {
			ap.counts[n-1]++
			return
		}
		ap.q = append(ap.q, q)
		ap.cell = append(ap.cell, cell)
		ap.counts = append(ap.counts, 1)
	}
	type gv struct {
		ev    int32
		score int
	}
	var l []gv
	for i := 0; i < len(recs); {
		j := i
		l = l[:0]
		for j < len(recs) && recs[j].q == recs[i].q && recs[j].lo == recs[i].lo && recs[j].hi == recs[i].hi {
			d := 0
			switch recs[j].v {
			case vLow:
				d = 1
			case vHigh:
				d = -1
			}
			if n := len(l); n > 0 && l[n-1].ev == recs[j].ev {
				l[n-1].score += d
			} else {
				l = append(l, gv{recs[j].ev, d})
			}
			j++
		}
		q := recs[i].q
		i = j
		slices.SortFunc(l, func(x, y gv) int { return cmp.Compare(rank[x.ev], rank[y.ev]) })
		var hc [3]int
		nh := 0
		for _, x := range l {
			if evHuman[x.ev] {
				hc[verdict(x.score)]++
				nh++
			}
		}
		for a, x := range l {
			vx := verdict(x.score)
			for _, y := range l[a+1:] {
				add(x.ev, y.ev, q, verdict(y.score), vx)
			}
			c, t := hc, nh
			if evHuman[x.ev] {
				c[vx]--
				t--
			}
			if t == 0 {
				continue
			}
			for v := uint8(0); v < 3; v++ {
				if 2*c[v] > t {
					add(x.ev, majority, q, v, vx)
				}
			}
		}
	}
	var out []*agreePair
	dropped := 0
	for _, ap := range pairs {
		if ap.n < minOverlap {
			dropped++
			continue
		}
		ap.a = evNames[ap.ra]
		if ap.rb == majority {
			ap.b = MajorityName
		} else {
			ap.b = evNames[ap.rb]
		}
		out = append(out, ap)
	}
	// Rows: grader pairs in grader order, then the majority rows.
	slices.SortFunc(out, func(x, y *agreePair) int {
		xm, ym := x.rb == majority, y.rb == majority
		if xm != ym {
			if xm {
				return 1
			}
			return -1
		}
		if c := cmp.Compare(rank[x.ra], rank[y.ra]); c != 0 {
			return c
		}
		if xm {
			return 0
		}
		return cmp.Compare(rank[x.rb], rank[y.rb])
	})
	return out, dropped
}

func verdict(score int) uint8 {
	switch {
	case score > 0:
		return vLow
	case score < 0:
		return vHigh
	}
	return vTie
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
