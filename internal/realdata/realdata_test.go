package realdata

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestCopies checks each copy against the facts its source states
// (SOURCE.md of each data set): row counts, the first row, the judges'
// label counts.
func TestCopies(t *testing.T) {
	csvRows := func(name string) [][]string {
		t.Helper()
		b, err := Read(name)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return rows
	}
	for _, tc := range []struct {
		name  string
		rows  int
		first string
	}{
		// 100 articles × 12 systems × 3 experts × 4 attributes
		{SummEvalExperts, 14400, "[cnn-test-404f859482d47c127868964a9a39d1a7645dd2e9 M8 expert expert_1 coherence 4]"},
		// 96 prompts × 11 systems × 3 slots × 6 criteria
		{HANNAHumans, 19008, "[0 0 Human 1 Relevance 4]"},
	} {
		rows := csvRows(tc.name)
		if got := len(rows) - 1; got != tc.rows {
			t.Errorf("%s: %d rows, want %d", tc.name, got, tc.rows)
		}
		if len(rows) > 1 && fmt.Sprint(rows[1]) != tc.first {
			t.Errorf("%s: first row %v, want %s", tc.name, rows[1], tc.first)
		}
	}
	var gpt []struct {
		GptResult string `json:"gpt_result"`
	}
	b, err := Read(PandaLMGPT35)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &gpt); err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, g := range gpt {
		n[g.GptResult]++
	}
	// 999 comparisons; "Tie" 38 times and "garbage" (unparsable) 25 times.
	if len(gpt) != 999 || n["Tie"] != 38 || n["garbage"] != 25 {
		t.Errorf("gpt-3.5-turbo verdicts: %d, Tie %d, garbage %d; want 999, 38, 25", len(gpt), n["Tie"], n["garbage"])
	}
	for _, name := range []string{PandaLMTestSet, PandaLMPandaLM} {
		var items []json.RawMessage
		b, err := Read(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &items); err != nil || len(items) != 999 {
			t.Errorf("%s: %d items (%v), want 999", name, len(items), err)
		}
	}
}

// TestSharedPath checks the rule for data that is not copied: a missing
// file skips the test, or fails it when RequireEnv is 1.
func TestSharedPath(t *testing.T) {
	if SharedDir() == "" {
		t.Fatal("no shared folder location")
	}
	for _, tc := range []struct {
		env      string
		wantSkip bool
	}{{"", true}, {"1", false}} {
		t.Setenv(RequireEnv, tc.env)
		rec := &recorder{TB: t}
		func() {
			defer func() { recover() }()
			SharedPath(rec, filepath.Join("no-such-folder", "x.csv"))
		}()
		if rec.skipped != tc.wantSkip || rec.failed == tc.wantSkip {
			t.Errorf("%s=%q: skipped %v failed %v, want skipped %v", RequireEnv, tc.env, rec.skipped, rec.failed, tc.wantSkip)
		}
	}
	if _, err := os.Stat(SharedDir()); err == nil {
		t.Logf("shared folder present at %s", SharedDir())
	}
}

// recorder stands in for a testing.TB whose Skip and Fatal end the call
// (by panicking, recovered by the caller) and are recorded.
type recorder struct {
	testing.TB
	skipped, failed bool
}

func (r *recorder) Helper()           {}
func (r *recorder) Skip(args ...any)  { r.skipped = true; panic("skip") }
func (r *recorder) Fatal(args ...any) { r.failed = true; panic("fatal") }
