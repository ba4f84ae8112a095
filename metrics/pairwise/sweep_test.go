package pairwise

import (
	"fmt"
	"math"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// SweepBound against closed forms: with one opponent the bound solves
// σ(b − β)^n = α, b = β + logit(α^(1/n)).
func TestSweepBoundClosedForm(t *testing.T) {
	logit := func(p float64) float64 { return math.Log(p / (1 - p)) }
	for _, c := range []struct {
		n, beta, alpha float64
	}{{1, 0, 0.025}, {2, 0, 0.025}, {180, 0.3, 0.025}, {5, -1, 0.05}} {
		want := c.beta + logit(math.Pow(c.alpha, 1/c.n))
		checkClose(t, fmt.Sprintf("n %v β %v α %v", c.n, c.beta, c.alpha), SweepBound([]float64{c.n}, []float64{c.beta}, c.alpha), want, 1e-12)
	}
	// Two opponents (0 and 1, one judgment each): σ(b)·σ(b − 1) = α, i.e.
	// with u = e^b, u² = α(1 + u)(e + u)/e … checked on the equation.
	b := SweepBound([]float64{1, 1}, []float64{0, 1}, 0.025)
	sig := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	checkClose(t, "two opponents", sig(b)*sig(b-1), 0.025, 1e-14)
	if !math.IsNaN(SweepBound([]float64{0}, []float64{0}, 0.025)) || !math.IsNaN(SweepBound([]float64{1}, []float64{0}, 1)) {
		t.Error("no judgments or α = 1: want NaN")
	}
}

// A model that wins all of its 180 judgments gets a one-sided interval
// (issue 36: it was 2230 [2225, 2240]): the lower end is the sweep bound
// against the loser's point strength, the upper end +Inf; the loser's is
// the mirror image. Its win rate's interval is one-sided too.
func TestNeverLosesOneSided(t *testing.T) {
	var cs []study.Comparison
	for q := 0; q < 60; q++ {
		for r := 0; r < 3; r++ {
			cs = append(cs, judg("j1", J, fmt.Sprintf("q%02d", q), "A", "B", A))
		}
		// C and B trade wins so that the rest of the graph is connected.
		cs = append(cs, judg("j1", J, fmt.Sprintf("q%02d", q), "B", "C", []study.Preference{A, B}[q%2]))
	}
	opt := DefaultOptions()
	opt.Bootstrap = 200
	res, err := Analyze(t.Context(), studyOf(cs...), opt)
	if err != nil {
		t.Fatal(err)
	}
	var a, b ModelRow
	for _, m := range res.Populations[0].Models {
		switch m.Model {
		case "A":
			a = m
		case "B":
			b = m
		}
	}
	if !a.OneSided || !math.IsInf(a.Rating.Hi, 1) {
		t.Fatalf("A: %+v; want a one-sided interval up to +Inf", a)
	}
	betaB := (b.Rating.Value - 1000) / EloScale
	want := Rating(betaB + math.Log(math.Pow(0.025, 1.0/180)/(1-math.Pow(0.025, 1.0/180))))
	checkClose(t, "A lower end", a.Rating.Lo, want, 1e-9)
	if a.Rating.Value-a.Rating.Lo < 300 {
		t.Errorf("A: %v, lower end %v: the interval should say how little is known above it", a.Rating.Value, a.Rating.Lo)
	}
	if b.OneSided {
		t.Errorf("B (won against C) is not a sweep: %+v", b)
	}
	// A's win rate is 1 in every replicate: its interval is the exact
	// one-sided bound over its 60 questions, 0.025^(1/60) = 0.9404…, not [1, 1]
	checkClose(t, "A win-rate lower end", a.WinRate.Lo, math.Pow(0.025, 1.0/60), 1e-12)
	if a.WinRate.Hi != 1 || a.WinRate.Value != 1 {
		t.Errorf("A win rate %+v, want 1 [0.940, 1]", a.WinRate)
	}
	rows := rowsOf(t, res, ModelsTable)
	if r := find(rows, "model", "A"); !math.IsInf(f(r["bt_rating_hi"]), 1) {
		t.Errorf("table row %v: bt_rating_hi not +Inf", r)
	}
}
