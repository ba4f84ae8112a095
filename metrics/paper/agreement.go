package paper

import (
	"math"

	"github.com/euroexec/euroexec/metrics/stats"
)

// agreeGrading is one human grading as the per-evaluator agreement sees
// it: the response graded (unit), the grader, the grading's rubric mean
// (NaN when undefined) and its solved flag (1, 0, or -1 when undefined).
type agreeGrading struct {
	unit, e int
	score   float64
	solved  int8
}

// agreement is one evaluator's agreement with the other human graders
// (docs/METHODS.md, "Per-evaluator agreement").
type agreement struct {
	// shared counts the evaluator's gradings with a rubric mean of a
	// response that another human grader also scored.
	shared int
	// mad is the mean, over those, of |the evaluator's rubric mean − the
	// mean of the other graders' rubric means of the response|, in rubric
	// points; NaN when shared is 0.
	mad float64
	// rho is Spearman's ρ between the evaluator's rubric means and the
	// leave-one-out means of the others over the shared responses; NaN
	// below minRhoPairs pairs or when either side is constant.
	rho float64
	// solvePairs counts the pairs (this grading, another grader's grading of
	// the same response) whose solved flags are both defined; solveAgree
	// is the share of them with the same flag (NaN when there are none).
	solvePairs int
	solveAgree float64
}

// minRhoPairs is the fewest shared responses a per-evaluator ρ is given for.
const minRhoPairs = 3

// evaluatorAgreement measures, per evaluator (by index), agreement with the
// other human graders of the same responses. gs is in a fixed order (the
// view's), so the sums and the result are the same on every run.
func evaluatorAgreement(gs []agreeGrading) map[int]agreement {
	byUnit := map[int][]int{}
	var units []int
	for i, g := range gs {
		if _, ok := byUnit[g.unit]; !ok {
			units = append(units, g.unit)
		}
		byUnit[g.unit] = append(byUnit[g.unit], i)
	}
	type acc struct {
		absSum     float64
		x, y       []float64
		pairs, agr int
	}
	accs := map[int]*acc{}
	get := func(e int) *acc {
		if accs[e] == nil {
			accs[e] = &acc{}
		}
		return accs[e]
	}
	for _, u := range units {
		idx := byUnit[u]
		for _, i := range idx {
			g := gs[i]
			a := get(g.e)
			var sum float64
			n := 0
			for _, j := range idx {
				o := gs[j]
				if o.e == g.e {
					continue
				}
				if g.solved >= 0 && o.solved >= 0 {
					a.pairs++
					if g.solved == o.solved {
						a.agr++
					}
				}
				if !math.IsNaN(g.score) && !math.IsNaN(o.score) {
					sum += o.score
					n++
				}
			}
			if n > 0 {
				others := sum / float64(n)
				a.absSum += math.Abs(g.score - others)
				a.x = append(a.x, g.score)
				a.y = append(a.y, others)
			}
		}
	}
	out := make(map[int]agreement, len(accs))
	for e, a := range accs {
		r := agreement{shared: len(a.x), mad: math.NaN(), rho: math.NaN(), solvePairs: a.pairs, solveAgree: math.NaN()}
		if r.shared > 0 {
			r.mad = a.absSum / float64(r.shared)
		}
		if r.shared >= minRhoPairs {
			r.rho, _ = stats.Spearman(a.x, a.y)
		}
		if a.pairs > 0 {
			r.solveAgree = float64(a.agr) / float64(a.pairs)
		}
		out[e] = r
	}
	return out
}
