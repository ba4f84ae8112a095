package ranking

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
)

// grading is a shorthand for one human grading with one rubric attribute.
func grading(e, q, m string, score float64, rank int) analysis.Grading {
	return analysis.Grading{Evaluator: e, Kind: analysis.Human, Round: "main", QuestionID: q, Model: m, Rubric: []float64{score}, Rank: rank}
}

func newStudy(gs []analysis.Grading) *analysis.Study {
	return &analysis.Study{MainRound: "main", HumanLabel: "Human Expert", Attributes: []string{"R"}, ScaleMin: 1, ScaleMax: 5, Gradings: gs}
}

func tableRows(t *testing.T, res report.Part, name string) [][]any {
	t.Helper()
	for _, tb := range res.Tables {
		if tb.Name == name {
			return tb.Rows
		}
	}
	t.Fatalf("no table %s; notes %v", name, res.Notes)
	return nil
}

// Three models, four questions, two humans; solved = rubric ≥ 3 (no checklist).
//
//	      q1     q2     q3     q4    (h1, h2)
//	A   5, 4   4, 4   5, 5   3, 4   rubric 34/8 = 4.25,  solved 8/8
//	B   3, 3   4, 2   2, 3   3, 3   rubric 23/8 = 2.875, solved 6/8
//	C   2, 1   3, 2   1, 1   2, 3   rubric 15/8 = 1.875, solved 2/8
//
// Per-question means A 4.5 4 5 3.5; B 3 3 2.5 3; C 1.5 2.5 1 2.5, so the
// mean paired differences are A−B 1.375, A−C 2.375, B−C 1.
// Every grader ranks A > B > C, except h2 on q2: B > A > C.
func TestAnalyzeHandWorked(t *testing.T) {
	scores := map[string][4][2]float64{
		"A": {{5, 4}, {4, 4}, {5, 5}, {3, 4}},
		"B": {{3, 3}, {4, 2}, {2, 3}, {3, 3}},
		"C": {{2, 1}, {3, 2}, {1, 1}, {2, 3}},
	}
	var gs []analysis.Grading
	for qi := 0; qi < 4; qi++ {
		q := fmt.Sprintf("q%d", qi+1)
		for hi, h := range []string{"h1", "h2"} {
			rank := map[string]int{"A": 1, "B": 2, "C": 3}
			if q == "q2" && h == "h2" {
				rank = map[string]int{"A": 2, "B": 1, "C": 3}
			}
			for _, m := range []string{"A", "B", "C"} {
				gs = append(gs, grading(h, q, m, scores[m][qi][hi], rank[m]))
			}
			// the graded human answer and a judge are not ranked here
			gs = append(gs, grading(h, q, "Human Expert", 5, 0))
		}
		j := grading("judge", q, "A", 1, 3)
		j.Kind = analysis.Judge
		gs = append(gs, j)
	}
	opt := DefaultOptions()
	opt.Bootstrap = 500
	res := analyze(t, newStudy(gs), opt)
	rows := tableRows(t, res, RankingsTable)
	if len(rows) != 3 {
		t.Fatalf("got %d ranking rows, want 3 (the human label left out): %v", len(rows), rows)
	}
	want := []struct {
		model    string
		rubric   float64
		solve    float64
		rank     float64
		nRanking int64
	}{{"A", 4.25, 1, 1, 8}, {"B", 2.875, 0.75, 2, 8}, {"C", 1.875, 0.25, 3, 8}}
	var plSum float64
	for i, w := range want {
		r := rows[i]
		if r[0] != w.model || r[2] != w.rubric || r[3] != w.solve || r[4] != w.rank || r[9] != w.nRanking || r[1] != int64(8) {
			t.Errorf("row %d: got %v; want model %s rubric %v solve %v rank %v rankings %d", i, r, w.model, w.rubric, w.solve, w.rank, w.nRanking)
		}
		plSum += r[10].(float64)
		lo, hi := r[11].(float64), r[12].(float64)
		if !(lo <= r[10].(float64) && r[10].(float64) <= hi) {
			t.Errorf("%s: PL interval [%v, %v] misses %v", w.model, lo, hi, r[10])
		}
		if rlo, rhi := r[5].(float64), r[6].(float64); !(rlo >= 1 && rlo <= w.rank && w.rank <= rhi && rhi <= 3) {
			t.Errorf("%s: rank interval [%v, %v]", w.model, rlo, rhi)
		}
	}
	if math.Abs(plSum-3) > 1e-9 {
		t.Errorf("Plackett–Luce strengths sum to %v, want 3 (mean 1)", plSum)
	}
	if !(rows[0][10].(float64) > rows[1][10].(float64) && rows[1][10].(float64) > rows[2][10].(float64)) {
		t.Errorf("Plackett–Luce order: %v %v %v", rows[0][10], rows[1][10], rows[2][10])
	}
	pw := tableRows(t, res, PairwiseTable)
	if len(pw) != 6 {
		t.Fatalf("got %d pairwise rows, want 6", len(pw))
	}
	perQ := map[string][]float64{"A": {4.5, 4, 5, 3.5}, "B": {3, 3, 2.5, 3}, "C": {1.5, 2.5, 1, 2.5}}
	wantT := map[[2]string]float64{{"A", "B"}: 1.375, {"A", "C"}: 2.375, {"B", "C"}: 1}
	wantSR := map[[2]string]float64{{"A", "B"}: 0.25, {"A", "C"}: 0.75, {"B", "C"}: 0.5}
	var ps []float64
	for _, r := range pw {
		k := [2]string{r[0].(string), r[1].(string)}
		ps = append(ps, r[5].(float64))
		switch r[2] {
		case TestPairedT:
			tt := stats.TTestRel(perQ[k[0]], perQ[k[1]])
			if math.Abs(r[3].(float64)-wantT[k]) > 1e-12 || r[5] != tt.P || r[4] != int64(4) {
				t.Errorf("%v: got estimate %v p %v n %v; want %v %v 4", k, r[3], r[5], r[4], wantT[k], tt.P)
			}
		case TestBootstrapSR:
			if math.Abs(r[3].(float64)-wantSR[k]) > 1e-12 || r[4] != int64(500) {
				t.Errorf("%v: got estimate %v n %v; want %v 500", k, r[3], r[4], wantSR[k])
			}
		default:
			t.Errorf("unknown test %v", r[2])
		}
	}
	holm := stats.Holm(ps)
	for i, r := range pw {
		if r[6] != holm[i] {
			t.Errorf("row %d: p_holm %v, want %v (Holm over all 6 tests)", i, r[6], holm[i])
		}
		if sig, ok := r[7].(bool); !ok || sig != (holm[i] <= 0.05) {
			t.Errorf("row %d: significant %v with p_holm %v", i, r[7], holm[i])
		}
	}
	if len(res.Figures) != 2 {
		t.Errorf("got %d figures, want 2", len(res.Figures))
	}
	for _, tb := range res.Tables {
		if tb.Section != report.SectionBeyond {
			t.Errorf("table %s in section %q", tb.Name, tb.Section)
		}
	}
}

