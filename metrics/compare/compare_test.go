package compare_test

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/metrics/compare"

	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/findings"
	"github.com/euroexec/euroexec/report/tables"
	"github.com/euroexec/euroexec/study"
)

func analyze(t *testing.T, old, new *study.Study, opt compare.Options) report.Part {
	t.Helper()
	p, err := compare.Analyze(context.Background(), []compare.Run{{Label: "old", Study: old, Scores: scores.DefaultOptions()},
		{Label: "new", Study: new, Scores: scores.DefaultOptions()}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return tables.Compare(p)
}

func table(t *testing.T, p report.Part, name string) *report.Table {
	t.Helper()
	for _, tb := range p.Tables {
		if tb.Name == name {
			return tb
		}
	}
	t.Fatalf("no table %s", name)
	return nil
}

func checkFloat(t *testing.T, what string, got any, want float64) {
	t.Helper()
	g, ok := got.(float64)
	if !ok || !(g == want || math.Abs(g-want) < 1e-12 || (math.IsNaN(g) && math.IsNaN(want))) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// TestSelfCompare compares a run with itself: every delta is exactly 0,
// every interval [0, 0], nothing flagged, no question changed, the judge
// has not drifted and no pair flipped.
func TestSelfCompare(t *testing.T) {
	s, _ := simulate(simParams{questions: 80, seed: 3})
	opt := compare.DefaultOptions()
	opt.Bootstrap = 200
	p := analyze(t, s, s, opt)
	m := table(t, p, compare.ModelsTable)
	if len(m.Rows) != 3*5*2 {
		t.Fatalf("compare_models has %d rows, want 30 (3 models × 5 metrics × 2 populations)", len(m.Rows))
	}
	for _, r := range m.Rows {
		if isNaN(r[3]) && isNaN(r[4]) && isNaN(r[5]) {
			continue // the judge does not rank: avg_rank and win_rate are undefined in both
		}
		if r[5] != 0.0 || r[6] != 0.0 || r[7] != 0.0 {
			t.Errorf("%v %v %v: delta %v [%v, %v], want exactly 0 [0, 0]", r[0], r[1], r[2], r[5], r[6], r[7])
		}
		if r[12] != "no" || r[8] != "yes" || r[9] != int64(80) || r[10] != int64(80) {
			t.Errorf("%v %v %v: flagged %v paired %v shared %v same responses %v; want no, yes, 80, 80", r[0], r[1], r[2], r[12], r[8], r[9], r[10])
		}
	}
	for _, r := range table(t, p, compare.QuestionsTable).Rows {
		if r[6] != "same" || r[9] != "yes" {
			t.Fatalf("question row %v: change %v same_text %v, want same, yes", r[:2], r[6], r[9])
		}
	}
	d := table(t, p, compare.DriftTable).Rows
	if len(d) != 1 {
		t.Fatalf("judge_drift has %d rows, want 1", len(d))
	}
	if d[0][1] != int64(240) || d[0][6] != 0.0 || d[0][7] != 0.0 || d[0][8] != 0.0 || d[0][9] != 1.0 || d[0][10] != 0.0 || d[0][12] != "no" {
		t.Errorf("judge_drift row %v: want 240 responses, diff 0 [0, 0], κ 1, flipped 0, not flagged", d[0])
	}
	for _, r := range table(t, p, compare.RankingsTable).Rows {
		if r[2] != r[5] || r[8] != "" || r[9] != "" {
			t.Errorf("rankings row %v: rank changed or flipped", r)
		}
	}
	if len(p.Warnings) != 0 {
		t.Errorf("warnings: %v", p.Warnings)
	}
}

// TestImprovedModelFlagged: model-a gains +10 points of solve probability,
// the others do not change. Its Solve Rate change is flagged with an
// interval covering +0.10; the unchanged models' are not flagged.
func TestImprovedModelFlagged(t *testing.T) {
	old, new := simulate(simParams{questions: 600, seed: 11, improve: 0.10})
	opt := compare.DefaultOptions()
	opt.Bootstrap = 1000
	p := analyze(t, old, new, opt)
	m := table(t, p, compare.ModelsTable)
	r := findRow(m.Rows, "model-a", "solve_rate", compare.Humans)
	if r == nil {
		t.Fatal("no row for model-a solve_rate humans")
	}
	if r[12] != "yes" {
		t.Errorf("model-a solve_rate: flagged %v (delta %v [%v, %v], p_holm %v), want yes", r[12], r[5], r[6], r[7], r[11])
	}
	if lo, hi := r[6].(float64), r[7].(float64); !(lo <= 0.10 && 0.10 <= hi) {
		t.Errorf("model-a solve_rate: interval [%v, %v] does not cover +0.10", lo, hi)
	}
	for _, model := range []string{"model-b", "model-c"} {
		for _, metric := range []string{"solve_rate", "rubric", "checklist_rate"} {
			if r := findRow(m.Rows, model, metric, compare.Humans); r == nil || r[12] != "no" {
				t.Errorf("%s %s humans: %v, want a row not flagged", model, metric, r)
			}
		}
	}
}

// TestUnchangedModelsRarelyFlagged: over 200 seeds of small studies (100
// questions, 200 replicates to keep it fast), the models that did not
// change are flagged (any of Solve Rate, rubric, checklist rate, either
// population) in at most 5 % of the seeds. Average rank and win rate are
// left out: model-a's improvement really does move the others' ranks. Then
// 200 seeds where only the judge changed: no human row may be flagged in
// more than 5 % of them.
func TestUnchangedModelsRarelyFlagged(t *testing.T) {
	if testing.Short() {
		t.Skip("200 simulated comparisons")
	}
	const seeds = 200
	opt := compare.DefaultOptions()
	opt.Bootstrap = 200
	flaggedSeeds, improvedFlagged := 0, 0
	for seed := uint64(1); seed <= seeds; seed++ {
		old, new := simulate(simParams{questions: 100, seed: 1000 + seed, improve: 0.10})
		p := analyze(t, old, new, opt)
		any := false
		for _, r := range table(t, p, compare.ModelsTable).Rows {
			if r[0] == "model-a" {
				if r[1] == "solve_rate" && r[2] == compare.Humans && r[12] == "yes" {
					improvedFlagged++
				}
				continue
			}
			if r[1] != "avg_rank" && r[1] != "win_rate" && r[12] == "yes" {
				any = true
			}
		}
		if any {
			flaggedSeeds++
		}
	}
	t.Logf("unchanged models flagged in %d of %d seeds; the improved model in %d", flaggedSeeds, seeds, improvedFlagged)
	if flaggedSeeds*100 > 5*seeds {
		t.Errorf("unchanged models flagged in %d of %d seeds, want at most 5 %%", flaggedSeeds, seeds)
	}
	// A lenient judge (+0.3) with no model change: the human rows (every
	// metric) are flagged in at most 5 % of the seeds.
	humanSeeds := 0
	for seed := uint64(1); seed <= seeds; seed++ {
		old, new := simulate(simParams{questions: 100, seed: 5000 + seed, lenient: 0.3})
		for _, r := range table(t, analyze(t, old, new, opt), compare.ModelsTable).Rows {
			if r[2] == compare.Humans && r[12] == "yes" {
				humanSeeds++
				break
			}
		}
	}
	t.Logf("judge drift only: human rows flagged in %d of %d seeds", humanSeeds, seeds)
	if humanSeeds*100 > 5*seeds {
		t.Errorf("judge drift only: human rows flagged in %d of %d seeds, want at most 5 %%", humanSeeds, seeds)
	}
}

// TestJudgeDrift: the models do not change, the judge scores +0.3 higher in
// NEW. judge_drift finds it (interval covering +0.3, flagged), the human
// rows show no change, and a warning says the judge's model deltas reflect
// the judge.
func TestJudgeDrift(t *testing.T) {
	old, new := simulate(simParams{questions: 300, seed: 5, lenient: 0.3})
	opt := compare.DefaultOptions()
	opt.Bootstrap = 1000
	p := analyze(t, old, new, opt)
	d := table(t, p, compare.DriftTable).Rows
	if len(d) != 1 || d[0][0] != "judge-1" {
		t.Fatalf("judge_drift rows %v, want one for judge-1", d)
	}
	if d[0][1] != int64(900) {
		t.Errorf("responses compared = %v, want 900 (every response, same text)", d[0][1])
	}
	if lo, hi := d[0][7].(float64), d[0][8].(float64); !(lo <= 0.3 && 0.3 <= hi) || d[0][12] != "yes" {
		t.Errorf("judge drift %v [%v, %v] flagged %v, want an interval covering 0.3, flagged", d[0][6], lo, hi, d[0][12])
	}
	judgeFlagged := 0
	for _, r := range table(t, p, compare.ModelsTable).Rows {
		if r[2] == compare.Humans && r[12] == "yes" {
			t.Errorf("human row %v %v flagged (delta %v [%v, %v]): the models did not change", r[0], r[1], r[5], r[6], r[7])
		}
		if r[2] == "judge:judge-1" && r[1] == "solve_rate" && r[12] == "yes" {
			judgeFlagged++
		}
	}
	if judgeFlagged == 0 {
		t.Error("no Solve Rate change under the judge flagged: the simulation should make the judge's drift visible there")
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "judge judge-1") || !strings.Contains(p.Warnings[0], "not the models") {
		t.Errorf("warnings = %q, want one naming judge-1's drift", p.Warnings)
	}
}

// TestHandComputed checks every table on a study small enough to compute by
// hand: OLD has questions q1, q2 and models m-old (renamed m1 by Map) and
// m2; NEW has q2, q3 and m1, m3.
func TestHandComputed(t *testing.T) {
	H, M := study.Hit, study.Miss
	solved := func(e, q, m string) study.Grading {
		return study.Grading{Evaluator: e, Kind: study.Human, Round: "main", QuestionID: q, Model: m,
			Rubric: []float64{4, 3}, Verdicts: []study.Verdict{H, H, M}, Rank: 1}
	}
	failed := func(e, q, m string) study.Grading {
		return study.Grading{Evaluator: e, Kind: study.Human, Round: "main", QuestionID: q, Model: m,
			Rubric: []float64{2, 3}, Verdicts: []study.Verdict{H, M, M}, Rank: 2}
	}
	judge := func(q, m string, score float64) study.Grading {
		return study.Grading{Evaluator: "j", Kind: study.Judge, Round: "main", QuestionID: q, Model: m, Rubric: []float64{score, score}, Verdicts: []study.Verdict{H, H, M}}
	}
	resp := func(q, m, text string) study.Response {
		return study.Response{QuestionID: q, Model: m, Text: text, Chars: len([]rune(text))}
	}
	base := func() *study.Study {
		return &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"A", "B"}}
	}
	old := base()
	old.Questions = []study.Question{{ID: "q1"}, {ID: "q2"}}
	old.Models = []study.Model{{Name: "m-old"}, {Name: "m2"}}
	old.Evaluators = []study.Evaluator{{ID: "h1", Kind: study.Human}, {ID: "j", Kind: study.Judge}}
	old.Responses = []study.Response{resp("q1", "m-old", "aa"), resp("q2", "m-old", "bbb"), resp("q2", "m2", "cccc")}
	old.Gradings = []study.Grading{
		solved("h1", "q1", "m-old"), failed("h1", "q2", "m-old"), solved("h1", "q2", "m2"),
		judge("q2", "m-old", 2), judge("q2", "m2", 3),
	}
	new := base()
	new.Questions = []study.Question{{ID: "q2"}, {ID: "q3"}}
	new.Models = []study.Model{{Name: "m1"}, {Name: "m3"}}
	new.Evaluators = []study.Evaluator{{ID: "h2", Kind: study.Human}, {ID: "j", Kind: study.Judge}}
	new.Responses = []study.Response{resp("q2", "m1", "bbb"), resp("q3", "m1", "dd"), resp("q2", "m3", "eeeee")}
	new.Gradings = []study.Grading{
		solved("h2", "q2", "m1"), solved("h2", "q3", "m1"), failed("h2", "q2", "m3"),
		judge("q2", "m1", 3.5), judge("q2", "m3", 1),
	}
	opt := compare.DefaultOptions()
	opt.Bootstrap = 0
	opt.Map = map[string]string{"m-old": "m1"}
	p := analyze(t, old, new, opt)
	m := table(t, p, compare.ModelsTable)
	// m1, humans: OLD solves q1 and not q2 (1/2), NEW solves q2 and q3 (2/2).
	r := findRow(m.Rows, "m1", "solve_rate", compare.Humans)
	checkFloat(t, "m1 old solve rate", r[3], 0.5)
	checkFloat(t, "m1 new solve rate", r[4], 1)
	checkFloat(t, "m1 delta", r[5], 0.5)
	// q2's response is "bbb" in both runs: the same response graded again
	if r[8] != "yes" || r[9] != int64(1) || r[10] != int64(1) || r[12] != "no" {
		t.Errorf("m1 solve_rate row %v: want paired, 1 shared question (q2) with the same response, not flagged", r)
	}
	// The change's interval is the cluster-robust t interval over the
	// three questions (q1 old only, q2 both, q3 new only): u = −1/4, 1/4,
	// 0, SE² = 3/2·1/8 = 3/16 on 2 df; bounds from scipy.stats.t. Like
	// the test, it needs no replicates (Bootstrap = 0 here).
	if lo, ok := r[6].(float64); !ok || math.Abs(lo-(-1.3631032838828143)) > 1e-9 {
		t.Errorf("m1 solve_rate lower bound %v, want −1.3631032838828143", r[6])
	}
	if hi, ok := r[7].(float64); !ok || math.Abs(hi-2.3631032838828143) > 1e-9 {
		t.Errorf("m1 solve_rate upper bound %v, want 2.3631032838828143", r[7])
	}
	// Rubric: OLD (3.5 + 2.5)/2 = 3, NEW 3.5. Checklist: OLD (2/3 + 1/3)/2, NEW 2/3.
	checkFloat(t, "m1 old rubric", findRow(m.Rows, "m1", "rubric", compare.Humans)[3], 3)
	checkFloat(t, "m1 new rubric", findRow(m.Rows, "m1", "rubric", compare.Humans)[4], 3.5)
	checkFloat(t, "m1 old checklist", findRow(m.Rows, "m1", "checklist_rate", compare.Humans)[3], 0.5)
	checkFloat(t, "m1 new checklist", findRow(m.Rows, "m1", "checklist_rate", compare.Humans)[4], 2.0/3)
	// Ranks re-derived per (evaluator, question): in OLD q2, m2 ranked 1
	// and m1 2; q1 has m1 alone → rank 1. avg rank 1.5, win rate 0.5.
	checkFloat(t, "m1 old avg rank", findRow(m.Rows, "m1", "avg_rank", compare.Humans)[3], 1.5)
	checkFloat(t, "m1 old win rate", findRow(m.Rows, "m1", "win_rate", compare.Humans)[3], 0.5)
	checkFloat(t, "m1 new win rate", findRow(m.Rows, "m1", "win_rate", compare.Humans)[4], 1)
	// One-side models keep their rows with an empty side.
	r = findRow(m.Rows, "m2", "solve_rate", compare.Humans)
	if r == nil || !isNaN(r[4]) || !isNaN(r[5]) || r[9] != int64(0) {
		t.Errorf("m2 (OLD only) row %v: want old 1, new and delta empty, 0 shared", r)
	}
	checkFloat(t, "m2 old", r[3], 1)
	if r := findRow(m.Rows, "m3", "solve_rate", compare.Humans); r == nil || !isNaN(r[3]) {
		t.Errorf("m3 (NEW only) row %v: want old empty", r)
	}
	q := table(t, p, compare.QuestionsTable)
	want := map[[2]string][]any{
		{"q2", "m1"}: {0.0, 1.0, "improved", int64(3), int64(3), "yes"},
		{"q1", "m1"}: {1.0, math.NaN(), "only_old", int64(2), nil, ""},
		{"q3", "m1"}: {math.NaN(), 1.0, "only_new", nil, int64(2), ""},
		{"q2", "m2"}: {1.0, math.NaN(), "only_old", int64(4), nil, ""},
		{"q2", "m3"}: {math.NaN(), 0.0, "only_new", nil, int64(5), ""},
	}
	if len(q.Rows) != len(want) {
		t.Errorf("compare_questions has %d rows, want %d", len(q.Rows), len(want))
	}
	for _, r := range q.Rows {
		w, ok := want[[2]string{r[0].(string), r[1].(string)}]
		if !ok {
			t.Errorf("unexpected question row %v", r)
			continue
		}
		got := []any{r[3], r[4], r[6], r[7], r[8], r[9]}
		for i := range w {
			if wf, ok := w[i].(float64); ok && math.IsNaN(wf) {
				if !isNaN(got[i]) {
					t.Errorf("%v: column %d = %v, want empty", r[:2], i, got[i])
				}
				continue
			}
			if got[i] != w[i] {
				t.Errorf("%v: got %v, want %v", r[:2], got, w)
				break
			}
		}
	}
	if q.Rows[0][0] != "q2" || q.Rows[0][1] != "m1" {
		t.Errorf("first question row %v, want the only defined change (q2, m1)", q.Rows[0][:2])
	}
	// Judge j: q2/m1 has the same text in both runs (OLD 2 → NEW 3.5);
	// q2/m2 and q2/m3 are graded in one run only. Diff 1.5, solved 0 → 1:
	// one flip of one; κ = 0 (p_o = 0, p_e = 1·0 + 0·1 = 0).
	d := table(t, p, compare.DriftTable).Rows
	if len(d) != 1 || d[0][1] != int64(1) || d[0][3] != int64(0) {
		t.Fatalf("judge_drift %v: want judge j on 1 response, 0 changed texts", d)
	}
	checkFloat(t, "judge old rubric", d[0][4], 2)
	checkFloat(t, "judge diff", d[0][6], 1.5)
	checkFloat(t, "judge flipped", d[0][10], 1)
	checkFloat(t, "κ", d[0][9], 0)
	var kinds []string
	for _, r := range table(t, p, compare.MatchingTable).Rows {
		kinds = append(kinds, r[0].(string)+" "+r[1].(string)+" "+r[2].(string))
	}
	wantKinds := "model m-old → m1 |model m2 old|model m3 new|question q1 old|question q3 new|human evaluator h1 old|human evaluator h2 new"
	if strings.Join(kinds, "|") != wantKinds {
		t.Errorf("compare_matching:\n got %s\nwant %s", strings.Join(kinds, "|"), wantKinds)
	}
}

// TestKappaHandComputed: κ between a judge's solved verdicts on four
// unchanged responses, OLD 1,1,0,0 and NEW 1,0,0,0: p_o = 3/4, p_e = ½·¼ +
// ½·¾ = ½, κ = (¾ − ½)/(1 − ½) = ½; one flip in four.
func TestKappaHandComputed(t *testing.T) {
	mk := func(scores []float64) *study.Study {
		s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"A"},
			Models: []study.Model{{Name: "m"}}, Evaluators: []study.Evaluator{{ID: "j", Kind: study.Judge}}}
		for i, sc := range scores {
			q := string(rune('a' + i))
			s.Questions = append(s.Questions, study.Question{ID: q})
			s.Responses = append(s.Responses, study.Response{QuestionID: q, Model: "m", Text: "t" + q})
			s.Gradings = append(s.Gradings, study.Grading{Evaluator: "j", Kind: study.Judge, Round: "main", QuestionID: q, Model: "m", Rubric: []float64{sc}})
		}
		return s
	}
	opt := compare.DefaultOptions()
	opt.Bootstrap = 100
	p := analyze(t, mk([]float64{4, 3, 2, 1}), mk([]float64{4, 2.5, 2, 1}), opt)
	d := table(t, p, compare.DriftTable).Rows[0]
	checkFloat(t, "κ", d[9], 0.5)
	checkFloat(t, "flipped", d[10], 0.25)
	checkFloat(t, "diff", d[6], -0.125)
}

