// Package reporttest builds report.Report values by hand for the tests and
// benchmarks of the report writers (csvout, xlsx, site). Nothing here is
// computed from data: every number is written out literally, so a writer's
// test can compare its output with values it can see.
package reporttest

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/euroexec/euroexec/report"
)

// XSSModel is a model name that would run script if a writer emitted it as
// HTML.
const XSSModel = `<img src=x onerror=alert(1)>`

// XSSLabel is a blinded label that would be markup if a writer emitted it
// as HTML unescaped.
const XSSLabel = `<u>A</u>`

// ScriptPrompt is the prompt of question q1: it tries to close a <script>
// element.
const ScriptPrompt = "Explain this snippet: </script><script>alert('prompt')</script> and answer in two lines."

// FormulaAnswer is a response text that a spreadsheet would run as a formula.
const FormulaAnswer = `=HYPERLINK("http://x")`

// LongChars is the length in characters of the long response of q1.
const LongChars = 40000

// LongText returns the long response: LongChars characters, a recognisable
// head and tail.
func LongText() string {
	head := "LONG-START "
	tail := " LONG-END"
	return head + strings.Repeat("x", LongChars-len(head)-len(tail)) + tail
}

// GeneratedAt is the fixed run time of the test report.
var GeneratedAt = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Small returns the test report: three models (one with an XSS name), two
// questions (one prompt with </script>, a formula-looking answer, a
// 40,000-character response), a summary table, a bar figure with error bars,
// a scatter with reference lines, a heatmap and a log-x line chart.
func Small() *report.Report {
	nan := math.NaN()
	models := []string{"alpha", XSSModel, "gamma & co"}
	r := &report.Report{
		Title:       "Test study <b>bold</b>",
		Version:     "v0.0.0-test",
		GeneratedAt: GeneratedAt,
		Settings: []report.KV{
			{Key: "rubric.attributes", Value: "Domain, Localization, Reasoning"},
			{Key: "solve.checklist_threshold", Value: "0.6"},
		},
		Inputs: []report.InputFile{
			// sha256("questions") and sha256("grades") written out.
			{Path: "questions.csv", SHA256: "d9b3a3cd7bd5b2e4e63ac7c8b1e6e8bb0d6b5cfad6ebbaa2d1b0bd3d0a1b2c3d", Rows: 2},
			{Path: "grades/humans/main/a.xlsx", SHA256: "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0", Rows: 12},
		},
		Overview: report.Overview{
			Questions: 2, Models: 3, Domains: 2, HumanGraders: 2, Judges: 1, Gradings: 12, HumanGradings: 6, JudgeGradings: 6,
			Instruments: []string{"rubric", "checklist", "ranking", "references", "judges"},
			Missing:     []string{"criteria", "gate", "cost"},
		},
		Attributes: []string{"Domain", "Localization", "Reasoning"},
		Notes: []report.Note{
			{Table: "cost_vs_solve", Reason: "no cost_usd or token prices: cost figures left out"},
		},
		Warnings: []string{"judge J1 missed 1 rubric score (excluded)"},
	}

	tiny := &report.Table{
		Name: "tiny", Title: "Tiny table", Section: report.SectionDataset,
		Doc: "A small table of every column kind.",
		Columns: []report.Column{
			{Name: "name", Kind: report.Text, Doc: "a name"},
			{Name: "count", Kind: report.Int, Doc: "a count"},
			{Name: "mean", Kind: report.Float, Doc: "a mean"},
			{Name: "share", Kind: report.Fraction, Doc: "a share"},
			{Name: "flag", Kind: report.Text, Doc: "a flag"},
		},
		Rows: [][]any{
			{"a", int64(3), 0.1, 0.5, true},
			{"b, with comma", int64(-2), 1e-7, nan, false},
			{`say "hi"`, nil, 2.5e21, 1.0, nil},
		},
	}

	summary := &report.Table{
		Name: "summary", Title: "Table 4: Summary of results", Section: report.SectionOverview,
		Doc: "Per model: Solve Rate, rank, win share, rubric and checklist with 95 % intervals.",
		Columns: []report.Column{
			{Name: "set", Kind: report.Text, Doc: "all or reference_subset"},
			{Name: "graders", Kind: report.Text, Doc: "humans or judge:<name>"},
			{Name: "model", Kind: report.Text, Doc: "model name"},
			{Name: "n_gradings", Kind: report.Int, Doc: "gradings"},
			{Name: "solve_rate", Kind: report.Fraction, Doc: "Solve Rate"},
			{Name: "solve_rate_lo", Kind: report.Fraction, Doc: "lower end"},
			{Name: "solve_rate_hi", Kind: report.Fraction, Doc: "upper end"},
			{Name: "avg_rank", Kind: report.Float, Doc: "mean rank"},
			{Name: "rubric", Kind: report.Float, Doc: "mean rubric"},
		},
		Rows: [][]any{
			{"all", "humans", "alpha", int64(4), 0.75, 0.5, 1.0, 1.25, 3.5},
			{"all", "humans", XSSModel, int64(4), 0.5, 0.25, 0.75, 2.0, 3.0},
			{"all", "humans", "gamma & co", int64(4), 0.25, 0.0, 0.5, 2.75, nan},
		},
	}

	byDiff := &report.Table{
		Name: "solve_rate_by_difficulty", Title: "Figure 1: Solve Rate by difficulty", Section: report.SectionRubric,
		Doc: "Solve Rate per model and difficulty.",
		Columns: []report.Column{
			{Name: "model", Kind: report.Text, Doc: "model"},
			{Name: "difficulty", Kind: report.Text, Doc: "difficulty bin"},
			{Name: "solve_rate", Kind: report.Fraction, Doc: "Solve Rate"},
		},
	}
	diffs := []string{"Hard", "Medium", "Easy"}
	vals := [][]float64{{0.5, 0.75, 1}, {0.25, 0.5, 0.75}, {0, 0.25, nan}}
	for i, m := range models {
		for j, d := range diffs {
			byDiff.Rows = append(byDiff.Rows, []any{m, d, vals[i][j]})
		}
	}

	judge := &report.Table{
		Name: "judge_vs_human", Title: "Table 9: Judge vs human", Section: report.SectionJudges,
		Doc: "Human and judge Solve Rate per model.",
		Columns: []report.Column{
			{Name: "model", Kind: report.Text, Doc: "model"},
			{Name: "human_solve_rate", Kind: report.Fraction, Doc: "human"},
			{Name: "judge_solve_rate", Kind: report.Fraction, Doc: "judge"},
		},
		Rows: [][]any{
			{"alpha", 0.75, 0.8},
			{XSSModel, 0.5, 0.625},
			{"gamma & co", 0.25, 0.5},
		},
	}

	heat := &report.Table{
		Name: "verdict_pairs", Title: "Figure 5: Verdict pairs", Section: report.SectionConsistency,
		Doc: "Share of verdict pairs per domain.",
		Columns: []report.Column{
			{Name: "domain", Kind: report.Text, Doc: "domain"},
			{Name: "pair", Kind: report.Text, Doc: "verdict pair"},
			{Name: "share", Kind: report.Fraction, Doc: "share of pairs"},
		},
	}
	domains := []string{"Finance", "Law"}
	pairs := []string{"yes-yes", "yes-no", "no-no"}
	shares := [][]float64{{0.5, 0.25, 0.25}, {0.625, 0.125, 0.25}}
	var cells []report.Cell
	for y, d := range domains {
		for x, p := range pairs {
			heat.Rows = append(heat.Rows, []any{d, p, shares[y][x]})
			cells = append(cells, report.Cell{X: x, Y: y, Value: shares[y][x]})
		}
	}

	curve := &report.Table{
		Name: "pvalue_curve", Title: "Figure 3: p-value vs sample size", Section: report.SectionConsistency,
		Doc: "Median p of adjacent pairs per number of questions.",
		Columns: []report.Column{
			{Name: "pair", Kind: report.Text, Doc: "model pair"},
			{Name: "n", Kind: report.Int, Doc: "questions"},
			{Name: "median_p", Kind: report.Float, Doc: "median p"},
		},
	}
	ns := []float64{10, 20, 50, 100, 200}
	ps := [][]float64{{0.5, 0.3, 0.08, 0.01, 0.0004}, {0.7, 0.6, 0.4, 0.2, 0.04}}
	pairNames := []string{"alpha vs " + XSSModel, XSSModel + " vs gamma & co"}
	var curveSeries []report.Series
	for i, pn := range pairNames {
		s := report.Series{Name: pn}
		for j, n := range ns {
			curve.Rows = append(curve.Rows, []any{pn, int64(n), ps[i][j]})
			s.Points = append(s.Points, report.Point{X: n, Y: ps[i][j]})
		}
		curveSeries = append(curveSeries, s)
	}

	responses := &report.Table{
		Name: "responses", Title: "Responses", Section: report.SectionCost,
		Doc: "Every response with its length.",
		Columns: []report.Column{
			{Name: "question_id", Kind: report.Text, Doc: "question"},
			{Name: "model", Kind: report.Text, Doc: "model"},
			{Name: "chars", Kind: report.Int, Doc: "length in characters"},
			{Name: "text", Kind: report.Text, Doc: "the response"},
		},
	}

	r.Tables = []*report.Table{summary, tiny, byDiff, judge, heat, curve, responses}

	solveFig := &report.Figure{
		ID: "fig_solve_rate", Section: report.SectionOverview, Title: "Solve Rate by model",
		Kind: report.Bar, XName: "Model", YName: "Solve Rate", YUnit: "%", Percent: true,
		Table: "summary", Categories: models,
		Series: []report.Series{{
			Name: "humans", Values: []float64{0.75, 0.5, 0.25},
			Lo: []float64{0.5, 0.25, 0}, Hi: []float64{1, 0.75, 0.5},
		}},
	}
	diffFig := &report.Figure{
		ID: "fig1_solve_rate_by_difficulty", Section: report.SectionRubric, Title: "Solve Rate by difficulty",
		Kind: report.Bar, XName: "Difficulty", YName: "Solve Rate", YUnit: "%", Percent: true,
		Table: "solve_rate_by_difficulty", Categories: diffs,
	}
	for i, m := range models {
		diffFig.Series = append(diffFig.Series, report.Series{Name: m, Values: vals[i]})
	}
	scatter := &report.Figure{
		ID: "fig_judge_vs_human", Section: report.SectionJudges, Title: "Judge vs human Solve Rate",
		Kind: report.Scatter, XName: "Human Solve Rate", YName: "Judge Solve Rate", XUnit: "%", YUnit: "%",
		Percent: true, Table: "judge_vs_human",
		Series: []report.Series{{Name: "models", Points: []report.Point{
			{X: 0.75, Y: 0.8, Label: "alpha"}, {X: 0.5, Y: 0.625, Label: XSSModel}, {X: 0.25, Y: 0.5, Label: "gamma & co"},
		}}},
		Lines: []report.RefLine{
			{Name: "y = x", X1: 0, Y1: 0, X2: 1, Y2: 1},
			{Name: "least squares", X1: 0, Y1: 0.3125, X2: 1, Y2: 0.9375},
		},
	}
	heatFig := &report.Figure{
		ID: "fig5_verdict_pairs", Section: report.SectionConsistency, Title: "Verdict pairs by domain",
		Kind: report.Heatmap, XName: "Verdict pair", YName: "Domain", Percent: true,
		Table: "verdict_pairs", Categories: pairs, YCategories: domains,
		Series: []report.Series{{Name: "share", Cells: cells}},
	}
	curveFig := &report.Figure{
		ID: "fig3_pvalue_curve", Section: report.SectionConsistency, Title: "Median p-value vs number of questions",
		Kind: report.Line, XName: "Questions", YName: "Median p", LogX: true, LogY: true,
		Table: "pvalue_curve", Series: curveSeries,
		Lines: []report.RefLine{{Name: "p = 0.05", X1: 10, Y1: 0.05, X2: 200, Y2: 0.05}},
	}
	r.Figures = []*report.Figure{solveFig, diffFig, scatter, heatFig, curveFig}

	q1 := &report.QuestionPage{
		ID: "q1", Domain: "Finance", Difficulty: "Hard", Author: "Ann <Author>",
		Prompt:    ScriptPrompt,
		Tags:      []report.KV{{Key: "decision_type", Value: "strategic"}},
		Checklist: []string{"Names the </script> risk", "Gives <b>two</b> lines"},
		References: []report.ReferenceText{
			{ID: "r1", Author: "Ann", Text: "Reference answer with <i>markup</i>.", Graded: true},
		},
	}
	texts := []string{FormulaAnswer, LongText(), "Short answer by gamma."}
	for i, m := range models {
		rv := report.ResponseView{Model: m, Text: texts[i], HasText: true, Chars: len([]rune(texts[i])), Words: len(strings.Fields(texts[i]))}
		for g, ev := range []string{"human_a", "judge:J1"} {
			kind := "human"
			if g == 1 {
				kind = "judge"
			}
			rv.Gradings = append(rv.Gradings, report.GradingView{
				Evaluator: ev, Kind: kind, Round: "main",
				Rubric:     []float64{float64(5 - i), float64(4 - i), nan},
				RubricMean: float64(9-2*i) / 2, ChecklistRate: 0.75 - 0.25*float64(i),
				Verdicts: []string{"hit", []string{"partial", "miss", "na"}[i]},
				Rank:     i + 1, Solved: i == 0,
				Comment: fmt.Sprintf("comment %d by %s: <script>alert(%d)</script>", i, ev, g),
			})
		}
		// the human grader saw the responses blinded; the first under a hostile label
		rv.Gradings[0].Label = []string{XSSLabel, "B", "C"}[i]
		rv.Labels = []string{rv.Gradings[0].Label}
		q1.Responses = append(q1.Responses, rv)
		responses.Rows = append(responses.Rows, []any{"q1", m, int64(rv.Chars), texts[i]})
	}
	q2 := &report.QuestionPage{
		ID: "q/2 weird id", Domain: "Law", Difficulty: "Easy", Prompt: "Second question.",
		Checklist: []string{"One item"},
		Responses: []report.ResponseView{{Model: "alpha", HasText: false}},
	}
	r.Questions = []*report.QuestionPage{q1, q2}
	return r
}

