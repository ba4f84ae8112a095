package readback

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/ingest/config"
)

// TestLoadTexts reads ingest/testdata/base without texts and then the
// texts of q2 only (ids repeated, unknown and one per query), checking
// each response against Load's reading of the same database: same Chars,
// Words and every other field; Text only on q2 (whose m1 has two
// attempts: the latest one's text).
func TestLoadTexts(t *testing.T) {
	d, cfg := openBase(t)
	full, _, err := d.Load(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	lean, _, err := d.LoadWithoutTexts(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(lean.Responses) != len(full.Responses) {
		t.Fatalf("%d responses, want %d", len(lean.Responses), len(full.Responses))
	}
	for i, r := range lean.Responses {
		if r.Text != "" {
			t.Errorf("%s/%s: text %q before LoadTexts", r.QuestionID, r.Model, r.Text)
		}
		want := full.Responses[i]
		want.Text = ""
		if got, w := fmt.Sprintf("%+v", r), fmt.Sprintf("%+v", want); got != w {
			t.Errorf("response %d = %s, want %s", i, got, w)
		}
	}
	defer func(n int) { textBatch = n }(textBatch)
	textBatch = 1
	n, err := d.LoadTexts(context.Background(), lean, []string{"q2", "no-such-question", "q2"})
	if err != nil {
		t.Fatal(err)
	}
	wantN := 0
	for i, r := range lean.Responses {
		want := ""
		if r.QuestionID == "q2" {
			want = full.Responses[i].Text
			wantN++
		}
		if r.Text != want {
			t.Errorf("%s/%s: text %q, want %q", r.QuestionID, r.Model, r.Text, want)
		}
		if r.QuestionID == "q2" && r.Model == "m1" && r.Text != "GDPR is the EU privacy law." {
			t.Errorf("q2/m1: text %q, want the second attempt's", r.Text)
		}
	}
	if n != wantN || wantN == 0 {
		t.Errorf("LoadTexts set %d texts, want %d (> 0)", n, wantN)
	}
}

// TestLoadTextsMissingResponse: a response of the database missing from
// the study is an error, not a silent mismatch.
func TestLoadTextsMissingResponse(t *testing.T) {
	d, cfg := openBase(t)
	s, _, err := d.LoadWithoutTexts(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Responses = s.Responses[1:] // q1's first response is missing now
	if _, err := d.LoadTexts(context.Background(), s, []string{"q1"}); err == nil {
		t.Error("no error for a response missing from the study")
	}
}

// openBase ingests ingest/testdata/base and opens its database.
func openBase(t *testing.T) (*DB, config.Config) {
	t.Helper()
	return rwBase(t)
}

// TestHostileTextLengths: the lengths read back without the texts are those
// of the texts, counted here independently (code points; words split on
// Unicode white space as strings.Fields), on texts with combining marks,
// NBSP, tabs, CRLF, emoji, NEL, ideographic space and a zero-width joiner.
func TestHostileTextLengths(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "ingest", "testdata", "base"))); err != nil {
		t.Fatal(err)
	}
	texts := map[[2]string]string{
		{"q1", "m1"}: "e\u0301te\u0301\u00a0caf\u00e9\tna\u00efve\r\nline two  \u2003 end",
		{"q1", "m2"}: "👩\u200d💻 codes; 🇪🇺 flag\u0085next\u3000word\u00a0\u00a0",
		{"q2", "m1"}: "\t \r\n",
	}
	var b strings.Builder
	for _, k := range [][2]string{{"q1", "m1"}, {"q1", "m2"}, {"q2", "m1"}} {
		line, err := json.Marshal(map[string]string{"question_id": k[0], "model": k[1], "text": texts[k]})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "responses", "all.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.duckdb")
	res, err := ingest.Ingest(context.Background(), dir, ingest.Options{DB: path})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s, _, err := d.LoadWithoutTexts(context.Background(), res.Config)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Responses) != len(texts) {
		t.Fatalf("%d responses, want %d", len(s.Responses), len(texts))
	}
	for _, r := range s.Responses {
		txt := texts[[2]string{r.QuestionID, r.Model}]
		chars, words := 0, 0
		in := false
		for _, c := range txt { // independent of strings.Fields
			chars++
			sp := unicode.IsSpace(c)
			if !sp && !in {
				words++
			}
			in = !sp
		}
		if r.Chars != chars || r.Words != words || r.Text != "" {
			t.Errorf("%s/%s: chars %d words %d text %q, want %d, %d and no text", r.QuestionID, r.Model, r.Chars, r.Words, r.Text, chars, words)
		}
	}
}

