package ranking

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// grading is a shorthand for one human grading with one rubric attribute.
func grading(e, q, m string, score float64, rank int) study.Grading {
	return study.Grading{Evaluator: e, Kind: study.Human, Round: "main", QuestionID: q, Model: m, Rubric: []float64{score}, Rank: rank}
}

func newStudy(gs []study.Grading) *study.Study {
	return &study.Study{MainRound: "main", HumanLabel: "Human Expert", Attributes: []string{"R"}, ScaleMin: 1, ScaleMax: 5, Gradings: gs}
}

// rankedRows returns the ranked models of res; it fails the test when
// there are none.
func rankedRows(t *testing.T, res Result) []Ranked {
	t.Helper()
	if len(res.Models) == 0 {
		t.Fatalf("no ranked models; notes %v", res.Notes)
	}
	return res.Models
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
	var gs []study.Grading
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
		j.Kind = study.Judge
		gs = append(gs, j)
	}
	opt := DefaultOptions()
	opt.Bootstrap = 500
	res := analyze(t, newStudy(gs), opt)
	rows := rankedRows(t, res)
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
		if r.Model != w.model || r.Rubric != w.rubric || r.SolveRate != w.solve || r.Rank != w.rank || r.Rankings != w.nRanking || r.Gradings != 8 {
			t.Errorf("row %d: got %+v; want model %s rubric %v solve %v rank %v rankings %d", i, r, w.model, w.rubric, w.solve, w.rank, w.nRanking)
		}
		plSum += r.PL
		lo, hi := r.PLLo, r.PLHi
		if !(lo <= r.PL && r.PL <= hi) {
			t.Errorf("%s: PL interval [%v, %v] misses %v", w.model, lo, hi, r.PL)
		}
		if rlo, rhi := r.RankLo, r.RankHi; !(rlo >= 1 && rlo <= w.rank && w.rank <= rhi && rhi <= 3) {
			t.Errorf("%s: rank interval [%v, %v]", w.model, rlo, rhi)
		}
	}
	if math.Abs(plSum-3) > 1e-9 {
		t.Errorf("Plackett–Luce strengths sum to %v, want 3 (mean 1)", plSum)
	}
	if !(rows[0].PL > rows[1].PL && rows[1].PL > rows[2].PL) {
		t.Errorf("Plackett–Luce order: %v %v %v", rows[0].PL, rows[1].PL, rows[2].PL)
	}
	pw := res.Tests
	if len(pw) != 6 {
		t.Fatalf("got %d pairwise rows, want 6", len(pw))
	}
	perQ := map[string][]float64{"A": {4.5, 4, 5, 3.5}, "B": {3, 3, 2.5, 3}, "C": {1.5, 2.5, 1, 2.5}}
	wantT := map[[2]string]float64{{"A", "B"}: 1.375, {"A", "C"}: 2.375, {"B", "C"}: 1}
	wantSR := map[[2]string]float64{{"A", "B"}: 0.25, {"A", "C"}: 0.75, {"B", "C"}: 0.5}
	// Per-question solved shares (two graders each): A 1 1 1 1, B 1 ½ ½ 1,
	// C 0 ½ 0 ½. With the same number of gradings on both sides of every
	// question the cluster-robust test is the paired t test of these
	// shares (stats.TestPairedClusterDiffHand).
	solveQ := map[string][]float64{"A": {1, 1, 1, 1}, "B": {1, 0.5, 0.5, 1}, "C": {0, 0.5, 0, 0.5}}
	var ps []float64
	for _, r := range pw {
		k := [2]string{r.A, r.B}
		est, lo, hi, n, p := r.Estimate, r.Lo, r.Hi, r.N, r.P
		if mde := r.MDE; !(mde > 0) {
			t.Errorf("%v %v: mde %v", k, r.Name, mde)
		}
		ps = append(ps, p)
		if !(lo < est && est < hi) {
			t.Errorf("%v %v: interval [%v, %v] does not hold the estimate %v", k, r.Name, lo, hi, est)
		}
		switch r.Name {
		case TestPairedT:
			tt := stats.TTestRel(perQ[k[0]], perQ[k[1]])
			if math.Abs(est-wantT[k]) > 1e-12 || p != tt.P || n != 4 || r.Method != MethodPairedT {
				t.Errorf("%v: got estimate %v p %v n %v method %v; want %v %v 4 %s", k, est, p, n, r.Method, wantT[k], tt.P, MethodPairedT)
			}
		case TestPairedSR:
			tt := stats.TTestRel(solveQ[k[0]], solveQ[k[1]])
			if math.Abs(est-wantSR[k]) > 1e-12 || math.Abs(p-tt.P) > 1e-12 || n != 4 || r.Method != MethodClusterT {
				t.Errorf("%v: got estimate %v p %v n %v method %v; want %v %v 4 %s", k, est, p, n, r.Method, wantSR[k], tt.P, MethodClusterT)
			}
		default:
			t.Errorf("unknown test %v", r.Name)
		}
	}
	holm := stats.Holm(ps)
	for i, r := range pw {
		if r.PHolm != holm[i] {
			t.Errorf("row %d: p_holm %v, want %v (Holm over all 6 tests)", i, r.PHolm, holm[i])
		}
		if r.Significant != (holm[i] <= 0.05) {
			t.Errorf("row %d: significant %v with p_holm %v", i, r.Significant, holm[i])
		}
	}
	if !res.HasRubric || !res.HasRanks {
		t.Errorf("has rubric %v, has ranks %v; want both", res.HasRubric, res.HasRanks)
	}
}

