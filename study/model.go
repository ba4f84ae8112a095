package study

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Study is the whole study as plain Go values, read from the canonical
// database by package readback. Slices are sorted as documented so that
// every computation is deterministic. Strings are kept byte for byte.
type Study struct {
	Title      string
	HumanLabel string // the model name of the graded expert answer, default "Human Expert"
	MainRound  string // default "main"
	// Attributes are the rubric attributes in study order; empty when the study has no rubric.
	Attributes []string
	// ScaleMin, ScaleMax and ScaleStep are the rubric scale ([rubric] min,
	// max and step); ScaleStep 0 means 1. Human scores are multiples of
	// ScaleStep from ScaleMin to ScaleMax.
	ScaleMin  float64
	ScaleMax  float64
	ScaleStep float64
	// ScaleAveraged is [rubric] averaged: a human score may be the mean of
	// up to this many raters' scores on the step (0 or 1: none).
	ScaleAveraged int
	// LowerIsBetter is [rubric] direction = "lower": a lower rubric mean
	// ranks first, solves at or below the threshold, and a lenient grader
	// gives lower scores.
	LowerIsBetter bool

	Questions  []Question  // sorted by ID (byte order)
	Models     []Model     // sorted by Name
	Evaluators []Evaluator // sorted by ID
	Responses  []Response  // sorted by (QuestionID, Model)
	References []Reference // sorted by (QuestionID, ID)
	// Gradings are sorted by (Round, QuestionID, Model, Evaluator, Run).
	// Judge runs are separate rows here (Run != ""); Analyze averages them.
	Gradings []Grading
	// GateItems are the difficulty gate tallied per checklist item, sorted
	// by (QuestionID, Item): what package readback reads (one row per
	// question and item instead of one per run and item). Analyses read
	// the gate through Gate.
	GateItems []GateItem
	// GateRuns are the gate's cells one by one, sorted by (QuestionID, Run,
	// Item), for a study built in memory (tests, Go callers); Gate tallies
	// them when GateItems is empty. Package transform leaves it nil.
	GateRuns []GateRun
	// GradingTags are the gradings' tags (the extra columns of grading
	// rows), sorted by Grading and, within a grading, in file order.
	GradingTags     []GradingTag
	Criteria        []Criterion      // sorted by (QuestionID, ID)
	CriterionGrades []CriterionGrade // sorted by (QuestionID, Model, Evaluator, CriterionID)
	// Comparisons are the pairwise (A-vs-B) judgments, sorted by (Round,
	// QuestionID, Evaluator, Run, ModelA, ModelB); empty when the study has none.
	Comparisons []Comparison
}

// Question is one question of the study.
type Question struct {
	ID     string
	Domain string
	Prompt string
	Author string
	// Difficulty is the bin name (questions.difficulty, else the gate score's
	// bin); "" when unknown.
	Difficulty string
	// GateScore is the difficulty-gate score in [0,1]; NaN when unknown.
	GateScore float64
	// Tags are the extra columns of the questions file, in file order.
	Tags []Tag
	// Checklist holds the text of items 1..n (Checklist[0] is item 1).
	Checklist []string

	// The fields below describe the texts above so that a study read
	// without them (transform's LoadWithoutTexts, whose Prompt is "" and
	// Checklist nil until LoadQuestionTexts sets them for the questions
	// that need them) still has what every table reads. Load and
	// LoadWithoutTexts set them for every question; a study built in
	// memory may leave them zero, and readers then measure Prompt and
	// Checklist themselves (see PromptLen and Items).

	// PromptChars and PromptWords are TextLen of the prompt.
	PromptChars, PromptWords int
	// ChecklistItems is the number of checklist items, len(Checklist) once
	// the texts are read.
	ChecklistItems int
	// Snippet is PromptSnippet of the prompt: the question index's line.
	Snippet string
}

// PromptLen returns PromptChars and PromptWords, or TextLen(Prompt) when
// both are zero (a question built without them).
func (q *Question) PromptLen() (chars, words int) {
	if q.PromptChars == 0 && q.PromptWords == 0 {
		return TextLen(q.Prompt)
	}
	return q.PromptChars, q.PromptWords
}

// Items returns the number of checklist items: ChecklistItems, or
// len(Checklist) when that is larger (a question built without the count).
func (q *Question) Items() int {
	return max(q.ChecklistItems, len(q.Checklist))
}

