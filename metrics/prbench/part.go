package prbench

import (
	"math"
	"strconv"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
)

// Part builds the PRBench tables (each only when it has rows), in the
// order prbench_scores, prbench_by_domain, prbench_by_tag,
// prbench_hard_questions, prbench_categories, criterion_agreement,
// judge_parity, prbench_length, prbench_ungraded_criteria, and their
// figures, from r; with r's Notes, one more note per table with undefined
// cells, and r's Warnings it is ready for report.Report.Add.
func (r Result) Part() report.Part {
	p := report.Part{Notes: append([]report.Note(nil), r.Notes...), Warnings: r.Warnings}
	add := func(t *report.Table) {
		if t != nil && len(t.Rows) > 0 {
			p.Tables = append(p.Tables, t)
		}
	}
	ids := map[string]bool{}
	figID := func(base string) string { // unique within the part
		id := base
		for i := 2; ids[id]; i++ {
			id = base + "_" + strconv.Itoa(i)
		}
		ids[id] = true
		return id
	}
	add(scoresTable(r.Scores))
	add(domainTable(r.ByDomain))
	add(tagTable(r.ByTag))
	add(hardTable(r.Hard, r.HardSource))
	for _, pop := range r.Populations {
		if f := r.scoreFigure(pop, figID); f != nil {
			p.Figures = append(p.Figures, f)
		}
	}
	ct, cf := r.categoryTable(figID)
	add(ct)
	p.Figures = append(p.Figures, cf...)
	at, af := agreementTable(r.Agreement)
	add(at)
	add(parityTable(r.Parity))
	if len(af.Categories) > 0 {
		p.Figures = append(p.Figures, af)
	}
	lt, lf := r.lengthTable()
	add(lt)
	if len(lt.Rows) > 0 && len(lf.Series) > 0 {
		p.Figures = append(p.Figures, lf)
	}
	add(ungradedTable(r.Ungraded))
	p.Notes = append(p.Notes, nanNotes(p.Tables)...)
	return p
}

// nanNotes is one note per table with undefined cells.
func nanNotes(tables []*report.Table) []report.Note {
	var out []report.Note
	for _, t := range tables {
		n := 0
		for _, r := range t.Rows {
			for _, v := range r {
				if f, ok := v.(float64); ok && math.IsNaN(f) {
					n++
				}
			}
		}
		if n > 0 {
			out = append(out, report.Note{Table: t.Name, Reason: strconv.Itoa(n) + " cells are undefined and left empty (an SD of one value, an interval without bootstrap replicates or with no defined replicate, κ with both graders constant, a correlation with a constant side, or a clipped score with no positive criterion graded)"})
		}
	}
	return out
}

func col(name string, kind report.ColumnKind, doc string) report.Column {
	return report.Column{Name: name, Kind: kind, Doc: doc}
}

var scoreCols = []report.Column{
	col("n_questions", report.Int, "questions on which the model has gradings in this block"),
	col("n", report.Int, "gradings (one grader's criterion grades of one response); a grading with an undefined clipped score is left out of the clipped columns"),
	col("clipped_mean", report.Fraction, "mean over gradings of max(raw/max, 0), raw = Σ weight·met over the graded criteria, max = Σ of their positive weights"),
	col("clipped_sd", report.Fraction, "SD (n − 1) of the clipped scores"),
	col("clipped_lo", report.Fraction, "95 % cluster-bootstrap interval over questions, lower end"),
	col("clipped_hi", report.Fraction, "95 % cluster-bootstrap interval over questions, upper end"),
	col("normalized_mean", report.Fraction, "mean over gradings of (raw − min)/(max − min), min = Σ of the negative weights"),
	col("normalized_sd", report.Fraction, "SD (n − 1) of the min-normalised scores"),
	col("normalized_lo", report.Fraction, "95 % cluster-bootstrap interval over questions, lower end"),
	col("normalized_hi", report.Fraction, "95 % cluster-bootstrap interval over questions, upper end"),
}

func withScoreCols(cols ...report.Column) []report.Column {
	return append(cols, scoreCols...)
}

