package reliability

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// studyFromMatrix builds a one-attribute study from data[grader][unit]
// (NaN = not graded): unit u is question q%02d(u+1) answered by model "m";
// grader g is human "g<g+1>" unless listed in judges.
func studyFromMatrix(data [][]float64, lo, hi int, judges map[int]bool) *study.Study {
	s := &study.Study{MainRound: "main", Attributes: []string{"A"}, ScaleMin: float64(lo), ScaleMax: float64(hi)}
	for u := range data[0] {
		for g := range data {
			v := data[g][u]
			if math.IsNaN(v) {
				continue
			}
			kind := study.Human
			if judges[g] {
				kind = study.Judge
			}
			s.Gradings = append(s.Gradings, study.Grading{Evaluator: fmt.Sprintf("g%d", g+1), Kind: kind, Round: "main",
				QuestionID: fmt.Sprintf("q%02d", u+1), Model: "m", Rubric: []float64{v}})
		}
	}
	return s
}

// find returns the row of the reliability table for (instrument, population, statistic).
func find(t *testing.T, res Result, inst, pop, stat string) []any {
	t.Helper()
	if len(res.Rows) == 0 {
		t.Fatal("no rows")
	}
	for _, r := range tableRows(res) {
		if r[0] == inst && r[1] == pop && r[2] == stat {
			return r
		}
	}
	t.Fatalf("no row %s / %s / %s", inst, pop, stat)
	return nil
}

func checkRow(t *testing.T, res Result, inst, pop, stat string, want float64, units, graders int64) {
	t.Helper()
	r := find(t, res, inst, pop, stat)
	got := r[3].(float64)
	if math.Abs(got-want) > 1e-12 || r[4].(int64) != units || r[5].(int64) != graders {
		t.Errorf("%s %s %s: got value %v n_units %v n_graders %v; want %v %d %d", inst, pop, stat, got, r[4], r[5], want, units, graders)
	}
}

const N = -1 // marks a missing value in the literal tables below

func m(rows ...[]float64) [][]float64 {
	for _, r := range rows {
		for i := range r {
			if r[i] == N {
				r[i] = math.NaN()
			}
		}
	}
	return rows
}

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", example
// C: 4 observers × 12 units with missing values; published α nominal .743
// (= 113/152), ordinal .815 (= 108577/133160), interval .849 (= 951/1120).
// Unit 12 has a single value and is not pairable: 11 pairable units.
func krippC() [][]float64 {
	return m(
		[]float64{1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N},
		[]float64{1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3},
		[]float64{N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N},
		[]float64{1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N},
	)
}

func TestAlphaKrippendorffExampleC(t *testing.T) {
	opt := DefaultOptions()
	opt.Bootstrap = 200
	res := analyze(t, studyFromMatrix(krippC(), 1, 5, nil), opt)
	checkRow(t, res, "rubric:A", "humans", AlphaNominal, 113.0/152, 11, 4)
	checkRow(t, res, "rubric:A", "humans", AlphaOrdinal, 108577.0/133160, 11, 4)
	checkRow(t, res, "rubric:A", "humans", AlphaInterval, 951.0/1120, 11, 4)
	// The rubric mean of a one-attribute rubric is the attribute itself.
	checkRow(t, res, "rubric_mean", "humans", AlphaInterval, 951.0/1120, 11, 4)
	// Published to three digits.
	r := find(t, res, "rubric:A", "humans", AlphaNominal)
	if got := math.Round(r[3].(float64)*1000) / 1000; got != 0.743 {
		t.Errorf("nominal α rounds to %v, want the published 0.743", got)
	}
	// Graders differ between units: ICC(2,·) left out with a note.
	foundNote := false
	for _, n := range res.Notes {
		if strings.Contains(n, "icc2_1 and icc2_k left out") && strings.Contains(n, "graders differ") {
			foundNote = true
		}
	}
	if !foundNote {
		t.Errorf("no note on ICC(2,·) being left out; notes %v", res.Notes)
	}
	for _, row := range tableRows(res) {
		if row[2] == ICC21 || row[2] == ICC2k {
			t.Errorf("unexpected row %v", row)
		}
	}
	// Coder D as an LLM judge: humans+judge:g4 is the published data again;
	// the humans alone are three coders (unit 1 then has only A and B).
	opt.Bootstrap = 0
	resJ := analyze(t, studyFromMatrix(krippC(), 1, 5, map[int]bool{3: true}), opt)
	checkRow(t, resJ, "rubric:A", "humans+judge:g4", AlphaNominal, 113.0/152, 11, 4)
	checkRow(t, resJ, "rubric:A", "humans+judge:g4", AlphaInterval, 951.0/1120, 11, 4)
	if r := find(t, resJ, "rubric:A", "humans", AlphaNominal); r[5] != int64(3) {
		t.Errorf("humans alone: n_graders %v, want 3", r[5])
	}
	// The same study in another round, analysed with Options.Round.
	s2 := studyFromMatrix(krippC(), 1, 5, nil)
	for i := range s2.Gradings {
		s2.Gradings[i].Round = "second"
	}
	opt.Round = "second"
	checkRow(t, analyze(t, s2, opt), "rubric:A", "humans", AlphaNominal, 113.0/152, 11, 4)
	// The interval brackets the estimate.
	lo, hi := r[6].(float64), r[7].(float64)
	if !(lo <= r[3].(float64) && r[3].(float64) <= hi) {
		t.Errorf("interval [%v, %v] does not contain %v", lo, hi, r[3])
	}
}