// TestKappaUndefinedLeftOut: a verdict that is undefined in either run
// (an all-na checklist) is left out of κ and the flipped share, as from
// every Solve Rate. Judge verdicts on four unchanged responses (rubric 4,
// one checklist item): OLD hit, hit, miss, na → solved 1, 1, 0, undefined;
// NEW hit, miss, miss, hit → 1, 0, 0, 1. On the three defined pairs p_o =
// 2/3, p_e = ⅔·⅓ + ⅓·⅔ = 4/9, κ = (2/3 − 4/9)/(1 − 4/9) = 0.4; one flip
// of three. (Counting the undefined verdict as unsolved gave κ 0 and 2/4.)
func TestKappaUndefinedLeftOut(t *testing.T) {
	H, M, NA := study.Hit, study.Miss, study.NA
	mk := func(vs []study.Verdict) *study.Study {
		s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"A"},
			Models: []study.Model{{Name: "m"}}, Evaluators: []study.Evaluator{{ID: "j", Kind: study.Judge}}}
		for i, v := range vs {
			q := string(rune('a' + i))
			s.Questions = append(s.Questions, study.Question{ID: q, Checklist: []string{"item"}})
			s.Responses = append(s.Responses, study.Response{QuestionID: q, Model: "m", Text: "t" + q})
			s.Gradings = append(s.Gradings, study.Grading{Evaluator: "j", Kind: study.Judge, Round: "main", QuestionID: q, Model: "m",
				Rubric: []float64{4}, Verdicts: []study.Verdict{v}})
		}
		return s
	}
	opt := compare.DefaultOptions()
	opt.Bootstrap = 0
	p := analyze(t, mk([]study.Verdict{H, H, M, NA}), mk([]study.Verdict{H, M, M, H}), opt)
	tb := table(t, p, compare.DriftTable)
	d := tb.Rows[0]
	at := func(name string) any {
		for i, c := range tb.Columns {
			if c.Name == name {
				return d[i]
			}
		}
		t.Fatalf("no column %s", name)
		return nil
	}
	if at("n_responses") != int64(4) {
		t.Errorf("n_responses = %v, want 4 (the rubric comparison keeps every response)", at("n_responses"))
	}
	checkFloat(t, "κ", at("kappa_solved"), 0.4)
	checkFloat(t, "flipped", at("flipped_share"), 1.0/3)
	checkFloat(t, "diff", at("rubric_diff"), 0)
}

