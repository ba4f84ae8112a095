package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
