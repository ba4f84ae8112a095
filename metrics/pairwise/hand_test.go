package pairwise

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/study"
)

const (
	H = study.Human
	J = study.Judge
	A = study.PreferA
	B = study.PreferB
	T = study.Tie
)

func run(t *testing.T, s *study.Study, boot int) Result {
	t.Helper()
	opt := DefaultOptions()
	opt.Bootstrap = boot
	opt.MinOverlap = 1
	res, err := Analyze(context.Background(), s, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func studyOf(cs ...study.Comparison) *study.Study {
	return &study.Study{MainRound: "main", Comparisons: cs}
}

// Hand-computed cases.
func TestHandCases(t *testing.T) {
	log3 := 200 * math.Log10(3) // A beats B 3–1: β_A − β_B = ln 3, ratings 1000 ± 200·log10 3
	tests := []struct {
		name   string
		cs     []study.Comparison
		rating map[string]float64
		rate   map[string]float64
		note   string
	}{
		{"two models 3–1", []study.Comparison{
			judg("h1", H, "q1", "A", "B", A), judg("h1", H, "q2", "A", "B", A),
			judg("h1", H, "q3", "B", "A", B), judg("h1", H, "q4", "A", "B", B)},
			map[string]float64{"A": 1000 + log3, "B": 1000 - log3},
			map[string]float64{"A": 0.75, "B": 0.25}, ""},
		{"two models, a tie counts half: 2 wins 1 tie 1 loss", []study.Comparison{
			judg("h1", H, "q1", "A", "B", A), judg("h1", H, "q2", "A", "B", A),
			judg("h1", H, "q3", "A", "B", T), judg("h1", H, "q4", "A", "B", B)},
			// half wins 2.5 vs 1.5: β_A − β_B = ln(5/3)
			map[string]float64{"A": 1000 + 200*math.Log10(5.0/3), "B": 1000 - 200*math.Log10(5.0/3)},
			map[string]float64{"A": 0.625, "B": 0.375}, ""},
		{"3-model cycle", []study.Comparison{
			judg("h1", H, "q1", "A", "B", A), judg("h1", H, "q1", "B", "C", A), judg("h1", H, "q1", "C", "A", A),
			judg("h1", H, "q2", "A", "B", A), judg("h1", H, "q2", "B", "C", A), judg("h1", H, "q2", "C", "A", A)},
			map[string]float64{"A": 1000, "B": 1000, "C": 1000},
			map[string]float64{"A": 0.5, "B": 0.5, "C": 0.5}, ""},
		{"all ties", []study.Comparison{
			judg("h1", H, "q1", "A", "B", T), judg("h1", H, "q1", "B", "C", T), judg("h1", H, "q2", "A", "C", T)},
			map[string]float64{"A": 1000, "B": 1000, "C": 1000},
			map[string]float64{"A": 0.5, "B": 0.5, "C": 0.5}, ""},
		{"never loses", []study.Comparison{
			judg("h1", H, "q1", "A", "B", A), judg("h1", H, "q2", "A", "B", A),
			judg("h1", H, "q1", "B", "C", A), judg("h1", H, "q2", "B", "C", B)},
			// Prior 0.01 ties per pair, i.e. 0.005 half-wins each way added to
			// every pair: checked against the test's own solver below.
			nil, map[string]float64{"A": 1, "B": 0.25, "C": 0.5}, "A never loses"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, studyOf(tc.cs...), 200)
			rows := rowsOf(t, res, ModelsTable)
			for m, want := range tc.rate {
				r := find(rows, "graders", "humans", "model", m)
				if r == nil {
					t.Fatalf("no row for %s", m)
				}
				checkClose(t, m+" win rate", f(r["win_rate"]), want, 1e-15)
				if v := f(r["bt_rating"]); math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("%s rating %v, want finite", m, v)
				}
				for _, c := range []string{"win_rate_lo", "win_rate_hi", "bt_rating_lo", "bt_rating_hi"} {
					if m == "A" && tc.note == "A never loses" && c == "bt_rating_hi" {
						// One-sided (TestNeverLosesOneSided).
						if v := f(r[c]); !math.IsInf(v, 1) {
							t.Errorf("%s %s = %v, want +Inf", m, c, v)
						}
						continue
					}
					if v := f(r[c]); math.IsNaN(v) || math.IsInf(v, 0) {
						t.Errorf("%s %s = %v, want finite", m, c, v)
					}
				}
			}
			for m, want := range tc.rating {
				checkClose(t, m+" rating", f(find(rows, "model", m)["bt_rating"]), want, 1e-9)
			}
			if tc.note != "" && !hasNote(res, ModelsTable, tc.note) {
				t.Errorf("no note saying %q; notes: %v", tc.note, res.Notes)
			}
			if tc.note == "" && len(res.Notes) > 0 {
				for _, n := range res.Notes {
					if n.Table == ModelsTable {
						t.Errorf("unexpected note %v", n)
					}
				}
			}
		})
	}
}

