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
		"judge gradings: a rubric score is missing",
	}
	for _, w := range want {
		if !strings.Contains(strings.Join(res.Warnings, "\n"), w) {
			t.Errorf("warnings %q lack %q", res.Warnings, w)
		}
	}
}

func TestValidationRules(t *testing.T) {
	tests := []struct {
		name  string
		edits map[string]string
		want  []string // each must appear in the error text
	}{
		{"unknown question", map[string]string{"grades/humans/main/alice.csv": alice("alice,q9,m1,4,4,3,5,4,hit,partial,1,")},
			[]string{`grades/humans/main/alice.csv, row 2, column "question_id": found "q9"; a question id of the questions file`}},
		{"duplicate question", map[string]string{"questions.csv": "question_id,domain,prompt\nq1,F,a\nq2,L,b\nq1,F,c\n"},
			[]string{`questions.csv, row 4, column "question_id": found "q1"; a question id used once (first at row 2)`}},
		{"checklist gap", map[string]string{"checklist.csv": "question_id,item,text\nq1,1,a\nq1,3,c\nq2,1,x\n"},
			[]string{`checklist.csv, row 2, column "item"`, "item 2 is missing"}},
		{"verdict for missing item", map[string]string{"grades/humans/main/alice.csv": aliceHeader + "alice,q1,m1,4,4,3,5,4,hit,partial,1,\nalice,q1,m2,2,3,2,3,2,miss,na,2,x\nalice,q2,m1,4,4,3,5,4,hit,hit,1,\nalice,q2,m2,3,3,3,3,3,no,,2,\n"},
			[]string{`alice.csv, row 4, column "C2": found "hit"; a blank cell: question q2 has 1 checklist items, not 2`}},
		{"missing verdict", map[string]string{"grades/humans/main/alice.csv": alice("alice,q1,m1,4,4,3,5,4,hit,,1,")},
			[]string{`alice.csv, row 2, column "C2": a verdict for item 2 of question q1`}},
		{"rubric missing", map[string]string{"grades/humans/main/alice.csv": alice("alice,q1,m1,4,,3,5,4,hit,hit,1,")},
			[]string{`alice.csv, row 2, column "Localization": a Localization score for every human grading (it is missing)`}},
		{"rubric non-integer", map[string]string{"grades/humans/main/alice.csv": alice("alice,q1,m1,4,3.5,3,5,4,hit,hit,1,")},
			[]string{`alice.csv, row 2, column "Localization": found "3.5"; an integer score from 1 to 5`}},
		{"rubric out of scale", map[string]string{"grades/humans/main/alice.csv": alice("alice,q1,m1,4,6,3,5,4,hit,hit,1,")},
			[]string{`column "Localization": found "6"; an integer score from 1 to 5`}},
		{"unknown verdict", map[string]string{"grades/humans/main/alice.csv": alice("alice,q1,m1,4,4,3,5,4,maybe,hit,1,")},
			[]string{`alice.csv, row 2, column "C1": found "maybe"; a verdict: hit, partial, miss or na`}},
		{"rank tie", map[string]string{"grades/humans/main/alice.csv": alice("alice,q1,m1,4,4,3,5,4,hit,hit,2,")},
			[]string{`alice.csv, row 2, column "rank": found "2,2"; ranks of question q1 by alice forming a permutation of 1..2 without ties`}},
		{"rank not a permutation", map[string]string{"grades/humans/main/alice.csv": alice("alice,q1,m1,4,4,3,5,4,hit,hit,3,")},
			[]string{`found "2,3"; ranks of question q1 by alice forming a permutation of 1..2`}},
		{"unknown model", map[string]string{"grades/humans/main/alice.csv": alice("alice,q1,m7,4,4,3,5,4,hit,hit,1,")},
			[]string{`alice.csv, row 2, column "model": found "m7"; a model listed in the models file`}},
		{"unknown label", map[string]string{"grades/humans/main/bob.csv": "evaluator,question_id,label,Domain,Localization,Reasoning,Communication,Actionability,C1,C2,rank\nbob,q1,Z,3,3,3,3,3,hit,hit,1\n"},
			[]string{`bob.csv, row 2, column "label": found "Z"; a label of question q1 in the blinding file`}},
		{"duplicate grading", map[string]string{"grades/humans/main/alice.csv": alice("alice,q1,m2,4,4,3,5,4,hit,hit,1,")},
			[]string{`grades/humans/main/alice.csv, row 3: found "q1 / m2"; one grading per evaluator, round, question and model (evaluator alice graded it also at grades/humans/main/alice.csv, row 2)`}},
		{"evaluator both human and judge", map[string]string{"grades/judges/alice.jsonl": `{"evaluator":"alice","question_id":"q2","model":"m1","Domain":4,"Localization":4,"Reasoning":3,"Communication":5,"Actionability":4,"C1":"hit"}` + "\n"},
			[]string{`grades/judges/alice.jsonl, line 1: found "alice"; an evaluator that is either a human or a judge (alice is a human at grades/humans/main/alice.csv, row 2)`}},
		{"criterion weight zero", map[string]string{"criteria.csv": "question_id,criterion_id,text,weight\nq1,c1,a,5\nq1,c2,b,0\n"},
			[]string{`criteria.csv, row 3, column "weight": found "0"; a non-zero integer weight from -10 to 10`}},
		{"criterion weight out of range", map[string]string{"criteria.csv": "question_id,criterion_id,text,weight\nq1,c1,a,11\n"},
			[]string{`criteria.csv, row 2, column "weight": found "11"`}},
		{"no positive weight", map[string]string{"criteria.csv": "question_id,criterion_id,text,weight\nq1,c1,a,-3\nq1,c2,b,-1\n"},
			[]string{`criteria.csv, row 2, column "weight": found "q1"; at least one criterion with a positive weight for each question`}},
		{"grade of unknown criterion", map[string]string{
			"criteria.csv":                    "question_id,criterion_id,text,weight\nq1,c1,a,3\n",
			"criterion_grades/judges/gpt.csv": "evaluator,question_id,model,criterion_id,met\ngpt,q1,m1,c9,true\n"},
			[]string{`criterion_grades/judges/gpt.csv, row 2, column "criterion_id": found "c9"; a criterion of question q1 in the criteria file`}},
		{"empty file", map[string]string{"models.csv": ""},
			[]string{`models.csv`, `empty file`}},
		{"missing required column", map[string]string{"questions.csv": "question_id,prompt,tag\nq1,a,b\n"},
			[]string{`questions.csv, row 1: a header with the column(s) domain; columns found: "question_id", "prompt", "tag"`}},
		{"bad utf-8", map[string]string{"questions.csv": "question_id,domain,prompt\nq1,F,ok\nq2,L,b\xffad\n"},
			// header 26 bytes + "q1,F,ok\n" 8 bytes + "q2,L,b" 6 bytes: the bad byte is at offset 40.
			[]string{`questions.csv, row 3, column "prompt", byte 40`, "invalid UTF-8"}},
		{"truncated jsonl", map[string]string{"responses/all.jsonl": `{"question_id":"q1","model":"m1","text":"fine"}` + "\n" + `{"question_id":"q1","model":"m2","text":"cut he`},
			[]string{`responses/all.jsonl, line 2`}},
		{"duplicate response", map[string]string{"responses/all.jsonl": `{"question_id":"q1","model":"m1","text":"a"}` + "\n" + `{"question_id":"q1","model":"m1","text":"b"}` + "\n"},
			[]string{`responses/all.jsonl, line 1, column "model": found "q1 / m1"; one response per question and model, or distinct attempt numbers`}},
		{"two files for one table", map[string]string{"questions.jsonl": `{"question_id":"q1","domain":"F","prompt":"p"}` + "\n"},
			[]string{`questions.jsonl: one file for the questions table (questions.csv is there too)`}},
		{"unknown study.toml key", map[string]string{"study.toml": "titel = \"x\"\n"},
			[]string{`unknown key "titel"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyStudy(t, tc.edits)
			_, err := Validate(context.Background(), dir)
			if err == nil {
				t.Fatalf("no error; want %q", tc.want)
			}
			for _, w := range tc.want {
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
