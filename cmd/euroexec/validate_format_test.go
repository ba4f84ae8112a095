package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// badStudy copies the ingest base study with 150 grading rows of unknown
// questions, the first named "=HYPERLINK(1)".
func badStudy(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "ingest", "testdata", "base")
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755)
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("evaluator,question_id,model,Domain,Localization,Reasoning,Communication,Actionability,C1,C2,rank,comment\n")
	for i := 0; i < 150; i++ {
		q := fmt.Sprintf("zz%d", i)
		if i == 0 {
			q = "=HYPERLINK(1)"
		}
		fmt.Fprintf(&b, "alice,%s,m1,4,4,3,5,4,hit,na,1,\n", q)
	}
	if err := os.WriteFile(filepath.Join(dst, "grades", "humans", "main", "alice.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestValidateFormat(t *testing.T) {
	dir := badStudy(t)
	var so, se bytes.Buffer
	err := run(context.Background(), &so, &se, []string{"validate", dir, "--format", "json"})
	if err == nil {
		t.Fatal("validate --format json: no error for a bad study")
	}
	var recs []struct {
		Severity, File, Sheet, Column, Value, Expected, Kind string
		Row, Group                                           int
	}
	if err := json.Unmarshal(so.Bytes(), &recs); err != nil {
		t.Fatalf("json: %v\n%s", err, so.String())
	}
	unknown := 0
	for _, r := range recs {
		if r.Severity == "problem" && strings.HasPrefix(r.Expected, "a question id of the questions file") {
			unknown++
			if r.File != "grades/humans/main/alice.csv" || r.Column != "question_id" || r.Row < 2 || r.Group != 1 || r.Kind != "unknown question ids" {
				t.Errorf("record not located: %+v", r)
			}
		}
	}
	if unknown != 150 {
		t.Errorf("json lists %d unknown-question problems, want 150 (no cap)", unknown)
	}

	so.Reset()
	if err := run(context.Background(), &so, &se, []string{"validate", dir, "--format", "csv"}); err == nil {
		t.Fatal("validate --format csv: no error for a bad study")
	}
	rows, err := csv.NewReader(&so).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != "severity,file,sheet,row,column,value,expected,fix,group,kind" {
		t.Errorf("csv header %q", rows[0])
	}
	found := false
	groups := map[string]int{} // group → unknown-question rows in it
	for _, r := range rows[1:] {
		if r[4] == "question_id" && r[0] == "problem" {
			groups[r[8]+" "+r[9]]++
		}
		if r[4] == "question_id" && r[3] == "2" {
			found = true
			if r[5] != "'=HYPERLINK(1)" {
				t.Errorf("formula-like value written as %q, want it kept text with a leading '", r[5])
			}
		}
	}
	if !found || len(rows) < 151 {
		t.Errorf("csv: %d rows, row 2 found %v", len(rows), found)
	}
	// The 150 unknown questions are one group: the same group number and kind on every row.
	if len(groups) != 1 || groups["1 unknown question ids"] != 150 {
		t.Errorf("csv groups of the unknown-question rows: %v, want 150 rows in group 1, kind \"unknown question ids\"", groups)
	}

	if err := run(context.Background(), &so, &se, []string{"validate", dir, "--format", "xml"}); err == nil || !strings.Contains(err.Error(), "expected text, json or csv") {
		t.Errorf("--format xml: %v", err)
	}
	// The terminal shows the 150 problems as one group: the count, the
	// first three rows and values, what was expected.
	so.Reset()
	se.Reset()
	run(context.Background(), &so, &se, []string{"validate", dir})
	want := `grades/humans/main/alice.csv, column "question_id": 150 unknown question ids (e.g. row 2 "=HYPERLINK(1)", row 3 "zz1", row 4 "zz2"); a question id of the questions file`
	if !strings.Contains(se.String(), want) || strings.Count(se.String(), "\n  ") != 1 {
		t.Errorf("terminal output is not one group line:\n%s\nwant %s", se.String(), want)
	}
}
