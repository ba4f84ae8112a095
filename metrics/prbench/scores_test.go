package prbench

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// scoreStudy is the hand-worked fixture of the score tests. One judge J
// grades four models on two Finance questions.
//
// Q1: c1 +5 (A), c2 +3 (A), c3 −2 (B), c4 −4 (B); max = 8, min = −6, max − min = 14.
//
//	M1 1100: raw  8 → clipped 8/8 = 1 (a perfect response), normalised 14/14 = 1
//	M2 0011: raw −6 → clipped max(−6/8, 0) = 0 (all negatives met), normalised 0/14 = 0
//	M3 1011: raw −1 → clipped 0 (clipping at 0), normalised 5/14
//	M4 0110: raw  1 → clipped 1/8, normalised 7/14 = 1/2
//
// Q2: d1 +10 (A), d2 −10 (B); max = 10, min = −10.
//
//	M1 10: raw 10 → clipped 1, normalised 1
//	M2 11: raw  0 → clipped 0, normalised 10/20 = 1/2
//	M3 00: raw  0 → clipped 0, normalised 1/2
//	M4 01: raw −10 → clipped 0, normalised 0
func scoreStudy() *study.Study {
	s := &study.Study{
		Questions: []study.Question{
			{ID: "Q1", Domain: "Finance", Tags: []study.Tag{{Key: "decision", Value: "Transaction"}}},
			{ID: "Q2", Domain: "Finance", Tags: []study.Tag{{Key: "decision", Value: "Planning"}}},
		},
		Models: []study.Model{{Name: "M1"}, {Name: "M2"}, {Name: "M3"}, {Name: "M4"}},
		Criteria: []study.Criterion{
			{QuestionID: "Q1", ID: "c1", Weight: 5, Category: "A"},
			{QuestionID: "Q1", ID: "c2", Weight: 3, Category: "A"},
			{QuestionID: "Q1", ID: "c3", Weight: -2, Category: "B"},
			{QuestionID: "Q1", ID: "c4", Weight: -4, Category: "B"},
			{QuestionID: "Q2", ID: "d1", Weight: 10, Category: "A"},
			{QuestionID: "Q2", ID: "d2", Weight: -10, Category: "B"},
		},
	}
	q1 := []string{"c1", "c2", "c3", "c4"}
	q2 := []string{"d1", "d2"}
	for m, g := range map[string][2]string{"M1": {"1100", "10"}, "M2": {"0011", "11"}, "M3": {"1011", "00"}, "M4": {"0110", "01"}} {
		grade(s, "J", study.Judge, "Q1", m, q1, g[0])
		grade(s, "J", study.Judge, "Q2", m, q2, g[1])
	}
	// Lengths for the length table.
	for _, r := range []struct {
		q, m  string
		chars int
	}{{"Q1", "M1", 400}, {"Q2", "M1", 400}, {"Q1", "M2", 100}, {"Q2", "M2", 100},
		{"Q1", "M3", 200}, {"Q2", "M3", 200}, {"Q1", "M4", 300}, {"Q2", "M4", 100}} {
		s.Responses = append(s.Responses, study.Response{QuestionID: r.q, Model: r.m, Text: "x", Chars: r.chars})
	}
	return s
}

