package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/euroexec/euroexec/outsafe"
)

// tinyStudy copies the ingest package's smallest valid study into a new
// temporary folder and returns its path.
func tinyStudy(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "study")
	if err := os.CopyFS(dst, os.DirFS(filepath.Join("..", "..", "ingest", "testdata", "base"))); err != nil {
		t.Fatal(err)
	}
	return dst
}

// hashes returns the sha256 of every file under dir, by relative path.
func hashes(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		sum := sha256.Sum256(b)
		out[rel] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkSame fails when the files under dir differ from before (added,
// removed or changed).
func checkSame(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, h := range before {
		if after[p] != h {
			t.Errorf("%s: %s changed or vanished", what, p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s: %s appeared", what, p)
		}
	}
	if len(before) == 0 {
		t.Errorf("%s: no files to compare", what)
	}
}

// cli runs the command line and returns the error, its exit status, stdout
// and stderr.
func cli(ctx context.Context, args ...string) (int, string, string, error) {
	var so, se bytes.Buffer
	err := run(ctx, &so, &se, args)
	return exitCode(ctx, err), so.String(), se.String(), err
}

// checkExit fails unless the exit status is want and the error (or stderr)
// holds every text.
func checkExit(t *testing.T, err error, code, want int, stderr string, texts ...string) {
	t.Helper()
	if code != want {
		t.Errorf("exit status %d (error %v), want %d", code, err, want)
	}
	msg := stderr
	if err != nil {
		msg += err.Error()
	}
	for _, s := range texts {
		if !strings.Contains(msg, s) {
			t.Errorf("message %q lacks %q", msg, s)
		}
	}
}

// leftovers lists the temporary folders and lock files euroexec made in dir.
func leftovers(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".euroexec-") || strings.HasSuffix(e.Name(), ".euroexec.lock") {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestRunRefusesUserFolder(t *testing.T) {
	study := tinyStudy(t)
	sum := hashes(t, study)
	dir := t.TempDir()
	out := filepath.Join(dir, "important")
	os.Mkdir(out, 0o755)
	thesis := filepath.Join(out, "thesis.docx")
	os.WriteFile(thesis, []byte("four years of work"), 0o644)
	mine := hashes(t, out)

	code, _, se, err := cli(context.Background(), "run", "-q", study, "-o", out)
	checkExit(t, err, code, exitRefused, se, "refusing to write", "thesis.docx", "--force", "another output folder")
	checkSame(t, "user folder after a refused run", mine, hashes(t, out))
	checkSame(t, "study after a refused run", sum, hashes(t, study))
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}

	// --force is the way through; the folder is then a marked report.
	code, _, se, err = cli(context.Background(), "run", "-q", "--force", study, "-o", out)
	checkExit(t, err, code, exitOK, se)
	if _, err := os.Stat(thesis); err == nil {
		t.Error("--force kept the old content")
	}
	if _, err := os.Stat(filepath.Join(out, outsafe.ReportMarker)); err != nil {
		t.Errorf("no marker in the report: %v", err)
	}
	// A marked report is replaced without --force.
	code, _, se, err = cli(context.Background(), "run", "-q", study, "-o", out)
	checkExit(t, err, code, exitOK, se)
	checkSame(t, "study after runs", sum, hashes(t, study))
}

func TestRunRefusesStudyFolder(t *testing.T) {
	study := tinyStudy(t)
	sum := hashes(t, study)
	parent := filepath.Dir(study)
	for _, c := range []struct {
		name string
		out  string
		want string
	}{
		{"the study", study, "it is the study folder"},
		{"inside", filepath.Join(study, "report"), "inside the study folder"},
		{"containing", parent, "contains the study folder"},
	} {
		for _, force := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/force=%v", c.name, force), func(t *testing.T) {
				args := []string{"run", "-q", study, "-o", c.out}
				if force {
					args = append(args, "--force")
				}
				code, _, se, err := cli(context.Background(), args...)
				checkExit(t, err, code, exitRefused, se, c.want)
				checkSame(t, "study", sum, hashes(t, study))
			})
		}
	}
	t.Run("dot in the working folder", func(t *testing.T) {
		work := t.TempDir()
		os.WriteFile(filepath.Join(work, "notes.txt"), []byte("mine"), 0o644)
		t.Chdir(work)
		code, _, se, err := cli(context.Background(), "run", "-q", study, "-o", ".")
		checkExit(t, err, code, exitRefused, se, "notes.txt")
		if b, _ := os.ReadFile(filepath.Join(work, "notes.txt")); string(b) != "mine" {
			t.Error("notes.txt changed")
		}
	})
}

