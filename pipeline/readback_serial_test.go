package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/euroexec/euroexec/data"
	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/study"
	"github.com/euroexec/euroexec/transform"
)

// serialReadBack is readBack as it was before the listings were read on a
// connection of their own (the oracle of TestReadBackMatchesSerial).
func serialReadBack(ctx context.Context, dbPath string, cfg config.Config, aopt analysis.Options) (*study.Study, []string, transform.Listings, error) {
	db, err := transform.Open(dbPath)
	if err != nil {
		return nil, nil, transform.Listings{}, err
	}
	defer db.Close()
	s, warn, err := db.LoadWithoutTexts(ctx, cfg)
	if err != nil {
		return nil, nil, transform.Listings{}, err
	}
	need, err := analysis.TextsNeeded(s, aopt)
	if err != nil {
		return nil, nil, transform.Listings{}, fmt.Errorf("analyse: %w", err)
	}
	if _, err := db.LoadTexts(ctx, s, need.Responses); err != nil {
		return nil, nil, transform.Listings{}, err
	}
	if _, err := db.LoadQuestionTexts(ctx, s, need.Questions); err != nil {
		return nil, nil, transform.Listings{}, err
	}
	listings, err := db.Listings(ctx)
	if err != nil {
		return nil, nil, transform.Listings{}, err
	}
	return s, warn, listings, nil
}

// checkSameText is a got/want check of two values printed with %#v (NaN
// prints as NaN, so that NaN equals NaN).
func checkSameText(t *testing.T, what string, got, want any) {
	t.Helper()
	if g, w := fmt.Sprintf("%#v", got), fmt.Sprintf("%#v", want); g != w {
		t.Errorf("%s differs: got %.300s…, want %.300s…", what, g, w)
	}
}

// TestReadBackMatchesSerial: readBack (the listings read alongside the
// study) gives the same study, warnings and listings as the serial
// oracle, on generated studies with and without a page limit.
func TestReadBackMatchesSerial(t *testing.T) {
	tests := []struct {
		name      string
		questions int
		pages     int // [site] question_pages; 0 = default
	}{
		{"120 questions", 120, 0},
		{"150 questions, 30 pages", 150, 30},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			o := data.DefaultOptions()
			o.Questions, o.Seed = tc.questions, 11
			if _, err := data.Write(dir, o); err != nil {
				t.Fatal(err)
			}
			if tc.pages > 0 {
				toml := filepath.Join(dir, "study.toml")
				b, err := os.ReadFile(toml)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(toml, append(b, fmt.Sprintf("\n[site]\nquestion_pages = %d\n", tc.pages)...), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			dbPath := filepath.Join(t.TempDir(), "study.duckdb")
			ctx := context.Background()
			res, err := ingest.Ingest(ctx, dir, ingest.Options{DB: dbPath})
			if err != nil {
				t.Fatal(err)
			}
			aopt := analysisOptions(res.Config)
			got, gotW, gotL, err := readBack(ctx, dbPath, res.Config, aopt)
			if err != nil {
				t.Fatal(err)
			}
			want, wantW, wantL, err := serialReadBack(ctx, dbPath, res.Config, aopt)
			if err != nil {
				t.Fatal(err)
			}
			if len(wantL.Responses) == 0 || len(want.Gradings) == 0 {
				t.Fatalf("%d listed responses, %d gradings: nothing to compare", len(wantL.Responses), len(want.Gradings))
			}
			checkSameText(t, "study", got, want)
			checkSameText(t, "warnings", gotW, wantW)
			checkSameText(t, "listings", gotL, wantL)
		})
	}
}
