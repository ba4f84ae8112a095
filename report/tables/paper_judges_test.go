package tables

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/paper"
)

// TestPaperJudgesFromTyped: Tables 8 and 9 hold the typed rows (the three
// bias blocks in column order); the scatter has one series per judge with
// a point per model whose two rubric means are defined, and the y = x line
// over the points' range.
func TestPaperJudgesFromTyped(t *testing.T) {
	nan := math.NaN()
	b := func(h, j float64) paper.JudgeBias {
		return paper.JudgeBias{Human: h, Judge: j, Bias: j - h, Lo: nan, Hi: nan}
	}
	jd := paper.Judges{
		Consistency: []paper.JudgeTau{{Graders: "judge:J", Instrument: "rubric", Comparison: "llm_mean", Tau: 1.0 / 3, N: 3, Undefined: 1, Lo: 0, Hi: 1}},
		VsHuman: []paper.JudgeModelRow{
			{Judge: "judge:J1", Model: "M1", Questions: 2, Rubric: b(3, 4), Checklist: b(0.5, 0.75), Solve: b(0.5, 1)},
			{Judge: "judge:J1", Model: "M2", Questions: 2, Rubric: b(nan, 2), Checklist: b(0.5, 0.5), Solve: b(0, 0)},
			{Judge: "judge:J2", Model: "M1", Questions: 1, Rubric: b(2.5, 1.5), Checklist: b(nan, nan), Solve: b(nan, nan)},
		},
		Crispness: []paper.JudgeCrispness{{Judge: "judge:J1", Measure: "rubric", Models: 1, Slope: nan, SlopeLo: nan, SlopeHi: nan,
			Intercept: nan, R: nan, SDHuman: nan, SDJudge: nan, SDRatio: nan, SDRatioLo: nan, SDRatioHi: nan}},
	}
	p := paperJudges(jd)
	if len(p.Tables) != 3 || len(p.Figures) != 1 {
		t.Fatalf("%d tables, %d figures; want 3 and 1", len(p.Tables), len(p.Figures))
	}
	c := p.Tables[0]
	checkCell(t, c, c.Rows[0], "tau", 1.0/3)
	checkCell(t, c, c.Rows[0], "n_undefined", int64(1))
	v := p.Tables[1]
	checkCell(t, v, v.Rows[0], "rubric_bias", 1.0)
	checkCell(t, v, v.Rows[0], "judge_checklist_rate", 0.75)
	checkCell(t, v, v.Rows[0], "solve_bias", 0.5)
	checkCell(t, v, v.Rows[1], "human_rubric", nan)
	checkCell(t, v, v.Rows[2], "n_questions", int64(1))
	f := p.Figures[0]
	if len(f.Series) != 2 || len(f.Series[0].Points) != 1 || f.Series[1].Name != "judge:J2" || f.Series[1].Points[0].Y != 1.5 {
		t.Fatalf("scatter series %+v", f.Series)
	}
	if l := f.Lines[0]; l.X1 != 1.5 || l.Y1 != 1.5 || l.X2 != 4 || l.Y2 != 4 {
		t.Errorf("y = x line %+v, want from 1.5 to 4", l)
	}
	cr := p.Tables[2]
	checkCell(t, cr, cr.Rows[0], "n_models", int64(1))
	checkCell(t, cr, cr.Rows[0], "sd_ratio", nan)
}
