package tables

import (
	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report"
)

// paperSummary presents Tables 4 and 10 (summary, present even without
// rows) and the headline figure of the primary metric (absent when h is
// nil).
func paperSummary(rows []paper.SummaryRow, h *paper.Headline) report.Part {
	var p report.Part
	if rows != nil {
		p.Tables = append(p.Tables, paperSummaryTable(rows))
	}
	if h != nil {
		p.Figures = append(p.Figures, paperHeadline(h))
	}
	return p
}

// paperSummaryTable builds the summary table from its rows: the one place
// where its columns and cells are made.
func paperSummaryTable(rows []paper.SummaryRow) *report.Table {
	t := &report.Table{Name: "summary", Title: "Tables 4 and 10: Summary of results", Section: report.SectionOverview,
		Doc: "Solve Rate, average rank, win rate, rubric and checklist rate per model, per set of questions and grader population, with 95 % cluster-bootstrap intervals.",
		Columns: []report.Column{
			paperCol("set", report.Text, "all = the main round without the human label; reference_subset = the questions where the human label was graded, all models"),
			paperCol("graders", report.Text, "humans (all human gradings pooled) or judge:<id> (one judge, runs averaged per response)"),
			paperCol("model", report.Text, "model name"),
			paperCol("n_questions", report.Int, "questions on which the model has gradings"),
			paperCol("n_gradings", report.Int, "gradings of the model by the population (one evaluator's grading of one response, judge runs averaged); for set all and humans, Table 3's human_gradings"),
			paperCol("solve_rate", report.Fraction, "share of gradings with mean rubric ≥ threshold and checklist rate ≥ threshold"),
			paperCol("solve_rate_lo", report.Fraction, "95 % cluster-bootstrap interval over questions, lower end; a Wilson interval on the questions at 0 % or 100 % or below 10 questions (see notes)"),
			paperCol("solve_rate_hi", report.Fraction, "95 % interval, upper end"),
			paperCol("avg_rank", report.Float, "mean rank among the compared models (1 = best), ranks re-derived per grading"),
			paperCol("avg_rank_lo", report.Float, "95 % interval, lower end"),
			paperCol("avg_rank_hi", report.Float, "95 % interval, upper end"),
			paperCol("win_rate", report.Fraction, "share of ranked gradings where the model was ranked first among the compared models"),
			paperCol("win_rate_lo", report.Fraction, "95 % interval, lower end"),
			paperCol("win_rate_hi", report.Fraction, "95 % interval, upper end"),
			paperCol("rubric", report.Float, "mean over gradings of the mean attribute score"),
			paperCol("rubric_lo", report.Float, "95 % interval, lower end"),
			paperCol("rubric_hi", report.Float, "95 % interval, upper end"),
			paperCol("checklist_rate", report.Fraction, "mean over gradings of (hits + partial credit × partials) / items not na"),
			paperCol("checklist_rate_lo", report.Fraction, "95 % interval, lower end"),
			paperCol("checklist_rate_hi", report.Fraction, "95 % interval, upper end"),
		}}
	for _, o := range rows {
		t.Rows = append(t.Rows, []any{o.Set, o.Graders, o.Model, o.Questions, o.Gradings,
			o.SolveRate, o.SolveRateLo, o.SolveRateHi, o.AvgRank, o.AvgRankLo, o.AvgRankHi, o.WinRate, o.WinRateLo, o.WinRateHi,
			o.Rubric, o.RubricLo, o.RubricHi, o.Checklist, o.ChecklistLo, o.ChecklistHi})
	}
	return t
}

// paperHeadline draws the primary metric per model (humans, set all) with
// error bars, in the order of h (best first).
func paperHeadline(h *paper.Headline) *report.Figure {
	f := &report.Figure{ID: "solve_rate_by_model", Section: report.SectionOverview,
		Title: "Solve Rate by model (human graders, 95 % interval)", Kind: report.Bar,
		XName: "model", YName: "Solve Rate", YUnit: "%", Percent: true, Table: "summary"}
	switch h.Primary {
	case "rubric":
		f.ID, f.Title, f.YName, f.YUnit, f.Percent = "rubric_by_model", "Mean rubric score by model (human graders, 95 % interval)", "mean rubric score", "", false
		if h.LowerIsBetter {
			f.Title = "Mean rubric score by model, lower is better (human graders, 95 % interval)"
		}
	case "checklist":
		f.ID, f.Title, f.YName = "checklist_by_model", "Checklist rate by model (human graders, 95 % interval)", "checklist rate"
	}
	s := report.Series{Name: f.YName}
	if h.Primary == "" || h.Primary == "solve_rate" {
		s.Name = "Solve Rate"
	}
	for _, b := range h.Bars {
		f.Categories = append(f.Categories, b.Model)
		s.Values = append(s.Values, b.Value)
		s.Lo = append(s.Lo, b.Lo)
		s.Hi = append(s.Hi, b.Hi)
	}
	f.Series = []report.Series{s}
	return f
}
