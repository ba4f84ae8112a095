package paper

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// The mini study (all hand-computed below). Rubric attributes A and B
// (scale 1–5, so a grading passes the rubric rule when A+B ≥ 6), checklist
// threshold 0.6, partial = 0.5. Models M1, M2, M3 and the human label HE.
//
//	q1 (domain D1, Hard,   3 items)  graded by e1, e2; HE and M3 only here
//	q2 (domain D1, Easy,   2 items)  graded by e1, e2
//	q3 (domain D2, gate 0.45 → Medium, 5 items)  graded by e1, e3
//
// Judge J grades q1 (two runs) and q2 (one run), M1 and M2 only.
//
// Per grading (sum = A+B; rate = (hits + ½ partials)/(items not na); solved):
//
//	q1 e1 HE 5,5 hhh  1      rank 1 → 10, 1,    solved
//	q1 e1 M3 3,3 hhh  1      rank 2 →  6, 1,    solved
//	q1 e1 M1 4,3 hpm  1.5/3  rank 3 →  7, 1/2,  no (checklist)
//	q1 e1 M2 2,3 hhm  2/3    rank 4 →  5, 2/3,  no (rubric)
//	q1 e2 M3 2,2 mmm  0      rank 1 →  4, 0,    no
//	q1 e2 M1 3,3 hhp  2.5/3  rank 2 →  6, 5/6,  solved (rubric mean exactly 3.0)
//	q1 e2 HE 5,4 hhm  2/3    rank 3 →  9, 2/3,  solved
//	q1 e2 M2 4,4 hnm  1/2    rank 4 →  8, 1/2,  no (na left out of the rate)
//	q2 e1 M1 3,4 hp   1.5/2  rank 1 →  7, 3/4,  solved
//	q2 e1 M2 1,2 mm   0      rank 2 →  3, 0,    no
//	q2 e2 M2 5,3 hp   3/4    rank 1 →  8, 3/4,  solved
//	q2 e2 M1 4,4 pp   1/2    rank 2 →  8, 1/2,  no
//	q3 e1 M1 5,5 hhhph 4.5/5 rank 1 → 10, 9/10, solved
//	q3 e1 M2 3,3 hhpmp 3/5   rank 2 →  6, 3/5,  solved (rate exactly 0.6)
//	q3 e3 M2 4,5 hhhmm 3/5   rank 1 →  9, 3/5,  solved (rate exactly 0.6)
//	q3 e3 M1 4,4 hppmn 2/4   rank 2 →  8, 1/2,  no
func miniStudy(t *testing.T) *study.Study {
	qs := []study.Question{
		{ID: "q1", Domain: "D1", Difficulty: "Hard", GateScore: math.NaN(), Checklist: []string{"a", "b", "c"}, Prompt: "one two"},
		{ID: "q2", Domain: "D1", Difficulty: "Easy", GateScore: math.NaN(), Checklist: []string{"a", "b"}, Prompt: "three"},
		{ID: "q3", Domain: "D2", GateScore: 0.45, Checklist: []string{"a", "b", "c", "d", "e"}, Prompt: "x y z"},
	}
	lines := []string{
		"e1 . q1 HE 5,5 hhh 1", "e1 . q1 M3 3,3 hhh 2", "e1 . q1 M1 4,3 hpm 3", "e1 . q1 M2 2,3 hhm 4",
		"e2 . q1 M3 2,2 mmm 1", "e2 . q1 M1 3,3 hhp 2", "e2 . q1 HE 5,4 hhm 3", "e2 . q1 M2 4,4 hnm 4",
		"e1 . q2 M1 3,4 hp 1", "e1 . q2 M2 1,2 mm 2", "e2 . q2 M2 5,3 hp 1", "e2 . q2 M1 4,4 pp 2",
		"e1 . q3 M1 5,5 hhhph 1", "e1 . q3 M2 3,3 hhpmp 2", "e3 . q3 M2 4,5 hhhmm 1", "e3 . q3 M1 4,4 hppmn 2",
		// Judge J: q1 M1 runs r1 (4,4 hhm rank 1) and r2 (5,3 hhh rank 2) →
		// A 4.5, B 3.5, mean 4; rate mean(2/3, 1) = 5/6; rank 1.5; solved.
		"J r1 q1 M1 4,4 hhm 1", "J r2 q1 M1 5,3 hhh 2",
		// q1 M2 runs: (2,2 mmm rank 2), (3,3 hmm rank 1) → mean 2.5; rate
		// mean(0, 1/3) = 1/6; rank 1.5 (tie with M1, broken by name: M1 wins).
		"J r1 q1 M2 2,2 mmm 2", "J r2 q1 M2 3,3 hmm 1",
		"J . q2 M1 4,4 hh 1", "J . q2 M2 2,3 hm 2",
	}
	return buildStudy(t, []string{"A", "B"}, qs, []string{"HE", "M1", "M2", "M3"}, lines)
}