// Two models through Analyze: ten questions, one human each; A is ranked
// first on 7, B on 3. With one pseudo-win γ_A = 2·(7+1)/(10+2) = 4/3 and
// γ_B = 2/3. A third model graded on 1 of 10 questions (< 90 %) is left out
// with a note, and its rank is dropped from the orderings.
func TestAnalyzePlackettLuceTwoModels(t *testing.T) {
	var gs []analysis.Grading
	for i := 0; i < 10; i++ {
		q := fmt.Sprintf("q%02d", i)
		ra, rb := 1, 2
		if i >= 7 {
			ra, rb = 2, 1
		}
		if i == 0 {
			gs = append(gs, grading("h", q, "Rare", 3, 1))
			ra, rb = 2, 3
		}
		gs = append(gs, grading("h", q, "A", 3, ra), grading("h", q, "B", 3, rb))
	}
	opt := DefaultOptions()
	opt.Bootstrap = 0
	res := analyze(t, newStudy(gs), opt)
	rows := tableRows(t, res, RankingsTable)
	got := map[string]float64{}
	for _, r := range rows {
		got[r[0].(string)] = r[10].(float64)
	}
	if len(rows) != 2 || !close(got["A"], 4.0/3, 1e-9) || !close(got["B"], 2.0/3, 1e-9) {
		t.Errorf("got %v, want A 4/3, B 2/3", got)
	}
	found := false
	for _, n := range res.Notes {
		found = found || strings.Contains(n.Reason, "model Rare left out: graded on 1 of 10 questions")
	}
	if !found {
		t.Errorf("no coverage note: %v", res.Notes)
	}
	// The MLE: 7/3 → 1.4 and 0.6.
	opt.PLPrior = 0
	res = analyze(t, newStudy(gs), opt)
	rows = tableRows(t, res, RankingsTable)
	if !close(rows[0][10].(float64), 1.4, 1e-9) && !close(rows[1][10].(float64), 1.4, 1e-9) {
		t.Errorf("MLE: %v", rows)
	}
}

