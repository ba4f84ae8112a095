package paper

// Result is what AnalyzeResult produces: the typed values of every table,
// figure and question page of the paper's analysis, which report/tables
// presents (tables.Paper). Undefined numbers are NaN; a nil slice is a
// table left out, with a note saying why.
type Result struct {
	// Title and Attributes are the study's.
	Title      string
	Attributes []string
	// Overview counts what the study holds.
	Overview Overview
	// Summary are the rows of the summary table, in its order: set "all"
	// then "reference_subset"; per set the humans, then each judge; per
	// population the models in model order.
	Summary []SummaryRow
	// Headline is the headline figure's primary metric per model; nil
	// without human gradings in set all.
	Headline *Headline
	// Cost is Appendices B and C: cost and response length against the
	// Solve Rate.
	Cost Cost
	// Dataset describes the study: Tables 1, 2, 3 and 12, the
	// descriptives and Figure 1.
	Dataset Dataset
	// Rubric is Figure 2 and Table 5.
	Rubric Rubric
	// Checklist is Figures 4 and 5.
	Checklist Checklist
	// Text is the automatic text metrics (corpus_metrics, text_metrics,
	// Table 7).
	Text Text
	// Evaluators is the evaluators table and Figures 6 and 7.
	Evaluators Evaluators
	// Significance is the t-tests of the rubric ranking and Figure 3.
	Significance Significance
	// Judges is Tables 8 and 9 (the judges against the humans).
	Judges Judges
	// Consistency are Table 6's rows (nil when left out): the within and
	// across comparisons, then the Pearson rows.
	Consistency []ConsistencyRow
	// Questions are the question pages, in question order.
	Questions []*QuestionPage
	// Notes say what was left out and why, in the order the stages made
	// them; Warnings are non-fatal findings about the study.
	Notes    []Note
	Warnings []string
}

// Overview counts what the study holds (the report's overview).
type Overview struct {
	Questions int
	// Models counts the evaluated models, the human label not counted.
	Models int
	// HumanLabel is the display name (else the name) of the human label
	// when expert answers were graded as a model; "" when they were not.
	HumanLabel string
	Domains    int
	// HumanGraders and Judges count the distinct human evaluators and LLM
	// judges with a grading.
	HumanGraders, Judges int
	// Gradings counts human and judge gradings after judge runs are
	// averaged; HumanGradings and JudgeGradings split it by kind.
	Gradings, HumanGradings, JudgeGradings int
	// Instruments present, from "rubric", "checklist", "ranking",
	// "references", "judges", "criteria", "gate", "cost", "pairwise";
	// Missing those the study does not have.
	Instruments, Missing []string
}

// Note says why a table (or some of its rows) is left out or partial.
type Note struct {
	// Table names the table or figure concerned.
	Table string
	// Reason is the sentence shown.
	Reason string
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