func TestMiniSummaryAll(t *testing.T) {
	r := analyze(t, miniStudy(t), nil)
	// Set all: main round without HE. M3 has gradings on 1 of 3 questions
	// (33 %) → left out and noted. Ranks re-derived among M1, M2 keeping
	// each grading's order: q1 e1 (M1 3, M2 4) → M1 1, M2 2; q1 e2 (M1 2,
	// M2 4) → M1 1, M2 2; q2 e1 M1 1; q2 e2 M2 1; q3 e1 M1 1; q3 e3 M2 1.
	if !hasNote(r, "summary", "model M3 left out of set all, graders humans") {
		t.Errorf("no coverage note for M3: %v", r.Notes)
	}
	m1 := rowWhere(t, r, "summary", "set", "all", "graders", "humans", "model", "M1")
	checkInt(t, "M1 n_gradings", m1["n_gradings"], 6)
	checkInt(t, "M1 n_questions", m1["n_questions"], 3)
	// M1 solved: q1e2, q2e1, q3e1 → 3/6.
	checkExact(t, "M1 solve", m1["solve_rate"], 0.5)
	// M1 ranks 1,1,1,2,1,2 → 8/6; wins 4/6.
	checkExact(t, "M1 avg_rank", m1["avg_rank"], 8.0/6)
	checkExact(t, "M1 win", m1["win_rate"], 4.0/6)
	// Rubric: sums 7+6+7+8+10+8 = 46 over 2 attributes × 6 gradings.
	checkExact(t, "M1 rubric", m1["rubric"], 46.0/12)
	// Checklist: 1/2 + 5/6 + 3/4 + 1/2 + 9/10 + 1/2 = 239/60, over 6.
	checkExact(t, "M1 checklist", m1["checklist_rate"], 239.0/360)
	m2 := rowWhere(t, r, "summary", "set", "all", "graders", "humans", "model", "M2")
	// M2 solved: q2e2, q3e1, q3e3 → 3/6. Ranks 2,2,2,1,2,1 → 10/6, wins 2/6.
	checkExact(t, "M2 solve", m2["solve_rate"], 0.5)
	checkExact(t, "M2 avg_rank", m2["avg_rank"], 10.0/6)
	checkExact(t, "M2 win", m2["win_rate"], 2.0/6)
	// Sums 5+8+3+8+6+9 = 39; rates 2/3+1/2+0+3/4+3/5+3/5 = 187/60.
	checkExact(t, "M2 rubric", m2["rubric"], 39.0/12)
	checkExact(t, "M2 checklist", m2["checklist_rate"], 187.0/360)
	// Intervals bracket the estimate.
	for _, row := range []map[string]any{m1, m2} {
		for _, c := range []string{"solve_rate", "rubric", "checklist_rate", "avg_rank", "win_rate"} {
			lo, hi, v := row[c+"_lo"].(float64), row[c+"_hi"].(float64), row[c].(float64)
			if !(lo <= v && v <= hi) {
				t.Errorf("%s %s: %v not in [%v, %v]", row["model"], c, v, lo, hi)
			}
		}
	}
}

