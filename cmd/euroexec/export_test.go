package main

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/euroexec/euroexec/pipeline"
	"github.com/euroexec/euroexec/sample"
)

// quoteIdent and quoteString quote a SQL identifier and string literal.
var (
	quoteIdent  = pipeline.QuoteIdent
	quoteString = pipeline.QuoteString
)

func parquetNames(t *testing.T, dir string) []string {
	t.Helper()
	fs, err := filepath.Glob(filepath.Join(dir, "*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range fs {
		out = append(out, strings.TrimSuffix(filepath.Base(f), ".parquet"))
	}
	return out
}

// export writes every table and view of an ingested database as Parquet
// with the same rows, from a .duckdb file and from a study folder alike
// (into a folder whose name holds a quote).
func TestExportParquet(t *testing.T) {
	tmp := t.TempDir()
	study := filepath.Join(tmp, "study")
	if err := os.CopyFS(study, sample.Sample()); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(tmp, "s.duckdb")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"ingest", study, "--db", dbPath}); err != nil {
		t.Fatalf("ingest: %v\n%s", err, stderr.String())
	}
	fromDB := filepath.Join(tmp, "from-db")
	if err := run(context.Background(), &stdout, &stderr, []string{"export", dbPath, "--parquet", fromDB}); err != nil {
		t.Fatalf("export: %v\n%s", err, stderr.String())
	}
	fromStudy := filepath.Join(tmp, "it's parquet")
	if err := run(context.Background(), &stdout, &stderr, []string{"export", study, "--parquet", fromStudy}); err != nil {
		t.Fatalf("export of the study folder: %v\n%s", err, stderr.String())
	}
	names := parquetNames(t, fromDB)
	for _, want := range []string{"gradings", "responses", "questions", "rubric_scores", "checklist_verdicts", "grading_scores"} {
		if !slices.Contains(names, want) {
			t.Errorf("no %s.parquet in %v", want, names)
		}
	}
	if got := parquetNames(t, fromStudy); !slices.Equal(got, names) {
		t.Errorf("from the study folder: %v, from the database: %v", got, names)
	}
	c, err := duckdb.NewConnector(dbPath+"?access_mode=read_only", nil)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	defer db.Close()
	for _, n := range names {
		var inDB, inFile int64
		if err := db.QueryRow(`SELECT count(*) FROM ` + quoteIdent(n)).Scan(&inDB); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		for _, dir := range []string{fromDB, fromStudy} {
			if err := db.QueryRow(`SELECT count(*) FROM read_parquet(?)`, filepath.Join(dir, n+".parquet")).Scan(&inFile); err != nil {
				t.Fatalf("%s: %v", n, err)
			}
			if inFile != inDB {
				t.Errorf("%s in %s: %d rows, the database has %d", n, dir, inFile, inDB)
			}
		}
	}
	// the view's content, not just its size: the same rows in the same order
	var diff int64
	q := `SELECT count(*) FROM (SELECT * FROM grading_scores EXCEPT ALL SELECT * FROM read_parquet(?))`
	if err := db.QueryRow(q, filepath.Join(fromDB, "grading_scores.parquet")).Scan(&diff); err != nil || diff != 0 {
		t.Errorf("grading_scores.parquet differs from the table in %d rows (%v)", diff, err)
	}
}

func TestExportErrors(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"export", "/nonexistent/study", "--parquet", t.TempDir()}); err == nil || !strings.Contains(err.Error(), "/nonexistent/study") {
		t.Errorf("missing source: %v, want an error naming it", err)
	}
	if err := run(context.Background(), &stdout, &stderr, []string{"export", t.TempDir()}); err == nil || !strings.Contains(err.Error(), "--parquet") {
		t.Errorf("without --parquet: %v, want an error naming the flag", err)
	}
}
