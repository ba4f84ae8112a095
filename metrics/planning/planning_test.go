package planning

import (
	"errors"
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

func near(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.12g, want %.12g ± %g", name, got, want, tol)
	}
}

// TestPairedSampleSizePublished checks the sample sizes against R's
// pwr.t.test(d = d, sig.level = α, power = 0.8, type = "paired"), whose
// printed n are quoted here (G*Power gives the same, rounded up):
//
//	d = 0.2: n = 198.1508   d = 0.3: n = 89.14938   d = 0.5: n = 33.36713
//	d = 0.8: n = 14.30276   d = 0.5, α = 0.01: n = 50.06470
func TestPairedSampleSizePublished(t *testing.T) {
	cases := []struct {
		d, alpha float64
		n        int
		exact    float64
	}{
		{0.2, 0.05, 199, 198.1508},
		{0.3, 0.05, 90, 89.14938},
		{0.5, 0.05, 34, 33.36713},
		{-0.5, 0.05, 34, 33.36713},
		{0.8, 0.05, 15, 14.30276},
		{0.5, 0.01, 51, 50.06470},
	}
	for _, c := range cases {
		n, exact, err := PairedSampleSize(c.d, c.alpha, 0.8)
		if err != nil {
			t.Fatalf("d=%v: %v", c.d, err)
		}
		if n != c.n {
			t.Errorf("d=%v α=%v: n = %d, want %d", c.d, c.alpha, n, c.n)
		}
		near(t, "exact n", exact, c.exact, 6e-5)
		// n is the smallest integer reaching the power.
		if p := PairedPower(float64(n), c.d, c.alpha); p < 0.8 {
			t.Errorf("power at n=%d is %v < 0.8", n, p)
		}
		if p := PairedPower(float64(n-1), c.d, c.alpha); p >= 0.8 {
			t.Errorf("power at n-1=%d is %v ≥ 0.8", n-1, p)
		}
	}
}

// TestNoncentralTCentral: with ncp = 0 the noncentral t is the central t of
// package stats (itself checked against scipy's stdtr).
func TestNoncentralTCentral(t *testing.T) {
	for _, df := range []float64{1, 2.5, 4, 10, 33, 100, 1e5} {
		for _, x := range []float64{-3, -0.5, 0, 0.3, 1.96, 4} {
			near(t, "sf", NoncentralTSurvival(x, df, 0), stats.StudentTSF(x, df), 2e-10)
		}
	}
	// Normal limit.
	near(t, "inf df", NoncentralTSurvival(1, math.Inf(1), 1), 0.5, 0)
	for _, bad := range [][3]float64{{1, 0, 1}, {math.NaN(), 3, 0}, {1, -2, 0}, {1, 3, math.NaN()}} {
		if v := NoncentralTSurvival(bad[0], bad[1], bad[2]); !math.IsNaN(v) {
			t.Errorf("NoncentralTSurvival(%v) = %v, want NaN", bad, v)
		}
	}
}

// TestNoncentralTTwoSample: pwr.t.test(d = 0.5, power = 0.8) for two
// samples prints n = 63.76561 per group: df = 2n − 2, ncp = d·√(n/2).
func TestNoncentralTTwoSample(t *testing.T) {
	n := 63.76561
	df := 2*n - 2
	ncp := 0.5 * math.Sqrt(n/2)
	crit := tQuantile(0.975, df)
	near(t, "power", NoncentralTSurvival(crit, df, ncp)+NoncentralTSurvival(crit, df, -ncp), 0.8, 2e-7)
}

// TestPairedPowerMonteCarlo simulates paired t-tests with a known effect
// and checks the rejection rate against PairedPower (4000 studies: the
// standard error of a rate near 0.8 is 0.0063; tolerance 4 SE).
func TestPairedPowerMonteCarlo(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo")
	}
	const reps, n, effect, alpha = 4000, 20, 0.6, 0.05
	want := PairedPower(n, effect, alpha)
	rej := 0
	x := make([]float64, n)
	zero := make([]float64, n)
	for r := 0; r < reps; r++ {
		rng := stats.NewRand(7, r)
		for i := range x {
			x[i] = effect + rng.NormFloat64()
		}
		if stats.TTestRel(x, zero).P < alpha {
			rej++
		}
	}
	near(t, "rejection rate", float64(rej)/reps, want, 4*math.Sqrt(want*(1-want)/reps))
}

func TestPairedSampleSizeErrors(t *testing.T) {
	if _, _, err := PairedSampleSize(0, 0.05, 0.8); !errors.Is(err, ErrNoEffect) {
		t.Errorf("d=0: err = %v, want ErrNoEffect", err)
	}
	if _, _, err := PairedSampleSize(1e-6, 0.05, 0.8); !errors.Is(err, ErrTooLarge) {
		t.Errorf("tiny d: err = %v, want ErrTooLarge", err)
	}
	for _, c := range [][3]float64{{0.5, 0, 0.8}, {0.5, 0.05, 1}, {0.5, 0.5, 0.3}, {math.NaN(), 0.05, 0.8}} {
		if _, _, err := PairedSampleSize(c[0], c[1], c[2]); err == nil {
			t.Errorf("PairedSampleSize(%v): no error", c)
		}
	}
	// A huge effect: two pairs suffice.
	if n, _, err := PairedSampleSize(50, 0.05, 0.8); err != nil || n != 2 {
		t.Errorf("d=50: n = %d, %v; want 2", n, err)
	}
}

