package analysis

import (
	"math"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

// rubricTables builds Figure 2 (mean ± SD per attribute, per domain,
// overall) and Table 5 (attribute correlations).
func (a *run) rubricTables() {
	if !a.p.hasRubric {
		for _, n := range []string{"rubric_by_attribute", "rubric_by_domain", "rubric_overall", "attribute_correlations"} {
			a.leaveOut(n, "the study has no rubric")
		}
		return
	}
	v := a.view(setAll, -1)
	if len(v.g) == 0 {
		for _, n := range []string{"rubric_by_attribute", "rubric_by_domain", "rubric_overall", "attribute_correlations"} {
			a.leaveOut(n, "no human gradings in the main round")
		}
		return
	}
	a.steps(func() { a.rubricByAttribute(v) }, func() { a.rubricByDomain(v) }, func() { a.rubricOverall(v) },
		func() { a.attributeCorrelations(v) })
}

// meanSD is a mean (exact when the values are integers or fractions) and
// the sample SD of a group of values.
type meanSD struct {
	exact study.RatSum
	x     []float64
}

func (m *meanSD) mean() float64 { return m.exact.Mean() }
func (m *meanSD) sd() float64   { return stats.SD(m.x) }

func meanSDCols(group, groupDoc string) []report.Column {
	return []report.Column{
		col(group, report.Text, groupDoc),
		col("model", report.Text, "model"),
		col("n", report.Int, "gradings"),
		col("mean", report.Float, "mean over gradings"),
		col("sd", report.Float, "standard deviation over gradings (n − 1)"),
	}
}

// meanSDFigure draws a meanSD table as bars with mean ± SD whiskers.
func (a *run) meanSDFigure(id, title, xname string, t *report.Table, cats []string, v *view, cell func(mi, k int) *meanSD) {
	yname := "rubric score (mean ± SD)"
	if a.p.s.LowerIsBetter {
		yname = "rubric score (mean ± SD; lower is better)"
	}
	f := &report.Figure{ID: id, Section: report.SectionRubric, Title: title, Kind: report.Bar,
		XName: xname, YName: yname, Table: t.Name, Categories: cats}
	for mi, m := range v.models {
		s := report.Series{Name: a.p.s.Models[m].Name, SD: true}
		for k := range cats {
			c := cell(mi, k)
			mu, sd := c.mean(), c.sd()
			s.N = append(s.N, len(c.x))
			s.Values = append(s.Values, mu)
			s.Lo = append(s.Lo, mu-sd)
			s.Hi = append(s.Hi, mu+sd)
		}
		f.Series = append(f.Series, s)
	}
	a.addFigure(f)
}

func (a *run) modelPos(v *view) map[int]int {
	mp := map[int]int{}
	for i, m := range v.models {
		mp[m] = i
	}
	return mp
}

// rubricByAttribute: Figure 2, per model × attribute.
func (a *run) rubricByAttribute(v *view) {
	p := a.p
	mp := a.modelPos(v)
	cells := make([][]meanSD, len(v.models))
	for i := range cells {
		cells[i] = make([]meanSD, p.nAttr)
	}
	for _, gi := range v.g {
		g := &p.grades[gi]
		for k, x := range g.attr {
			if math.IsNaN(x) {
				continue
			}
			c := &cells[mp[g.m]][k]
			r, _ := study.RatOf(x) // exact when x is a short decimal
			c.exact.Add(r, x)
			c.x = append(c.x, x)
		}
	}
	t := newTable("rubric_by_attribute", "Figure 2: Rubric score by attribute", report.SectionRubric,
		"Mean and SD of each rubric attribute per model over the human gradings of the main round.",
		meanSDCols("attribute", "rubric attribute")...)
	for mi, m := range v.models {
		for k, at := range p.s.Attributes {
			c := &cells[mi][k]
			addRow(t, at, p.s.Models[m].Name, int64(len(c.x)), c.mean(), c.sd())
		}
	}
	a.addTable(t)
	a.meanSDFigure("fig2_rubric_by_attribute", "Figure 2: Rubric scores by attribute (mean ± SD)", "attribute",
		t, p.s.Attributes, v, func(mi, k int) *meanSD { return &cells[mi][k] })
}

// rubricByDomain: Figure 2, per model × domain of the rubric mean.
func (a *run) rubricByDomain(v *view) {
	p := a.p
	mp := a.modelPos(v)
	doms := p.domains()
	dp := map[string]int{}
	for i, d := range doms {
		dp[d] = i
	}
	cells := make([][]meanSD, len(v.models))
	for i := range cells {
		cells[i] = make([]meanSD, len(doms))
	}
	for _, gi := range v.g {
		g := &p.grades[gi]
		if math.IsNaN(g.rubMean) {
			continue
		}
		c := &cells[mp[g.m]][dp[p.s.Questions[g.q].Domain]]
		addRubric(&c.exact, g)
		c.x = append(c.x, g.rubMean)
	}
	t := newTable("rubric_by_domain", "Figure 2: Rubric score by domain", report.SectionRubric,
		"Mean and SD of the per-grading rubric mean per model and question domain (human gradings, main round).",
		meanSDCols("domain", "question domain")...)
	for mi, m := range v.models {
		for k, d := range doms {
			c := &cells[mi][k]
			addRow(t, d, p.s.Models[m].Name, int64(len(c.x)), c.mean(), c.sd())
		}
	}
	a.addTable(t)
	a.meanSDFigure("fig2_rubric_by_domain", "Figure 2: Rubric scores by domain (mean ± SD)", "domain",
		t, doms, v, func(mi, k int) *meanSD { return &cells[mi][k] })
}

// rubricOverall: Figure 2, per model, the rubric mean over all gradings.
func (a *run) rubricOverall(v *view) {
	p := a.p
	mp := a.modelPos(v)
	cells := make([]meanSD, len(v.models))
	for _, gi := range v.g {
		g := &p.grades[gi]
		if math.IsNaN(g.rubMean) {
			continue
		}
		c := &cells[mp[g.m]]
		addRubric(&c.exact, g)
		c.x = append(c.x, g.rubMean)
	}
	t := newTable("rubric_overall", "Figure 2: Overall rubric score", report.SectionRubric,
		"Mean and SD of the per-grading rubric mean per model (human gradings, main round).",
		meanSDCols("scope", "overall")...)
	for mi, m := range v.models {
		addRow(t, "overall", p.s.Models[m].Name, int64(len(cells[mi].x)), cells[mi].mean(), cells[mi].sd())
	}
	a.addTable(t)
	a.meanSDFigure("fig2_rubric_overall", "Figure 2: Overall rubric score (mean ± SD)", "scope",
		t, []string{"overall"}, v, func(mi, k int) *meanSD { return &cells[mi] })
}

// attributeCorrelations is Table 5: Pearson r of each attribute with the
// mean of the other attributes over all human gradings of the main round
// that scored every attribute, and of checklist rate with rubric mean;
// 95 % intervals from Fisher's z.
func (a *run) attributeCorrelations(v *view) {
	p := a.p
	t := newTable("attribute_correlations", "Table 5: Attribute correlations", report.SectionRubric,
		"Pearson r of each attribute's score with the mean of the other attributes, and of the checklist rate with the rubric mean, over the human gradings of the main round; 95 % Fisher-z intervals.",
		col("attribute", report.Text, "rubric attribute, or Checklist (checklist rate vs rubric mean)"),
		col("n", report.Int, "gradings"),
		col("r", report.Float, "Pearson r"),
		col("p", report.Float, "two-sided p-value of r"),
		col("r_lo", report.Float, "95 % Fisher-z interval, lower end"),
		col("r_hi", report.Float, "95 % Fisher-z interval, upper end"))
	row := func(name string, x, y []float64) {
		r, pv := stats.Pearson(x, y)
		lo, hi := stats.FisherZInterval(r, len(x), 0.95)
		addRow(t, name, int64(len(x)), r, pv, lo, hi)
	}
	if p.nAttr >= 2 {
		x, y := make([]float64, 0, len(v.g)), make([]float64, 0, len(v.g))
		for k, at := range p.s.Attributes {
			x, y = x[:0], y[:0]
			for _, gi := range v.g {
				g := &p.grades[gi]
				if int(g.rubN) != p.nAttr {
					continue
				}
				x = append(x, g.attr[k])
				y = append(y, (g.rubSum-g.attr[k])/float64(p.nAttr-1))
			}
			row(at, x, y)
		}
	} else {
		p.note(t.Name, "the rubric has one attribute: no attribute-vs-others correlation")
	}
	if p.hasChecklist {
		x, y := make([]float64, 0, len(v.g)), make([]float64, 0, len(v.g))
		for _, gi := range v.g {
			g := &p.grades[gi]
			if !math.IsNaN(g.rate) && !math.IsNaN(g.rubMean) {
				x = append(x, g.rate)
				y = append(y, g.rubMean)
			}
		}
		row("Checklist", x, y)
	} else {
		p.note(t.Name, "the study has no checklist: no Checklist row")
	}
	a.addTable(t)
}
