package paper

import (
	"math"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// Rubric is Figure 2 (rubric mean and SD per model by attribute, by domain
// and overall) and Table 5 (attribute correlations), over the human
// gradings of the main round. A nil slice is a table left out (the notes
// say why).
type Rubric struct {
	// ByAttribute, ByDomain and Overall are model by model (the models of
	// set all in model order), each model with one row per entry of
	// Attributes, Domains, or the one group "overall".
	ByAttribute []RubricRow
	Attributes  []string
	ByDomain    []RubricRow
	Domains     []string
	Overall     []RubricRow
	// LowerIsBetter is the study's rubric direction (the figures' axis
	// says so).
	LowerIsBetter bool
	// Correlations are Table 5's rows: one per attribute (with two or
	// more attributes), then Checklist (with a checklist).
	Correlations []AttributeCorrelation
}

// RubricRow is one model's rubric scores in one group.
type RubricRow struct {
	// Group is the attribute, the domain or "overall".
	Group, Model string
	// N counts the gradings.
	N int64
	// Mean is the mean over gradings (NaN without one); Exact the same
	// mean as an exact fraction when every value has one (zero Rat
	// otherwise); SD the standard deviation (n − 1).
	Mean  float64
	Exact study.Rat
	SD    float64
}

// AttributeCorrelation is one row of Table 5.
type AttributeCorrelation struct {
	// Attribute is the rubric attribute (its score against the mean of the
	// others), or Checklist (checklist rate against rubric mean).
	Attribute string
	N         int64
	// R is Pearson r, P its two-sided p-value, Lo and Hi the 95 % Fisher-z
	// interval.
	R, P, Lo, Hi float64
}

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

// row is the rubric row of the group for a model.
func (m *meanSD) row(group, model string) RubricRow {
	return RubricRow{Group: group, Model: model, N: int64(len(m.x)), Mean: m.mean(), Exact: m.exact.Rat(), SD: m.sd()}
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
	rows := []RubricRow{}
	for mi, m := range v.models {
		for k, at := range p.s.Attributes {
			rows = append(rows, cells[mi][k].row(at, p.s.Models[m].Name))
		}
	}
	a.res.Rubric.ByAttribute, a.res.Rubric.Attributes = rows, p.s.Attributes
	a.res.Rubric.LowerIsBetter = p.s.LowerIsBetter
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
	rows := []RubricRow{}
	for mi, m := range v.models {
		for k, d := range doms {
			rows = append(rows, cells[mi][k].row(d, p.s.Models[m].Name))
		}
	}
	a.res.Rubric.ByDomain, a.res.Rubric.Domains = rows, doms
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
	rows := []RubricRow{}
	for mi, m := range v.models {
		rows = append(rows, cells[mi].row("overall", p.s.Models[m].Name))
	}
	a.res.Rubric.Overall = rows
}

// attributeCorrelations is Table 5: Pearson r of each attribute with the
// mean of the other attributes over all human gradings of the main round
// that scored every attribute, and of checklist rate with rubric mean;
// 95 % intervals from Fisher's z.
func (a *run) attributeCorrelations(v *view) {
	p := a.p
	rows := []AttributeCorrelation{}
	row := func(name string, x, y []float64) {
		r, pv := stats.Pearson(x, y)
		lo, hi := stats.FisherZInterval(r, len(x), 0.95)
		rows = append(rows, AttributeCorrelation{Attribute: name, N: int64(len(x)), R: r, P: pv, Lo: lo, Hi: hi})
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
		p.note("attribute_correlations", "the rubric has one attribute: no attribute-vs-others correlation")
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
		p.note("attribute_correlations", "the study has no checklist: no Checklist row")
	}
	a.res.Rubric.Correlations = rows
}
