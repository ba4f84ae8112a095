package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/readback"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/csvout"
	"github.com/euroexec/euroexec/sample"
	"github.com/euroexec/euroexec/study"
)

// TestLaterAnalysesConcurrentSame runs a generated study (humans, judges,
// PRBench criteria) with the analyses after the paper's one by one and
// after the paper's (the baseline), eight at a time, and alongside the
// paper's analysis with one and eight workers: every CSV table, the order
// of the tables, figures, notes and warnings must be the same. Under
// `go test -race` it also checks that the paper's and the later analyses
// only read the study they share.
func TestLaterAnalysesConcurrentSame(t *testing.T) {
	dir := t.TempDir()
	o := sample.DefaultOptions()
	o.Questions = 40
	o.Criteria = true
	if _, err := sample.Write(dir, o); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	run := func(workers, overlapMax int) (*Result, map[string][]byte) {
		t.Helper()
		opt := DefaultOptions()
		opt.DB = filepath.Join(t.TempDir(), "study.duckdb")
		opt.Now = func() time.Time { return now }
		opt.Workers = workers
		opt.OverlapMaxGradings = overlapMax
		res, err := Run(context.Background(), dir, opt)
		if err != nil {
			t.Fatalf("workers %d: %v", workers, err)
		}
		out := t.TempDir()
		if err := csvout.Write(context.Background(), out, res.Report, csvout.DefaultOptions); err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{}
		err = filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			rel, _ := filepath.Rel(out, p)
			files[rel] = b
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return res, files
	}
	seq, seqFiles := run(1, -1)
	if len(seqFiles) < 20 {
		t.Fatalf("only %d CSV files written", len(seqFiles))
	}
	if g := seq.Rows["gradings"]; g == 0 || g > DefaultOverlapMaxGradings {
		t.Fatalf("the study has %d gradings: the default would not overlap it", g)
	}
	for _, c := range []struct {
		name                string
		workers, overlapMax int
	}{
		{"eight workers after the paper's analysis", 8, -1},
		{"one worker alongside the paper's analysis", 1, 0},
		{"eight workers alongside the paper's analysis", 8, 0},
	} {
		con, conFiles := run(c.workers, c.overlapMax)
		for name, want := range seqFiles {
			if got, ok := conFiles[name]; !ok {
				t.Errorf("%s: %s: missing", c.name, name)
			} else if !bytes.Equal(got, want) {
				t.Errorf("%s: %s differs from one worker after the paper's analysis", c.name, name)
			}
		}
		if len(conFiles) != len(seqFiles) {
			t.Errorf("%s: got %d files, want %d", c.name, len(conFiles), len(seqFiles))
		}
		checkReportOrder(t, c.name, seq, con)
	}
}

// checkReportOrder compares the order of the tables, figures, notes and
// warnings of con with seq's, and checks the report order of the analyses.
func checkReportOrder(t *testing.T, name string, seq, con *Result) {
	t.Helper()
	checkSame(t, name+": tables", names(seq.Report.Tables, func(x *report.Table) string { return x.Name }),
		names(con.Report.Tables, func(x *report.Table) string { return x.Name }))
	checkSame(t, name+": figures", names(seq.Report.Figures, func(x *report.Figure) string { return x.ID }),
		names(con.Report.Figures, func(x *report.Figure) string { return x.ID }))
	checkSame(t, name+": notes", names(seq.Report.Notes, func(x report.Note) string { return x.Table + ": " + x.Reason }),
		names(con.Report.Notes, func(x report.Note) string { return x.Table + ": " + x.Reason }))
	checkSame(t, name+": warnings", seq.Report.Warnings, con.Report.Warnings)
	// the report order of the analyses (the order they ran in one by one)
	tables := names(con.Report.Tables, func(x *report.Table) string { return x.Name })
	last := -1
	for _, want := range []string{"summary", "prbench_scores", "reliability", "rankings", "judge_calibration", "study_plan", "judge_bias"} {
		i := slices.Index(tables, want)
		if i < 0 {
			t.Errorf("%s: the generated study has no %s table: the test does not cover that analysis", name, want)
			continue
		}
		if i < last {
			t.Errorf("%s: table %s comes at %d, before the table of the analysis that runs before it (at %d)", name, want, i, last)
		}
		last = i
	}
}

func names[T any](xs []T, name func(T) string) []string {
	var out []string
	for _, x := range xs {
		out = append(out, name(x))
	}
	return out
}

