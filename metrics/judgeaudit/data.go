package judgeaudit

import (
	"math"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/study"

	"github.com/euroexec/euroexec/metrics/scores"
)

// Sufficient statistics per (judge, question). Values that enter squares
// are centred on the judge's overall mean (x0, y0, j0, h0, v0) so that the
// sums do not cancel.
const (
	sN     = iota // responses with a residual
	sR            // Σ residual
	sHn           // human gradings on those responses
	sH1           // Σ (human grading rubric mean − h0)
	sH2           // Σ (… − h0)²
	sLn           // responses with a residual and a text
	sLx           // Σ (log2 chars − x0)
	sLy           // Σ (residual − y0)
	sLxx          // Σ x²
	sLxy          // Σ x·y
	sOwnN         // responses of the judge's provider
	sOwn          // Σ residual there
	sOthN         // responses of other providers
	sOth          // Σ residual there
	sPfN          // run gradings shown first
	sPf           // Σ run residual there
	sPoN          // run gradings shown later
	sPo           // Σ run residual there
	sJ1           // Σ (judge response mean − j0)
	sJ2           // Σ (…)²
	sM1           // Σ (human response mean − h0)
	sM2           // Σ (…)²
	sVn           // run values in responses with ≥ 2 runs (N of Krippendorff's α)
	sV1           // Σ (run value − v0)
	sV2           // Σ (…)²
	sVw           // Σ_u (m_u·S2_u − S1_u²)/(m_u − 1), within-response spread
	sVu           // responses with ≥ 2 runs
	sVmad         // Σ_u mean |difference| between two runs
	sCn           // responses with both checklist rates
	sC            // Σ (judge rate − human rate)
	nFixed        // per-attribute pairs (n, Σ) follow
)

// judgeData is everything Analyze needs about one judge.
type judgeData struct {
	id, provider string
	// cols[k][q] is statistic k summed over question q's responses; nil
	// when the column is all zero.
	cols [][]float64
	// facts for the notes.
	responses, withText, withRuns, withPos, withChk int
	ownProvider, modelsWithProvider, ownN, othN     int
	distinctLen                                     bool
	tauSum                                          float64
	tauN, tauUndef                                  int
	solvedJ, solvedH                                []int
	nQuestions                                      int // questions with an audited response
}

// response is one (question, model) of the round with its human side.
// Its lists are ranges of the slabs of humanSide.
type response struct {
	q        int
	model    string
	hMean    float64 // mean of the human rubric means (exact, study.RatSum); NaN when none
	hRate    float64 // mean human checklist rate; NaN when none
	chars    int     // 0 when no text
	provider string
	// hMeans (the human gradings' defined rubric means) are
	// humanSide.means[mFirst:mFirst+mN], hSolved humanSide.solved[sFirst:sFirst+sN].
	mFirst, mN, sFirst, sN int32
}

// humanSide is the human side of every response of the round: the
// responses, and one slab per list, filled in gradings order.
type humanSide struct {
	resps  []response
	idx    map[[2]string]int32 // (question, model) → index into resps
	means  []float64
	solved []bool
	attr   []float64 // [r*nA+a]: per attribute, mean over humans; NaN when none
}

func (h *humanSide) hMeans(r *response) []float64 { return h.means[r.mFirst : r.mFirst+r.mN] }
func (h *humanSide) hSolved(r *response) []bool   { return h.solved[r.sFirst : r.sFirst+r.sN] }

// prepared is the study reduced to what the audit reads.
type prepared struct {
	round     string
	questions []string
	attrs     []string
	judges    []*judgeData
	hasChk    bool
	humans    bool // some human grading in the round
}

// runVal is one judge run's rubric mean and position.
type runVal struct {
	mean float64
	pos  int
}

// unit is one judge grading of an audited response: gs[g], its response
// resps[r].
type unit struct{ g, r int32 }