// Shrout & Fleiss (1979), Table 2: 6 targets × 4 judges.
//
// Row sums 24, 12, 26, 16, 30, 19 (G = 127); column sums 46, 15, 26, 40;
// Σx² = 841; n = 6, k = 4.
// SSR = Σ R²/k − G²/(nk) = 2913/4 − 16129/24 = 1349/24, MSR = 1349/120.
// SSW = 841 − 2913/4 = 451/4, MSW = 451/72.
// SSC = Σ C²/n − G²/(nk) = 4617/6 − 16129/24 = 2339/24, MSC = 2339/72.
// SSE = SST − SSR − SSC = 4055/24 − 1349/24 − 2339/24 = 367/24, MSE = 367/360.
// In 360ths: MSR = 4047, MSW = 2255, MSC = 11695, MSE = 367.
// ICC(1,1) = (MSR − MSW)/(MSR + 3·MSW) = 1792/10812 = 448/2703 ≈ .166 (published .17)
// ICC(1,k) = (MSR − MSW)/MSR = 1792/4047 ≈ .443 (published .44)
// ICC(2,1) = (MSR − MSE)/(MSR + 3·MSE + 4·(MSC − MSE)/6) = 3680/12700 ≈ .290 (.29)
// ICC(2,k) = (MSR − MSE)/(MSR + (MSC − MSE)/6) = 3680/5935 ≈ .620 (.62)
func shroutFleiss() [][]float64 {
	x := [][]float64{{9, 2, 5, 8}, {6, 1, 3, 2}, {8, 4, 6, 8}, {7, 1, 2, 6}, {10, 5, 6, 9}, {6, 2, 4, 7}}
	data := make([][]float64, 4)
	for g := range data {
		for _, r := range x {
			data[g] = append(data[g], r[g])
		}
	}
	return data
}

func TestICCShroutFleiss(t *testing.T) {
	opt := DefaultOptions()
	opt.Bootstrap = 100
	res := analyze(t, studyFromMatrix(shroutFleiss(), 1, 10, nil), opt)
	checkRow(t, res, "rubric:A", "humans", ICC11, 448.0/2703, 6, 4)
	checkRow(t, res, "rubric:A", "humans", ICC1k, 1792.0/4047, 6, 4)
	checkRow(t, res, "rubric:A", "humans", ICC21, 3680.0/12700, 6, 4)
	checkRow(t, res, "rubric:A", "humans", ICC2k, 3680.0/5935, 6, 4)
	// The fourth grader as a judge: the humans are three, humans+judge the same four.
	res = analyze(t, studyFromMatrix(shroutFleiss(), 1, 10, map[int]bool{3: true}), opt)
	checkRow(t, res, "rubric:A", "humans+judge:g4", ICC11, 448.0/2703, 6, 4)
	checkRow(t, res, "rubric:A", "humans+judge:g4", ICC2k, 3680.0/5935, 6, 4)
	r := find(t, res, "rubric:A", "humans", ICC11)
	if r[5].(int64) != 3 {
		t.Errorf("humans alone: n_graders %v, want 3", r[5])
	}
}

