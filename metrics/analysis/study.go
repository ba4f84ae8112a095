package analysis

import "github.com/euroexec/euroexec/study"

// The study model lives in package study; these aliases keep the names
// analysis.Study, analysis.Grading, … that callers use.
type (
	// Study is study.Study.
	Study = study.Study
	// Question is study.Question.
	Question = study.Question
	// Tag is study.Tag.
	Tag = study.Tag
	// Model is study.Model.
	Model = study.Model
	// Evaluator is study.Evaluator.
	Evaluator = study.Evaluator
	// Response is study.Response.
	Response = study.Response
	// Reference is study.Reference.
	Reference = study.Reference
	// Verdict is study.Verdict.
	Verdict = study.Verdict
	// Grading is study.Grading.
	Grading = study.Grading
	// GateRun is study.GateRun.
	GateRun = study.GateRun
	// GateItem is study.GateItem.
	GateItem = study.GateItem
	// Criterion is study.Criterion.
	Criterion = study.Criterion
	// CriterionGrade is study.CriterionGrade.
	CriterionGrade = study.CriterionGrade
)

// Evaluator kinds (study.Human, study.Judge).
const (
	Human = study.Human
	Judge = study.Judge
)

// Verdicts (see study.Verdict).
const (
	VerdictNone = study.VerdictNone
	Hit         = study.Hit
	Partial     = study.Partial
	Miss        = study.Miss
	NA          = study.NA
)

// Pairwise comparisons (see study.Comparison).
type (
	// Comparison is study.Comparison.
	Comparison = study.Comparison
	// Preference is study.Preference.
	Preference = study.Preference
)

// Preferences (see study.Preference).
const (
	Tie     = study.Tie
	PreferA = study.PreferA
	PreferB = study.PreferB
)
