package readback

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/sample"
	"github.com/euroexec/euroexec/study"
)

// liveBytes is the live heap that build keeps (what it returns stays
// reachable until the measure is taken).
func liveBytes(build func() any) (uint64, any) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return after.HeapAlloc - before.HeapAlloc, v
}

// BenchmarkLiveMemory measures, on one synthetic study
// (EUROEXEC_BENCH_QUESTIONS questions, default 2,000; run with -benchtime
// 1x), the live heap of what Load keeps: the gate items (tallied in SQL)
// in B/question, and the Grading rows (structs and interned comments; the
// rubric and verdict slabs and the interned ids are not counted) in
// B/grading.
func BenchmarkLiveMemory(b *testing.B) {
	nq := 2000
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
	b.Logf("%d questions, %d grading rows, %d gate items", nq, len(s.Gradings), len(s.GateItems))
	for b.Loop() {
		gate, keepGate := liveBytes(func() any {
			t := &study.Study{Questions: s.Questions}
			if err := d.loadGate(ctx, t); err != nil {
				b.Fatal(err)
			}
			return t.GateItems[:len(t.GateItems):len(t.GateItems)]
		})
		n := len(s.Gradings)
		gradings, keepG := liveBytes(func() any {
			out := make([]study.Grading, n)
			c := newCommentInterner()
			for i, g := range s.Gradings {
				g.Comment = c.str(g.Comment)
				out[i] = g
			}
			return out
		})
		runtime.KeepAlive(keepGate)
		runtime.KeepAlive(keepG)
		b.ReportMetric(float64(gate)/float64(nq), "gate-B/question")
		b.ReportMetric(float64(gradings)/float64(n), "gradings-B/grading")
	}
}
