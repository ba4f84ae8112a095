package ingest

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/euroexec/euroexec/sample"
)

// benchStudy writes (once per process) a synthetic study of the size given by
// EUROEXEC_BENCH_QUESTIONS (default 40000) with 2,000-character answers.
func benchStudy(b *testing.B) (dir string, bytes int64) {
	b.Helper()
	n := 40000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		n = v
	}
	dir = filepath.Join(os.TempDir(), "euroexec-bench-"+strconv.Itoa(n))
	if _, err := os.Stat(filepath.Join(dir, "questions.csv")); err != nil {
		opt := sample.DefaultOptions()
		opt.Questions = n
		opt.ResponseChars = 2000
		os.RemoveAll(dir)
		if _, err := sample.Write(dir, opt); err != nil {
			b.Fatal(err)
		}
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				bytes += fi.Size()
			}
		}
		return nil
	})
	return dir, bytes
}

// BenchmarkIngest compares euroexec's validated Arrow load with DuckDB's own
// readers loading the same files (read_csv / read_json, no validation) in
// the same run. Report: gradings/s, MB/s and the ratio native/ours.
//
//	go test -tags duckdb_arrow -run X -bench Ingest -benchtime 3x ./ingest
func BenchmarkIngest(b *testing.B) {
	dir, size := benchStudy(b)
	out := b.TempDir()
	b.Run("euroexec", func(b *testing.B) {
		var gradings int64
		for i := 0; i < b.N; i++ {
			res, err := Ingest(context.Background(), dir, Options{DB: filepath.Join(out, "s.duckdb")})
			if err != nil {
				b.Fatal(err)
			}
			gradings = res.Rows["gradings"]
		}
		b.SetBytes(size)
		b.ReportMetric(float64(gradings)*float64(b.N)/b.Elapsed().Seconds(), "gradings/s")
	})
	b.Run("duckdb-native", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			p := filepath.Join(out, "native"+strconv.Itoa(i)+".duckdb")
			c, err := duckdb.NewConnector(p, nil)
			if err != nil {
				b.Fatal(err)
			}
			db := sql.OpenDB(c)
			// The same canonical tables, built by DuckDB's own readers and
			// SQL (no validation, no located errors): wide sheets are
			// unpivoted into rubric_scores and checklist_verdicts.
			q := strings.ReplaceAll(`
CREATE TABLE questions AS SELECT * FROM read_csv('DIR/questions.csv', all_varchar = true);
CREATE TABLE checklist_items AS SELECT question_id, item::INTEGER AS item, text FROM read_csv('DIR/checklist.csv', all_varchar = true);
CREATE TABLE responses AS SELECT question_id, model, coalesce(attempt, 0) AS attempt, text,
  length(text) AS chars, len(string_split_regex(trim(text), '\s+')) AS words, cost_usd, input_tokens, output_tokens, filename AS source_file
  FROM read_json('DIR/responses/*.jsonl', format = 'newline_delimited', union_by_name = true, filename = true);
CREATE TABLE hraw AS SELECT row_number() OVER () AS grading_id, * FROM read_csv('DIR/grades/humans/**/*.csv', union_by_name = true, all_varchar = true, filename = true);
CREATE TABLE jraw AS SELECT 10000000 + row_number() OVER () AS grading_id, * FROM read_json('DIR/grades/judges/*.jsonl', format = 'newline_delimited', union_by_name = true, filename = true);
CREATE TABLE gradings AS
  SELECT grading_id, evaluator, 'human' AS kind, question_id, coalesce(model, label) AS model, rank::INTEGER AS rank, comment, filename AS source_file FROM hraw
  UNION ALL
  SELECT grading_id, evaluator, 'judge', question_id, model, rank::INTEGER, comment, filename FROM jraw;
CREATE TABLE rubric_scores AS
  SELECT grading_id, attribute, score::DOUBLE AS score FROM (UNPIVOT hraw ON Domain, Localization, Reasoning, Communication, Actionability INTO NAME attribute VALUE score)
  UNION ALL
  SELECT grading_id, attribute, score::DOUBLE FROM (UNPIVOT jraw ON Domain, Localization, Reasoning, Communication, Actionability INTO NAME attribute VALUE score);
CREATE TABLE checklist_verdicts AS
  SELECT grading_id, replace(item, 'C', '')::INTEGER AS item, lower(verdict) AS verdict FROM (UNPIVOT hraw ON COLUMNS('^C[0-9]+$') INTO NAME item VALUE verdict)
  UNION ALL
  SELECT grading_id, replace(item, 'C', '')::INTEGER, lower(verdict) FROM (UNPIVOT jraw ON COLUMNS('^C[0-9]+$') INTO NAME item VALUE verdict);
CREATE TABLE gate_runs AS SELECT * FROM read_csv('DIR/gate.csv');
DROP TABLE hraw; DROP TABLE jraw;`, "DIR", dir)
			if _, err := db.Exec(q); err != nil {
				b.Fatal(err)
			}
			db.Close()
			os.Remove(p)
		}
		b.SetBytes(size)
	})
}

// BenchmarkLoaders loads the same study with one loader connection and
// batches handed over unbuffered, with two batches queued for one
// connection (the default) and with two connections and two queued, in the same run,
// and reports the CPU seconds of each load besides its wall time. The
// study's size is EUROEXEC_BENCH_QUESTIONS (default 40000; 5000 runs in
// seconds).
//
//	EUROEXEC_BENCH_QUESTIONS=5000 go test -tags duckdb_arrow -run X -bench Loaders -count 3 ./ingest
func BenchmarkLoaders(b *testing.B) {
	dir, size := benchStudy(b)
	out := b.TempDir()
	defer func(c, q int) { loaderConns, queuedBatches = c, q }(loaderConns, queuedBatches)
	for _, tc := range []struct {
		name       string
		conns, que int
	}{{"handover", 1, 0}, {"queued-2", 1, 2}, {"two-conns", 2, 2}} {
		b.Run(tc.name, func(b *testing.B) {
			loaderConns, queuedBatches = tc.conns, tc.que
			cpu0 := cpuTime(b)
			for i := 0; i < b.N; i++ {
				if _, err := Ingest(context.Background(), dir, Options{DB: filepath.Join(out, "s.duckdb")}); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(size)
			b.ReportMetric((cpuTime(b)-cpu0).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}
