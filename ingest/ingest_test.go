package ingest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyStudy copies testdata/base to a temp folder and applies edits: a
// path → content map; content "-" deletes the file.
func copyStudy(t testing.TB, edits map[string]string) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("testdata", "base")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		os.MkdirAll(filepath.Dir(out), 0o755)
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel, content := range edits {
		p := filepath.Join(dst, filepath.FromSlash(rel))
		if content == "-" {
			os.Remove(p)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

const aliceHeader = "evaluator,question_id,model,Domain,Localization,Reasoning,Communication,Actionability,C1,C2,rank,comment\n"

// alice returns alice.csv with its first data row replaced.
func alice(first string) string {
	return aliceHeader + first + "\n" +
		"alice,q1,m2,2,3,2,3,2,miss,na,2,x\n" +
		"alice,q2,m1,4,4,3,5,4,hit,,1,\n" +
		"alice,q2,m2,3,3,3,3,3,no,,2,\n"
}

func TestValidateBase(t *testing.T) {
	res, err := Validate(context.Background(), filepath.Join("testdata", "base"))
	if err != nil {
		t.Fatalf("base study: %v", err)
	}
	if len(res.Files) != 10 {
		t.Errorf("files read = %d, want 10", len(res.Files))
	}
	want := []string{
		"gradings of responses missing from the response dumps", // m2 on q2 has no dump
		"judge gpt: 1 of 10 rubric scores dropped: empty",       // Actionability is null in one of 2 gradings × 5 attributes
	}
	for _, w := range want {
		if !strings.Contains(strings.Join(res.Warnings, "\n"), w) {
			t.Errorf("warnings %q lack %q", res.Warnings, w)
		}
	}
}

// TestValidationRules runs every bad study in testdata/bad: each folder holds
// the files that differ from testdata/base and want.txt, the lines that the
// error must contain (file, sheet, row, column, value, expectation).
func TestValidationRules(t *testing.T) {
	cases, err := os.ReadDir(filepath.Join("testdata", "bad"))
	if err != nil || len(cases) < 25 {
		t.Fatalf("testdata/bad: %d cases, %v", len(cases), err)
	}
	for _, c := range cases {
		t.Run(c.Name(), func(t *testing.T) {
			over := filepath.Join("testdata", "bad", c.Name())
			edits := map[string]string{}
			var want []string
			filepath.WalkDir(over, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				b, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(over, p)
				if rel == "want.txt" {
					want = strings.Split(strings.TrimSpace(string(b)), "\n")
					return nil
				}
				edits[filepath.ToSlash(rel)] = string(b)
				return nil
			})
			if len(want) == 0 {
				t.Fatal("no want.txt")
			}
			dir := copyStudy(t, edits)
			_, err := Validate(context.Background(), dir)
			if err == nil {
				t.Fatalf("no error; want %q", want)
			}
			for _, w := range want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error:\n%v\nlacks %q", err, w)
				}
			}
		})
	}
}

func TestAllProblemsListed(t *testing.T) {
	dir := copyStudy(t, map[string]string{
		"grades/humans/main/alice.csv": aliceHeader +
			"alice,q1,m1,9,4,3,5,4,hit,partial,1,\n" +
			"alice,q1,m2,2,3,2,3,2,maybe,na,2,x\n" +
			"alice,q7,m1,4,4,3,5,4,hit,,1,\n",
	})
	_, err := Validate(context.Background(), dir)
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want *ProblemsError", err)
	}
	if len(pe.Problems) < 3 {
		t.Errorf("got %d problems, want at least 3:\n%v", len(pe.Problems), err)
	}
}

func TestAcceptsRealSpreadsheetQuirks(t *testing.T) {
	// BOM, CRLF, surrounding whitespace, HIT in capitals, "4.0", trailing blank rows.
	dir := copyStudy(t, map[string]string{
		"grades/humans/main/alice.csv": "\xef\xbb\xbf" + strings.ReplaceAll(aliceHeader+
			" alice ,q1, m1 ,4.0,4,3,5,4, HIT ,Partial,1,\n"+
			"alice,q1,m2,2,3,2,3,2,miss,NA,2,x\n"+
			"alice,q2,m1,4,4,3,5,4,yes,,1,\n"+
			"alice,q2,m2,3,3,3,3,3,no,,2,\n,,,,,,,,,,,\n\n", "\n", "\r\n"),
	})
	if _, err := Validate(context.Background(), dir); err != nil {
		t.Fatalf("quirks rejected: %v", err)
	}
}

func TestFailedLoadLeavesDatabaseUntouched(t *testing.T) {
	good := copyStudy(t, nil)
	db := filepath.Join(t.TempDir(), "study.duckdb")
	if _, err := Ingest(context.Background(), good, Options{DB: db}); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	bad := copyStudy(t, map[string]string{"grades/humans/main/alice.csv": alice("alice,q9,m1,4,4,3,5,4,hit,partial,1,")})
	if _, err := Ingest(context.Background(), bad, Options{DB: db}); err == nil {
		t.Fatal("bad study loaded")
	}
	after, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the database file changed after a failed load")
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(db), ".*tmp*"))
	if len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// TestJudgeScoresOffScaleAreLeftOut: a judge's average that fell below the
// scale (failure codes averaged in) or free text is not a score; the study
// loads, the score is missing, and the warnings say where.
func TestJudgeScoresOffScaleAreLeftOut(t *testing.T) {
	dir := copyStudy(t, map[string]string{"grades/judges/gpt.jsonl": `{"evaluator":"gpt","question_id":"q1","model":"m1","Domain":0.67,"Localization":4,"Reasoning":"n/a","Communication":5,"Actionability":4,"C1":"hit","C2":"hit","rank":1}` + "\n"})
	res, err := Validate(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(res.Warnings, "\n")
	for _, w := range []string{
		`grades/judges/gpt.jsonl, line 1, column "Domain": found "0.67"; judge scores must be numbers from 1 to 5`,
		"judge gradings: a score that is not a number from 1 to 5 was left out (2 times)",
	} {
		if !strings.Contains(all, w) {
			t.Errorf("warnings lack %q:\n%s", w, all)
		}
	}
}

func TestProgressReportsEveryFile(t *testing.T) {
	var calls int
	var last, total int64
	_, err := Ingest(context.Background(), filepath.Join("testdata", "base"), Options{Progress: func(d, tot int64) {
		if d < last || d > tot {
			t.Errorf("progress %d of %d after %d", d, tot, last)
		}
		calls++
		last, total = d, tot
	}})
	if err != nil {
		t.Fatal(err)
	}
	// 10 input files, then the final call.
	if calls != 11 || last != total || total == 0 {
		t.Errorf("%d calls, last %d of %d", calls, last, total)
	}
}

// TestJudgeAuditInputs: evaluators.provider, a position column in judge
// grading rows and in blinding reach the database (the row's own position
// wins over blinding's).
func TestJudgeAuditInputs(t *testing.T) {
	dir := copyStudy(t, map[string]string{
		"evaluators.csv": "evaluator,domain,provider\ngpt,,OpenAI\nalice,Finance,\n",
		"blinding.csv":   "question_id,label,model,position\nq1,A,m1,2\nq1,B,m2,1\nq2,A,m2,1\nq2,B,m1,2\n",
		"grades/judges/gpt.jsonl": `{"evaluator":"gpt","question_id":"q1","model":"m1","position":1,"Domain":4.5,"Localization":4,"Reasoning":3,"Communication":5,"Actionability":4,"C1":"hit","C2":"hit","rank":1}` + "\n" +
			`{"evaluator":"gpt","question_id":"q1","model":"m2","position":"2","Domain":2,"Localization":3,"Reasoning":2,"Communication":3,"Actionability":1,"C1":"miss","C2":"miss","rank":2}` + "\n",
	})
	dbPath := filepath.Join(t.TempDir(), "study.duckdb")
	if _, err := Ingest(context.Background(), dir, Options{DB: dbPath}); err != nil {
		t.Fatal(err)
	}
	db := openDB(t, dbPath)
	got := map[string]string{}
	rows, err := db.Query(`SELECT evaluator || '/' || question_id || '/' || model, coalesce(CAST(position AS VARCHAR), '-') FROM gradings`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		got[k] = v
	}
	rows.Close()
	for k, want := range map[string]string{
		"gpt/q1/m1":   "1", // the row says 1, blinding 2: the row wins
		"gpt/q1/m2":   "2",
		"bob/q1/m1":   "2", // bob graded label A of q1 → m1, position from blinding
		"bob/q1/m2":   "1",
		"alice/q1/m1": "2", // alice graded by model name; blinding still knows where m1 was shown
	} {
		if got[k] != want {
			t.Errorf("position of %s = %q, want %q", k, got[k], want)
		}
	}
	var prov string
	if err := db.QueryRow(`SELECT coalesce(provider, '-') FROM evaluators WHERE evaluator = 'gpt'`).Scan(&prov); err != nil || prov != "OpenAI" {
		t.Errorf("gpt's provider = %q, %v; want OpenAI", prov, err)
	}
}

// Every grading carries the blinded label its grader saw: the label its row
// names, else the one blinding.csv gives its (question, model) for its
// evaluator, then for every evaluator; none where blinding has no entry.
func TestGradingLabelsFromBlinding(t *testing.T) {
	dir := copyStudy(t, map[string]string{
		// q2/m1 has no label; alice saw q1/m1 as X, the others as A.
		"blinding.csv": "question_id,label,model,evaluator\nq1,A,m1,\nq1,B,m2,\nq1,X,m1,alice\nq2,A,m2,\n",
	})
	db := filepath.Join(t.TempDir(), "s.duckdb")
	if _, err := Ingest(context.Background(), dir, Options{DB: db}); err != nil {
		t.Fatal(err)
	}
	rows, err := openDB(t, db).Query(`SELECT evaluator, question_id, model, coalesce(label, '') FROM gradings`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[string]string{}
	for rows.Next() {
		var e, q, m, l string
		if err := rows.Scan(&e, &q, &m, &l); err != nil {
			t.Fatal(err)
		}
		got[e+"/"+q+"/"+m] = l
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ grading, label string }{
		{"alice/q1/m1", "X"}, // named the model: her own blinding entry
		{"alice/q1/m2", "B"}, // named the model: the question's entry
		{"alice/q2/m2", "A"},
		{"alice/q2/m1", ""}, // no blinding entry
		{"bob/q1/m1", "A"},  // wrote the label A (his own entry would be none)
		{"bob/q1/m2", "B"},
		{"gpt/q1/m1", "A"}, // the judge named the model
		{"gpt/q1/m2", "B"},
	} {
		l, ok := got[c.grading]
		if !ok {
			t.Errorf("%s: no grading (have %v)", c.grading, got)
			continue
		}
		if l != c.label {
			t.Errorf("%s: label %q, want %q", c.grading, l, c.label)
		}
	}
}