// PaperScale returns a report the size of the EuroExec study: 413
// questions, 6 models, answers of about answerChars characters, two human
// gradings per response, and the tables a full run writes (a gradings table of
// one row per grading). It is for benchmarks; its numbers mean nothing.
func PaperScale(answerChars int) *report.Report {
	r := Small()
	r.Questions = nil
	models := []string{"gpt-4o", "claude-3.5", "gemini-1.5", "llama-3.1-405b", "mistral-large", XSSModel}
	attrs := []string{"Domain", "Localization", "Reasoning", "Communication", "Actionability"}
	r.Attributes = attrs
	para := "The answer weighs the regulatory context, the tax treatment and the local market practice; it then recommends a course of action with its risks. "
	text := strings.Repeat(para, answerChars/len(para)+1)[:answerChars]
	gradings := &report.Table{
		Name: "gradings", Title: "Gradings", Section: report.SectionRubric,
		Doc: "One row per grading.",
		Columns: []report.Column{
			{Name: "question_id", Kind: report.Text}, {Name: "model", Kind: report.Text},
			{Name: "evaluator", Kind: report.Text}, {Name: "rubric_mean", Kind: report.Float},
			{Name: "checklist_rate", Kind: report.Fraction}, {Name: "rank", Kind: report.Int},
			{Name: "solved", Kind: report.Text}, {Name: "comment", Kind: report.Text},
		},
	}
	for q := 0; q < 413; q++ {
		qp := &report.QuestionPage{
			ID: fmt.Sprintf("Q%04d", q+1), Domain: []string{"Finance", "Law", "Health", "Public"}[q%4],
			Difficulty: []string{"Hard", "Medium", "Easy"}[q%3], Author: fmt.Sprintf("author%02d", q%30),
			Prompt:    strings.Repeat("What should the firm do about the new directive? ", 20),
			Checklist: []string{"Names the directive", "Gives the deadline", "Weighs the cost", "Recommends an action", "Names a risk"},
		}
		for mi, m := range models {
			rv := report.ResponseView{Model: m, Text: text, HasText: true, Chars: answerChars, Words: answerChars / 6}
			for g := 0; g < 2; g++ {
				ev := fmt.Sprintf("expert%02d", (q+g)%40)
				gv := report.GradingView{
					Evaluator: ev, Kind: "human", Round: "main",
					Rubric:     []float64{4, 3, 5, 4, 3},
					RubricMean: 3.8, ChecklistRate: 0.7,
					Verdicts: []string{"hit", "partial", "miss", "hit", "na"},
					Rank:     (mi+g)%len(models) + 1, Solved: true,
					Comment: "Solid answer, misses the deadline.",
				}
				rv.Gradings = append(rv.Gradings, gv)
				gradings.Rows = append(gradings.Rows, []any{qp.ID, m, ev, gv.RubricMean, gv.ChecklistRate, int64(gv.Rank), "true", gv.Comment})
			}
			qp.Responses = append(qp.Responses, rv)
		}
		r.Questions = append(r.Questions, qp)
	}
	r.Tables = append(r.Tables, gradings)
	return r
}