func TestMiniSummaryReferenceSubset(t *testing.T) {
	r := analyze(t, miniStudy(t), nil)
	// Reference subset: q1 only (HE graded there), all four models, ranks
	// as given: e1 HE 1, M3 2, M1 3, M2 4; e2 M3 1, M1 2, HE 3, M2 4.
	cases := []struct {
		model                      string
		solve, rank, win, rub, chk float64
	}{
		{"HE", 1, 2, 0.5, 19.0 / 4, 5.0 / 6},     // solved 2/2; ranks 1,3; rates 1, 2/3
		{"M1", 0.5, 2.5, 0, 13.0 / 4, 2.0 / 3},   // rates 1/2, 5/6
		{"M2", 0, 4, 0, 13.0 / 4, 7.0 / 12},      // rates 2/3, 1/2
		{"M3", 0.5, 1.5, 0.5, 10.0 / 4, 1.0 / 2}, // sums 6, 4; rates 1, 0
	}
	for _, c := range cases {
		row := rowWhere(t, r, "summary", "set", "reference_subset", "graders", "humans", "model", c.model)
		checkInt(t, c.model+" n", row["n_gradings"], 2)
		checkExact(t, c.model+" solve", row["solve_rate"], c.solve)
		checkExact(t, c.model+" rank", row["avg_rank"], c.rank)
		checkExact(t, c.model+" win", row["win_rate"], c.win)
		checkExact(t, c.model+" rubric", row["rubric"], c.rub)
		checkExact(t, c.model+" checklist", row["checklist_rate"], c.chk)
	}
}

func TestMiniJudgeRunsAveraged(t *testing.T) {
	r := analyze(t, miniStudy(t), nil)
	// Judge J (set all): q1 M1 = runs averaged: mean 4, rate 5/6, solved,
	// rank 1.5; q1 M2: mean 2.5, rate 1/6, rank 1.5 → tie broken by model
	// name, M1 ranked first. q2: M1 4,4 hh (mean 4, rate 1, solved, rank 1),
	// M2 2,3 hm (2.5, 1/2, rank 2).
	m1 := rowWhere(t, r, "summary", "set", "all", "graders", "judge:J", "model", "M1")
	checkInt(t, "J M1 n", m1["n_gradings"], 2)
	checkExact(t, "J M1 solve", m1["solve_rate"], 1)
	checkExact(t, "J M1 rank", m1["avg_rank"], 1)
	checkExact(t, "J M1 win", m1["win_rate"], 1)
	checkExact(t, "J M1 rubric", m1["rubric"], 4)
	checkFloat(t, "J M1 checklist", m1["checklist_rate"], 11.0/12)
	m2 := rowWhere(t, r, "summary", "set", "all", "graders", "judge:J", "model", "M2")
	checkExact(t, "J M2 solve", m2["solve_rate"], 0)
	checkExact(t, "J M2 rank", m2["avg_rank"], 2)
	checkExact(t, "J M2 rubric", m2["rubric"], 2.5)
	checkFloat(t, "J M2 checklist", m2["checklist_rate"], 1.0/3)
	if r.Overview.Gradings != 16+4 {
		t.Errorf("overview gradings = %d, want 20 (16 human + 4 judge after averaging runs)", r.Overview.Gradings)
	}
}

func TestMiniJudgeVsHuman(t *testing.T) {
	r := analyze(t, miniStudy(t), nil)
	// Responses graded by both: q1 and q2, M1 and M2.
	// M1 humans: sums 7,6,7,8 → 28/8 = 3.5; rates 1/2,5/6,3/4,1/2 → 31/48;
	//   solved 0,1,1,0 → 1/2. Judge: 4; 11/12 = 44/48; 1.
	// M2 humans: 5,8,3,8 → 3; 2/3,1/2,0,3/4 → 23/48; 0,0,0,1 → 1/4.
	//   Judge: 2.5; 1/3 = 16/48; 0.
	m1 := rowWhere(t, r, "judge_vs_human", "judge", "judge:J", "model", "M1")
	checkExact(t, "h rub", m1["human_rubric"], 3.5)
	checkExact(t, "j rub", m1["judge_rubric"], 4)
	checkExact(t, "rub bias", m1["rubric_bias"], 0.5)
	checkFloat(t, "h chk", m1["human_checklist_rate"], 31.0/48)
	checkFloat(t, "chk bias", m1["checklist_bias"], 13.0/48)
	checkExact(t, "solve bias", m1["solve_bias"], 0.5)
	m2 := rowWhere(t, r, "judge_vs_human", "judge", "judge:J", "model", "M2")
	checkExact(t, "M2 rub bias", m2["rubric_bias"], -0.5)
	checkFloat(t, "M2 chk bias", m2["checklist_bias"], -7.0/48)
	checkExact(t, "M2 solve bias", m2["solve_bias"], -0.25)
	// Crispness: two models → slope = Δjudge/Δhuman, SD ratio = |slope|.
	// rubric (2.5−4)/(3−3.5) = 3; checklist (28/48)/(8/48) = 3.5; solve 1/(1/4) = 4.
	for _, c := range []struct {
		m string
		s float64
	}{{"rubric", 3}, {"checklist_rate", 3.5}, {"solve_rate", 4}} {
		row := rowWhere(t, r, "judge_crispness", "judge", "judge:J", "measure", c.m)
		checkFloat(t, c.m+" slope", row["slope"], c.s)
		checkFloat(t, c.m+" sd ratio", row["sd_ratio"], c.s)
	}
}