func scoreValues(r ScoreRow) []any {
	return []any{r.Questions, r.N,
		r.Clipped.Mean, r.Clipped.SD, r.Clipped.Lo, r.Clipped.Hi,
		r.Normalized.Mean, r.Normalized.SD, r.Normalized.Lo, r.Normalized.Hi}
}

func addRow(t *report.Table, vals ...any) {
	if len(vals) != len(t.Columns) {
		panic("prbench: table " + t.Name + ": row width does not match its columns") // programming error only
	}
	t.Rows = append(t.Rows, vals)
}

var (
	colSet     = col("set", report.Text, "all = every question with criteria; hard = the Hard subset (prbench_hard_questions)")
	colGraders = col("graders", report.Text, "humans (every human grader's gradings pooled) or judge:<id> (one LLM judge)")
	colModel   = col("model", report.Text, "model name")
)

// scoresTable builds prbench_scores.
func scoresTable(rows []ScoreRow) *report.Table {
	t := &report.Table{Name: "prbench_scores", Title: "PRBench scores per model", Section: report.SectionPRBench,
		Doc:     "Clipped and min-normalised weighted-criteria scores per model and grader population, on all questions and on the Hard subset, with 95 % cluster-bootstrap intervals over questions.",
		Columns: withScoreCols(colSet, colGraders, colModel)}
	for _, r := range rows {
		addRow(t, append([]any{r.Set, r.Graders, r.Model}, scoreValues(r)...)...)
	}
	return t
}

// domainTable builds prbench_by_domain.
func domainTable(rows []ScoreRow) *report.Table {
	t := &report.Table{Name: "prbench_by_domain", Title: "PRBench scores per domain", Section: report.SectionPRBench,
		Doc:     "Clipped and min-normalised scores per domain, model and grader population, on all the domain's questions and on its Hard subset.",
		Columns: withScoreCols(colSet, colGraders, col("domain", report.Text, "question domain"), colModel)}
	for _, r := range rows {
		addRow(t, append([]any{r.Set, r.Graders, r.Domain, r.Model}, scoreValues(r)...)...)
	}
	return t
}

// tagTable builds prbench_by_tag.
func tagTable(rows []ScoreRow) *report.Table {
	t := &report.Table{Name: "prbench_by_tag", Title: "PRBench scores per question tag", Section: report.SectionPRBench,
		Doc: "Clipped and min-normalised scores per question tag value (extra columns of the questions file, such as decision type), model and grader population; questions with a blank tag value are left out of that tag's rows.",
		Columns: withScoreCols(colGraders, col("tag", report.Text, "tag (question column) name"),
			col("value", report.Text, "tag value"), colModel)}
	for _, r := range rows {
		addRow(t, append([]any{r.Graders, r.Tag, r.Value, r.Model}, scoreValues(r)...)...)
	}
	return t
}

// hardTable builds prbench_hard_questions.
func hardTable(rows []HardQuestion, source string) *report.Table {
	t := &report.Table{Name: "prbench_hard_questions", Title: "PRBench Hard subset", Section: report.SectionPRBench,
		Doc: "The Hard subset: per domain, the questions with the lowest mean clipped score across models (from the " + source + "), ties broken by question id.",
		Columns: []report.Column{
			col("domain", report.Text, "question domain"),
			col("rank", report.Int, "1 = the hardest question of the domain"),
			col("question_id", report.Text, "question id"),
			col("mean_clipped", report.Fraction, "mean over models of the model's mean clipped score on the question"),
			col("n_models", report.Int, "models with a defined clipped score on the question"),
			col("source", report.Text, "judges (all judges' gradings) or humans, whose gradings rank the questions"),
			col("n_domain", report.Int, "questions of the domain with a difficulty score"),
		}}
	for _, h := range rows {
		addRow(t, h.Domain, h.Rank, h.QuestionID, h.MeanClipped, h.Models, h.Source, h.DomainQuestions)
	}
	return t
}