// TestSameOnOneCore: replicates are seeded per replicate, so the tables do
// not depend on the number of cores.
func TestSameOnOneCore(t *testing.T) {
	old, new := simulate(simParams{questions: 50, seed: 9, improve: 0.1, lenient: 0.2})
	opt := compare.DefaultOptions()
	opt.Bootstrap = 300
	a := analyze(t, old, new, opt)
	prev := runtime.GOMAXPROCS(1)
	b := analyze(t, old, new, opt)
	runtime.GOMAXPROCS(prev)
	for i := range a.Tables {
		for j := range a.Tables[i].Rows {
			for k, v := range a.Tables[i].Rows[j] {
				w := b.Tables[i].Rows[j][k]
				if v != w && !(isNaN(v) && isNaN(w)) {
					t.Fatalf("%s row %d column %d: %v with all cores, %v with one", a.Tables[i].Name, j, k, v, w)
				}
			}
		}
	}
}

func TestOptionsErrors(t *testing.T) {
	s, _ := simulate(simParams{questions: 5, seed: 1})
	for _, tc := range []struct {
		runs []compare.Run
		opt  compare.Options
		want string
	}{
		{[]compare.Run{{Study: s}}, compare.DefaultOptions(), "at least two runs"},
		{[]compare.Run{{Study: s}, {Study: s}}, compare.Options{Bootstrap: -1, Alpha: 0.05}, "bootstrap = -1"},
		{[]compare.Run{{Study: s}, {Study: s}}, compare.Options{Alpha: 1}, "alpha = 1"},
		{[]compare.Run{{Study: s}, {}}, compare.DefaultOptions(), "run 2 has no study"},
		{[]compare.Run{{Study: s}, {Study: s}}, compare.Options{Alpha: 0.05, Map: map[string]string{"model-a": "model-b"}},
			`run run 1: models "model-a" and "model-b" both become "model-b"`},
	} {
		_, err := compare.Analyze(context.Background(), tc.runs, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one containing %q", err, tc.want)
		}
	}
}

