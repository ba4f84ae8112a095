package transform

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/data"
	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/study"
)

// oldGrading is study.Grading as it was before the tags moved to
// Study.GradingTags (216 bytes), the baseline of BenchmarkLiveMemory.
type oldGrading struct {
	Evaluator, Kind, Round, Run, QuestionID, Model string
	Rubric                                         []float64
	Verdicts                                       []study.Verdict
	Rank, Position                                 int
	Label, Comment                                 string
	Tags                                           []study.Tag
}

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
// 1x), the live heap of the compact forms against the old ones in the same
// run:
//
//   - gate: Study.GateItems as Load reads them (tallied in SQL) against the
//     old per-run GateRun rows (question id and run interned, as the old
//     reader did); reports B/question for each and the ratio;
//   - gradings: the Grading rows (structs and comments; the rubric and
//     verdict slabs and the interned ids are shared by both and not
//     counted) as Load keeps them against the old layout with a copy of
//     each comment; reports B/grading for each and the ratio.
func BenchmarkLiveMemory(b *testing.B) {
	nq := 2000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		nq = v
	}
	dir := b.TempDir()
	opt := data.DefaultOptions()
	opt.Questions, opt.ResponseChars = nq, 100
	if _, err := data.Write(dir, opt); err != nil {
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
		oldGate, keepOld := liveBytes(func() any {
			var runs []study.GateRun
			in := interner{}
			var qid, run sql.RawBytes
			err := d.query(ctx, `SELECT question_id, run, item, passed FROM gate_runs ORDER BY question_id, run, item`, func(r *sql.Rows) error {
				var x study.GateRun
				if err := r.Scan(&qid, &run, &x.Item, &x.Passed); err != nil {
					return err
				}
				x.QuestionID, x.Run = in.bytes(qid), in.bytes(run)
				runs = append(runs, x)
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			return runs[:len(runs):len(runs)]
		})
		newGate, keepNew := liveBytes(func() any {
			t := &study.Study{Questions: s.Questions}
			if err := d.loadGate(ctx, t); err != nil {
				b.Fatal(err)
			}
			return t.GateItems[:len(t.GateItems):len(t.GateItems)]
		})
		runtime.KeepAlive(keepOld)
		runtime.KeepAlive(keepNew)
		b.ReportMetric(float64(oldGate)/float64(nq), "gate-old-B/question")
		b.ReportMetric(float64(newGate)/float64(nq), "gate-new-B/question")
		b.ReportMetric(float64(newGate)/float64(oldGate), "gate-new/old")

		n := len(s.Gradings)
		oldG, keepOld2 := liveBytes(func() any {
			out := make([]oldGrading, n)
			for i, g := range s.Gradings {
				out[i] = oldGrading{g.Evaluator, g.Kind, g.Round, g.Run, g.QuestionID, g.Model, g.Rubric, g.Verdicts,
					int(g.Rank), int(g.Position), g.Label, strings.Clone(g.Comment), nil}
			}
			return out
		})
		newG, keepNew2 := liveBytes(func() any {
			out := make([]study.Grading, n)
			c := newCommentInterner()
			for i, g := range s.Gradings {
				g.Comment = c.str(g.Comment)
				out[i] = g
			}
			return out
		})
		runtime.KeepAlive(keepOld2)
		runtime.KeepAlive(keepNew2)
		b.ReportMetric(float64(oldG)/float64(n), "gradings-old-B/grading")
		b.ReportMetric(float64(newG)/float64(n), "gradings-new-B/grading")
		b.ReportMetric(float64(newG)/float64(oldG), "gradings-new/old")
	}
}