// A never-losing model: the rating with the documented prior equals a plain
// solver's on the counts plus 0.005 half-wins each way per pair, and the
// winner is ranked first.
func TestNeverLosesPrior(t *testing.T) {
	res := run(t, studyOf(judg("h1", H, "q1", "A", "B", A), judg("h1", H, "q2", "A", "B", A),
		judg("h1", H, "q1", "B", "C", A), judg("h1", H, "q2", "B", "C", B)), 0)
	rows := rowsOf(t, res, ModelsTable)
	e := 0.005
	w := [][]float64{{0, 2 + e, e}, {e, 0, 1 + e}, {e, 1 + e, 0}}
	beta := mmSolve(w)
	for i, m := range []string{"A", "B", "C"} {
		checkClose(t, m+" rating", f(find(rows, "model", m)["bt_rating"]), 1000+400*math.Log10(math.E)*beta[i], 1e-9)
	}
	if r := find(rows, "model", "A"); r["rank"] != int64(1) {
		t.Errorf("A rank %v, want 1", r["rank"])
	}
}

// One judge sees the same pair in both orders and always prefers the first
// shown: position share 1, swap consistency 0, conflict rate 1. A second
// judge is consistent.
func TestBothOrders(t *testing.T) {
	var cs []study.Comparison
	for _, q := range []string{"q1", "q2", "q3"} {
		cs = append(cs, judg("j1", J, q, "A", "B", A), judg("j1", J, q, "B", "A", A))
		cs = append(cs, judg("j2", J, q, "A", "B", A), judg("j2", J, q, "B", "A", B))
	}
	cs = append(cs, judg("j2", J, "q4", "A", "B", T), judg("j2", J, "q4", "B", "A", A))
	res := run(t, studyOf(cs...), 100)
	pos := rowsOf(t, res, PositionTable)
	j1, j2 := find(pos, "graders", "j1"), find(pos, "graders", "j2")
	checkClose(t, "j1 first share", f(j1["first_share"]), 1, 0)
	checkClose(t, "j1 swap consistency", f(j1["swap_consistency"]), 0, 0)
	checkClose(t, "j1 conflict", f(j1["conflict_rate"]), 1, 0)
	// 6 non-tie verdicts all first: p = 2·(½)^6.
	checkClose(t, "j1 p", f(j1["p_value"]), 2.0/64, 1e-15)
	if j1["n_swapped"] != int64(3) || j2["n_swapped"] != int64(4) {
		t.Errorf("n_swapped %v %v, want 3 4", j1["n_swapped"], j2["n_swapped"])
	}
	// j2: 3 consistent (A wins in both orders), q4 tie vs B-shown-first wins: inconsistent, no conflict.
	checkClose(t, "j2 swap consistency", f(j2["swap_consistency"]), 0.75, 0)
	checkClose(t, "j2 conflict", f(j2["conflict_rate"]), 0, 0)
	// j2 non-tie: 3 first (A in AB order) + 3 second (A in BA order) + 1 first (q4 BA order, B first wins? B is ModelA there)
	checkClose(t, "j2 first share", f(j2["first_share"]), 4.0/7, 1e-15)
	// Agreement: j1's per-comparison verdict is a tie (one win each way), j2's is A.
	ag := rowsOf(t, res, AgreementTable)
	r := find(ag, "grader_a", "j1", "grader_b", "j2")
	if r == nil || r["n"] != int64(3) { // j1 did not judge q4
		t.Fatalf("agreement row j1–j2: %v", r)
	}
	checkClose(t, "j1–j2 agreement", f(r["agreement"]), 0, 0)
	// Matrix: both orders counted together from model A's side.
	mx := rowsOf(t, res, MatrixTable)
	ab := find(mx, "graders", "j1", "model_a", "A", "model_b", "B")
	if ab["n"] != int64(6) || ab["wins_a"] != int64(3) || ab["wins_b"] != int64(3) {
		t.Errorf("j1 A–B cell %v", ab)
	}
	ba := find(mx, "graders", "j2", "model_a", "B", "model_b", "A")
	if ba["n"] != int64(8) || ba["wins_a"] != int64(1) || ba["ties"] != int64(1) || ba["wins_b"] != int64(6) {
		t.Errorf("j2 B–A cell %v", ba)
	}
}