func TestOverview(t *testing.T) {
	a, b := simulate(simParams{questions: 7, seed: 1})
	b.Questions = append(b.Questions, study.Question{ID: "extra"})
	o := compare.Overview([]compare.Run{{Study: a}, {Study: b}}, map[string]string{"model-a": "model-b"})
	// 8 questions, model-a renamed onto model-b: 2 models, 6 humans, 1 judge;
	// per run 7 questions × 3 models × (2 human + 1 judge) gradings.
	if o.Questions != 8 || o.Models != 2 || o.HumanGraders != 6 || o.Judges != 1 || o.Gradings != 2*7*3*3 ||
		o.HumanGradings != 2*7*3*2 || o.JudgeGradings != 2*7*3 {
		t.Errorf("overview %+v", o)
	}
}

// TestOverviewDefinitions: compare's overview counts gradings and graders
// as the analysis's overview does (one shared definition): a judge's runs
// on one response are one grading, an evaluator without a grading is no
// grader, a grading of an unlisted question is not counted; and the counts
// of one run equal paper.AnalyzeResult's.
func TestOverviewDefinitions(t *testing.T) {
	a, _ := simulate(simParams{questions: 5, seed: 3})
	// judge-1 ran twice on every response: the second runs add no grading.
	var extra []study.Grading
	for _, g := range a.Gradings {
		if g.Kind == study.Judge {
			g.Run = "2"
			extra = append(extra, g)
		}
	}
	a.Gradings = append(a.Gradings, extra...)
	a.Evaluators = append(a.Evaluators, study.Evaluator{ID: "idle", Kind: study.Human},
		study.Evaluator{ID: "idle-judge", Kind: study.Judge})
	a.Gradings = append(a.Gradings, study.Grading{Evaluator: "h1", Kind: study.Human, Round: "main",
		QuestionID: "not-listed", Model: "model-a", Rubric: []float64{3, 3}, Verdicts: verdicts(2)})
	o := compare.Overview([]compare.Run{{Study: a}}, nil)
	// 5 questions × 3 models × 2 human gradings; × 1 judge grading.
	got := []int{o.Gradings, o.HumanGradings, o.JudgeGradings, o.HumanGraders, o.Judges}
	want := []int{5 * 3 * 3, 5 * 3 * 2, 5 * 3, 6, 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("gradings, human, judge, humans, judges: got %v, want %v", got, want)
	}
	ao := paper.DefaultOptions()
	ao.Bootstrap, ao.Resamples = 0, 0
	res, err := paper.AnalyzeResult(context.Background(), a, ao)
	if err != nil {
		t.Fatal(err)
	}
	r := res.Overview
	if fmt.Sprint(got) != fmt.Sprint([]int{r.Gradings, r.HumanGradings, r.JudgeGradings, r.HumanGraders, r.Judges}) {
		t.Errorf("compare's overview %+v, analysis's %+v", o, r)
	}
	// The comparison's Methods paragraph gives the split, not "N gradings in all".
	m := findings.Make(&report.Report{Overview: tables.CompareOverview(o)}).Methods
	if w := "(30 human and 15 judge gradings)"; !strings.Contains(m, w) {
		t.Errorf("Methods paragraph %q lacks %q", m, w)
	}
}

