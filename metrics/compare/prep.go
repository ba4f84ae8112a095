package compare

import (
	"crypto/sha256"
	"math"
	"sort"

	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/study"
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
	rub, chk                                study.RatSum // exact sums of the rubric means and checklist rates
}

func (e *exact) values() [5]float64 {
	ratio := func(n, d int64) float64 {
		if d == 0 {
			return math.NaN()
		}
		return float64(n) / float64(d)
	}
	return [5]float64{ratio(e.solved, e.solvedN), e.rub.Mean(), e.chk.Mean(),
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
	rubric  float64
	rubricR study.Rat // rubric exactly; the zero Rat when not exact
	solved  bool
	defined bool // the Solve verdict is defined (scores.Undefined: out of κ and the flipped share)
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
		if g.Kind == study.Judge {
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
		if g.Kind == study.Judge {
			if d.judges[g.Evaluator] == nil {
				d.judges[g.Evaluator] = map[[2]string]judgeScore{}
			}
			d.judges[g.Evaluator][[2]string{g.QuestionID, g.Model}] = judgeScore{rubric: g.RubricMean, rubricR: g.RubricRat, solved: g.Solved, defined: g.Solve != scores.Undefined}
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
			e.rub.Add(g.RubricRat, g.RubricMean) // exact unless a score is not a short decimal
		}
		if !math.IsNaN(g.ChecklistRate) {
			c[acChkN]++
			c[acChkSum] += g.ChecklistRate
			e.chk.Add(g.ChecklistRat, g.ChecklistRate)
		}
	}
	return d
}

// renamer returns the matching name of each model of s: rename[name], else
// rename[display name], else the name itself.
func renamer(s *study.Study, rename map[string]string) func(string) string {
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
