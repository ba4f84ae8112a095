package prbench

import (
	"math"
	"strings"

	"github.com/euroexec/euroexec/report"
)

// categoryScore returns a unit's min-normalised score restricted to the
// graded criteria of category c; undefined when none of them was graded.
func (p *prep) categoryScore(ui, c int) rat {
	u := &p.units[ui]
	q := &p.qs[u.q]
	var raw, pos, neg int64
	for ci, v := range u.vals {
		if v < 0 || q.crit[ci].cat != c {
			continue
		}
		w := q.crit[ci].w
		if w > 0 {
			pos += w
		} else {
			neg += w
		}
		if v == 1 {
			raw += w
		}
	}
	return normalizedScore(raw, pos, neg)
}

// categoryTable builds prbench_categories and one heat map per population.
func (p *prep) categoryTable() (*report.Table, []*report.Figure) {
	if len(p.cats) == 0 {
		p.note("prbench_categories", "no criterion has a category; the per-category table is left out")
		return nil, nil
	}
	uncat := 0
	for _, q := range p.qs {
		for _, c := range q.crit {
			if c.cat < 0 {
				uncat++
			}
		}
	}
	if uncat > 0 {
		p.note("prbench_categories", "%d criteria have no category and are left out of the per-category scores", uncat)
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
	var figs []*report.Figure
	for pop := range p.pops {
		fig := &report.Figure{ID: p.figID("prbench_categories_" + slug(p.pops[pop])), Section: report.SectionPRBench,
			Title: "Min-normalised score per model and rubric category (" + p.pops[pop] + ")", Kind: report.Heatmap,
			XName: "category", YName: "model", Percent: true, Table: t.Name,
			Categories: p.cats, YCategories: p.models}
		var cells []report.Cell
		used := make([]bool, len(p.models))
		for c, name := range p.cats {
			rows := p.scoreBlock(pop, nil, 1, func(ui int) (rat, rat) { return p.categoryScore(ui, c), rat{} })
			for _, r := range rows {
				addRow(t, p.pops[pop], name, p.models[r.model], int64(r.nQ), int64(r.n), r.mean[0], r.sd[0], r.lo[0], r.hi[0])
				if !math.IsNaN(r.mean[0]) {
					cells = append(cells, report.Cell{X: c, Y: r.model, Value: r.mean[0]})
					used[r.model] = true
				}
			}
		}
		if len(cells) == 0 {
			continue
		}
		// Keep only the models of this population on the y axis.
		var ys []string
		newY := make([]int, len(p.models))
		for m, ok := range used {
			if ok {
				newY[m] = len(ys)
				ys = append(ys, p.models[m])
			}
		}
		for i := range cells {
			cells[i].Y = newY[cells[i].Y]
		}
		fig.YCategories = ys
		fig.Series = []report.Series{{Name: p.pops[pop], Cells: cells}}
		figs = append(figs, fig)
	}
	return t, figs
}

// slug turns a population name into a chart-id fragment: lower-case
// letters, digits and underscores.
func slug(s string) string {
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
