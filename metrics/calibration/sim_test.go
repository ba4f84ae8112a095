package calibration

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// simSpec describes a simulated one-attribute study: per question and
// model a true quality t = mu[m] + N(0, sdQ²); humans (graders each,
// noise sdH) on the first labelled·nQ questions; one judge on every
// question scoring judge(m, t, rng).
type simSpec struct {
	nQ       int
	labelled float64
	graders  int
	mu       []float64
	sdQ, sdH float64
	judge    func(m int, t float64, r *rand.Rand) float64
}

func (sp simSpec) build(seed uint64, rep int) *study.Study {
	rng := stats.NewRand(seed, rep)
	s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"Quality"}, ScaleMin: 1, ScaleMax: 5}
	nL := int(math.Round(sp.labelled * float64(sp.nQ)))
	for q := 0; q < sp.nQ; q++ {
		id := fmt.Sprintf("q%04d", q)
		s.Questions = append(s.Questions, study.Question{ID: id, GateScore: math.NaN()})
		for m := range sp.mu {
			model := string(rune('A' + m))
			tq := sp.mu[m] + sp.sdQ*rng.NormFloat64()
			if q < nL {
				for h := 0; h < sp.graders; h++ {
					s.Gradings = append(s.Gradings, study.Grading{Evaluator: fmt.Sprintf("h%d", h), Kind: study.Human,
						Round: "main", QuestionID: id, Model: model, Rubric: []float64{tq + sp.sdH*rng.NormFloat64()}})
				}
			}
			s.Gradings = append(s.Gradings, study.Grading{Evaluator: "judge", Kind: study.Judge, Round: "main",
				QuestionID: id, Model: model, Rubric: []float64{sp.judge(m, tq, rng)}})
		}
	}
	return s
}

// calRows returns the judge_calibration rows of r; it fails the test
// when there are none.
func calRows(t *testing.T, r Result) []CalibrationRow {
	t.Helper()
	if len(r.Calibration) == 0 {
		t.Fatalf("no judge_calibration rows (notes %v, warnings %v)", r.Notes, r.Warnings)
	}
	return r.Calibration
}

// rowsOf returns the judge_calibration rows of one metric keyed by model.
func rowsOf(rows []CalibrationRow, metric string) map[string]CalibrationRow {
	out := map[string]CalibrationRow{}
	for _, r := range rows {
		if r.Metric == metric {
			out[r.Model] = r
		}
	}
	return out
}

func noLength() Options {
	o := DefaultOptions()
	o.Bootstrap = 0
	return o
}

// TestCalibrationNonLinear: a judge whose scale is distorted non-linearly
// (a concave map that squeezes the top of the scale) and, mildly,
// differently per model (+0.1 for B, −0.1 for C), with noise. Held-out
// isotonic calibration must remove most of the error of the model means;
// linear calibration less of it (the map is not linear). Measured with seed
// 3: mae_raw 0.741, mae_linear 0.141, mae_isotonic 0.118 (gap closed 0.81
// and 0.84); solve_rate mae 0.329 → 0.064.
func TestCalibrationNonLinear(t *testing.T) {
	offset := []float64{0, 0.1, -0.1, 0}
	sp := simSpec{nQ: 300, labelled: 1, graders: 2, mu: []float64{2.2, 2.8, 3.4, 4.0}, sdQ: 0.6, sdH: 0.5,
		judge: func(m int, tq float64, r *rand.Rand) float64 {
			u := math.Min(1, math.Max(0, (tq-1)/4))
			return 1 + 4*math.Sqrt(u) + offset[m] + 0.2*r.NormFloat64()
		}}
	res := analyze(t, sp.build(3, 0), noLength())
	sum := res.Summary
	var row SummaryRow
	for _, r := range sum {
		if r.Metric == MetricRubric {
			row = r
		}
	}
	mr, ml, mi := row.MAERaw, row.MAELinear, row.MAEIsotonic
	t.Logf("rubric: mae raw %.4f linear %.4f isotonic %.4f", mr, ml, mi)
	if mr < 0.3 {
		t.Fatalf("simulation too mild: mae_raw %v", mr)
	}
	if gi := row.GapClosedIsotonic; gi < 0.7 {
		t.Errorf("isotonic closes %.3f of the gap, want ≥ 0.7", gi)
	}
	if gl := row.GapClosedLinear; gl < 0.5 {
		t.Errorf("linear closes %.3f of the gap, want ≥ 0.5", gl)
	}
	if mi >= ml {
		t.Errorf("isotonic (%v) not better than linear (%v) on a non-linear judge", mi, ml)
	}
	// Each model's held-out isotonic error is within the per-model
	// distortion (0.1) plus noise.
	cal := calRows(t, res)
	for m, r := range rowsOf(cal, MetricRubric) {
		if e := r.ErrIsotonic(); math.Abs(e) > 0.2 {
			t.Errorf("model %s: err_isotonic %v", m, e)
		}
	}
	// The solve_rate metric: calibration of P(human solved) helps too.
	for _, r := range sum {
		if r.Metric == MetricSolveRate {
			t.Logf("solve_rate: mae raw %.4f isotonic %.4f", r.MAERaw, r.MAEIsotonic)
			if r.MAEIsotonic >= r.MAERaw {
				t.Errorf("solve_rate: isotonic calibration did not reduce the error")
			}
		}
	}
}