func TestScores(t *testing.T) {
	res := analyze(scoreStudy(), DefaultOptions())
	if len(res.Warnings) != 0 {
		t.Errorf("warnings: %v", res.Warnings)
	}
	tb := table(t, res, "prbench_scores")
	const eps = 1e-15
	nan := math.NaN()
	tests := []struct {
		set, model                   string
		n                            int
		clip, clipSD, clipLo, clipHi float64
		norm, normSD, normLo, normHi float64
	}{
		// M1: 1 and 1 → mean 1, SD 0, every resample 1.
		{"all", "M1", 2, 1, 0, 1, 1, 1, 0, 1, 1},
		// M2: clipped 0, 0; normalised 0 and 1/2 → mean 1/4, SD √(2·(1/4)²) = 0.35355…;
		// with two questions the 2.5th/97.5th percentiles of 2000 replicates are the
		// resamples {Q1,Q1} and {Q2,Q2}: 0 and 1/2.
		{"all", "M2", 2, 0, 0, 0, 0, 0.25, math.Sqrt2 / 4, 0, 0.5},
		// M3: normalised 5/14 and 1/2 → (5/14 + 7/14)/2 = 3/7; SD = (1/2 − 5/14)/√2 = (1/7)/√2.
		{"all", "M3", 2, 0, 0, 0, 0, 3.0 / 7, 1.0 / 7 / math.Sqrt2, 5.0 / 14, 0.5},
		// M4: clipped 1/8, 0 → 1/16, SD (1/8)/√2; normalised 1/2, 0 → 1/4.
		{"all", "M4", 2, 1.0 / 16, 0.125 / math.Sqrt2, 0, 0.125, 0.25, 0.5 / math.Sqrt2, 0, 0.5},
		// Hard = Q2 only (see TestHardSubset): one value, SD undefined.
		{"hard", "M1", 1, 1, nan, 1, 1, 1, nan, 1, 1},
		{"hard", "M2", 1, 0, nan, 0, 0, 0.5, nan, 0.5, 0.5},
		{"hard", "M4", 1, 0, nan, 0, 0, 0, nan, 0, 0},
	}
	for _, tc := range tests {
		r := row(t, tb, map[string]string{"set": tc.set, "graders": "judge:J", "model": tc.model})
		checkV(t, tb, r, "n", tc.n)
		checkF(t, tb, r, "clipped_mean", tc.clip, eps)
		checkF(t, tb, r, "clipped_sd", tc.clipSD, eps)
		checkF(t, tb, r, "clipped_lo", tc.clipLo, eps)
		checkF(t, tb, r, "clipped_hi", tc.clipHi, eps)
		checkF(t, tb, r, "normalized_mean", tc.norm, eps)
		checkF(t, tb, r, "normalized_sd", tc.normSD, eps)
		checkF(t, tb, r, "normalized_lo", tc.normLo, eps)
		checkF(t, tb, r, "normalized_hi", tc.normHi, eps)
	}
	if len(tb.rows) != 8 {
		t.Errorf("prbench_scores has %d rows, want 8 (2 sets × 4 models)", len(tb.rows))
	}

	// Per tag: Q1 is Transaction, Q2 Planning.
	tg := table(t, res, "prbench_by_tag")
	r := row(t, tg, map[string]string{"tag": "decision", "value": "Transaction", "model": "M4"})
	checkF(t, tg, r, "clipped_mean", 0.125, 0)
	checkF(t, tg, r, "normalized_mean", 0.5, 0)
	r = row(t, tg, map[string]string{"tag": "decision", "value": "Planning", "model": "M3"})
	checkF(t, tg, r, "normalized_mean", 0.5, 0)

	// Per domain: everything is Finance, so "all" equals prbench_scores.
	dm := table(t, res, "prbench_by_domain")
	r = row(t, dm, map[string]string{"set": "all", "domain": "Finance", "model": "M3"})
	checkF(t, dm, r, "normalized_mean", 3.0/7, 0)
}

func TestCategories(t *testing.T) {
	res := analyze(scoreStudy(), DefaultOptions())
	tb := table(t, res, "prbench_categories")
	// Category A has only positive criteria (min = 0): normalised = raw/max.
	//   Q1 (c1 +5, c2 +3): M3 5/8, M4 3/8; Q2 (d1 +10): M3 0, M4 0.
	// Category B has only negative criteria: max = 0, so max − min = −min and
	//   normalised = (raw − min)/(−min): 1 when no negative criterion is met,
	//   0 when all are.
	//   Q1 (c3 −2, c4 −4, min −6): M1 raw 0 → 1; M2 raw −6 → 0; M3 −6 → 0; M4 −2 → 4/6.
	//   Q2 (d2 −10): M1 not met → 1; M2 met → 0; M3 not met → 1; M4 met → 0.
	tests := []struct {
		cat, model string
		want       float64
	}{
		{"A", "M1", 1}, {"A", "M2", 0.5}, // M2: Q1 0/8, Q2 10/10
		{"A", "M3", 5.0 / 16}, {"A", "M4", 3.0 / 16},
		{"B", "M1", 1}, {"B", "M2", 0}, {"B", "M3", 0.5}, {"B", "M4", 1.0 / 3},
	}
	for _, tc := range tests {
		r := row(t, tb, map[string]string{"graders": "judge:J", "category": tc.cat, "model": tc.model})
		checkF(t, tb, r, "normalized_mean", tc.want, 1e-15)
		checkV(t, tb, r, "n", 2)
	}
	if len(res.Categories) != 2 || len(res.Models) != 4 || len(tb.rows) != 8 {
		t.Errorf("%d categories, %d models, %d rows; want 2, 4, 8", len(res.Categories), len(res.Models), len(tb.rows))
	}
}

