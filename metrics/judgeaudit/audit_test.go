package judgeaudit

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// handStudy is the small study whose every number is worked out by hand in
// TestHandComputed: 2 questions × models a (provider P) and b (provider Q),
// humans h1 and h2, judge J (provider p) run twice with positions, two
// rubric attributes and two checklist items.
func handStudy() *study.Study {
	s := &study.Study{MainRound: "main", HumanLabel: "Human Expert", Attributes: []string{"A1", "A2"}, ScaleMin: 1, ScaleMax: 5}
	for _, q := range []string{"q1", "q2"} {
		s.Questions = append(s.Questions, study.Question{ID: q, Domain: "D", Checklist: []string{"i1", "i2"}})
	}
	s.Models = []study.Model{{Name: "a", Provider: "P"}, {Name: "b", Provider: "Q"}}
	s.Evaluators = []study.Evaluator{{ID: "J", Kind: study.Judge, Provider: "p"}, {ID: "h1", Kind: study.Human}, {ID: "h2", Kind: study.Human}}
	chars := map[string]int{"q1a": 100, "q1b": 200, "q2a": 400, "q2b": 800}
	for _, k := range []string{"q1a", "q1b", "q2a", "q2b"} {
		s.Responses = append(s.Responses, study.Response{QuestionID: k[:2], Model: k[2:], Text: "x", Chars: chars[k]})
	}
	H, P, M, N := study.Hit, study.Partial, study.Miss, study.NA
	add := func(ev, kind, run, k string, pos int, r []float64, v []study.Verdict) {
		s.Gradings = append(s.Gradings, study.Grading{Evaluator: ev, Kind: kind, Round: "main", Run: run,
			QuestionID: k[:2], Model: k[2:], Rubric: r, Verdicts: v, Position: pos})
	}
	hm := study.Human
	add("h1", hm, "", "q1a", 0, []float64{3, 3}, []study.Verdict{H, H})
	add("h2", hm, "", "q1a", 0, []float64{4, 4}, []study.Verdict{H, M})
	add("h1", hm, "", "q1b", 0, []float64{2, 2}, []study.Verdict{M, M})
	add("h2", hm, "", "q1b", 0, []float64{2, 2}, []study.Verdict{M, M})
	add("h1", hm, "", "q2a", 0, []float64{4, 4}, []study.Verdict{H, P})
	add("h2", hm, "", "q2a", 0, []float64{4, 4}, []study.Verdict{H, H})
	add("h1", hm, "", "q2b", 0, []float64{3, 3}, []study.Verdict{N, M})
	add("h2", hm, "", "q2b", 0, []float64{1, 1}, []study.Verdict{M, M})
	j := study.Judge
	add("J", j, "1", "q1a", 1, []float64{4, 5}, []study.Verdict{H, H})
	add("J", j, "2", "q1a", 2, []float64{4, 4}, []study.Verdict{H, H})
	add("J", j, "1", "q1b", 2, []float64{3, 3}, []study.Verdict{H, M})
	add("J", j, "2", "q1b", 1, []float64{2, 2}, []study.Verdict{M, M})
	add("J", j, "1", "q2a", 1, []float64{5, 5}, []study.Verdict{H, H})
	add("J", j, "2", "q2a", 2, []float64{5, 5}, []study.Verdict{H, H})
	add("J", j, "1", "q2b", 2, []float64{2, 2}, []study.Verdict{M, M})
	add("J", j, "2", "q2b", 1, []float64{3, 3}, []study.Verdict{M, M})
	return s
}