func TestIngestDBGuard(t *testing.T) {
	study := tinyStudy(t)
	sum := hashes(t, study)
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	os.WriteFile(notes, []byte("not a database"), 0o644)
	db := filepath.Join(dir, "study.duckdb")
	for _, c := range []struct {
		name string
		args []string
		want int
		text string
	}{
		{"an input of the study", []string{"--db", filepath.Join(study, "questions.csv")}, exitRefused, "inside the study folder"},
		{"an input, forced", []string{"--db", filepath.Join(study, "questions.csv"), "--force"}, exitRefused, "inside the study folder"},
		{"a new file in the study", []string{"--db", filepath.Join(study, "x.duckdb")}, exitRefused, "inside the study folder"},
		{"another file", []string{"--db", notes}, exitRefused, "not a DuckDB database"},
		{"a new database", []string{"--db", db}, exitOK, ""},
		{"a DuckDB database", []string{"--db", db}, exitOK, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, se, err := cli(context.Background(), append([]string{"ingest", study}, c.args...)...)
			checkExit(t, err, code, c.want, se, c.text)
			checkSame(t, "study", sum, hashes(t, study))
		})
	}
	if b, _ := os.ReadFile(notes); string(b) != "not a database" {
		t.Error("notes.txt was overwritten")
	}
	if ok, err := outsafe.IsDuckDB(db); !ok {
		t.Errorf("%s is not a DuckDB file (%v)", db, err)
	}
	code, _, se, err := cli(context.Background(), "ingest", study, "--db", notes, "--force")
	checkExit(t, err, code, exitOK, se)
	if ok, _ := outsafe.IsDuckDB(notes); !ok {
		t.Error("--force did not replace notes.txt with a database")
	}
	// The default database goes to the working folder, never into the study.
	t.Chdir(study)
	code, _, se, err = cli(context.Background(), "ingest", ".")
	checkExit(t, err, code, exitRefused, se, "inside the study folder")
	checkSame(t, "study", sum, hashes(t, study))
}

// TestIngestDBLock checks that a second ingest into a database another one is
// writing fails at once (exit 3); TestKilledIngestCleaned checks that a
// killed ingest's temporary file is removed by the next one.
func TestIngestDBLock(t *testing.T) {
	study := tinyStudy(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "study.duckdb")
	unlock, err := outsafe.Lock(db)
	if err != nil {
		t.Fatal(err)
	}
	code, _, se, err := cli(context.Background(), "ingest", study, "--db", db)
	checkExit(t, err, code, exitRefused, se, "being written by another euroexec run")
	unlock()
	if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the locked-out ingest wrote %s (%v)", db, err)
	}

}

func TestSampleGuard(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user")
	os.Mkdir(user, 0o755)
	os.WriteFile(filepath.Join(user, "thesis.docx"), []byte("mine"), 0o644)
	code, _, se, err := cli(context.Background(), "sample", "-o", user, "--questions", "3")
	checkExit(t, err, code, exitRefused, se, "thesis.docx", "--force")
	if b, _ := os.ReadFile(filepath.Join(user, "thesis.docx")); string(b) != "mine" {
		t.Error("thesis.docx changed")
	}

	// A sample with criteria, then one without into the same folder: no
	// file of the first is left.
	s := filepath.Join(dir, "s")
	code, _, se, err = cli(context.Background(), "sample", "-o", s, "--questions", "3", "--criteria")
	checkExit(t, err, code, exitOK, se)
	first := hashes(t, s)
	code, _, se, err = cli(context.Background(), "sample", "-o", s, "--questions", "3")
	checkExit(t, err, code, exitOK, se)
	second := hashes(t, s)
	crit := 0
	for p := range first {
		if strings.Contains(p, "criteri") {
			crit++
			if _, ok := second[p]; ok {
				t.Errorf("%s of the previous sample was left behind", p)
			}
		}
	}
	if crit == 0 {
		t.Fatalf("the first sample wrote no criteria files: %v", first)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
	checkModes(t, s)
}

func TestExitCodes(t *testing.T) {
	study := tinyStudy(t)
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "questions.csv"), []byte("question_id,domain\nq1,F\n"), 0o644)
	interruptedCtx, cancel := context.WithCancelCause(context.Background())
	cancel(&interrupted{sig: syscall.SIGINT})
	termCtx, cancel2 := context.WithCancelCause(context.Background())
	cancel2(&interrupted{sig: syscall.SIGTERM})
	for _, c := range []struct {
		name string
		ctx  context.Context
		args []string
		want int
	}{
		{"version", context.Background(), []string{"version"}, 0},
		{"unknown command", context.Background(), []string{"frobnicate"}, 2},
		{"unknown flag", context.Background(), []string{"run", "--frob"}, 2},
		{"bad flag value", context.Background(), []string{"sample", "-o", "x", "--questions", "many"}, 2},
		{"missing argument", context.Background(), []string{"validate"}, 2},
		{"too many arguments", context.Background(), []string{"validate", "a", "b"}, 2},
		{"sample without -o", context.Background(), []string{"sample"}, 2},
		{"study problems", context.Background(), []string{"validate", bad}, 1},
		{"no such study", context.Background(), []string{"validate", filepath.Join(bad, "nope")}, 1},
		{"output refused", context.Background(), []string{"run", "-q", study, "-o", study}, 3},
		{"SIGINT", interruptedCtx, []string{"run", "-q", study, "-o", filepath.Join(t.TempDir(), "r")}, 130},
		{"SIGTERM", termCtx, []string{"run", "-q", study, "-o", filepath.Join(t.TempDir(), "r")}, 143},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, se, err := cli(c.ctx, c.args...)
			checkExit(t, err, code, c.want, se)
		})
	}
}

