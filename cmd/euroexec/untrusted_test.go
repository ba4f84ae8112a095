package main

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/internal/duckopen"
)

const untrustedSecret = "SECRET-OUTSIDE-9d41"

// craftedReport ingests the bundled sample into DIR/study.duckdb (a report
// folder to compare and export) and runs alter on it; secretFile is a
// file outside DIR holding untrustedSecret.
func craftedReport(t *testing.T, alter func(secretFile string) []string) (dir string) {
	t.Helper()
	root := t.TempDir()
	secretFile := filepath.Join(root, "secret.txt")
	if err := os.WriteFile(secretFile, []byte(untrustedSecret), 0o600); err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(root, "report")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "study.duckdb")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"ingest", filepath.Join("..", "..", "sample", "study"), "--db", db}); err != nil {
		t.Fatalf("ingest: %v\n%s", err, stderr.String())
	}
	d, err := duckopen.Open(db, duckopen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, q := range alter(secretFile) {
		if _, err := d.Exec(q); err != nil {
			t.Fatalf("craft: %s: %v", q, err)
		}
	}
	return dir
}

// readSecretSQL is a query that reads the secret file into a column x.
func readSecretSQL(secretFile string) string {
	return "SELECT content AS x FROM read_text(" + quoteString(secretFile) + ")"
}

// filesHolding returns the files under dir whose bytes, or whose entries
// when the file is a zip (the workbook), hold s; Parquet files are read
// through DuckDB.
func filesHolding(t *testing.T, dir, s string) []string {
	t.Helper()
	var hits []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		text := string(b)
		switch filepath.Ext(p) {
		case ".xlsx":
			zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				return err
			}
			for _, f := range zr.File {
				rc, err := f.Open()
				if err != nil {
					return err
				}
				x, err := io.ReadAll(rc)
				rc.Close()
				if err != nil {
					return err
				}
				text += string(x)
			}
		case ".parquet":
			d, err := duckopen.Open("", duckopen.Options{})
			if err != nil {
				return err
			}
			var all string
			err = d.QueryRow(`SELECT coalesce(string_agg(CAST(x AS VARCHAR), '|'), '') FROM read_parquet(?) AS x`, p).Scan(&all)
			d.Close()
			if err != nil {
				return err
			}
			text += all
		}
		if strings.Contains(text, s) {
			hits = append(hits, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

// A study.duckdb from elsewhere is data: views stored in it never run, a
// canonical table that is a view is refused with a clear error, and DuckDB
// writes nothing into HOME.
func TestCompareExportCraftedDatabase(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, c := range []struct {
		name    string
		alter   func(secretFile string) []string
		wantErr string // "" when the commands succeed with the canonical data
	}{
		{"a view in place of the scores table reads a file", func(f string) []string {
			return []string{
				"DROP TABLE grading_scores",
				"CREATE VIEW grading_scores AS SELECT g.*, s.x AS secret FROM gradings g, (" + readSecretSQL(f) + ") s",
				"CREATE VIEW leak AS " + readSecretSQL(f),
			}
		}, ""},
		{"canonical tables are views reading a file", func(f string) []string {
			return []string{
				"ALTER TABLE questions RENAME TO questions_kept",
				"CREATE VIEW questions AS SELECT * REPLACE (s.x AS prompt) FROM questions_kept, (" + readSecretSQL(f) + ") s",
				"ALTER TABLE models RENAME TO models_kept",
				"CREATE VIEW models AS SELECT * REPLACE (s.x AS display_name) FROM models_kept, (" + readSecretSQL(f) + ") s",
			}
		}, "models is a view, expected a table of the canonical schema"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := craftedReport(t, c.alter)
			out := t.TempDir()
			for _, args := range [][]string{
				{"compare", rep, rep, "-o", filepath.Join(out, "cmp"), "-q"},
				{"export", rep, "--parquet", filepath.Join(out, "pq")},
			} {
				var stdout, stderr bytes.Buffer
				err := run(context.Background(), &stdout, &stderr, args)
				if c.wantErr != "" {
					if err == nil {
						t.Errorf("%s: succeeded; expected an error with %q", args[0], c.wantErr)
					} else if !strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), filepath.Join(rep, "study.duckdb")) {
						t.Errorf("%s: error %q; expected one naming the file and saying %q", args[0], err, c.wantErr)
					}
				} else if err != nil {
					t.Errorf("%s: %v\n%s", args[0], err, stderr.String())
				}
				for _, s := range []string{stdout.String(), stderr.String()} {
					if strings.Contains(s, untrustedSecret) {
						t.Errorf("%s printed the secret", args[0])
					}
				}
				if err != nil && strings.Contains(err.Error(), untrustedSecret) {
					t.Errorf("%s: the error holds the secret", args[0])
				}
			}
			if hits := filesHolding(t, out, untrustedSecret); len(hits) > 0 {
				t.Errorf("the secret is in %q", hits)
			}
			if c.wantErr == "" {
				if _, err := os.Stat(filepath.Join(out, "pq", "questions.parquet")); err != nil {
					t.Errorf("export wrote no questions.parquet: %v", err)
				}
				if _, err := os.Stat(filepath.Join(out, "pq", "leak.parquet")); err == nil {
					t.Error("export wrote the file's own view leak")
				}
			}
		})
	}
	ents, err := os.ReadDir(home)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("HOME holds %s; expected nothing", e.Name())
	}
}
