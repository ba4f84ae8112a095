package duckopen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/schema"
)

const secret = "TOP-SECRET-7f3a"

// craft writes a study database at path with the canonical schema, one
// question, and then runs alter (statements that make it hostile).
func craft(t *testing.T, path string, alter ...string) {
	t.Helper()
	d, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	stmts := append([]string{schema.Schema,
		`INSERT INTO questions VALUES ('q1', 'math', 'What is 2+2?', NULL, NULL, NULL, 'questions.csv', 2)`}, alter...)
	for _, q := range stmts {
		if _, err := d.Exec(q); err != nil {
			t.Fatalf("craft %s: %.60q: %v", path, q, err)
		}
	}
}

// emptyHome points HOME at an empty folder for the test and returns it.
func emptyHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	return home
}

func checkEmpty(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("%s holds %s; expected nothing (DuckDB must not write into HOME)", dir, e.Name())
	}
}

// dumpAll returns every value of every table and view of d's database as text.
func dumpAll(t *testing.T, d *DB) string {
	t.Helper()
	rows, err := d.Query(`SELECT table_name FROM information_schema.tables WHERE table_catalog = current_database() ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	rows.Close()
	var b strings.Builder
	for _, n := range names {
		var s string
		if err := d.QueryRow(fmt.Sprintf(`SELECT coalesce(string_agg(CAST(x AS VARCHAR), '|'), '') FROM %s AS x`, quoteIdent(n))).Scan(&s); err != nil {
			t.Fatalf("read %s: %v", n, err)
		}
		b.WriteString(n + ": " + s + "\n")
	}
	return b.String()
}

func TestOpenUntrusted(t *testing.T) {
	home := emptyHome(t)
	dir := t.TempDir()
	secretFile := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(secretFile, []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	readSecret := "SELECT content AS x FROM read_text(" + quoteLit(secretFile) + ")"
	for _, c := range []struct {
		name    string
		alter   []string
		wantErr []string // substrings of the error; none: opens
	}{
		{"canonical", nil, nil},
		{"a view named like the scores table reads a file", []string{
			"DROP VIEW IF EXISTS grading_scores",
			"CREATE VIEW grading_scores AS " + readSecret,
			"CREATE VIEW extra AS " + readSecret,
		}, nil},
		{"canonical table is a view", []string{
			"DROP TABLE questions",
			"CREATE VIEW questions AS SELECT x AS question_id, x AS domain, x AS prompt, NULL AS author, NULL AS difficulty, NULL AS gate_score, x AS source_file, 1 AS source_row FROM (" + readSecret + ")",
		}, []string{"questions is a view", "expected a table of the canonical schema"}},
		{"canonical table has other columns", []string{
			"ALTER TABLE models ADD COLUMN secret VARCHAR",
		}, []string{"table models has columns (model VARCHAR", "secret VARCHAR", "expected (model VARCHAR"}},
		{"macro shadows a table", []string{
			"CREATE MACRO gradings() AS TABLE " + readSecret,
		}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "study.duckdb")
			craft(t, path, c.alter...)
			d, err := OpenUntrusted(context.Background(), path)
			if len(c.wantErr) > 0 {
				if err == nil {
					d.Close()
					t.Fatalf("opened; expected an error with %q", c.wantErr)
				}
				for _, w := range append(c.wantErr, path) {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not say %q", err, w)
					}
				}
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error %q holds the secret", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			all := dumpAll(t, d)
			if strings.Contains(all, secret) {
				t.Errorf("the database shows the secret:\n%s", all)
			}
			if !strings.Contains(all, "What is 2+2?") {
				t.Errorf("the canonical data is missing:\n%s", all)
			}
			// A view stored in the file is never exposed: the file holds no
			// table grading_scores, so there is none.
			var n int
			if err := d.QueryRow(`SELECT count(*) FROM information_schema.tables WHERE table_catalog = 'memory' AND table_name IN ('grading_scores', 'extra')`).Scan(&n); err != nil || n != 0 {
				t.Errorf("%d of the file's views are exposed (%v)", n, err)
			}
			if _, err := d.Exec("SELECT * FROM " + readSecret[len("SELECT content AS x FROM "):]); err == nil {
				t.Error("read_text ran: external access is not disabled")
			}
			if _, err := d.Exec("SET enable_external_access = true"); err == nil {
				t.Error("SET enable_external_access = true ran: the configuration is not locked")
			}
		})
	}
	checkEmpty(t, home)
}

func TestOpenNoExtensions(t *testing.T) {
	home := emptyHome(t)
	d, err := Open("", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	// sqlite_scan lives in an extension DuckDB would download and load.
	_, err = d.Exec(`SELECT * FROM sqlite_scan('x.db', 't')`)
	if err == nil {
		t.Fatal("sqlite_scan ran; expected an error (no extension autoload)")
	}
	var v string
	for _, s := range []string{"autoinstall_known_extensions", "autoload_known_extensions"} {
		if err := d.QueryRow("SELECT current_setting(" + quoteLit(s) + ")::VARCHAR").Scan(&v); err != nil || v != "false" {
			t.Errorf("%s = %q (%v), want false", s, v, err)
		}
	}
	checkEmpty(t, home)
}
