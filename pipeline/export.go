package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/internal/duckopen"
	"github.com/euroexec/euroexec/outsafe"
	"github.com/euroexec/euroexec/readback"
)

// ExportOptions are what OpenExportSource needs besides its source.
type ExportOptions struct {
	// Progress, when set, is called as a study folder's files are loaded
	// (ingest.Options.Progress).
	Progress func(done, total int64)
	// Note, when set, is told what Export cleaned up or noticed
	// (stale scratch folders of killed commands).
	Note func(string)
}

// ExportSource is the database an export reads: a .duckdb file, a report
// folder's study.duckdb, or a study folder loaded into a scratch database.
// Close removes the scratch database.
type ExportSource struct {
	// DB is the database file.
	DB string
	// Warnings are ingest's warnings when the source was a study folder.
	Warnings []string
	cleanup  func()
}

// Close removes the scratch database of a study folder; it does nothing
// for a database that was already there.
func (e *ExportSource) Close() { e.cleanup() }

// OpenExportSource returns the database behind src: a .duckdb file as it
// is, a report folder's study.duckdb, or a study folder validated and
// loaded into a scratch database (an invalid study is an
// *ingest.ProblemsError, and nothing is left behind).
func OpenExportSource(ctx context.Context, src string, opt ExportOptions) (*ExportSource, error) {
	db, warnings, cleanup, err := exportSource(ctx, src, opt)
	if err != nil {
		return nil, err
	}
	return &ExportSource{DB: db, Warnings: warnings, cleanup: cleanup}, nil
}

// Write writes the tables of e's database — the canonical tables,
// grading_scores and a run's text_metrics (duckopen.OpenUntrusted: a
// database is data, never code) — as dir/NAME.parquet with DuckDB's COPY, and returns their names in
// order. dir must exist and is the caller's (output safety: a temporary
// folder the command moves into place when Write returns).
func (e *ExportSource) Write(ctx context.Context, dir string) ([]string, error) {
	db, err := duckopen.OpenUntrusted(ctx, e.DB, dir)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT table_name FROM information_schema.tables
		WHERE table_catalog = current_database() AND table_schema = 'main' ORDER BY table_name`)
	if err != nil {
		return nil, fmt.Errorf("export: list tables of %s: %w", e.DB, err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, fmt.Errorf("export: list tables of %s: %w", e.DB, err)
		}
		names = append(names, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("export: list tables of %s: %w", e.DB, err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("export: %s holds no tables", e.DB)
	}
	for _, n := range names {
		// COPY takes neither the table nor the file as a parameter: both are
		// quoted here (the file name is our own; the folder is the caller's).
		target := filepath.Join(dir, n+".parquet")
		cols := "*"
		if db.Canonical[n] {
			cols = "* EXCLUDE (rowid)" // the row number OpenUntrusted's view adds
		}
		q := fmt.Sprintf("COPY (SELECT %s FROM %s) TO %s (FORMAT parquet)", cols, QuoteIdent(n), QuoteString(target))
		if _, err := db.ExecContext(ctx, q); err != nil {
			return nil, fmt.Errorf("export: %s: %w", n, err)
		}
	}
	return names, nil
}

// exportSource returns the database file of src: a .duckdb file as it is,
// a report folder's study.duckdb, or a study folder loaded into a scratch
// database (removed by cleanup).
func exportSource(ctx context.Context, src string, opt ExportOptions) (string, []string, func(), error) {
	none := func() {}
	fi, err := os.Stat(src)
	if err != nil {
		return "", nil, none, fmt.Errorf("export: %w", err)
	}
	if !fi.IsDir() {
		return src, nil, none, nil
	}
	if p := filepath.Join(src, "study.duckdb"); notDir(p) {
		return p, nil, none, nil
	}
	for _, n := range outsafe.CleanScratch() {
		if opt.Note != nil {
			opt.Note(n)
		}
	}
	tmp, err := outsafe.ScratchDir("export")
	if err != nil {
		return "", nil, none, fmt.Errorf("export: %w", err)
	}
	cleanup := func() { os.RemoveAll(tmp) }
	dbPath := filepath.Join(tmp, "study.duckdb")
	res, err := ingest.Ingest(ctx, src, ingest.Options{DB: dbPath, Now: time.Now, Progress: opt.Progress, Finish: readback.StoreScores})
	if err != nil {
		cleanup()
		return "", nil, none, err
	}
	return dbPath, res.Warnings, cleanup, nil
}

// notDir reports whether p exists and is not a folder.
func notDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// QuoteIdent quotes a SQL identifier.
func QuoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// QuoteString quotes a SQL string literal.
func QuoteString(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }
