package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/metrics/compare"
	"github.com/euroexec/euroexec/report"
)

// A study with pairwise judgments only (no rubric, checklist or ranks):
// the run succeeds, writes the pairwise tables, and leaves the rubric
// tables out with notes.
func TestRunPairwiseOnly(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "pairwise"))); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "grades", "humans", "main", "ann_rubric.csv")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "report")
	var stdout, stderr bytes.Buffer
	rep, err := runStudy(context.Background(), &stdout, &stderr, dir, runOptions{out: out, quiet: true, now: fixedNow})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	for _, name := range []string{"pairwise_models", "pairwise_matrix", "pairwise_agreement", "pairwise_position", "pairwise_length", "pairwise_judge_audit"} {
		b, err := os.ReadFile(filepath.Join(out, "tables", name+".csv"))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if bytes.Count(b, []byte("\n")) < 2 {
			t.Errorf("%s has no rows", name)
		}
	}
	if rep.Table("pairwise_rubric") != nil {
		t.Error("pairwise_rubric written without rubric gradings")
	}
	notes, _ := os.ReadFile(filepath.Join(out, "tables", "notes.csv"))
	for _, want := range []string{"pairwise_rubric,", "rubric_by_attribute,left out: the study has no rubric"} {
		if !strings.Contains(string(notes), want) {
			t.Errorf("notes.csv lacks %q", want)
		}
	}
	page, err := os.ReadFile(filepath.Join(out, "site", "pairwise.html"))
	if err != nil || !bytes.Contains(page, []byte("pairwise_matrix_1")) {
		t.Errorf("site/pairwise.html with the win-rate heat map: %v", err)
	}
}

// printPairwiseFlagged lists the significant rows of compare_pairwise and
// says (none) when there are none.
func TestPrintPairwiseFlagged(t *testing.T) {
	tab := &report.Table{Name: compare.PairwiseTable, Columns: []report.Column{{Name: "graders"}, {Name: "model"}, {Name: "metric"},
		{Name: "old"}, {Name: "new"}, {Name: "delta"}, {Name: "delta_lo"}, {Name: "delta_hi"}, {Name: "significant"}},
		Rows: [][]any{{"humans", "A", "win_rate", 0.75, 0.25, -0.5, -0.7, -0.3, "yes"}, {"humans", "B", "win_rate", 0.25, 0.75, 0.5, -0.1, 0.9, "no"}}}
	var b bytes.Buffer
	printPairwiseFlagged(&b, &report.Report{Title: "T", Tables: []*report.Table{tab}})
	if s := b.String(); !strings.Contains(s, "A      win_rate  humans   0.75  0.25  -0.5   [-0.7, -0.3]") || strings.Contains(s, "(none)") || strings.Contains(s, "B ") {
		t.Errorf("got\n%s", s)
	}
	tab.Rows = tab.Rows[1:]
	b.Reset()
	printPairwiseFlagged(&b, &report.Report{Title: "T", Tables: []*report.Table{tab}})
	if !strings.Contains(b.String(), "(none)") {
		t.Errorf("got\n%s", b.String())
	}
}
