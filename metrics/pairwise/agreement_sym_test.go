package pairwise

import (
	"math/rand/v2"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// A hand-computed case of the symmetric agreement statistics: four
// comparisons judged by j1 and j2 (verdicts in the pair's name order,
// reference j2 first): (first, first), (first, second), (tie, tie),
// (second, second). Counted in both orientations the confusion matrix is
// [[2 0 1] [0 2 0] [1 0 2]] over 8: agreement 6/8, expected agreement
// (3·3 + 2·2 + 3·3)/64 = 22/64, κ = (48 − 22)/(64 − 22) = 13/21; F1 is 2/3
// for either winner and 1 for the tie, macro F1 7/9.
func TestAgreementSymmetricHand(t *testing.T) {
	res := run(t, studyOf(
		judg("j1", J, "q1", "A", "B", A), judg("j2", J, "q1", "A", "B", A),
		judg("j1", J, "q2", "A", "B", B), judg("j2", J, "q2", "A", "B", A),
		judg("j1", J, "q3", "A", "B", T), judg("j2", J, "q3", "A", "B", T),
		judg("j1", J, "q4", "A", "B", B), judg("j2", J, "q4", "A", "B", B)), 0)
	r := find(rowsOf(t, res, AgreementTable), "grader_a", "j1", "grader_b", "j2")
	if r == nil {
		t.Fatal("no j1–j2 row")
	}
	for _, c := range []struct {
		col  string
		want float64
	}{{"agreement", 0.75}, {"kappa", 13.0 / 21}, {"macro_f1", 7.0 / 9}, {"precision_macro", 7.0 / 9}, {"recall_macro", 7.0 / 9}} {
		checkClose(t, c.col, f(r[c.col]), c.want, 1e-15)
	}
}

// Agreement does not depend on the models' names nor on the order the
// answers were shown in: renaming the models (which reverses their name
// order) and swapping model_a and model_b of random judgments gives the
// same κ, F1, precision and recall, and the same intervals.
func TestAgreementInvariantToNamesAndOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	models := []string{"base", "m1", "m2", "m3"}
	var cs []study.Comparison
	for q := 0; q < 60; q++ {
		qid := "q" + string(rune('A'+q/26)) + string(rune('a'+q%26))
		for _, opp := range models[1:] {
			// The graders favour the baseline unevenly, so the marginals of
			// the name-ordered classes are asymmetric.
			for _, g := range []string{"j1", "j2", "h1", "h2", "h3"} {
				kind := J
				if g[0] == 'h' {
					kind = H
				}
				w := []study.Preference{A, A, A, B, T}[r.IntN(5)]
				cs = append(cs, judg(g, kind, qid, "base", opp, w))
			}
		}
	}
	rename := map[string]string{"base": "zz-base", "m1": "a3", "m2": "a2", "m3": "a1"}
	var cs2 []study.Comparison
	for i, c := range cs {
		c.ModelA, c.ModelB = rename[c.ModelA], rename[c.ModelB]
		if i%3 == 0 {
			c.ModelA, c.ModelB = c.ModelB, c.ModelA
			switch c.Winner {
			case A:
				c.Winner = B
			case B:
				c.Winner = A
			}
		}
		cs2 = append(cs2, c)
	}
	a := rowsOf(t, run(t, studyOf(cs...), 50), AgreementTable)
	b := rowsOf(t, run(t, studyOf(cs2...), 50), AgreementTable)
	if len(a) != len(b) || len(a) < 10 {
		t.Fatalf("%d and %d agreement rows", len(a), len(b))
	}
	for i := range a {
		for _, col := range []string{"agreement", "kappa", "macro_f1", "precision_macro", "recall_macro", "kappa_lo", "kappa_hi", "macro_f1_lo", "macro_f1_hi"} {
			checkClose(t, a[i]["grader_a"].(string)+"–"+a[i]["grader_b"].(string)+" "+col, f(b[i][col]), f(a[i][col]), 1e-12)
		}
	}
}