// biasBy maps "judge/bias" (Judge.Biases) or "judge/attribute"
// (Judge.ByAttribute, attr set) to the typed rows of r.
func biasBy(r Result, attr bool) map[string]Bias {
	out := map[string]Bias{}
	for _, j := range r.Judges {
		bs, key := j.Biases, func(b Bias) string { return b.Name }
		if attr {
			bs, key = j.ByAttribute, func(b Bias) string { return b.Attribute }
		}
		for _, b := range bs {
			out[j.Judge+"/"+key(b)] = b
		}
	}
	return out
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.IsNaN(want) != math.IsNaN(got) || (!math.IsNaN(want) && math.Abs(got-want) > 1e-12*max(1, math.Abs(want))) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// TestHandComputed checks every estimate against the hand computation in
// the comments (residuals 0.75, 0.5, 1, 0.5 on q1a, q1b, q2a, q2b).
func TestHandComputed(t *testing.T) {
	opt := DefaultOptions()
	opt.Bootstrap = 0
	res, err := Analyze(context.Background(), handStudy(), opt)
	if err != nil {
		t.Fatal(err)
	}
	rows := biasBy(res, false)
	// Human grading means 3,4,2,2,4,4,3,1: Σ(x − 2.875)² = 8.875.
	// Judge response means 4.25, 2.5, 5, 2.5: Σ dev² = 4.796875; human
	// response means 3.5, 2, 4, 2: Σ dev² = 3.1875.
	// Runs (4.5,4), (3,2), (5,5), (2,3): within Σ (a−b)² = 2.25; N = 8,
	// Σv = 28.5, Σv² = 112.25 → 8·112.25 − 28.5² = 85.75.
	want := map[string]struct {
		est float64
		n   int64
	}{
		Leniency:          {2.75 / 4, 4},
		LeniencyStd:       {2.75 / 4 / math.Sqrt(8.875/7), 4},
		Length:            {-0.125 / 5, 4},   // x = −1.5, −0.5, 0.5, 1.5 (log2 of 100·2^k, centred)
		SelfPreference:    {0.875 - 0.5, 4},  // a (own provider, case-insensitive): .75, 1; b: .5, .5
		Position:          {0.75 - 0.625, 8}, // first: 1, 0, 1, 1; later: .5, 1, 1, 0
		Scale:             {math.Sqrt(4.796875 / 3.1875), 4},
		Rerun:             {1 - 7*2.25/85.75, 4},
		RerunMAD:          {2.5 / 4, 4},
		ChecklistLeniency: {0.625 / 4, 4}, // judge 1, .25, 1, 0 vs humans .75, 0, .875, 0
	}
	for name, w := range want {
		r, ok := rows["J/"+name]
		if !ok {
			t.Errorf("no row for %s", name)
			continue
		}
		near(t, name, r.Estimate, w.est)
		if r.N != w.n {
			t.Errorf("%s: n = %v, want %d", name, r.N, w.n)
		}
		if r.Decided() || r.Flagged {
			t.Errorf("%s: flag decided (%v) without an interval, want undecided", name, r.Flagged)
		}
	}
	// Krippendorff's α from the per-response sufficient statistics agrees
	// with the reference-vector-tested stats.KrippendorffAlpha.
	near(t, "rerun vs stats.KrippendorffAlpha", rows["J/"+Rerun].Estimate,
		stats.KrippendorffAlpha([][]float64{{4.5, 3, 5, 2}, {4, 2, 5, 3}}, stats.Interval))

	attr := biasBy(res, true)
	near(t, "A1", attr["J/A1"].Estimate, 2.5/4)
	near(t, "A2", attr["J/A2"].Estimate, 3.0/4)

	if len(res.Judges) != 1 || res.Judges[0].Judge != "J" {
		t.Fatalf("judges %v, want J only", res.Judges)
	}
	audit := res.Judges[0]
	near(t, "tau", audit.Tau, 1) // both questions: judge and humans order a over b
	if audit.TauN != 2 || audit.Responses != 4 || audit.Questions != 2 {
		t.Errorf("tau_n, n_responses, n_questions = %v, %v, %v; want 2, 4, 2", audit.TauN, audit.Responses, audit.Questions)
	}
	// Solved pairs (human, judge): q1a (1,1) (0,1); q1b (0,0)×2; q2a (1,1)×2;
	// q2b (0,0)×2 → p_o = 7/8, p_e = 3/8·4/8 + 5/8·4/8 = 1/2, κ = 0.75.
	near(t, "kappa", audit.Kappa, 0.75)
	near(t, "macro_f1", audit.MacroF1, (6.0/7+8.0/9)/2)
	if audit.Pairs != 8 {
		t.Errorf("n_pairs = %v, want 8", audit.Pairs)
	}
}

// TestNotes checks that empty rows say why.
func TestNotes(t *testing.T) {
	s := handStudy()
	s.Evaluators[0].Provider = ""
	for i := range s.Gradings {
		s.Gradings[i].Position = 0
		s.Gradings[i].Verdicts = nil
		if s.Gradings[i].Run == "2" {
			s.Gradings[i].Run = "1"
			s.Gradings[i].Evaluator = "J" // kept, but one run per response below
		}
	}
	// Keep one run per response.
	var gs []study.Grading
	for _, g := range s.Gradings {
		if g.Kind == study.Judge && g.Run == "1" && g.Rubric[0] == 2 && g.QuestionID == "q1" {
			continue
		}
		gs = append(gs, g)
	}
	s.Gradings = gs
	s.Responses = nil
	opt := DefaultOptions()
	opt.Bootstrap = 50
	res, err := Analyze(context.Background(), s, opt)
	if err != nil {
		t.Fatal(err)
	}
	rows := biasBy(res, false)
	for name, want := range map[string]string{
		SelfPreference:    "no provider given for the judge",
		Position:          "no position given",
		Length:            "no response text",
		ChecklistLeniency: "the study has no checklist",
	} {
		r := rows["J/"+name]
		if !math.IsNaN(r.Estimate) || !strings.Contains(r.Note, want) {
			t.Errorf("%s: estimate %v, note %q; want empty with a note containing %q", name, r.Estimate, r.Note, want)
		}
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Analyze(ctx, handStudy(), DefaultOptions())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestNoJudges(t *testing.T) {
	s := handStudy()
	var gs []study.Grading
	for _, g := range s.Gradings {
		if g.Kind == study.Human {
			gs = append(gs, g)
		}
	}
	s.Gradings = gs
	res, err := Analyze(context.Background(), s, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Judges) != 0 || len(res.Notes) != 3 {
		t.Errorf("got %d judges and notes %v; want none and 3 notes", len(res.Judges), res.Notes)
	}
}

func TestVerdict(t *testing.T) {
	th := DefaultThresholds()
	yes := func(e float64) Bias { return Bias{Estimate: e, Lo: e, Hi: e, Flagged: true} }
	for _, c := range []struct {
		name  string
		tau   float64
		kappa float64
		rows  map[string]Bias
		want  string
	}{
		{"fair", 0.8, 0.7, nil, "usable for ranking and absolute scores"},
		{"lenient", 0.8, 0.7, map[string]Bias{Leniency: yes(0.4)}, "usable for ranking, not for absolute scores: lenient by 0.40 points"},
		{"lenient but small", 0.8, 0.7, map[string]Bias{Leniency: yes(0.1)}, "usable for ranking and absolute scores; detectable but below the materiality thresholds: lenient by 0.10 points, under 0.25 points"},
		{"not flagged", 0.8, 0.7, map[string]Bias{Leniency: {Estimate: 0.6, Lo: 0.5, Hi: 0.7, Flagged: false}}, "usable for ranking and absolute scores"},
		{"self", 0.8, 0.7, map[string]Bias{SelfPreference: yes(0.6)}, "not usable for ranking: favours its own provider by 0.60 points; usable for absolute scores"},
		{"both", 0.3, 0.2, map[string]Bias{Scale: yes(0.6)}, "not usable for ranking or absolute scores: orders models unlike the humans (τ 0.30 < 0.50); compresses the scale (SD ratio 0.60); agrees little with the humans on solved (κ 0.20 < 0.40)"},
	} {
		if got := Verdict(10, c.tau, c.kappa, c.rows, th); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
	if got := Verdict(0, 1, 1, nil, th); !strings.HasPrefix(got, "not audited") {
		t.Errorf("no responses: %q", got)
	}
}

// TestVerdictLower checks the words on a lower-is-better scale (penalties):
// a judge below the humans is lenient, above them severe; scoring its own
// provider lower favours it; a positive length slope rewards shorter answers.
func TestVerdictLower(t *testing.T) {
	th := DefaultThresholds()
	yes := func(e float64) Bias { return Bias{Estimate: e, Lo: e, Hi: e, Flagged: true} }
	for _, c := range []struct {
		name  string
		rows  map[string]Bias
		lower bool
		want  string
	}{
		{"fewer penalties", map[string]Bias{Leniency: yes(-0.4)}, true, "usable for ranking, not for absolute scores: lenient by 0.40 points"},
		{"more penalties", map[string]Bias{Leniency: yes(0.4)}, true, "usable for ranking, not for absolute scores: severe by 0.40 points"},
		{"higher scores, higher is better", map[string]Bias{Leniency: yes(0.4)}, false, "usable for ranking, not for absolute scores: lenient by 0.40 points"},
		{"own provider penalised less", map[string]Bias{SelfPreference: yes(-0.6)}, true, "not usable for ranking: favours its own provider by 0.60 points; usable for absolute scores"},
		{"length slope up", map[string]Bias{Length: yes(0.5)}, true, "not usable for ranking: rewards shorter responses (+0.50 points per doubling); usable for absolute scores"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Helper()
			if got := VerdictScale(10, 0.8, 0.7, c.rows, th, c.lower); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
