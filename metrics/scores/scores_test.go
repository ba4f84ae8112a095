package scores

import (
	"fmt"
	"math"
	"testing"

	"github.com/euroexec/euroexec/study"
	analysis "github.com/euroexec/euroexec/study"
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

// TestFromView: a study that carries the view's rows (Study.Scores) is
// served from them; the values below are written by hand — one of them
// (h/m1 marked solved) deliberately not what the rows give, to show which
// source is used. Other thresholds re-apply Rule to the view's scores; another
// partial credit falls back to the rows.
func TestFromView(t *testing.T) {
	H, P, M, N := study.Hit, study.Partial, study.Miss, study.NA
	s := &study.Study{
		Attributes: []string{"A", "B"},
		Gradings: []study.Grading{
			{Evaluator: "h", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "m1", Rubric: []float64{3, 3}, Verdicts: []study.Verdict{H, P, M, N}, Rank: 2},
			{Evaluator: "j", Kind: study.Judge, Round: "main", Run: "1", QuestionID: "q1", Model: "m1", Rubric: []float64{4, 3}, Verdicts: []study.Verdict{H, H}, Rank: 1},
			{Evaluator: "j", Kind: study.Judge, Round: "main", Run: "2", QuestionID: "q1", Model: "m1", Rubric: []float64{5, math.NaN()}, Verdicts: []study.Verdict{H, M}, Rank: 2},
		},
		Scores: []analysis.Score{
			// h/m1: the rows give unsolved (rate 1/2 < 0.6); the "view" says solved
			{First: 0, Runs: 1, RubricN: 2,
				Hits: 1, Partials: 1, Misses: 1, NAs: 1, Rubric: analysis.Rat{Num: 3, Den: 1}, RubricMean: 3,
				Checklist: analysis.Rat{Num: 1, Den: 2}, ChecklistRate: 0.5, Rank: 2, Solve: Solved, Usable: true},
			{First: 1, Runs: 2, RubricN: 2,
				Hits: 3, Misses: 1, Rubric: analysis.Rat{Num: 15, Den: 4}, RubricMean: 3.75,
				Checklist: analysis.Rat{Num: 3, Den: 4}, ChecklistRate: 0.75, Rank: 1.5, Solve: Solved, Usable: true},
		},
		ScoreRule: analysis.ScoreRule{RubricThreshold: 3, ChecklistThreshold: 0.6, PartialCredit: 0.5, HasRubric: true, HasChecklist: true},
	}
	tests := []struct {
		name        string
		opt         Options
		fromView    bool
		solveH      int8      // h/m1
		solveJ      int8      // j/m1
		attrJ       []float64 // j/m1's attribute means
		rubricMeanJ float64
	}{
		{"the view's rule: the view's solve", DefaultOptions(), true, Solved, Solved, []float64{4.5, 3}, 3.75},
		{"rubric threshold 4: Rule on the view's scores", Options{RubricThreshold: 4, ChecklistThreshold: 0.6, PartialCredit: 0.5}, true, Unsolved, Unsolved, []float64{4.5, 3}, 3.75},
		{"checklist threshold 0.7: Rule on the view's scores", Options{RubricThreshold: 3, ChecklistThreshold: 0.7, PartialCredit: 0.5}, true, Unsolved, Solved, []float64{4.5, 3}, 3.75},
		{"partial credit 1: from the rows (h: 2/3 ≥ 0.6)", Options{RubricThreshold: 3, ChecklistThreshold: 0.6, PartialCredit: 1}, false, Solved, Solved, []float64{4.5, 3}, 3.75},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ok := FromView(s, tt.opt)
			if ok != tt.fromView {
				t.Errorf("FromView ok = %v, want %v", ok, tt.fromView)
			}
			got := Compute(s, tt.opt)
			if len(got) != 2 {
				t.Fatalf("got %d gradings, want 2", len(got))
			}
			checkEach(t, s, tt.opt, got)
			if got[0].Solve != tt.solveH || got[1].Solve != tt.solveJ {
				t.Errorf("solve h, j = %d, %d; want %d, %d", got[0].Solve, got[1].Solve, tt.solveH, tt.solveJ)
			}
			if got[0].Solved != (tt.solveH == Solved) {
				t.Errorf("h Solved = %v with Solve %d", got[0].Solved, got[0].Solve)
			}
			j := got[1]
			if fmt.Sprint(j.Rubric) != fmt.Sprint(tt.attrJ) || j.RubricMean != tt.rubricMeanJ || j.Src != 1 || j.Runs != 2 || len(j.Verdicts) != 2 {
				t.Errorf("j: attribute means %v mean %v src %d runs %d verdicts %v; want %v %v 1 2 [hit hit]",
					j.Rubric, j.RubricMean, j.Src, j.Runs, j.Verdicts, tt.attrJ, tt.rubricMeanJ)
			}
			if h := got[0]; fmt.Sprint(h.Rubric) != "[3 3]" || h.Hits != 1 || h.NAs != 1 || h.Rank != 2 {
				t.Errorf("h: attribute means %v hits %d nas %d rank %v; want [3 3] 1 1 2", h.Rubric, h.Hits, h.NAs, h.Rank)
			}
		})
	}
	// unsorted rows: the view cannot be matched with them
	u := *s
	u.Gradings = []study.Grading{s.Gradings[1], s.Gradings[0], s.Gradings[2]}
	if _, ok := FromView(&u, DefaultOptions()); ok {
		t.Error("FromView served a study whose gradings are not sorted")
	}
	// rows that no longer describe the gradings: refused, never a panic
	for _, c := range []struct {
		name string
		edit func(x *analysis.Score)
	}{
		{"runs beyond the gradings", func(x *analysis.Score) { x.Runs = 5 }},
		{"first run out of range", func(x *analysis.Score) { x.First = 7 }},
		{"first run of another grading", func(x *analysis.Score) { x.First = 0 }},
		{"runs short of the grading's", func(x *analysis.Score) { x.Runs = 1 }},
	} {
		e := *s
		e.Scores = append([]analysis.Score(nil), s.Scores...)
		c.edit(&e.Scores[1])
		if _, ok := FromView(&e, DefaultOptions()); ok {
			t.Errorf("%s: FromView served the study", c.name)
		}
		got := Compute(&e, DefaultOptions())
		if len(got) != 2 || got[0].Solve != Unsolved {
			t.Errorf("%s: Compute did not fall back to the rows (h/m1 solve %d, want unsolved)", c.name, got[0].Solve)
		}
		checkEach(t, &e, DefaultOptions(), got)
	}
}

