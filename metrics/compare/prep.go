package compare

import (
	"crypto/sha256"
	"math"
	"math/big"
	"sort"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/scores"
)

// Per-(question, model) accumulator layout.
const (
	acSolvedN = iota // gradings
	acSolved         // solved gradings
	acRankedN        // ranked gradings
	acRankSum        // sum of re-derived ranks
	acWins           // gradings ranking the model first
	acRubN           // gradings with a rubric mean
	acRubSum         // sum of rubric means
	acChkN           // gradings with a checklist rate
	acChkSum         // sum of checklist rates
	acLen
)

// exact holds one model's exact totals for the published point estimates:
// integer counts and rational sums (no float accumulation).
type exact struct {
	solvedN, solved, rankedN, rankSum, wins int64
	rub, chk                                fracSum
}

// fracSum is an exact sum of fractions, grouped by denominator, plus the
// values that are only known as floats (summed in data order), as the
// summary table sums rubric means and checklist rates.
type fracSum struct {
	byDen   map[int64]int64
	fl      float64
	inexact bool
	n       int64
}

func (f *fracSum) add(num, den int64) {
	if f.byDen == nil {
		f.byDen = map[int64]int64{}
	}
	f.byDen[den] += num
	f.n++
}

func (f *fracSum) addFloat(x float64) {
	f.fl += x
	f.inexact = true
	f.n++
}

// mean is the sum over the number of terms; NaN when empty.
func (f *fracSum) mean() float64 {
	if f.n == 0 {
		return math.NaN()
	}
	dens := make([]int64, 0, len(f.byDen))
	for d := range f.byDen {
		dens = append(dens, d)
	}
	sort.Slice(dens, func(i, j int) bool { return dens[i] < dens[j] })
	s := new(big.Rat)
	for _, d := range dens {
		s.Add(s, big.NewRat(f.byDen[d], d))
	}
	if f.inexact {
		v, _ := s.Float64()
		return (v + f.fl) / float64(f.n)
	}
	s.Quo(s, new(big.Rat).SetInt64(f.n))
	v, _ := s.Float64()
	return v
}

func (e *exact) values() [5]float64 {
	ratio := func(n, d int64) float64 {
		if d == 0 {
			return math.NaN()
		}
		return float64(n) / float64(d)
	}
	return [5]float64{ratio(e.solved, e.solvedN), e.rub.mean(), e.chk.mean(),
		ratio(e.rankSum, e.rankedN), ratio(e.wins, e.rankedN)}
}

// pop is one grader population of one run.
type pop struct {
	qIDs  []string       // questions with gradings, ascending
	qIdx  map[string]int // question id → position in qIDs
	acc   []float64      // (q·nM + m)·acLen, m indexing runData.models
	ex    []exact        // per model
	has   []bool         // per model: any grading
	perQM map[[2]int]bool
}

// judgeScore is one judge's (run-averaged) grading of one response.
type judgeScore struct {
	rubric float64
	solved bool
}

// runData is one run, indexed.
type runData struct {
	run      Run
	models   []string // matched names, ascending
	mIdx     map[string]int
	pops     map[string]*pop
	popOrder []string // humans first, then judges by id
	// respHash and respChars are per (question, model) of the run's responses.
	respHash  map[[2]string][32]byte
	respChars map[[2]string]int
	judges    map[string]map[[2]string]judgeScore // judge id → (question, model) → score
	questions map[string]bool
	evals     map[string]string // evaluator id → kind
}