func TestMiniJudgeConsistency(t *testing.T) {
	r := analyze(t, miniStudy(t), nil)
	// explicit: J's q1 ranks are tied (1.5, 1.5) → τ undefined with e1 and
	// e2; q2: J M1 > M2, e1 agrees (+1), e2 disagrees (−1) → mean 0, n 2,
	// 2 undefined. Mean-human q2 ranks tie (1.5, 1.5) → llm_mean undefined.
	// rubric: J M1 > M2 on q1 and q2; e1 q1 +1, e2 q1 −1, e1 q2 +1, e2 q2
	// tie (4, 4) → undefined: 1/3, n 3. Mean human q1 tie (3.25, 3.25)
	// undefined, q2 (3.75 > 2.75) +1.
	// checklist: q1 e1 −1, e2 +1; q2 e1 +1, e2 −1 → 0, n 4. Mean human
	// q1 2/3 > 7/12 → +1; q2 5/8 > 3/8 → +1.
	cases := []struct {
		ins, cmp string
		tau      float64
		n, und   int64
	}{
		{"explicit", "llm_indiv", 0, 2, 2},
		{"explicit", "llm_mean", math.NaN(), 0, 2},
		{"rubric", "llm_indiv", 1.0 / 3, 3, 1},
		{"rubric", "llm_mean", 1, 1, 1},
		{"checklist", "llm_indiv", 0, 4, 0},
		{"checklist", "llm_mean", 1, 2, 0},
	}
	for _, c := range cases {
		row := rowWhere(t, r, "judge_consistency", "graders", "judge:J", "instrument", c.ins, "comparison", c.cmp)
		checkFloat(t, c.ins+" "+c.cmp, row["tau"], c.tau)
		checkInt(t, c.ins+" "+c.cmp+" n", row["n"], c.n)
		checkInt(t, c.ins+" "+c.cmp+" undefined", row["n_undefined"], c.und)
	}
	if !hasNote(r, "judge_consistency", "3 or more human evaluators") {
		t.Error("missing note on human_vs_mean_of_others")
	}
}