// Two pairs of graders.
// g1–g2 share 4 units: g1 = 1, 2, 3, 5 and g2 = 1, 3, 3, 5 on the scale 1…5.
// Unweighted: p_o = 3/4; margins g1 {1:1, 2:1, 3:1, 5:1}, g2 {1:1, 3:2, 5:1};
// p_e = (1·1 + 1·2 + 1·1)/16 = 1/4; κ = (3/4 − 1/4)/(3/4) = 2/3.
// Quadratic (weights (i−j)² over the full scale, so 4 counts though unused):
// Σ w·O = 1 (the 2–3 disagreement); Σ r_i c_j (v_i − v_j)² = 24 + 12 + 8 + 24 = 68,
// Σ w·E = 68/4 = 17; κ_w = 1 − 1/17 = 16/17.
// g1–g3 share 2 units: g1 = 1, 2 and g3 = 2, 1: p_o = 0, p_e = 1/2, κ = −1;
// Σ w·O = 2, Σ w·E = (1 + 1)/2 = 1, κ_w = −1.
// Weighted by shared units: κ = (4·2/3 + 2·(−1))/6 = 1/9; κ_w = (4·16/17 − 2)/6 = 5/17.
func TestKappaPairs(t *testing.T) {
	data := m(
		[]float64{1, 2, 3, 5, 1, 2},
		[]float64{1, 3, 3, 5, N, N},
		[]float64{N, N, N, N, 2, 1},
	)
	opt := DefaultOptions()
	opt.Bootstrap = 0
	res := analyze(t, studyFromMatrix(data, 1, 5, nil), opt)
	checkRow(t, res, "rubric:A", "humans", Kappa, 1.0/9, 6, 3)
	checkRow(t, res, "rubric:A", "humans", KappaQuadratic, 5.0/17, 6, 3)
	r := find(t, res, "rubric:A", "humans", Kappa)
	if !math.IsNaN(r[6].(float64)) {
		t.Errorf("Bootstrap 0: lo = %v, want NaN", r[6])
	}
	// A judge with a half point on unit 1 and 3 elsewhere: the half point is
	// left out of κ (warned), the other value pairs with g1 and g2.
	data = append(data, m([]float64{3.5, 3, N, N, N, N})...)
	res = analyze(t, studyFromMatrix(data, 1, 5, map[int]bool{3: true}), opt)
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "1 rubric scores are not whole points (a judge's averaged runs") {
		t.Errorf("warnings %q, want one on 1 judge score", res.Warnings)
	}
	// Unit 2: g1 = 2, g2 = 3, judge = 3: pairs (g1,g4) and (g2,g4) with one unit each:
	// (2,3): Σ w·E = 1 → κ = 0; (3,3): p_e = 1 → undefined, left out.
	// κ = (4·2/3 + 2·(−1) + 1·0)/7 = (2/3)/7 = 2/21.
	checkRow(t, res, "rubric:A", "humans+judge:g4", Kappa, 2.0/21, 7, 4)
}

// Checklist nominal α. One response, two graders, four items:
// g1 = hit, miss, partial, na; g2 = hit, miss, hit, hit. Item 4 has one
// verdict (na is missing) and drops out. Coincidences: o(hit,hit) = 2,
// o(miss,miss) = 2, o(partial,hit) = o(hit,partial) = 1; n_hit = 3,
// n_partial = 1, n_miss = 2, n = 6. D_o = Σ_{c≠k} o = 2;
// Σ_{c≠k} n_c n_k = 2·(3·1 + 3·2 + 1·2) = 22. α = 1 − (n−1)·2/22 = 6/11.
// κ (unweighted, hit/partial/miss): p_o = 2/3; margins g1 {1,1,1}, g2 {2,0,1};
// p_e = (1·2 + 1·0 + 1·1)/9 = 1/3; κ = (2/3 − 1/3)/(2/3) = 1/2.
func TestChecklistAlpha(t *testing.T) {
	H, P, M, NA := study.Hit, study.Partial, study.Miss, study.NA
	s := &study.Study{MainRound: "main", Gradings: []study.Grading{
		{Evaluator: "g1", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "m", Verdicts: []study.Verdict{H, M, P, NA}},
		{Evaluator: "g2", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "m", Verdicts: []study.Verdict{H, M, H, H}},
	}}
	opt := DefaultOptions()
	opt.Bootstrap = 10
	res := analyze(t, s, opt)
	checkRow(t, res, "checklist", "humans", AlphaNominal, 6.0/11, 3, 2)
	checkRow(t, res, "checklist", "humans", Kappa, 0.5, 3, 2)
	for _, r := range tableRows(res) {
		if strings.HasPrefix(r[0].(string), "rubric") {
			t.Errorf("rubric row in a study without rubric: %v", r)
		}
	}
}