// Two models through Analyze: ten questions, one human each; A is ranked
// first on 7, B on 3. With one pseudo-win γ_A = 2·(7+1)/(10+2) = 4/3 and
// γ_B = 2/3. A third model graded on 1 of 10 questions (< 90 %) is left out
// with a note, and its rank is dropped from the orderings.
func TestAnalyzePlackettLuceTwoModels(t *testing.T) {
	var gs []study.Grading
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
	rows := rankedRows(t, res)
	got := map[string]float64{}
	for _, r := range rows {
		got[r.Model] = r.PL
	}
	if len(rows) != 2 || !close(got["A"], 4.0/3, 1e-9) || !close(got["B"], 2.0/3, 1e-9) {
		t.Errorf("got %v, want A 4/3, B 2/3", got)
	}
	found := false
	for _, n := range res.Notes {
		found = found || strings.Contains(n, "model Rare left out: graded on 1 of 10 questions")
	}
	if !found {
		t.Errorf("no coverage note: %v", res.Notes)
	}
	// The MLE: 7/3 → 1.4 and 0.6.
	opt.PLPrior = 0
	res = analyze(t, newStudy(gs), opt)
	rows = rankedRows(t, res)
	if !close(rows[0].PL, 1.4, 1e-9) && !close(rows[1].PL, 1.4, 1e-9) {
		t.Errorf("MLE: %v", rows)
	}
}