// TestMapByDisplayName: --map may name a model by its display name.
func TestMapByDisplayName(t *testing.T) {
	old, new := simulate(simParams{questions: 20, seed: 2})
	old.Models[0].DisplayName = "Model A (2025)"
	opt := compare.DefaultOptions()
	opt.Bootstrap = 0
	opt.Map = map[string]string{"Model A (2025)": "model-z"}
	p := analyze(t, old, new, opt)
	m := table(t, p, compare.ModelsTable)
	if r := findRow(m.Rows, "model-z", "solve_rate", compare.Humans); r == nil || isNaN(r[3]) || !isNaN(r[4]) {
		t.Errorf("model-z row %v: want OLD's model-a renamed by its display name, NEW empty", r)
	}
	if r := findRow(m.Rows, "model-a", "solve_rate", compare.Humans); r == nil || !isNaN(r[3]) || isNaN(r[4]) {
		t.Errorf("model-a row %v: want only NEW's", r)
	}
}

// TestDisjointRuns compares two runs that share no question and no human
// grader: every row is unpaired, and the warnings say that a change mixes
// leniency with different questions and graders. A run compared with itself
// gets neither warning.
func TestDisjointRuns(t *testing.T) {
	old, s := simulate(simParams{questions: 40, seed: 5})
	new := *s
	new.Questions = append([]study.Question(nil), s.Questions...)
	for i := range new.Questions {
		new.Questions[i].ID = "n-" + new.Questions[i].ID
	}
	new.Responses = append([]study.Response(nil), s.Responses...)
	for i := range new.Responses {
		new.Responses[i].QuestionID = "n-" + new.Responses[i].QuestionID
	}
	new.Evaluators = append([]study.Evaluator(nil), s.Evaluators...)
	for i := range new.Evaluators {
		if new.Evaluators[i].Kind == study.Human {
			new.Evaluators[i].ID = "x-" + new.Evaluators[i].ID
		}
	}
	new.Gradings = append([]study.Grading(nil), s.Gradings...)
	for i := range new.Gradings {
		g := &new.Gradings[i]
		g.QuestionID = "n-" + g.QuestionID
		if g.Kind == study.Human {
			g.Evaluator = "x-" + g.Evaluator
		}
	}
	opt := compare.DefaultOptions()
	opt.Bootstrap = 100
	p := analyze(t, old, &new, opt)
	m := table(t, p, compare.ModelsTable)
	paired := m.Index("paired")
	for _, r := range m.Rows {
		if r[paired] != "no" {
			t.Fatalf("row %v: paired = %v, want no", r, r[paired])
		}
	}
	w := strings.Join(p.Warnings, "\n")
	for _, want := range []string{"share no question graded in both", "no human grader of new graded old"} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
	self := analyze(t, old, old, opt)
	if w := strings.Join(self.Warnings, "\n"); strings.Contains(w, "share no question") || strings.Contains(w, "human grader") {
		t.Errorf("self-compare warns:\n%s", w)
	}
}

// TestNonInferiorityHand checks NonInferiority against bounds and
// p-values computed with scipy.stats.t (scipy 1.10).
func TestNonInferiorityHand(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name                    string
		est, se, df, margin     float64
		higher                  bool
		lo, p                   float64
		nonInferior, equivalent bool
	}{
		// lo = 0.02 − t_{0.95,99}·0.015, p = P(T_99 ≥ 0.04/0.015); hi = 0.0449 ≥ 0.02
		{"non-inferior, not equivalent", 0.02, 0.015, 99, 0.02, true, -0.00490586733994584, 0.004474618611281103, true, false},
		// lower is better: the improvement is −0.02
		{"lower is better", 0.02, 0.015, 99, 0.02, false, -0.04490586733994584, 0.5, false, false},
		// lo = 0.001 − t_{0.95,39}·0.004 > −0.01 and hi = 0.00774 < 0.01
		{"equivalent", 0.001, 0.004, 39, 0.01, true, -0.005739500477989597, 0.004493556058186617, true, true},
		{"no standard error", 0.001, nan, 39, 0.01, true, nan, nan, false, false},
		{"no degrees of freedom", 0.001, 0.004, 0, 0.01, true, nan, nan, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lo, p, ni, eq := compare.NonInferiority(tc.est, tc.se, tc.df, tc.margin, tc.higher, 0.05)
			close := func(got, want float64) bool {
				return math.IsNaN(got) == math.IsNaN(want) && !(math.Abs(got-want) > 1e-9)
			}
			if !close(lo, tc.lo) || !close(p, tc.p) || ni != tc.nonInferior || eq != tc.equivalent {
				t.Errorf("got lo %v p %v ni %v eq %v; want %v %v %v %v", lo, p, ni, eq, tc.lo, tc.p, tc.nonInferior, tc.equivalent)
			}
		})
	}
}

// TestNonInferioritySimulated: model-a's Solve Rate changes by a known
// shift; margin 5 pp. With the true change at −5 pp (on the margin), NEW
// may be declared non-inferior in at most 5 % + Monte Carlo slack of 200
// simulated comparisons (size); with no change it is declared
// non-inferior in most of them (power), on 600 questions.
func TestNonInferioritySimulated(t *testing.T) {
	if testing.Short() {
		t.Skip("400 simulated comparisons")
	}
	const seeds = 200
	opt := compare.DefaultOptions()
	opt.Bootstrap = 400
	opt.Margins = map[string]float64{"solve_rate": 0.05}
	rate := func(shift float64, base uint64) float64 {
		n := 0
		for seed := uint64(1); seed <= seeds; seed++ {
			old, new := simulate(simParams{questions: 600, seed: base + seed, improve: shift})
			m := table(t, analyze(t, old, new, opt), compare.ModelsTable)
			for _, r := range m.Rows {
				if r[0] == "model-a" && r[1] == "solve_rate" && r[2] == compare.Humans && r[m.Index("noninferior")] == "yes" {
					n++
				}
			}
		}
		return float64(n) / seeds
	}
	size, power := rate(-0.05, 7000), rate(0, 9000)
	t.Logf("declared non-inferior: %.3f at the margin (size), %.3f with no change (power)", size, power)
	if size > 0.08 {
		t.Errorf("size %.3f > 0.08", size)
	}
	// the normal approximation gives about 0.8 at this design's SE (≈ 2 pp)
	if power < 0.7 {
		t.Errorf("power %.3f < 0.7", power)
	}
}
