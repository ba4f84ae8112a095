package prbench

// Result is what Analyze produced, as typed values; report/tables
// presents it (the tables and figures of the PRBench section). A slice
// left empty means its table is left out (Notes say why).
type Result struct {
	// Populations are the grader populations in output order: "humans"
	// (when a human graded) then "judge:<id>" in id order.
	Populations []string
	// Models are the models with criterion grades, in name order.
	Models []string
	// Categories are the rubric categories in first-seen order (the
	// columns of the category heat maps); empty when no criterion has a
	// category or nothing was graded.
	Categories []string
	// Scores are the rows of prbench_scores: per set ("all", then "hard"
	// when the Hard subset is not empty), population and model.
	Scores []ScoreRow
	// HasHard says the Hard subset is not empty (Scores has "hard" rows).
	HasHard bool
	// ByDomain are the rows of prbench_by_domain (Domain set).
	ByDomain []ScoreRow
	// ByTag are the rows of prbench_by_tag (Tag and Value set; Set empty).
	ByTag []ScoreRow
	// Hard are the rows of prbench_hard_questions: the Hard subset per
	// domain, hardest first.
	Hard []HardQuestion
	// HardSource is "judges" or "humans": whose gradings rank the
	// questions by difficulty.
	HardSource string
	// ByCategory are the rows of prbench_categories.
	ByCategory []CategoryRow
	// Agreement are the rows of criterion_agreement.
	Agreement []AgreementRow
	// Parity are the rows of judge_parity.
	Parity []ParityRow
	// Length are the rows of prbench_length.
	Length []LengthRow
	// Ungraded are the rows of prbench_ungraded_criteria: criteria nobody
	// graded.
	Ungraded []UngradedCriterion
	// Notes say which tables were left out and why. The presentation adds
	// one note per table with undefined (empty) cells.
	Notes []Note
	// Warnings are non-fatal problems of the input or the options.
	Warnings []string
}

// Note says why a table (Table, e.g. "prbench_categories") was left out or
// what it leaves out.
type Note struct {
	Table, Reason string
}

// Score is the mean of a score over gradings, its SD (n − 1) and its 95 %
// cluster-bootstrap interval over questions. Undefined numbers are NaN.
type Score struct {
	// Mean is the exact mean of the gradings' scores, rounded once.
	Mean, SD, Lo, Hi float64
}

// ScoreRow is one block of scores of a model: a row of prbench_scores,
// prbench_by_domain or prbench_by_tag.
type ScoreRow struct {
	// Set is "all" or "hard" (empty in ByTag).
	Set string
	// Graders is the population: "humans" or "judge:<id>".
	Graders string
	// Domain is the question domain (ByDomain only).
	Domain string
	// Tag and Value are the question tag and its value (ByTag only).
	Tag, Value string
	Model      string
	// Questions are the questions on which the model has gradings in the
	// block, N the gradings.
	Questions, N int64
	// Clipped is max(raw/max, 0), Normalized (raw − min)/(max − min), over
	// the gradings where each is defined.
	Clipped, Normalized Score
}

// HardQuestion is one question of the Hard subset.
type HardQuestion struct {
	Domain string
	// Rank is 1 for the hardest question of the domain.
	Rank       int64
	QuestionID string
	// MeanClipped is the mean over models of the model's mean clipped
	// score on the question (exact, rounded once), over Models models.
	MeanClipped float64
	Models      int64
	// Source is Result.HardSource.
	Source string
	// DomainQuestions are the domain's questions with a difficulty score.
	DomainQuestions int64
}

// CategoryRow is one (population, category, model) row of
// prbench_categories: the category-restricted min-normalised score.
type CategoryRow struct {
	Graders, Category, Model string
	// Questions are the questions on which the model has gradings with a
	// graded criterion of the category, N those gradings.
	Questions, N int64
	Normalized   Score
}

// Interval is a value with its 95 % cluster-bootstrap interval over
// questions; NaN when undefined.
type Interval struct {
	Value, Lo, Hi float64
}

// AgreementRow is one row of criterion_agreement: two graders over the
// (response, criterion) cells both graded, in one breakdown.
type AgreementRow struct {
	GraderA, GraderB string
	// PairKind is judge-expert, expert-expert or judge-judge.
	PairKind string
	// Breakdown is "all", "domain:<domain>" or "category:<category>".
	Breakdown string
	// Questions are the questions with cells graded by both, N the cells.
	Questions, N int64
	// BothMet, AOnly, BOnly and Neither count the cells by their grades.
	BothMet, AOnly, BOnly, Neither int64
	// Agreement is the share of cells with the same grade, Kappa Cohen's κ
	// and MacroF1 the mean F1 of met and not met (GraderB as reference).
	Agreement, Kappa, MacroF1 Interval
}

// ParityRow is one judge of judge_parity: its agreement with the experts
// against the experts' agreement with each other.
type ParityRow struct {
	Judge string
	// ExpertPairs are the pairs of experts with cells in common with the
	// judge, Questions the questions and N the (response, criterion, expert
	// pair) cells graded by the judge and both experts.
	ExpertPairs, Questions, N int64
	// JudgeExpert and ExpertExpert are the agreements, Difference their
	// difference with its paired bootstrap interval DifferenceLo,
	// DifferenceHi.
	JudgeExpert, ExpertExpert              float64
	Difference, DifferenceLo, DifferenceHi float64
	// ParityMargin is Options.ParityMargin.
	ParityMargin float64
	// Within says DifferenceLo > −ParityMargin; meaningless (an empty
	// cell) when DifferenceLo is NaN.
	Within bool
}

// LengthRow is one row of prbench_length: response length against the
// response's mean clipped score, for one model or all models pooled.
type LengthRow struct {
	Graders string
	// Model is the model, or "(all)" on the pooled row (Pooled).
	Model  string
	Pooled bool
	// N are the responses with a length and a defined clipped score.
	N int64
	// MeanChars is the mean length in Unicode code points, MeanClipped the
	// mean over responses of the response's mean clipped score.
	MeanChars, MeanClipped float64
	// PearsonR and PValue are Pearson's r and its two-sided p-value;
	// Slope and Intercept the least-squares line of score on length.
	PearsonR, PValue, Slope, Intercept float64
}

// UngradedCriterion is a criterion nobody graded.
type UngradedCriterion struct {
	QuestionID, CriterionID string
	Weight                  int64
	Category                string
}
