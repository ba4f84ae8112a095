package paper

import "github.com/euroexec/euroexec/study"

// QuestionPage is one question with everything graded on it.
type QuestionPage struct {
	ID, Domain, Difficulty, Author string
	// Prompt is the question's text; "" on a Summary page. Snippet is the
	// prompt's line in the question index (study.PromptSnippet).
	Prompt, Snippet string
	Tags            []study.Tag
	// Checklist holds item i+1's text.
	Checklist  []string
	References []ReferenceText
	Responses  []ResponseView
	// Summary marks a question listed in the index without a page of its
	// own (a study above Options.QuestionPages): Prompt, Tags, Checklist,
	// References and Responses are then empty, and NResponses and
	// NGradings count what the question has.
	Summary               bool
	NResponses, NGradings int
	// Featured says why the question has a page when pages were selected;
	// "" when every question has one.
	Featured Featured
	// SolveRate is Solved ÷ Graded over the question's human gradings
	// (NaN without one).
	SolveRate      float64
	Solved, Graded int
	// Disagreement is the mean, over the responses with two or more human
	// gradings, of the range of their mean rubric scores (NaN without).
	Disagreement float64
}

// Featured is why a question has a page in a study above the page limit.
type Featured string

// The reasons a question is featured.
const (
	FeaturedUnsolved     Featured = "unsolved"
	FeaturedDisagreement Featured = "disagreement"
	FeaturedSample       Featured = "sample"
)

// ReferenceText is an expert-written answer.
type ReferenceText struct {
	ID, Author, Text string
	Graded           bool
}

// ResponseView is one model's response to a question and its gradings.
type ResponseView struct {
	Model string
	// Text is whole; "" when the dumps lack it.
	Text         string
	HasText      bool
	Chars, Words int
	// Labels are the blinded labels the graders saw the response under,
	// distinct and sorted.
	Labels   []string
	Gradings []GradingView
}

// GradingView is one grader's grading of one response.
type GradingView struct {
	// Kind is study.Human or study.Judge.
	Evaluator, Kind, Round string
	// Rubric holds one score per attribute (NaN = missing).
	Rubric                    []float64
	RubricMean, ChecklistRate float64
	// Verdicts per checklist item: hit, partial, miss, na or "".
	Verdicts []string
	// Rank is 0 when not ranked.
	Rank    int
	Solved  bool
	Comment string
	// Label is the blinded label the grader saw the response under.
	Label string
}