// The replicate functions evaluated on a resample must equal the stats
// functions applied to the data with each question repeated.
func TestReplicatesMatchDuplicatedData(t *testing.T) {
	bases := map[string][][]float64{"krippendorff C": krippC(), "shrout fleiss": shroutFleiss()}
	for name, data := range bases {
		s := studyFromMatrix(data, 1, 10, nil)
		b := newBuilder(s, computeMain(s), s.MainRound)
		d := b.collect(population{name: "humans"}, 0, func(g *scoresGrading, _ int) float64 { return g.Rubric[0] })
		nQ := len(b.questions)
		for rep := 0; rep < 20; rep++ {
			idx := stats.ResampleIndices(nQ, stats.NewRand(7, rep))
			cnt := make([]int, nQ)
			for _, q := range idx {
				cnt[q]++
			}
			// duplicated ratings, units renumbered per copy
			var dup ratings
			dup.graders = d.graders
			for _, q := range idx {
				for _, u := range d.units {
					if u.q == q {
						dup.units = append(dup.units, u)
					}
				}
			}
			type rs func(ratings) []*row
			makers := []rs{
				func(x ratings) []*row { return alphaRows(x, []string{AlphaNominal, AlphaOrdinal, AlphaInterval}, "") },
				func(x ratings) []*row {
					r, _ := kappaRows(x, labelsOf([]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 1), true)
					return r
				},
				func(x ratings) []*row { r, _ := iccRows(x); return r },
			}
			for _, mk := range makers {
				orig, want := mk(d), mk(dup)
				for i := range orig {
					got := orig[i].replicate(cnt)
					w := want[i].value
					if !(math.IsNaN(got) && math.IsNaN(w)) && math.Abs(got-w) > 1e-9*math.Max(1, math.Abs(w)) {
						t.Errorf("%s rep %d %s: replicate %v, stats on duplicated data %v", name, rep, orig[i].statistic, got, w)
					}
				}
			}
		}
	}
}

func TestDeterministicAcrossCores(t *testing.T) {
	s := studyFromMatrix(krippC(), 1, 5, map[int]bool{3: true})
	opt := DefaultOptions()
	opt.Bootstrap = 300
	prev := runtime.GOMAXPROCS(1)
	a := analyze(t, s, opt)
	runtime.GOMAXPROCS(4)
	b := analyze(t, s, opt)
	runtime.GOMAXPROCS(prev)
	if !reflect.DeepEqual(fmt.Sprint(tableRows(a)), fmt.Sprint(tableRows(b))) {
		t.Errorf("GOMAXPROCS 1 and 4 differ:\n%v\n%v", tableRows(a), tableRows(b))
	}
}

func TestDegenerate(t *testing.T) {
	cases := []struct {
		name string
		s    *study.Study
		note string
	}{
		{"nil", nil, "no study"},
		{"empty", &study.Study{}, "no gradings"},
		{"other round", &study.Study{MainRound: "main", Attributes: []string{"A"},
			Gradings: []study.Grading{{Evaluator: "g", Kind: study.Human, Round: "r2", QuestionID: "q", Model: "m", Rubric: []float64{3}}}}, "no gradings"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := analyze(t, c.s, DefaultOptions())
			if len(res.Rows) != 0 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], c.note) {
				t.Errorf("got rows %d notes %v; want none and a note %q", len(res.Rows), res.Notes, c.note)
			}
		})
	}
	// One grader only: every statistic undefined (NaN), never a panic.
	s := studyFromMatrix(m([]float64{1, 2, 3}), 1, 5, nil)
	res := analyze(t, s, DefaultOptions())
	for _, r := range tableRows(res) {
		if v := r[3].(float64); !math.IsNaN(v) {
			t.Errorf("one grader: %v = %v, want NaN", r[:3], v)
		}
	}
}

// Two graders who agree on every unit: no pair disagrees, so there is no
// (c, k) type with c ≠ k; the bootstrap must not panic, and α is 1 (observed
// disagreement 0, expected disagreement positive because the values vary).
func TestPerfectAgreement(t *testing.T) {
	s := studyFromMatrix(m(
		[]float64{1, 2, 4, 5, 3, 2},
		[]float64{1, 2, 4, 5, 3, 2},
	), 1, 5, nil)
	o := DefaultOptions()
	o.Bootstrap = 50 // a block of 32 replicates and one of 18
	res := analyze(t, s, o)
	for _, stat := range []string{"alpha_interval", "alpha_ordinal", "alpha_nominal"} {
		r := find(t, res, "rubric:A", "humans", stat)
		if v := r[3].(float64); v != 1 {
			t.Errorf("%s = %v, want 1", stat, v)
		}
	}
}
