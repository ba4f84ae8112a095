package pairwise

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/metrics/analysis"
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
	name string // "humans" or the judge's id
	kind string
	n    int // judgments

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
}

// agreePair is the per-question confusion of two raters: entries of
// (question, cell = 3·reference + other, count), sorted by question.
type agreePair struct {
	a, b   string // grader_a (predicted) and grader_b (reference)
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
}

// MajorityName is grader_b of the agreement rows against the majority of
// the other human graders.
const MajorityName = "majority of other humans"

// HumansName is the name of the pooled human population.
const HumansName = "humans"

func prepare(s *analysis.Study, round string, margin int) *prepared {
	var cs []analysis.Comparison
	for _, c := range s.Comparisons {
		if c.Round == round && c.ModelA != c.ModelB {
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		return nil
	}
	p := &prepared{}
	mi, qi := map[string]int32{}, map[string]int32{}
	for _, c := range cs {
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
	sort.Strings(p.models)
	sort.Strings(p.questions)
	for i, m := range p.models {
		mi[m] = int32(i)
	}
	for i, q := range p.questions {
		qi[q] = int32(i)
	}
	m, nQ := int32(len(p.models)), len(p.questions)

	// Response lengths and rubric means, when the study has them.
	type qm struct{ q, m string }
	chars := map[qm]int{}
	for _, r := range s.Responses {
		chars[qm{r.QuestionID, r.Model}] = r.Chars
	}
	type rubAcc struct {
		sum float64
		n   int
	}
	rub := map[string]map[qm]*rubAcc{} // population → (q, model) → mean of grading means
	if len(s.Attributes) > 0 {
		for _, g := range s.Gradings {
			if g.Round != round {
				continue
			}
			mean, ok := rubricMean(g.Rubric)
			if !ok {
				continue
			}
			pn := HumansName
			if g.Kind == analysis.Judge {
				pn = g.Evaluator
			}
			if rub[pn] == nil {
				rub[pn] = map[qm]*rubAcc{}
			}
			a := rub[pn][qm{g.QuestionID, g.Model}]
			if a == nil {
				a = &rubAcc{}
				rub[pn][qm{g.QuestionID, g.Model}] = a
			}
			a.sum += mean
			a.n++
		}
	}

	canon := func(c analysis.Comparison) (lo, hi int32, v uint8) {
		a, b := mi[c.ModelA], mi[c.ModelB]
		v = vTie
		switch c.Winner {
		case analysis.PreferA:
			v = vLow
		case analysis.PreferB:
			v = vHigh
		}
		if a > b {
			a, b = b, a
			if v != vTie {
				v = 2 - v
			}
		}
		return a, b, v
	}

	// Populations: humans pooled, then each judge by id.
	popOf := map[string]*population{}
	var judges []string
	for _, c := range cs {
		name := HumansName
		if c.Kind == analysis.Judge {
			name = c.Evaluator
		}
		if popOf[name] == nil {
			popOf[name] = &population{name: name, kind: c.Kind}
			if c.Kind == analysis.Judge {
				judges = append(judges, name)
			}
		}
	}
	sort.Strings(judges)
	if ph := popOf[HumansName]; ph != nil && ph.kind != analysis.Judge {
		p.pops = append(p.pops, ph)
	}
	for _, j := range judges {
		p.pops = append(p.pops, popOf[j])
	}
	type qc struct{ q, cell int32 }
	keys := map[*population][]qc{}
	type swapKey struct {
		ev, run   string
		q, lo, hi int32
	}
	type swapVal struct {
		v     [2]uint8 // verdict when lo was shown first [0], second [1]
		have  [2]bool
		first bool
	}
	swaps := map[*population]map[swapKey]*swapVal{}
	var swapOrder = map[*population][]swapKey{}
	for _, c := range cs {
		name := HumansName
		if c.Kind == analysis.Judge {
			name = c.Evaluator
		}
		pp := popOf[name]
		if pp.posN == nil {
			pp.posN, pp.posFirst = make([]int32, nQ), make([]int32, nQ)
			pp.swapN, pp.swapSame, pp.swapConflict = make([]int32, nQ), make([]int32, nQ), make([]int32, nQ)
			pp.lenN, pp.lenLonger = make([]int32, nQ), make([]int32, nQ)
			pp.rubN, pp.rubAgree = make([]int32, nQ), make([]int32, nQ)
			swaps[pp] = map[swapKey]*swapVal{}
		}
		q := qi[c.QuestionID]
		lo, hi, v := canon(c)
		pp.n++
		keys[pp] = append(keys[pp], qc{q, (lo*m+hi)*3 + int32(v)})
		if c.Winner != analysis.Tie {
			pp.posN[q]++
			if c.Winner == analysis.PreferA {
				pp.posFirst[q]++
			}
			winner, loser := c.ModelA, c.ModelB
			if c.Winner == analysis.PreferB {
				winner, loser = loser, winner
			}
			lw, okw := chars[qm{c.QuestionID, winner}]
			ll, okl := chars[qm{c.QuestionID, loser}]
			if okw && okl {
				pp.hasLen = true
				if d := lw - ll; d > margin || -d > margin {
					pp.lenN[q]++
					if d > 0 {
						pp.lenLonger[q]++
					}
				}
			}
			if rm := rub[name]; rm != nil {
				rw, okw := rm[qm{c.QuestionID, winner}]
				rl, okl := rm[qm{c.QuestionID, loser}]
				if okw && okl {
					pp.hasRub = true
					mw, ml := rw.sum/float64(rw.n), rl.sum/float64(rl.n)
					if mw != ml {
						pp.rubN[q]++
						if mw > ml {
							pp.rubAgree[q]++
						}
					}
				}
			}
		}
		k := swapKey{c.Evaluator, c.Run, q, lo, hi}
		sv := swaps[pp][k]
		if sv == nil {
			sv = &swapVal{}
			swaps[pp][k] = sv
			swapOrder[pp] = append(swapOrder[pp], k)
		}
		ord := 0
		if mi[c.ModelA] != lo {
			ord = 1
		}
		if !sv.have[ord] {
			sv.have[ord], sv.v[ord] = true, v
		}
	}
	for _, pp := range p.pops {
		for _, k := range swapOrder[pp] {
			sv := swaps[pp][k]
			if sv.have[0] && sv.have[1] {
				pp.swap = true
				pp.swapN[k.q]++
				if sv.v[0] == sv.v[1] {
					pp.swapSame[k.q]++
				} else if sv.v[0] != vTie && sv.v[1] != vTie {
					pp.swapConflict[k.q]++
				}
			}
		}
		ks := keys[pp]
		slices.SortFunc(ks, func(x, y qc) int {
			if x.q != y.q {
				return int(x.q - y.q)
			}
			return int(x.cell - y.cell)
		})
		pp.qStart = make([]int32, nQ+1)
		for i := 0; i < len(ks); {
			j := i
			for j < len(ks) && ks[j] == ks[i] {
				j++
			}
			pp.cells = append(pp.cells, ks[i].cell)
			pp.counts = append(pp.counts, int32(j-i))
			pp.qStart[ks[i].q+1] = int32(len(pp.cells))
			i = j
		}
		for q := 1; q <= nQ; q++ {
			pp.qStart[q] = max(pp.qStart[q], pp.qStart[q-1])
		}
	}
	p.pairs = agreementPairs(cs, qi, canon)
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
// judgments of the item, both orders and all runs.
func agreementPairs(cs []analysis.Comparison, qi map[string]int32, canon func(analysis.Comparison) (int32, int32, uint8)) []*agreePair {
	type item struct{ q, lo, hi int32 }
	type gv struct {
		g     string
		human bool
		score int
	}
	byItem := map[item][]gv{}
	var items []item
	for _, c := range cs {
		lo, hi, v := canon(c)
		it := item{qi[c.QuestionID], lo, hi}
		l, ok := byItem[it]
		if !ok {
			items = append(items, it)
		}
		d := 0
		switch v {
		case vLow:
			d = 1
		case vHigh:
			d = -1
		}
		found := false
		for i := range l {
			if l[i].g == c.Evaluator {
				l[i].score += d
				found = true
				break
			}
		}
		if !found {
			l = append(l, gv{c.Evaluator, c.Kind != analysis.Judge, d})
		}
		byItem[it] = l
	}
	slices.SortFunc(items, func(x, y item) int {
		if x.q != y.q {
			return int(x.q - y.q)
		}
		if x.lo != y.lo {
			return int(x.lo - y.lo)
		}
		return int(x.hi - y.hi)
	})
	verdict := func(score int) uint8 {
		switch {
		case score > 0:
			return vLow
		case score < 0:
			return vHigh
		}
		return vTie
	}
	// Order graders: judges first, then humans, each by id; pair (a, b)
	// with a before b, b the reference.
	less := func(x, y gv) int {
		if x.human != y.human {
			if !x.human {
				return -1
			}
			return 1
		}
		return strings.Compare(x.g, y.g)
	}
	type pk struct{ a, b string }
	pairs := map[pk]*agreePair{}
	var order []*agreePair
	add := func(a, b string, q int32, ref, oth uint8) {
		ap := pairs[pk{a, b}]
		if ap == nil {
			ap = &agreePair{a: a, b: b}
			pairs[pk{a, b}] = ap
			order = append(order, ap)
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
	for _, it := range items {
		l := byItem[it]
		slices.SortFunc(l, less)
		var hc [3]int
		nh := 0
		for _, x := range l {
			if x.human {
				hc[verdict(x.score)]++
				nh++
			}
		}
		for i, x := range l {
			vx := verdict(x.score)
			for _, y := range l[i+1:] {
				add(x.g, y.g, it.q, verdict(y.score), vx)
			}
			// Against the strict majority of the other humans.
			c, t := hc, nh
			if x.human {
				c[vx]--
				t--
			}
			if t == 0 {
				continue
			}
			for v := uint8(0); v < 3; v++ {
				if 2*c[v] > t {
					add(x.g, MajorityName, it.q, v, vx)
				}
			}
		}
	}
	// Rows: grader pairs in grader order, then the majority rows.
	human := map[string]bool{}
	for _, c := range cs {
		human[c.Evaluator] = c.Kind != analysis.Judge
	}
	rank := func(g string) gv { return gv{g: g, human: human[g]} }
	slices.SortFunc(order, func(x, y *agreePair) int {
		xm, ym := x.b == MajorityName, y.b == MajorityName
		if xm != ym {
			if xm {
				return 1
			}
			return -1
		}
		if c := less(rank(x.a), rank(y.a)); c != 0 {
			return c
		}
		if xm {
			return 0
		}
		return less(rank(x.b), rank(y.b))
	})
	// Entries must be sorted by question for the bootstrap (items are).
	return order
}
