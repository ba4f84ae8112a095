package tables

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/euroexec/euroexec/internal/tabletest"
	"github.com/euroexec/euroexec/metrics/calibration"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

// calibrationStudy: three models, two judges (one grading every question, one
// half), one human on 10 of 16 questions with a checklist, responses of
// varying length.
func calibrationStudy() *study.Study {
	s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"Quality", "Clarity"}, ScaleMin: 1, ScaleMax: 5}
	H, M := study.Hit, study.Miss
	for q := 0; q < 16; q++ {
		id := fmt.Sprintf("q%02d", q)
		s.Questions = append(s.Questions, study.Question{ID: id, GateScore: math.NaN()})
		for m, model := range []string{"A", "B", "C"} {
			h := float64(1 + (q*3+m*2)%5)
			v := []study.Verdict{H, M}
			if (q+m)%2 == 0 {
				v = []study.Verdict{H, H}
			}
			s.Responses = append(s.Responses, study.Response{QuestionID: id, Model: model, Chars: 100 + 37*q + 50*m + (q*m)%7})
			if q < 10 {
				s.Gradings = append(s.Gradings, study.Grading{Evaluator: "expert", Kind: study.Human, Round: "main",
					QuestionID: id, Model: model, Rubric: []float64{h, math.Min(5, h+1)}, Verdicts: v})
			}
			s.Gradings = append(s.Gradings, study.Grading{Evaluator: "j1", Kind: study.Judge, Round: "main",
				QuestionID: id, Model: model, Rubric: []float64{math.Min(5, h+1), h}, Verdicts: v})
			if q%2 == 0 {
				s.Gradings = append(s.Gradings, study.Grading{Evaluator: "j2", Kind: study.Judge, Round: "main",
					QuestionID: id, Model: model, Rubric: []float64{float64(1 + (q+m)%5), 3}, Verdicts: []study.Verdict{M, H}})
			}
		}
	}
	return s
}

