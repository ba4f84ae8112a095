package tables

import (
	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report"
)

// paperDataset presents the description of the study: Tables 1 (domains),
// 2 (difficulty), 3 (models), 12 (gate_items, gate_questions), the
// descriptives, and Figure 1 (solve_rate_by_difficulty) with its table; a
// table the analysis left out (nil rows) is absent.
func paperDataset(d paper.Dataset) report.Part {
	var p report.Part
	add := func(t *report.Table) { p.Tables = append(p.Tables, t) }
	if d.Domains != nil {
		add(paperDomains(d.Domains, d.Total))
	}
	if d.Difficulty != nil {
		add(paperDifficulty(d.Difficulty))
	}
	if d.Models != nil {
		add(paperModels(d.Models))
	}
	if d.GateItems != nil {
		add(paperGateItems(d.GateItems))
		add(paperGateQuestions(d.GateQuestions))
	}
	if d.Descriptives != nil {
		add(paperDescriptives(d.Descriptives))
	}
	if d.SolveByDifficulty != nil {
		t, f := paperSolveByDifficulty(d.SolveByDifficulty, d.Difficulties)
		add(t)
		p.Figures = append(p.Figures, f)
	}
	return p
}

func paperDomains(rows []paper.DomainRow, total paper.DomainRow) *report.Table {
	t := &report.Table{Name: "domains", Title: "Table 1: Experts and questions per domain", Section: report.SectionDataset,
		Doc: "Distinct experts (question authors and human evaluators of the domain; an author and an evaluator with the same id are one person) and questions per domain.",
		Columns: []report.Column{
			paperCol("domain", report.Text, "question domain; Total = all domains (a person in two domains counts once)"),
			paperCol("experts", report.Int, "distinct authors and human evaluators of the domain"),
			paperCol("authors", report.Int, "distinct question authors"),
			paperCol("evaluators", report.Int, "distinct human evaluators"),
			paperCol("questions", report.Int, "questions"),
		}}
	for _, r := range append(rows[:len(rows):len(rows)], total) {
		t.Rows = append(t.Rows, []any{r.Domain, r.Experts, r.Authors, r.Evaluators, r.Questions})
	}
	return t
}

func paperDifficulty(rows []paper.DifficultyRow) *report.Table {
	t := &report.Table{Name: "difficulty", Title: "Table 2: Questions per difficulty", Section: report.SectionDataset,
		Doc: "Questions per difficulty bin of the difficulty gate (share of checklist items passed by the automatic runs; upper bounds inclusive).",
		Columns: []report.Column{
			paperCol("difficulty", report.Text, "bin name; Above gate = score above the last bin; unknown = no difficulty or gate score"),
			paperCol("gate_from", report.Fraction, "lower end of the bin's gate score range (exclusive except for the first bin)"),
			paperCol("gate_to", report.Fraction, "upper end of the bin's gate score range (inclusive)"),
			paperCol("questions", report.Int, "questions in the bin"),
		}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.Difficulty, r.GateFrom, r.GateTo, r.Questions})
	}
	return t
}

func paperModels(rows []paper.ModelRow) *report.Table {
	t := &report.Table{Name: "models", Title: "Table 3: Evaluated models", Section: report.SectionDataset,
		Doc: "The models with their provider, display name, prices and counts.",
		Columns: []report.Column{
			paperCol("model", report.Text, "model name"),
			paperCol("display_name", report.Text, "display name"),
			paperCol("provider", report.Text, "provider"),
			paperCol("human_label", report.Text, "yes for the graded expert answer"),
			paperCol("usd_per_1k_input", report.Float, "USD per 1,000 input tokens"),
			paperCol("usd_per_1k_output", report.Float, "USD per 1,000 output tokens"),
			paperCol("responses", report.Int, "responses in the dumps"),
			paperCol("gradings", report.Int, "every grading of the model: human and judge, every round (judge runs averaged); the column sums to the overview's gradings"),
			paperCol("human_gradings", report.Int, "human gradings in the main round: the gradings the summary's n_gradings counts (set all, humans)"),
			paperCol("solve_gradings", report.Int, "of human_gradings, those with a defined solved flag: the denominator of the model's Solve Rate"),
			paperCol("judge_gradings", report.Int, "judge gradings, every round (judge runs averaged)"),
		}}
	for _, r := range rows {
		lbl := "no"
		if r.HumanLabel {
			lbl = "yes"
		}
		t.Rows = append(t.Rows, []any{r.Model, r.DisplayName, r.Provider, lbl, r.USDPer1kInput, r.USDPer1kOutput, r.Responses,
			r.Gradings, r.HumanGradings, r.SolveGradings, r.JudgeGradings})
	}
	return t
}

