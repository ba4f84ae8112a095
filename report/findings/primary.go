package findings

import (
	"math"
	"sort"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/format"
)

// Primary is the report's primary metric: the one that orders the
// terminal summary, the site's and workbook's model tables and the
// findings ([report] primary in study.toml).
type Primary struct {
	// Key is solve_rate, rubric, checklist, pairwise or prbench.
	Key string
	// Label names the metric in text ("Solve Rate", "mean rubric score").
	Label string
	// Column is the metric's column in the summary table; "" for pairwise
	// and prbench, which have their own tables.
	Column string
	// Lower says lower values are better (a lower-is-better rubric).
	Lower bool
}

// PrimaryOf returns the report's primary metric: [report] primary when
// set, else the first of Solve Rate, rubric, checklist, pairwise and
// PRBench that the report has a value of (Solve Rate when none has). A
// Solve Rate that is 0 % for every model (no response meets the Solve
// rule) or 100 % for every one separates nothing: the default then passes
// on to the rubric or the checklist when the study has one.
func PrimaryOf(r *report.Report) Primary {
	key := setting(r, "report.primary")
	if key == "" {
		key = "solve_rate"
		found := false
		for _, k := range []string{"solve_rate", "rubric", "checklist"} {
			if vals := summaryValues(r, primaryColumn(k)); len(vals) > 0 {
				if k == "solve_rate" && ConstantSolveRate(r) != "" {
					continue
				}
				key, found = k, true
				break
			}
		}
		if !found && len(summaryValues(r, "solve_rate")) > 0 {
			key, found = "solve_rate", true
		}
		if !found {
			for _, k := range []string{"pairwise", "prbench"} {
				if len(PrimaryValues(r, Primary{Key: k})) > 0 {
					key = k
					break
				}
			}
		}
	}
	p := Primary{Key: key, Column: primaryColumn(key)}
	switch key {
	case "rubric":
		p.Label, p.Lower = "mean "+measure(r), setting(r, "rubric.direction") == "lower"
	case "checklist":
		p.Label = "checklist rate"
	case "pairwise":
		p.Label = "Bradley–Terry rating"
	case "prbench":
		p.Label = "PRBench score"
	default:
		p.Label = "Solve Rate"
	}
	return p
}

// ConstantSolveRate says "0 %" when every model's human Solve Rate on
// all questions is 0, "100 %" when every one is 1 (two models or more),
// "" otherwise: a Solve Rate that separates nothing, because no response
// meets the Solve rule, or every one does.
func ConstantSolveRate(r *report.Report) string {
	vals := summaryValues(r, "solve_rate")
	if len(vals) < 2 {
		return ""
	}
	zero, one := true, true
	for _, v := range vals {
		zero = zero && v == 0
		one = one && v == 1
	}
	switch {
	case zero:
		return "0 %"
	case one:
		return "100 %"
	}
	return ""
}

// primaryColumn is the summary table's column of a metric ("" for
// pairwise and prbench).
func primaryColumn(key string) string {
	switch key {
	case "solve_rate":
		return "solve_rate"
	case "rubric":
		return "rubric"
	case "checklist":
		return "checklist_rate"
	}
	return ""
}

// summaryValues maps each model of the summary table's human rows on all
// questions to its defined value in column.
func summaryValues(r *report.Report, column string) map[string]float64 {
	return tableValues(r.Table("summary"), column, map[string]string{"set": "all", "graders": "humans"})
}

// tableValues maps the model of each row of t matching where (column →
// value, where t has the column) to its defined value in column.
func tableValues(t *report.Table, column string, where map[string]string) map[string]float64 {
	out := map[string]float64{}
	if t == nil || column == "" {
		return out
	}
	c := cols(t)
	if !c.has("model") || !c.has(column) {
		return out
	}
	for _, row := range t.Rows {
		keep := true
		for k, v := range where {
			if c.has(k) && str(row, c.i(k)) != v {
				keep = false
			}
		}
		if v := num(row, c, column); keep && !math.IsNaN(v) {
			out[str(row, c.i("model"))] = v
		}
	}
	return out
}

// PrimaryValues maps each model to its value of the primary metric: the
// summary's human row on all questions, the humans' Bradley–Terry rating
// (pairwise_models) or the humans' clipped PRBench score on all questions
// (prbench_scores).
func PrimaryValues(r *report.Report, p Primary) map[string]float64 {
	switch p.Key {
	case "pairwise":
		return tableValues(r.Table("pairwise_models"), "bt_rating", map[string]string{"graders": "humans"})
	case "prbench":
		return tableValues(r.Table("prbench_scores"), "clipped_mean", map[string]string{"set": "all", "graders": "humans"})
	}
	return summaryValues(r, p.Column)
}

// FormatPrimary writes a value of the primary metric as the report shows
// it: a percent for rates and scores in [0, 1], points otherwise.
func (p Primary) FormatPrimary(v float64) string {
	switch p.Key {
	case "solve_rate", "checklist", "prbench":
		return format.Percent(v)
	}
	return format.Points(v)
}

// RankingBy returns the models of Ranking ordered by the primary metric p
// (best first: highest, or lowest when p.Lower; models without a value
// last; then by id), each with Value its value and Rank its place by it
// (equal values share a place). For Solve Rate it is Ranking.
func RankingBy(r *report.Report, p Primary) []Model {
	out := Ranking(r)
	if p.Key == "solve_rate" {
		return out
	}
	vals := PrimaryValues(r, p)
	for i := range out {
		out[i].Value = math.NaN()
		if v, ok := vals[out[i].ID]; ok {
			out[i].Value = v
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Value, out[j].Value
		if math.IsNaN(a) != math.IsNaN(b) {
			return !math.IsNaN(a)
		}
		if a != b {
			return a > b != p.Lower
		}
		return out[i].ID < out[j].ID
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].Value == out[i-1].Value {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}
