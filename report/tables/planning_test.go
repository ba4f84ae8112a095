package tables

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/planning"
	"github.com/euroexec/euroexec/study"
)

// planningStudy is the hand pilot of planning's TestPlanHand (graders e1,
// e2 on every response; A 5,4 / 4,4 / 3,4 and B 3,3 / 3,2 / 3,3) plus a
// model C with B's per-question means, so that the pair B vs C has d = 0
// and no sample sizes.
func planningStudy() *study.Study {
	s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"Quality"}, ScaleMin: 1, ScaleMax: 5}
	add := func(q string, x ...float64) {
		s.Questions = append(s.Questions, study.Question{ID: q, GateScore: math.NaN()})
		for i, m := range []string{"A", "A", "B", "B", "C", "C"} {
			s.Gradings = append(s.Gradings, study.Grading{Evaluator: fmt.Sprint("e", i%2+1), Kind: study.Human,
				Round: "main", QuestionID: q, Model: m, Rubric: []float64{x[i]}})
		}
	}
	add("q1", 5, 4, 3, 3, 3, 3)
	add("q2", 4, 4, 3, 2, 2, 3)
	add("q3", 3, 4, 3, 3, 3, 3)
	return s
}

// planningSize is a sample size as a cell, written out independently of
// planningSizeCell.
func planningSize(n int64) any {
	if n <= 0 {
		return nil
	}
	return n
}

// TestPlanningFromTyped: the study_plan columns are the documented ones in
// order; its cells, read by column name, are the typed pairs, and the
// first row's are the hand values of TestPlanHand (mean A = 4, mean B =
// 17/6, d = 7/6, var_diff = 1/3, var_grader = 1/4, var_question = 1/12 at
// the default α = 0.01, power 0.8); the figure's bars are the sizes; the
// notes name the table; a result without pairs has no table.
func TestPlanningFromTyped(t *testing.T) {
	res, err := planning.Analyze(context.Background(), planningStudy(), planning.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pairs) != 2 {
		t.Fatalf("pairs %d, want 2", len(res.Pairs))
	}
	p := Planning(res)
	if len(p.Tables) != 1 || len(p.Figures) != 1 {
		t.Fatalf("tables %d figures %d", len(p.Tables), len(p.Figures))
	}
	tb, f := p.Tables[0], p.Figures[0]
	if tb.Name != "study_plan" || f.ID != "study_plan_questions" || f.Table != "study_plan" {
		t.Errorf("names %q %q %q", tb.Name, f.ID, f.Table)
	}
	wantCols := []string{"model_a", "model_b", "n_pilot", "graders_pilot", "mean_a", "mean_b", "d", "var_diff", "var_question", "var_grader",
		"n_grader_questions", "effect_size", "power_pilot", "mde_pilot", "n_questions_pilot", "n_questions_g1", "n_questions_g2", "n_questions_g3", "note"}
	if len(tb.Columns) != len(wantCols) {
		t.Fatalf("%d columns, want %d", len(tb.Columns), len(wantCols))
	}
	for i, c := range tb.Columns {
		if c.Name != wantCols[i] || c.Doc == "" {
			t.Errorf("column %d = %q (doc %q), want %q with a doc", i, c.Name, c.Doc, wantCols[i])
		}
	}
	hand := map[string]float64{"mean_a": 4, "mean_b": 17.0 / 6, "d": 7.0 / 6, "var_diff": 1.0 / 3, "var_grader": 0.25, "var_question": 1.0 / 12, "graders_pilot": 2}
	for name, w := range hand {
		if got := tb.Get(tb.Rows[0], name).(float64); math.Abs(got-w) > 1e-12 {
			t.Errorf("row 0 %s = %v, want %v (by hand)", name, got, w)
		}
	}
	sized, unsized := 0, 0
	for i, ps := range res.Pairs {
		row := tb.Rows[i]
		want := map[string]any{"model_a": ps.ModelA, "model_b": ps.ModelB, "n_pilot": ps.Questions, "graders_pilot": ps.Graders,
			"mean_a": ps.MeanA, "mean_b": ps.MeanB, "d": ps.D, "var_diff": ps.VarDiff, "var_question": ps.VarQuestion,
			"var_grader": ps.VarGrader, "n_grader_questions": ps.GraderQuestions, "effect_size": ps.EffectSize,
			"power_pilot": ps.PowerPilot, "mde_pilot": ps.MDEPilot, "n_questions_pilot": planningSize(ps.QuestionsPilot), "note": ps.Note}
		for k, g := range res.Plan.GradersPerQuestion {
			want[fmt.Sprintf("n_questions_g%d", g)] = planningSize(ps.QuestionsByGraders[k])
		}
		if len(want) != len(tb.Columns) {
			t.Errorf("checked %d of %d columns", len(want), len(tb.Columns))
		}
		for name, w := range want {
			checkCell(t, tb, row, name, w)
		}
		if f.Categories[i] != ps.ModelA+" vs "+ps.ModelB {
			t.Errorf("category %q", f.Categories[i])
		}
		for k, s := range f.Series {
			n := ps.QuestionsPilot
			if k > 0 {
				n = ps.QuestionsByGraders[k-1]
			}
			if w := planningSize(n); (w == nil) != math.IsNaN(s.Values[i]) || w != nil && float64(n) != s.Values[i] {
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
	if len(p.Notes) != 1 || p.Notes[0].Table != "study_plan" || p.Notes[0].Reason != "B vs C: cannot be separated: the pilot's mean difference is 0" {
		t.Errorf("notes %+v", p.Notes)
	}
	if q := Planning(planning.Result{Notes: []string{"x"}}); len(q.Tables) != 0 || len(q.Notes) != 1 || q.Notes[0].Table != "study_plan" {
		t.Error("no pairs: a table was made or the note lost")
	}
}