// scoreFigure is the bar chart of the clipped mean per model of one
// population, all and hard, with the 95 % intervals as error bars; nil
// when the population has no "all" rows.
func (r Result) scoreFigure(pop string, figID func(string) string) *report.Figure {
	var all []ScoreRow
	for _, s := range r.Scores {
		if s.Set == "all" && s.Graders == pop {
			all = append(all, s)
		}
	}
	if len(all) == 0 {
		return nil
	}
	f := &report.Figure{ID: figID("prbench_clipped_" + slug(pop)), Section: report.SectionPRBench,
		Title: "Clipped score per model (" + pop + ")", Kind: report.Bar,
		XName: "model", YName: "clipped score", Percent: true, Table: "prbench_scores"}
	pos := map[string]int{}
	for i, s := range all {
		pos[s.Model] = i
		f.Categories = append(f.Categories, s.Model)
	}
	sets := []string{"all"}
	if r.HasHard {
		sets = append(sets, "hard")
	}
	for _, name := range sets {
		se := report.Series{Name: name, Values: nanSlice(len(all)), Lo: nanSlice(len(all)), Hi: nanSlice(len(all))}
		for _, s := range r.Scores {
			if s.Set != name || s.Graders != pop {
				continue
			}
			if i, ok := pos[s.Model]; ok {
				se.Values[i], se.Lo[i], se.Hi[i] = s.Clipped.Mean, s.Clipped.Lo, s.Clipped.Hi
			}
		}
		f.Series = append(f.Series, se)
	}
	return f
}

func nanSlice(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.NaN()
	}
	return s
}

// categoryTable builds prbench_categories and one heat map per population
// with a defined score; nothing when there are no categories.
func (r Result) categoryTable(figID func(string) string) (*report.Table, []*report.Figure) {
	if len(r.Categories) == 0 {
		return nil, nil
	}
	t := &report.Table{Name: "prbench_categories", Title: "PRBench scores per rubric category", Section: report.SectionPRBench,
		Doc: "Per rubric category, each grading's score restricted to that category's graded criteria, min-normalised ((raw − min)/(max − min) over those criteria), averaged per model and grader population.",
		Columns: []report.Column{colGraders, col("category", report.Text, "rubric category"), colModel,
			col("n_questions", report.Int, "questions on which the model has gradings with a graded criterion of the category"),
			col("n", report.Int, "gradings with at least one graded criterion of the category"),
			col("normalized_mean", report.Fraction, "mean of the category-restricted min-normalised scores"),
			col("normalized_sd", report.Fraction, "SD (n − 1)"),
			col("normalized_lo", report.Fraction, "95 % cluster-bootstrap interval over questions, lower end"),
			col("normalized_hi", report.Fraction, "95 % cluster-bootstrap interval over questions, upper end"),
		}}
	catPos := map[string]int{}
	for i, c := range r.Categories {
		catPos[c] = i
	}
	modelPos := map[string]int{}
	for i, m := range r.Models {
		modelPos[m] = i
	}
	var figs []*report.Figure
	for _, pop := range r.Populations {
		fig := &report.Figure{ID: figID("prbench_categories_" + slug(pop)), Section: report.SectionPRBench,
			Title: "Min-normalised score per model and rubric category (" + pop + ")", Kind: report.Heatmap,
			XName: "category", YName: "model", Percent: true, Table: t.Name,
			Categories: r.Categories}
		var cells []report.Cell
		used := make([]bool, len(r.Models))
		for _, c := range r.ByCategory {
			if c.Graders != pop {
				continue
			}
			addRow(t, c.Graders, c.Category, c.Model, c.Questions, c.N, c.Normalized.Mean, c.Normalized.SD, c.Normalized.Lo, c.Normalized.Hi)
			if !math.IsNaN(c.Normalized.Mean) {
				m := modelPos[c.Model]
				cells = append(cells, report.Cell{X: catPos[c.Category], Y: m, Value: c.Normalized.Mean})
				used[m] = true
			}
		}
		if len(cells) == 0 {
			continue
		}
		// Keep only the models of this population on the y axis.
		var ys []string
		newY := make([]int, len(r.Models))
		for m, ok := range used {
			if ok {
				newY[m] = len(ys)
				ys = append(ys, r.Models[m])
			}
		}
		for i := range cells {
			cells[i].Y = newY[cells[i].Y]
		}
		fig.YCategories = ys
		fig.Series = []report.Series{{Name: pop, Cells: cells}}
		figs = append(figs, fig)
	}
	return t, figs
}