func TestBootstrapP(t *testing.T) {
	col := func(v ...float64) [][]float64 {
		var r [][]float64
		for _, x := range v {
			r = append(r, []float64{x})
		}
		return r
	}
	nan := math.NaN()
	cases := []struct {
		reps [][]float64
		p    float64
		n    int
	}{
		{col(-0.1, 0, 0.2, 0.3, 0.5), 1, 5},     // ≤0: 2, ≥0: 4 → 2·3/6 = 1
		{col(0.1, 0.2, 0.3, 0.4), 0.4, 4},       // ≤0: 0 → 2·1/5
		{col(0.1, nan, 0.2, 0.3, -0.4), 0.8, 4}, // NaN ignored; ≤0: 1 → 2·2/5
		{col(0, 0, 0), 1, 3},                    // no difference at all
		{col(nan, nan), nan, 0},
	}
	for i, c := range cases {
		p, n := bootstrapP(c.reps, 0)
		if !close(p, c.p, 1e-15) || n != c.n {
			t.Errorf("case %d: got p %v n %d, want %v %d", i, p, n, c.p, c.n)
		}
	}
}

// simStudy draws a study from a Plackett–Luce model with strengths gamma:
// nQ questions, each ranked by nH humans over all models; rubric scores are
// uniform 1…5 (they play no part in the strengths).
func simStudy(r *rand.Rand, gamma []float64, nQ, nH int) *analysis.Study {
	var gs []analysis.Grading
	K := len(gamma)
	for q := 0; q < nQ; q++ {
		for h := 0; h < nH; h++ {
			left := make([]int, K)
			for i := range left {
				left[i] = i
			}
			rank := make([]int, K)
			for pos := 1; pos <= K; pos++ {
				var tot float64
				for _, m := range left {
					tot += gamma[m]
				}
				u := r.Float64() * tot
				k := 0
				for ; k < len(left)-1; k++ {
					u -= gamma[left[k]]
					if u < 0 {
						break
					}
				}
				rank[left[k]] = pos
				left = append(left[:k], left[k+1:]...)
			}
			for m := 0; m < K; m++ {
				gs = append(gs, grading(fmt.Sprintf("h%d", h), fmt.Sprintf("q%03d", q), fmt.Sprintf("m%d", m), float64(1+r.IntN(5)), rank[m]))
			}
		}
	}
	return newStudy(gs)
}

// Coverage of the 95 % Plackett–Luce intervals over 500 simulated studies
// (4 models, 60 questions × 2 rankings, 200 replicates each), pooled over
// the four models: the share of intervals holding the true strength
// (normalised to mean 1) must lie in [93 %, 97 %].
func TestPLIntervalCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("coverage simulation skipped under -short")
	}
	gamma := []float64{1.8, 1.2, 0.6, 0.4} // mean 1
	opt := DefaultOptions()
	opt.Bootstrap = 200
	hit, total := 0, 0
	perModel := make([]int, len(gamma))
	for sim := 0; sim < 500; sim++ {
		s := simStudy(rand.New(rand.NewPCG(42, uint64(sim))), gamma, 60, 2)
		opt.Seed = uint64(1000 + sim)
		res := analyze(t, s, opt)
		for _, r := range tableRows(t, res, RankingsTable) {
			var m int
			fmt.Sscanf(r[0].(string), "m%d", &m)
			lo, hi := r[11].(float64), r[12].(float64)
			if lo <= gamma[m] && gamma[m] <= hi {
				hit++
				perModel[m]++
			}
			total++
		}
	}
	cov := float64(hit) / float64(total)
	t.Logf("coverage %d/%d = %.4f; per model (of 500) %v", hit, total, cov, perModel)
	if total != 2000 || cov < 0.93 || cov > 0.97 {
		t.Errorf("coverage %d/%d = %.4f, want 0.93…0.97", hit, total, cov)
	}
}

func TestDeterministicAcrossCores(t *testing.T) {
	s := simStudy(rand.New(rand.NewPCG(1, 2)), []float64{2, 1, 0.5, 0.5}, 30, 2)
	opt := DefaultOptions()
	opt.Bootstrap = 300
	prev := runtime.GOMAXPROCS(1)
	a := analyze(t, s, opt)
	runtime.GOMAXPROCS(4)
	b := analyze(t, s, opt)
	runtime.GOMAXPROCS(prev)
	if len(a.Tables) != 2 || len(b.Tables) != 2 {
		t.Fatalf("tables %d and %d, want 2", len(a.Tables), len(b.Tables))
	}
	for i := range a.Tables {
		// fmt prints NaN as NaN, so equal strings mean equal rows
		if !reflect.DeepEqual(fmt.Sprint(a.Tables[i].Rows), fmt.Sprint(b.Tables[i].Rows)) {
			t.Errorf("%s: GOMAXPROCS 1 and 4 differ:\n%v\n%v", a.Tables[i].Name, a.Tables[i].Rows, b.Tables[i].Rows)
		}
	}
}

func TestAnalyzeDegenerate(t *testing.T) {
	// Without ranks: Plackett–Luce empty, a note; without rubric (checklist only): no t tests.
	gs := []analysis.Grading{grading("h", "q1", "A", 4, 0), grading("h", "q1", "B", 2, 0), grading("h", "q2", "A", 3, 0), grading("h", "q2", "B", 3, 0)}
	res := analyze(t, newStudy(gs), DefaultOptions())
	rows := tableRows(t, res, RankingsTable)
	if !math.IsNaN(rows[0][10].(float64)) || len(res.Figures) != 1 {
		t.Errorf("no ranks: pl %v, figures %d", rows[0][10], len(res.Figures))
	}
	if !strings.Contains(fmt.Sprint(res.Notes), "no preference ranks") {
		t.Errorf("notes %v", res.Notes)
	}
	H, M := analysis.Hit, analysis.Miss
	ck := []analysis.Grading{
		{Evaluator: "h", Kind: analysis.Human, Round: "main", QuestionID: "q1", Model: "A", Verdicts: []analysis.Verdict{H, H}, Rank: 1},
		{Evaluator: "h", Kind: analysis.Human, Round: "main", QuestionID: "q1", Model: "B", Verdicts: []analysis.Verdict{M, H}, Rank: 2},
	}
	res = analyze(t, &analysis.Study{MainRound: "main", Gradings: ck}, DefaultOptions())
	for _, r := range tableRows(t, res, PairwiseTable) {
		if r[2] == TestPairedT {
			t.Errorf("paired t without rubric: %v", r)
		}
	}
	// Ranks only: Plackett–Luce, no Solve Rate (NaN, not 0).
	ro := []analysis.Grading{
		{Evaluator: "h", Kind: analysis.Human, Round: "main", QuestionID: "q1", Model: "A", Rank: 1},
		{Evaluator: "h", Kind: analysis.Human, Round: "main", QuestionID: "q1", Model: "B", Rank: 2},
	}
	res = analyze(t, &analysis.Study{MainRound: "main", Gradings: ro}, DefaultOptions())
	rows = tableRows(t, res, RankingsTable)
	// one win of A: γ_A = 2·(1+1)/(1+2) = 4/3
	if !math.IsNaN(rows[0][3].(float64)) || rows[0][8] != nil || !close(rows[0][10].(float64), 4.0/3, 1e-9) {
		t.Errorf("ranks only: %v", rows[0])
	}
	for _, c := range []*analysis.Study{nil, {}, newStudy([]analysis.Grading{grading("h", "q", "A", 3, 1)})} {
		res := analyze(t, c, DefaultOptions())
		if len(res.Tables) != 0 || len(res.Notes) == 0 {
			t.Errorf("degenerate study: tables %d notes %v", len(res.Tables), res.Notes)
		}
	}
}
