package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// platformStudy is the ingest package's base study with its human sheets
// replaced by the files of ingest/testdata/platforms given (study path →
// fixture).
func platformStudy(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := tinyStudy(t)
	for _, f := range []string{"alice.csv", "bob.csv"} {
		if err := os.Remove(filepath.Join(dir, "grades", "humans", "main", f)); err != nil {
			t.Fatal(err)
		}
	}
	toml := "[import]\n\"domain_score\" = \"rubric:Domain\"\npw = \"pairwise\"\n[analysis]\nbootstrap = 200\nresamples = 20\n"
	if err := os.WriteFile(filepath.Join(dir, "study.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	for rel, src := range files {
		b, err := os.ReadFile(filepath.Join("..", "..", "ingest", "testdata", "platforms", filepath.FromSlash(src)))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestPlatformExportSummary: `run` on a study whose human grades are a
// Label Studio or Argilla export writes the same per-model summary, bit for
// bit, as on the same grades in clean sheets (the graders' names differ,
// the numbers do not).
func TestPlatformExportSummary(t *testing.T) {
	summary := func(study string) string {
		t.Helper()
		out := filepath.Join(t.TempDir(), "out")
		if code, _, stderr, err := cli(context.Background(), "run", study, "-o", out); err != nil {
			t.Fatalf("run %s: exit %d: %v\n%s", study, code, err, stderr)
		}
		b, err := os.ReadFile(filepath.Join(out, "tables", "summary.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	want := summary(platformStudy(t, map[string]string{
		"grades/humans/main/grades.csv": "sheets/grades.csv", "grades/humans/main/pairs.csv": "sheets/pairs.csv"}))
	if !strings.Contains(want, "m1") || strings.Count(want, "\n") < 3 {
		t.Fatalf("the sheets' summary is too short:\n%s", want)
	}
	for _, f := range []string{"labelstudio.json", "labelstudio.csv", "argilla.csv"} {
		t.Run(f, func(t *testing.T) {
			if got := summary(platformStudy(t, map[string]string{"grades/humans/main/" + f: f})); got != want {
				t.Errorf("summary differs from the sheets':\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