// agreementTable builds criterion_agreement and its figure (the "all"
// breakdown of every pair).
func agreementTable(rows []AgreementRow) (*report.Table, *report.Figure) {
	t := &report.Table{Name: "criterion_agreement", Title: "Agreement on criterion grades", Section: report.SectionPRBench,
		Doc: "For every pair of graders, over the (response, criterion) cells both graded: raw agreement, Cohen's κ and macro F1 (mean F1 of met and not met, grader_b as reference), overall and per domain and category, with 95 % cluster-bootstrap intervals over questions.",
		Columns: []report.Column{
			col("grader_a", report.Text, "first grader (the judge of a judge–expert pair)"),
			col("grader_b", report.Text, "second grader"),
			col("pair_kind", report.Text, "judge-expert, expert-expert or judge-judge"),
			col("breakdown", report.Text, "all, domain:<domain> or category:<category>"),
			col("n_questions", report.Int, "questions with cells graded by both"),
			col("n", report.Int, "(response, criterion) cells graded by both"),
			col("n_both_met", report.Int, "cells both graded met"),
			col("n_a_only", report.Int, "cells only grader_a graded met"),
			col("n_b_only", report.Int, "cells only grader_b graded met"),
			col("n_neither", report.Int, "cells both graded not met"),
			col("agreement", report.Fraction, "share of cells with the same grade"),
			col("agreement_lo", report.Fraction, "95 % interval, lower end"),
			col("agreement_hi", report.Fraction, "95 % interval, upper end"),
			col("kappa", report.Float, "Cohen's κ (unweighted)"),
			col("kappa_lo", report.Float, "95 % interval, lower end"),
			col("kappa_hi", report.Float, "95 % interval, upper end"),
			col("macro_f1", report.Fraction, "mean of the F1 of the met and the not-met class"),
			col("macro_f1_lo", report.Fraction, "95 % interval, lower end"),
			col("macro_f1_hi", report.Fraction, "95 % interval, upper end"),
		}}
	fig := &report.Figure{ID: "prbench_criterion_agreement", Section: report.SectionPRBench,
		Title: "Agreement on criterion grades per grader pair", Kind: report.Bar,
		XName: "grader pair", YName: "agreement", Table: t.Name}
	series := []report.Series{{Name: "agreement"}, {Name: "kappa"}, {Name: "macro_f1"}}
	for _, r := range rows {
		addRow(t, r.GraderA, r.GraderB, r.PairKind, r.Breakdown, r.Questions, r.N, r.BothMet, r.AOnly, r.BOnly, r.Neither,
			r.Agreement.Value, r.Agreement.Lo, r.Agreement.Hi, r.Kappa.Value, r.Kappa.Lo, r.Kappa.Hi, r.MacroF1.Value, r.MacroF1.Lo, r.MacroF1.Hi)
		if r.Breakdown == "all" {
			fig.Categories = append(fig.Categories, r.GraderA+" vs "+r.GraderB)
			for i, v := range []Interval{r.Agreement, r.Kappa, r.MacroF1} {
				series[i].Values = append(series[i].Values, v.Value)
				series[i].Lo = append(series[i].Lo, v.Lo)
				series[i].Hi = append(series[i].Hi, v.Hi)
			}
		}
	}
	fig.Series = series
	return t, fig
}

// parityTable builds judge_parity.
func parityTable(rows []ParityRow) *report.Table {
	t := &report.Table{Name: "judge_parity", Title: "Judge within expert range", Section: report.SectionPRBench,
		Doc: "Per judge, over the cells graded by the judge and two experts (pooled over every pair of experts): judge–expert agreement, expert–expert agreement and their difference with a 95 % paired cluster-bootstrap interval over questions; within expert range when the interval's lower end is above −parity_margin.",
		Columns: []report.Column{
			col("judge", report.Text, "judge id"),
			col("n_expert_pairs", report.Int, "pairs of experts with cells in common with the judge"),
			col("n_questions", report.Int, "questions with such cells"),
			col("n", report.Int, "(response, criterion, expert pair) cells graded by the judge and both experts"),
			col("judge_expert_agreement", report.Fraction, "(#judge = expert 1 + #judge = expert 2) / (2n)"),
			col("expert_expert_agreement", report.Fraction, "#expert 1 = expert 2 / n"),
			col("difference", report.Float, "judge_expert_agreement − expert_expert_agreement"),
			col("difference_lo", report.Float, "95 % paired cluster-bootstrap interval over questions, lower end"),
			col("difference_hi", report.Float, "95 % paired cluster-bootstrap interval over questions, upper end"),
			col("parity_margin", report.Float, "the margin (study.toml criteria.parity_margin)"),
			col("within_expert_range", report.Text, "true when difference_lo > −parity_margin; empty when the interval is undefined"),
		}}
	for _, r := range rows {
		var within any
		if !math.IsNaN(r.DifferenceLo) {
			within = r.Within
		}
		addRow(t, r.Judge, r.ExpertPairs, r.Questions, r.N, r.JudgeExpert, r.ExpertExpert, r.Difference,
			r.DifferenceLo, r.DifferenceHi, r.ParityMargin, within)
	}
	return t
}

