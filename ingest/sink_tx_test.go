//go:build duckdb_arrow

package ingest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// TestLoadInTransactions loads the test study with the batches of each
// step in one transaction (inTransactions) and with every INSERT in its
// own, and checks that both databases hold the same rows in the same order
// (rowid), that no batch's view is left in the file, and that no
// write-ahead log is left beside it.
func TestLoadInTransactions(t *testing.T) {
	defer func(v bool) { inTransactions = v }(inTransactions)
	dumps := map[bool]map[string]string{}
	for _, tc := range []struct {
		name string
		tx   bool
	}{{"transactions", true}, {"autocommit", false}} {
		t.Run(tc.name, func(t *testing.T) {
			inTransactions = tc.tx
			db := filepath.Join(t.TempDir(), "s.duckdb")
			if _, err := Ingest(context.Background(), filepath.Join("testdata", "base"), Options{DB: db}); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(db + ".wal"); err == nil {
				t.Errorf("got a write-ahead log %s.wal left, want none", db)
			}
			dumps[tc.tx] = dumpTables(t, db)
		})
	}
	checkSameDump(t, dumps[true], dumps[false])
}

// TestLoadOneThread checks that the sink runs DuckDB on one thread
// (loadThreads: the loader's thread then inserts instead of busy-waiting
// on DuckDB's worker) and that the test study loads into the same rows in
// the same order as with DuckDB's default threads.
func TestLoadOneThread(t *testing.T) {
	defer func(v int) { loadThreads = v }(loadThreads)
	s, err := openSink(context.Background(), filepath.Join(t.TempDir(), "x.duckdb"))
	if err != nil {
		t.Fatal(err)
	}
	var threads int64
	err = s.conn.QueryRowContext(context.Background(), "SELECT current_setting('threads')").Scan(&threads)
	s.abort()
	if err != nil {
		t.Fatal(err)
	}
	if threads != 1 {
		t.Errorf("got DuckDB threads %d while loading, want 1", threads)
	}
	got := loadBaseDump(t)
	loadThreads = 0
	checkSameDump(t, got, loadBaseDump(t))
}

// loadBaseDump ingests testdata/base into a new database and returns its
// tables (dumpTables).
func loadBaseDump(t *testing.T) map[string]string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "s.duckdb")
	if _, err := Ingest(context.Background(), filepath.Join("testdata", "base"), Options{DB: db}); err != nil {
		t.Fatal(err)
	}
	return dumpTables(t, db)
}

// dumpTables returns every table of the database file db as text, rows
// in rowid order, and fails when a batch's view is left in it.
func dumpTables(t *testing.T, db string) map[string]string {
	t.Helper()
	c, err := duckdb.NewConnector(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn := sql.OpenDB(c)
	defer conn.Close()
	var views int
	if err := conn.QueryRow("SELECT count(*) FROM duckdb_views() WHERE view_name LIKE 'ingest_batch%'").Scan(&views); err != nil {
		t.Fatal(err)
	}
	if views != 0 {
		t.Errorf("got %d views of batches left in the database, want 0", views)
	}
	rows, err := conn.Query("SELECT table_name FROM duckdb_tables() ORDER BY 1")
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
	out := map[string]string{}
	for _, n := range names {
		cols := "*"
		if n == "ingest_files" {
			cols = "* EXCLUDE (loaded_at)" // the load's time
		}
		rows, err := conn.Query(fmt.Sprintf("SELECT %s FROM %q ORDER BY rowid", cols, n))
		if err != nil {
			t.Fatal(err)
		}
		cn, _ := rows.Columns()
		var b strings.Builder
		for rows.Next() {
			v := make([]any, len(cn))
			p := make([]any, len(cn))
			for i := range v {
				p[i] = &v[i]
			}
			if err := rows.Scan(p...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(&b, v...)
		}
		rows.Close()
		out[n] = b.String()
	}
	return out
}

// checkSameDump fails for every table whose rows differ between got and want.
func checkSameDump(t *testing.T, got, want map[string]string) {
	t.Helper()
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("got %d tables, want %d", len(got), len(want))
	}
	for n, w := range want {
		if g := got[n]; g != w {
			t.Errorf("table %s: got %d bytes of rows, want %d (the reference load's), not the same", n, len(g), len(w))
		}
	}
	if len(want["responses"]) == 0 || len(want["gradings"]) == 0 {
		t.Errorf("got no responses or gradings loaded, want some")
	}
}

// TestLoadQueuedSameRows checks that the test study loads into the same
// rows in the same order with batches queued for the loader
// (queuedBatches, the default) as with the unbuffered hand-over.
func TestLoadQueuedSameRows(t *testing.T) {
	defer func(v int) { queuedBatches = v }(queuedBatches)
	queuedBatches = 2
	got := loadBaseDump(t)
	queuedBatches = 0
	checkSameDump(t, got, loadBaseDump(t))
}
