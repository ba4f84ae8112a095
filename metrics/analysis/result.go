package analysis

import "github.com/euroexec/euroexec/report"

// Result is what AnalyzeResult produces: the report and, typed, the values
// of the report's tables that other code reads.
type Result struct {
	// Report is what Analyze returns.
	Report *report.Report
	// Summary are the rows of the summary table, in its order: set "all"
	// then "reference_subset"; per set the humans, then each judge; per
	// population the models in model order.
	Summary []SummaryRow
}

// SummaryRow is one row of the summary table (Tables 4 and 10): one model
// in one set of questions and one grader population. Undefined numbers are
// NaN (empty cells); intervals are 95 % cluster-bootstrap percentile
// intervals over questions.
type SummaryRow struct {
	// Set is "all" (the main round without the human label) or
	// "reference_subset" (the questions where the human label was graded).
	Set string
	// Graders is "humans" or "judge:<id>".
	Graders string
	// Model is the model name.
	Model string
	// Questions and Gradings count the model's questions and gradings.
	Questions, Gradings int64
	// SolveRate is solved ÷ gradings with a defined solved flag (exact
	// counts divided once).
	SolveRate, SolveRateLo, SolveRateHi float64
	// AvgRank is the mean preference rank (1 = best); WinRate the share of
	// rankings where the model is first.
	AvgRank, AvgRankLo, AvgRankHi float64
	WinRate, WinRateLo, WinRateHi float64
	// Rubric is the exact mean of the gradings' rubric means; Checklist
	// that of their checklist rates (study.RatSum, divided once).
	Rubric, RubricLo, RubricHi          float64
	Checklist, ChecklistLo, ChecklistHi float64
}

// SummaryTable builds the summary table from its rows: the one place where
// its columns and cells are made.
func SummaryTable(rows []SummaryRow) *report.Table {
	t := newTable("summary", "Tables 4 and 10: Summary of results", report.SectionOverview,
		"Solve Rate, average rank, win rate, rubric and checklist rate per model, per set of questions and grader population, with 95 % cluster-bootstrap intervals.",
		summaryCols...)
	for _, o := range rows {
		addRow(t, o.Set, o.Graders, o.Model, o.Questions, o.Gradings,
			o.SolveRate, o.SolveRateLo, o.SolveRateHi, o.AvgRank, o.AvgRankLo, o.AvgRankHi, o.WinRate, o.WinRateLo, o.WinRateHi,
			o.Rubric, o.RubricLo, o.RubricHi, o.Checklist, o.ChecklistLo, o.ChecklistHi)
	}
	return t
}