// prepare reduces s to the judges' sufficient statistics. It holds no
// per-grading copy: responses live in slabs, a judge's units are index
// pairs, and the runs of a judge grading are read in place from
// Study.Gradings (scores.Grading.Src and Runs) when they lie there
// contiguously, as a study read back from DuckDB has them (else they are
// grouped in a map first, as before).
func prepare(s *study.Study, opt Options) *prepared {
	round := opt.Round
	if round == "" {
		round = s.MainRound
	}
	p := &prepared{round: round, attrs: s.Attributes}
	nA := len(s.Attributes)
	nStat := nFixed + 2*nA
	gs := scores.OrCompute(opt.Graded, s, opt.Scores)
	provOf := map[string]string{}
	for _, m := range s.Models {
		provOf[m.Name] = strings.TrimSpace(m.Provider)
	}
	qIdx := map[string]int{}
	for _, q := range s.Questions {
		qIdx[q.ID] = len(p.questions)
		p.questions = append(p.questions, q.ID)
	}
	qOf := func(id string) int {
		i, ok := qIdx[id]
		if !ok {
			i = len(p.questions)
			qIdx[id] = i
			p.questions = append(p.questions, id)
		}
		return i
	}
	use := func(round, model string) bool { return round == p.round && model != s.HumanLabel }

	h := humanResponses(s, gs, nA, use, qOf, provOf)
	p.humans = len(h.resps) > 0

	// Judges, in evaluator order.
	provJ := map[string]string{}
	for _, e := range s.Evaluators {
		provJ[e.ID] = strings.TrimSpace(e.Provider)
	}
	jIdx := map[string]int{}
	var ids []string
	for i := range gs {
		g := &gs[i]
		if g.Kind == study.Judge && use(g.Round, g.Model) {
			if _, ok := jIdx[g.Evaluator]; !ok {
				jIdx[g.Evaluator] = -1
				ids = append(ids, g.Evaluator)
			}
		}
	}
	sort.Strings(ids)
	for i, id := range ids {
		jIdx[id] = i
		p.judges = append(p.judges, &judgeData{id: id, provider: provJ[id]})
	}
	for _, m := range s.Models {
		if provOf[m.Name] != "" && m.Name != s.HumanLabel {
			for _, jd := range p.judges {
				jd.modelsWithProvider++
				if jd.provider != "" && strings.EqualFold(provOf[m.Name], jd.provider) {
					jd.ownProvider++
				}
			}
		}
	}
	if len(h.resps) == 0 {
		// No response has a human grading: nothing is audited, every
		// statistic is zero (every column nil).
		for _, jd := range p.judges {
			jd.cols = make([][]float64, nStat)
		}
		return p
	}

	// The judge gradings of audited responses, per judge in gradings order.
	units := make([][]unit, len(p.judges))
	for i := range gs {
		g := &gs[i]
		if g.Kind != study.Judge || !use(g.Round, g.Model) {
			continue
		}
		ri, ok := h.idx[[2]string{g.QuestionID, g.Model}]
		if !ok {
			continue // no human grading: not audited
		}
		r := &h.resps[ri]
		ji := jIdx[g.Evaluator]
		jd := p.judges[ji]
		units[ji] = append(units[ji], unit{int32(i), ri})
		for _, hs := range h.hSolved(r) {
			jd.solvedJ = append(jd.solvedJ, b2i(g.Solved))
			jd.solvedH = append(jd.solvedH, b2i(hs))
		}
		if !math.IsNaN(g.ChecklistRate) || !math.IsNaN(r.hRate) {
			p.hasChk = true
		}
	}
	h.idx = nil

	// Run-level values of a judge grading: the rubric mean of each run and
	// its position, in Study.Gradings order.
	runsOf := judgeRuns(s, gs, use)
	var buf []runVal

	nQ := len(p.questions)
	seen := make([]bool, nQ)
	for ji, jd := range p.judges {
		us := units[ji]
		// Centres: means over the units (any fixed value works; the mean
		// keeps the sums small).
		var x0, y0, j0, h0, v0 float64
		var nx, ny, nv, nh int
		firstLen := -1
		for _, u := range us {
			g, r := &gs[u.g], &h.resps[u.r]
			res := g.RubricMean - r.hMean
			if math.IsNaN(res) {
				continue
			}
			y0 += res
			j0 += g.RubricMean
			ny++
			for _, hm := range h.hMeans(r) {
				h0 += hm
				nh++
			}
			if r.chars > 0 {
				x0 += math.Log2(float64(r.chars))
				nx++
			}
			buf = runsOf(int(u.g), buf[:0])
			for _, rv := range buf {
				if !math.IsNaN(rv.mean) {
					v0 += rv.mean
					nv++
				}
			}
		}
		x0, y0, j0, h0, v0 = div(x0, nx), div(y0, ny), div(j0, ny), div(h0, nh), div(v0, nv)
		cols := make([][]float64, nStat)
		col := func(k int) []float64 {
			if cols[k] == nil {
				cols[k] = make([]float64, nQ)
			}
			return cols[k]
		}
		clear(seen)
		var vals []float64
		for _, u := range us {
			g, r := &gs[u.g], &h.resps[u.r]
			q := r.q
			res := g.RubricMean - r.hMean
			if !math.IsNaN(g.ChecklistRate) && !math.IsNaN(r.hRate) {
				col(sCn)[q]++
				col(sC)[q] += g.ChecklistRate - r.hRate
				jd.withChk++
				seen[q] = true
			}
			hAttr := h.attr[int(u.r)*nA : int(u.r+1)*nA]
			for a := 0; a < nA && a < len(g.Rubric); a++ {
				if d := g.Rubric[a] - hAttr[a]; !math.IsNaN(d) {
					col(nFixed + 2*a)[q]++
					col(nFixed + 2*a + 1)[q] += d
				}
			}
			if math.IsNaN(res) {
				continue
			}
			jd.responses++
			seen[q] = true
			col(sN)[q]++
			col(sR)[q] += res
			for _, hm := range h.hMeans(r) {
				col(sHn)[q]++
				col(sH1)[q] += hm - h0
				col(sH2)[q] += (hm - h0) * (hm - h0)
			}
			dj, dm := g.RubricMean-j0, r.hMean-h0
			col(sJ1)[q] += dj
			col(sJ2)[q] += dj * dj
			col(sM1)[q] += dm
			col(sM2)[q] += dm * dm
			if r.chars > 0 {
				jd.withText++
				if firstLen < 0 {
					firstLen = r.chars
				} else if r.chars != firstLen {
					jd.distinctLen = true
				}
				x, y := math.Log2(float64(r.chars))-x0, res-y0
				col(sLn)[q]++
				col(sLx)[q] += x
				col(sLy)[q] += y
				col(sLxx)[q] += x * x
				col(sLxy)[q] += x * y
			}
			if jd.provider != "" && r.provider != "" {
				if strings.EqualFold(jd.provider, r.provider) {
					col(sOwnN)[q]++
					col(sOwn)[q] += res
					jd.ownN++
				} else {
					col(sOthN)[q]++
					col(sOth)[q] += res
					jd.othN++
				}
			}
			vals = vals[:0]
			buf = runsOf(int(u.g), buf[:0])
			for _, rv := range buf {
				if math.IsNaN(rv.mean) {
					continue
				}
				vals = append(vals, rv.mean)
				if rv.pos > 0 {
					jd.withPos++
					rr := rv.mean - r.hMean
					if rv.pos == 1 {
						col(sPfN)[q]++
						col(sPf)[q] += rr
					} else {
						col(sPoN)[q]++
						col(sPo)[q] += rr
					}
				}
			}
			if m := len(vals); m >= 2 {
				jd.withRuns++
				var s1, s2, c1, c2, mad float64
				c := meanOf(vals)
				for _, v := range vals {
					s1 += v - v0
					s2 += (v - v0) * (v - v0)
					c1 += v - c
					c2 += (v - c) * (v - c)
				}
				for a := 0; a < m; a++ {
					for b := a + 1; b < m; b++ {
						mad += math.Abs(vals[a] - vals[b])
					}
				}
				col(sVn)[q] += float64(m)
				col(sV1)[q] += s1
				col(sV2)[q] += s2
				col(sVw)[q] += (float64(m)*c2 - c1*c1) / float64(m-1)
				col(sVu)[q]++
				col(sVmad)[q] += mad / float64(m*(m-1)/2)
			}
		}
		for _, b := range seen {
			if b {
				jd.nQuestions++
			}
		}
		for k, c := range cols {
			if c != nil && allZero(c) {
				cols[k] = nil
			}
		}
		jd.cols = cols
		jd.tauSum, jd.tauN, jd.tauUndef = table8Tau(us2tau(us, func(u unit) (int, string, float64, float64) {
			r := &h.resps[u.r]
			return r.q, r.model, gs[u.g].RubricMean, r.hMean
		}))
		units[ji] = nil
	}
	return p
}

