package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// ingestBothWays ingests dir with the grading workbooks read ahead and
// without, and returns the databases' human grades
// (empty when the study has problems) and both results' errors.
func ingestBothWays(t *testing.T, dir string) (gradesWith, gradesWithout string, with, without error) {
	t.Helper()
	run := func(ahead bool) (string, error) {
		readAhead = ahead
		defer func() { readAhead = true }()
		db := filepath.Join(t.TempDir(), "s.duckdb")
		_, err := Ingest(context.Background(), dir, Options{DB: db})
		if err != nil {
			return "", err
		}
		return humanGrades(t, db), nil
	}
	gradesWith, with = run(true)
	gradesWithout, without = run(false)
	return
}

// TestReadAheadSameGrades: the messy study (three workbooks of two graded
// sheets and a notes sheet each) loads the same grades whether the next
// workbook is parsed ahead or not.
func TestReadAheadSameGrades(t *testing.T) {
	a, b, with, without := ingestBothWays(t, messyStudy(t))
	if with != nil || without != nil {
		t.Fatalf("errors: read ahead %v, not %v", with, without)
	}
	if a == "" || a != b {
		t.Errorf("human grades differ (or are empty):\nread ahead:\n%s\nnot:\n%s", a, b)
	}
}

// TestReadAheadSameProblems: problems in several workbooks (one is not a
// workbook at all, one lacks a score, one has a score off the scale) are
// listed in the same order, with the same words, whether the workbooks are
// read ahead or not — the file order.
func TestReadAheadSameProblems(t *testing.T) {
	withMissing = true
	defer func() { withMissing = false }()
	dir := messyStudy(t) // bruno.xlsx lacks a score
	main := filepath.Join(dir, "grades", "humans", "main")
	write(t, dir, "grades/humans/main/0_broken.xlsx", "not a zip archive")
	b, err := os.ReadFile(filepath.Join(main, "bruno.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(main, "dora.xlsx"), b, 0o644); err != nil { // bruno's problem again, and his gradings twice
		t.Fatal(err)
	}
	_, _, with, without := ingestBothWays(t, dir)
	var pw, po *ProblemsError
	if !errors.As(with, &pw) || !errors.As(without, &po) {
		t.Fatalf("want problems both ways; got %v and %v", with, without)
	}
	if len(pw.Problems) < 3 {
		t.Fatalf("got %d problems, want at least 3 (three bad workbooks):\n%v", len(pw.Problems), with)
	}
	if with.Error() != without.Error() {
		t.Errorf("problems differ:\nread ahead:\n%v\nnot:\n%v", with, without)
	}
	if got := pw.Problems[0].Loc.File; got != "grades/humans/main/0_broken.xlsx" {
		t.Errorf("first problem in %s, want the first workbook, 0_broken.xlsx", got)
	}
}

// TestReadAheadCancelled: a run cancelled after any file (the workbooks
// included) returns ctx's error and leaves no parsing goroutine behind.
func TestReadAheadCancelled(t *testing.T) {
	dir := messyStudy(t)
	base := ourGoroutines()
	files := int64(0)
	if _, err := Validate(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	_, err := Ingest(context.Background(), dir, Options{Progress: func(done, total int64) { files++ }})
	if err != nil || files < 5 {
		t.Fatalf("dry run: %v, %d files", err, files)
	}
	for after := int64(1); after < files-1; after++ {
		ctx, cancel := context.WithCancel(context.Background())
		n := int64(0)
		_, err := Ingest(ctx, dir, Options{DB: filepath.Join(t.TempDir(), "s.duckdb"), Progress: func(done, total int64) {
			if n++; n == after {
				cancel()
			}
		}})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled after %d of %d files: got %v, want context.Canceled", after, files, err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(ourGoroutines()) > len(base) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := ourGoroutines(); len(g) > len(base) {
		t.Errorf("%d goroutines of euroexec or DuckDB's driver left, %d before:\n%s", len(g), len(base), strings.Join(g, "\n\n"))
	}
}

// ourGoroutines returns the stacks of the live goroutines that run code of
// euroexec or of DuckDB's Go driver, but for the calling test's own. A
// thread DuckDB started that has called back into Go (the Arrow scans)
// keeps a goroutine with no Go frame ("[syscall, locked to thread]" at
// runtime.goexit) until the thread ends; runtime.NumGoroutine counts it,
// so the test counted it as leaked.
func ourGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "ingest.TestReadAheadCancelled(") {
			continue
		}
		if strings.Contains(g, "github.com/euroexec/euroexec/") || strings.Contains(g, "github.com/duckdb/") {
			out = append(out, g)
		}
	}
	return out
}
