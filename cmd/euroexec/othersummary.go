package main

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/euroexec/euroexec/internal/termtext"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/findings"
	"github.com/euroexec/euroexec/report/format"
)

// hasHumanSummary says the summary table has rows of the human graders on
// all questions, the rows the terminal summary shows first.
func hasHumanSummary(t *report.Table) bool {
	for _, row := range t.Rows {
		if t.Get(row, "set") == "all" && t.Get(row, "graders") == "humans" {
			return true
		}
	}
	return false
}

// summaryColumn is one column of a terminal table of models: its head and
// how a row shows it.
type summaryColumn struct {
	head string
	cell func(t *report.Table, row []any) string
}

// printOtherSummaries prints, for a study without human gradings on all
// questions (judge-only, pairwise-only, PRBench-only), the tables of models
// its instruments define: the summary per judge, the pairwise win rates and
// the PRBench scores, each per grader population; and a sentence when
// there is none, so that the terminal never shows an empty table.
func printOtherSummaries(w io.Writer, rep *report.Report, order format.Order) {
	names := findings.DisplayNames(rep)
	f64 := func(v any) float64 {
		if f, ok := v.(float64); ok {
			return f
		}
		return math.NaN()
	}
	num := func(t *report.Table, row []any, col string) float64 { return f64(t.Get(row, col)) }
	rate := func(col, lo, hi string) func(*report.Table, []any) string {
		return func(t *report.Table, row []any) string {
			return format.Percent(num(t, row, col)) + " " + format.RateInterval(num(t, row, lo), num(t, row, hi))
		}
	}
	plain := func(col string, show func(float64) string) func(*report.Table, []any) string {
		return func(t *report.Table, row []any) string { return show(num(t, row, col)) }
	}
	count := func(col string) func(*report.Table, []any) string {
		return func(t *report.Table, row []any) string { return fmt.Sprint(t.Get(row, col)) }
	}
	printed := false
	for _, v := range []struct {
		table, title, by, key string
		keep                  func(t *report.Table, row []any) bool
		cols                  []summaryColumn
	}{
		{"summary", "all questions", "Solve Rate", "solve_rate",
			func(t *report.Table, row []any) bool { return t.Get(row, "set") == "all" },
			[]summaryColumn{{"gradings", count("n_gradings")}, {"Solve Rate [95% interval]", rate("solve_rate", "solve_rate_lo", "solve_rate_hi")},
				{"avg rank", plain("avg_rank", format.Points)}, {"win rate", plain("win_rate", format.Percent)},
				{"rubric (points)", plain("rubric", format.Points)}, {"checklist", plain("checklist_rate", format.Percent)}}},
		{"pairwise_models", "pairwise judgments", "win rate", "win_rate",
			func(*report.Table, []any) bool { return true },
			[]summaryColumn{{"judgments", count("n")}, {"wins", count("wins")}, {"losses", count("losses")}, {"ties", count("ties")},
				{"win rate [95% interval]", rate("win_rate", "win_rate_lo", "win_rate_hi")}, {"Bradley-Terry rating", plain("bt_rating", format.Number)},
				{"length-controlled win rate", plain("lc_win_rate", format.Percent)}}},
		{"prbench_scores", "PRBench criteria, all questions", "clipped score", "clipped_mean",
			func(t *report.Table, row []any) bool { return t.Get(row, "set") == "all" },
			[]summaryColumn{{"responses", count("n")}, {"clipped score [95% interval]", rate("clipped_mean", "clipped_lo", "clipped_hi")},
				{"normalized score", plain("normalized_mean", format.Percent)}}},
	} {
		t := rep.Table(v.table)
		if t == nil {
			continue
		}
		var pops []string
		rows := map[string][][]any{}
		for _, row := range t.Rows {
			if !v.keep(t, row) {
				continue
			}
			g, _ := t.Get(row, "graders").(string)
			if _, ok := rows[g]; !ok {
				pops = append(pops, g)
			}
			rows[g] = append(rows[g], row)
		}
		for _, g := range pops {
			rs := rows[g]
			by := "by " + v.by
			if order == format.OrderAlpha {
				by = "by name"
				sort.SliceStable(rs, func(i, j int) bool {
					a, _ := t.Get(rs[i], "model").(string)
					b, _ := t.Get(rs[j], "model").(string)
					return strings.ToLower(names.Name(a)) < strings.ToLower(names.Name(b))
				})
			} else {
				sort.SliceStable(rs, func(i, j int) bool {
					a, b := num(t, rs[i], v.key), num(t, rs[j], v.key)
					if math.IsNaN(a) != math.IsNaN(b) {
						return !math.IsNaN(a)
					}
					return a > b
				})
			}
			who := "human graders"
			if j, ok := strings.CutPrefix(g, "judge:"); ok {
				who = "judge " + j
			} else if g == "judge" {
				who = "LLM judges"
			} else if v.table == "pairwise_models" && g != "humans" {
				who = "judge " + g // pairwise populations are "humans" or the judge's id
			}
			fmt.Fprintf(w, "\n%s, %s, %s\n", termtext.Line(who), v.title, by)
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			head := []string{"model"}
			for _, c := range v.cols {
				head = append(head, c.head)
			}
			fmt.Fprintln(tw, strings.Join(head, "\t"))
			for _, row := range rs {
				id, _ := t.Get(row, "model").(string)
				cells := []string{termtext.Line(names.Name(id))}
				for _, c := range v.cols {
					cells = append(cells, c.cell(t, row))
				}
				fmt.Fprintln(tw, strings.Join(cells, "\t"))
			}
			tw.Flush()
			printed = true
		}
	}
	if !printed {
		fmt.Fprintln(w, "\nno table of models: no grading of the study defines a score per model (see the report's Notes)")
	}
}
