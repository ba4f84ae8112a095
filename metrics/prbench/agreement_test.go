package prbench

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// agreeStudy: one question, five criteria (k1, k2 in category X, k3–k5 in
// Y), two models, judge J and experts H1, H2 on all 10 cells.
//
//	      A: k1..k5   B: k1..k5
//	J     1 1 0 0 1   1 0 0 1 1
//	H1    1 1 0 1 1   1 0 0 0 1
//	H2    1 0 0 1 1   0 0 1 0 1
func agreeStudy() *study.Study {
	s := &study.Study{Questions: []study.Question{{ID: "Q", Domain: "Legal"}}}
	ids := []string{"k1", "k2", "k3", "k4", "k5"}
	for i, id := range ids {
		cat := "X"
		if i >= 2 {
			cat = "Y"
		}
		s.Criteria = append(s.Criteria, study.Criterion{QuestionID: "Q", ID: id, Weight: 1, Category: cat})
	}
	grade(s, "J", study.Judge, "Q", "A", ids, "11001")
	grade(s, "J", study.Judge, "Q", "B", ids, "10011")
	grade(s, "H1", study.Human, "Q", "A", ids, "11011")
	grade(s, "H1", study.Human, "Q", "B", ids, "10001")
	grade(s, "H2", study.Human, "Q", "A", ids, "10011")
	grade(s, "H2", study.Human, "Q", "B", ids, "00101")
	return s
}

func TestCriterionAgreementHand(t *testing.T) {
	res := analyze(agreeStudy(), DefaultOptions())
	tb := table(t, res, "criterion_agreement")
	tests := []struct {
		a, b, kind, breakdown          string
		n, both, aOnly, bOnly, neither int
		agr, kappa, f1                 float64
	}{
		// J vs H1: both met 5, J only 1 (B k4), H1 only 1 (A k4), neither 3.
		// po = 8/10; marginals J 6/4, H1 6/4 → pe = (36 + 16)/100 = 0.52;
		// κ = (0.8 − 0.52)/(1 − 0.52) = 7/12.
		// F1 (H1 reference): met p = r = 5/6 → 5/6; not met p = r = 3/4 → 3/4;
		// macro = (5/6 + 3/4)/2 = 19/24.
		{"J", "H1", "judge-expert", "all", 10, 5, 1, 1, 3, 0.8, 7.0 / 12, 19.0 / 24},
		// J vs H2: both 3, J only 3, H2 only 2, neither 2. po = 1/2; marginals
		// J 6/4, H2 5/5 → pe = (30 + 20)/100 = 1/2 → κ = 0.
		// F1: met p = 3/6, r = 3/5 → 6/11; not met p = 2/4, r = 2/5 → 4/9;
		// macro = (6/11 + 4/9)/2 = 49/99.
		{"J", "H2", "judge-expert", "all", 10, 3, 3, 2, 2, 0.5, 0, 49.0 / 99},
		// H1 vs H2: both 4, H1 only 2, H2 only 1, neither 3. po = 7/10;
		// marginals H1 6/4, H2 5/5 → pe = 1/2 → κ = 0.4.
		// F1 (H2 reference): met p = 4/6, r = 4/5 → 8/11; not met p = 3/4,
		// r = 3/5 → 2/3; macro = (8/11 + 2/3)/2 = 23/33.
		{"H1", "H2", "expert-expert", "all", 10, 4, 2, 1, 3, 0.7, 0.4, 23.0 / 33},
		// Category X (k1, k2) for J vs H1: A (1,1),(1,1); B (1,1),(0,0):
		// both 3, neither 1 → po = 1; κ = 1 (pe = (9 + 1)/16); F1 = 1.
		{"J", "H1", "judge-expert", "category:X", 4, 3, 0, 0, 1, 1, 1, 1},
		// Category Y for H1 vs H2: A k3..k5 (0,0),(1,1),(1,1); B (0,1),(0,0),(1,1):
		// both 3, H2 only 1, neither 2 → po = 5/6; marginals H1 3/3, H2 4/2 →
		// pe = (12 + 6)/36 = 1/2 → κ = (5/6 − 1/2)/(1/2) = 2/3.
		// F1: met p = 3/3, r = 3/4 → 6/7; not met p = 2/3, r = 1 → 4/5;
		// macro = (6/7 + 4/5)/2 = 29/35.
		{"H1", "H2", "expert-expert", "category:Y", 6, 3, 0, 1, 2, 5.0 / 6, 2.0 / 3, 29.0 / 35},
		// The only domain is Legal: same as all.
		{"H1", "H2", "expert-expert", "domain:Legal", 10, 4, 2, 1, 3, 0.7, 0.4, 23.0 / 33},
	}
	const eps = 1e-15
	for _, tc := range tests {
		r := row(t, tb, map[string]string{"grader_a": tc.a, "grader_b": tc.b, "breakdown": tc.breakdown})
		checkV(t, tb, r, "pair_kind", tc.kind)
		checkV(t, tb, r, "n", tc.n)
		checkV(t, tb, r, "n_both_met", tc.both)
		checkV(t, tb, r, "n_a_only", tc.aOnly)
		checkV(t, tb, r, "n_b_only", tc.bOnly)
		checkV(t, tb, r, "n_neither", tc.neither)
		checkF(t, tb, r, "agreement", tc.agr, eps)
		checkF(t, tb, r, "kappa", tc.kappa, eps)
		checkF(t, tb, r, "macro_f1", tc.f1, eps)
		// One question: every bootstrap replicate is the whole sample.
		checkF(t, tb, r, "kappa_lo", tc.kappa, eps)
		checkF(t, tb, r, "macro_f1_hi", tc.f1, eps)
		checkF(t, tb, r, "agreement_lo", tc.agr, eps)
	}
	if len(tb.rows) != 3*4 { // 3 pairs × (all, domain:Legal, category:X, category:Y)
		t.Errorf("criterion_agreement has %d rows, want 12", len(tb.rows))
	}
}

