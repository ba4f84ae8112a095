package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"unsafe"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/readback"
	"github.com/euroexec/euroexec/sample"
	"github.com/euroexec/euroexec/study"
)

// BenchmarkReadBack compares, on one generated study
// (EUROEXEC_BENCH_QUESTIONS questions, default 5,000; 6 models, 10 % with
// a reference, responses of ~1,500 characters), reading it back with every
// response text, prompt and checklist text (all: readback.Load, as
// before), with the response texts the analysis reads but every prompt
// and checklist text (prompts: readBack before question texts were
// deferred) and with only the texts the analysis reads (needed: readBack,
// as Run), in the same run. Beside
// time and allocations it reports text-MB, the response text bytes held,
// qtext-MB, the prompt and checklist item text bytes held, live-MB,
// the live heap after a GC with the study held, live-B/grading, that heap
// per grading run (Study.Gradings), and rows-B/grading, the bytes of the
// Grading and Score rows per grading run.
func BenchmarkReadBack(b *testing.B) {
	nq := 5000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		nq = v
	}
	dir := b.TempDir()
	opt := sample.DefaultOptions()
	opt.Questions = nq
	if _, err := sample.Write(dir, opt); err != nil {
		b.Fatal(err)
	}
	dbPath := filepath.Join(b.TempDir(), "s.duckdb")
	ctx := context.Background()
	res, err := ingest.Ingest(ctx, dir, ingest.Options{DB: dbPath})
	if err != nil {
		b.Fatal(err)
	}
	aopt := analysisOptions(res.Config)
	report := func(b *testing.B, s *study.Study) {
		text := 0
		for _, r := range s.Responses {
			text += len(r.Text)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		runtime.KeepAlive(s)
		qtext := 0
		for _, q := range s.Questions {
			qtext += len(q.Prompt)
			for _, c := range q.Checklist {
				qtext += len(c)
			}
		}
		b.ReportMetric(float64(text)/1e6, "text-MB")
		b.ReportMetric(float64(qtext)/1e6, "qtext-MB")
		b.ReportMetric(float64(ms.HeapAlloc)/1e6, "live-MB")
		if n := len(s.Gradings); n > 0 {
			// the whole study's live heap per grading run, and the part of it
			// in the per-grading rows (Study.Gradings)
			b.ReportMetric(float64(ms.HeapAlloc)/float64(n), "live-B/grading")
			rows := uintptr(len(s.Gradings)) * unsafe.Sizeof(study.Grading{})
			b.ReportMetric(float64(rows)/float64(n), "rows-B/grading")
		}
	}
	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		var s *study.Study
		for b.Loop() {
			s = nil
			runtime.GC()
			db, err := readback.Open(dbPath)
			if err != nil {
				b.Fatal(err)
			}
			s, _, err = db.Load(ctx, res.Config)
			if err == nil {
				_, err = db.Listings(ctx)
			}
			db.Close()
			if err != nil {
				b.Fatal(err)
			}
		}
		report(b, s)
	})
	b.Run("prompts", func(b *testing.B) {
		// as readBack before question texts were deferred: response texts
		// where needed, every prompt and checklist text
		b.ReportAllocs()
		var s *study.Study
		for b.Loop() {
			s = nil
			runtime.GC()
			s, _, _, err = readBack(ctx, dbPath, res.Config, aopt)
			if err != nil {
				b.Fatal(err)
			}
			ids := make([]string, len(s.Questions))
			for i, q := range s.Questions {
				ids[i] = q.ID
			}
			db, err := readback.Open(dbPath)
			if err != nil {
				b.Fatal(err)
			}
			_, err = db.LoadQuestionTexts(ctx, s, ids)
			db.Close()
			if err != nil {
				b.Fatal(err)
			}
		}
		report(b, s)
	})
	b.Run("needed", func(b *testing.B) {
		b.ReportAllocs()
		var s *study.Study
		for b.Loop() {
			s = nil
			runtime.GC()
			s, _, _, err = readBack(ctx, dbPath, res.Config, aopt)
			if err != nil {
				b.Fatal(err)
			}
		}
		report(b, s)
	})
}
