package ingest

import (
	"database/sql"
	"os"
	"strings"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// TestSameDatabase compares every table of two study databases, row by
// row in insertion order (rowid), with EXCEPT ALL both ways: the check
// that a change to the loader loads the same database. It runs only when
// EUROEXEC_DB_OLD and EUROEXEC_DB_NEW name the two files, e.g. the
// study.duckdb of main's binary and of the changed one on the same study:
//
//	EUROEXEC_DB_OLD=/tmp/old.duckdb EUROEXEC_DB_NEW=/tmp/new.duckdb go test -tags duckdb_arrow -run TestSameDatabase ./ingest
func TestSameDatabase(t *testing.T) {
	oldDB, newDB := os.Getenv("EUROEXEC_DB_OLD"), os.Getenv("EUROEXEC_DB_NEW")
	if oldDB == "" || newDB == "" {
		t.Skip("set EUROEXEC_DB_OLD and EUROEXEC_DB_NEW to compare two databases")
	}
	c, err := duckdb.NewConnector("", nil)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("ATTACH " + quoteLit(oldDB) + " AS old (READ_ONLY); ATTACH " + quoteLit(newDB) + " AS new (READ_ONLY)"); err != nil {
		t.Fatal(err)
	}
	tables := func(cat string) map[string]bool {
		t.Helper()
		rows, err := db.Query("SELECT table_name FROM duckdb_tables() WHERE database_name = ?", cat)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]bool{}
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			out[n] = true
		}
		return out
	}
	o, n := tables("old"), tables("new")
	if len(o) == 0 || len(o) != len(n) {
		t.Fatalf("got %d tables in the new database, want %d (the old one's)", len(n), len(o))
	}
	for name := range o {
		if !n[name] {
			t.Errorf("table %s: missing from the new database", name)
			continue
		}
		var rows, onlyOld, onlyNew int64
		cols := "*"
		if name == "ingest_files" {
			cols = "* EXCLUDE (loaded_at)" // the time of each load
		}
		q := `SELECT (SELECT count(*) FROM old.main."T"),
  (SELECT count(*) FROM (SELECT rowid, COLS FROM old.main."T" EXCEPT ALL SELECT rowid, COLS FROM new.main."T")),
  (SELECT count(*) FROM (SELECT rowid, COLS FROM new.main."T" EXCEPT ALL SELECT rowid, COLS FROM old.main."T"))`
		q = strings.ReplaceAll(replaceAll(q, "T", name), "COLS", cols)
		if err := db.QueryRow(q).Scan(&rows, &onlyOld, &onlyNew); err != nil {
			t.Fatalf("table %s: %v", name, err)
		}
		if onlyOld != 0 || onlyNew != 0 {
			t.Errorf("table %s (%d rows): got %d rows only in the old database and %d only in the new, want 0 and 0", name, rows, onlyOld, onlyNew)
			continue
		}
		t.Logf("table %s: %d rows, the same", name, rows)
	}
}

// replaceAll replaces the quoted table placeholder "T" in q by name.
func replaceAll(q, ph, name string) string {
	out := ""
	for i := 0; i < len(q); i++ {
		if q[i] == '"' && i+2 < len(q) && q[i+1:i+2] == ph && q[i+2] == '"' {
			out += `"` + name + `"`
			i += 2
			continue
		}
		out += string(q[i])
	}
	return out
}