func TestJudgeParityHand(t *testing.T) {
	// Over the 10 cells: #(J = H1) = 8, #(J = H2) = 5, #(H1 = H2) = 7.
	// judge–expert = 13/20 = 0.65, expert–expert = 0.7,
	// difference = (13 − 14)/20 = −0.05 exactly. One question, so the
	// interval is [−0.05, −0.05]: lower end −0.05 is not above −0.05 (not
	// within range at the default margin), but is above −0.06.
	for _, tc := range []struct {
		margin float64
		within bool
	}{{0.05, false}, {0.06, true}, {0.049, false}} {
		opt := DefaultOptions()
		opt.ParityMargin = tc.margin
		tb := table(t, analyze(agreeStudy(), opt), "judge_parity")
		r := row(t, tb, map[string]string{"judge": "J"})
		checkV(t, tb, r, "n", 10)
		checkV(t, tb, r, "n_expert_pairs", 1)
		checkF(t, tb, r, "judge_expert_agreement", 0.65, 0)
		checkF(t, tb, r, "expert_expert_agreement", 0.7, 0)
		checkF(t, tb, r, "difference", -0.05, 0)
		checkF(t, tb, r, "difference_lo", -0.05, 0)
		checkF(t, tb, r, "difference_hi", -0.05, 0)
		checkV(t, tb, r, "within_expert_range", tc.within)
	}
}

func TestJudgeParityTwoQuestions(t *testing.T) {
	// Q as in agreeStudy (d = −1/20) and a copy R on which the judge equals
	// both experts, who agree with each other: k1..k5 on one model, all
	// "11100": #(J=e) = 10, #(e1=e2) = 5 → d = (10 − 10)/10 = 0.
	// Pooled: n = 15, d = (13 + 10 − 2·12)/30 = −1/30. With two questions, the
	// 2.5th and 97.5th percentiles of 2000 replicates are the resamples
	// {Q, Q} and {R, R}: −0.05 and 0.
	s := agreeStudy()
	s.Questions = append(s.Questions, study.Question{ID: "R", Domain: "Legal"})
	ids := []string{"k1", "k2", "k3", "k4", "k5"}
	for _, id := range ids {
		s.Criteria = append(s.Criteria, study.Criterion{QuestionID: "R", ID: id, Weight: 1})
	}
	for _, ev := range []struct{ id, kind string }{{"J", study.Judge}, {"H1", study.Human}, {"H2", study.Human}} {
		grade(s, ev.id, ev.kind, "R", "A", ids, "11100")
	}
	tb := table(t, analyze(s, DefaultOptions()), "judge_parity")
	r := row(t, tb, map[string]string{"judge": "J"})
	checkV(t, tb, r, "n", 15)
	checkV(t, tb, r, "n_questions", 2)
	checkF(t, tb, r, "difference", -1.0/30, 1e-17)
	checkF(t, tb, r, "difference_lo", -0.05, 1e-17)
	checkF(t, tb, r, "difference_hi", 0, 0)
	checkV(t, tb, r, "within_expert_range", false)
}

// TestConfusionMatchesStats checks that the closed forms used inside the
// bootstrap give exactly what stats.CohenKappa and stats.MacroF1 give on the
// expanded grade vectors.
func TestConfusionMatchesStats(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	cases := []conf2{{5, 1, 1, 3}, {0, 0, 0, 9}, {9, 0, 0, 0}, {0, 4, 0, 0}, {2, 0, 0, 2}, {1, 0, 0, 0}}
	for i := 0; i < 500; i++ {
		cases = append(cases, conf2{r.Int64N(40), r.Int64N(40), r.Int64N(40), r.Int64N(40)})
	}
	same := func(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) }
	for _, c := range cases {
		if c.n() == 0 {
			continue
		}
		a, b := c.expand()
		k := stats.CohenKappa(a, b, []int{0, 1}, "")
		f := stats.MacroF1(b, a, []int{0, 1})
		if !same(c.kappa(), k) {
			t.Errorf("%v: kappa %v, stats.CohenKappa %v", c, c.kappa(), k)
		}
		if !same(c.macroF1(), f) {
			t.Errorf("%v: macro F1 %v, stats.MacroF1 %v", c, c.macroF1(), f)
		}
	}
}

func TestHumansPooledAndNoBootstrap(t *testing.T) {
	opt := DefaultOptions()
	opt.Bootstrap = 0
	res := analyze(agreeStudy(), opt)
	// All weights +1, so clipped = met/5. Model A: H1 11011 → 4/5, H2 10011 →
	// 3/5; pooled humans: two gradings, mean (4/5 + 3/5)/2 = 0.7.
	tb := table(t, res, "prbench_scores")
	r := row(t, tb, map[string]string{"set": "all", "graders": "humans", "model": "A"})
	checkV(t, tb, r, "n", 2)
	checkF(t, tb, r, "clipped_mean", 0.7, 1e-16)
	checkF(t, tb, r, "clipped_lo", math.NaN(), 0)
	// Without bootstrap replicates the parity rule is undefined: its
	// interval is NaN (an empty within_expert_range cell).
	pt := table(t, res, "judge_parity")
	r = row(t, pt, map[string]string{"judge": "J"})
	checkF(t, pt, r, "difference_lo", math.NaN(), 0)
	if len(res.Notes) == 0 {
		t.Error("no note for the undefined parity")
	}
}
