package tables

import (
	"math"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/metrics/rateradjust"
)

func TestRaterAdjusted(t *testing.T) {
	nan := math.NaN()
	r := rateradjust.Result{Identified: true, Graders: 3, Questions: 10, Effects: []rateradjust.Effect{
		{Model: "a", N: 10, Raw: 4, Adjusted: 3.5, Lo: 3.2, Hi: 3.8, Shift: -0.5},
		{Model: "b", N: 10, Raw: 3.8, Adjusted: 3.9, Lo: 3.6, Hi: 4.2, Shift: 0.1},
	}}
	p := RaterAdjusted(r, true)
	if len(p.Tables) != 1 || p.Tables[0].Rows[0][0] != "b" || p.Tables[0].Rows[1][0] != "a" {
		t.Fatalf("rows %v: want b (3.9) before a (3.5)", p.Tables[0].Rows)
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "b > a") {
		t.Errorf("warnings %v: want the changed order", p.Warnings)
	}
	// lower is better: a (3.5) first, and the raw order (b 3.8 < a 4) changes too
	p = RaterAdjusted(r, false)
	if p.Tables[0].Rows[0][0] != "a" || len(p.Warnings) != 1 {
		t.Errorf("lower is better: rows %v warnings %v", p.Tables[0].Rows, p.Warnings)
	}
	r.Identified = false
	for i := range r.Effects {
		r.Effects[i].Adjusted, r.Effects[i].Lo, r.Effects[i].Hi, r.Effects[i].Shift = nan, nan, nan, nan
	}
	p = RaterAdjusted(r, true)
	if len(p.Notes) != 1 || len(p.Warnings) != 0 {
		t.Errorf("unidentified: notes %v warnings %v", p.Notes, p.Warnings)
	}
	if p := RaterAdjusted(rateradjust.Result{Graders: 1, Effects: r.Effects}, true); len(p.Tables) != 0 {
		t.Error("one grader: a table")
	}
}