func TestHelpDocumentsExitCodes(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"run", "--help"}} {
		_, so, _, _ := cli(context.Background(), args...)
		for _, w := range []string{"0 success", "1 problems", "2 usage", "3 output refused", "130 interrupted"} {
			if !strings.Contains(so, w) {
				t.Errorf("%v: help lacks %q", args, w)
			}
		}
	}
}

// tripCtx is a context that cancels itself at the n-th call of Err once
// armed: it lets a test cancel a run deep inside a loop that checks it.
type tripCtx struct {
	context.Context
	cancel context.CancelFunc
	left   atomic.Int64
	armed  atomic.Bool
	trips  atomic.Int64
}

func newTripCtx() *tripCtx {
	ctx, cancel := context.WithCancel(context.Background())
	return &tripCtx{Context: ctx, cancel: cancel}
}

func (c *tripCtx) arm(n int64) {
	c.left.Store(n)
	c.armed.Store(true)
}

func (c *tripCtx) Err() error {
	if c.armed.Load() && c.left.Add(-1) < 0 && c.Context.Err() == nil {
		c.trips.Add(1)
		c.cancel()
	}
	return c.Context.Err()
}

// TestRunCancelled cancels runs at several depths and checks that the
// previous report is byte for byte the same, and that no temporary folder
// or lock is left.
func TestRunCancelled(t *testing.T) {
	study := tinyStudy(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	var so, se bytes.Buffer
	if _, err := runStudy(context.Background(), &so, &se, study, runOptions{out: out, quiet: true, now: fixedNow}); err != nil {
		t.Fatalf("first run: %v\n%s", err, se.String())
	}
	before := hashes(t, out)
	for _, c := range []struct {
		name  string
		stage string // arm at the start of this stage
		after int64  // cancel at this many checks of the context later
	}{
		{"before loading", "load", 0},
		{"mid-bootstrap (summary intervals)", "analyse: summary", 50},
		{"mid-resampling (Figure 3)", "analyse: significance", 20},
		{"mid-reliability bootstrap", "analyse beyond the paper", 100},
		{"writing tables", "write tables", 3},
		{"mid-workbook", "write workbook", 3},
		{"mid-site", "write site", 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := newTripCtx()
			seen := false
			o := runOptions{out: out, quiet: true, now: fixedNow, hook: func(s string) {
				if s == c.stage {
					seen = true
					ctx.arm(c.after)
				}
			}}
			_, err := runStudy(ctx, &so, &se, study, o)
			if !seen {
				t.Fatalf("stage %q never started", c.stage)
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want context.Canceled", err)
			}
			if ctx.trips.Load() == 0 {
				t.Error("the context was never cancelled")
			}
			checkSame(t, "previous report", before, hashes(t, out))
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("left behind: %v", l)
			}
		})
	}
}

