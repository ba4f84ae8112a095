// Package report holds the Report model: the named tables, figures and
// per-question pages that the analysis produces and that the writers in
// report/csvout, report/xlsx and report/site render. The model carries data
// only; nothing in report or its sub-packages computes a statistic.
package report

import "time"

// Report is everything one run of the analysis produced.
type Report struct {
	// Title is the study title (study.toml `title`, default "EuroExec").
	Title string
	// Version is the tool version that made the report.
	Version string
	// GeneratedAt is when the run started. It appears in the workbook's About
	// sheet and the site's footer, never in tables/*.csv.
	GeneratedAt time.Time
	// Settings are the effective study settings, in display order.
	Settings []KV
	// Inputs lists every input file with its checksum.
	Inputs []InputFile
	// Overview is the study at a glance.
	Overview Overview
	// Attributes are the rubric attribute names in study order.
	Attributes []string
	// Tables are the analysis tables, each written to tables/<Name>.csv.
	Tables []*Table
	// Figures are the charts; each refers to the table that holds its data.
	Figures []*Figure
	// Questions are the per-question pages, in question id order.
	Questions []*QuestionPage
	// Notes say which tables were left out and why, and other remarks
	// (written as tables/notes.csv).
	Notes []Note
	// Warnings are the non-fatal problems found while loading and analysing.
	Warnings []string
}

// KV is one named setting or tag.
type KV struct {
	Key   string
	Value string
}

// InputFile is one file of the study folder as it was read.
type InputFile struct {
	Path   string // relative to the study folder, with forward slashes
	SHA256 string // hex
	Rows   int64
}

// Overview counts what the study holds and which instruments it has.
//
// The counts have one definition each, computed by the analysis; every
// writer shows these numbers and never recounts:
//   - Models counts the evaluated models: the human label (expert answers
//     graded like a model's) is not one, see HumanLabel; it equals the rows
//     of Table 3 (tables/models.csv) whose human_label is "no".
//   - HumanGraders counts people: the distinct human evaluators with at
//     least one grading (Table 1's Total evaluators when every evaluator
//     has a domain or graded a question).
//   - Gradings counts every grading, human and judge, every round, with a
//     judge's runs on one response averaged into one; it is the sum of
//     Table 3's gradings column and of HumanGradings and JudgeGradings.
//     The per-model human gradings of the summary (n_gradings, set all) are
//     Table 3's human_gradings. analysis.CountGradings is the one count of
//     gradings and graders; a comparison's overview (compare.Overview)
//     sums it over the runs.
type Overview struct {
	Questions int
	Models    int // evaluated models, the human label not counted
	// HumanLabel is the display name (else the name) of the human label
	// when expert answers were graded as a model; "" when they were not.
	HumanLabel   string
	Domains      int
	HumanGraders int // distinct human evaluators (people) with a grading
	Judges       int // distinct LLM judges with a grading
	Gradings     int // human and judge gradings after judge runs are averaged
	// HumanGradings and JudgeGradings split Gradings by grader kind.
	HumanGradings, JudgeGradings int
	// Instruments present, from "rubric", "checklist", "ranking",
	// "references", "judges", "criteria", "gate", "cost", "pairwise".
	Instruments []string
	// Missing lists the instruments the study does not have.
	Missing []string
}

// Section names used by tables and figures; the site has one page per section.
const (
	SectionOverview    = "overview"
	SectionDataset     = "dataset"
	SectionRubric      = "rubric"
	SectionChecklist   = "checklist"
	SectionConsistency = "consistency"
	SectionAutomatic   = "automatic"
	SectionJudges      = "judges"
	SectionCost        = "cost"
	SectionPRBench     = "prbench"
	SectionJudgeAudit  = "judge_audit"
	SectionBeyond      = "beyond"
	SectionPairwise    = "pairwise"
	// SectionCompare holds the tables and figures of `euroexec compare`.
	SectionCompare = "compare"
)

// ColumnKind says how a column's values are typed and displayed.
type ColumnKind int

const (
	// Text columns hold strings.
	Text ColumnKind = iota
	// Int columns hold int64 counts or ranks.
	Int
	// Float columns hold float64 values shown with a decimal format.
	Float
	// Fraction columns hold float64 proportions in [0,1], shown as percent.
	Fraction
	// Link columns hold the relative address of a page (a string, "" for
	// none), e.g. "../../round1/site/questions/q1.html" from the site
	// folder; the site shows it as a link, CSV and workbook as text.
	Link
)

