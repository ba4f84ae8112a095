package calibration

import (
	"math"
	"sort"

	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/study"
)

// data holds the main-round per-response scores of a study: human scores
// averaged over the response's human gradings, and each judge's scores
// (runs already averaged by package scores). Index order: [model][question]
// and [judge][model][question]; NaN where there is nothing.
type data struct {
	models    []string // graded models other than the human label, by name
	questions []string // study question ids, study order
	hasRubric bool

	hRub   [][]float64 // mean human rubric_mean (the exact mean divided once)
	hSolve [][]float64 // share of human gradings that solve
	judges []string    // judge evaluator ids, sorted
	jRub   [][][]float64
	jChk   [][][]float64
	jSolve [][][]float64 // 0/1
	// The same values as exact fractions (the zero Rat where there is
	// nothing or the value is not exact), so that means over questions are
	// exact too (study.RatSum).
	// (The judge's verdicts, 0 or 1, need no second grid.)
	hRubR, hSolveR [][]study.Rat
	jRubR          [][][]study.Rat
}

func ratGrid(a, b int) [][]study.Rat {
	g := make([][]study.Rat, a)
	for i := range g {
		g[i] = make([]study.Rat, b)
	}
	return g
}

func nanGrid(a, b int) [][]float64 {
	g := make([][]float64, a)
	for i := range g {
		g[i] = make([]float64, b)
		for k := range g[i] {
			g[i][k] = math.NaN()
		}
	}
	return g
}

// load reads the main round (Study.MainRound, "main" when empty) of s.
func load(s *study.Study, so scores.Options, graded []scores.Grading) *data {
	round := s.MainRound
	if round == "" {
		round = "main"
	}
	d := &data{hasRubric: len(s.Attributes) > 0}
	qPos := map[string]int{}
	for i, q := range s.Questions {
		qPos[q.ID] = i
		d.questions = append(d.questions, q.ID)
	}
	gs := scores.OrCompute(graded, s, so)
	mSet, jSet := map[string]bool{}, map[string]bool{}
	for i := range gs {
		g := &gs[i]
		if g.Round != round || g.Model == s.HumanLabel {
			continue
		}
		if _, ok := qPos[g.QuestionID]; !ok {
			continue
		}
		mSet[g.Model] = true
		if g.Kind == study.Judge {
			jSet[g.Evaluator] = true
		}
	}
	d.models = sortedSet(mSet)
	d.judges = sortedSet(jSet)
	mPos := map[string]int{}
	for i, m := range d.models {
		mPos[m] = i
	}
	jPos := map[string]int{}
	for i, j := range d.judges {
		jPos[j] = i
	}
	nM, nQ := len(d.models), len(d.questions)
	d.hRub, d.hSolve = nanGrid(nM, nQ), nanGrid(nM, nQ)
	d.hRubR, d.hSolveR = ratGrid(nM, nQ), ratGrid(nM, nQ)
	for range d.judges {
		d.jRub = append(d.jRub, nanGrid(nM, nQ))
		d.jChk = append(d.jChk, nanGrid(nM, nQ))
		d.jSolve = append(d.jSolve, nanGrid(nM, nQ))
		d.jRubR = append(d.jRubR, ratGrid(nM, nQ))
	}
	// Per response: the human rubric means and Solve counts, allocated per
	// model at its first human grading (none in a judge-only study).
	rub := make([][]study.RatSum, nM)
	solSum, solN := make([][]int64, nM), make([][]int64, nM)
	// gs is sorted by (round, question, model, evaluator): sums are taken in
	// that fixed order.
	for i := range gs {
		g := &gs[i]
		if g.Round != round || g.Model == s.HumanLabel {
			continue
		}
		q, ok := qPos[g.QuestionID]
		if !ok {
			continue
		}
		m := mPos[g.Model]
		switch g.Kind {
		case study.Human:
			if rub[m] == nil {
				rub[m], solSum[m], solN[m] = make([]study.RatSum, nQ), make([]int64, nQ), make([]int64, nQ)
			}
			if !math.IsNaN(g.RubricMean) {
				rub[m][q].Add(g.RubricRat, g.RubricMean)
			}
			if g.Solve != scores.Undefined { // undefined: out of the Solve Rate (scores.Scorer.Rule)
				if g.Solved {
					solSum[m][q]++
				}
				solN[m][q]++
			}
		case study.Judge:
			if !g.Usable() { // the pairing rule: no usable score, not a grading
				continue
			}
			j := jPos[g.Evaluator]
			d.jRub[j][m][q] = g.RubricMean
			d.jRubR[j][m][q] = g.RubricRat
			d.jChk[j][m][q] = g.ChecklistRate
			if g.Solve != scores.Undefined {
				d.jSolve[j][m][q] = b2f(g.Solved)
			}
		}
	}
	for m := range rub {
		if rub[m] == nil {
			continue
		}
		for q := range rub[m] {
			if rub[m][q].N() > 0 {
				d.hRub[m][q], d.hRubR[m][q] = rub[m][q].Mean(), rub[m][q].Rat()
			}
			if solN[m][q] > 0 {
				d.hSolveR[m][q] = study.NewRat(solSum[m][q], solN[m][q])
				d.hSolve[m][q] = d.hSolveR[m][q].Float64()
			}
		}
	}
	return d
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func sortedSet(s map[string]bool) []string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
