package tables

import (
	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report"
)

// paperRubric presents Figure 2 (rubric_by_attribute, rubric_by_domain,
// rubric_overall, each with its mean ± SD figure) and Table 5
// (attribute_correlations); a table the analysis left out (nil rows) is
// absent.
func paperRubric(r paper.Rubric) report.Part {
	var p report.Part
	for _, g := range []struct {
		rows                      []paper.RubricRow
		cats                      []string
		name, title, doc, col     string
		colDoc, fig, figTitle, xn string
	}{
		{r.ByAttribute, r.Attributes, "rubric_by_attribute", "Figure 2: Rubric score by attribute",
			"Mean and SD of each rubric attribute per model over the human gradings of the main round.", "attribute", "rubric attribute",
			"fig2_rubric_by_attribute", "Figure 2: Rubric scores by attribute (mean ± SD)", "attribute"},
		{r.ByDomain, r.Domains, "rubric_by_domain", "Figure 2: Rubric score by domain",
			"Mean and SD of the per-grading rubric mean per model and question domain (human gradings, main round).", "domain", "question domain",
			"fig2_rubric_by_domain", "Figure 2: Rubric scores by domain (mean ± SD)", "domain"},
		{r.Overall, []string{"overall"}, "rubric_overall", "Figure 2: Overall rubric score",
			"Mean and SD of the per-grading rubric mean per model (human gradings, main round).", "scope", "overall",
			"fig2_rubric_overall", "Figure 2: Overall rubric score (mean ± SD)", "scope"},
	} {
		if g.rows == nil {
			continue
		}
		t := &report.Table{Name: g.name, Title: g.title, Section: report.SectionRubric, Doc: g.doc,
			Columns: []report.Column{
				paperCol(g.col, report.Text, g.colDoc),
				paperCol("model", report.Text, "model"),
				paperCol("n", report.Int, "gradings"),
				paperCol("mean", report.Float, "mean over gradings"),
				paperCol("sd", report.Float, "standard deviation over gradings (n − 1)"),
			}}
		yname := "rubric score (mean ± SD)"
		if r.LowerIsBetter {
			yname = "rubric score (mean ± SD; lower is better)"
		}
		f := &report.Figure{ID: g.fig, Section: report.SectionRubric, Title: g.figTitle, Kind: report.Bar,
			XName: g.xn, YName: yname, Table: t.Name, Categories: g.cats}
		for i, w := range g.rows {
			t.Rows = append(t.Rows, []any{w.Group, w.Model, w.N, w.Mean, w.SD})
			if i%len(g.cats) == 0 {
				f.Series = append(f.Series, report.Series{Name: w.Model, SD: true})
			}
			s := &f.Series[len(f.Series)-1]
			s.N = append(s.N, int(w.N))
			s.Values = append(s.Values, w.Mean)
			s.Lo = append(s.Lo, w.Mean-w.SD)
			s.Hi = append(s.Hi, w.Mean+w.SD)
		}
		p.Tables = append(p.Tables, t)
		p.Figures = append(p.Figures, f)
	}
	if r.Correlations != nil {
		t := &report.Table{Name: "attribute_correlations", Title: "Table 5: Attribute correlations", Section: report.SectionRubric,
			Doc: "Pearson r of each attribute's score with the mean of the other attributes, and of the checklist rate with the rubric mean, over the human gradings of the main round; 95 % Fisher-z intervals.",
			Columns: []report.Column{
				paperCol("attribute", report.Text, "rubric attribute, or Checklist (checklist rate vs rubric mean)"),
				paperCol("n", report.Int, "gradings"),
				paperCol("r", report.Float, "Pearson r"),
				paperCol("p", report.Float, "two-sided p-value of r"),
				paperCol("r_lo", report.Float, "95 % Fisher-z interval, lower end"),
				paperCol("r_hi", report.Float, "95 % Fisher-z interval, upper end"),
			}}
		for _, w := range r.Correlations {
			t.Rows = append(t.Rows, []any{w.Attribute, w.N, w.R, w.P, w.Lo, w.Hi})
		}
		p.Tables = append(p.Tables, t)
	}
	return p
}
