package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/euroexec/euroexec/sample"
)

// TestMain removes the binary and the synthetic studies that the tests and
// benchmarks of this file made (shared across them, so not in t.TempDir).
func TestMain(m *testing.M) {
	code := m.Run()
	cleanupCompareFixture()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	studies.Range(func(_, dir any) bool {
		os.RemoveAll(dir.(string))
		return true
	})
	os.Exit(code)
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// binary builds euroexec (with the duckdb_arrow tag) once per test process.
func binary(tb testing.TB) string {
	tb.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "euroexec-bin-*")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "euroexec")
		out, err := exec.Command("go", "build", "-tags", "duckdb_arrow", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		tb.Fatal(binErr)
	}
	return binPath
}

// syntheticStudy writes a synthetic study of n questions (once per n and
// test process) and returns its folder.
var studies sync.Map

func syntheticStudy(tb testing.TB, n int) string {
	tb.Helper()
	if p, ok := studies.Load(n); ok {
		return p.(string)
	}
	dir, err := os.MkdirTemp("", fmt.Sprintf("euroexec-study%d-*", n))
	if err != nil {
		tb.Fatal(err)
	}
	opt := sample.DefaultOptions()
	opt.Questions = n
	if _, err := sample.Write(dir, opt); err != nil {
		tb.Fatal(err)
	}
	studies.Store(n, dir)
	return dir
}

// interruptAt starts `euroexec run study -o out`, waits until the stage
// line "stage…" appears on stderr and then delay, sends SIGINT and returns
// the time from the signal to the process's exit, its exit status, the
// last stage line seen before the signal, and stderr.
func interruptAt(tb testing.TB, bin, study, out, stage string, delay time.Duration) (time.Duration, int, string, string) {
	tb.Helper()
	cmd := exec.Command(bin, "run", study, "-o", out)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	lines := make(chan string, 1024)
	var all strings.Builder
	var mu sync.Mutex
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			all.WriteString(sc.Text() + "\n")
			mu.Unlock()
			lines <- sc.Text()
		}
		close(lines)
	}()
	last := ""
	timeout := time.After(10 * time.Minute)
wait:
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				break wait // exited before the stage
			}
			if strings.HasSuffix(l, "…") {
				last = strings.TrimSuffix(l, "…")
			}
			if last == stage {
				break wait
			}
		case <-timeout:
			cmd.Process.Kill()
			tb.Fatalf("stage %q not reached in 10 minutes", stage)
		}
	}
	time.Sleep(delay)
	// The stage the process is in when the signal goes: drain what it printed.
	for drained := false; !drained; {
		select {
		case l, ok := <-lines:
			if ok && strings.HasSuffix(l, "…") {
				last = strings.TrimSuffix(l, "…")
			}
			drained = !ok
		default:
			drained = true
		}
	}
	sent := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		tb.Logf("signal: %v (the run had ended)", err)
	}
	for range lines {
	}
	err = cmd.Wait()
	took := time.Since(sent)
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		tb.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return took, code, last, all.String()
}

// TestRealSIGINT builds the binary, starts it on a 3,000-question study,
// sends SIGINT once the analysis has started, and checks exit status 130,
// no temporary folder or lock left and the previous report byte for byte
// as it was.
func TestRealSIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and a 3,000-question study")
	}
	bin := binary(t)
	study := syntheticStudy(t, 3000)
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	if b, err := exec.Command(bin, "run", "-q", tinyStudy(t), "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("first run: %v\n%s", err, b)
	}
	before := hashes(t, out)
	took, code, stage, stderr := interruptAt(t, bin, study, out, "analyse", 0)
	t.Logf("SIGINT during %q: exit %d after %v", stage, code, took)
	if code != 130 {
		t.Errorf("exit status %d, want 130\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "euroexec: interrupted (SIGINT, Ctrl-C)") || !strings.Contains(stderr, "previous report") {
		t.Errorf("stderr does not say the run was interrupted:\n%s", stderr)
	}
	checkSame(t, "previous report", before, hashes(t, out))
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
}

// BenchmarkInterrupt measures the time from SIGINT to the process's exit at
// each stage of a run on a 5,000-question study (target < 1 s). Each
// sub-benchmark starts a run, waits for its stage (and half a second into
// it), sends SIGINT and reports seconds-to-exit; the exit status must be 130.
// The 5,000-question study is written once per process. The writing stages
// are reached through a copy of it with 100 bootstrap replicates and
// resamples (the writers' work does not depend on them; with the default
// 2,000 the run takes minutes to get there).
func BenchmarkInterrupt(b *testing.B) {
	bin := binary(b)
	full := syntheticStudy(b, 5000)
	fast := filepath.Join(b.TempDir(), "fast")
	if err := os.CopyFS(fast, os.DirFS(full)); err != nil {
		b.Fatal(err)
	}
	toml, err := os.ReadFile(filepath.Join(full, "study.toml"))
	if err != nil {
		b.Fatal(err)
	}
	toml = append(toml, "\n[analysis]\nbootstrap = 100\nresamples = 100\n"...)
	if err := os.WriteFile(filepath.Join(fast, "study.toml"), toml, 0o644); err != nil {
		b.Fatal(err)
	}
	for _, stage := range []string{"load", "analyse", "analyse beyond the paper", "write tables", "write workbook", "write site"} {
		study := full
		if strings.HasPrefix(stage, "write") {
			study = fast
		}
		b.Run(strings.ReplaceAll(stage, " ", "_"), func(b *testing.B) {
			var worst time.Duration
			for range b.N {
				dir := b.TempDir()
				took, code, at, stderr := interruptAt(b, bin, study, filepath.Join(dir, "report"), stage, 500*time.Millisecond)
				if code != 130 {
					b.Fatalf("exit status %d, want 130 (signal during %q)\n%s", code, at, stderr)
				}
				if at != stage {
					b.Logf("the signal landed in stage %q", at)
				}
				if l := leftovers(b, dir); len(l) > 0 {
					b.Errorf("left behind: %v", l)
				}
				worst = max(worst, took)
			}
			b.ReportMetric(worst.Seconds(), "s-to-exit")
		})
	}
}
