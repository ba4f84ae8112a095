package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/report"
)

// The terminal summary opens with the findings and lists the models by Solve
// Rate with their place, display names and units of report/format.
func TestPrintSummaryOrder(t *testing.T) {
	sum := &report.Table{Name: "summary", Columns: []report.Column{
		{Name: "set"}, {Name: "graders"}, {Name: "model"}, {Name: "n_gradings", Kind: report.Int},
		{Name: "solve_rate", Kind: report.Fraction}, {Name: "solve_rate_lo", Kind: report.Fraction}, {Name: "solve_rate_hi", Kind: report.Fraction},
		{Name: "avg_rank", Kind: report.Float}, {Name: "win_rate", Kind: report.Fraction}, {Name: "rubric", Kind: report.Float},
		{Name: "checklist_rate", Kind: report.Fraction}, {Name: "group_solve_rate"},
	}, Rows: [][]any{
		{"all", "humans", "a-model", int64(126), 0.25, -0.015, 0.4, 2.5, 0.1, 2.75, 0.5, "b"},
		{"all", "humans", "z-model", int64(126), 0.6428571428571429, 0.528, 0.7538, 1.5, 0.4, 3.557, 0.716, "a"},
		{"all", "judge:j", "a-model", int64(60), 0.99, 0.9, 1.0, 1.0, 1.0, 5.0, 1.0, ""},
	}}
	models := &report.Table{Name: "models", Columns: []report.Column{{Name: "model"}, {Name: "display_name"}},
		Rows: [][]any{{"a-model", "A Model"}, {"z-model", "Z Model"}}}
	var b bytes.Buffer
	printSummary(&b, &report.Report{Title: "T", Tables: []*report.Table{models, sum}})
	out := b.String()
	lines := strings.Split(out, "\n")
	var rows []string
	for _, l := range lines {
		if strings.HasPrefix(l, "1 ") || strings.HasPrefix(l, "2 ") {
			rows = append(rows, strings.Join(strings.Fields(l), " "))
		}
	}
	want := []string{
		"1 Z Model 126 64.3 % [52.8 %, 75.4 %] 1.50 40.0 % 3.56 71.6 % a",
		"2 A Model 126 25.0 % [0.0 %, 40.0 %] 2.50 10.0 % 2.75 50.0 % b",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s\n\nwhole output:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"), out)
	}
	if !strings.Contains(out, "• Z Model has the highest Solve Rate, 64.3 % [52.8 %, 75.4 %]") {
		t.Errorf("no headline finding first:\n%s", out)
	}
	if strings.Index(out, "findings") > strings.Index(out, "by Solve Rate") {
		t.Errorf("findings not first:\n%s", out)
	}
}
