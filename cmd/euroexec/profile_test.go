package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The hidden --cpuprofile and --memprofile flags of every command write
// pprof profiles (gzip-compressed protocol buffers) of the command.
func TestProfileFlags(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"version", "--cpuprofile", cpu, "--memprofile", mem}); err != nil {
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
	// the flags are hidden from --help
	stdout.Reset()
	if err := run(context.Background(), &stdout, &stderr, []string{"run", "--help"}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(stdout.Bytes(), []byte("profile")) {
		t.Errorf("run --help mentions the hidden profile flags:\n%s", stdout.String())
	}
	// a profile that cannot be written is an error
	err := run(context.Background(), &stdout, &stderr, []string{"version", "--cpuprofile", filepath.Join(dir, "missing", "cpu.prof")})
	if err == nil {
		t.Error("cpu profile into a missing folder: no error")
	}
}
