package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nestedGPT is the base study's judge file with the rubric scores nested in
// an object, as some judge pipelines write them.
const nestedGPT = `{"evaluator":"gpt","question_id":"q1","model":"m1","scores":{"Domain":4.5,"Localization":4,"Reasoning":3,"Communication":5,"Actionability":4},"C1":"hit","C2":"hit","rank":1}
{"evaluator":"gpt","question_id":"q1","model":"m2","scores":{"Domain":2,"Localization":3,"Reasoning":2,"Communication":3,"Actionability":1},"C1":"miss","C2":"miss","rank":2}
`

// checkProblem fails unless err is a *ProblemsError with a problem
// containing every want.
func checkProblem(t *testing.T, err error, want ...string) {
	t.Helper()
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("got error %v, want a *ProblemsError containing %q", err, want)
	}
	for _, w := range want {
		if !strings.Contains(pe.Error(), w) {
			t.Errorf("problems:\n%s\nwant one containing %q", pe.Error(), w)
		}
	}
}

// checkWarning fails unless a warning contains want.
func checkWarning(t *testing.T, warnings []string, want string) {
	t.Helper()
	if !strings.Contains(strings.Join(warnings, "\n"), want) {
		t.Errorf("warnings %q lack %q", warnings, want)
	}
}

func TestNestedJudgeScoresFail(t *testing.T) {
	dir := copyStudy(t, map[string]string{"grades/judges/gpt.jsonl": nestedGPT})
	_, err := Validate(context.Background(), dir)
	// 2 gradings × 5 attributes, none at the top level.
	checkProblem(t, err, "grades/judges/gpt.jsonl", "every one of the 10 rubric scores of the judges was dropped (2 gradings)",
		"gpt: columns Actionability, Communication, Domain, Localization, Reasoning missing — nested JSON?", "--allow-empty")

	res, err := Ingest(context.Background(), dir, Options{AllowEmpty: true})
	if err != nil {
		t.Fatalf("with AllowEmpty: %v", err)
	}
	checkWarning(t, res.Warnings, "judge gpt: 10 of 10 rubric scores dropped: columns Actionability, Communication, Domain, Localization, Reasoning missing — nested JSON?")
	checkWarning(t, res.Warnings, "going on because of --allow-empty")
}