func TestMiniConsistency(t *testing.T) {
	r := analyze(t, miniStudy(t), nil)
	// Set all: M1 and M2 only; with two models τ-b is +1, −1 or undefined.
	// Units (evaluator, question): q1e1, q1e2, q2e1, q2e2, q3e1, q3e3.
	// explicit vs rubric: +1, −1, +1, undef (q2e2 rubric 4 = 4), +1, +1 → 3/5.
	// explicit vs checklist: −1, +1, +1, +1, +1, +1 → 4/6.
	// checklist vs rubric: −1, −1, +1, undef, +1, +1 → 1/5.
	// Across (q1 e1–e2, q2 e1–e2, q3 e1–e3):
	// explicit: +1, −1, −1 → −1/3; rubric: −1, undef, −1 → −1; checklist:
	// −1, −1, −1 → −1.
	cases := []struct {
		cmp    string
		v      float64
		n, und int64
	}{
		{"explicit_vs_rubric", 3.0 / 5, 5, 1},
		{"explicit_vs_checklist", 4.0 / 6, 6, 0},
		{"checklist_vs_rubric", 1.0 / 5, 5, 1},
		{"cross_explicit", -1.0 / 3, 3, 0},
		{"cross_rubric", -1, 2, 1},
		{"cross_checklist", -1, 3, 0},
	}
	for _, c := range cases {
		row := rowWhere(t, r, "consistency", "comparison", c.cmp)
		checkFloat(t, c.cmp, row["value"], c.v)
		checkInt(t, c.cmp+" n", row["n"], c.n)
		checkInt(t, c.cmp+" undefined", row["n_undefined"], c.und)
	}
	// Pearson r on the rubric mean, pairs in both orders. Doubled means per
	// response: (7,6) (5,8) (7,8) (3,8) (10,8) (6,9); Σab = 296, Σ(a+b) = 85,
	// μ = 85/12: Σ_pairs (a−μ)(b−μ) = 296 − 7225/24 = −121/24, doubled −121/12;
	// Σ(x−μ)² = 641 − 7225/12 = 467/12 → r = −121/467.
	row := rowWhere(t, r, "consistency", "comparison", "pearson_rubric")
	checkFloat(t, "pearson rubric", row["value"], -121.0/467)
	checkInt(t, "pearson n", row["n"], 12)
}

func TestMiniRubricTables(t *testing.T) {
	r := analyze(t, miniStudy(t), nil)
	// Table 5 with two attributes: A against the mean of the others (B).
	// ΣA = 42, ΣB = 43, ΣA² = 162, ΣB² = 163, ΣAB = 158, n = 12:
	// Sxy = 158 − 42·43/12 = 7.5, Sxx = 15, Syy = 107/12 → r = 7.5/√133.75.
	for _, at := range []string{"A", "B"} {
		row := rowWhere(t, r, "attribute_correlations", "attribute", at)
		checkFloat(t, at, row["r"], 7.5/math.Sqrt(133.75))
		checkInt(t, at+" n", row["n"], 12)
	}
	// Figure 2: M1 attribute A: 4,3,3,4,5,4 → 23/6.
	row := rowWhere(t, r, "rubric_by_attribute", "attribute", "A", "model", "M1")
	checkExact(t, "M1 A mean", row["mean"], 23.0/6)
	// SD: deviations from 23/6 of 4,3,3,4,5,4: squares sum = Σx² − n·μ² = 91 − 529/6 = 17/6; var = 17/30.
	checkFloat(t, "M1 A sd", row["sd"], math.Sqrt(17.0/30))
	// By domain: M2 in D2 (q3): means 3 and 4.5 → 3.75.
	row = rowWhere(t, r, "rubric_by_domain", "domain", "D2", "model", "M2")
	checkExact(t, "M2 D2", row["mean"], 3.75)
	// Paired t-test M1 vs M2 over per-question means: q1 3.25 vs 3.25, q2
	// 3.75 vs 2.75, q3 4.5 vs 3.75 → d = 0, 1, 0.75: mean 7/12, SD √(13/48),
	// t = 7/√13, df 2, p = 1 − t/√(t²+2) = 1 − 7/√75.
	row = rowWhere(t, r, "pairwise_tests", "set", "all", "model_a", "M1", "model_b", "M2")
	checkFloat(t, "t", row["t"], 7/math.Sqrt(13))
	checkFloat(t, "df", row["df"], 2)
	wantP := 1 - 7/math.Sqrt(75)
	if p := row["p"].(float64); math.Abs(p-wantP) > 1e-9 {
		t.Errorf("p = %v, want %v", p, wantP)
	}
	// Figure 3: 3 questions → grid {3}; every draw is all three questions.
	row = rowWhere(t, r, "pvalue_curve", "model_a", "M1")
	checkInt(t, "grid n", row["n"], 3)
	if p := row["median_p"].(float64); math.Abs(p-wantP) > 1e-9 {
		t.Errorf("median p = %v, want %v", p, wantP)
	}
	row = rowWhere(t, r, "pvalue_crossings", "model_a", "M1")
	if row["n_cross"] != nil {
		t.Errorf("n_cross = %v, want empty (never below 0.01)", row["n_cross"])
	}
}

