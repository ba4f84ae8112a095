package tables

import (
	"math"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/metrics/prbench"
	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
)

// PRBench presents r: the PRBench tables (each only when it has rows), in
// the order prbench_scores, prbench_by_domain, prbench_by_tag,
// prbench_hard_questions, prbench_categories, criterion_agreement,
// judge_parity, prbench_length, prbench_ungraded_criteria, and their
// figures; with r's notes, one more note per table with undefined cells,
// and r's warnings it is ready for report.Report.Add.
func PRBench(r prbench.Result) report.Part {
	p := report.Part{Warnings: r.Warnings}
	for _, n := range r.Notes {
		p.Notes = append(p.Notes, report.Note{Table: n.Table, Reason: n.Reason})
	}
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
	add(prbenchScoresTable(r.Scores))
	add(prbenchDomainTable(r.ByDomain))
	add(prbenchTagTable(r.ByTag))
	add(prbenchHardTable(r.Hard, r.HardSource))
	for _, pop := range r.Populations {
		if f := prbenchScoreFigure(r, pop, figID); f != nil {
			p.Figures = append(p.Figures, f)
		}
	}
	ct, cf := prbenchCategoryTable(r, figID)
	add(ct)
	p.Figures = append(p.Figures, cf...)
	at, af := prbenchAgreementTable(r.Agreement)
	add(at)
	add(prbenchParityTable(r.Parity))
	if len(af.Categories) > 0 {
		p.Figures = append(p.Figures, af)
	}
	lt, lf := prbenchLengthTable(r)
	add(lt)
	if len(lt.Rows) > 0 && len(lf.Series) > 0 {
		p.Figures = append(p.Figures, lf)
	}
	add(prbenchUngradedTable(r.Ungraded))
	p.Notes = append(p.Notes, prbenchNanNotes(p.Tables)...)
	return p
}