// grading is a one-attribute human grading for the study builders.
func grading(e, q, m string, v float64) study.Grading {
	return study.Grading{Evaluator: e, Kind: study.Human, Round: "main", QuestionID: q, Model: m, Rubric: []float64{v}}
}

func newStudy(qs []string, gs []study.Grading) *study.Study {
	s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"Quality"}, ScaleMin: 1, ScaleMax: 5}
	for _, q := range qs {
		s.Questions = append(s.Questions, study.Question{ID: q, GateScore: math.NaN()})
	}
	s.Gradings = gs
	return s
}

// TestPlanHand: 3 questions, graders e1, e2 on every response.
//
//	q1: A 5,4  B 3,3   D = 1.5   per-grader diffs 2,1  (variance 0.5)
//	q2: A 4,4  B 3,2   D = 1.5   diffs 1,2             (0.5)
//	q3: A 3,4  B 3,3   D = 0.5   diffs 0,1             (0.5)
//
// mean A = 4, mean B = 17/6; d = 7/6; var_diff = (1/9+1/9+4/9)/2 = 1/3;
// pooled per-grader-difference variance 0.5 → var_grader = 0.25;
// var_question = 1/3 − 0.25·(1/2 + 1/2) = 1/12. Designs: g = 1 → Var =
// 1/12 + 0.5 = 7/12; g = 2 → 1/3; g = 3 → 1/4.
func TestPlanHand(t *testing.T) {
	var gs []study.Grading
	add := func(q string, a1, a2, b1, b2 float64) {
		gs = append(gs, grading("e1", q, "A", a1), grading("e2", q, "A", a2), grading("e1", q, "B", b1), grading("e2", q, "B", b2))
	}
	add("q1", 5, 4, 3, 3)
	add("q2", 4, 4, 3, 2)
	add("q3", 3, 4, 3, 3)
	opt := DefaultPlanOptions()
	opt.Alpha, opt.Power = 0.05, 0.8
	pairs, err := Plan(newStudy([]string{"q1", "q2", "q3"}, gs), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 1 {
		t.Fatalf("pairs = %d, want 1", len(pairs))
	}
	ps := pairs[0]
	if ps.ModelA != "A" || ps.ModelB != "B" {
		t.Errorf("pair = %v, %v; want A, B", ps.ModelA, ps.ModelB)
	}
	near(t, "mean_a", ps.MeanA, 4, 1e-12)
	near(t, "mean_b", ps.MeanB, 17.0/6, 1e-12)
	near(t, "d", ps.D, 7.0/6, 1e-12)
	near(t, "var_diff", ps.VarDiff, 1.0/3, 1e-12)
	near(t, "var_grader", ps.VarGrader, 0.25, 1e-12)
	near(t, "var_question", ps.VarQuestion, 1.0/12, 1e-12)
	// MDE: (t_{.975, 2} + t_{.8, 2})·√(var_diff/3), with the 2-df closed
	// form t_p = (2p − 1)·√(2/(4p(1 − p))): (4.302653 + 1.060660)/3.
	near(t, "mde_pilot", ps.MDEPilot, (4.302653+1.060660)/3, 1e-6)
	near(t, "graders_pilot", ps.Graders, 2, 0)
	if ps.GraderQuestions != 3 {
		t.Errorf("n_grader_questions = %v, want 3", ps.GraderQuestions)
	}
	for k, g := range opt.GradersPerQuestion {
		v := map[int]float64{1: 7.0 / 12, 2: 1.0 / 3, 3: 1.0 / 4}[g]
		want, _, _ := PairedSampleSize((7.0/6)/math.Sqrt(v), 0.05, 0.8)
		if got := ps.QuestionsByGraders[k]; got != int64(want) {
			t.Errorf("g=%d: n = %v, want %d", g, got, want)
		}
	}
	// The pilot's own design (g = 2) equals the g = 2 column here because
	// var_question was not truncated.
	if ps.QuestionsPilot != ps.QuestionsByGraders[1] {
		t.Errorf("pilot n %v != g2 n %v", ps.QuestionsPilot, ps.QuestionsByGraders[1])
	}
	if ps.Note != "" {
		t.Errorf("note = %q, want empty", ps.Note)
	}
}

// TestPlanCannotSeparate: two models with the same per-question means.
func TestPlanCannotSeparate(t *testing.T) {
	gs := []study.Grading{
		grading("e1", "q1", "A", 4), grading("e2", "q1", "A", 3), grading("e1", "q1", "B", 3), grading("e2", "q1", "B", 4),
		grading("e1", "q2", "A", 2), grading("e2", "q2", "A", 5), grading("e1", "q2", "B", 4), grading("e2", "q2", "B", 3),
	}
	pairs, err := Plan(newStudy([]string{"q1", "q2"}, gs), DefaultPlanOptions())
	if err != nil {
		t.Fatal(err)
	}
	ps := pairs[0]
	for name, v := range map[string]int64{"n_questions_pilot": ps.QuestionsPilot, "n_questions_g1": ps.QuestionsByGraders[0],
		"n_questions_g2": ps.QuestionsByGraders[1], "n_questions_g3": ps.QuestionsByGraders[2]} {
		if v != 0 {
			t.Errorf("%s = %v, want none (0)", name, v)
		}
	}
	if ps.Note != "cannot be separated: the pilot's mean difference is 0" {
		t.Errorf("note = %q", ps.Note)
	}
}

func TestPlanErrors(t *testing.T) {
	one := newStudy([]string{"q1"}, []study.Grading{grading("e1", "q1", "A", 3)})
	bad := DefaultPlanOptions()
	bad.GradersPerQuestion = []int{0}
	noRubric := newStudy([]string{"q1"}, nil)
	noRubric.Attributes = nil
	for name, c := range map[string]struct {
		s   *study.Study
		opt PlanOptions
	}{
		"one model":  {one, DefaultPlanOptions()},
		"graders 0":  {one, bad},
		"alpha":      {one, PlanOptions{Alpha: 2, Power: 0.8}},
		"no rubric":  {noRubric, DefaultPlanOptions()},
		"nil study":  {nil, DefaultPlanOptions()},
		"power<alfa": {one, PlanOptions{Alpha: 0.5, Power: 0.4}},
	} {
		if _, err := Plan(c.s, c.opt); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	r := analyze(one, DefaultOptions())
	if len(r.Pairs) != 0 || len(r.Notes) != 1 {
		t.Errorf("Analyze on one model: %d pairs, %d notes; want 0, 1", len(r.Pairs), len(r.Notes))
	}
}

// TestPlanSimulated simulates y_qmj = μ_m + u_qm + l_qj + e_qmj on 600
// questions × 2 models × 3 graders with σ_u = 0.4 (σ²_q = 2·0.16 = 0.32),
// σ_l = 0.5 (cancels in the difference), σ_e = 0.6 (σ²_e = 0.36) and
// μ_A − μ_B = 0.25, then checks that Plan recovers the two variance parts,
// and that a fresh study of the planned size with 1 grader per response
// rejects at the planned rate (the plan is computed from the true values
// here, so the check is of the design formula and the power, not of the
// pilot's noise).
func TestPlanSimulated(t *testing.T) {
	const nQ, du = 600, 0.25
	rng := stats.NewRand(11, 0)
	var gs []study.Grading
	var qs []string
	for q := 0; q < nQ; q++ {
		id := "q" + itoa(q)
		qs = append(qs, id)
		ua, ub := 0.4*rng.NormFloat64(), 0.4*rng.NormFloat64()
		for j := 0; j < 3; j++ {
			l := 0.5 * rng.NormFloat64()
			e := "e" + itoa(j)
			gs = append(gs, grading(e, id, "A", 3.25+ua+l+0.6*rng.NormFloat64()), grading(e, id, "B", 3+ub+l+0.6*rng.NormFloat64()))
		}
	}
	pairs, err := Plan(newStudy(qs, gs), DefaultPlanOptions())
	if err != nil {
		t.Fatal(err)
	}
	ps := pairs[0]
	// Standard errors: var_grader has 1200 df → 0.36·√(2/1200) ≈ 0.015;
	// var_diff = 0.32 + 0.24 = 0.56 with 599 df → SE ≈ 0.032.
	near(t, "var_grader", ps.VarGrader, 0.36, 0.06)
	near(t, "var_question", ps.VarQuestion, 0.32, 0.13)
	near(t, "d", ps.D, du, 0.12)
	if testing.Short() {
		return
	}
	// Planned size for g = 1 from the true values, checked by simulation.
	sigma := math.Sqrt(0.32 + 2*0.36)
	n, _, err := PairedSampleSize(du/sigma, 0.01, 0.8)
	if err != nil {
		t.Fatal(err)
	}
	const reps = 1500
	rej := 0
	x := make([]float64, n)
	zero := make([]float64, n)
	for r := 0; r < reps; r++ {
		rr := stats.NewRand(12, r)
		for i := range x {
			ua, ub := 0.4*rr.NormFloat64(), 0.4*rr.NormFloat64()
			l := 0.5 * rr.NormFloat64()
			x[i] = (du + ua + l + 0.6*rr.NormFloat64()) - (ub + l + 0.6*rr.NormFloat64())
		}
		if stats.TTestRel(x, zero).P < 0.01 {
			rej++
		}
	}
	// n rounds up, so the power is at least 0.8 (and close to it).
	near(t, "rejection rate", float64(rej)/reps, 0.81, 4*math.Sqrt(0.8*0.2/reps))
}

func itoa(i int) string {
	if i == 0 {
		return "000"
	}
	s := ""
	for k := 0; k < 3; k++ {
		s = string(rune('0'+i%10)) + s
		i /= 10
	}
	return s
}