// TestRatCacheMatchesRatOf checks the memoised fractions against
// analysis.RatOf, on first and repeated look-ups.
func TestRatCacheMatchesRatOf(t *testing.T) {
	c := ratCache{}
	for pass := 0; pass < 2; pass++ {
		for _, v := range []float64{0, 1, 3, 2.5, 3.25, 1.0 / 3, 4.1, -0.5, 1e300, math.NaN(), math.Inf(1)} {
			gr, gok := c.of(v)
			wr, wok := analysis.RatOf(v)
			if gr != wr || gok != wok {
				t.Errorf("pass %d: of(%v) = %v, %v; analysis.RatOf = %v, %v", pass, v, gr, gok, wr, wok)
			}
		}
	}
	if len(c) != 11 {
		t.Errorf("cache holds %d values, want 11 (one per distinct bit pattern)", len(c))
	}
}

// checkEach checks that Each passes Compute's gradings, in order, each
// value intact after the later calls (copies kept by the caller).
func checkEach(t *testing.T, s *study.Study, opt Options, want []Grading) {
	t.Helper()
	var got []Grading
	Each(s, opt, func(g *Grading) { got = append(got, *g) })
	if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want); g != w {
		t.Errorf("Each passed\n%s\nwant Compute's\n%s", g, w)
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