// lengthTable builds prbench_length and the scatter of each population's
// per-model mean length and mean clipped score, with a least-squares line
// per population of two or more models.
func (r Result) lengthTable() (*report.Table, *report.Figure) {
	t := &report.Table{Name: "prbench_length", Title: "PRBench score against response length", Section: report.SectionPRBench,
		Doc: "Per grader population and model (and all models pooled, model = (all)): response length in Unicode code points against the response's mean clipped score over the population's gradings; Pearson r and the least-squares line.",
		Columns: []report.Column{colGraders, colModel,
			col("n", report.Int, "responses with a length and a defined clipped score"),
			col("mean_chars", report.Float, "mean response length in Unicode code points"),
			col("mean_clipped", report.Fraction, "mean over responses of the response's mean clipped score"),
			col("pearson_r", report.Float, "Pearson r of length and clipped score over responses"),
			col("p_value", report.Float, "two-sided p-value of r (t test, n − 2 degrees of freedom)"),
			col("slope", report.Float, "least-squares slope: clipped score per character"),
			col("intercept", report.Float, "least-squares intercept"),
		}}
	fig := &report.Figure{ID: "prbench_length_vs_score", Section: report.SectionPRBench,
		Title: "Mean clipped score against mean response length per model", Kind: report.Scatter,
		XName: "mean response length", XUnit: "characters", YName: "clipped score", Percent: true, Table: t.Name}
	for _, pop := range r.Populations {
		var pts []report.Point
		for _, l := range r.Length {
			if l.Graders != pop {
				continue
			}
			addRow(t, l.Graders, l.Model, l.N, l.MeanChars, l.MeanClipped, l.PearsonR, l.PValue, l.Slope, l.Intercept)
			if !l.Pooled {
				pts = append(pts, report.Point{X: l.MeanChars, Y: l.MeanClipped, Label: l.Model})
			}
		}
		if len(pts) > 0 {
			fig.Series = append(fig.Series, report.Series{Name: pop, Points: pts})
		}
	}
	for _, se := range fig.Series {
		if len(se.Points) < 2 {
			continue
		}
		var x, y []float64
		for _, pt := range se.Points {
			x = append(x, pt.X)
			y = append(y, pt.Y)
		}
		if lr := stats.LinRegress(x, y); !math.IsNaN(lr.Slope) {
			x1, x2 := minMax(x)
			fig.Lines = append(fig.Lines, report.RefLine{Name: "least squares (" + se.Name + ")",
				X1: x1, Y1: lr.Intercept + float64(lr.Slope*x1), X2: x2, Y2: lr.Intercept + float64(lr.Slope*x2)})
		}
	}
	return t, fig
}

// ungradedTable builds prbench_ungraded_criteria.
func ungradedTable(rows []UngradedCriterion) *report.Table {
	t := &report.Table{Name: "prbench_ungraded_criteria", Title: "Criteria nobody graded", Section: report.SectionPRBench,
		Doc: "Criteria without a single grade from any grader; they count in no score.",
		Columns: []report.Column{
			col("question_id", report.Text, "question id"),
			col("criterion_id", report.Text, "criterion id"),
			col("weight", report.Int, "criterion weight"),
			col("category", report.Text, "criterion category"),
		}}
	for _, c := range rows {
		addRow(t, c.QuestionID, c.CriterionID, c.Weight, c.Category)
	}
	return t
}
