package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The platform fixtures (testdata/platforms, written by gen.py in the
// exporters' shapes) hold the grades of testdata/platforms/sheets on the
// base study: six wide gradings of alice and bob (bob blinded, his ranks
// from a ranking) and one pairwise judgment of carol.

const platformToml = "[import]\n\"domain_score\" = \"rubric:Domain\"\npw = \"pairwise\"\n"

// platformStudy returns the base study with its human sheets replaced by
// the given testdata/platforms files (study path → fixture path).
func platformStudy(t *testing.T, toml string, files map[string]string) string {
	t.Helper()
	dir := copyStudy(t, map[string]string{
		"grades/humans/main/alice.csv": "-", "grades/humans/main/bob.csv": "-", "study.toml": toml,
	})
	for rel, src := range files {
		b, err := os.ReadFile(filepath.Join("testdata", "platforms", filepath.FromSlash(src)))
		if err != nil {
			t.Fatal(err)
		}
		write(t, dir, rel, string(b))
	}
	return dir
}

// gradesDump lists the human gradings (as humanGrades, with comments) and
// the pairwise judgments of a loaded database, one per line, sorted.
func gradesDump(t *testing.T, db string) string {
	t.Helper()
	h := openDB(t, db)
	var out []string
	for _, q := range []string{
		`SELECT g.evaluator || '|' || g.round || '|' || g.question_id || '|' || g.model || '|' || coalesce(g.label, '') || '|rank=' || coalesce(CAST(g.rank AS VARCHAR), '') ||
		       '|' || coalesce((SELECT string_agg(attribute || '=' || coalesce(CAST(score AS VARCHAR), 'NULL'), ',' ORDER BY attribute) FROM rubric_scores r WHERE r.grading_id = g.grading_id), '') ||
		       '|' || coalesce((SELECT string_agg(item || '=' || coalesce(verdict, 'NULL'), ',' ORDER BY item) FROM checklist_verdicts v WHERE v.grading_id = g.grading_id), '') ||
		       '|comment=' || coalesce(g.comment, '')
		FROM gradings g WHERE g.kind = 'human' ORDER BY 1`,
		`SELECT 'pair|' || evaluator || '|' || kind || '|' || round || '|' || question_id || '|' || model_a || '|' || model_b || '|' || winner
		FROM pairwise_judgments ORDER BY 1`,
	} {
		rows, err := h.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		rows.Close()
	}
	return strings.Join(out, "\n")
}

// Evaluator names as each platform writes them (Label Studio: the email,
// else the user id; Argilla: the user id), for comparing with the sheets'
// alice, bob and carol.
var (
	lsNames = map[string]string{"alice@example.com": "alice", "2": "bob", "carol@example.com": "carol"}
	agNames = map[string]string{"0b5f2c1e-6d3a-4c1b-9a8e-2f4d6c8b0a11": "alice", "7c9e4a2d-1b3f-4e5a-8d6c-0a2b4c6d8e22": "bob",
		"e1d2c3b4-a5f6-4789-8abc-def012345633": "carol"}
)

// rename renames the evaluators of a gradesDump and sorts it again.
func rename(dump string, names map[string]string) string {
	lines := strings.Split(dump, "\n")
	for i, l := range lines {
		f := strings.Split(l, "|")
		at := 0
		if f[0] == "pair" {
			at = 1
		}
		if n, ok := names[f[at]]; ok {
			f[at] = n
		}
		lines[i] = strings.Join(f, "|")
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestPlatformExportsRoundTrip: each export loads into exactly the grades
// of the equivalent sheets, and the same row counts in every table.
func TestPlatformExportsRoundTrip(t *testing.T) {
	load := func(t *testing.T, dir string) (string, *Result) {
		t.Helper()
		db := filepath.Join(t.TempDir(), "s.duckdb")
		res, err := Ingest(context.Background(), dir, Options{DB: db})
		if err != nil {
			t.Fatal(err)
		}
		return gradesDump(t, db), res
	}
	want, wantRes := load(t, platformStudy(t, platformToml, map[string]string{
		"grades/humans/main/grades.csv": "sheets/grades.csv", "grades/humans/main/pairs.csv": "sheets/pairs.csv"}))
	// Hand-checked from gen.py: bob ranks B (m2) first on q1; alice named the
	// model m2, which blinding.csv labels B on q1.
	for _, line := range []string{
		"alice|main|q1|m2|B|rank=2|Actionability=2.0,Communication=3.0,Domain=2.0,Localization=3.0,Reasoning=2.0|1=miss,2=na|comment==SUM(A1)",
		"bob|main|q1|m2|B|rank=1|Actionability=4.0,Communication=4.0,Domain=4.0,Localization=4.0,Reasoning=4.0|1=hit,2=miss|comment=",
		"pair|carol|human|main|q1|m1|m2|a",
	} {
		if !strings.Contains(want, line) {
			t.Fatalf("the sheets lack %q:\n%s", line, want)
		}
	}
	if n := strings.Count(want, "\n") + 1; n != 7 {
		t.Fatalf("the sheets give %d lines, want 7:\n%s", n, want)
	}
	tests := []struct {
		file, as string
		names    map[string]string
		notes    []string
	}{
		{"labelstudio.json", "grades/humans/main/ls.json", lsNames, []string{
			"grades/humans/main/ls.json: read as an annotation-platform export (Label Studio JSON export): 49 values, 6 gradings, 1 pairwise judgments",
			"grades/humans/main/ls.json: 1 cancelled annotations (was_cancelled) skipped"}},
		{"labelstudio.csv", "grades/humans/main/ls.csv", lsNames, []string{"read as an annotation-platform export (Label Studio CSV/JSON-MIN export): 49 values, 6 gradings, 1 pairwise judgments"}},
		{"labelstudio.tsv", "grades/humans/main/ls.tsv", lsNames, []string{"read as an annotation-platform export (Label Studio CSV/JSON-MIN export): 49 values"}},
		{"labelstudio_min.json", "grades/humans/main/ls.json", lsNames, []string{"read as an annotation-platform export (Label Studio CSV/JSON-MIN export): 49 values"}},
		{"argilla.json", "grades/humans/main/argilla.json", agNames, []string{
			"grades/humans/main/argilla.json: read as an annotation-platform export (Argilla flat export): 49 values, 6 gradings, 1 pairwise judgments",
			"2 responses not submitted left out (1 discarded, 1 draft)"}},
		{"argilla.csv", "grades/humans/main/argilla.csv", agNames, []string{"2 responses not submitted left out (1 discarded, 1 draft)"}},
		{"argilla_nested.json", "grades/humans/main/argilla.json", agNames, []string{"48 responses without a status counted as submitted"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			got, res := load(t, platformStudy(t, platformToml, map[string]string{tc.as: tc.file}))
			if got = rename(got, tc.names); got != want {
				t.Errorf("grades differ from the sheets'\ngot:\n%s\nwant:\n%s", got, want)
			}
			for k, n := range wantRes.Rows {
				if k != "ingest_files" && res.Rows[k] != n {
					t.Errorf("table %s: %d rows, the sheets %d", k, res.Rows[k], n)
				}
			}
			warn := strings.Join(res.Warnings, "\n")
			for _, n := range tc.notes {
				if !strings.Contains(warn, n) {
					t.Errorf("warnings lack %q:\n%s", n, warn)
				}
			}
		})
	}
}

// lsTask is a Label Studio task on q1 with one annotation of the given
// results (JSON text).
func lsTask(id int, data, completedBy, results string) string {
	return fmt.Sprintf(`{"id": %d, "data": %s, "annotations": [{"id": %d, "completed_by": %s, "result": [%s], "was_cancelled": false}]}`, id, data, id, completedBy, results)
}

func lsRes(from, typ, value string) string {
	return fmt.Sprintf(`{"from_name": %q, "to_name": "answer", "type": %q, "value": %s}`, from, typ, value)
}

// TestPlatformProblemsLocated: each bad value of an export is one problem
// naming the file, the record (row, line), the platform's field, the value
// and what was expected.
func TestPlatformProblemsLocated(t *testing.T) {
	full := func(extra string) string { // alice's complete grading of q2/m1 in Label Studio results
		return strings.Join([]string{lsRes("domain_score", "rating", `{"rating": 4}`), lsRes("Localization", "rating", `{"rating": 4}`),
			lsRes("reasoning", "number", `{"number": 3}`), lsRes("communication", "choices", `{"choices": ["5"]}`),
			lsRes("actionability", "rating", `{"rating": 4}`), lsRes("c1", "choices", `{"choices": ["yes"]}`)}, ", ") + extra
	}
	q2m1 := `{"question_id": "q2", "model": "m1"}`
	tests := []struct {
		name, rel, content string
		want               []string // every problem, exactly
	}{
		{"rating off the scale", "grades/humans/ls.json",
			"[" + lsTask(1, q2m1, `{"id": 1, "email": "zed"}`, strings.Replace(full(""), `{"rating": 4}`, `{"rating": 7}`, 1)) + "]",
			[]string{`grades/humans/ls.json, record 1, column "domain_score": found "7"; an integer score from 1 to 5; fix: if the sheet uses another scale, set [rubric] min, max and step in study.toml`}},
		{"two choices for a verdict", "grades/humans/ls.json",
			"[" + lsTask(1, q2m1, `7`, strings.Replace(full(""), `["yes"]`, `["yes", "no"]`, 1)) + "]",
			[]string{`grades/humans/ls.json, record 1, column "c1": found "[\"yes\",\"no\"]"; one choice for a checklist value (found 2)`,
				`grades/humans/ls.json, record 1, column "C1": a verdict for item 1 of question q2 (hit, partial, miss or na; it is blank)`}},
		{"unknown model, with the hint", "grades/humans/ls.json",
			"[" + lsTask(1, `{"question_id": "q2", "model": "m3"}`, `7`, full("")) + "]",
			[]string{`grades/humans/ls.json, record 1, column "model": found "m3"; a model listed in the models file (did you mean "m1"?); the models are m1, m2`}},
		{"a task without data", "grades/humans/ls.json",
			`[{"id": 1, "annotations": [], "data": {"question_id": "q2", "model": "m1"}}, {"id": 2, "data": 5, "annotations": []}]`,
			[]string{`grades/humans/ls.json, record 2, column "data": found "5"; a task with a data object (the fields of the graded response)`}},
		{"no annotator", "grades/humans/ls.json",
			"[" + lsTask(1, q2m1, `null`, full("")) + "]",
			[]string{`grades/humans/ls.json, record 1, column "completed_by": the annotator of annotation 1: a user id or {"email": …}`}},
		{"a result type not read", "grades/humans/ls.json",
			"[" + lsTask(1, q2m1, `7`, full(", "+lsRes("rank", "taxonomy", `{"taxonomy": [["a"]]}`))) + "]",
			[]string{`grades/humans/ls.json, record 1, column "rank": found "taxonomy"; a rating, number, choices, textarea, ranker or pairwise result`}},
		{"a pairwise selection", "grades/humans/ls.json",
			`[{"id": 1, "data": {"question_id": "q1", "model_a": "m1", "model_b": "m1"}, "annotations": [{"completed_by": 3, "result": [` + lsRes("pw", "pairwise", `{"selected": "left"}`) + `]}]},
			  {"id": 2, "data": {"question_id": "q1", "model_a": "m1", "model_b": "m2"}, "annotations": [{"completed_by": 3, "result": [` + lsRes("pw", "pairwise", `{"selected": "up"}`) + `]}]}]`,
			[]string{`grades/humans/ls.json, record 1, column "model_b": found "m1"; two different models (model_a is m1 too)`,
				`grades/humans/ls.json, record 2, column "pw": found "up"; a pairwise selection "left" or "right"`}},
		{"a Ranker with buckets", "grades/humans/ls.json",
			`[{"id": 1, "data": {"question_id": "q1"}, "annotations": [{"completed_by": 3, "result": [` + lsRes("rank", "ranker", `{"ranker": {"best": ["m1"], "ads": ["m2"]}}`) + `]}]}]`,
			[]string{`grades/humans/ls.json, record 1, column "rank": found "{\"ads\":[\"m2\"],\"best\":[\"m1\"]}"; a Ranker result without buckets: {"rank": [item ids, best first]}`}},
		{"JSON cut off", "grades/humans/ls.json", "[" + lsTask(1, q2m1, `7`, full("")) + `, {"id": 2, "data": {`,
			[]string{`grades/humans/ls.json, record 2, byte {rec2}: a complete record: the file ends inside the record starting here (cut off?)`}},
		{"a broken first record", "grades/humans/ls.json", `[{"id": 1, "data": {"question_id": "q2",}}]`,
			[]string{`grades/humans/ls.json, record 1, byte 40: valid JSON: invalid character '}' looking for beginning of object key string`}},
		{"a Label Studio CSV with a bad rating", "grades/humans/ls.csv",
			"\"annotation_id\",\"annotator\",\"c1\",\"domain_score\",\"Localization\",\"reasoning\",\"communication\",\"actionability\",\"model\",\"question_id\"\n" +
				"1,\"zed\",\"yes\",\"[{\"\"rating\"\":\"\"four\"\"}]\",\"[{\"\"rating\"\":4}]\",\"[{\"\"number\"\":4}]\",\"4\",\"[{\"\"rating\"\":4}]\",\"m1\",\"q2\"\n",
			[]string{`grades/humans/ls.csv, row 2, column "domain_score": found "four"; an integer score from 1 to 5`}},
		{"an Argilla export with lists of different lengths", "grades/humans/ag.jsonl",
			`{"id": "r1", "question_id": "q2", "model": "m1", "c1.responses": ["yes", "no"], "c1.responses.users": ["u1"], "c1.responses.status": ["submitted", "submitted"]}` + "\n",
			[]string{`grades/humans/ag.jsonl, line 1, column "c1.responses.users": found "[\"u1\"]"; c1.responses.users and c1.responses.status lists as long as c1.responses (2 responses)`}},
		{"an Argilla CSV cell that is no list", "grades/humans/ag.csv",
			"id,question_id,model,c1.responses,c1.responses.users,c1.responses.status\nr1,q2,m1,['yes',['u1'],['submitted']\n",
			[]string{`grades/humans/ag.csv, row 2, column "c1.responses": found "['yes'"; a list of values, as pandas writes it (['…', '…'] or JSON): character 7: ',' or ']' expected`}},
		{"invalid UTF-8", "grades/humans/ls.json", "[" + lsTask(1, "{\"question_id\": \"q2\", \"model\": \"m1\", \"note\": \"b\xffad\"}", `7`, full("")) + "]",
			[]string{`grades/humans/ls.json, byte 66: text encoded as UTF-8 (invalid byte)`}},
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
			want := strings.ReplaceAll(strings.Join(tc.want, "\n"), "{rec2}", strconv.Itoa(strings.LastIndex(tc.content, `, {"id": 2`)+1)) // after the comma before record 2
			if strings.Join(got, "\n") != want {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
			}
		})
	}
}

// TestPlatformNotes: what an export holds that is not counted is said in
// the warnings, and a JSON file of no platform's shape is named, not read.
func TestPlatformNotes(t *testing.T) {
	dir := platformStudy(t, platformToml, map[string]string{"grades/humans/main/ls.json": "labelstudio.json"})
	write(t, dir, "grades/humans/main/extra.json", "["+lsTask(1, `{"question_id": "q2", "model": "m1"}`, `{"email": "zoe"}`,
		lsRes("style", "rating", `{"rating": 3}`)+", "+lsRes("notes", "textarea", `{"text": ["x"]}`))+"]")
	write(t, dir, "grades/humans/main/other.json", `{"not": "an export"}`)
	write(t, dir, "study.toml", platformToml+"\"stlye\" = \"rubric:Reasoning\"\n")
	res, err := Validate(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	warn := strings.Join(res.Warnings, "\n")
	for _, w := range []string{
		`grades/humans/main/extra.json: questions that map to no instrument field, left out: "notes", "style" (map them in study.toml, e.g. [import] "notes" = "comment"; the targets are rubric:Domain,`,
		`grades/humans/main/other.json: not read: a JSON file under grades/ is read when it is an annotation-platform export`,
		`grades/humans/main/ls.json: 1 cancelled annotations (was_cancelled) skipped`,
		`study.toml: [import] "stlye" matches no question or field of the annotation-platform exports (did you mean "style", a question no key maps?)`,
	} {
		if !strings.Contains(warn, w) {
			t.Errorf("warnings lack %q:\n%s", w, warn)
		}
	}
}

// TestPlatformJudges: an export under grades/judges is read as judge
// gradings (a score off the scale is left out with a warning, not a
// problem), and [import] targets take names the defaults would not.
func TestPlatformJudges(t *testing.T) {
	toml := "[import]\n\"dom\" = \"rubric:Domain\"\nprompt_id = \"question_id\"\nsystem = \"model\"\n"
	dir := platformStudy(t, toml, map[string]string{"grades/humans/main/grades.csv": "sheets/grades.csv"})
	write(t, dir, "grades/judges/critic.jsonl",
		`{"id": "r1", "prompt_id": "q1", "system": "m1", "dom.responses": [4.5, 9], "dom.responses.users": ["critic", "critic-2"], "dom.responses.status": ["submitted", "submitted"]}`+"\n")
	db := filepath.Join(t.TempDir(), "s.duckdb")
	res, err := Ingest(context.Background(), dir, Options{DB: db})
	if err != nil {
		t.Fatal(err)
	}
	h := openDB(t, db)
	var n int
	var score float64
	if err := h.QueryRow(`SELECT count(*), max(r.score) FROM gradings g JOIN rubric_scores r USING (grading_id)
		WHERE g.evaluator = 'critic' AND g.kind = 'judge' AND g.question_id = 'q1' AND g.model = 'm1' AND r.attribute = 'Domain'`).Scan(&n, &score); err != nil {
		t.Fatal(err)
	}
	if n != 1 || score != 4.5 {
		t.Errorf("critic's Domain score on q1/m1: %d rows, max %v; want 1 row of 4.5", n, score)
	}
	if warn := strings.Join(res.Warnings, "\n"); !strings.Contains(warn, `grades/judges/critic.jsonl, line 1, column "dom": found "9"; judge scores must be numbers from 1 to 5`) {
		t.Errorf("no warning for critic-2's score off the scale:\n%s", warn)
	}
}

// TestPlatformHostile: huge, deep or odd exports fail fast with a located
// problem (or are read), never panic, and leave the study's files as they
// were (validateHostile).
func TestPlatformHostile(t *testing.T) {
	big := strings.Repeat("x", 3000)
	tests := []struct {
		name, rel, toml, content string
		want                     string // a problem, "" when the study is valid
	}{
		{"a record over line_bytes", "grades/humans/ls.json", "[limits]\nline_bytes = 1024\n",
			`[{"id": 1, "data": {"question_id": "q1", "model": "m1", "text": "` + strings.Repeat("y", 200_000) + `"}, "annotations": []}]`,
			`grades/humans/ls.json, record 1: a record of at most 1024 bytes ([limits] line_bytes in study.toml raises the limit)`},
		{"nested beyond the decoder's depth", "grades/humans/ls.json", "",
			`[{"id": 1, "data": {"question_id": "q1"}, "annotations": []}, ` + strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000) + "]",
			`grades/humans/ls.json, record 2`},
		{"not an object", "grades/humans/ls.json", "",
			`[{"id": 1, "data": {"question_id": "q1"}, "annotations": []}, 5, "x", null]`,
			`grades/humans/ls.json, record 2: found "5"; a JSON object (a task or record)`},
		{"garbage after the array", "grades/humans/ls.json", "",
			`[{"id": 1, "data": {"question_id": "q1"}, "annotations": []}] {}`,
			`grades/humans/ls.json, record 1: nothing after the closing ] of the array`},
		{"a huge number and odd values", "grades/humans/ls.json", "",
			`[{"id": 1e999, "data": {"question_id": "q2", "model": "m1", "` + big + `": {"a": [1, 2]}}, "annotations": [{"completed_by": {"email": ""}, "result": null},
			  {"completed_by": 1e400, "result": [{"from_name": "Domain", "type": "rating", "value": {"rating": 1e400}}, 7, {"from_name": "", "value": {}}]}]}]`,
			`grades/humans/ls.json, record 1, column "completed_by": found "{\"email\":\"\"}"; the annotator of annotation 1`},
		{"a BOM and CRLF", "grades/judges/ag.csv", "",
			"\ufeffid,question_id,model,c1.responses,c1.responses.users,c1.responses.status\r\nr1,q2,m1,['yes'],['zed'],['submitted']\r\n", ""},
		{"an empty array", "grades/humans/ls.json", "", `[]`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := platformStudy(t, platformToml+tc.toml, map[string]string{"grades/humans/main/grades.csv": "sheets/grades.csv"})
			write(t, dir, tc.rel, tc.content)
			_, err := validateHostile(t, dir)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Validate: %v; want the study accepted", err)
				}
				return
			}
			// The problem is either the error's own line or one of the
			// examples of its group.
			text := ""
			if err != nil {
				text = err.Error()
			}
			var pe *ProblemsError
			if errors.As(err, &pe) {
				for _, p := range pe.Problems {
					text += "\n" + p.String()
				}
			}
			if err == nil || !strings.Contains(text, tc.want) {
				t.Fatalf("Validate: %v\nwant a problem %q", err, tc.want)
			}
		})
	}
}