// prepare indexes one run: its gradings of the main round, the human label
// left out, scored by metrics/scores with the run's Solve rule.
func prepare(r Run, rename map[string]string) *runData {
	s := r.Study
	name := renamer(s, rename)
	d := &runData{run: r, mIdx: map[string]int{}, pops: map[string]*pop{},
		respHash: map[[2]string][32]byte{}, respChars: map[[2]string]int{},
		judges: map[string]map[[2]string]judgeScore{}, questions: map[string]bool{}, evals: map[string]string{}}
	for _, q := range s.Questions {
		d.questions[q.ID] = true
	}
	for _, e := range s.Evaluators {
		d.evals[e.ID] = e.Kind
	}
	for _, m := range s.Models {
		if m.Name == s.HumanLabel {
			continue
		}
		d.mIdx[name(m.Name)] = 0
	}
	for m := range d.mIdx {
		d.models = append(d.models, m)
	}
	sort.Strings(d.models)
	for i, m := range d.models {
		d.mIdx[m] = i
	}
	for _, rs := range s.Responses {
		k := [2]string{rs.QuestionID, name(rs.Model)}
		if rs.Text != "" {
			d.respHash[k] = sha256.Sum256([]byte(rs.Text))
		}
		d.respChars[k] = rs.Chars
	}
	gs := scores.Compute(s, r.Scores)
	// Keep the main round's gradings of compared models; find each
	// population's questions.
	var keep []int
	popOf := func(g *scores.Grading) string {
		if g.Kind == analysis.Judge {
			return "judge:" + g.Evaluator
		}
		return Humans
	}
	qsets := map[string]map[string]bool{}
	for i := range gs {
		g := &gs[i]
		if g.Round != s.MainRound || g.Model == s.HumanLabel {
			continue
		}
		g.Model = name(g.Model)
		if _, ok := d.mIdx[g.Model]; !ok {
			continue
		}
		keep = append(keep, i)
		p := popOf(g)
		if qsets[p] == nil {
			qsets[p] = map[string]bool{}
		}
		qsets[p][g.QuestionID] = true
		if g.Kind == analysis.Judge {
			if d.judges[g.Evaluator] == nil {
				d.judges[g.Evaluator] = map[[2]string]judgeScore{}
			}
			d.judges[g.Evaluator][[2]string{g.QuestionID, g.Model}] = judgeScore{rubric: g.RubricMean, solved: g.Solved}
		}
	}
	nM := len(d.models)
	for p, qs := range qsets {
		pp := &pop{qIdx: map[string]int{}, ex: make([]exact, nM), has: make([]bool, nM), perQM: map[[2]int]bool{}}
		for q := range qs {
			pp.qIDs = append(pp.qIDs, q)
		}
		sort.Strings(pp.qIDs)
		for i, q := range pp.qIDs {
			pp.qIdx[q] = i
		}
		pp.acc = make([]float64, len(pp.qIDs)*nM*acLen)
		d.pops[p] = pp
		if p != Humans {
			d.popOrder = append(d.popOrder, p)
		}
	}
	sort.Strings(d.popOrder)
	if d.pops[Humans] != nil {
		d.popOrder = append([]string{Humans}, d.popOrder...)
	}
	// Re-derive ranks per (evaluator, question) among the compared models
	// (ties of averaged judge ranks broken by model name), as summary.csv.
	type gk struct{ e, q string }
	groups := map[gk][]int{}
	var order []gk
	for _, i := range keep {
		g := &gs[i]
		if g.Rank <= 0 {
			continue
		}
		k := gk{g.Evaluator, g.QuestionID}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	rank := make([]int32, len(gs))
	for _, k := range order {
		ps := groups[k]
		sort.SliceStable(ps, func(a, b int) bool {
			ga, gb := &gs[ps[a]], &gs[ps[b]]
			if ga.Rank != gb.Rank {
				return ga.Rank < gb.Rank
			}
			return ga.Model < gb.Model
		})
		for r, i := range ps {
			rank[i] = int32(r + 1)
		}
	}
	pc2 := int64(math.Round(2 * r.Scores.PartialCredit))
	for _, i := range keep {
		g := &gs[i]
		pp := d.pops[popOf(g)]
		m := d.mIdx[g.Model]
		q := pp.qIdx[g.QuestionID]
		pp.has[m] = true
		pp.perQM[[2]int{q, m}] = true
		c := pp.acc[(q*nM+m)*acLen:][:acLen]
		e := &pp.ex[m]
		if g.Solve != scores.Undefined { // out of the Solve Rate, as everywhere (scores.Scorer.Rule)
			c[acSolvedN]++
			e.solvedN++
			if g.Solved {
				c[acSolved]++
				e.solved++
			}
		}
		if rk := rank[i]; rk > 0 {
			c[acRankedN]++
			c[acRankSum] += float64(rk)
			e.rankedN++
			e.rankSum += int64(rk)
			if rk == 1 {
				c[acWins]++
				e.wins++
			}
		}
		if !math.IsNaN(g.RubricMean) {
			c[acRubN]++
			c[acRubSum] += g.RubricMean
			addRubric(&e.rub, g)
		}
		if !math.IsNaN(g.ChecklistRate) {
			c[acChkN]++
			c[acChkSum] += g.ChecklistRate
			addChecklist(&e.chk, g, pc2, r.Scores.PartialCredit)
		}
	}
	return d
}

// addRubric adds a grading's rubric mean exactly: the sum of integer
// attribute scores over their count, else the float mean.
func addRubric(f *fracSum, g *scores.Grading) {
	var sum, n int64
	for _, v := range g.Rubric {
		if math.IsNaN(v) {
			continue
		}
		if v != math.Trunc(v) || math.Abs(v) > 1<<30 {
			f.addFloat(g.RubricMean)
			return
		}
		sum += int64(v)
		n++
	}
	f.add(sum, n)
}

// addChecklist adds a single-run grading's checklist rate exactly (partial
// credit in halves), else the float rate.
func addChecklist(f *fracSum, g *scores.Grading, pc2 int64, pc float64) {
	if g.Runs != 1 || float64(pc2) != 2*pc {
		f.addFloat(g.ChecklistRate)
		return
	}
	var hits, partials, n int64
	for _, v := range g.Verdicts {
		switch v {
		case analysis.Hit:
			hits++
			n++
		case analysis.Partial:
			partials++
			n++
		case analysis.Miss:
			n++
		}
	}
	if n == 0 {
		f.addFloat(g.ChecklistRate)
		return
	}
	f.add(2*hits+pc2*partials, 2*n)
}

// renamer returns the matching name of each model of s: rename[name], else
// rename[display name], else the name itself.
func renamer(s *analysis.Study, rename map[string]string) func(string) string {
	to := map[string]string{}
	for _, m := range s.Models {
		if n, ok := rename[m.Name]; ok {
			to[m.Name] = n
		} else if n, ok := rename[m.DisplayName]; ok && m.DisplayName != "" {
			to[m.Name] = n
		}
	}
	return func(m string) string {
		if n, ok := to[m]; ok {
			return n
		}
		return m
	}
}
