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
		var b strings.Builder
		for _, tb := range r.Part().Tables {
			fmt.Fprintf(&b, "%s %v\n", tb.Name, tb.Rows)
		}
		return b.String()
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
	cal := table(t, res, TableCalibration)
	for _, r := range cal.Rows {
		for _, c := range []string{"judge_isotonic", "judge_linear", "ppi", "ppi_lo", "human_only_hi"} {
			if v := cell(t, cal, r, c); !math.IsNaN(v) {
				t.Errorf("%v %s = %v, want NaN", r[:3], c, v)
			}
		}
		if n := cell(t, cal, r, "n_questions"); n != 1 {
			t.Errorf("n_questions = %v, want 1", n)
		}
	}
	// every row lacks both, and the notes count them
	for _, want := range []string{
		fmt.Sprintf("%d row(s) have no PPI or human-only estimate", len(cal.Rows)),
		fmt.Sprintf("%d row(s) have no calibrated values", len(cal.Rows)),
	} {
		if !strings.Contains(fmt.Sprint(res.Notes), want) {
			t.Errorf("notes %v do not say %q", res.Notes, want)
		}
	}
}
