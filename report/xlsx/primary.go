package xlsx

import (
	"math"
	"slices"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/findings"
)

// byPrimary returns the summary table with its rows ordered by the primary
// metric p, best first, within blocks of equal set and graders (blocks in
// their order, rows without a value last, ties in table order). For Solve
// Rate, and for a metric without a column in the table, it returns t as
// it is (the analysis orders it by Solve Rate).
func byPrimary(t *report.Table, p findings.Primary) *report.Table {
	if p.Key == "solve_rate" || p.Column == "" {
		return t
	}
	col, set, graders := -1, -1, -1
	for i, c := range t.Columns {
		switch c.Name {
		case p.Column:
			col = i
		case "set":
			set = i
		case "graders":
			graders = i
		}
	}
	if col < 0 {
		return t
	}
	cell := func(row []any, i int) any {
		if i >= 0 && i < len(row) {
			return row[i]
		}
		return nil
	}
	blockOf := map[[2]any]int{}
	block := make([]int, len(t.Rows))
	for r, row := range t.Rows {
		k := [2]any{cell(row, set), cell(row, graders)}
		if _, ok := blockOf[k]; !ok {
			blockOf[k] = len(blockOf)
		}
		block[r] = blockOf[k]
	}
	val := func(r int) float64 {
		if v, ok := cell(t.Rows[r], col).(float64); ok {
			return v
		}
		return math.NaN()
	}
	order := make([]int, len(t.Rows))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if block[a] != block[b] {
			return block[a] - block[b]
		}
		va, vb := val(a), val(b)
		switch {
		case math.IsNaN(va) || math.IsNaN(vb):
			if math.IsNaN(va) && !math.IsNaN(vb) {
				return 1
			}
			if !math.IsNaN(va) && math.IsNaN(vb) {
				return -1
			}
			return 0
		case va == vb:
			return 0
		case va > vb != p.Lower:
			return -1
		}
		return 1
	})
	out := *t
	out.Rows = make([][]any, len(order))
	for i, r := range order {
		out.Rows[i] = t.Rows[r]
	}
	return &out
}
