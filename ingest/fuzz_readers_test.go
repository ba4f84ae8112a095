package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// validateFuzzed writes content at rel in a copy of the base study and
// validates it: it must not panic, must return exactly one of a result and
// an error, the error must be a *ProblemsError, and each problem must name
// a file and what was expected.
func validateFuzzed(t *testing.T, base string, files map[string]string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
		t.Fatal(err)
	}
	for rel, content := range files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Validate(context.Background(), dir)
	if (res == nil) == (err == nil) {
		t.Fatalf("Validate returned result %v and error %v; want exactly one", res != nil, err)
	}
	if err == nil {
		return
	}
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("Validate: %v; want a *ProblemsError", err)
	}
	if len(pe.Problems) == 0 {
		t.Fatalf("ProblemsError with no problems: %v", err)
	}
	for _, p := range pe.Problems {
		if p.Loc.File == "" || p.Expected == "" {
			t.Errorf("problem %q does not say where and what was expected", p.String())
		}
	}
}

// seedFile reads a fixture for a seed corpus.
func seedFile(f *testing.F, path string) string {
	f.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return string(b)
}

// FuzzJudgeFile feeds arbitrary judge files (plain JSON Lines with the
// verdict as fields or nested under [judges.parse] pointers, or a
// provider's batch output whose texts are verdicts) through the whole
// validation, with the guarantees of validateFuzzed. Seeds: the base
// study's judge file, each provider's batch shape, duplicated keys.
func FuzzJudgeFile(f *testing.F) {
	plain := seedFile(f, filepath.Join("testdata", "base", "grades", "judges", "gpt.jsonl"))
	f.Add(false, plain)
	f.Add(true, plain)
	for _, line := range []func(id, text string) string{openaiLine, anthropicLine, geminiLine} {
		f.Add(true, line("q1::m1", verdicts["q1::m1"])+"\n"+line("q1::m2", "```json\n"+verdicts["q1::m2"]+"\n```")+"\n")
	}
	f.Add(true, openaiLine("q1::m1", `{"scores":{"Domain":4,"Domain":5}}`)+"\n")
	f.Add(false, `{"evaluator":"gpt","question_id":"q1","model":"m1","model":"m2","Domain":4}`+"\n")
	f.Add(true, `{"evaluator":"gpt","question_id":"q1","model":"m1","text":"Domain: 4"}`+"\n")
	base := copyStudy(f, nil)
	f.Fuzz(func(t *testing.T, nested bool, content string) {
		files := map[string]string{"grades/judges/gpt.jsonl": content}
		if nested {
			files["study.toml"] = judgeParseToml
		}
		validateFuzzed(t, base, files)
	})
}

// FuzzProviderFile feeds arbitrary response files (a plain dump or a
// provider's batch output, told apart by the first line) through the whole
// validation, with the guarantees of validateFuzzed. Seeds: the base
// study's dump and the providers' fixtures (ingest/providers/testdata).
func FuzzProviderFile(f *testing.F) {
	f.Add(seedFile(f, filepath.Join("testdata", "base", "responses", "all.jsonl")))
	for _, name := range []string{"openai", "anthropic", "gemini"} {
		lines := strings.SplitAfter(seedFile(f, filepath.Join("providers", "testdata", name+".jsonl")), "\n")
		f.Add(strings.Join(lines[:min(len(lines), 3)], ""))
	}
	for _, l := range []string{openaiOK, anthropicOK, anthropicErr, geminiOK} {
		f.Add(l + "\n")
	}
	f.Add(strings.Replace(openaiOK, `"custom_id":"q2::m2"`, `"custom_id":"q2::m2","custom_id":"q1::m1"`, 1) + "\n")
	base := copyStudy(f, nil)
	f.Fuzz(func(t *testing.T, content string) {
		validateFuzzed(t, base, map[string]string{"responses/batch.jsonl": content})
	})
}
