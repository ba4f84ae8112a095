package ingest

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/euroexec/euroexec/data"
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
		opt := data.DefaultOptions()
		opt.Questions = n
		opt.ResponseChars = 2000
		os.RemoveAll(dir)
		if _, err := data.Write(dir, opt); err != nil {
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
			q := `
CREATE TABLE questions AS SELECT * FROM read_csv('` + dir + `/questions.csv');
CREATE TABLE checklist AS SELECT * FROM read_csv('` + dir + `/checklist.csv');
CREATE TABLE responses AS SELECT * FROM read_json('` + dir + `/responses/*.jsonl', format='newline_delimited', union_by_name=true);
CREATE TABLE human_raw AS SELECT * FROM read_csv('` + dir + `/grades/humans/**/*.csv', union_by_name=true, all_varchar=true);
CREATE TABLE judge_raw AS SELECT * FROM read_json('` + dir + `/grades/judges/*.jsonl', format='newline_delimited', union_by_name=true);
CREATE TABLE gate AS SELECT * FROM read_csv('` + dir + `/gate.csv');`
			if _, err := db.Exec(q); err != nil {
				b.Fatal(err)
			}
			db.Close()
			os.Remove(p)
		}
		b.SetBytes(size)
	})
}