func TestMiniChecklistTables(t *testing.T) {
	r := analyze(t, miniStudy(t), nil)
	// Figure 4: M1 rates 1/2, 5/6, 3/4, 1/2, 9/10, 1/2 → bins [0,0,3,1,2];
	// M2 2/3, 1/2, 0, 3/4, 3/5, 3/5 → [1,0,1,3... 3/5 is exactly 0.6 → [0.6,0.8).
	want := map[string][5]int64{"M1": {0, 0, 3, 1, 2}, "M2": {1, 0, 1, 4, 0}}
	for m, w := range want {
		for b, name := range checklistBins {
			row := rowWhere(t, r, "checklist_distribution", "model", m, "bin", name)
			checkInt(t, m+" "+name, row["gradings"], w[b])
			checkExact(t, m+" "+name+" share", row["share"], float64(w[b])/6)
		}
	}
	// Figure 5 (M1, M2; see the verdicts above). D1 cells: q1M1 yy, yp, pn;
	// q1M2 yy, (h,na → left out), nn; q2M1 yp, pp; q2M2 yn, pn → 9 cells:
	// yy 2, yp 2, yn 1, pp 1, pn 2, nn 1. D2: q3M1 yy, yp, yp, pn (h,na
	// left out); q3M2 yy, yy, yp, nn, pn → yy 3, yp 3, pn 2, nn 1.
	d1 := rowWhere(t, r, "verdict_pairs", "domain", "D1")
	checkInt(t, "D1 cells", d1["cells"], 9)
	checkInt(t, "D1 left out", d1["cells_left_out"], 1)
	checkInt(t, "D1 na", d1["na_verdicts"], 1)
	for c, w := range map[string]float64{"yes_yes": 2, "yes_partial": 2, "yes_no": 1, "partial_partial": 1, "partial_no": 2, "no_no": 1} {
		checkExact(t, "D1 "+c, d1[c], w/9)
	}
	all := rowWhere(t, r, "verdict_pairs", "domain", "Overall")
	checkInt(t, "all cells", all["cells"], 18)
	for c, w := range map[string]float64{"yes_yes": 5, "yes_partial": 5, "yes_no": 1, "partial_partial": 1, "partial_no": 4, "no_no": 2} {
		checkExact(t, "overall "+c, all[c], w/18)
	}
}

func TestVerdictPairWeights(t *testing.T) {
	// One cell with k = 3 verdicts (hit, partial, miss): three pairs of
	// weight 1/3 each (yp, yn, pn); one cell with k = 2 (hit, hit): yy 1.
	// Total weight 2 → shares yy 1/2, yp = yn = pn = 1/6.
	var c pairAcc
	c.add([]study.Verdict{study.Hit, study.Partial, study.Miss})
	c.add([]study.Verdict{study.Hit, study.Hit})
	c.add([]study.Verdict{study.Miss}) // left out
	w, sh := c.weights()
	want := [6]float64{1, 1.0 / 3, 1.0 / 3, 0, 1.0 / 3, 0}
	for i := range want {
		if math.Abs(w[i]-want[i]) > 1e-15 {
			t.Errorf("weight %s = %v, want %v", pairNames[i], w[i], want[i])
		}
	}
	wantSh := [6]float64{0.5, 1.0 / 6, 1.0 / 6, 0, 1.0 / 6, 0}
	for i := range wantSh {
		if sh[i] != wantSh[i] {
			t.Errorf("share %s = %v, want %v", pairNames[i], sh[i], wantSh[i])
		}
	}
	if c.items != 2 || c.leftOut != 1 {
		t.Errorf("items %d left out %d, want 2 and 1", c.items, c.leftOut)
	}
}

