package tables

import (
	"math"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/metrics/paper"
)

// TestPaperSignificanceFromTyped: pvalue_curve, pvalue_crossings and then
// pairwise_tests hold the typed rows (n_cross empty when never crossed);
// Figure 3 has one series per pair and the two reference lines over the
// sizes.
func TestPaperSignificanceFromTyped(t *testing.T) {
	nan := math.NaN()
	s := paper.Significance{
		Tests: []paper.PairTest{{Set: "all", Comparison: "adjacent", ModelA: "M1", ModelB: "M2", N: 3, MeanA: 3.8, MeanB: 3.2,
			T: 7 / math.Sqrt(13), DF: 2, P: 1 - 7/math.Sqrt(75), PHolm: 1 - 7/math.Sqrt(75)}},
		Curve: []paper.PValuePoint{
			{ModelA: "M1", ModelB: "M2", N: 2, MedianP: 0.5, Defined: 20}, {ModelA: "M1", ModelB: "M2", N: 3, MedianP: 0.2, Defined: 20},
			{ModelA: "M2", ModelB: "M3", N: 2, MedianP: nan, Defined: 0}, {ModelA: "M2", ModelB: "M3", N: 3, MedianP: 0.0005, Defined: 20},
		},
		Sizes: []int64{2, 3}, Resamples: 20,
		Crossings: []paper.Crossing{
			{ModelA: "M1", ModelB: "M2", Threshold: 0.01, FullN: 3, FullP: 0.2},
			{ModelA: "M2", ModelB: "M3", Threshold: 0.001, Crossed: true, NCross: 3, FullN: 3, FullP: 0.0005},
		},
	}
	p := paperSignificance(s)
	if len(p.Tables) != 3 || p.Tables[0].Name != "pvalue_curve" || p.Tables[1].Name != "pvalue_crossings" || p.Tables[2].Name != "pairwise_tests" {
		t.Fatalf("tables %+v", p.Tables)
	}
	c := p.Tables[0]
	checkCell(t, c, c.Rows[2], "median_p", nan)
	checkCell(t, c, c.Rows[3], "defined", int64(20))
	if !strings.Contains(c.Doc, "Median over 20 draws") {
		t.Errorf("pvalue_curve doc %q", c.Doc)
	}
	f := p.Figures[0]
	if len(f.Series) != 2 || f.Series[1].Name != "M2 vs M3" || len(f.Series[1].Points) != 2 || f.Series[1].Points[1].Y != 0.0005 {
		t.Errorf("Figure 3 series %+v", f.Series)
	}
	if len(f.Lines) != 2 || f.Lines[0].X1 != 2 || f.Lines[1].X2 != 3 || f.Lines[1].Y1 != 0.001 {
		t.Errorf("Figure 3 lines %+v", f.Lines)
	}
	x := p.Tables[1]
	checkCell(t, x, x.Rows[0], "n_cross", nil)
	checkCell(t, x, x.Rows[1], "n_cross", int64(3))
	pt := p.Tables[2]
	checkCell(t, pt, pt.Rows[0], "t", 7/math.Sqrt(13))
	checkCell(t, pt, pt.Rows[0], "df", 2.0)
	checkCell(t, pt, pt.Rows[0], "n", int64(3))
}