// TestCalibrationFromTyped: every cell of the three tables, read by
// column name, is the typed value of the Result; the figures plot the same
// values; the notes keep their tables.
func TestCalibrationFromTyped(t *testing.T) {
	opt := calibration.DefaultOptions()
	opt.Bootstrap = 40
	res, err := calibration.Analyze(context.Background(), calibrationStudy(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Judges) != 2 || len(res.Calibration) != 12 || len(res.Summary) != 4 || len(res.Length.Rows) != 3 {
		t.Fatalf("judges %v, %d calibration rows, %d summary rows, %d length rows; want 2, 12, 4, 3",
			res.Judges, len(res.Calibration), len(res.Summary), len(res.Length.Rows))
	}
	p := Calibration(res)
	byName := map[string]*report.Table{}
	for _, tb := range p.Tables {
		byName[tb.Name] = tb
	}
	cal, sum, length := byName[calibration.TableCalibration], byName[calibration.TableSummary], byName[calibration.TableLength]
	if cal == nil || sum == nil || length == nil || len(p.Tables) != 3 {
		t.Fatalf("tables %v", p.Tables)
	}
	if len(cal.Rows) != len(res.Calibration) || len(sum.Rows) != len(res.Summary) || len(length.Rows) != len(res.Length.Rows) {
		t.Fatal("row counts differ from the typed result")
	}
	exact := 0
	for i, c := range res.Calibration {
		tabletest.CheckCells(t, cal, cal.Rows[i], map[string]any{
			"judge": c.Judge, "model": c.Model, "metric": c.Metric, "human": c.Human, "judge_raw": c.JudgeRaw,
			"judge_linear": c.JudgeLinear, "judge_isotonic": c.JudgeIsotonic, "ppi": c.PPI.Estimate, "ppi_lo": c.PPI.Lo,
			"ppi_hi": c.PPI.Hi, "ppi_tuned": c.PPI.Tuned, "ppi_tuned_lo": c.PPI.TunedLo, "ppi_tuned_hi": c.PPI.TunedHi,
			"ppi_lambda": c.PPI.Lambda, "human_only_lo": c.PPI.HumanLo, "human_only_hi": c.PPI.HumanHi,
			"err_raw": c.JudgeRaw - c.Human, "err_linear": c.JudgeLinear - c.Human, "err_isotonic": c.JudgeIsotonic - c.Human,
			"n_questions": c.Questions, "n_judge_questions": c.JudgeQuestions,
		})
		if c.HumanExact.OK() {
			exact++
			if c.HumanExact.Float64() != c.Human || c.JudgeRawExact.Float64() != c.JudgeRaw {
				t.Errorf("%s %s %s: exact %v, %v vs %v, %v", c.Judge, c.Model, c.Metric, c.HumanExact, c.JudgeRawExact, c.Human, c.JudgeRaw)
			}
		}
	}
	if exact == 0 {
		t.Error("no exact human mean: the check of the fractions proves nothing")
	}
	for i, s := range res.Summary {
		tabletest.CheckCells(t, sum, sum.Rows[i], map[string]any{
			"judge": s.Judge, "metric": s.Metric, "n_models": s.Models, "mae_raw": s.MAERaw, "mae_linear": s.MAELinear,
			"mae_isotonic": s.MAEIsotonic, "gap_closed_linear": s.GapClosedLinear, "gap_closed_isotonic": s.GapClosedIsotonic,
			"ppi_width": s.PPIWidth, "human_only_width": s.HumanOnlyWidth, "width_ratio": s.WidthRatio,
			"tuned_width_ratio": s.TunedWidthRatio, "summary": calibrationSentence(s),
		})
	}
	l := res.Length
	if math.IsNaN(l.CoefLo) {
		t.Error("no bootstrap interval of the length coefficient")
	}
	for i, m := range l.Rows {
		tabletest.CheckCells(t, length, length.Rows[i], map[string]any{
			"model": m.Model, "n_responses": m.Responses, "mean_chars": m.MeanChars, "raw_mean": m.RawMean,
			"raw_effect": m.RawEffect, "adjusted_effect": m.AdjustedEffect, "adjusted_lo": m.AdjustedLo,
			"adjusted_hi": m.AdjustedHi, "length_coef": l.Coef, "length_coef_lo": l.CoefLo, "length_coef_hi": l.CoefHi,
		})
		if !m.RawMeanExact.OK() || m.RawMeanExact.Float64() != m.RawMean {
			t.Errorf("%s: raw mean %v, exact %v", m.Model, m.RawMean, m.RawMeanExact)
		}
	}
	// Figures: a scatter per metric with a raw and an isotonic series per
	// judge, and the length effects.
	var ids []string
	for _, f := range p.Figures {
		ids = append(ids, f.ID)
		if f.ID == "judge_calibration_rubric" {
			if len(f.Series) != 4 || f.Series[0].Name != "j1 raw" || f.Series[1].Name != "j1 isotonic" {
				t.Errorf("rubric scatter series %v", f.Series)
			}
			for _, pt := range f.Series[0].Points {
				found := false
				for _, c := range res.Calibration {
					if c.Judge == "j1" && c.Metric == calibration.MetricRubric && c.Model == pt.Label {
						found = pt.X == c.Human && pt.Y == c.JudgeRaw
					}
				}
				if !found {
					t.Errorf("point %v is not a j1 rubric row", pt)
				}
			}
		}
		if f.ID == "length_controlled_effects" {
			for i, m := range l.Rows {
				if f.Categories[i] != m.Model || f.Series[0].Values[i] != m.RawEffect || !tabletest.SameCell(f.Series[1].Values[i], m.AdjustedEffect) {
					t.Errorf("length bar %d: %v %v %v", i, f.Categories[i], f.Series[0].Values[i], f.Series[1].Values[i])
				}
			}
		}
	}
	if fmt.Sprint(ids) != "[judge_calibration_rubric judge_calibration_solve_rate length_controlled_effects]" {
		t.Errorf("figures %v", ids)
	}
	if got := Calibration(calibration.Result{}); len(got.Tables) != 0 || len(got.Figures) != 0 {
		t.Errorf("an empty result made %d tables", len(got.Tables))
	}
	n := calibration.Note{Table: calibration.TableLength, Reason: "the study has no rubric"}
	if got := Calibration(calibration.Result{Notes: []calibration.Note{n}, Warnings: []string{"w"}}); len(got.Notes) != 1 ||
		got.Notes[0].Table != n.Table || got.Notes[0].Reason != n.Reason || len(got.Warnings) != 1 {
		t.Errorf("notes %v warnings %v", got.Notes, got.Warnings)
	}
}

// TestCalibrationSentence: the summary sentence of hand-made rows.
func TestCalibrationSentence(t *testing.T) {
	for _, c := range []struct {
		row  calibration.SummaryRow
		want string
	}{
		{calibration.SummaryRow{Judge: "j", Metric: "rubric", Models: 3, MAERaw: 0.5, MAEIsotonic: 0.1, GapClosedIsotonic: 0.8, GapClosedLinear: -0.2},
			"Isotonic calibration closes 80% of the gap between judge j and the human rubric means (mean absolute error over 3 models 0.5 → 0.1, held out); linear calibration widens by 20% it."},
		{calibration.SummaryRow{Judge: "j", Metric: "solve_rate", Models: 2, MAEIsotonic: 0},
			"Judge j already matches the human solve_rate means exactly."},
		{calibration.SummaryRow{Judge: "j", Metric: "rubric", MAERaw: math.NaN(), MAEIsotonic: math.NaN()},
			"Judge j: too few labelled questions to calibrate its rubric."},
	} {
		if got := calibrationSentence(c.row); got != c.want {
			t.Errorf("%+v:\n got %q\nwant %q", c.row, got, c.want)
		}
	}
}