func TestOneMissingColumnCounted(t *testing.T) {
	// Without the Reasoning key: 2 of 10 scores dropped, in a JSONL file.
	gpt := strings.ReplaceAll(strings.ReplaceAll(nestedGPT, `"scores":{`, ""), `},"C1"`, `,"C1"`)
	gpt = strings.ReplaceAll(strings.ReplaceAll(gpt, `"Reasoning":3,`, ""), `"Reasoning":2,`, "")
	dir := copyStudy(t, map[string]string{"grades/judges/gpt.jsonl": gpt})
	res, err := Validate(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	checkWarning(t, res.Warnings, "judge gpt: 2 of 10 rubric scores dropped: column Reasoning missing")
}

func TestNoGradingsAtAll(t *testing.T) {
	alice, bob := readBase(t, "grades/humans/main/alice.csv"), readBase(t, "grades/humans/main/bob.csv")
	// The grading sheets one level too high: nothing under grades/humans.
	dir := copyStudy(t, map[string]string{
		"grades/humans/main/alice.csv": "-", "grades/humans/main/bob.csv": "-", "grades/judges/gpt.jsonl": "-",
		"grades/alice.csv": alice, "grades/bob.csv": bob,
	})
	_, err := Validate(context.Background(), dir)
	checkProblem(t, err, "the study has no gradings at all", "grades/alice.csv, grades/bob.csv")
	// --allow-empty does not allow a study without gradings.
	_, err = Ingest(context.Background(), dir, Options{AllowEmpty: true})
	checkProblem(t, err, "the study has no gradings at all")
}

func TestIngestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := t.TempDir()
	if _, err := Ingest(ctx, copyStudy(t, nil), Options{DB: filepath.Join(out, "x.duckdb")}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if ents, _ := os.ReadDir(out); len(ents) != 0 {
		t.Errorf("a cancelled load left %d files (%s, …); want none", len(ents), ents[0].Name())
	}
}

func readBase(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "base", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A study whose grading rows hold no value of any instrument (the MQM
// scores in a column the study does not declare, read as a tag) is a
// problem naming the tag columns and the study.toml line that declares
// them, even with --allow-empty; a column written nearly like a rubric
// attribute is named as that attribute.
func TestNoScoreNoReport(t *testing.T) {
	mqm := "evaluator,question_id,model,MQM,note\nalice,q1,m1,2.5,ok\nalice,q1,m2,5,fine\nalice,q2,m1,0,\nalice,q2,m2,1,x\n"
	near := "evaluator,question_id,model,Reasonnig\nalice,q1,m1,4\nalice,q1,m2,2\nalice,q2,m1,3\nalice,q2,m2,3\n"
	for _, tc := range []struct {
		name  string
		sheet string
		want  []string
	}{
		{"undeclared rubric", mqm, []string{"none of the 4 gradings has one", "read as grading tags: MQM, note",
			"add `attributes = [\"MQM\"]` under [rubric]"}},
		{"misspelt attribute", near, []string{"read as grading tags: Reasonnig",
			`did you mean the rubric attribute "Reasoning"? add "Reasonnig" = "Reasoning" under [columns]`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyStudy(t, map[string]string{
				"grades/humans/main/alice.csv": tc.sheet, "grades/humans/main/bob.csv": "-", "grades/judges/gpt.jsonl": "-",
				"checklist.csv": "-",
			})
			_, err := Validate(context.Background(), dir)
			checkProblem(t, err, tc.want...)
			_, err = Ingest(context.Background(), dir, Options{AllowEmpty: true})
			checkProblem(t, err, tc.want[0])
			if err != nil && strings.Contains(err.Error(), "attributes = [\"note\"") {
				t.Errorf("a text column is proposed as a rubric attribute: %v", err)
			}
		})
	}
}

// A PRBench-style study (criteria and criterion grades, no grades/ folder)
// loads: criterion grades are gradings.
func TestCriterionGradesOnly(t *testing.T) {
	dir := copyStudy(t, map[string]string{
		"grades/humans/main/alice.csv": "-", "grades/humans/main/bob.csv": "-", "grades/judges/gpt.jsonl": "-",
		"criteria.csv":                      "question_id,criterion_id,text,weight\nq1,a,x,3\nq1,b,y,-1\nq2,a,x,2\n",
		"criterion_grades/humans/alice.csv": "evaluator,question_id,model,criterion_id,met\nalice,q1,m1,a,yes\nalice,q1,m1,b,no\nalice,q2,m1,a,1\n",
	})
	if _, err := Validate(context.Background(), dir); err != nil {
		t.Fatalf("a study with criterion grades only: %v", err)
	}
}

// The warning about gradings of responses missing from the dumps names the
// model and, when the model is the author of reference answers (the
// reference graded under its author's name), says how to fix it.
func TestMissingResponseNamesModel(t *testing.T) {
	sheet := "evaluator,question_id,model,Domain,Localization,Reasoning,Communication,Actionability,C1,C2,rank\n" +
		"alice,q1,m1,4,4,3,5,4,hit,hit,1\nalice,q1,expert,5,5,5,5,5,hit,hit,2\nalice,q2,m2,3,3,3,3,3,hit,,\n"
	dir := copyStudy(t, map[string]string{"grades/humans/main/alice.csv": sheet, "grades/humans/main/bob.csv": "-",
		"grades/judges/gpt.jsonl": "-", "models.csv": "-", "blinding.csv": "-"})
	res, err := Validate(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	checkWarning(t, res.Warnings, `gradings of responses missing from the response dumps: model "expert", the author of reference answers: if these gradings are of the references, write the model as the human_label "Human Expert", or set human_label = "expert" in study.toml`)
	checkWarning(t, res.Warnings, `gradings of responses missing from the response dumps: model "m2"`)
	if strings.Contains(strings.Join(res.Warnings, "\n"), `model "m2", the author`) {
		t.Errorf("m2 is named as a references author: %q", res.Warnings)
	}
}