// Length bias and rubric agreement from responses and rubric gradings.
func TestLengthAndRubric(t *testing.T) {
	s := studyOf(judg("h1", H, "q1", "A", "B", A), judg("h1", H, "q2", "A", "B", B), judg("h1", H, "q3", "A", "B", A), judg("h1", H, "q3", "B", "C", T))
	long, short := strings.Repeat("x", 100), strings.Repeat("y", 50)
	s.Responses = []study.Response{
		{QuestionID: "q1", Model: "A", Text: long, Chars: 100}, {QuestionID: "q1", Model: "B", Text: short, Chars: 50},
		{QuestionID: "q2", Model: "A", Text: long, Chars: 100}, {QuestionID: "q2", Model: "B", Text: short, Chars: 50},
		{QuestionID: "q3", Model: "A", Chars: 60}, {QuestionID: "q3", Model: "B", Chars: 50}, // within the margin
	}
	s.Attributes = []string{"Overall"}
	g := func(ev, q, m string, v float64) study.Grading {
		return study.Grading{Evaluator: ev, Kind: H, Round: "main", QuestionID: q, Model: m, Rubric: []float64{v}}
	}
	s.Gradings = []study.Grading{g("h2", "q1", "A", 4), g("h2", "q1", "B", 2), g("h2", "q2", "A", 4), g("h3", "q2", "A", 5), g("h2", "q2", "B", 3),
		g("h2", "q3", "A", 3), g("h2", "q3", "B", 3)}
	res := run(t, s, 50)
	lr := find(rowsOf(t, res, LengthTable), "graders", "humans")
	if lr["n"] != int64(2) || lr["longer_wins"] != int64(1) {
		t.Errorf("length row %v, want n 2, longer_wins 1", lr)
	}
	checkClose(t, "length p", f(lr["p_value"]), 1, 0)
	rr := find(rowsOf(t, res, RubricTable), "graders", "humans")
	// q1: A (4) beat B (2): agree; q2: B (3) beat A (4.5): disagree; q3: equal means, left out.
	if rr["n"] != int64(2) || rr["agree"] != int64(1) {
		t.Errorf("rubric row %v, want n 2, agree 1", rr)
	}
}

// No comparisons: no rows and no error; cancelled context: an error.
func TestEmptyAndCancel(t *testing.T) {
	res := run(t, &study.Study{MainRound: "main"}, 10)
	if len(res.Populations) != 0 || len(res.Agreement) != 0 || len(res.Judges) != 0 {
		t.Errorf("populations %d, agreement rows %d, judges %d; want none", len(res.Populations), len(res.Agreement), len(res.Judges))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, studyOf(judg("h1", H, "q1", "A", "B", A)), DefaultOptions()); err == nil {
		t.Error("no error for a cancelled context")
	}
	opt := DefaultOptions()
	opt.Level = 1.5
	if _, err := Analyze(context.Background(), studyOf(), opt); err == nil || !strings.Contains(err.Error(), "level") {
		t.Errorf("error %v, want one about the level", err)
	}
}

// Same seed, same numbers, whatever GOMAXPROCS.
func TestDeterministic(t *testing.T) {
	var cs []study.Comparison
	ms := []string{"A", "B", "C", "D"}
	for q := 0; q < 40; q++ {
		for i := range ms {
			for j := i + 1; j < len(ms); j++ {
				w := study.Preference((q*7 + i*3 + j) % 3)
				cs = append(cs, judg("h1", H, string(rune('a'+q%26))+string(rune('a'+q/26)), ms[i], ms[j], w))
			}
		}
	}
	a := run(t, studyOf(cs...), 300)
	prev := setProcs(1)
	b := run(t, studyOf(cs...), 300)
	setProcs(prev)
	ta, tb := rowsOf(t, a, ModelsTable), rowsOf(t, b, ModelsTable)
	for i := range ta {
		for k, v := range ta[i] {
			if fv, ok := v.(float64); ok && !(fv == f(tb[i][k]) || math.IsNaN(fv) && math.IsNaN(f(tb[i][k]))) {
				t.Errorf("row %d %s: %v vs %v", i, k, v, tb[i][k])
			}
		}
	}
}

