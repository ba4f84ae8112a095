package scores

import (
	"fmt"
	"math"
	"testing"

	"github.com/euroexec/euroexec/study"
)

func TestCompute(t *testing.T) {
	H, P, M, N := study.Hit, study.Partial, study.Miss, study.NA
	s := &study.Study{
		Attributes: []string{"A", "B"},
		Gradings: []study.Grading{
			// Human: rubric (3+3)/2 = 3 ≥ 3; checklist (1 + 0.5)/(3 items not na) = 0.5 < 0.6 → not solved.
			{Evaluator: "h", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "m1", Rubric: []float64{3, 3}, Verdicts: []study.Verdict{H, P, M, N}, Rank: 2},
			// Human: rubric 3, checklist (1+1+0.5)/4 = 0.625 → solved.
			{Evaluator: "h", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "m2", Rubric: []float64{2, 4}, Verdicts: []study.Verdict{H, H, P, M}, Rank: 1},
			// Judge, two runs: A = (4+5)/2 = 4.5, B = 3 (second run missing) → mean 3.75;
			// rates 2/2 = 1 and 1/2 = 0.5 → 0.75; ranks 1 and 2 → 1.5.
			{Evaluator: "j", Kind: study.Judge, Round: "main", Run: "1", QuestionID: "q1", Model: "m1", Rubric: []float64{4, 3}, Verdicts: []study.Verdict{H, H}, Rank: 1},
			{Evaluator: "j", Kind: study.Judge, Round: "main", Run: "2", QuestionID: "q1", Model: "m1", Rubric: []float64{5, math.NaN()}, Verdicts: []study.Verdict{H, M}, Rank: 2},
		},
	}
	got := Compute(s, DefaultOptions())
	if len(got) != 3 {
		t.Fatalf("got %d gradings, want 3", len(got))
	}
	check := func(i int, mean, rate, rank float64, solved bool, runs int) {
		t.Helper()
		g := got[i]
		if g.RubricMean != mean || g.ChecklistRate != rate || g.Rank != rank || g.Solved != solved || int(g.Runs) != runs {
			t.Errorf("%s/%s: got mean %v rate %v rank %v solved %v runs %d; want %v %v %v %v %d",
				g.Evaluator, g.Model, g.RubricMean, g.ChecklistRate, g.Rank, g.Solved, g.Runs, mean, rate, rank, solved, runs)
		}
	}
	// Each passes the same gradings in the same order
	var each []Grading
	Each(s, DefaultOptions(), func(g *Grading) { each = append(each, *g) })
	if g, w := fmt.Sprintf("%+v", each), fmt.Sprintf("%+v", got); g != w {
		t.Errorf("Each passed\n%s\nwant Compute's\n%s", g, w)
	}
	check(0, 3, 0.5, 2, false, 1)      // h, m1
	check(1, 3.75, 0.75, 1.5, true, 2) // j, m1 (sorted by evaluator after model)
	check(2, 3, 0.625, 1, true, 1)     // h, m2
}

// TestRuleUndefined: the one treatment of undefined scores, worked by hand.
func TestRuleUndefined(t *testing.T) {
	H, M, N, X := study.Hit, study.Miss, study.NA, study.VerdictNone
	nan := math.NaN()
	tests := []struct {
		name      string
		attrs     int
		checklist bool
		rubric    []float64
		verdicts  []study.Verdict
		solve     int8
		usable    bool
	}{
		{"all na checklist, rubric passes", 2, true, []float64{4, 4}, []study.Verdict{N, N, N}, Undefined, true},
		{"every judge score dropped", 2, true, []float64{nan, nan}, []study.Verdict{X, X}, Undefined, false},
		{"no rubric score, checklist passes", 2, true, []float64{nan, nan}, []study.Verdict{H, H}, Undefined, true},
		{"3 of 5 = 0.60 exactly", 2, true, []float64{3, 3}, []study.Verdict{H, H, H, M, M}, Solved, true},
		{"rubric 5/2 < 3", 2, true, []float64{2, 3}, []study.Verdict{H, H}, Unsolved, true},
		{"rubric-only study ignores verdicts", 2, false, []float64{3, 3}, nil, Solved, true},
		{"checklist-only study, all na", 0, true, nil, []study.Verdict{N}, Undefined, false},
		{"neither instrument", 0, false, nil, nil, Undefined, false},
	}
	for _, tt := range tests {
		sc := NewScorer(tt.attrs, tt.checklist, DefaultOptions())
		g := sc.Score([]study.Grading{{Evaluator: "e", Kind: study.Judge, Round: "main", QuestionID: "q", Model: "m",
			Rubric: tt.rubric, Verdicts: tt.verdicts}})
		if g.Solve != tt.solve || g.Solved != (tt.solve == Solved) || g.Usable() != tt.usable {
			t.Errorf("%s: got solve %d (solved %v) usable %v; want %d usable %v", tt.name, g.Solve, g.Solved, g.Usable(), tt.solve, tt.usable)
		}
	}
}

// Two runs of a judge averaged: attribute A (4+5)/2, B 3 → rubric mean
// (9/2 + 3)/2 = 15/4; checklist rates 1 and 1/2 → 3/4.
func ExampleCompute() {
	s := &study.Study{Attributes: []string{"A", "B"}, Gradings: []study.Grading{
		{Evaluator: "j", Kind: study.Judge, Round: "main", Run: "1", QuestionID: "q1", Model: "m1",
			Rubric: []float64{4, 3}, Verdicts: []study.Verdict{study.Hit, study.Hit}},
		{Evaluator: "j", Kind: study.Judge, Round: "main", Run: "2", QuestionID: "q1", Model: "m1",
			Rubric: []float64{5, 3}, Verdicts: []study.Verdict{study.Hit, study.Miss}},
	}}
	g := Compute(s, DefaultOptions())[0]
	fmt.Println(g.Runs, g.RubricRat, g.RubricMean, g.ChecklistRat, g.ChecklistRate, g.Solved)
	// Output: 2 {15 4} 3.75 {3 4} 0.75 true
}

