package tables

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/paper"
)

// TestPaperRubricFromTyped: the Figure 2 tables hold the typed rows and
// their figures draw mean ± SD per model and group (the axis says when
// lower is better); Table 5 holds its rows; nil rows leave a table out.
func TestPaperRubricFromTyped(t *testing.T) {
	nan := math.NaN()
	r := paper.Rubric{
		ByAttribute: []paper.RubricRow{
			{Group: "A", Model: "M1", N: 6, Mean: 23.0 / 6, SD: 0.75},
			{Group: "B", Model: "M1", N: 6, Mean: 4, SD: 0.5},
			{Group: "A", Model: "M2", N: 1, Mean: 3, SD: nan},
			{Group: "B", Model: "M2", N: 0, Mean: nan, SD: nan},
		},
		Attributes:    []string{"A", "B"},
		Overall:       []paper.RubricRow{{Group: "overall", Model: "M1", N: 6, Mean: 3.5, SD: 1}},
		LowerIsBetter: true,
		Correlations:  []paper.AttributeCorrelation{{Attribute: "Checklist", N: 12, R: 0.5, P: 0.1, Lo: -0.1, Hi: 0.8}},
	}
	p := paperRubric(r)
	if len(p.Tables) != 3 || len(p.Figures) != 2 {
		t.Fatalf("%d tables, %d figures; want 3 (no by-domain) and 2", len(p.Tables), len(p.Figures))
	}
	ba := p.Tables[0]
	if ba.Name != "rubric_by_attribute" || ba.Columns[0].Name != "attribute" || len(ba.Rows) != 4 {
		t.Fatalf("first table %s, first column %s, %d rows", ba.Name, ba.Columns[0].Name, len(ba.Rows))
	}
	checkCell(t, ba, ba.Rows[0], "mean", 23.0/6)
	checkCell(t, ba, ba.Rows[2], "sd", nan)
	checkCell(t, ba, ba.Rows[3], "n", int64(0))
	f := p.Figures[0]
	if f.YName != "rubric score (mean ± SD; lower is better)" || len(f.Series) != 2 || f.Series[1].Name != "M2" {
		t.Fatalf("Figure 2 by attribute: axis %q, series %+v", f.YName, f.Series)
	}
	if s := f.Series[0]; s.Lo[0] != 23.0/6-0.75 || s.Hi[1] != 4.5 || s.N[1] != 6 || !s.SD {
		t.Errorf("M1 series %+v: want mean ± SD whiskers", s)
	}
	ov := p.Tables[1]
	checkCell(t, ov, ov.Rows[0], "scope", "overall")
	if p.Figures[1].Categories[0] != "overall" {
		t.Errorf("overall figure categories %v", p.Figures[1].Categories)
	}
	ac := p.Tables[2]
	checkCell(t, ac, ac.Rows[0], "attribute", "Checklist")
	checkCell(t, ac, ac.Rows[0], "r_hi", 0.8)
	checkCell(t, ac, ac.Rows[0], "n", int64(12))
}