// TestCalibrationCannotFixReversal: humans put A (3.5) above B (3.0); the
// judge scores A 0.5 too low and B 0.5 too high, so its scores for B are
// A's shifted up and it ranks B first. Any non-decreasing map keeps B
// first, so the held-out calibrated means keep the reversal and a large
// error; PPI, which corrects each model by its own residual, recovers the
// human order.
func TestCalibrationCannotFixReversal(t *testing.T) {
	sp := simSpec{nQ: 200, labelled: 1, graders: 2, mu: []float64{3.5, 3.0}, sdQ: 0.3, sdH: 0.3,
		judge: func(m int, tq float64, r *rand.Rand) float64 {
			shift := []float64{-0.5, 0.5}[m]
			return tq + shift + 0.1*r.NormFloat64()
		}}
	res := analyze(t, sp.build(5, 0), noLength())
	cal := calRows(t, res)
	rows := rowsOf(cal, MetricRubric)
	a, b := rows["A"], rows["B"]
	if !(a.Human > b.Human) {
		t.Fatalf("humans do not rank A first")
	}
	for c, ba := range map[string][2]float64{"judge_raw": {b.JudgeRaw, a.JudgeRaw}, "judge_linear": {b.JudgeLinear, a.JudgeLinear},
		"judge_isotonic": {b.JudgeIsotonic, a.JudgeIsotonic}} {
		if !(ba[0] > ba[1]) {
			t.Errorf("%s: B %v ≤ A %v: the reversal was fixed, which a monotone map cannot do", c, ba[0], ba[1])
		}
	}
	for m, r := range rows {
		if e := math.Abs(r.ErrIsotonic()); e < 0.2 {
			t.Errorf("model %s: |err_isotonic| = %v, want ≥ 0.2", m, e)
		}
	}
	if !(a.PPI.Estimate > b.PPI.Estimate) {
		t.Errorf("PPI does not restore the human order: A %v, B %v", a.PPI.Estimate, b.PPI.Estimate)
	}
}

// TestPPICoverage: 500 simulated studies of 400 questions × 2 models, humans
// (2 graders, noise SD 0.5) on 60 questions (15 %), an informative but
// biased judge (t + 0.3 + N(0, 0.2²)) on all. The PPI 95 % interval must
// cover the true mean (mu) in 93–97 % of the 1000 intervals, and be
// narrower than the human-only interval of the same study. Measured with
// seed 21: coverage 0.942 (human-only 0.938), narrower in 1000/1000, mean
// width ratio 0.667 (the variance formula predicts √(0.0036/0.0081) ≈ 0.66);
// seeds 22–24 gave coverage 0.951, 0.956, 0.939.
func TestPPICoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("500 simulated studies")
	}
	mu := []float64{3.0, 3.6}
	sp := simSpec{nQ: 400, labelled: 0.15, graders: 2, mu: mu, sdQ: 0.6, sdH: 0.5,
		judge: func(m int, tq float64, r *rand.Rand) float64 { return tq + 0.3 + 0.2*r.NormFloat64() }}
	const studies = 500
	cover, coverH, coverT, narrower, total := 0, 0, 0, 0, 0
	var ratio, ratioT float64
	opt := noLength()
	for rep := 0; rep < studies; rep++ {
		res := analyze(t, sp.build(21, rep), opt)
		cal := calRows(t, res)
		for m, r := range rowsOf(cal, MetricRubric) {
			truth := mu[m[0]-'A']
			lo, hi := r.PPI.Lo, r.PPI.Hi
			hlo, hhi := r.PPI.HumanLo, r.PPI.HumanHi
			if n := r.Questions; n != 60 {
				t.Fatalf("n_questions = %v, want 60", n)
			}
			total++
			if lo <= truth && truth <= hi {
				cover++
			}
			if hlo <= truth && truth <= hhi {
				coverH++
			}
			if tlo, thi := r.PPI.TunedLo, r.PPI.TunedHi; tlo <= truth && truth <= thi {
				coverT++
			}
			ratioT += (r.PPI.TunedHi - r.PPI.TunedLo) / (hhi - hlo)
			if hi-lo < hhi-hlo {
				narrower++
			}
			ratio += (hi - lo) / (hhi - hlo)
		}
	}
	c := float64(cover) / float64(total)
	ct := float64(coverT) / float64(total)
	t.Logf("PPI coverage %.4f, tuned %.4f, human-only coverage %.4f, narrower in %d/%d, mean width ratio %.3f (tuned %.3f)",
		c, ct, float64(coverH)/float64(total), narrower, total, ratio/float64(total), ratioT/float64(total))
	if ct < 0.93 || ct > 0.97 {
		t.Errorf("tuned PPI coverage %.4f not in [0.93, 0.97]", ct)
	}
	if ratioT > ratio+1e-9 {
		t.Errorf("tuned PPI wider on average (%.3f) than classic (%.3f)", ratioT/float64(total), ratio/float64(total))
	}
	if c < 0.93 || c > 0.97 {
		t.Errorf("PPI coverage %.4f not in [0.93, 0.97]", c)
	}
	if narrower < total*95/100 {
		t.Errorf("PPI narrower in only %d of %d", narrower, total)
	}
	if ratio/float64(total) > 0.8 {
		t.Errorf("mean width ratio %.3f, want ≤ 0.8", ratio/float64(total))
	}
}