// Column describes one column of a Table.
type Column struct {
	Name string // snake_case, stable: scripts rely on it
	Kind ColumnKind
	Doc  string // one line for docs/OUTPUTS.md and header tooltips
	// Header, when set, is the header people read in the workbook and the
	// site in place of the one derived from Name (format.Header): a name
	// that means different things in two tables ("bleu": sentence BLEU in
	// text_metrics, corpus BLEU in corpus_metrics) is headed for its table.
	Header string
}

// Table is one analysis table. Each row has one value per column; a value is
// nil (undefined: an empty cell), a string, an int64, a float64 (NaN is
// written as an empty cell) or a bool.
type Table struct {
	Name    string // file stem: tables/<Name>.csv; also the workbook sheet (cut to 31 characters)
	Title   string // e.g. "Table 4: Summary of results"
	Section string // one of the Section… constants
	Doc     string // what the table shows, in a sentence or two
	Columns []Column
	Rows    [][]any
	// Paged asks the site to show every row, in pages of its row cap: the
	// first on the section page, the others on pages of their own linked
	// previous/next like the question pages (per-segment tables). Without
	// it the site shows the first rows and points to the CSV.
	Paged bool
}

// Index returns the position of the column called name, or -1 when t has
// none. Code that reads a table reads it by column name, never by position.
func (t *Table) Index(name string) int {
	for i, c := range t.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// Get returns the cell of row in the column called name, or nil when t has
// no such column or row is shorter.
func (t *Table) Get(row []any, name string) any {
	if i := t.Index(name); i >= 0 && i < len(row) {
		return row[i]
	}
	return nil
}

// FigureKind is the chart type.
type FigureKind string

// Figure kinds.
const (
	Bar       FigureKind = "bar"       // categories on x, one bar per series; optional error bars
	Line      FigureKind = "line"      // categories or numbers on x
	Scatter   FigureKind = "scatter"   // x/y points per series, optional reference lines
	Heatmap   FigureKind = "heatmap"   // Categories × YCategories cells
	Histogram FigureKind = "histogram" // like Bar, the categories are bins
)

// Figure is one chart; the data it draws is also in Table.
type Figure struct {
	ID      string // stable chart id, e.g. "fig1_solve_rate_by_difficulty"
	Section string
	Title   string
	Kind    FigureKind
	XName   string
	YName   string
	XUnit   string // e.g. "%", "USD", "characters"; empty when unitless
	YUnit   string
	// Percent says the y values are fractions to be shown as percent.
	Percent bool
	// LogX draws the x axis on a log scale (Fig. 3).
	LogX bool
	// LogY draws the y axis on a log scale, for values that span orders of
	// magnitude such as p-values (points with y ≤ 0 are left out and
	// counted). Default false.
	LogY bool
	// Dots draws a Bar figure's values as dots with their intervals instead
	// of bars from zero: for quantities whose zero means nothing (ranks,
	// Elo or Bradley–Terry ratings). Default false.
	Dots bool
	// InverseY runs the y axis downwards, for values where lower is
	// better (rank 1 on top). Default false.
	InverseY bool
	// Table names the table (Table.Name) that holds the figure's data.
	Table string
	// Categories are the x-axis categories for Bar, Line, Histogram and Heatmap.
	Categories []string
	// YCategories are the y-axis categories of a Heatmap.
	YCategories []string
	Series      []Series
	// Lines are reference lines such as y = x or a least-squares fit.
	Lines []RefLine
}

// Series is one named series of a Figure.
type Series struct {
	Name string
	// Values are per category (Bar, Line, Histogram); NaN is a gap.
	Values []float64
	// Lo and Hi are optional error-bar ends per category.
	Lo, Hi []float64
	// SD says Lo and Hi are the mean ± 1 standard deviation (the spread
	// of the data), not a confidence interval: they are drawn and named
	// differently.
	SD bool
	// N is optional, per category, the observations (questions) behind
	// the value (gradings or questions): an interval from fewer than 2,
	// or of zero width, is not drawn and the
	// chart shows n instead.
	N []int
	// Points are the x/y points of a Scatter or numeric Line.
	Points []Point
	// Cells are the cells of a Heatmap.
	Cells []Cell
}

// Point is one scatter point; Label is shown in its tooltip.
type Point struct {
	X, Y  float64
	Label string
}

// Cell is one heatmap cell at (Categories[X], YCategories[Y]).
type Cell struct {
	X, Y  int
	Value float64
}

// RefLine is a straight line from (X1,Y1) to (X2,Y2), drawn over a scatter.
type RefLine struct {
	Name           string
	X1, Y1, X2, Y2 float64
}

// Note is one line of tables/notes.csv.
type Note struct {
	Table  string // the table or figure concerned
	Reason string
}

// QuestionPage is one question with everything graded on it.
type QuestionPage struct {
	ID         string
	Domain     string
	Difficulty string
	Author     string
	// Prompt is the question's text; "" on a Summary page.
	Prompt string
	// Snippet is the prompt's line in the question index (study.PromptSnippet);
	// when "", the site makes it from Prompt.
	Snippet    string
	Tags       []KV
	Checklist  []string // item i+1's text
	References []ReferenceText
	Responses  []ResponseView
	// Summary marks a question that is listed in the site's question index
	// but has no page of its own (a study above [site] question_pages):
	// Prompt, Tags, Checklist, References and Responses are then empty
	// (Snippet is the index's line), and NResponses and NGradings count
	// what the question has.
	Summary               bool
	NResponses, NGradings int
	// Featured says why the question has a page when pages were selected
	// (FeaturedUnsolved, FeaturedDisagreement or FeaturedSample); "" when
	// every question has one.
	Featured string
	// SolveRate is the share of the question's human gradings (main round
	// and others alike) that count as solved; NaN when it has none. Solved
	// and Graded are its numerator and denominator.
	SolveRate      float64
	Solved, Graded int
	// Disagreement is the mean, over the question's responses with two or
	// more human gradings, of the range (highest minus lowest) of their mean
	// rubric scores, in rubric points; NaN when no response has two.
	Disagreement float64
}

// Reasons a question has a page in a study above the page limit.
const (
	FeaturedUnsolved     = "unsolved by every model"
	FeaturedDisagreement = "largest grader disagreement"
	FeaturedSample       = "random sample"
)

// ReferenceText is an expert-written answer.
type ReferenceText struct {
	ID     string
	Author string
	Text   string
	Graded bool
}

// ResponseView is one model's response to a question and its gradings.
type ResponseView struct {
	Model   string
	Text    string // whole; empty when the dumps lack it
	HasText bool
	Chars   int
	Words   int
	// Labels are the blinded labels the graders saw the response under
	// (GradingView.Label), distinct and sorted; empty when no grading has
	// a label.
	Labels   []string
	Gradings []GradingView
}

// GradingView is one grader's grading of one response.
type GradingView struct {
	Evaluator string
	Kind      string // "human" or "judge"
	Round     string
	// Rubric holds one score per Report.Attributes entry; NaN = missing.
	Rubric        []float64
	RubricMean    float64  // NaN when undefined
	ChecklistRate float64  // NaN when undefined
	Verdicts      []string // per checklist item: hit, partial, miss, na or ""
	Rank          int      // 0 = not ranked
	Solved        bool
	Comment       string
	// Label is the blinded label under which this grader saw the response:
	// the one the grading row wrote, else the blinding file's for its
	// question and model ("" when neither has one).
	Label string
}

// Part is what one analysis adds to a Report: its tables, figures, notes
// and warnings.
type Part struct {
	// Tables are the tables made (none when the study gives nothing to compute).
	Tables []*Table
	// Figures are the charts; each names its table.
	Figures []*Figure
	// Notes say what was left out and why.
	Notes []Note
	// Warnings are non-fatal findings.
	Warnings []string
}

// Add appends a part's tables, figures, notes and warnings to the report.
func (r *Report) Add(p Part) {
	r.Tables = append(r.Tables, p.Tables...)
	r.Figures = append(r.Figures, p.Figures...)
	r.Notes = append(r.Notes, p.Notes...)
	r.Warnings = append(r.Warnings, p.Warnings...)
}

// Table returns the table with the given name, or nil.
func (r *Report) Table(name string) *Table {
	for _, t := range r.Tables {
		if t.Name == name {
			return t
		}
	}
	return nil
}