// TestRubricAgreementLower: on a lower-is-better rubric (penalties) the
// verdict agrees with the rubric when the winner has the lower mean. A
// (4 penalty points) beat B (2) on q1: agreement on a higher-is-better
// scale, disagreement on a lower-is-better one.
func TestRubricAgreementLower(t *testing.T) {
	for _, c := range []struct {
		lower bool
		agree int64
	}{{false, 1}, {true, 0}} {
		s := studyOf(judg("h1", H, "q1", "A", "B", A))
		s.Attributes, s.LowerIsBetter = []string{"MQM"}, c.lower
		s.Gradings = []study.Grading{
			{Evaluator: "h2", Kind: H, Round: "main", QuestionID: "q1", Model: "A", Rubric: []float64{4}},
			{Evaluator: "h2", Kind: H, Round: "main", QuestionID: "q1", Model: "B", Rubric: []float64{2}},
		}
		rr := find(rowsOf(t, run(t, s, 10), RubricTable), "graders", "humans")
		if rr["n"] != int64(1) || rr["agree"] != c.agree {
			t.Errorf("lower %v: rubric row %v, want n 1, agree %d", c.lower, rr, c.agree)
		}
	}
}

// Judgments whose order shown is unknown count in every table but the
// position table: j1 judged A–B on four questions, two of them with the
// order unknown.
func TestPositionUnknown(t *testing.T) {
	unk := func(c study.Comparison) study.Comparison {
		c.PositionUnknown = true
		return c
	}
	res := run(t, studyOf(
		judg("j1", J, "q1", "A", "B", A), judg("j1", J, "q2", "B", "A", A),
		unk(judg("j1", J, "q3", "A", "B", A)), unk(judg("j1", J, "q4", "A", "B", B)),
		// q1 judged in the other order too; with the order unknown it is no swap.
		unk(judg("j1", J, "q1", "B", "A", B))), 0)
	p := find(rowsOf(t, res, PositionTable), "graders", "j1")
	if p["n"] != int64(2) || p["first_wins"] != int64(2) || p["n_swapped"] != int64(0) || p["n_position_unknown"] != int64(3) {
		t.Errorf("position row %v; want n 2, first_wins 2, n_swapped 0, n_position_unknown 3", p)
	}
	m := find(rowsOf(t, res, ModelsTable), "graders", "j1", "model", "A")
	if m["n"] != int64(5) || m["wins"] != int64(3) || m["losses"] != int64(2) {
		t.Errorf("model A row %v; want n 5, wins 3, losses 2", m)
	}
}

// Self-preference of a pairwise judge, by hand: judge j (provider OpenAI)
// prefers gpt (OpenAI) over claude on q1–q3; the human prefers gpt on q1,
// claude on q2 and ties on q3. Differences 0, 1, ½: mean ½, cluster-robust
// SE √(3/2 · ½ / 9) = 1/√12, t = √3 with 2 degrees of freedom, p =
// 1 − √3/√5. The agreement with the humans and the position come from the
// other tables.
func TestJudgeAuditSelfPreference(t *testing.T) {
	s := studyOf(
		judg("j", J, "q1", "gpt", "claude", A), judg("j", J, "q2", "claude", "gpt", B), judg("j", J, "q3", "gpt", "claude", A),
		judg("h", H, "q1", "gpt", "claude", A), judg("h", H, "q2", "claude", "gpt", A), judg("h", H, "q3", "gpt", "claude", T))
	s.Models = []study.Model{{Name: "claude", Provider: "Anthropic"}, {Name: "gpt", Provider: " openai "}}
	s.Evaluators = []study.Evaluator{{ID: "h", Kind: H}, {ID: "j", Kind: J, Provider: "OpenAI"}}
	res := run(t, s, 0)
	if len(res.Judges) != 1 {
		t.Fatalf("judges %+v", res.Judges)
	}
	j := res.Judges[0]
	if j.Judge != "j" || j.N != 3 || j.SelfN != 3 {
		t.Errorf("row %+v; want judge j, 3 judgments, 3 self comparisons", j)
	}
	checkClose(t, "self-preference", j.SelfPreference.Value, 0.5, 1e-15)
	checkClose(t, "self-preference p", j.SelfP, 1-math.Sqrt(3)/math.Sqrt(5), 1e-12)
	checkClose(t, "self-preference hi", j.SelfPreference.Hi, 0.5+4.302652729911275/math.Sqrt(12), 1e-9) // t_{2, 0.975}
	checkClose(t, "first share", j.FirstShare.Value, 2.0/3, 1e-15)
	if j.KappaN != 3 || !(j.Agreement.Value == 1.0/3) {
		t.Errorf("agreement with the human majority: n %d, %v; want 3 and 1/3", j.KappaN, j.Agreement.Value)
	}
	// Without providers: no self-preference.
	s.Evaluators[1].Provider = ""
	if j := run(t, s, 0).Judges[0]; !math.IsNaN(j.SelfPreference.Value) || j.SelfN != 0 {
		t.Errorf("no provider: %+v", j)
	}
}
