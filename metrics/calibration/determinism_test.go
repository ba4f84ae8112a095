package calibration

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// TestDeterministicAcrossCores: the same study and seed give identical
// tables with 1 and 2 cores (bootstrap replicates are seeded per index).
func TestDeterministicAcrossCores(t *testing.T) {
	sp := simSpec{nQ: 60, labelled: 0.5, graders: 2, mu: []float64{3, 3.5, 3.2}, sdQ: 0.5, sdH: 0.5,
		judge: func(m int, tq float64, r *rand.Rand) float64 { return tq + 0.2*r.NormFloat64() }}
	s := sp.build(4, 0)
	for q := range s.Questions {
		for m, model := range []string{"A", "B", "C"} {
			s.Responses = append(s.Responses, study.Response{QuestionID: s.Questions[q].ID, Model: model, Chars: 100 + (q*37+m*101)%500})
		}
	}
	opt := DefaultOptions()
	opt.Bootstrap = 300
	run := func(procs int) string {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		r := analyze(t, s, opt)
		return fmt.Sprintf("%s %+v\n%s %+v\n%s %+v\n", TableCalibration, r.Calibration, TableSummary, r.Summary, TableLength, r.Length)
	}
	a, b := run(1), run(2)
	if a != b {
		t.Errorf("tables differ between 1 and 2 cores:\n%s\n%s", a, b)
	}
	if !strings.Contains(a, TableLength) || !strings.Contains(a, TableCalibration) {
		t.Errorf("missing tables:\n%s", a)
	}
}

// TestLabelledTooFew: humans graded one question only. Calibration and PPI
// are undefined (NaN) and a warning says why; nothing panics.
func TestLabelledTooFew(t *testing.T) {
	sp := simSpec{nQ: 20, labelled: 0.05, graders: 1, mu: []float64{3, 3.5}, sdQ: 0.5, sdH: 0.5,
		judge: func(m int, tq float64, r *rand.Rand) float64 { return tq }}
	res := analyze(t, sp.build(1, 0), noLength())
	if len(res.Warnings) == 0 {
		t.Error("no warning")
	}
	cal := calRows(t, res)
	for _, r := range cal {
		for c, v := range map[string]float64{"judge_isotonic": r.JudgeIsotonic, "judge_linear": r.JudgeLinear, "ppi": r.PPI.Estimate,
			"ppi_lo": r.PPI.Lo, "human_only_hi": r.PPI.HumanHi} {
			if !math.IsNaN(v) {
				t.Errorf("%s %s %s: %s = %v, want NaN", r.Judge, r.Model, r.Metric, c, v)
			}
		}
		if n := r.Questions; n != 1 {
			t.Errorf("n_questions = %v, want 1", n)
		}
	}
	// every row lacks both, and the notes count them
	for _, want := range []string{
		fmt.Sprintf("%d row(s) have no PPI or human-only estimate", len(cal)),
		fmt.Sprintf("%d row(s) have no calibrated values", len(cal)),
	} {
		if !strings.Contains(fmt.Sprint(res.Notes), want) {
			t.Errorf("notes %v do not say %q", res.Notes, want)
		}
	}
}
