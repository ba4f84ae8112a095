package ingest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// agRec is an Argilla flat record (JSON) of a complete grading of q/m by
// user u.
func agRec(id, q, m, u string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"id": %q, "question_id": %q, "model": %q`, id, q, m)
	for _, k := range []string{"domain_score", "Localization", "reasoning", "communication", "actionability"} {
		fmt.Fprintf(&b, `, "%s.responses": [4], "%s.responses.users": [%q], "%s.responses.status": ["submitted"]`, k, k, u, k)
	}
	fmt.Fprintf(&b, `, "c1.responses": ["yes"], "c1.responses.users": [%q], "c1.responses.status": ["submitted"]}`, u)
	return b.String()
}

// The same grading (grader, question, model) in two tasks of an export was
// already a problem, located at the second task; it stays one.
func TestPlatformSameGradingTwice(t *testing.T) {
	full := strings.Join([]string{lsRes("domain_score", "rating", `{"rating": 4}`), lsRes("c1", "choices", `{"choices": ["yes"]}`)}, ", ")
	q2m1 := `{"question_id": "q2", "model": "m1"}`
	dir := platformStudy(t, platformToml, map[string]string{"grades/humans/main/grades.csv": "sheets/grades.csv"})
	write(t, dir, "grades/humans/ls.json", "["+lsTask(1, q2m1, `7`, full)+", "+lsTask(2, q2m1, `7`, full)+"]")
	_, err := Validate(context.Background(), dir)
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("Validate: %v; want problems", err)
	}
	var got []string
	for _, p := range pe.Problems {
		got = append(got, p.String())
	}
	want := `grades/humans/ls.json, record 2, column "key": found "Domain"; one score per attribute and grading`
	if !strings.Contains(strings.Join(got, "\n"), want) {
		t.Errorf("problems:\n%s\nwant among them:\n%s", strings.Join(got, "\n"), want)
	}
}

// TestPlatformDuplicates: a key twice in one JSON object, and an id (task,
// annotation, record) twice in one export, are each a problem naming the
// file, the record, the key or id field and the value; the record is not
// read further. The expected problems are written by hand.
func TestPlatformDuplicates(t *testing.T) {
	full := strings.Join([]string{lsRes("domain_score", "rating", `{"rating": 4}`), lsRes("Localization", "rating", `{"rating": 4}`),
		lsRes("reasoning", "number", `{"number": 3}`), lsRes("communication", "choices", `{"choices": ["5"]}`),
		lsRes("actionability", "rating", `{"rating": 4}`), lsRes("c1", "choices", `{"choices": ["yes"]}`)}, ", ")
	q2m1, q2m2 := `{"question_id": "q2", "model": "m1"}`, `{"question_id": "q2", "model": "m2"}`
	const dupKey = "each key once in a JSON object (this object has it twice, so which value is meant cannot be told)"
	minRec := func(annID int, m string) string {
		return fmt.Sprintf(`{"id": 7, "question_id": "q2", "model": %q, "domain_score": [{"rating": 4}], "Localization": [{"rating": 4}], "reasoning": [{"number": 3}], "communication": "5", "actionability": [{"rating": 4}], "c1": "yes", "annotator": "zed", "annotation_id": %d}`, m, annID)
	}
	tests := []struct {
		name, rel, content string
		want               []string
	}{
		{"Label Studio: a data field twice", "grades/humans/ls.json",
			"[" + lsTask(1, `{"question_id": "q2", "model": "m2", "model": "m1"}`, `7`, full) + "]",
			[]string{`grades/humans/ls.json, record 1, column "data/model": found "model"; ` + dupKey}},
		{"Label Studio: the task id key twice", "grades/humans/ls.json",
			`[{"id": 1, "id": 2, "data": ` + q2m1 + `, "annotations": [{"id": 1, "completed_by": 7, "result": [` + full + `]}]}]`,
			[]string{`grades/humans/ls.json, record 1, column "id": found "id"; ` + dupKey}},
		{"Label Studio: a key twice in a result value", "grades/humans/ls.json",
			"[" + lsTask(1, q2m1, `7`, strings.Replace(full, `{"rating": 4}`, `{"rating": 4, "rating": 2}`, 1)) + "]",
			[]string{`grades/humans/ls.json, record 1, column "annotations/0/result/0/value/rating": found "rating"; ` + dupKey}},
		{"Label Studio: a task twice", "grades/humans/ls.json",
			"[" + lsTask(1, q2m1, `7`, full) + ", " + lsTask(1, q2m2, `7`, full) + "]",
			[]string{`grades/humans/ls.json, record 2, column "id": found "1"; each task id once in the export (record 1 has it too: exported twice?)`}},
		{"Label Studio: an annotation id twice", "grades/humans/ls.json",
			"[" + lsTask(1, q2m1, `7`, full) + ", " + strings.Replace(lsTask(2, q2m2, `7`, full), `"annotations": [{"id": 2,`, `"annotations": [{"id": 1,`, 1) + "]",
			[]string{`grades/humans/ls.json, record 2, column "annotations.id": found "1"; each annotation id once in the export (record 1 has it too: exported twice?)`}},
		{"Label Studio JSON-MIN: an annotation twice", "grades/humans/ls.json",
			"[" + minRec(5, "m1") + ", " + minRec(5, "m2") + "]",
			[]string{`grades/humans/ls.json, record 2, column "annotation_id": found "5"; each annotation id once in the export (record 1 has it too: exported twice?)`}},
		{"Label Studio JSON-MIN: a key twice", "grades/humans/ls.json",
			"[" + strings.Replace(minRec(5, "m1"), `"annotator": "zed"`, `"annotator": "zed", "annotator": "amy"`, 1) + "]",
			[]string{`grades/humans/ls.json, record 1, column "annotator": found "annotator"; ` + dupKey}},
		{"Label Studio CSV: an annotation twice", "grades/humans/ls.csv",
			"annotation_id,annotator,c1,domain_score,Localization,reasoning,communication,actionability,model,question_id\n" +
				"3,zed,yes,4,4,3,5,4,m1,q2\n3,zed,yes,4,4,3,5,4,m2,q2\n",
			[]string{`grades/humans/ls.csv, row 3, column "annotation_id": found "3"; each annotation id once in the export (row 2 has it too: exported twice?)`}},
		{"Argilla JSON Lines: a key twice", "grades/humans/ag.jsonl",
			strings.Replace(agRec("r1", "q2", "m1", "u1"), `"model": "m1"`, `"model": "m1", "model": "m2"`, 1) + "\n",
			[]string{`grades/humans/ag.jsonl, line 1, column "model": found "model"; ` + dupKey}},
		{"Argilla JSON Lines: a record twice", "grades/humans/ag.jsonl",
			agRec("r1", "q2", "m1", "u1") + "\n" + agRec("r1", "q2", "m2", "u1") + "\n",
			[]string{`grades/humans/ag.jsonl, line 2, column "id": found "r1"; each record id once in the export (line 1 has it too: exported twice?)`}},
		{"Argilla JSON: a record twice", "grades/humans/ag.json",
			"[" + agRec("r1", "q2", "m1", "u1") + ",\n" + agRec("r1", "q2", "m2", "u1") + "]",
			[]string{`grades/humans/ag.json, record 2, column "id": found "r1"; each record id once in the export (record 1 has it too: exported twice?)`}},
		{"Argilla nested: a key twice in a response", "grades/humans/ag.json",
			`[{"id": "r1", "fields": {"question_id": "q2", "model": "m1"}, "responses": {"c1": [{"value": "yes", "user_id": "u1", "user_id": "u2", "status": "submitted"}]}}]`,
			[]string{`grades/humans/ag.json, record 1, column "responses/c1/0/user_id": found "user_id"; ` + dupKey}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := platformStudy(t, platformToml, map[string]string{"grades/humans/main/grades.csv": "sheets/grades.csv"})
			write(t, dir, tc.rel, tc.content)
			_, err := Validate(context.Background(), dir)
			var pe *ProblemsError
			if !errors.As(err, &pe) {
				t.Fatalf("Validate: %v; want problems", err)
			}
			var got []string
			for _, p := range pe.Problems {
				got = append(got, p.String())
			}
			if g, w := strings.Join(got, "\n"), strings.Join(tc.want, "\n"); g != w {
				t.Errorf("problems:\n%s\nwant:\n%s", g, w)
			}
		})
	}
}