// PromptSnippet returns the prompt PromptChars would measure as one line
// for the question index: its whitespace-separated words (unicode.IsSpace)
// joined by single spaces and, when that line is longer than SnippetChars
// code points, its first SnippetChars code points followed by
// " … [N more characters]", N the code points cut.
func PromptSnippet(prompt string) string {
	// one pass: write the line's first SnippetChars code points (the
	// prompt's bytes, invalid ones included) and count the others
	var b strings.Builder
	b.Grow(min(len(prompt), 2*SnippetChars))
	n := 0 // code points of the line so far
	in := false
	for i, r := range prompt {
		if unicode.IsSpace(r) {
			in = false
			continue
		}
		if !in && n > 0 {
			if n < SnippetChars {
				b.WriteByte(' ')
			}
			n++
		}
		in = true
		if n < SnippetChars {
			if r == utf8.RuneError {
				_, size := utf8.DecodeRuneInString(prompt[i:])
				b.WriteString(prompt[i : i+size])
			} else {
				b.WriteRune(r)
			}
		}
		n++
	}
	if n <= SnippetChars {
		return b.String()
	}
	// a cut line is made of code points: an invalid byte becomes U+FFFD
	return string([]rune(b.String())) + fmt.Sprintf(" … [%d more characters]", n-SnippetChars)
}

// SnippetChars is the length, in code points, at which PromptSnippet cuts.
const SnippetChars = 160

// TextLen returns the length of s in Unicode code points (an invalid byte
// counts as one, as utf8.RuneCountInString) and in words, the maximal runs
// of characters that are not white space (unicode.IsSpace) — the measure
// of Response.Chars and Words and of PromptChars and PromptWords.
func TextLen(s string) (chars, words int) {
	in := false
	for _, r := range s {
		chars++
		if unicode.IsSpace(r) {
			in = false
		} else if !in {
			in = true
			words++
		}
	}
	return chars, words
}

// Tag is one extra column value.
type Tag struct{ Key, Value string }

// Model is one evaluated model (the human label included when it was graded).
type Model struct {
	Name        string
	Provider    string
	DisplayName string
	// USD per 1,000 tokens; NaN when not given.
	USDPer1kInput  float64
	USDPer1kOutput float64
}

// Evaluator kinds.
const (
	Human = "human"
	Judge = "judge"
)

// Evaluator is a human expert or an LLM judge.
type Evaluator struct {
	ID     string
	Kind   string // Human or Judge
	Domain string // "" when not given
	// Provider is the company behind a judge's model (evaluators.provider),
	// compared with Model.Provider by the judge audit; "" when not given.
	Provider string
}

// Response is one model's answer to one question (the highest attempt).
type Response struct {
	QuestionID   string
	Model        string
	Text         string
	Chars        int     // Unicode code points
	Words        int     // whitespace-separated words
	CostUSD      float64 // NaN when not known
	InputTokens  int64   // -1 when not known
	OutputTokens int64   // -1 when not known
	// Headers, ListItems and Bold count the text's markdown headers, list
	// items and bold spans outside code blocks (read only for studies with
	// pairwise judgments, for their style control; HasStyle says they were).
	Headers, ListItems, Bold int32
	HasStyle                 bool
}

// Reference is an expert-written answer to a question.
type Reference struct {
	QuestionID string
	ID         string
	Author     string
	Text       string
	Graded     bool
}

// Verdict is one checklist verdict.
type Verdict int8

// Verdicts. VerdictNone marks an item with no verdict (only possible for judges).
const (
	VerdictNone Verdict = iota
	Hit
	Partial
	Miss
	NA
)

// Grading is one evaluator's grading of one response in one round (and, for
// judges, one run).
type Grading struct {
	Evaluator  string
	Kind       string // Human or Judge
	Round      string
	Run        string // "" for humans and single-run judges
	QuestionID string
	Model      string
	// Rubric holds one score per Study.Attributes entry; NaN = missing
	// (judges only; human gradings are complete after validation).
	Rubric []float64
	// Verdicts holds one verdict per checklist item of the question
	// (Verdicts[0] is item 1); nil when the study has no checklist.
	Verdicts []Verdict
	// Rank is the evaluator's preference rank (1 = best); 0 when not ranked.
	Rank int
	// Position is where the response was shown to the grader among the
	// question's responses (1 = shown first), from the grading row's
	// position column or the blinding file; 0 when not known.
	Position int
	// Label is the blinded label under which the grader saw the response
	// (gradings.label): the label the grading row names (resolved to Model
	// through the blinding file), else the blinding file's label of the
	// question and model for this evaluator, then for every evaluator; ""
	// when neither has one.
	Label   string
	Comment string
	// The grading's tags (extra columns of its row) are in
	// Study.GradingTags, not here: no analysis reads them, and a field
	// would cost 24 bytes on every grading (see Study.TagsOf).
}

