package tables

import (
	"fmt"
	"math"
	"strconv"

	"github.com/euroexec/euroexec/metrics/planning"
	"github.com/euroexec/euroexec/report"
)

// PlanningTable is the name of the study plan's table
// (tables/study_plan.csv).
const PlanningTable = "study_plan"

// PlanningFigure is the id of the study plan's figure of the questions
// needed.
const PlanningFigure = "study_plan_questions"

// Planning presents r: the study_plan table and a bar chart of the
// questions needed per adjacent pair and design, with r's notes and
// warnings, ready for report.Report.Add. It has no table when r has no
// pairs.
func Planning(r planning.Result) report.Part {
	p := report.Part{Warnings: r.Warnings}
	for _, n := range r.Notes {
		p.Notes = append(p.Notes, report.Note{Table: PlanningTable, Reason: n})
	}
	if len(r.Pairs) == 0 {
		return p
	}
	p.Tables = append(p.Tables, PlanningPairs(r.Pairs, r.Plan))
	p.Figures = append(p.Figures, planningFigure(r.Pairs, r.Plan.GradersPerQuestion))
	return p
}

// PlanningPairs builds the study_plan table of pairs computed with opt
// (planning.Plan): one row per adjacent pair, a sample-size column per
// entry of opt.GradersPerQuestion, empty sizes where none was computed.
func PlanningPairs(pairs []planning.Pair, opt planning.PlanOptions) *report.Table {
	t := planningNewTable(opt)
	for _, ps := range pairs {
		row := []any{ps.ModelA, ps.ModelB, ps.Questions, ps.Graders, ps.MeanA, ps.MeanB, ps.D, ps.VarDiff, ps.VarQuestion, ps.VarGrader,
			ps.GraderQuestions, ps.EffectSize, ps.PowerPilot, ps.MDEPilot, planningSizeCell(ps.QuestionsPilot)}
		for _, n := range ps.QuestionsByGraders {
			row = append(row, planningSizeCell(n))
		}
		row = append(row, ps.Note)
		t.Rows = append(t.Rows, row)
	}
	return t
}

// planningSizeCell is a sample size as a cell: empty when 0 (not
// computed).
func planningSizeCell(n int64) any {
	if n == 0 {
		return nil
	}
	return n
}

func planningNewTable(opt planning.PlanOptions) *report.Table {
	a := strconv.FormatFloat(opt.Alpha, 'g', -1, 64)
	pw := strconv.FormatFloat(opt.Power, 'g', -1, 64)
	t := &report.Table{
		Name:    PlanningTable,
		Title:   "Study plan: questions needed to separate adjacent models",
		Section: report.SectionBeyond,
		Doc: "For each pair of models adjacent in the human rubric order, the pilot's mean per-question difference, its variance split into between-question and grader parts, and the number of questions a paired two-sided t-test at alpha " +
			a + " needs for power " + pw + " with g human graders per response (Var = var_question + 2·var_grader/g; exact noncentral-t power).",
		Columns: []report.Column{
			{Name: "model_a", Kind: report.Text, Doc: "higher model in the human rubric order"},
			{Name: "model_b", Kind: report.Text, Doc: "the next model"},
			{Name: "n_pilot", Kind: report.Int, Doc: "pilot questions with a human score for both"},
			{Name: "graders_pilot", Kind: report.Float, Doc: "mean human graders per response in the pilot"},
			{Name: "mean_a", Kind: report.Float, Doc: "mean per-question rubric of model_a on those questions"},
			{Name: "mean_b", Kind: report.Float, Doc: "mean per-question rubric of model_b on those questions"},
			{Name: "d", Kind: report.Float, Doc: "mean per-question difference a − b"},
			{Name: "var_diff", Kind: report.Float, Doc: "variance (n − 1) of the per-question difference in the pilot"},
			{Name: "var_question", Kind: report.Float, Doc: "between-question variance of the difference, σ²_q (method of moments, ≥ 0)"},
			{Name: "var_grader", Kind: report.Float, Doc: "grader noise variance per response, σ²_e; empty when no question has two graders"},
			{Name: "n_grader_questions", Kind: report.Int, Doc: "questions with ≥ 2 graders behind var_grader"},
			{Name: "effect_size", Kind: report.Float, Doc: "pilot d / √var_diff (Cohen's d_z)"},
			{Name: "power_pilot", Kind: report.Fraction, Doc: "power of the pilot itself (n_pilot questions) at alpha for the observed d"},
			{Name: "mde_pilot", Kind: report.Float, Doc: "minimum detectable effect of the pilot itself: the smallest difference in mean rubric its paired t test detects at alpha with the planned power, (t_{1−α/2} + t_{power})·√(var_diff/n_pilot)"},
			{Name: "n_questions_pilot", Kind: report.Int, Doc: "questions needed with the pilot's graders per response (from var_diff)"},
		},
	}
	for _, g := range opt.GradersPerQuestion {
		t.Columns = append(t.Columns, report.Column{Name: "n_questions_g" + strconv.Itoa(g), Kind: report.Int,
			Doc: fmt.Sprintf("questions needed with %d grader(s) per response", g)})
	}
	t.Columns = append(t.Columns, report.Column{Name: "note", Kind: report.Text, Doc: "why a sample size is empty"})
	return t
}

// planningFigure draws the needed questions per pair (categories) and
// design (series: the pilot's design and each g).
func planningFigure(pairs []planning.Pair, gs []int) *report.Figure {
	f := &report.Figure{ID: PlanningFigure, Section: report.SectionBeyond, Title: "Questions needed to separate adjacent models",
		Kind: report.Bar, XName: "pair", YName: "questions needed", Table: PlanningTable}
	names := []string{"pilot design"}
	for _, g := range gs {
		names = append(names, fmt.Sprintf("%d grader(s)", g))
	}
	for k, name := range names {
		s := report.Series{Name: name}
		for _, ps := range pairs {
			n := ps.QuestionsPilot
			if k > 0 {
				n = ps.QuestionsByGraders[k-1]
			}
			v := math.NaN()
			if n > 0 {
				v = float64(n)
			}
			s.Values = append(s.Values, v)
		}
		f.Series = append(f.Series, s)
	}
	for _, ps := range pairs {
		f.Categories = append(f.Categories, fmt.Sprintf("%v vs %v", ps.ModelA, ps.ModelB))
	}
	return f
}
