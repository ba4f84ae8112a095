package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/format"
	"github.com/euroexec/euroexec/sample"
)

// The terminal summary opens with the leaderboard, then the findings, and
// lists the models by Solve Rate with their place, display names and units
// of report/format.
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
	rep := &report.Report{Title: "T", Tables: []*report.Table{models, sum}}
	printSummary(&b, rep, format.OrderRank)
	out := b.String()
	// the table of every measure follows the leaderboard and the findings
	lines := strings.Split(out[strings.Index(out, "— findings"):], "\n")
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
	lead, find, detail := strings.Index(out, "Leaderboard — human graders, all questions, by Solve Rate"), strings.Index(out, "findings"), strings.Index(out, "\nhuman graders, all questions, by Solve Rate")
	if lead < 0 || !(lead < find && find < detail) {
		t.Errorf("not leaderboard, findings, then every measure (%d, %d, %d):\n%s", lead, find, detail, out)
	}
	if !strings.Contains(out[lead:find], "1     Z Model  64.3 % [52.8 %, 75.4 %]") {
		t.Errorf("leaderboard does not rank Z Model first:\n%s", out[lead:find])
	}
	// --order alpha: the same rows by name, each keeping its place.
	b.Reset()
	printSummary(&b, rep, format.OrderAlpha)
	rows = nil
	for _, l := range strings.Split(b.String()[strings.Index(b.String(), "— findings"):], "\n") {
		if strings.HasPrefix(l, "1 ") || strings.HasPrefix(l, "2 ") {
			rows = append(rows, strings.Join(strings.Fields(l), " "))
		}
	}
	if strings.Join(rows, "\n") != want[1]+"\n"+want[0] {
		t.Errorf("alpha rows:\n%s\nwant:\n%s\n%s", strings.Join(rows, "\n"), want[1], want[0])
	}
	if !strings.Contains(b.String(), "by name (# = place by Solve Rate)") {
		t.Errorf("alpha order not announced:\n%s", b.String())
	}
}

// With [report] primary = "rubric" on a lower-is-better scale the summary
// lists the lowest mean rubric score first (places by it), under
// --order rank and primary alike, and says so.
func TestPrintSummaryPrimary(t *testing.T) {
	sum := &report.Table{Name: "summary", Columns: []report.Column{
		{Name: "set"}, {Name: "graders"}, {Name: "model"}, {Name: "n_gradings", Kind: report.Int},
		{Name: "solve_rate", Kind: report.Fraction}, {Name: "solve_rate_lo", Kind: report.Fraction}, {Name: "solve_rate_hi", Kind: report.Fraction},
		{Name: "rubric", Kind: report.Float},
	}, Rows: [][]any{
		{"all", "humans", "a", int64(8), 0.875, 0.6, 1.0, 0.2875},
		{"all", "humans", "b", int64(8), 0.75, 0.5, 1.0, 1.6},
		{"all", "humans", "c", int64(8), 0.875, 0.6, 1.0, 0.2875},
		{"all", "humans", "d", int64(8), 0.5, 0.2, 0.8, 7.775},
	}}
	rep := &report.Report{Title: "MQM", Tables: []*report.Table{sum}, Settings: []report.KV{
		{Key: "rubric.attributes", Value: "MQM"}, {Key: "rubric.direction", Value: "lower"}, {Key: "report.primary", Value: "rubric"}}}
	for _, order := range []format.Order{format.OrderRank, format.OrderPrimary} {
		var b bytes.Buffer
		printSummary(&b, rep, order)
		var got []string
		// the table of every measure, after the leaderboard and findings
		detail := b.String()[strings.Index(b.String(), "— findings"):]
		for _, l := range strings.Split(detail, "\n") {
			if f := strings.Fields(l); len(f) > 1 && len(f[0]) == 1 && f[0][0] >= '1' && f[0][0] <= '9' {
				got = append(got, f[0]+" "+f[1])
			}
		}
		if g := strings.Join(got, ", "); g != "1 a, 1 c, 3 b, 4 d" {
			t.Errorf("--order %s: rows %q, want 1 a, 1 c, 3 b, 4 d:\n%s", order, g, b.String())
		}
		if !strings.Contains(b.String(), "human graders, all questions, by mean MQM") {
			t.Errorf("--order %s: order not announced:\n%s", order, b.String())
		}
	}
}

// run --order takes rank or alpha; anything else is a usage error (exit 2)
// that names the accepted values, before anything is read or written.
func TestRunOrderFlag(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), &stdout, &stderr, []string{"run", "--order", "size", "-o", out})
	if code := exitCode(context.Background(), err); code != exitUsage {
		t.Errorf("exit %d (%v), want %d", code, err, exitUsage)
	}
	if err == nil || !strings.Contains(err.Error(), "expected rank or primary (by the primary metric, Solve Rate unless [report] primary says otherwise) or alpha (by model name)") {
		t.Errorf("error %v does not name the accepted values", err)
	}
	if _, serr := os.Stat(out); !os.IsNotExist(serr) {
		t.Errorf("%s was written although the flag was bad", out)
	}
	// A study whose best model's display name sorts last.
	study := filepath.Join(t.TempDir(), "study")
	if _, err := sample.Write(study, sample.DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	mp := filepath.Join(study, "models.csv")
	mb, err := os.ReadFile(mp)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(mb, []byte(",Atlas 5,")) {
		t.Fatalf("models.csv has no display name Atlas 5:\n%s", mb)
	}
	if err := os.WriteFile(mp, bytes.Replace(mb, []byte(",Atlas 5,"), []byte(",Zulu Atlas 5,"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	if err := run(context.Background(), &stdout, &stderr, []string{"run", study, "--order", "alpha", "--no-warnings", "-o", out}); err != nil {
		t.Fatalf("run --order alpha: %v\n%s", err, stderr.String())
	}
	s := stdout.String()
	// by Solve Rate Zulu Atlas 5 is first (place 1); by name it is last
	i, j := strings.Index(s, "Borealis 2.5 pro"), strings.Index(s, "Fjord 1.5 flash")
	k := strings.Index(s, "1  Zulu Atlas 5")
	if !strings.Contains(s, "by name (# = place by Solve Rate)") || i < 0 || !(i < j && j < k) {
		t.Errorf("terminal summary not by name with the places kept:\n%s", s)
	}
	// The site's summary table is by name too.
	idx, err := os.ReadFile(filepath.Join(out, "site", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	h := string(idx)
	h = h[strings.Index(h, `<section class="table"`):] // after the leaderboard, always by rank
	a, d, f := strings.Index(h, ">Borealis 2.5 pro</td>"), strings.Index(h, ">Fjord 1.5 flash</td>"), strings.Index(h, ">Zulu Atlas 5</td>")
	if a < 0 || !(a < d && d < f) {
		t.Errorf("site summary table not by name (positions %d, %d, %d)", a, d, f)
	}
}
