package sample

import (
	"fmt"
	"math"
)

// Options sets the size and randomness of a synthetic study. Start from
// DefaultOptions and change what you need; every field is validated by Write
// and Walk.
type Options struct {
	// Questions is the number of questions (≥ 1). Default 60.
	Questions int
	// Models is the number of models answering every question (2..60). Default 6.
	Models int
	// Evaluators is the size of the human grader pool: 0 for a judge-only
	// study (no human gradings, no reference answers: ReferenceShare must be
	// 0 and Judges at least 1), else ≥ 3 (a question's author never grades
	// it and each question needs two graders). Default 12.
	Evaluators int
	// Judges is the number of LLM judges (0..20). The first judge is run three
	// times (a `run` column) unless SingleRun; the last one has a few missing
	// scores. Default 2.
	Judges int
	// SingleRun runs every judge once: no judge file has a `run` column, so a
	// study has exactly Questions × Models × Judges judge gradings. Default
	// false (the first judge is run three times).
	SingleRun bool
	// ReferenceShare is the share of questions, in [0, 1], that get an
	// expert-written reference answer and a second grading round
	// ("reference") in which other experts grade it beside the models.
	// Default 0.1.
	ReferenceShare float64
	// ResponseChars is the typical length of a response in bytes (≥ 100);
	// models differ around it (one model is about twice as verbose). Default 1500.
	ResponseChars int
	// Seed seeds every random draw (math/rand/v2 PCG). Default 1.
	Seed uint64
	// Criteria adds PRBench-style weighted criteria (criteria.jsonl) with
	// judge criterion grades on every response and human criterion grades on
	// every fifth question. Default false.
	Criteria bool
}

// DefaultOptions returns the options of the bundled sample: 60 questions, 6
// models, 12 human evaluators, 2 judges, 10 % of questions with a reference
// answer, responses of about 1,500 characters, seed 1, no criteria.
func DefaultOptions() Options {
	return Options{
		Questions:      60,
		Models:         6,
		Evaluators:     12,
		Judges:         2,
		ReferenceShare: 0.1,
		ResponseChars:  1500,
		Seed:           1,
	}
}

// XLSXQuestionLimit is the largest number of questions for which human
// grading sheets are written as .xlsx workbooks. Above it every human
// grading file is written as .csv with the same columns (one file per
// grader and round, no extra sheets), which keeps Write fast and its memory
// bounded for very large studies.
const XLSXQuestionLimit = 2000

// validate checks the ranges documented on Options.
func (o Options) validate() error {
	switch {
	case o.Questions < 1:
		return fmt.Errorf("data: options: questions = %d, want at least 1", o.Questions)
	case o.Models < 2 || o.Models > 60:
		return fmt.Errorf("data: options: models = %d, want 2..60", o.Models)
	case o.Evaluators != 0 && o.Evaluators < 3:
		return fmt.Errorf("data: options: evaluators = %d, want 0 (judge-only) or at least 3", o.Evaluators)
	case o.Judges < 0 || o.Judges > 20:
		return fmt.Errorf("data: options: judges = %d, want 0..20", o.Judges)
	case math.IsNaN(o.ReferenceShare) || o.ReferenceShare < 0 || o.ReferenceShare > 1:
		return fmt.Errorf("data: options: reference share = %v, want a number in [0, 1]", o.ReferenceShare)
	case o.Evaluators == 0 && o.Judges == 0:
		return fmt.Errorf("data: options: evaluators = 0 and judges = 0, want at least 1 judge in a judge-only study (evaluators = 0)")
	case o.Evaluators == 0 && o.ReferenceShare != 0:
		return fmt.Errorf("data: options: reference share = %v with evaluators = 0, want 0: reference answers are graded by human evaluators", o.ReferenceShare)
	case o.ResponseChars < 100:
		return fmt.Errorf("data: options: response chars = %d, want at least 100", o.ResponseChars)
	}
	return nil
}
