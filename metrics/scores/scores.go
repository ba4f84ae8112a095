// Package scores derives the per-grading scores of DESIGN.md from a study:
// rubric mean, checklist rate and solved, with judge runs averaged per
// response so that a judge has one grading per response. It is the small
// shared base of the analyses beyond the paper (reliability, rankings,
// calibration, planning); no I/O.
package scores

import (
	"math"
	"sort"

	"github.com/euroexec/euroexec/metrics/analysis"
)

// Options are the Solve Rate rule.
type Options struct {
	// RubricThreshold: solved needs rubric mean ≥ this; default 3.0.
	RubricThreshold float64
	// ChecklistThreshold: solved needs checklist rate ≥ this; default 0.60.
	ChecklistThreshold float64
	// PartialCredit is what a partial verdict counts; default 0.5.
	PartialCredit float64
}

// DefaultOptions returns the EuroExec rule.
func DefaultOptions() Options {
	return Options{RubricThreshold: 3.0, ChecklistThreshold: 0.60, PartialCredit: 0.5}
}

// Grading is one grader's grading of one response in one round, judge runs
// averaged.
type Grading struct {
	Evaluator  string
	Kind       string // analysis.Human or analysis.Judge
	Round      string
	QuestionID string
	Model      string
	Runs       int // judge runs averaged (1 for humans)
	// Rubric is the mean over runs of each attribute (NaN where no run scored it).
	Rubric []float64
	// RubricMean is the mean of the present attributes; NaN when none.
	RubricMean float64
	// ChecklistRate is (hits + credit·partials) / (items not na), averaged
	// over runs; NaN when no item counts.
	ChecklistRate float64
	// Verdicts are the first run's verdicts (humans have one run).
	Verdicts []analysis.Verdict
	// Rank is the mean rank over runs; 0 when not ranked.
	Rank float64
	// Solved applies the Solve Rate rule; false when a needed score is NaN.
	// Without a checklist it uses the rubric rule alone, without a rubric
	// the checklist rule alone.
	Solved bool
}

// Compute returns the gradings of s, sorted by (Round, QuestionID, Model,
// Evaluator). Human rubric means and rates are computed from exact integer
// numerators (attribute sums; half points), divided once.
func Compute(s *analysis.Study, opt Options) []Grading {
	type key struct{ e, r, q, m string }
	idx := map[key]int{}
	var out []Grading
	var sums [][]float64 // per grading, per attribute: sum over runs
	var cnts [][]int
	var rates [][2]float64 // sum of run rates, runs with a rate
	var ranks [][2]float64
	hasChecklist := false
	for _, g := range s.Gradings {
		if len(g.Verdicts) > 0 {
			hasChecklist = true
		}
	}
	hasRubric := len(s.Attributes) > 0
	for _, g := range s.Gradings {
		k := key{g.Evaluator, g.Round, g.QuestionID, g.Model}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, Grading{Evaluator: g.Evaluator, Kind: g.Kind, Round: g.Round, QuestionID: g.QuestionID,
				Model: g.Model, Verdicts: g.Verdicts})
			sums = append(sums, make([]float64, len(s.Attributes)))
			cnts = append(cnts, make([]int, len(s.Attributes)))
			rates = append(rates, [2]float64{})
			ranks = append(ranks, [2]float64{})
		}
		out[i].Runs++
		for a, v := range g.Rubric {
			if !math.IsNaN(v) {
				sums[i][a] += v
				cnts[i][a]++
			}
		}
		if r := rate(g.Verdicts, opt.PartialCredit); !math.IsNaN(r) {
			rates[i][0] += r
			rates[i][1]++
		}
		if g.Rank > 0 {
			ranks[i][0] += float64(g.Rank)
			ranks[i][1]++
		}
	}
	for i := range out {
		g := &out[i]
		g.Rubric = make([]float64, len(s.Attributes))
		var sum float64
		n := 0
		for a := range g.Rubric {
			if cnts[i][a] == 0 {
				g.Rubric[a] = math.NaN()
				continue
			}
			g.Rubric[a] = sums[i][a] / float64(cnts[i][a])
			sum += g.Rubric[a]
			n++
		}
		g.RubricMean = math.NaN()
		if n > 0 {
			g.RubricMean = sum / float64(n)
		}
		g.ChecklistRate = math.NaN()
		if rates[i][1] > 0 {
			g.ChecklistRate = rates[i][0] / rates[i][1]
		}
		if ranks[i][1] > 0 {
			g.Rank = ranks[i][0] / ranks[i][1]
		}
		okR := !hasRubric || (!math.IsNaN(g.RubricMean) && g.RubricMean >= opt.RubricThreshold)
		okC := !hasChecklist || (!math.IsNaN(g.ChecklistRate) && g.ChecklistRate >= opt.ChecklistThreshold)
		g.Solved = (hasRubric || hasChecklist) && okR && okC
		if g.Kind == analysis.Human && hasRubric && n == len(s.Attributes) {
			// Exact: compare the integer sum with threshold × attributes.
			g.Solved = sum >= opt.RubricThreshold*float64(n) && okC
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		x, y := out[a], out[b]
		if x.Round != y.Round {
			return x.Round < y.Round
		}
		if x.QuestionID != y.QuestionID {
			return x.QuestionID < y.QuestionID
		}
		if x.Model != y.Model {
			return x.Model < y.Model
		}
		return x.Evaluator < y.Evaluator
	})
	return out
}

// rate is the checklist rate of one run's verdicts; NaN when no item counts.
func rate(vs []analysis.Verdict, credit float64) float64 {
	var hits, partials, n int
	for _, v := range vs {
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
		return math.NaN()
	}
	// Half points keep the numerator an integer for credit 0, 0.5 or 1.
	half := 2*float64(hits) + 2*credit*float64(partials)
	return half / float64(2*n)
}