// TestGridMeans: scores that are means of a few scores on the step, as
// ingest stores a human mean under [rubric] averaged
// (float64(k·10⁶)/float64(n·10⁶)) or a judge writes the mean of its runs
// with all its digits, are exact fractions. Attributes 1, 11/3 and 4/3
// have the rubric mean 2 exactly, which solves at threshold 2; the mean of
// their float64 values is 1.9999999999999998, which would not. A judge's
// 1.6666666666666667 is 5/3 without any setting; a seventeenth (beyond
// MinAveraged, no [rubric] averaged) and e stay floats.
func TestGridMeans(t *testing.T) {
	frac := func(k, n int64) float64 { return float64(k*1e6) / float64(n*1e6) }
	third := func(k int64) float64 { return frac(k, 3) }
	tests := []struct {
		name     string
		averaged int
		rubric   []float64
		wantRat  study.Rat
		ratOK    bool
		want     int8
	}{
		{"thirds, averaged 3", 3, []float64{third(3), third(11), third(4)}, study.NewRat(2, 1), true, Solved},
		{"a judge's thirds, no setting", 0, []float64{third(3), third(11), third(4)}, study.NewRat(2, 1), true, Solved},
		{"16-digit decimals", 0, []float64{1, 3.6666666666666665, 1.3333333333333333}, study.NewRat(2, 1), true, Solved},
		{"a seventeenth", 0, []float64{frac(1, 17), 2, 3}, study.Rat{}, false, Unsolved},
		{"seventeenths, averaged 17", 17, []float64{frac(1, 17), 2, frac(67, 17)}, study.NewRat(2, 1), true, Solved},
		{"off the grid", 3, []float64{1, math.E, 3}, study.Rat{}, false, Solved},
		{"halves", 3, []float64{1.5, 2.5, 2}, study.NewRat(2, 1), true, Solved},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &study.Study{Attributes: []string{"A", "B", "C"}, ScaleStep: 1, ScaleAveraged: tc.averaged, Gradings: []study.Grading{
				{Evaluator: "h", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "m1", Rubric: tc.rubric},
			}}
			got := Compute(s, Options{RubricThreshold: 2, ChecklistThreshold: 0.6, PartialCredit: 0.5})
			if len(got) != 1 {
				t.Fatalf("got %d gradings, want 1", len(got))
			}
			g := got[0]
			if g.RubricRat.OK() != tc.ratOK || tc.ratOK && g.RubricRat != tc.wantRat || g.Solve != tc.want {
				t.Errorf("rubric %v (ok %v), solve %d; want %v (ok %v), solve %d", g.RubricRat, g.RubricRat.OK(), g.Solve, tc.wantRat, tc.ratOK, tc.want)
			}
			if tc.ratOK && g.RubricMean != 2 {
				t.Errorf("rubric mean %v, want 2 (the fraction divided once)", g.RubricMean)
			}
		})
	}
}

// TestRatCacheMatchesRatOf checks the memoised fractions against
// study.RatOf (no grid), on first and repeated look-ups.
func TestRatCacheMatchesRatOf(t *testing.T) {
	c := ratCache{m: map[uint64]ratOf{}}
	for pass := 0; pass < 2; pass++ {
		for _, v := range []float64{0, 1, 3, 2.5, 3.25, 1.0 / 3, 4.1, -0.5, 1e300, math.NaN(), math.Inf(1)} {
			gr, gok := c.of(v)
			wr, wok := study.RatOf(v)
			if gr != wr || gok != wok {
				t.Errorf("pass %d: of(%v) = %v, %v; study.RatOf = %v, %v", pass, v, gr, gok, wr, wok)
			}
		}
	}
	if len(c.m) != 11 {
		t.Errorf("cache holds %d values, want 11 (one per distinct bit pattern)", len(c.m))
	}
}

// TestRuleLower checks the Solve rule on a lower-is-better rubric
// (penalties, threshold 1): a mean at most 1 solves, exactly at the
// threshold too; the same gradings on a higher-is-better rubric solve the
// other way round.
func TestRuleLower(t *testing.T) {
	tests := []struct {
		name   string
		scores []float64
		lower  bool
		want   int8
	}{
		{"below threshold", []float64{0.1, 0.5}, true, Solved},
		{"at threshold", []float64{0.9, 1.1}, true, Solved},
		{"just above", []float64{1, 1.1}, true, Unsolved},
		{"above, higher is better", []float64{1, 1.1}, false, Solved},
		{"below, higher is better", []float64{0.1, 0.5}, false, Unsolved},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Helper()
			s := &study.Study{Attributes: []string{"A", "B"}, LowerIsBetter: tc.lower, Gradings: []study.Grading{
				{Evaluator: "h", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "m1", Rubric: tc.scores},
			}}
			opt := Options{RubricThreshold: 1, ChecklistThreshold: 0.6, PartialCredit: 0.5}
			got := Compute(s, opt)
			if len(got) != 1 || got[0].Solve != tc.want {
				t.Fatalf("got %+v, want solve %d", got, tc.want)
			}
		})
	}
}
