package tables

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/paper"
)

// TestPaperConsistencyFromTyped: Table 6 holds its typed rows; nil rows
// give no table.
func TestPaperConsistencyFromTyped(t *testing.T) {
	nan := math.NaN()
	p := paperConsistency([]paper.ConsistencyRow{
		{Comparison: "cross_rubric", Scope: "across", Value: -1, N: 2, Undefined: 1, Lo: nan, Hi: nan},
		{Comparison: "pearson_rubric", Scope: "pearson", Value: -121.0 / 467, N: 12, Lo: -0.5, Hi: 0.3},
	})
	if len(p.Tables) != 1 || p.Tables[0].Name != "consistency" || len(p.Tables[0].Rows) != 2 {
		t.Fatalf("tables %+v", p.Tables)
	}
	c := p.Tables[0]
	checkCell(t, c, c.Rows[0], "n_undefined", int64(1))
	checkCell(t, c, c.Rows[0], "lo", nan)
	checkCell(t, c, c.Rows[1], "value", -121.0/467)
	checkCell(t, c, c.Rows[1], "n_undefined", int64(0))
	checkCell(t, c, c.Rows[1], "scope", "pearson")
	if p := paperConsistency(nil); len(p.Tables) != 0 {
		t.Error("nil rows give a table")
	}
}