// GradingTag is one extra column value of a grading row (table
// grading_tags).
type GradingTag struct {
	Grading int // index into Study.Gradings
	Tag
}

// TagsOf returns the tags of grading i (an index into s.Gradings) in their
// file order; nil when it has none.
func (s *Study) TagsOf(i int) []Tag {
	lo, _ := slices.BinarySearchFunc(s.GradingTags, i, func(t GradingTag, i int) int { return cmp.Compare(t.Grading, i) })
	var out []Tag
	for k := lo; k < len(s.GradingTags) && s.GradingTags[k].Grading == i; k++ {
		out = append(out, s.GradingTags[k].Tag)
	}
	return out
}

// GateRun is one cell of the difficulty gate: one automatic run on one item.
type GateRun struct {
	QuestionID string
	Run        string
	Item       int
	Passed     bool
}

// GateItem is the difficulty gate's tally of one checklist item of one
// question: how many automatic runs judged it and how many of them passed
// it (28 bytes, against 48 per run for GateRun).
type GateItem struct {
	QuestionID string
	Item       int32 // checklist item (1..n)
	Runs       int32 // gate cells of the item: the runs that judged it
	Passed     int32 // cells passed
}

// Gate returns the difficulty gate per (question, item), sorted by
// (QuestionID, Item): s.GateItems when it has any, else s.GateRuns tallied
// (TallyGate); nil when the study has no gate.
func (s *Study) Gate() []GateItem {
	if len(s.GateItems) > 0 {
		return s.GateItems
	}
	return TallyGate(s.GateRuns)
}

// TallyGate counts the cells and the passed cells of runs per (question,
// item), sorted by (QuestionID, Item) in byte order; runs may come in any
// order. A tally saturates at the largest int32 (2,147,483,647 cells).
func TallyGate(runs []GateRun) []GateItem {
	if len(runs) == 0 {
		return nil
	}
	type key struct {
		q    string
		item int
	}
	at := make(map[key]int, len(runs)/4)
	var out []GateItem
	for _, r := range runs {
		k := key{r.QuestionID, r.Item}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, GateItem{QuestionID: r.QuestionID, Item: int32(r.Item)})
		}
		g := &out[i]
		if g.Runs < math.MaxInt32 {
			g.Runs++
			if r.Passed {
				g.Passed++
			}
		}
	}
	slices.SortFunc(out, func(a, b GateItem) int {
		if c := strings.Compare(a.QuestionID, b.QuestionID); c != 0 {
			return c
		}
		return cmp.Compare(a.Item, b.Item)
	})
	return out
}

// Criterion is one weighted rubric criterion (PRBench).
type Criterion struct {
	QuestionID string
	ID         string
	Text       string
	Weight     int // non-zero, −10..10
	Category   string
}

// CriterionGrade is one grader's met/not-met grade of one criterion on one response.
type CriterionGrade struct {
	Evaluator   string
	Kind        string
	QuestionID  string
	Model       string
	CriterionID string
	Met         bool
}

// Preference is the verdict of one pairwise comparison.
type Preference int8

// Preferences: PreferA means the answer shown first (Comparison.ModelA) is
// better, PreferB the second, Tie neither.
const (
	Tie Preference = iota
	PreferA
	PreferB
)

// Comparison is one grader's judgment of two answers to one question, shown
// side by side: which is better, or a tie.
type Comparison struct {
	Evaluator  string
	Kind       string // Human or Judge
	Round      string
	Run        string // "" for humans and single-run judges
	QuestionID string
	// ModelA is the model whose answer was shown first, ModelB the other
	// (never equal).
	ModelA, ModelB string
	Winner         Preference
	Comment        string
	// PositionUnknown says the order shown is unknown (the position column
	// was empty or unknown): ModelA and ModelB are as written, and the
	// judgment is left out of position analyses only.
	PositionUnknown bool
}
