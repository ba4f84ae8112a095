package readback

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/study"
)

// hostileQuestions are questions added to ingest/testdata/base: ids and
// texts with quotes, backslashes, SQL and formula look-alikes, control
// characters other than NUL, emoji, combining marks and right-to-left
// text, which must come back byte for byte when bound as parameters.
var hostileQuestions = []struct {
	id, prompt string
	items      []string
}{
	{`h"1'; DROP TABLE questions; --`, "Quote \" and '' and \\ backslash\x01\x1b[31m red \x7f end", []string{`=HYPERLINK("http://x")`, "item\ttab"}},
	{"h2 שלום", "שלום עולם — مرحبا بالعالم \u200f(RTL)\u200e", []string{"בדיקה", "اختبار", "mixed עברית and English"}},
	{"h3 👩💻🇪🇺", strings.Repeat("e\u0301 🇪🇺 ", 60) + "\nend\u0085\u3000\v", nil},
	{"h4", "<script>alert('x')</script>\u00a0\u2028line", []string{"+1+1", "@SUM(A1)", "-2", "\x02ctl"}},
}

// ingestHostile ingests ingest/testdata/base with hostileQuestions added
// and opens its database.
func ingestHostile(t *testing.T) (*DB, config.Config, *study.Study) {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "ingest", "testdata", "base"))); err != nil {
		t.Fatal(err)
	}
	appendCSV := func(name string, rows [][]string) {
		t.Helper()
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		w := csv.NewWriter(f)
		if err := w.WriteAll(rows); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	var qs, items [][]string
	for _, h := range hostileQuestions {
		qs = append(qs, []string{h.id, "Finance", h.prompt, "strategic"})
		for i, it := range h.items {
			items = append(items, []string{h.id, fmt.Sprint(i + 1), it})
		}
	}
	appendCSV("questions.csv", qs)
	appendCSV("checklist.csv", items)
	path := filepath.Join(t.TempDir(), "s.duckdb")
	res, err := ingest.Ingest(context.Background(), dir, ingest.Options{DB: path})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	full, _, err := d.Load(context.Background(), res.Config)
	if err != nil {
		t.Fatal(err)
	}
	return d, res.Config, full
}

// TestLoadQuestionTexts reads the hostile study without texts, checks the
// lengths, checklist sizes and snippets against counts made here, then
// reads the texts of two questions (one per query, ids repeated and
// unknown) and then of all, each time against the texts written and Load's
// reading.
func TestLoadQuestionTexts(t *testing.T) {
	d, cfg, full := ingestHostile(t)
	ctx := context.Background()
	lean, _, err := d.LoadWithoutTexts(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(lean.Questions) != len(full.Questions) || len(full.Questions) != 2+len(hostileQuestions) {
		t.Fatalf("%d questions read without texts, %d with; want %d", len(lean.Questions), len(full.Questions), 2+len(hostileQuestions))
	}
	written := map[string]string{}
	writtenItems := map[string][]string{}
	for _, h := range hostileQuestions {
		written[h.id], writtenItems[h.id] = h.prompt, h.items
	}
	for i := range lean.Questions {
		q, f := &lean.Questions[i], &full.Questions[i]
		if q.Prompt != "" || q.Checklist != nil {
			t.Errorf("question %q: prompt %q and checklist %q before LoadQuestionTexts", q.ID, q.Prompt, q.Checklist)
		}
		// independent counts: code points, and words as runs of non-space
		chars, words, in := 0, 0, false
		for _, c := range f.Prompt {
			chars++
			sp := unicode.IsSpace(c)
			if !sp && !in {
				words++
			}
			in = !sp
		}
		if q.PromptChars != chars || q.PromptWords != words || f.PromptChars != chars || f.PromptWords != words {
			t.Errorf("question %q: lengths %d/%d (Load %d/%d), want %d chars %d words", q.ID, q.PromptChars, q.PromptWords, f.PromptChars, f.PromptWords, chars, words)
		}
		if q.ChecklistItems != len(f.Checklist) || f.ChecklistItems != len(f.Checklist) {
			t.Errorf("question %q: %d checklist items (Load %d), want %d", q.ID, q.ChecklistItems, f.ChecklistItems, len(f.Checklist))
		}
		if q.Snippet != f.Snippet || f.Snippet != study.PromptSnippet(f.Prompt) {
			t.Errorf("question %q: snippet %q (Load %q), want %q", q.ID, q.Snippet, f.Snippet, study.PromptSnippet(f.Prompt))
		}
		if p, ok := written[f.ID]; ok {
			if f.Prompt != p || !slices.Equal(f.Checklist, writtenItems[f.ID]) {
				t.Errorf("question %q read back as %q %q, want %q %q", f.ID, f.Prompt, f.Checklist, p, writtenItems[f.ID])
			}
			delete(written, f.ID)
		}
	}
	if len(written) > 0 {
		t.Errorf("questions not read back: %q", written)
	}
	if !utf8.ValidString(full.Questions[len(full.Questions)-1].Snippet) {
		t.Error("snippet is not valid UTF-8")
	}

	defer func(n int) { textBatch = n }(textBatch)
	textBatch = 1
	some := []string{hostileQuestions[1].id, "no-such-question", hostileQuestions[0].id, hostileQuestions[1].id}
	n, err := d.LoadQuestionTexts(ctx, lean, some)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("LoadQuestionTexts set %d questions, want 2", n)
	}
	for i := range lean.Questions {
		q, want := lean.Questions[i], full.Questions[i]
		if !slices.Contains(some, q.ID) {
			want.Prompt, want.Checklist = "", nil
		}
		if fmt.Sprintf("%+v", q) != fmt.Sprintf("%+v", want) { // %+v: NaN gate scores print equal
			t.Errorf("question %d after LoadQuestionTexts(%q):\n got %+v\nwant %+v", i, some, q, want)
		}
	}
	textBatch = 3
	all := make([]string, len(full.Questions))
	for i, q := range full.Questions {
		all[i] = q.ID
	}
	if _, err := d.LoadQuestionTexts(ctx, lean, all); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%+v", lean.Questions) != fmt.Sprintf("%+v", full.Questions) {
		t.Errorf("questions after LoadQuestionTexts(all) differ from Load's:\n got %+v\nwant %+v", lean.Questions, full.Questions)
	}
}