// humanResponses gathers the human side of every response of the round
// (use) that has a human grading, in two passes over gs: the first makes
// the responses, their sums and list sizes; the second fills the lists'
// slabs in gradings order.
func humanResponses(s *study.Study, gs []scores.Grading, nA int, use func(round, model string) bool,
	qOf func(string) int, provOf map[string]string) *humanSide {
	// Capacity for every response of the study (a round's human gradings
	// name at most these, bar responses missing from the dumps): the lists
	// grow once instead of doubling, which at 40,000 questions left ~150 MB
	// of garbage while the later analyses ran.
	n := len(s.Responses)
	h := &humanSide{idx: make(map[[2]string]int32, n), resps: make([]response, 0, n), attr: make([]float64, 0, n*nA)}
	sums := make([]study.RatSum, 0, n) // per response: the exact sum of the rubric means
	rateSum := make([]float64, 0, n)
	rateN := make([]int32, 0, n)
	attrN := make([]int32, 0, n*nA)
	for i := range gs {
		g := &gs[i]
		if g.Kind != study.Human || !use(g.Round, g.Model) {
			continue
		}
		k := [2]string{g.QuestionID, g.Model}
		ri, ok := h.idx[k]
		if !ok {
			ri = int32(len(h.resps))
			h.idx[k] = ri
			h.resps = append(h.resps, response{q: qOf(g.QuestionID), model: g.Model, provider: provOf[g.Model]})
			sums = append(sums, study.RatSum{})
			rateSum, rateN = append(rateSum, 0), append(rateN, 0)
			for range nA {
				h.attr, attrN = append(h.attr, 0), append(attrN, 0)
			}
		}
		r := &h.resps[ri]
		if !math.IsNaN(g.RubricMean) {
			r.mN++
			sums[ri].Add(g.RubricRat, g.RubricMean)
		}
		if !math.IsNaN(g.ChecklistRate) {
			rateSum[ri] += g.ChecklistRate
			rateN[ri]++
		}
		at := h.attr[int(ri)*nA : int(ri+1)*nA]
		an := attrN[int(ri)*nA : int(ri+1)*nA]
		for j, v := range g.Rubric {
			if !math.IsNaN(v) {
				at[j] += v
				an[j]++
			}
		}
		r.sN++
	}
	if len(h.resps) == 0 {
		return h
	}
	var nM, nS int32
	for ri := range h.resps {
		r := &h.resps[ri]
		r.mFirst, r.sFirst = nM, nS
		nM, nS = nM+r.mN, nS+r.sN
		r.mN, r.sN = 0, 0 // counted again while filling
		// The exact mean, as Table 8's mean-human ranking has it, so that
		// equal means tie.
		r.hMean = sums[ri].Mean()
		r.hRate = div(rateSum[ri], int(rateN[ri]))
		for j := range nA {
			k := ri*nA + j
			if attrN[k] > 0 {
				h.attr[k] /= float64(attrN[k])
			} else {
				h.attr[k] = math.NaN()
			}
		}
	}
	h.means, h.solved = make([]float64, nM), make([]bool, nS)
	for i := range gs {
		g := &gs[i]
		if g.Kind != study.Human || !use(g.Round, g.Model) {
			continue
		}
		r := &h.resps[h.idx[[2]string{g.QuestionID, g.Model}]]
		if !math.IsNaN(g.RubricMean) {
			h.means[r.mFirst+r.mN] = g.RubricMean
			r.mN++
		}
		h.solved[r.sFirst+r.sN] = g.Solved
		r.sN++
	}
	chars := responseChars(s, h)
	for ri := range h.resps {
		h.resps[ri].chars = chars[ri]
	}
	return h
}

