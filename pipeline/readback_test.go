package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/readback"
	"github.com/euroexec/euroexec/report/csvout"
	"github.com/euroexec/euroexec/report/site"
	"github.com/euroexec/euroexec/report/tables"
	"github.com/euroexec/euroexec/sample"
)

// TestReadBackHoldsOnlyNeededTexts generates a study of 150 questions
// (10 % with a reference) with [site] question_pages = 30, reads it back as
// Run does and checks against the responses table, queried here: every
// response keeps its Chars and Words, but only the responses of questions
// with a reference or a full page carry their text (all others ""), and
// the paper's analysis of that study gives the same tables and pages as
// the analysis of the study read back with every text. Likewise for the
// questions: every question keeps its lengths, checklist size and index
// snippet, but only those with a full page their prompt and checklist
// texts, and the site written from the lean study is byte for byte the
// site written, as before deferred texts, from the report of the full
// study with every prompt on its page and no snippet (the site cutting
// its own from the prompt).
func TestReadBackHoldsOnlyNeededTexts(t *testing.T) {
	dir := t.TempDir()
	o := sample.DefaultOptions()
	o.Questions, o.Seed = 150, 7
	if _, err := sample.Write(dir, o); err != nil {
		t.Fatal(err)
	}
	toml := filepath.Join(dir, "study.toml")
	b, err := os.ReadFile(toml)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(toml, append(b, "\n[site]\nquestion_pages = 30\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(t.TempDir(), "study.duckdb")
	ctx := context.Background()
	ires, err := ingest.Ingest(ctx, dir, ingest.Options{DB: dbPath})
	if err != nil {
		t.Fatal(err)
	}
	aopt := analysisOptions(ires.Config)
	aopt.Bootstrap, aopt.Resamples = 50, 20 // the texts do not touch them; keep the test short
	lean, _, _, err := readBack(ctx, dbPath, ires.Config, aopt)
	if err != nil {
		t.Fatal(err)
	}

	// the oracle: the database itself, and the study read with every text
	db, err := readback.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	type key struct{ q, m string }
	texts := map[key]string{}
	rows, err := db.SQL().QueryContext(ctx, `SELECT question_id, model, text FROM responses WHERE latest`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k key
		var txt string
		if err := rows.Scan(&k.q, &k.m, &txt); err != nil {
			t.Fatal(err)
		}
		texts[k] = txt
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	withRef := map[string]bool{}
	rows, err = db.SQL().QueryContext(ctx, `SELECT DISTINCT question_id FROM "references"`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var q string
		if err := rows.Scan(&q); err != nil {
			t.Fatal(err)
		}
		withRef[q] = true
	}
	full, _, err := db.Load(ctx, ires.Config)
	if err != nil {
		t.Fatal(err)
	}
	prompts := map[string]string{}
	for i := range full.Questions {
		// the study as before deferred texts: texts only, the analysis
		// measures them itself
		q := &full.Questions[i]
		q.PromptChars, q.PromptWords, q.ChecklistItems, q.Snippet = 0, 0, 0, ""
		prompts[q.ID] = q.Prompt
	}

	// the questions with a full page, from the analysis of the full study
	fullRepRes, err := paper.AnalyzeResult(ctx, full, aopt)
	if err != nil {
		t.Fatal(err)
	}
	fullRep := tables.Paper(fullRepRes)
	paged := map[string]bool{}
	for _, pg := range fullRep.Questions {
		if !pg.Summary {
			paged[pg.ID] = true
		}
	}
	if len(paged) != 30 || len(withRef) == 0 {
		t.Fatalf("%d full pages, %d questions with a reference; want 30 and some", len(paged), len(withRef))
	}

	if len(lean.Responses) != len(texts) {
		t.Fatalf("%d responses read back, %d latest in the database", len(lean.Responses), len(texts))
	}
	held := 0
	for _, r := range lean.Responses {
		txt, ok := texts[key{r.QuestionID, r.Model}]
		if !ok {
			t.Fatalf("response %s/%s is not in the database", r.QuestionID, r.Model)
		}
		if r.Chars != utf8.RuneCountInString(txt) || r.Words != len(strings.Fields(txt)) {
			t.Errorf("%s/%s: chars %d words %d, want %d and %d", r.QuestionID, r.Model, r.Chars, r.Words,
				utf8.RuneCountInString(txt), len(strings.Fields(txt)))
		}
		want := ""
		if paged[r.QuestionID] || withRef[r.QuestionID] {
			want = txt
		}
		if r.Text != want {
			t.Errorf("%s/%s: text held %t (%d bytes), want held %t", r.QuestionID, r.Model, r.Text != "", len(r.Text), want != "")
		}
		if r.Text != "" {
			held++
		}
	}
	// at most 30 pages + 15 questions with a reference of 150, 6 models each
	if held == 0 || held > 45*6 {
		t.Errorf("%d of %d texts held; want some and at most %d", held, len(lean.Responses), 45*6)
	}
	t.Logf("%d of %d response texts held", held, len(lean.Responses))

	// prompts and checklist texts only on the questions with a full page
	if len(lean.Questions) != len(full.Questions) {
		t.Fatalf("%d questions read back, want %d", len(lean.Questions), len(full.Questions))
	}
	heldQ := 0
	for i, q := range lean.Questions {
		f := full.Questions[i]
		chars, words := utf8.RuneCountInString(f.Prompt), len(strings.Fields(f.Prompt))
		if q.ID != f.ID || q.PromptChars != chars || q.PromptWords != words || q.ChecklistItems != len(f.Checklist) || q.Snippet == "" {
			t.Errorf("question %s: chars %d words %d items %d snippet %q; want %d, %d, %d and a snippet",
				q.ID, q.PromptChars, q.PromptWords, q.ChecklistItems, q.Snippet, chars, words, len(f.Checklist))
		}
		wantP, wantC := "", []string(nil)
		if paged[q.ID] {
			wantP, wantC = f.Prompt, f.Checklist
			heldQ++
		}
		if q.Prompt != wantP || fmt.Sprint(q.Checklist) != fmt.Sprint(wantC) || (q.Checklist == nil) != (wantC == nil) {
			t.Errorf("question %s: prompt held %t, %d checklist texts; want held %t and %d", q.ID, q.Prompt != "", len(q.Checklist), wantP != "", len(wantC))
		}
	}
	if heldQ != 30 {
		t.Errorf("%d prompts held, want 30", heldQ)
	}

	// the same tables and pages from the lean study
	leanRepRes, err := paper.AnalyzeResult(ctx, lean, aopt)
	if err != nil {
		t.Fatal(err)
	}
	leanRep := tables.Paper(leanRepRes)
	fullDir, leanDir := t.TempDir(), t.TempDir()
	if err := csvout.Write(ctx, fullDir, fullRep, csvout.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := csvout.Write(ctx, leanDir, leanRep, csvout.Options{}); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(fullDir, "*"))
	if err != nil || len(files) < 10 {
		t.Fatalf("%d tables written (%v)", len(files), err)
	}
	for _, f := range files {
		want, err1 := os.ReadFile(f)
		got, err2 := os.ReadFile(filepath.Join(leanDir, filepath.Base(f)))
		if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs between the study with every text and the lean one (%v, %v)", filepath.Base(f), err1, err2)
		}
	}
	if len(leanRep.Questions) != len(fullRep.Questions) {
		t.Fatalf("%d question pages, want %d", len(leanRep.Questions), len(fullRep.Questions))
	}
	for i := range fullRep.Questions {
		// %+v prints NaN as NaN, so equal pages print equal
		if got, want := fmt.Sprintf("%+v", *leanRep.Questions[i]), fmt.Sprintf("%+v", *fullRep.Questions[i]); got != want {
			t.Errorf("question page %s differs:\n got %.300s\nwant %.300s", fullRep.Questions[i].ID, got, want)
		}
	}

	// the site: from the lean report, and from the full one as the
	// analysis made it before (every page with its prompt, no snippet)
	for _, pg := range fullRep.Questions {
		pg.Prompt, pg.Snippet = prompts[pg.ID], ""
	}
	leanRep.GeneratedAt = fullRep.GeneratedAt
	fullSite, leanSite := t.TempDir(), t.TempDir()
	if _, err := site.Write(ctx, fullSite, fullRep, site.DefaultOptions); err != nil {
		t.Fatal(err)
	}
	if _, err := site.Write(ctx, leanSite, leanRep, site.DefaultOptions); err != nil {
		t.Fatal(err)
	}
	nFiles := 0
	err = filepath.WalkDir(fullSite, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(fullSite, path)
		want, err1 := os.ReadFile(path)
		got, err2 := os.ReadFile(filepath.Join(leanSite, rel))
		if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
			t.Errorf("site file %s differs between the study with every text and the lean one (%v, %v)", rel, err1, err2)
		}
		nFiles++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if nFiles < 30+10 {
		t.Errorf("%d site files compared; want the 30 question pages and more", nFiles)
	}
	t.Logf("%d site files identical", nFiles)
}