// paperGateItems is Table 12. Its rows share one backing array, each
// question id is boxed once for all its items and each distinct
// fulfilment once (a handful of values over a million rows at 200,000
// questions).
func paperGateItems(rows []paper.GateItemRow) *report.Table {
	t := &report.Table{Name: "gate_items", Title: "Table 12: Difficulty-gate fulfilment per checklist item", Section: report.SectionDataset,
		Doc: "For each question and checklist item, the share of automatic gate runs that passed it.",
		Columns: []report.Column{
			paperCol("question_id", report.Text, "question"),
			paperCol("item", report.Int, "checklist item (1..n)"),
			paperCol("runs", report.Int, "gate runs on the item"),
			paperCol("passed", report.Int, "runs that passed the item"),
			paperCol("fulfilment", report.Fraction, "passed / runs"),
		}}
	fr := paperBoxes[[2]int64]{}
	slab := make([]any, 0, 5*len(rows))
	t.Rows = make([][]any, 0, len(rows))
	var qid any
	for i, g := range rows {
		if i == 0 || g.QuestionID != rows[i-1].QuestionID {
			qid = g.QuestionID
		}
		f := fr.box([2]int64{g.Passed, g.Runs}, func() any { return g.Fulfilment })
		n := len(slab)
		slab = append(slab, qid, g.Item, g.Runs, g.Passed, f)
		t.Rows = append(t.Rows, slab[n:n+5:n+5])
	}
	return t
}

func paperGateQuestions(rows []paper.GateQuestionRow) *report.Table {
	t := &report.Table{Name: "gate_questions", Title: "Difficulty-gate score per question", Section: report.SectionDataset,
		Doc: "Per question, the gate score (passed cells / all cells over runs and items) and the difficulty used.",
		Columns: []report.Column{
			paperCol("question_id", report.Text, "question"),
			paperCol("cells", report.Int, "gate cells (runs × items)"),
			paperCol("passed", report.Int, "cells passed"),
			paperCol("gate_score", report.Fraction, "passed / cells"),
			paperCol("difficulty", report.Text, "difficulty bin used by the report"),
		}}
	fr := paperBoxes[[2]int64]{}
	diff := paperBoxes[string]{}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.QuestionID, r.Cells, r.Passed,
			fr.box([2]int64{r.Passed, r.Cells}, func() any { return r.Score }), diff.box(r.Difficulty, func() any { return r.Difficulty })})
	}
	return t
}

func paperDescriptives(rows []paper.DescriptiveRow) *report.Table {
	t := &report.Table{Name: "descriptives", Title: "Dataset descriptives", Section: report.SectionDataset,
		Doc: "Lengths of prompts, responses and references (Unicode code points and whitespace-separated words) and checklist sizes.",
		Columns: []report.Column{
			paperCol("measure", report.Text, "prompt_chars, prompt_words, checklist_items, response_chars, response_words, reference_chars, reference_words"),
			paperCol("group", report.Text, "all, or the model for responses"),
			paperCol("n", report.Int, "number of values"),
			paperCol("mean", report.Float, "mean"),
			paperCol("sd", report.Float, "standard deviation (n − 1)"),
			paperCol("median", report.Float, "median"),
			paperCol("min", report.Float, "smallest value"),
			paperCol("max", report.Float, "largest value"),
		}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.Measure, r.Group, r.N, r.Mean, r.SD, r.Median, r.Min, r.Max})
	}
	return t
}

func paperSolveByDifficulty(rows []paper.DifficultySolveRow, order []string) (*report.Table, *report.Figure) {
	t := &report.Table{Name: "solve_rate_by_difficulty", Title: "Figure 1: Solve Rate by difficulty", Section: report.SectionOverview,
		Doc: "Solve Rate per model and difficulty bin over the human gradings of the main round, with 95 % cluster-bootstrap intervals.",
		Columns: []report.Column{
			paperCol("difficulty", report.Text, "difficulty bin"),
			paperCol("model", report.Text, "model"),
			paperCol("n_gradings", report.Int, "gradings with a defined solved flag"),
			paperCol("solve_rate", report.Fraction, "share of gradings solved"),
			paperCol("solve_rate_lo", report.Fraction, "95 % interval, lower end"),
			paperCol("solve_rate_hi", report.Fraction, "95 % interval, upper end"),
		}}
	f := &report.Figure{ID: "fig1_solve_rate_by_difficulty", Section: report.SectionOverview,
		Title: "Figure 1: Solve Rate by question difficulty", Kind: report.Bar, XName: "difficulty",
		YName: "Solve Rate", YUnit: "%", Percent: true, Table: t.Name, Categories: order}
	for i, r := range rows {
		t.Rows = append(t.Rows, []any{r.Difficulty, r.Model, r.N, r.SolveRate, r.Lo, r.Hi})
		if i%len(order) == 0 {
			f.Series = append(f.Series, report.Series{Name: r.Model})
		}
		s := &f.Series[len(f.Series)-1]
		s.Values = append(s.Values, r.SolveRate)
		s.N = append(s.N, int(r.N))
		s.Lo = append(s.Lo, r.Lo)
		s.Hi = append(s.Hi, r.Hi)
	}
	return t, f
}

// paperBoxes holds one interface value per distinct key, so that a large
// table whose cells repeat a few values holds one boxed copy of each.
type paperBoxes[K comparable] map[K]any

// box returns the value kept for k, made by mk the first time.
func (b paperBoxes[K]) box(k K, mk func() any) any {
	if v, ok := b[k]; ok {
		return v
	}
	v := mk()
	b[k] = v
	return v
}
