package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A study whose names a spreadsheet would run as formulas (a model shown
// as =HYPERLINK("http://x"), one as -1+2, a judge @SUM(1)) gives tables
// where every such text starts with an apostrophe, the names read back
// exactly without it, and a cell that starts with '-' or '+' unprefixed
// is a number.
func TestTablesNeutraliseFormulas(t *testing.T) {
	dir := copySample(t)
	replaceIn(t, filepath.Join(dir, "models.csv"),
		"atlas-5,Atlas AI,Atlas 5,", `atlas-5,Atlas AI,"=HYPERLINK(""http://x"")",`,
		"borealis-2.5-pro,Borealis Labs,Borealis 2.5 pro,", "borealis-2.5-pro,Borealis Labs,-1+2,")
	replaceIn(t, filepath.Join(dir, "grades", "judges", "critic-mini.jsonl"), `"evaluator":"critic-mini"`, `"evaluator":"@SUM(1)"`)
	out := filepath.Join(t.TempDir(), "report")
	var stdout, stderr bytes.Buffer
	if _, err := runStudy(context.Background(), &stdout, &stderr, dir, runOptions{out: out, quiet: true, now: fixedNow}); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	paths, _ := filepath.Glob(filepath.Join(out, "tables", "*.csv"))
	cells := map[string]bool{}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, rec := range recs {
			for _, c := range rec {
				cells[c] = true
				if c == "" || !strings.ContainsRune("=+-@\t\r", rune(c[0])) {
					continue
				}
				if _, err := strconv.ParseFloat(c, 64); err != nil && c != "-Inf" && c != "+Inf" {
					t.Errorf("%s: cell %q starts like a formula", filepath.Base(p), c)
				}
			}
		}
	}
	for _, want := range []string{`'=HYPERLINK("http://x")`, "'-1+2", "'@SUM(1)"} {
		if !cells[want] {
			t.Errorf("no cell %q in the tables", want)
		}
		if back := want[1:]; cells[back] {
			t.Errorf("cell %q written without its apostrophe", back)
		}
	}
	// numbers stay numbers: the models' prices, as in models.csv
	b, err := os.ReadFile(filepath.Join(out, "tables", "models.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.Index(recs[0], "usd_per_1k_output"); i >= 0 {
		for _, rec := range recs[1:] {
			if rec[0] == "atlas-5" && rec[i] != "0.061" {
				t.Errorf("atlas-5 usd_per_1k_output = %q, want 0.061", rec[i])
			}
		}
	}
}

// replaceIn replaces each old with its new (pairs) in the file at p; each old must be there.
func replaceIn(t *testing.T, p string, oldNew ...string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for i := 0; i < len(oldNew); i += 2 {
		if !strings.Contains(s, oldNew[i]) {
			t.Fatalf("%s: no %q", p, oldNew[i])
		}
		s = strings.ReplaceAll(s, oldNew[i], oldNew[i+1])
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