// rwBase ingests ingest/testdata/base, applies stmts to its database
// (opened read-write) and opens it as Open does.
func rwBase(t *testing.T, stmts ...string) (*DB, config.Config) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.duckdb")
	res, err := ingest.Ingest(context.Background(), filepath.Join("..", "ingest", "testdata", "base"), ingest.Options{DB: path})
	if err != nil {
		t.Fatal(err)
	}
	rw, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range stmts {
		if _, err := rw.Exec(q); err != nil {
			rw.Close()
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := rw.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, res.Config
}

// checkTextsAsLoad checks LoadTexts of every question against Load's texts
// of the same database, and that LoadTexts leaves DuckDB's memory limit as
// it found it.
func checkTextsAsLoad(t *testing.T, d *DB, cfg config.Config) {
	t.Helper()
	ctx := context.Background()
	full, _, err := d.Load(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	lean, _, err := d.LoadWithoutTexts(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, q := range lean.Questions {
		ids = append(ids, q.ID)
	}
	limit := func() string {
		var v string
		if err := d.db.QueryRow(`SELECT current_setting('memory_limit')`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := limit()
	n, err := d.LoadTexts(ctx, lean, ids)
	if err != nil {
		t.Fatal(err)
	}
	if after := limit(); after != before {
		t.Errorf("memory limit %s after LoadTexts, want %s", after, before)
	}
	if n != len(full.Responses) {
		t.Errorf("LoadTexts set %d texts, want %d", n, len(full.Responses))
	}
	for i, r := range lean.Responses {
		if r.Text != full.Responses[i].Text {
			t.Errorf("response %d (%s/%s): text of %d bytes %.40q, want %d bytes %.40q", i, r.QuestionID, r.Model, len(r.Text), r.Text, len(full.Responses[i].Text), full.Responses[i].Text)
		}
	}
}

// TestLoadTextsKeyTwice: a database holding the latest response of a
// question and model twice (ingest never writes one) gets both texts, in
// rowid order as Load reads them, although LoadTexts reads the rows in
// the scan's order.
func TestLoadTextsKeyTwice(t *testing.T) {
	d, cfg := rwBase(t,
		`INSERT INTO responses SELECT * REPLACE (text || ' (second copy)' AS text) FROM responses WHERE latest AND question_id = 'q2'`,
		`INSERT INTO responses SELECT * REPLACE (text || ' (third copy)' AS text) FROM responses WHERE latest AND question_id = 'q1'`)
	checkTextsAsLoad(t, d, cfg)
}

// TestLoadTextsOverMemoryLimit: texts far larger in all than DuckDB's
// memory limit during the scan (400 texts of some 100 KB, 40 MB, with an
// 8 MB limit: the old sort of the texts in DuckDB failed with "Out of
// Memory") are read whole, each as Load reads it; and one text larger
// than textScanMemory (3 MB against 1 MB) raises the limit for its scan.
func TestLoadTextsOverMemoryLimit(t *testing.T) {
	defer func(v int64) { textScanMemory = v }(textScanMemory)
	for _, c := range []struct {
		name  string
		limit int64
		stmts []string
	}{
		{"many texts", 8 << 20, []string{
			`UPDATE responses SET text = repeat(question_id || model || ' ', 10000) WHERE latest AND question_id = 'q2' AND model = 'm1'`,
			`INSERT INTO responses SELECT responses.* REPLACE (text || i AS text) FROM responses, range(400) r(i) WHERE latest AND question_id = 'q2' AND model = 'm1'`}},
		{"one long text", 1 << 20, []string{
			`UPDATE responses SET text = repeat('ü ', 1500000), chars = 3000000 WHERE latest AND question_id = 'q1' AND model = 'm1'`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			textScanMemory = c.limit
			d, cfg := rwBase(t, c.stmts...)
			checkTextsAsLoad(t, d, cfg)
		})
	}
}
