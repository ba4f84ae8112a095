package duckopen

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/euroexec/euroexec/schema"
)

// srcName is the name under which OpenUntrusted attaches the file.
const srcName = "untrusted_src"

// OpenUntrusted opens the study database file at path as data, not code:
// an in-memory database ATTACHes the file READ_ONLY, checks that each
// canonical table the file holds (those of schema/schema.sql) is a base table
// with the canonical columns, and defines in memory a view of that name
// over it (with the table's row number as a last column, rowid), and over
// every other base table of the file (grading_scores, text_metrics). A
// view or macro stored in the file never runs. External access (reading or
// writing files, the network) is then disabled and the configuration
// locked. A canonical name that is a view, or has other columns, is an
// error naming the file, the table and what was expected. A canonical
// table the file lacks (written by an older version) is left out. The folders in writable stay open to
// the database's statements (allowed_directories): export's COPY … TO.
func OpenUntrusted(ctx context.Context, path string, writable ...string) (*DB, error) {
	d, err := Open("", Options{})
	if err != nil {
		return nil, err
	}
	canon, err := untrustedSetup(ctx, d.DB, path, writable)
	if err != nil {
		d.Close()
		return nil, err
	}
	d.Canonical = canon
	d.Locked = true
	return d, nil
}

// untrustedSetup attaches path to db and makes the views of OpenUntrusted;
// it returns the canonical tables the file holds.
func untrustedSetup(ctx context.Context, db *sql.DB, path string, writable []string) (map[string]bool, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	exec := func(q string) error {
		_, err := conn.ExecContext(ctx, q)
		return err
	}
	if err := exec("ATTACH " + quoteLit(path) + " AS " + srcName + " (TYPE duckdb, READ_ONLY)"); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// The canonical schema, made in a scratch database to read its columns.
	if err := exec("ATTACH ':memory:' AS canon; USE canon; " + schema.Schema + "; USE memory"); err != nil {
		return nil, fmt.Errorf("canonical schema: %w", err)
	}
	canon, err := columns(ctx, conn, "canon")
	if err != nil {
		return nil, err
	}
	if err := exec("DETACH canon"); err != nil {
		return nil, err
	}
	src, err := columns(ctx, conn, srcName)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	found := map[string]bool{}
	names := make([]string, 0, len(src))
	for n := range src {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		t := src[n]
		want, isCanon := canon[n]
		if t.kind != "BASE TABLE" {
			if isCanon {
				return nil, fmt.Errorf("%s: %s is a %s, expected a table of the canonical schema (schema/schema.sql); this file was not written by euroexec or was altered", path, n, strings.ToLower(t.kind))
			}
			continue // views of the file are never read
		}
		if isCanon && !slices.Equal(t.cols, want.cols) {
			return nil, fmt.Errorf("%s: table %s has columns (%s), expected (%s) (the canonical schema of this euroexec version)", path, n, strings.Join(t.cols, ", "), strings.Join(want.cols, ", "))
		}
		sel := "*"
		if isCanon {
			found[n] = true
			// The canonical columns, and the row number as a column rowid
			// (a view has no rowid of its own; read back orders by it).
			sel = ""
			for _, c := range want.names {
				sel += quoteIdent(c) + ", "
			}
			sel += "rowid AS rowid"
		}
		if err := exec(fmt.Sprintf("CREATE VIEW memory.main.%s AS SELECT %s FROM %s.main.%s", quoteIdent(n), sel, srcName, quoteIdent(n))); err != nil {
			return nil, fmt.Errorf("%s: table %s: %w", path, n, err)
		}
	}
	if len(writable) > 0 {
		dirs := make([]string, len(writable))
		for i, w := range writable {
			dirs[i] = quoteLit(strings.TrimSuffix(w, string(filepath.Separator)) + string(filepath.Separator))
		}
		if err := exec("SET allowed_directories = [" + strings.Join(dirs, ", ") + "]"); err != nil {
			return nil, err
		}
	}
	if err := exec("SET enable_external_access = false; SET lock_configuration = true"); err != nil {
		return nil, err
	}
	return found, nil
}

// table is a table or view of a database: its kind (information_schema's
// table_type) and its columns as "name TYPE".
type table struct {
	kind  string
	cols  []string
	names []string
}

// columns lists the tables and views of schema main of database dbName.
func columns(ctx context.Context, conn *sql.Conn, dbName string) (map[string]*table, error) {
	out := map[string]*table{}
	rows, err := conn.QueryContext(ctx, `SELECT table_name, table_type FROM information_schema.tables
		WHERE table_catalog = ? AND table_schema = 'main'`, dbName)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var n, k string
		if err := rows.Scan(&n, &k); err != nil {
			rows.Close()
			return nil, err
		}
		out[n] = &table{kind: k}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = conn.QueryContext(ctx, `SELECT table_name, column_name, data_type FROM information_schema.columns
		WHERE table_catalog = ? AND table_schema = 'main' ORDER BY table_name, ordinal_position`, dbName)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var n, c, typ string
		if err := rows.Scan(&n, &c, &typ); err != nil {
			return nil, err
		}
		if t := out[n]; t != nil {
			t.cols = append(t.cols, c+" "+typ)
			t.names = append(t.names, c)
		}
	}
	return out, rows.Err()
}
