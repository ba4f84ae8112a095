package planning

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/euroexec/euroexec/internal/tabletest"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

// size is a sample size as a cell, written out independently of sizeCell.
func size(n int64) any {
	if n <= 0 {
		return nil
	}
	return n
}

// TestPartFromTyped: the study_plan cells, read by column name, are the
// typed pairs (TestPlanHand's pilot plus a model C equal to B, so one pair
// has sizes and one has none), and the figure's bars are the sizes.
func TestPartFromTyped(t *testing.T) {
	var gs []study.Grading
	add := func(q string, a1, a2, b1, b2, c1, c2 float64) {
		gs = append(gs, grading("e1", q, "A", a1), grading("e2", q, "A", a2), grading("e1", q, "B", b1), grading("e2", q, "B", b2),
			grading("e1", q, "C", c1), grading("e2", q, "C", c2))
	}
	add("q1", 5, 4, 3, 3, 3, 3)
	add("q2", 4, 4, 3, 2, 2, 3)
	add("q3", 3, 4, 3, 3, 3, 3)
	res, err := Analyze(context.Background(), newStudy([]string{"q1", "q2", "q3"}, gs), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pairs) != 2 {
		t.Fatalf("pairs %d, want 2", len(res.Pairs))
	}
	// By hand (TestPlanHand): mean A = 4, mean B = 17/6, d = 7/6.
	if a := res.Pairs[0]; a.MeanAExact != study.NewRat(4, 1) || a.MeanBExact != study.NewRat(17, 6) || a.DExact != study.NewRat(7, 6) {
		t.Errorf("exact means %v %v %v, want 4, 17/6, 7/6", a.MeanAExact, a.MeanBExact, a.DExact)
	}
	p := res.Part()
	if len(p.Tables) != 1 || len(p.Figures) != 1 {
		t.Fatalf("tables %d figures %d", len(p.Tables), len(p.Figures))
	}
	tb, f := p.Tables[0], p.Figures[0]
	sized, unsized := 0, 0
	for i, ps := range res.Pairs {
		row := tb.Rows[i]
		want := map[string]any{"model_a": ps.ModelA, "model_b": ps.ModelB, "n_pilot": ps.Questions, "graders_pilot": ps.Graders,
			"mean_a": ps.MeanA, "mean_b": ps.MeanB, "d": ps.D, "var_diff": ps.VarDiff, "var_question": ps.VarQuestion,
			"var_grader": ps.VarGrader, "n_grader_questions": ps.GraderQuestions, "effect_size": ps.EffectSize,
			"power_pilot": ps.PowerPilot, "mde_pilot": ps.MDEPilot, "n_questions_pilot": size(ps.QuestionsPilot), "note": ps.Note}
		for k, g := range res.Plan.GradersPerQuestion {
			want[fmt.Sprintf("n_questions_g%d", g)] = size(ps.QuestionsByGraders[k])
		}
		if len(want) != len(tb.Columns) {
			t.Errorf("checked %d of %d columns", len(want), len(tb.Columns))
		}
		for name, w := range want {
			if tb.Index(name) < 0 {
				t.Fatalf("no column %q", name)
			}
			if got := tb.Get(row, name); !tabletest.SameCell(got, w) {
				t.Errorf("pair %d %s = %v (%T), want %v (%T)", i, name, got, got, w, w)
			}
		}
		if f.Categories[i] != ps.ModelA+" vs "+ps.ModelB {
			t.Errorf("category %q", f.Categories[i])
		}
		for k, s := range f.Series {
			n := ps.QuestionsPilot
			if k > 0 {
				n = ps.QuestionsByGraders[k-1]
			}
			if w := size(n); (w == nil) != math.IsNaN(s.Values[i]) || w != nil && float64(n) != s.Values[i] {
				t.Errorf("series %s pair %d = %v, want %v", s.Name, i, s.Values[i], w)
			}
		}
		if ps.QuestionsPilot > 0 {
			sized++
		} else {
			unsized++
		}
	}
	if sized == 0 || unsized == 0 {
		t.Errorf("%d pairs with sizes, %d without: both cells are not exercised", sized, unsized)
	}
	if q := (Result{Notes: []report.Note{{Table: TableName, Reason: "x"}}}).Part(); len(q.Tables) != 0 || len(q.Notes) != 1 {
		t.Error("no pairs: a table was made or the note lost")
	}
}
