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

// BenchmarkScores compares, on one synthetic study
// (EUROEXEC_BENCH_QUESTIONS questions, default 10,000), the two sources of
// the per-grading scores in the same run: rows = the Go computation from the
// raw rows (what each scoring analysis did before, six times per run), view
// = serving them from Study.Scores, and read = the one scan of the view
// grading_scores that Load adds; read-scores-* and read-gradings-* compare
// the row-by-row readers (database/sql) with the Arrow readers Load uses.
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
	defer d.Close()
	s, _, err := d.Load(ctx, res.Config)
	if err != nil {
		b.Fatal(err)
	}
	so := scores.Options{RubricThreshold: res.Config.Solve.RubricThreshold, ChecklistThreshold: res.Config.Solve.ChecklistThreshold,
		PartialCredit: res.Config.Solve.PartialCredit}
	b.Logf("%d questions, %d grading rows, %d gradings", nq, len(s.Gradings), len(s.Scores))
	b.Run("rows", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			scores.FromRows(s, so)
		}
	})
	b.Run("view", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := scores.FromView(s, so); !ok {
				b.Fatal("FromView refused the study")
			}
		}
	})
	b.Run("read", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s.Scores = nil
			if err := d.loadScores(ctx, s); err != nil {
				b.Fatal(err)
			}
		}
	})
	// the readers of grading_scores and of the gradings, row by row
	// (database/sql) and through DuckDB's Arrow interface, on one database
	b.Run("read-scores-rows", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s.Scores = nil
			if err := d.loadScoresRows(ctx, s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("read-scores-arrow", func(b *testing.B) {
		if !haveArrow {
			b.Skip("built without the tag duckdb_arrow")
		}
		b.ReportAllocs()
		for b.Loop() {
			s.Scores = nil
			if err := d.loadScoresArrow(ctx, s); err != nil {
				b.Fatal(err)
			}
		}
	})
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