// prbenchNanNotes is one note per table with undefined cells.
func prbenchNanNotes(tables []*report.Table) []report.Note {
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

// prbenchCol is a column of a PRBench table.
func prbenchCol(name string, kind report.ColumnKind, doc string) report.Column {
	return report.Column{Name: name, Kind: kind, Doc: doc}
}

// prbenchScoreCols are the score columns shared by prbench_scores,
// prbench_by_domain and prbench_by_tag.
var prbenchScoreCols = []report.Column{
	prbenchCol("n_questions", report.Int, "questions on which the model has gradings in this block"),
	prbenchCol("n", report.Int, "gradings (one grader's criterion grades of one response); a grading with an undefined clipped score is left out of the clipped columns"),
	prbenchCol("clipped_mean", report.Fraction, "mean over gradings of max(raw/max, 0), raw = Σ weight·met over the graded criteria, max = Σ of their positive weights"),
	prbenchCol("clipped_sd", report.Fraction, "SD (n − 1) of the clipped scores"),
	prbenchCol("clipped_lo", report.Fraction, "95 % cluster-bootstrap interval over questions, lower end"),
	prbenchCol("clipped_hi", report.Fraction, "95 % cluster-bootstrap interval over questions, upper end"),
	prbenchCol("normalized_mean", report.Fraction, "mean over gradings of (raw − min)/(max − min), min = Σ of the negative weights"),
	prbenchCol("normalized_sd", report.Fraction, "SD (n − 1) of the min-normalised scores"),
	prbenchCol("normalized_lo", report.Fraction, "95 % cluster-bootstrap interval over questions, lower end"),
	prbenchCol("normalized_hi", report.Fraction, "95 % cluster-bootstrap interval over questions, upper end"),
}

// prbenchWithScoreCols is cols followed by the score columns.
func prbenchWithScoreCols(cols ...report.Column) []report.Column {
	return append(cols, prbenchScoreCols...)
}

// prbenchScoreValues are the cells of the score columns of r.
func prbenchScoreValues(r prbench.ScoreRow) []any {
	return []any{r.Questions, r.N,
		r.Clipped.Mean, r.Clipped.SD, r.Clipped.Lo, r.Clipped.Hi,
		r.Normalized.Mean, r.Normalized.SD, r.Normalized.Lo, r.Normalized.Hi}
}

// prbenchAddRow appends a row to t; a row of another width than t's
// columns is a programming error.
func prbenchAddRow(t *report.Table, vals ...any) {
	if len(vals) != len(t.Columns) {
		panic("prbench: table " + t.Name + ": row width does not match its columns") // programming error only
	}
	t.Rows = append(t.Rows, vals)
}

// The key columns of the score tables.
var (
	prbenchColSet     = prbenchCol("set", report.Text, "all = every question with criteria; hard = the Hard subset (prbench_hard_questions)")
	prbenchColGraders = prbenchCol("graders", report.Text, "humans (every human grader's gradings pooled) or judge:<id> (one LLM judge)")
	prbenchColModel   = prbenchCol("model", report.Text, "model name")
)

// prbenchScoresTable builds prbench_scores.
func prbenchScoresTable(rows []prbench.ScoreRow) *report.Table {
	t := &report.Table{Name: "prbench_scores", Title: "PRBench scores per model", Section: report.SectionPRBench,
		Doc:     "Clipped and min-normalised weighted-criteria scores per model and grader population, on all questions and on the Hard subset, with 95 % cluster-bootstrap intervals over questions.",
		Columns: prbenchWithScoreCols(prbenchColSet, prbenchColGraders, prbenchColModel)}
	for _, r := range rows {
		prbenchAddRow(t, append([]any{r.Set, r.Graders, r.Model}, prbenchScoreValues(r)...)...)
	}
	return t
}

// prbenchDomainTable builds prbench_by_domain.
func prbenchDomainTable(rows []prbench.ScoreRow) *report.Table {
	t := &report.Table{Name: "prbench_by_domain", Title: "PRBench scores per domain", Section: report.SectionPRBench,
		Doc:     "Clipped and min-normalised scores per domain, model and grader population, on all the domain's questions and on its Hard subset.",
		Columns: prbenchWithScoreCols(prbenchColSet, prbenchColGraders, prbenchCol("domain", report.Text, "question domain"), prbenchColModel)}
	for _, r := range rows {
		prbenchAddRow(t, append([]any{r.Set, r.Graders, r.Domain, r.Model}, prbenchScoreValues(r)...)...)
	}
	return t
}

// prbenchTagTable builds prbench_by_tag.
func prbenchTagTable(rows []prbench.ScoreRow) *report.Table {
	t := &report.Table{Name: "prbench_by_tag", Title: "PRBench scores per question tag", Section: report.SectionPRBench,
		Doc: "Clipped and min-normalised scores per question tag value (extra columns of the questions file, such as decision type), model and grader population; questions with a blank tag value are left out of that tag's rows.",
		Columns: prbenchWithScoreCols(prbenchColGraders, prbenchCol("tag", report.Text, "tag (question column) name"),
			prbenchCol("value", report.Text, "tag value"), prbenchColModel)}
	for _, r := range rows {
		prbenchAddRow(t, append([]any{r.Graders, r.Tag, r.Value, r.Model}, prbenchScoreValues(r)...)...)
	}
	return t
}

// prbenchHardTable builds prbench_hard_questions.
func prbenchHardTable(rows []prbench.HardQuestion, source string) *report.Table {
	t := &report.Table{Name: "prbench_hard_questions", Title: "PRBench Hard subset", Section: report.SectionPRBench,
		Doc: "The Hard subset: per domain, the questions with the lowest mean clipped score across models (from the " + source + "), ties broken by question id.",
		Columns: []report.Column{
			prbenchCol("domain", report.Text, "question domain"),
			prbenchCol("rank", report.Int, "1 = the hardest question of the domain"),
			prbenchCol("question_id", report.Text, "question id"),
			prbenchCol("mean_clipped", report.Fraction, "mean over models of the model's mean clipped score on the question"),
			prbenchCol("n_models", report.Int, "models with a defined clipped score on the question"),
			prbenchCol("source", report.Text, "judges (all judges' gradings) or humans, whose gradings rank the questions"),
			prbenchCol("n_domain", report.Int, "questions of the domain with a difficulty score"),
		}}
	for _, h := range rows {
		prbenchAddRow(t, h.Domain, h.Rank, h.QuestionID, h.MeanClipped, h.Models, h.Source, h.DomainQuestions)
	}
	return t
}

// prbenchScoreFigure is the bar chart of the clipped mean per model of one
// population, all and hard, with the 95 % intervals as error bars; nil
// when the population has no "all" rows.
func prbenchScoreFigure(r prbench.Result, pop string, figID func(string) string) *report.Figure {
	var all []prbench.ScoreRow
	for _, s := range r.Scores {
		if s.Set == "all" && s.Graders == pop {
			all = append(all, s)
		}
	}
	if len(all) == 0 {
		return nil
	}
	f := &report.Figure{ID: figID("prbench_clipped_" + prbenchSlug(pop)), Section: report.SectionPRBench,
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
		se := report.Series{Name: name, Values: prbenchNaNSlice(len(all)), Lo: prbenchNaNSlice(len(all)), Hi: prbenchNaNSlice(len(all))}
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

// prbenchNaNSlice is n NaNs.
func prbenchNaNSlice(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.NaN()
	}
	return s
}

// prbenchCategoryTable builds prbench_categories and one heat map per population
// with a defined score; nothing when there are no categories.
func prbenchCategoryTable(r prbench.Result, figID func(string) string) (*report.Table, []*report.Figure) {
	if len(r.Categories) == 0 {
		return nil, nil
	}
	t := &report.Table{Name: "prbench_categories", Title: "PRBench scores per rubric category", Section: report.SectionPRBench,
		Doc: "Per rubric category, each grading's score restricted to that category's graded criteria, min-normalised ((raw − min)/(max − min) over those criteria), averaged per model and grader population.",
		Columns: []report.Column{prbenchColGraders, prbenchCol("category", report.Text, "rubric category"), prbenchColModel,
			prbenchCol("n_questions", report.Int, "questions on which the model has gradings with a graded criterion of the category"),
			prbenchCol("n", report.Int, "gradings with at least one graded criterion of the category"),
			prbenchCol("normalized_mean", report.Fraction, "mean of the category-restricted min-normalised scores"),
			prbenchCol("normalized_sd", report.Fraction, "SD (n − 1)"),
			prbenchCol("normalized_lo", report.Fraction, "95 % cluster-bootstrap interval over questions, lower end"),
			prbenchCol("normalized_hi", report.Fraction, "95 % cluster-bootstrap interval over questions, upper end"),
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
		fig := &report.Figure{ID: figID("prbench_categories_" + prbenchSlug(pop)), Section: report.SectionPRBench,
			Title: "Min-normalised score per model and rubric category (" + pop + ")", Kind: report.Heatmap,
			XName: "category", YName: "model", Percent: true, Table: t.Name,
			Categories: r.Categories}
		var cells []report.Cell
		used := make([]bool, len(r.Models))
		for _, c := range r.ByCategory {
			if c.Graders != pop {
				continue
			}
			prbenchAddRow(t, c.Graders, c.Category, c.Model, c.Questions, c.N, c.Normalized.Mean, c.Normalized.SD, c.Normalized.Lo, c.Normalized.Hi)
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

// prbenchAgreementTable builds criterion_agreement and its figure (the "all"
// breakdown of every pair).
func prbenchAgreementTable(rows []prbench.AgreementRow) (*report.Table, *report.Figure) {
	t := &report.Table{Name: "criterion_agreement", Title: "Agreement on criterion grades", Section: report.SectionPRBench,
		Doc: "For every pair of graders, over the (response, criterion) cells both graded: raw agreement, Cohen's κ and macro F1 (mean F1 of met and not met, grader_b as reference), overall and per domain and category, with 95 % cluster-bootstrap intervals over questions.",
		Columns: []report.Column{
			prbenchCol("grader_a", report.Text, "first grader (the judge of a judge–expert pair)"),
			prbenchCol("grader_b", report.Text, "second grader"),
			prbenchCol("pair_kind", report.Text, "judge-expert, expert-expert or judge-judge"),
			prbenchCol("breakdown", report.Text, "all, domain:<domain> or category:<category>"),
			prbenchCol("n_questions", report.Int, "questions with cells graded by both"),
			prbenchCol("n", report.Int, "(response, criterion) cells graded by both"),
			prbenchCol("n_both_met", report.Int, "cells both graded met"),
			prbenchCol("n_a_only", report.Int, "cells only grader_a graded met"),
			prbenchCol("n_b_only", report.Int, "cells only grader_b graded met"),
			prbenchCol("n_neither", report.Int, "cells both graded not met"),
			prbenchCol("agreement", report.Fraction, "share of cells with the same grade"),
			prbenchCol("agreement_lo", report.Fraction, "95 % interval, lower end"),
			prbenchCol("agreement_hi", report.Fraction, "95 % interval, upper end"),
			prbenchCol("kappa", report.Float, "Cohen's κ (unweighted)"),
			prbenchCol("kappa_lo", report.Float, "95 % interval, lower end"),
			prbenchCol("kappa_hi", report.Float, "95 % interval, upper end"),
			prbenchCol("macro_f1", report.Fraction, "mean of the F1 of the met and the not-met class"),
			prbenchCol("macro_f1_lo", report.Fraction, "95 % interval, lower end"),
			prbenchCol("macro_f1_hi", report.Fraction, "95 % interval, upper end"),
		}}
	fig := &report.Figure{ID: "prbench_criterion_agreement", Section: report.SectionPRBench,
		Title: "Agreement on criterion grades per grader pair", Kind: report.Bar,
		XName: "grader pair", YName: "agreement", Table: t.Name}
	series := []report.Series{{Name: "agreement"}, {Name: "kappa"}, {Name: "macro_f1"}}
	for _, r := range rows {
		prbenchAddRow(t, r.GraderA, r.GraderB, r.PairKind, r.Breakdown, r.Questions, r.N, r.BothMet, r.AOnly, r.BOnly, r.Neither,
			r.Agreement.Value, r.Agreement.Lo, r.Agreement.Hi, r.Kappa.Value, r.Kappa.Lo, r.Kappa.Hi, r.MacroF1.Value, r.MacroF1.Lo, r.MacroF1.Hi)
		if r.Breakdown == "all" {
			fig.Categories = append(fig.Categories, r.GraderA+" vs "+r.GraderB)
			for i, v := range []prbench.Interval{r.Agreement, r.Kappa, r.MacroF1} {
				series[i].Values = append(series[i].Values, v.Value)
				series[i].Lo = append(series[i].Lo, v.Lo)
				series[i].Hi = append(series[i].Hi, v.Hi)
			}
		}
	}
	fig.Series = series
	return t, fig
}

// prbenchParityTable builds judge_parity.
func prbenchParityTable(rows []prbench.ParityRow) *report.Table {
	t := &report.Table{Name: "judge_parity", Title: "Judge within expert range", Section: report.SectionPRBench,
		Doc: "Per judge, over the cells graded by the judge and two experts (pooled over every pair of experts): judge–expert agreement, expert–expert agreement and their difference with a 95 % paired cluster-bootstrap interval over questions; within expert range when the interval's lower end is above −parity_margin.",
		Columns: []report.Column{
			prbenchCol("judge", report.Text, "judge id"),
			prbenchCol("n_expert_pairs", report.Int, "pairs of experts with cells in common with the judge"),
			prbenchCol("n_questions", report.Int, "questions with such cells"),
			prbenchCol("n", report.Int, "(response, criterion, expert pair) cells graded by the judge and both experts"),
			prbenchCol("judge_expert_agreement", report.Fraction, "(#judge = expert 1 + #judge = expert 2) / (2n)"),
			prbenchCol("expert_expert_agreement", report.Fraction, "#expert 1 = expert 2 / n"),
			prbenchCol("difference", report.Float, "judge_expert_agreement − expert_expert_agreement"),
			prbenchCol("difference_lo", report.Float, "95 % paired cluster-bootstrap interval over questions, lower end"),
			prbenchCol("difference_hi", report.Float, "95 % paired cluster-bootstrap interval over questions, upper end"),
			prbenchCol("parity_margin", report.Float, "the margin (study.toml criteria.parity_margin)"),
			prbenchCol("within_expert_range", report.Text, "true when difference_lo > −parity_margin; empty when the interval is undefined"),
		}}
	for _, r := range rows {
		var within any
		if !math.IsNaN(r.DifferenceLo) {
			within = r.Within
		}
		prbenchAddRow(t, r.Judge, r.ExpertPairs, r.Questions, r.N, r.JudgeExpert, r.ExpertExpert, r.Difference,
			r.DifferenceLo, r.DifferenceHi, r.ParityMargin, within)
	}
	return t
}

// prbenchLengthTable builds prbench_length and the scatter of each population's
// per-model mean length and mean clipped score, with a least-squares line
// per population of two or more models.
func prbenchLengthTable(r prbench.Result) (*report.Table, *report.Figure) {
	t := &report.Table{Name: "prbench_length", Title: "PRBench score against response length", Section: report.SectionPRBench,
		Doc: "Per grader population and model (and all models pooled, model = (all)): response length in Unicode code points against the response's mean clipped score over the population's gradings; Pearson r and the least-squares line.",
		Columns: []report.Column{prbenchColGraders, prbenchColModel,
			prbenchCol("n", report.Int, "responses with a length and a defined clipped score"),
			prbenchCol("mean_chars", report.Float, "mean response length in Unicode code points"),
			prbenchCol("mean_clipped", report.Fraction, "mean over responses of the response's mean clipped score"),
			prbenchCol("pearson_r", report.Float, "Pearson r of length and clipped score over responses"),
			prbenchCol("p_value", report.Float, "two-sided p-value of r (t test, n − 2 degrees of freedom)"),
			prbenchCol("slope", report.Float, "least-squares slope: clipped score per character"),
			prbenchCol("intercept", report.Float, "least-squares intercept"),
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
			prbenchAddRow(t, l.Graders, l.Model, l.N, l.MeanChars, l.MeanClipped, l.PearsonR, l.PValue, l.Slope, l.Intercept)
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
			x1, x2 := prbenchMinMax(x)
			fig.Lines = append(fig.Lines, report.RefLine{Name: "least squares (" + se.Name + ")",
				X1: x1, Y1: lr.Intercept + float64(lr.Slope*x1), X2: x2, Y2: lr.Intercept + float64(lr.Slope*x2)})
		}
	}
	return t, fig
}

// prbenchUngradedTable builds prbench_ungraded_criteria.
func prbenchUngradedTable(rows []prbench.UngradedCriterion) *report.Table {
	t := &report.Table{Name: "prbench_ungraded_criteria", Title: "Criteria nobody graded", Section: report.SectionPRBench,
		Doc: "Criteria without a single grade from any grader; they count in no score.",
		Columns: []report.Column{
			prbenchCol("question_id", report.Text, "question id"),
			prbenchCol("criterion_id", report.Text, "criterion id"),
			prbenchCol("weight", report.Int, "criterion weight"),
			prbenchCol("category", report.Text, "criterion category"),
		}}
	for _, c := range rows {
		prbenchAddRow(t, c.QuestionID, c.CriterionID, c.Weight, c.Category)
	}
	return t
}

// prbenchSlug turns a population name into a chart-id fragment: lower-case
// letters, digits and underscores.
func prbenchSlug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// prbenchMinMax returns the least and the greatest of x.
func prbenchMinMax(x []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range x {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo, hi
}