// responseChars returns the text length of each response of h (0 when it
// has no text or is not in s.Responses).
func responseChars(s *study.Study, h *humanSide) []int {
	out := make([]int, len(h.resps))
	for _, r := range s.Responses {
		if r.Chars > 0 { // texts may be dropped by now; their lengths stay
			if ri, ok := h.idx[[2]string{r.QuestionID, r.Model}]; ok {
				out[ri] = r.Chars
			}
		}
	}
	return out
}

// judgeRuns returns a function that appends to buf the runs (rubric mean
// of each run, position) of the judge grading gs[i] in Study.Gradings
// order. When every scored grading's runs are Study.Gradings[Src :
// Src+Runs] (checked here, once) they are read there; else the judge
// gradings of the round are grouped by (evaluator, question, model) first.
func judgeRuns(s *study.Study, gs []scores.Grading, use func(round, model string) bool) func(i int, buf []runVal) []runVal {
	if runsInPlace(s.Gradings, gs) {
		return func(i int, buf []runVal) []runVal {
			g := &gs[i]
			for k := int(g.Src); k < int(g.Src)+int(g.Runs); k++ {
				if r := &s.Gradings[k]; r.Kind == study.Judge {
					buf = append(buf, runVal{mean: rubricMean(r.Rubric), pos: r.Position})
				}
			}
			return buf
		}
	}
	runs := map[[3]string][]runVal{}
	for i := range s.Gradings {
		g := &s.Gradings[i]
		if g.Kind != study.Judge || !use(g.Round, g.Model) {
			continue
		}
		k := [3]string{g.Evaluator, g.QuestionID, g.Model}
		runs[k] = append(runs[k], runVal{mean: rubricMean(g.Rubric), pos: g.Position})
	}
	return func(i int, buf []runVal) []runVal {
		g := &gs[i]
		return append(buf, runs[[3]string{g.Evaluator, g.QuestionID, g.Model}]...)
	}
}