func checkSame(t *testing.T, what string, want, got []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// TestRunJobs checks the order of the results and the choice of error
// when jobs finish in any order: the results are applied in the jobs'
// order, and the error is the first failing job's in that order.
func TestRunJobs(t *testing.T) {
	errA, errC := errors.New("a failed"), errors.New("c failed")
	for _, c := range []struct {
		name    string
		delays  []time.Duration // job i sleeps delays[i] before it ends
		fail    map[int]error
		workers int
		want    error
	}{
		{"all succeed, last first", []time.Duration{30, 20, 10, 0}, nil, 4, nil},
		{"all succeed, one worker", []time.Duration{0, 5, 0, 5}, nil, 1, nil},
		{"all succeed, no worker given", []time.Duration{0, 5, 0, 5}, nil, 0, nil},
		{"later failure ends first", []time.Duration{30, 0, 20, 0}, map[int]error{0: errA, 2: errC}, 4, errA},
		{"only a later job fails", []time.Duration{0, 0, 10, 0}, map[int]error{2: errC}, 2, errC},
	} {
		t.Run(c.name, func(t *testing.T) {
			var ran atomic.Int32
			var jobs []job
			for i, d := range c.delays {
				jobs = append(jobs, job{name: fmt.Sprint(i), run: func(ctx context.Context) (func(*Result), error) {
					ran.Add(1)
					time.Sleep(d * time.Millisecond)
					if err := c.fail[i]; err != nil {
						return nil, err
					}
					return func(res *Result) { res.Report.Notes = append(res.Report.Notes, report.Note{Table: fmt.Sprint(i)}) }, nil
				}})
			}
			res := &Result{Report: &report.Report{}}
			err := runJobs(context.Background(), res, jobs, c.workers)
			if !errors.Is(err, c.want) || (err == nil) != (c.want == nil) {
				t.Fatalf("got error %v, want %v", err, c.want)
			}
			if int(ran.Load()) != len(jobs) {
				t.Errorf("%d jobs ran, want all %d", ran.Load(), len(jobs))
			}
			var got []string
			for _, n := range res.Report.Notes {
				got = append(got, n.Table)
			}
			want := []string{"0", "1", "2", "3"}
			if c.want != nil {
				want = nil // nothing is applied when a job fails
			}
			if !slices.Equal(got, want) {
				t.Errorf("applied %q, want %q", got, want)
			}
		})
	}
}

// TestComputeLater: the early jobs run while the study still has its
// grading rows and the others after they are released; the adds come back
// in the jobs' order and the error is the first failed job's in that
// order, as with computeJobs.
func TestComputeLater(t *testing.T) {
	errA, errB := errors.New("a failed"), errors.New("b failed")
	for _, c := range []struct {
		name    string
		early   []bool
		fail    map[int]error
		workers int
		want    error
	}{
		{"early jobs between late ones", []bool{false, true, false, true}, nil, 2, nil},
		{"one worker", []bool{true, false, true, false}, nil, 1, nil},
		{"no early job", []bool{false, false, false}, nil, 2, nil},
		{"a late job fails before an early one in order", []bool{false, true, false}, map[int]error{0: errA, 1: errB}, 2, errA},
		{"only an early job fails", []bool{false, true, false}, map[int]error{1: errB}, 2, errB},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &study.Study{Gradings: make([]study.Grading, 3)}
			sawRows := make([]bool, len(c.early))
			var jobs []job
			for i, e := range c.early {
				jobs = append(jobs, job{name: fmt.Sprint(i), early: e, run: func(ctx context.Context) (func(*Result), error) {
					sawRows[i] = s.Gradings != nil
					if err := c.fail[i]; err != nil {
						return nil, err
					}
					return func(res *Result) { res.Report.Notes = append(res.Report.Notes, report.Note{Table: fmt.Sprint(i)}) }, nil
				}})
			}
			graded := func() []scores.Grading { return nil }
			adds, err := computeLater(context.Background(), s, jobs, graded, c.workers)
			if !errors.Is(err, c.want) || (err == nil) != (c.want == nil) {
				t.Fatalf("got error %v, want %v", err, c.want)
			}
			if s.Gradings != nil {
				t.Errorf("after computeLater the study holds %d grading rows, want none", len(s.Gradings))
			}
			for i, e := range c.early {
				if sawRows[i] != e {
					t.Errorf("job %d (early %v) saw the grading rows: %v", i, e, sawRows[i])
				}
			}
			if c.want != nil {
				return
			}
			res := &Result{Report: &report.Report{}}
			for _, add := range adds {
				add(res)
			}
			var got, want []string
			for i := range c.early {
				want = append(want, fmt.Sprint(i))
			}
			for _, n := range res.Report.Notes {
				got = append(got, n.Table)
			}
			if !slices.Equal(got, want) {
				t.Errorf("applied %q, want %q", got, want)
			}
		})
	}
}

// TestRunJobsCancelled: a cancelled context starts no job and comes back
// as the first job's error.
func TestRunJobsCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var ran atomic.Int32
	jobs := []job{{name: "x", run: func(context.Context) (func(*Result), error) { ran.Add(1); return func(*Result) {}, nil }}}
	err := runJobs(ctx, &Result{Report: &report.Report{}}, jobs, 2)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if ran.Load() != 0 {
		t.Errorf("%d jobs ran after the cancellation", ran.Load())
	}
}

// BenchmarkLaterAnalyses runs PRBench and the analyses beyond the paper on
// a generated study of EUROEXEC_BENCH_QUESTIONS questions (default 300)
// one by one (the baseline, as before they ran concurrently) and with
// GOMAXPROCS workers, in the same run; it reports CPU seconds per op too.
func BenchmarkLaterAnalyses(b *testing.B) {
	n := 300
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		n = v
	}
	dir := b.TempDir()
	o := sample.DefaultOptions()
	o.Questions = n
	o.Criteria = true
	if _, err := sample.Write(dir, o); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	dbPath := filepath.Join(b.TempDir(), "study.duckdb")
	ires, err := ingest.Ingest(ctx, dir, ingest.Options{DB: dbPath})
	if err != nil {
		b.Fatal(err)
	}
	db, err := readback.Open(dbPath)
	if err != nil {
		b.Fatal(err)
	}
	s, _, err := db.Load(ctx, ires.Config)
	db.Close()
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				c0 := processCPU()
				res := &Result{Report: &report.Report{}}
				jobs, _ := laterAnalyses(s, ires.Config)
				if err := runJobs(ctx, res, jobs, w); err != nil {
					b.Fatal(err)
				}
				cpu += processCPU() - c0
			}
			b.ReportMetric(cpu.Seconds()/float64(b.N), "CPU-s/op")
		})
	}
}

// processCPU is the process's user + system CPU time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
