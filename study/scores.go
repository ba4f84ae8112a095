package study

// Score is one row of the SQL view grading_scores: one evaluator's grading
// of one response in one round, a judge's runs averaged, scored with the
// study's Solve rule (docs/METHODS.md, "Per-grading scores"). Package
// readback reads the view once into Study.Scores; package scores serves
// every analysis from it.
type Score struct {
	// The grading is Study.Gradings[First]'s (round, question, model,
	// evaluator and kind): the rows hold no strings of their own (88 bytes
	// a row, against 176 with the five keys, for a million gradings at
	// 40,000 questions). Its runs are Gradings[First : First+Runs]; the
	// rows tile Study.Gradings in order.

	// Rubric is the exact rubric mean (rubric_num/rubric_den); the zero Rat
	// when the view has no exact fraction.
	Rubric Rat
	// Checklist is the exact checklist rate (checklist_num/checklist_den);
	// the zero Rat when the view has no exact fraction.
	Checklist Rat
	// RubricMean is rubric_mean; NaN when NULL (no attribute has a score).
	RubricMean float64
	// ChecklistRate is checklist_rate; NaN when NULL (undefined).
	ChecklistRate float64
	// Rank is the mean rank over the runs that ranked; 0 when unranked.
	Rank float64
	// First is the index into Study.Gradings of the grading's first run.
	First int32
	// Runs is the number of runs averaged (1 for humans).
	Runs int32
	// RubricN is the number of attributes with a score (rubric_n).
	RubricN int32
	// Hits, Partials, Misses and NAs count the verdicts over all runs.
	Hits, Partials, Misses, NAs int32
	// Solve is 1 solved, 0 unsolved, -1 undefined (the view's solve).
	Solve int8
	// Usable is the view's usable: a rubric score or a defined checklist rate.
	Usable bool
}

// ScoreRule is the Solve rule with which the view grading_scores scored
// Study.Scores (the view solve_rule: the study's [solve] settings).
type ScoreRule struct {
	RubricThreshold, ChecklistThreshold, PartialCredit float64
	// HasRubric and HasChecklist say which instruments the rule used.
	HasRubric, HasChecklist bool
	// Lower says the rubric part was "mean ≤ threshold" ([rubric]
	// direction = "lower").
	Lower bool
}
