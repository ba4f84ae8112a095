package ingest

import (
	"context"
	"os"
	"path/filepath"
	"sort"
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
	// Hand-checked from gen.py: bob ranks B (m2) first on q1.
	for _, line := range []string{
		"alice|main|q1|m2||rank=2|Actionability=2.0,Communication=3.0,Domain=2.0,Localization=3.0,Reasoning=2.0|1=miss,2=na|comment==SUM(A1)",
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
			"grades/humans/main/ls.json: read as a Label Studio JSON export: 49 values, 6 gradings",
			"grades/humans/main/ls.json: 1 cancelled annotations (was_cancelled) skipped"}},
		{"labelstudio.csv", "grades/humans/main/ls.csv", lsNames, []string{"read as a Label Studio CSV/JSON-MIN export: 49 values, 6 gradings"}},
		{"labelstudio_min.json", "grades/humans/main/ls.json", lsNames, []string{"read as a Label Studio CSV/JSON-MIN export"}},
		{"argilla.json", "grades/humans/main/argilla.json", agNames, []string{
			"grades/humans/main/argilla.json: read as a Argilla flat export: 49 values, 6 gradings",
			"2 responses not submitted left out (1 discarded, 1 draft)"}},
		{"argilla.csv", "grades/humans/main/argilla.csv", agNames, []string{"2 responses not submitted left out (1 discarded, 1 draft)"}},
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
