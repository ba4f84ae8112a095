package transform

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

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
	path := filepath.Join(t.TempDir(), "s.duckdb")
	res, err := ingest.Ingest(context.Background(), filepath.Join("..", "ingest", "testdata", "base"), ingest.Options{DB: path})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, res.Config
}