func TestConcurrentRuns(t *testing.T) {
	study := tinyStudy(t)
	out := filepath.Join(t.TempDir(), "report")
	inside := make(chan struct{})
	release := make(chan struct{})
	var wg sync.WaitGroup
	var firstErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		var so, se bytes.Buffer
		var once sync.Once
		_, firstErr = runStudy(context.Background(), &so, &se, study, runOptions{out: out, quiet: true, now: fixedNow, hook: func(s string) {
			if s == "analyse" {
				once.Do(func() { close(inside); <-release })
			}
		}})
	}()
	<-inside
	code, _, se, err := cli(context.Background(), "run", "-q", study, "-o", out)
	close(release)
	wg.Wait()
	checkExit(t, err, code, exitRefused, se, "is being written by another euroexec run")
	if firstErr != nil {
		t.Fatalf("the first run failed: %v", firstErr)
	}
	if _, err := os.Stat(filepath.Join(out, "report.xlsx")); err != nil {
		t.Errorf("the first run wrote no report: %v", err)
	}
}

// checkModes fails unless every folder under dir has mode 0755 and every
// file 0644 (less the umask): nothing executable, readable by others.
func checkModes(t *testing.T, dir string) {
	t.Helper()
	mask := syscall.Umask(0)
	syscall.Umask(mask)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, _ := d.Info()
		want := os.FileMode(0o644) &^ os.FileMode(mask)
		if d.IsDir() {
			want = os.FileMode(0o755) &^ os.FileMode(mask)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode().Perm(), want)
		}
		return nil
	})
}

func TestRunPermissions(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	code, _, se, err := cli(context.Background(), "run", "-q", tinyStudy(t), "-o", out)
	checkExit(t, err, code, exitOK, se)
	checkModes(t, out)
}

func TestRunNoGradings(t *testing.T) {
	study := tinyStudy(t)
	// Grading sheets one level too high.
	for _, f := range []string{"alice.csv", "bob.csv"} {
		os.Rename(filepath.Join(study, "grades", "humans", "main", f), filepath.Join(study, "grades", f))
	}
	os.Remove(filepath.Join(study, "grades", "judges", "gpt.jsonl"))
	out := filepath.Join(t.TempDir(), "report")
	code, _, se, err := cli(context.Background(), "run", "-q", study, "-o", out)
	checkExit(t, err, code, exitProblems, se, "the study has no gradings at all", "grades/alice.csv")
	if _, err := os.Stat(out); err == nil {
		t.Error("a report was written from nothing")
	}
	code, so, se, err := cli(context.Background(), "validate", study)
	checkExit(t, err, code, exitProblems, se, "no gradings at all")
	if strings.Contains(so, "no problems") {
		t.Errorf("validate said %q", so)
	}
}

func TestRunAllJudgeScoresDropped(t *testing.T) {
	study := tinyStudy(t)
	p := filepath.Join(study, "grades", "judges", "gpt.jsonl")
	os.WriteFile(p, []byte(`{"evaluator":"gpt","question_id":"q1","model":"m1","scores":{"Domain":4.5,"Localization":4,"Reasoning":3,"Communication":5,"Actionability":4},"C1":"hit","C2":"hit","rank":1}
{"evaluator":"gpt","question_id":"q1","model":"m2","scores":{"Domain":2,"Localization":3,"Reasoning":2,"Communication":3,"Actionability":1},"C1":"miss","C2":"miss","rank":2}
`), 0o644)
	out := filepath.Join(t.TempDir(), "report")
	code, _, se, err := cli(context.Background(), "run", "-q", study, "-o", out)
	checkExit(t, err, code, exitProblems, se, "every one of the 10 rubric scores of the judges was dropped", "nested JSON?", "--allow-empty")
	// --allow-empty runs, and -q still prints the warnings.
	code, so, se, err := cli(context.Background(), "run", "-q", "--allow-empty", study, "-o", out)
	checkExit(t, err, code, exitOK, se, "warning: judge gpt: 10 of 10 rubric scores dropped")
	if so != "" {
		t.Errorf("-q printed %q on stdout", so)
	}
	// --no-warnings hides them.
	code, _, se, err = cli(context.Background(), "run", "-q", "--allow-empty", "--no-warnings", study, "-o", out)
	checkExit(t, err, code, exitOK, se)
	if strings.Contains(se, "warning:") {
		t.Errorf("--no-warnings printed %q", se)
	}
}

func TestSampleCancelled(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&interrupted{sig: syscall.SIGINT})
	code, _, se, err := cli(ctx, "sample", "-o", filepath.Join(dir, "s"), "--questions", "50")
	checkExit(t, err, code, exitInterrupted, se)
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("a cancelled sample left %d entries (%s, …)", len(ents), ents[0].Name())
	}
}
