package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/format"
)

// qRow is one line of the question index.
type qRow struct {
	ID, File, Domain, Difficulty, Author string
	Responses, Gradings                  int
	Snippet                              string
	Featured                             string // why it has a page, when pages were selected
	// DiffSort is the difficulty bin's place in the difficulty table
	// (hardest first); Solve and Dis the question's Solve Rate and
	// disagreement, with their raw values for sorting.
	DiffSort, Solve, SolveSort, Dis, DisSort string
}

func (b *builder) qrow(i int, q *report.QuestionPage) qRow {
	if q == nil {
		return qRow{File: b.qfiles[i]}
	}
	row := qRow{ID: q.ID, File: b.qfiles[i], Domain: q.Domain, Difficulty: q.Difficulty, Author: q.Author,
		Responses: len(q.Responses), Snippet: q.Snippet, Featured: q.Featured}
	if row.Snippet == "" {
		row.Snippet = cutText(strings.Join(strings.Fields(q.Prompt), " "), 160)
	}
	for _, r := range q.Responses {
		row.Gradings += len(r.Gradings)
	}
	if q.Summary {
		row.Responses, row.Gradings = q.NResponses, q.NGradings
	}
	if i, ok := b.diffOrder[q.Difficulty]; ok {
		row.DiffSort = strconv.Itoa(i)
	}
	row.Solve, row.Dis = format.Missing, format.Missing
	if q.Graded > 0 { // a page made without gradings has zero values here
		row.Solve, row.Dis = format.Percent(q.SolveRate), format.Points(q.Disagreement)
		if !math.IsNaN(q.SolveRate) {
			row.SolveSort = strconv.FormatFloat(q.SolveRate, 'g', -1, 64)
		}
		if !math.IsNaN(q.Disagreement) {
			row.DisSort = strconv.FormatFloat(q.Disagreement, 'g', -1, 64)
		}
	}
	return row
}

// writeIndexData writes the question index as JavaScript data files of
// IndexRows rows each, in question order, and returns their names
// relative to questions/. Each file appends its rows, JSON arrays [id,
// page file ("" = none), domain, difficulty, author, responses, gradings,
// prompt snippet, featured], to window.EUROEXEC_QUESTIONS; JSON encoding
// keeps any text a string (never code or HTML), and site.js puts it into
// the page as text only.
func (b *builder) writeIndexData(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("site: create %s: %w", dir, err)
	}
	var names []string
	n := len(b.r.Questions)
	for start := 0; start < n; start += b.opt.IndexRows {
		end := min(start+b.opt.IndexRows, n)
		rows := make([][]any, 0, end-start)
		for i := start; i < end; i++ {
			q := b.qrow(i, b.r.Questions[i])
			rows = append(rows, []any{q.ID, q.File, q.Domain, q.Difficulty, q.Author, q.Responses, q.Gradings, q.Snippet, q.Featured})
		}
		js, err := json.Marshal(rows)
		if err != nil {
			return nil, fmt.Errorf("site: question index: %w", err)
		}
		name := fmt.Sprintf("q-%04d.js", len(names))
		var buf bytes.Buffer
		buf.WriteString("(window.EUROEXEC_QUESTIONS = window.EUROEXEC_QUESTIONS || []).push.apply(window.EUROEXEC_QUESTIONS, ")
		buf.Write(js)
		buf.WriteString(");\n")
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			return nil, fmt.Errorf("site: write %s: %w", filepath.Join(dir, name), err)
		}
		names = append(names, "data/"+name)
	}
	return names, nil
}

// respView is one response with its gradings laid side by side: one column
// per grader, one line per attribute, score and checklist item.
type respView struct {
	Model, Anchor, Text string
	// Labels are the blinded labels the graders saw the response under,
	// joined ("A", or "A, C" when graders saw different labels).
	Labels       string
	HasText      bool
	Chars, Words int
	Graders      []report.GradingView
	Lines        []gradeLine
}

type gradeLine struct {
	Label, Doc, Class string
	Cells             []gradeCell
}

type gradeCell struct{ Text, Class string }

func (b *builder) questionPage(i int, q *report.QuestionPage) *pageData {
	p := b.base("question", "Question "+q.ID, "questions", "../")
	p.Q, p.Top = q, b.questionTop
	// previous and next among the questions with a page
	k := sort.SearchInts(b.pages, i)
	if k > 0 {
		p.Prev = b.qfiles[b.pages[k-1]]
	}
	if k+1 < len(b.pages) {
		p.Next = b.qfiles[b.pages[k+1]]
	}
	ids := map[string]bool{}
	for _, r := range q.Responses {
		rv := respView{Model: r.Model, Anchor: domID("response-", r.Model, ids), Text: r.Text, HasText: r.HasText || r.Text != "",
			Chars: r.Chars, Words: r.Words, Graders: r.Gradings, Labels: strings.Join(r.Labels, ", ")}
		p.HasLabels = p.HasLabels || len(r.Labels) > 0
		if len(r.Gradings) > 0 {
			rv.Lines = b.gradeLines(q, r.Gradings)
		}
		p.Responses = append(p.Responses, rv)
	}
	p.ResponseSections = responseSections(p.Responses)
	return p
}

