//go:build duckdb_arrow

package ingest

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// TestBatcherFullBatches loads tables past the row cap (checklist_items)
// and past the text cap (failed_requests) of a batch, and reads every row
// back in order: the rows of full and partial batches, queued for the
// loaders (two tables, on one connection and loaded side by side on two),
// are what was written, nulls included.
func TestBatcherFullBatches(t *testing.T) {
	defer func(c int) { loaderConns = c }(loaderConns)
	for _, conns := range []int{1, 2} {
		t.Run(fmt.Sprintf("conns=%d", conns), func(t *testing.T) {
			loaderConns = conns
			testBatcherFullBatches(t)
		})
	}
}

func testBatcherFullBatches(t *testing.T) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "s.duckdb")
	s, err := openSink(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	items := s.table("checklist_items", col{"question_id", kStr}, col{"item", kInt}, col{"text", kStr})
	tags := s.table("failed_requests", col{"question_id", kDict}, col{"model", kStr}, col{"request_id", kStr}, col{"error", kStr}, col{"source_file", kDict}, col{"source_row", kInt})
	// expected rows, computed independently of the batcher
	itemRow := func(i int) (string, int64, string) {
		return fmt.Sprintf("q%d", i%1000), int64(i), strings.Repeat("x", i%97)
	}
	long := strings.Repeat("long answer ", 400) // 4,800 bytes
	tagValue := func(i int) string { return long[:4000+i%700] }
	nItems := 2*batchRows + 123
	nTags := 2*batchBytes/4000 + 17
	for i := 0; i < nItems; i++ {
		q, n, txt := itemRow(i)
		items.str(0, q)
		items.i64(1, n)
		items.str(2, txt)
		if err := items.end(); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < nTags; i++ {
		tags.str(0, fmt.Sprintf("q%d", i%7))
		if i%5 == 0 {
			tags.null(1)
		} else {
			tags.str(1, "k")
		}
		tags.str(2, "r")
		tags.str(3, tagValue(i))
		tags.str(4, "f.jsonl")
		tags.i64(5, int64(i))
		if err := tags.end(); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.commit(); err != nil {
		t.Fatal(err)
	}

	c, err := duckdb.NewConnector(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn := sql.OpenDB(c)
	defer conn.Close()
	rows, err := conn.Query("SELECT question_id, item, text FROM checklist_items ORDER BY rowid")
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for rows.Next() {
		var q, txt string
		var n int64
		if err := rows.Scan(&q, &n, &txt); err != nil {
			t.Fatal(err)
		}
		wq, wn, wtxt := itemRow(i)
		if q != wq || n != wn || txt != wtxt {
			t.Fatalf("checklist_items row %d: got (%s, %d, %d bytes), want (%s, %d, %d bytes)", i, q, n, len(txt), wq, wn, len(wtxt))
		}
		i++
	}
	rows.Close()
	if i != nItems {
		t.Fatalf("checklist_items: got %d rows, want %d", i, nItems)
	}
	rows, err = conn.Query("SELECT question_id, model, error, source_row FROM failed_requests ORDER BY rowid")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	i = 0
	for rows.Next() {
		var q, v string
		var k sql.NullString
		var ord int64
		if err := rows.Scan(&q, &k, &v, &ord); err != nil {
			t.Fatal(err)
		}
		if q != fmt.Sprintf("q%d", i%7) || k.Valid == (i%5 == 0) || v != tagValue(i) || ord != int64(i) {
			t.Fatalf("failed_requests row %d: got (%s, %v, %d bytes, %d)", i, q, k, len(v), ord)
		}
		i++
	}
	if i != nTags {
		t.Fatalf("failed_requests: got %d rows, want %d", i, nTags)
	}
}