// simStudy draws a study from a Plackett–Luce model with strengths gamma:
// nQ questions, each ranked by nH humans over all models; rubric scores are
// uniform 1…5 (they play no part in the strengths).
func simStudy(r *rand.Rand, gamma []float64, nQ, nH int) *study.Study {
	var gs []study.Grading
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
		for _, r := range rankedRows(t, res) {
			var m int
			fmt.Sscanf(r.Model, "m%d", &m)
			lo, hi := r.PLLo, r.PLHi
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
	if len(a.Models) != 4 || len(b.Models) != 4 {
		t.Fatalf("models %d and %d, want 4", len(a.Models), len(b.Models))
	}
	// fmt prints NaN as NaN, so equal strings mean equal rows
	for name, ab := range map[string][2]any{RankingsTable: {a.Models, b.Models}, PairwiseTable: {a.Tests, b.Tests}} {
		if !reflect.DeepEqual(fmt.Sprintf("%+v", ab[0]), fmt.Sprintf("%+v", ab[1])) {
			t.Errorf("%s: GOMAXPROCS 1 and 4 differ:\n%+v\n%+v", name, ab[0], ab[1])
		}
	}
}

func TestAnalyzeDegenerate(t *testing.T) {
	// Without ranks: Plackett–Luce empty, a note; without rubric (checklist only): no t tests.
	gs := []study.Grading{grading("h", "q1", "A", 4, 0), grading("h", "q1", "B", 2, 0), grading("h", "q2", "A", 3, 0), grading("h", "q2", "B", 3, 0)}
	res := analyze(t, newStudy(gs), DefaultOptions())
	rows := rankedRows(t, res)
	if !math.IsNaN(rows[0].PL) || res.HasRanks || !res.HasRubric {
		t.Errorf("no ranks: pl %v, has ranks %v, has rubric %v", rows[0].PL, res.HasRanks, res.HasRubric)
	}
	if !strings.Contains(fmt.Sprint(res.Notes), "no preference ranks") {
		t.Errorf("notes %v", res.Notes)
	}
	H, M := study.Hit, study.Miss
	ck := []study.Grading{
		{Evaluator: "h", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "A", Verdicts: []study.Verdict{H, H}, Rank: 1},
		{Evaluator: "h", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "B", Verdicts: []study.Verdict{M, H}, Rank: 2},
	}
	res = analyze(t, &study.Study{MainRound: "main", Gradings: ck}, DefaultOptions())
	for _, r := range res.Tests {
		if r.Name == TestPairedT {
			t.Errorf("paired t without rubric: %+v", r)
		}
	}
	// Ranks only: Plackett–Luce, no Solve Rate (NaN, not 0).
	ro := []study.Grading{
		{Evaluator: "h", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "A", Rank: 1},
		{Evaluator: "h", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "B", Rank: 2},
	}
	res = analyze(t, &study.Study{MainRound: "main", Gradings: ro}, DefaultOptions())
	rows = rankedRows(t, res)
	// one win of A: γ_A = 2·(1+1)/(1+2) = 4/3
	if !math.IsNaN(rows[0].SolveRate) || rows[0].GroupSolveRate != "" || !close(rows[0].PL, 4.0/3, 1e-9) {
		t.Errorf("ranks only: %+v", rows[0])
	}
	for _, c := range []*study.Study{nil, {}, newStudy([]study.Grading{grading("h", "q", "A", 3, 1)})} {
		res := analyze(t, c, DefaultOptions())
		if len(res.Models) != 0 || len(res.Tests) != 0 || len(res.Notes) == 0 {
			t.Errorf("degenerate study: %d models, %d tests, notes %v", len(res.Models), len(res.Tests), res.Notes)
		}
	}
}

// TestThirteenModelsSeparate simulates a WMT-sized study: 13 models, 529
// questions, one human grading per response (rubric 1–5, solved = rubric ≥
// 3), models in three quality tiers. The Solve Rate tests of Analyze (Holm
// over the table's 156 tests) must separate at least 75 % of the pairs
// that McNemar's exact test with Holm over the 78 Solve Rate pairs alone
// separates, computed here from the solved flags.
func TestThirteenModelsSeparate(t *testing.T) {
	const nQ, K = 529, 13
	r := rand.New(rand.NewPCG(13, 529))
	models := make([]string, K)
	for m := range models {
		models[m] = fmt.Sprintf("sys%02d", m)
	}
	// tiers: 0–3 strong, 4–8 middle, 9–12 weak
	quality := func(m int) float64 {
		switch {
		case m < 4:
			return 0.8
		case m < 9:
			return 0
		}
		return -0.8
	}
	solved := make([][]bool, K)
	var gs []study.Grading
	for q := 0; q < nQ; q++ {
		id := fmt.Sprintf("q%03d", q)
		diff := r.NormFloat64()
		for m := range models {
			lat := 3 + quality(m) - diff + 0.9*r.NormFloat64()
			score := math.Max(1, math.Min(5, math.Round(lat)))
			solved[m] = append(solved[m], score >= 3)
			gs = append(gs, grading("h1", id, models[m], score, 0))
		}
	}
	// the reference: exact McNemar, Holm over the 78 pairs
	type pr struct{ a, b int }
	var pairs []pr
	var ps []float64
	for a := 0; a < K; a++ {
		for b := a + 1; b < K; b++ {
			var tab [2][2]int
			for q := 0; q < nQ; q++ {
				i, j := 1, 1
				if solved[a][q] {
					i = 0
				}
				if solved[b][q] {
					j = 0
				}
				tab[i][j]++
			}
			pairs = append(pairs, pr{a, b})
			ps = append(ps, stats.McNemar(tab).ExactP)
		}
	}
	_, rej := stats.HolmReject(ps, 0.05)
	ref := map[[2]string]bool{}
	for i, p := range pairs {
		if rej[i] {
			ref[[2]string{models[p.a], models[p.b]}] = true
		}
	}
	if len(ref) < 15 {
		t.Fatalf("the simulation separates only %d pairs by McNemar: not the study this test needs", len(ref))
	}
	opt := DefaultOptions()
	opt.Bootstrap = 50
	res := analyze(t, newStudy(gs), opt)
	got, both := 0, 0
	for _, row := range res.Tests {
		if row.Name != TestPairedSR {
			continue
		}
		if row.Method != MethodMcNemar {
			t.Fatalf("method %v, want %s (one grading per response)", row.Method, MethodMcNemar)
		}
		k := [2]string{row.A, row.B}
		if k[0] > k[1] {
			k[0], k[1] = k[1], k[0]
		}
		if row.Significant {
			got++
			if ref[k] {
				both++
			}
		}
	}
	t.Logf("McNemar exact + Holm (78 tests) separates %d pairs; Analyze %d, of which %d of those", len(ref), got, both)
	if float64(both) < 0.75*float64(len(ref)) {
		t.Errorf("Analyze separates %d of the %d pairs McNemar separates (< 75 %%)", both, len(ref))
	}
	letters := map[string]bool{}
	for _, row := range rankedRows(t, res) {
		if row.GroupSolveRate != "" {
			letters[row.GroupSolveRate] = true
		}
	}
	if len(letters) < 2 {
		t.Errorf("Solve Rate letters %v: one group although %d pairs differ", letters, got)
	}
}
