package paper

import (
	"math"
	"testing"
)

// TestEvaluatorAgreementHand checks the per-evaluator agreement on four
// responses worked out by hand (docs/METHODS.md, "Per-evaluator agreement"):
//
//	response  e0        e1          e2
//	u1        3 (no)    4 (yes)     5 (yes)
//	u2        2 (no)    2 (no)      —
//	u3        4 (yes)   — (undef.)  1 (no)
//	u4        5 (yes)   —           —
//
// e0: others' means 4.5, 2, 1 → |diffs| 1.5, 0, 3 → 1.5 over 3 shared;
// ranks of (3, 2, 4) and (4.5, 2, 1) are (2, 1, 3) and (3, 2, 1) → ρ = −0.5;
// solved pairs u1×2 (disagree), u2 (agree), u3 with e2 (disagree) → 1/4.
// e1: others 4, 2 → 0 over 2 shared, ρ undefined (< 3); pairs u1 e0 (no),
// u1 e2 (yes), u2 e0 (yes) → 2/3. e2: others 3.5, 4 → 1.5, 3 → 2.25; pairs
// u1 e0 (no), u1 e1 (yes), u3 e0 (no) → 1/3.
func TestEvaluatorAgreementHand(t *testing.T) {
	nan := math.NaN()
	gs := []agreeGrading{
		{1, 0, 3, 0}, {1, 1, 4, 1}, {1, 2, 5, 1},
		{2, 0, 2, 0}, {2, 1, 2, 0},
		{3, 0, 4, 1}, {3, 1, nan, -1}, {3, 2, 1, 0},
		{4, 0, 5, 1},
	}
	got := evaluatorAgreement(gs)
	for _, c := range []struct {
		e                   int
		shared, pairs       int
		mad, rho, solveRate float64
	}{
		{0, 3, 4, 1.5, -0.5, 0.25},
		{1, 2, 3, 0, nan, 2.0 / 3},
		{2, 2, 3, 2.25, nan, 1.0 / 3},
	} {
		g := got[c.e]
		if g.shared != c.shared || g.solvePairs != c.pairs {
			t.Errorf("e%d: shared %d, solve pairs %d; want %d, %d", c.e, g.shared, g.solvePairs, c.shared, c.pairs)
		}
		for _, v := range []struct {
			what      string
			got, want float64
		}{{"mad", g.mad, c.mad}, {"rho", g.rho, c.rho}, {"solve agreement", g.solveAgree, c.solveRate}} {
			if !(math.Abs(v.got-v.want) < 1e-12 || math.IsNaN(v.got) && math.IsNaN(v.want)) {
				t.Errorf("e%d %s: got %v, want %v", c.e, v.what, v.got, v.want)
			}
		}
	}
	// A grader alone on every response has no shared unit: nothing defined.
	lone := evaluatorAgreement([]agreeGrading{{1, 7, 3, 1}, {2, 7, 4, 0}})[7]
	if lone.shared != 0 || !math.IsNaN(lone.mad) || !math.IsNaN(lone.rho) || !math.IsNaN(lone.solveAgree) {
		t.Errorf("lone grader: %+v, want nothing defined", lone)
	}
}