func TestHardSubset(t *testing.T) {
	// scoreStudy: Q1's mean clipped over models = (1 + 0 + 0 + 1/8)/4 = 9/32,
	// Q2's = (1 + 0 + 0 + 0)/4 = 8/32. Hard share 0.25 of 2 questions →
	// ⌈0.5⌉ = 1 → Q2.
	res := analyze(scoreStudy(), DefaultOptions())
	tb := table(t, res, "prbench_hard_questions")
	if len(tb.rows) != 1 {
		t.Fatalf("hard questions: %v, want only Q2", tb.rows)
	}
	r := tb.rows[0]
	checkV(t, tb, r, "question_id", "Q2")
	checkF(t, tb, r, "mean_clipped", 0.25, 0)
	checkV(t, tb, r, "source", "judges")

	// Ties: Legal questions q10, q2, q3 with one +1 criterion each; the judge
	// gives q10 and q2 0 and q3 1, so q10 and q2 tie at 0 and q10 < q2 in byte
	// order. A human would make q3 the hardest, but judges take precedence.
	// Finance question f1 is alone in its domain and therefore always Hard.
	tie := &study.Study{Questions: []study.Question{
		{ID: "f1", Domain: "Finance"}, {ID: "q10", Domain: "Legal"}, {ID: "q2", Domain: "Legal"}, {ID: "q3", Domain: "Legal"}}}
	for _, q := range []string{"f1", "q10", "q2", "q3"} {
		tie.Criteria = append(tie.Criteria, study.Criterion{QuestionID: q, ID: "k", Weight: 1})
	}
	for q, met := range map[string]string{"f1": "1", "q10": "0", "q2": "0", "q3": "1"} {
		grade(tie, "J", study.Judge, q, "M", []string{"k"}, met)
		human := "1"
		if q == "q3" {
			human = "0"
		}
		grade(tie, "H", study.Human, q, "M", []string{"k"}, human)
	}
	tests := []struct {
		name  string
		share float64
		count int
		want  []string
	}{
		{"count 1 breaks the tie by id", 0.25, 1, []string{"f1", "q10"}},
		{"share 0.25 of 3 → ⌈0.75⌉ = 1", 0.25, 0, []string{"f1", "q10"}},
		{"share 0.5 of 3 → ⌈1.5⌉ = 2", 0.5, 0, []string{"f1", "q10", "q2"}},
		{"count above the domain size is capped", 0.25, 5, []string{"f1", "q10", "q2", "q3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opt := DefaultOptions()
			opt.HardShare, opt.HardCount, opt.Bootstrap = tc.share, tc.count, 0
			tb := table(t, analyze(tie, opt), "prbench_hard_questions")
			var got []string
			for _, r := range tb.rows {
				got = append(got, cellOf(t, tb, r, "question_id").(string))
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("hard questions %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCeilShare(t *testing.T) {
	tests := []struct {
		share float64
		n     int
		want  int
	}{
		{0.25, 1100, 275},
		{0.1, 30, 3}, // 0.1·30 in floating point is 3.0000000000000004
		{0.3, 10, 3}, // likewise 3.0000000000000004
		{0.25, 2, 1},
		{0.01, 5, 1}, // at least one
		{1, 7, 7},
		{0.5, 0, 0},
	}
	for _, tc := range tests {
		if got := ceilShare(tc.share, tc.n); got != tc.want {
			t.Errorf("ceilShare(%v, %d) = %d, want %d", tc.share, tc.n, got, tc.want)
		}
	}
}

func TestLength(t *testing.T) {
	res := analyze(scoreStudy(), DefaultOptions())
	tb := table(t, res, "prbench_length")
	// M4: lengths 300 and 100, clipped 1/8 and 0: r = 1, slope = (1/8)/200 =
	// 0.000625, intercept = 1/8 − 0.000625·300 = −1/16.
	r := row(t, tb, map[string]string{"model": "M4"})
	checkF(t, tb, r, "pearson_r", 1, 0)
	checkF(t, tb, r, "slope", 0.000625, 1e-18)
	checkF(t, tb, r, "intercept", -0.0625, 1e-15)
	checkF(t, tb, r, "mean_chars", 200, 0)
	checkF(t, tb, r, "mean_clipped", 0.0625, 0)
	// M1 has a constant length: r undefined.
	r = row(t, tb, map[string]string{"model": "M1"})
	checkF(t, tb, r, "pearson_r", math.NaN(), 0)
	// Pooled over the 8 responses, x = 400 400 100 100 200 200 300 100,
	// y = 1 1 0 0 0 0 1/8 0: mean x 225, mean y 17/64; Sxy = 23000/64,
	// Sxx = 115000, Syy = 5944/4096; r = Sxy/√(Sxx·Syy) = 0.879709973007209,
	// slope = Sxy/Sxx = 0.003125, intercept = 17/64 − 0.003125·225 = −0.4375.
	r = row(t, tb, map[string]string{"model": "(all)"})
	checkV(t, tb, r, "n", 8)
	checkF(t, tb, r, "pearson_r", 0.879709973007209, 1e-14)
	checkF(t, tb, r, "slope", 0.003125, 1e-17)
	checkF(t, tb, r, "intercept", -0.4375, 1e-14)
}

func TestUngradedAndDegenerate(t *testing.T) {
	// Q1 as in scoreStudy plus c5 (+2) that nobody grades; the judge grades M1
	// on c1 (met) and c3 (not met) only: over the graded criteria raw = 5,
	// max = 5, min = −2 → clipped 1, normalised 7/7 = 1; 3 grades are missing
	// (c2, c4, c5), and c2, c4, c5 are graded by nobody.
	// Qn has only a negative criterion (−3): met → max = 0, so clipped is
	// undefined; normalised (−3 + 3)/3 = 0.
	s := &study.Study{
		Questions: []study.Question{{ID: "Q1", Domain: "D"}, {ID: "Qn", Domain: "D"}},
		Criteria: []study.Criterion{
			{QuestionID: "Q1", ID: "c1", Weight: 5}, {QuestionID: "Q1", ID: "c2", Weight: 3},
			{QuestionID: "Q1", ID: "c3", Weight: -2}, {QuestionID: "Q1", ID: "c4", Weight: -4},
			{QuestionID: "Q1", ID: "c5", Weight: 2}, {QuestionID: "Qn", ID: "n1", Weight: -3},
		},
	}
	grade(s, "J", study.Judge, "Q1", "M1", []string{"c1", "c2", "c3", "c4", "c5"}, "1-0--")
	grade(s, "J", study.Judge, "Qn", "M1", []string{"n1"}, "1")
	res := analyze(s, DefaultOptions())
	joined := strings.Join(res.Warnings, "\n")
	for _, want := range []string{"1 gradings lack grades", "3 missing grades", "3 criteria were graded by nobody", "question Qn has no positive-weight criterion"} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q:\n%s", want, joined)
		}
	}
	ug := table(t, res, "prbench_ungraded_criteria")
	if len(ug.rows) != 3 {
		t.Errorf("ungraded criteria: %v, want c2, c4, c5", ug.rows)
	}
	tb := table(t, res, "prbench_scores")
	r := row(t, tb, map[string]string{"set": "all", "model": "M1"})
	checkV(t, tb, r, "n", 2)
	// Clipped over Q1 only (Qn undefined): 1. Normalised: (1 + 0)/2.
	checkF(t, tb, r, "clipped_mean", 1, 0)
	checkF(t, tb, r, "normalized_mean", 0.5, 0)
}

func TestNoCriteria(t *testing.T) {
	res := analyze(&study.Study{Questions: []study.Question{{ID: "q"}}}, DefaultOptions())
	if !reflect.DeepEqual(res, Result{}) {
		t.Errorf("study without criteria gave %+v, want an empty Result", res)
	}
	if res := analyze(nil, DefaultOptions()); len(tableNames(res)) != 0 {
		t.Error("nil study gave tables")
	}
	// Criteria but no grades: only the ungraded list and a note.
	s := &study.Study{Questions: []study.Question{{ID: "q"}},
		Criteria: []study.Criterion{{QuestionID: "q", ID: "k", Weight: 1}}}
	res = analyze(s, DefaultOptions())
	if got := tableNames(res); len(got) != 1 || got[0] != "prbench_ungraded_criteria" {
		t.Errorf("tables %v, want only prbench_ungraded_criteria", got)
	}
	if len(res.Notes) == 0 {
		t.Error("no note for a study without criterion grades")
	}
}

func TestInvalidOptions(t *testing.T) {
	opt := Options{HardShare: 2, HardCount: -1, ParityMargin: math.NaN(), Bootstrap: -5, Seed: 1}
	res := analyze(scoreStudy(), opt)
	if len(res.Warnings) != 3 {
		t.Errorf("warnings %v, want 3 (hard_share, hard_count, parity_margin)", res.Warnings)
	}
	tb := table(t, res, "prbench_scores")
	r := row(t, tb, map[string]string{"set": "all", "model": "M4"})
	checkF(t, tb, r, "clipped_lo", math.NaN(), 0) // no bootstrap
}