// runsInPlace reports whether the runs of every scored grading g are
// exactly rows[g.Src : g.Src+g.Runs]: each such range holds only rows of
// g's (round, question, model, evaluator), the ranges do not overlap, and
// together they cover rows.
func runsInPlace(rows []study.Grading, gs []scores.Grading) bool {
	covered := make([]bool, len(rows))
	n := 0
	for i := range gs {
		g := &gs[i]
		lo, hi := int(g.Src), int(g.Src)+int(g.Runs)
		if g.Runs < 1 || lo < 0 || hi > len(rows) {
			return false
		}
		for k := lo; k < hi; k++ {
			r := &rows[k]
			if covered[k] || r.Round != g.Round || r.QuestionID != g.QuestionID || r.Model != g.Model || r.Evaluator != g.Evaluator {
				return false
			}
			covered[k] = true
		}
		n += hi - lo
	}
	return n == len(rows)
}

func allZero(c []float64) bool {
	for _, v := range c {
		if v != 0 {
			return false
		}
	}
	return true
}

// tauUnit is one response for Table 8's τ.
type tauUnit struct {
	q     int
	model string
	j, h  float64
}

func us2tau[T any](us []T, f func(T) (int, string, float64, float64)) []tauUnit {
	out := make([]tauUnit, 0, len(us))
	for _, u := range us {
		q, m, j, h := f(u)
		if !math.IsNaN(j) && !math.IsNaN(h) {
			out = append(out, tauUnit{q, m, j, h})
		}
	}
	return out
}

func rubricMean(r []float64) float64 {
	var s float64
	n := 0
	for _, v := range r {
		if !math.IsNaN(v) {
			s += v
			n++
		}
	}
	return div(s, n)
}

func meanOf(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return div(s, len(x))
}

func div(s float64, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return s / float64(n)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
