package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The hidden --cpuprofile and --memprofile flags of every command write
// pprof profiles (gzip-compressed protocol buffers) of the command, and
// --trace an execution trace.
func TestProfileFlags(t *testing.T) {
	dir := t.TempDir()
	cpu, mem, tr := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof"), filepath.Join(dir, "run.trace")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"version", "--cpuprofile", cpu, "--memprofile", mem, "--trace", tr}); err != nil {
		t.Fatalf("version with profiles: %v\n%s", err, stderr.String())
	}
	for _, f := range []string{cpu, mem} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
			t.Errorf("%s: %d bytes, not a gzip-compressed profile", filepath.Base(f), len(b))
		}
	}
	if b, err := os.ReadFile(tr); err != nil {
		t.Fatal(err)
	} else if !bytes.HasPrefix(b, []byte("go 1.")) || !bytes.Contains(b[:min(len(b), 16)], []byte(" trace")) {
		t.Errorf("run.trace: %d bytes starting %q, not an execution trace", len(b), b[:min(len(b), 16)])
	}
	// the flags are hidden from --help
	stdout.Reset()
	if err := run(context.Background(), &stdout, &stderr, []string{"run", "--help"}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(stdout.Bytes(), []byte("profile")) || bytes.Contains(stdout.Bytes(), []byte("trace")) {
		t.Errorf("run --help mentions the hidden profile flags:\n%s", stdout.String())
	}
	// a profile that cannot be written is an error
	err := run(context.Background(), &stdout, &stderr, []string{"version", "--cpuprofile", filepath.Join(dir, "missing", "cpu.prof")})
	if err == nil {
		t.Error("cpu profile into a missing folder: no error")
	}
	if err := run(context.Background(), &stdout, &stderr, []string{"version", "--trace", filepath.Join(dir, "missing", "run.trace")}); err == nil {
		t.Error("trace into a missing folder: no error")
	}
}
