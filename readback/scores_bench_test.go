package readback

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/sample"
	"github.com/euroexec/euroexec/study"
)

// BenchmarkScores measures, on one synthetic study
// (EUROEXEC_BENCH_QUESTIONS questions, default 10,000), the per-grading
// scores: rows = their computation from the raw rows (once per run),
// write = writing them as the table grading_scores; read-gradings-*
// compare the row-by-row reader of the gradings (database/sql) with the
// Arrow reader Load uses.
func BenchmarkScores(b *testing.B) {
	nq := 10000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		nq = v
	}
	dir := b.TempDir()
	opt := sample.DefaultOptions()
	opt.Questions, opt.ResponseChars = nq, 100
	if _, err := sample.Write(dir, opt); err != nil {
		b.Fatal(err)
	}
	db := filepath.Join(b.TempDir(), "s.duckdb")
	ctx := context.Background()
	res, err := ingest.Ingest(ctx, dir, ingest.Options{DB: db})
	if err != nil {
		b.Fatal(err)
	}
	d, err := Open(db)
	if err != nil {
		b.Fatal(err)
	}
	s, _, err := d.Load(ctx, res.Config)
	d.Close()
	if err != nil {
		b.Fatal(err)
	}
	so := ScoreOptions(res.Config)
	b.Logf("%d questions, %d grading rows", nq, len(s.Gradings))
	b.Run("rows", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			scores.FromRows(s, so)
		}
	})
	// writing them as the table grading_scores, as run and ingest do
	gs := scores.FromRows(s, so)
	b.Run("write", func(b *testing.B) {
		for b.Loop() {
			if err := WriteScores(ctx, db, gs); err != nil {
				b.Fatal(err)
			}
		}
	})
	// the readers of the gradings, row by row (database/sql) and through
	// DuckDB's Arrow interface, on one database
	d, err = Open(db)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	b.Run("read-gradings-rows", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := d.loadGradingsRows(ctx, &study.Study{}, res.Config); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("read-gradings-arrow", func(b *testing.B) {
		if !haveArrow {
			b.Skip("built without the tag duckdb_arrow")
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := d.loadGradingsArrow(ctx, &study.Study{}, res.Config); err != nil {
				b.Fatal(err)
			}
		}
	})
}