func TestMiniEvaluators(t *testing.T) {
	r := analyze(t, miniStudy(t), nil)
	// Means over M1/M2 gradings: e1 (7+5+7+3+10+6)/12 = 38/12; e2
	// (6+8+8+8)/8 = 3.75; e3 (8+9)/4 = 4.25.
	checkExact(t, "e1", rowWhere(t, r, "evaluators", "evaluator", "e1")["rubric_mean"], 38.0/12)
	checkExact(t, "e2", rowWhere(t, r, "evaluators", "evaluator", "e2")["rubric_mean"], 3.75)
	// Figure 6: bins of 0.25 from 1: e1 in [3, 3.25), e2 [3.75, 4), e3 [4.25, 4.5).
	checkInt(t, "bin 3", rowWhere(t, r, "evaluator_leniency", "bin", "[3, 3.25)")["evaluators"], 1)
	checkInt(t, "bin 3.75", rowWhere(t, r, "evaluator_leniency", "bin", "[3.75, 4)")["evaluators"], 1)
	checkInt(t, "bin 4.25", rowWhere(t, r, "evaluator_leniency", "bin", "[4.25, 4.5)")["evaluators"], 1)
	checkInt(t, "bin 3.5", rowWhere(t, r, "evaluator_leniency", "bin", "[3.5, 3.75)")["evaluators"], 0)
	// Figure 7 with 10 requested and 3 evaluators: halves of 1. Critical
	// e1: M1 solved q2, q3 of q1..q3 → 2/3; M2 q3 → 1/3. Lenient e3: M1 0/1, M2 1/1.
	checkExact(t, "crit M1", rowWhere(t, r, "extreme_evaluators", "group", "critical", "model", "M1")["solve_rate"], 2.0/3)
	checkExact(t, "crit M2", rowWhere(t, r, "extreme_evaluators", "group", "critical", "model", "M2")["solve_rate"], 1.0/3)
	checkExact(t, "len M1", rowWhere(t, r, "extreme_evaluators", "group", "lenient", "model", "M1")["solve_rate"], 0)
	checkExact(t, "len M2", rowWhere(t, r, "extreme_evaluators", "group", "lenient", "model", "M2")["solve_rate"], 1)
	// Agreement with the others (M1, M2; M3 is below the coverage rule).
	// Rubric means e1/other: q1 M1 3.5/3 (e2), q1 M2 2.5/4, q2 M1 3.5/4,
	// q2 M2 1.5/4, q3 M1 5/4 (e3), q3 M2 3/4.5 → |diffs| .5 1.5 .5 2.5 1 1.5:
	// e1 7.5/6, e2 5/4, e3 2.5/2 — all 1.25. Solved (e1/other): q1 M1 no/yes,
	// q1 M2 no/no, q2 M1 yes/no, q2 M2 no/yes, q3 M1 yes/no, q3 M2 yes/yes →
	// e1 2 of 6 agree, e2 1 of 4, e3 1 of 2.
	for _, c := range []struct {
		e             string
		shared, pairs int64
		agree         float64
	}{{"e1", 6, 6, 1.0 / 3}, {"e2", 4, 4, 0.25}, {"e3", 2, 2, 0.5}} {
		row := rowWhere(t, r, "evaluators", "evaluator", c.e)
		checkInt(t, c.e+" n_shared", row["n_shared"], c.shared)
		checkInt(t, c.e+" n_solve_pairs", row["n_solve_pairs"], c.pairs)
		checkFloat(t, c.e+" rubric_abs_diff_others", row["rubric_abs_diff_others"], 1.25)
		checkFloat(t, c.e+" solve_agreement", row["solve_agreement"], c.agree)
	}
}

