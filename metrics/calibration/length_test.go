package calibration

import (
	"fmt"
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// lengthRows returns the length_controlled rows of r keyed by model; it
// fails the test when there are none.
func lengthRows(t *testing.T, r Result) map[string]LengthRow {
	t.Helper()
	if len(r.Length.Rows) == 0 {
		t.Fatalf("no length_controlled rows (notes %v, warnings %v)", r.Notes, r.Warnings)
	}
	out := map[string]LengthRow{}
	for _, row := range r.Length.Rows {
		out[row.Model] = row
	}
	return out
}

// TestLengthHand: 2 questions × 2 models, one human grader.
//
//	q1: A 4 (100 chars), B 3 (100 chars)
//	q2: A 5 (1000 chars), B 2 (100 chars)
//
// With question effects, the differences A − B are 1 = −β_B + γ_L·0 and
// 3 = −β_B + γ_L·ln 10, so β_B = −1 and γ_L = 2/ln 10 per unit of ln chars.
// ln chars are ln100 (×3) and ln1000: mean ln100 + ln10/4, SD (n − 1)
// = (ln10/4)·√((3·1 + 9)/3) = ln10/2, so length_coef = γ_L·SD = 1.
// Centred effects: A +0.5, B −0.5. Raw means 4.5 and 2.5 (effects ±1).
func TestLengthHand(t *testing.T) {
	s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"Quality"}}
	for _, q := range []string{"q1", "q2"} {
		s.Questions = append(s.Questions, study.Question{ID: q, GateScore: math.NaN()})
	}
	add := func(q, m string, v float64, chars int) {
		s.Gradings = append(s.Gradings, study.Grading{Evaluator: "h", Kind: study.Human, Round: "main", QuestionID: q, Model: m, Rubric: []float64{v}})
		s.Responses = append(s.Responses, study.Response{QuestionID: q, Model: m, Chars: chars})
	}
	add("q1", "A", 4, 100)
	add("q1", "B", 3, 100)
	add("q2", "A", 5, 1000)
	add("q2", "B", 2, 100)
	opt := DefaultOptions()
	opt.Bootstrap = 0
	res := analyze(t, s, opt)
	rows := lengthRows(t, res)
	for m, want := range map[string][4]float64{"A": {4.5, 1, 0.5, 550}, "B": {2.5, -1, -0.5, 100}} {
		r := rows[m]
		for i, got := range []float64{r.RawMean, r.RawEffect, r.AdjustedEffect, r.MeanChars} {
			name := []string{"raw_mean", "raw_effect", "adjusted_effect", "mean_chars"}[i]
			if math.Abs(got-want[i]) > 1e-12 {
				t.Errorf("%s %s = %.15g, want %v", m, name, got, want[i])
			}
		}
		if got := res.Length.Coef; math.Abs(got-1) > 1e-12 {
			t.Errorf("length_coef = %.15g, want 1", got)
		}
		if !math.IsNaN(r.AdjustedLo) {
			t.Errorf("Bootstrap 0 gave an interval")
		}
	}
	// The judge tables are left out with a note (no judge).
	if len(res.Notes) == 0 {
		t.Error("no note for the missing judge tables")
	}
}

// TestLengthRemovesInflation: 300 questions × 3 models of equal true
// quality; humans reward length (y = α_q + 0.5·ln chars + noise) and model
// C writes about e times longer answers (ln chars ~ N(7, 0.3²) vs
// N(6, 0.3²)). The raw means put C ahead by about 0.5·(1 − 1/3) = 0.33
// over the average model; the length-adjusted effects must be near 0 with
// intervals covering 0, and length_coef must recover 0.5 × SD(ln chars).
func TestLengthRemovesInflation(t *testing.T) {
	rng := stats.NewRand(9, 0)
	s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"Quality"}}
	var logs []float64
	for q := 0; q < 300; q++ {
		id := fmt.Sprintf("q%03d", q)
		s.Questions = append(s.Questions, study.Question{ID: id, GateScore: math.NaN()})
		alpha := 3 + 0.5*rng.NormFloat64()
		for m, model := range []string{"A", "B", "C"} {
			mean := 6.0
			if m == 2 {
				mean = 7
			}
			chars := int(math.Round(math.Exp(mean + 0.3*rng.NormFloat64())))
			l := math.Log(float64(chars))
			logs = append(logs, l)
			y := alpha + 0.5*(l-6.3) + 0.3*rng.NormFloat64()
			s.Gradings = append(s.Gradings, study.Grading{Evaluator: "h", Kind: study.Human, Round: "main", QuestionID: id, Model: model, Rubric: []float64{y}})
			s.Responses = append(s.Responses, study.Response{QuestionID: id, Model: model, Chars: chars})
		}
	}
	opt := DefaultOptions()
	opt.Bootstrap = 400
	res := analyze(t, s, opt)
	rows := lengthRows(t, res)
	if raw := rows["C"].RawEffect; raw < 0.25 {
		t.Fatalf("simulation: C's raw effect %v is not inflated", raw)
	}
	for m, r := range rows {
		adj, lo, hi := r.AdjustedEffect, r.AdjustedLo, r.AdjustedHi
		t.Logf("%s raw %.4f adjusted %.4f [%.4f, %.4f]", m, r.RawEffect, adj, lo, hi)
		if math.Abs(adj) > 0.08 || !(lo <= 0 && 0 <= hi) {
			t.Errorf("%s: adjusted effect %v [%v, %v], want ≈ 0 with 0 inside", m, adj, lo, hi)
		}
	}
	want := 0.5 * stats.SD(logs)
	got := res.Length.Coef
	t.Logf("length_coef %.4f, want %.4f", got, want)
	if math.Abs(got-want) > 0.06 {
		t.Errorf("length_coef %v, want %v ± 0.06", got, want)
	}
}

// TestLengthDegenerate: equal lengths everywhere, and no response texts.
func TestLengthDegenerate(t *testing.T) {
	s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"Quality"}}
	s.Questions = []study.Question{{ID: "q1", GateScore: math.NaN()}}
	for _, m := range []string{"A", "B"} {
		s.Gradings = append(s.Gradings, study.Grading{Evaluator: "h", Kind: study.Human, Round: "main", QuestionID: "q1", Model: m, Rubric: []float64{3}})
	}
	res := analyze(t, s, DefaultOptions())
	if len(res.Length.Rows) != 0 {
		t.Fatal("length rows without texts")
	}
	for _, m := range []string{"A", "B"} {
		s.Responses = append(s.Responses, study.Response{QuestionID: "q1", Model: m, Chars: 50})
	}
	res = analyze(t, s, DefaultOptions())
	found := false
	for _, n := range res.Notes {
		if n.Table == TableLength {
			found = true
		}
	}
	if !found {
		t.Error("no note for equal lengths")
	}
}