func (b *builder) gradeLines(q *report.QuestionPage, gs []report.GradingView) []gradeLine {
	var lines []gradeLine
	line := func(label, doc, class string, f func(g report.GradingView) gradeCell) {
		l := gradeLine{Label: label, Doc: doc, Class: class}
		for _, g := range gs {
			l.Cells = append(l.Cells, f(g))
		}
		lines = append(lines, l)
	}
	for a, attr := range b.r.Attributes {
		line(attr, "rubric score", "rubric", func(g report.GradingView) gradeCell {
			if a < len(g.Rubric) {
				return gradeCell{Text: score(g.Rubric[a]), Class: "num"}
			}
			return gradeCell{Text: "—", Class: "num undef"}
		})
	}
	line("Rubric mean", "mean of the attribute scores", "summary", func(g report.GradingView) gradeCell {
		return gradeCell{Text: score(g.RubricMean), Class: "num"}
	})
	line("Checklist", "checklist rate", "summary", func(g report.GradingView) gradeCell {
		return gradeCell{Text: FormatPercent(g.ChecklistRate), Class: "num"}
	})
	nItems := len(q.Checklist)
	for _, g := range gs {
		nItems = max(nItems, len(g.Verdicts))
	}
	for it := 0; it < nItems; it++ {
		doc := ""
		if it < len(q.Checklist) {
			doc = q.Checklist[it]
		}
		line("C"+strconv.Itoa(it+1), doc, "verdict", func(g report.GradingView) gradeCell {
			v := ""
			if it < len(g.Verdicts) {
				v = g.Verdicts[it]
			}
			return verdictCell(v)
		})
	}
	line("Rank", "1 = best", "summary", func(g report.GradingView) gradeCell {
		if g.Rank == 0 {
			return gradeCell{Text: "—", Class: "num undef"}
		}
		return gradeCell{Text: strconv.Itoa(g.Rank), Class: "num"}
	})
	line("Solved", "", "summary", func(g report.GradingView) gradeCell {
		if g.Solved {
			return gradeCell{Text: "yes", Class: "solved"}
		}
		return gradeCell{Text: "no", Class: "unsolved"}
	})
	for _, g := range gs {
		if g.Label != "" {
			line("Label", "the blinded label this grader saw the response under", "summary", func(g report.GradingView) gradeCell {
				if g.Label == "" {
					return gradeCell{Text: "—", Class: "undef"}
				}
				return gradeCell{Text: g.Label, Class: "label"}
			})
			break
		}
	}
	line("Comment", "", "comment", func(g report.GradingView) gradeCell {
		return gradeCell{Text: g.Comment, Class: "comment"}
	})
	return lines
}

func verdictCell(v string) gradeCell {
	switch v {
	case "hit":
		return gradeCell{Text: "✓ hit", Class: "v-hit"}
	case "partial":
		return gradeCell{Text: "½ partial", Class: "v-partial"}
	case "miss":
		return gradeCell{Text: "✗ miss", Class: "v-miss"}
	case "na":
		return gradeCell{Text: "n/a", Class: "v-na"}
	case "":
		return gradeCell{Text: "—", Class: "undef"}
	default:
		return gradeCell{Text: v}
	}
}

// score shows a rubric score with at most two decimals; NaN is "—".
func score(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "—"
	}
	return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64)
}

// writeQuestions writes one page per question with opt.Workers goroutines;
// it is writeAll's question part alone.
func (b *builder) writeQuestions(dir string) error {
	jobs, err := b.questionJobs(dir)
	if err != nil {
		return err
	}
	return b.runJobs(jobs)
}

// questionJobs renders the header and navigation shared by every question
// page (into b.questionTop) and returns one job per question page.
func (b *builder) questionJobs(dir string) ([]func() error, error) {
	n := len(b.pages)
	if n == 0 {
		return nil, nil
	}
	var top bytes.Buffer
	if err := tmpl.ExecuteTemplate(&top, "top", b.base("question", "", "questions", "../")); err != nil {
		return nil, fmt.Errorf("site: render the question pages' header: %w", err)
	}
	b.questionTop = template.HTML(top.String())
	jobs := make([]func() error, n)
	for i, qi := range b.pages {
		jobs[i] = func() error {
			q := b.r.Questions[qi]
			if q == nil {
				return fmt.Errorf("site: question %d is nil", qi)
			}
			return b.render(filepath.Join(dir, b.qfiles[qi]), b.questionPage(qi, q))
		}
	}
	return jobs, nil
}