func TestMiniDataset(t *testing.T) {
	res := analyzeRes(t, miniStudy(t), nil)
	r, d := PresentForTest(res), res.Dataset
	// Table 1: D1 has q1, q2 and evaluators e1, e2; D2 has q3 and e1, e3.
	if len(d.Domains) != 2 || d.Domains[0].Domain != "D1" {
		t.Fatalf("domains %+v: want D1, D2", d.Domains)
	}
	checkInt(t, "D1 questions", d.Domains[0].Questions, 2)
	checkInt(t, "D1 experts", d.Domains[0].Experts, 2)
	checkInt(t, "total experts", d.Total.Experts, 3)
	checkInt(t, "total questions", d.Total.Questions, 3)
	// Table 2: q3's gate score 0.45 → Medium.
	if len(d.Difficulty) != 3 {
		t.Fatalf("difficulty rows %+v: want Hard, Medium, Easy", d.Difficulty)
	}
	for i, w := range []string{"Hard", "Medium", "Easy"} {
		if d.Difficulty[i].Difficulty != w {
			t.Errorf("difficulty row %d is %s, want %s", i, d.Difficulty[i].Difficulty, w)
		}
		checkInt(t, w, d.Difficulty[i].Questions, 1)
	}
	// Figure 1: M1 on Hard (q1): solved e2 only → 1/2; Medium (q3): e1 → 1/2; Easy (q2): e1 → 1/2.
	// M2 Hard 0/2, Medium 2/2, Easy 1/2.
	rate := func(diff, model string) float64 {
		for _, w := range d.SolveByDifficulty {
			if w.Difficulty == diff && w.Model == model {
				return w.SolveRate
			}
		}
		t.Fatalf("no Figure 1 row for %s %s", diff, model)
		return 0
	}
	checkExact(t, "M2 hard", rate("Hard", "M2"), 0)
	checkExact(t, "M2 medium", rate("Medium", "M2"), 1)
	checkExact(t, "M1 easy", rate("Easy", "M1"), 0.5)
	if len(r.Questions) != 3 || len(r.Questions[0].Responses) != 4 {
		t.Fatalf("question pages: %d, q1 responses %d", len(r.Questions), len(r.Questions[0].Responses))
	}
	// q1's M1 response has 2 human gradings and one averaged judge grading.
	var m1 = r.Questions[0].Responses[1]
	if m1.Model != "M1" || len(m1.Gradings) != 3 {
		t.Fatalf("q1 M1 page: model %s, %d gradings", m1.Model, len(m1.Gradings))
	}
}

// The question index's Solve Rate and disagreement, from the human gradings
// of the table above (the judge's are left out).
func TestMiniQuestionSolveRateAndDisagreement(t *testing.T) {
	r := analyze(t, miniStudy(t), nil)
	want := map[string]struct {
		solved, graded int
		rate, disagree float64
	}{
		// q1: solved HE e1, M3 e1, M1 e2, HE e2 → 4/8; ranges of the rubric
		// means HE 5/4.5, M3 3/2, M1 3.5/3, M2 2.5/4 → (0.5+1+0.5+1.5)/4.
		"q1": {4, 8, 0.5, 3.5 / 4},
		// q2: M1 e1, M2 e2 solved → 2/4; M1 3.5/4, M2 1.5/4 → (0.5+2.5)/2.
		"q2": {2, 4, 0.5, 1.5},
		// q3: M1 e1, M2 e1, M2 e3 → 3/4; M1 5/4, M2 3/4.5 → (1+1.5)/2.
		"q3": {3, 4, 0.75, 1.25},
	}
	if len(r.Questions) != 3 {
		t.Fatalf("%d question pages, want 3", len(r.Questions))
	}
	for _, q := range r.Questions {
		w := want[q.ID]
		if q.Solved != w.solved || q.Graded != w.graded {
			t.Errorf("%s: solved %d of %d, want %d of %d", q.ID, q.Solved, q.Graded, w.solved, w.graded)
		}
		checkExact(t, q.ID+" solve rate", q.SolveRate, w.rate)
		checkExact(t, q.ID+" disagreement", q.Disagreement, w.disagree)
	}
}

// The typed rubric rows carry the exact mean: M1's attribute A scores
// 4,3,3,4,5,4 → 23/6; the overall row of M2 in D2 (q3: 3 and 4.5) → 15/4.
func TestMiniRubricExact(t *testing.T) {
	r := analyzeRes(t, miniStudy(t), nil).Rubric
	find := func(rows []RubricRow, group, model string) RubricRow {
		t.Helper()
		for _, w := range rows {
			if w.Group == group && w.Model == model {
				return w
			}
		}
		t.Fatalf("no row %s %s", group, model)
		return RubricRow{}
	}
	if w := find(r.ByAttribute, "A", "M1"); w.Exact != study.NewRat(23, 6) || w.N != 6 {
		t.Errorf("M1 A: exact %v n %d, want 23/6 of 6", w.Exact, w.N)
	}
	if w := find(r.ByDomain, "D2", "M2"); w.Exact != study.NewRat(15, 4) {
		t.Errorf("M2 D2: exact %v, want 15/4", w.Exact)
	}
}
