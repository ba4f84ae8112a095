package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// copySample copies the bundled sample study to a temporary folder.
func copySample(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "sample", "study")
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestTerminalEscapes checks that user text reaching the terminal (a file
// name in a warning, in a problem) has its escape sequences escaped: the
// raw ESC and BEL bytes, which could retitle the window or write the
// clipboard, never reach stdout or stderr.
func TestTerminalEscapes(t *testing.T) {
	const evil = "notes\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07"
	check := func(t *testing.T, out, errb *bytes.Buffer) {
		t.Helper()
		all := out.String() + errb.String()
		if strings.ContainsAny(all, "\x1b\x07") {
			t.Fatalf("raw escape sequence printed:\n%q", all)
		}
		if !strings.Contains(all, `notes\x1b]0;pwned\x07`) {
			t.Fatalf("the file is not named (escaped) in the output:\n%s", all)
		}
	}
	t.Run("warning", func(t *testing.T) {
		dir := copySample(t)
		if err := os.WriteFile(filepath.Join(dir, evil+".xls"), []byte("x"), 0o644); err != nil {
			t.Skip("file system refuses the name:", err)
		}
		var out, errb bytes.Buffer
		if err := run(context.Background(), &out, &errb, []string{"validate", dir}); err != nil {
			t.Fatalf("validate: %v\n%s", err, errb.String())
		}
		check(t, &out, &errb)
	})
	t.Run("problem", func(t *testing.T) {
		dir := copySample(t)
		if err := syscall.Mkfifo(filepath.Join(dir, evil+".csv"), 0o600); err != nil {
			t.Skip("no named pipes:", err)
		}
		var out, errb bytes.Buffer
		if err := run(context.Background(), &out, &errb, []string{"validate", dir}); err == nil {
			t.Fatal("validate accepted a named pipe")
		}
		check(t, &out, &errb)
	})
}

// TestValidateAndRunAgree checks that hostile studies that validate
// rejects are rejected by run with the same problems, before any output is
// written.
func TestValidateAndRunAgree(t *testing.T) {
	cases := map[string]func(t *testing.T, dir string){
		"named pipe": func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "grades", "humans", "main", "pipe.csv"), 0o600); err != nil {
				t.Skip("no named pipes:", err)
			}
		},
		"bad setting": func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "study.toml"), []byte("[analysis]\nextreme_evaluators = 9223372036854775807\n"), 0o644)
		},
		"main_round typo": func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "study.toml"), []byte("main_round = \"mian\"\n"), 0o644)
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			dir := copySample(t)
			setup(t, dir)
			var vo, ve bytes.Buffer
			verr := run(context.Background(), &vo, &ve, []string{"validate", dir})
			out := filepath.Join(t.TempDir(), "report")
			var ro, re bytes.Buffer
			rerr := run(context.Background(), &ro, &re, []string{"run", "-q", dir, "-o", out})
			if verr == nil || rerr == nil {
				t.Fatalf("validate: %v, run: %v; want both to fail", verr, rerr)
			}
			if v, r := ve.String()+verr.Error(), re.String()+rerr.Error(); v != r {
				t.Errorf("validate said\n%s\nrun said\n%s", v, r)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("run wrote %s", out)
			}
		})
	}
}

// TestExtremeSettingsRun runs the sample with settings at the edges of what
// study.toml accepts (the red-team run found panics and out-of-memory
// failures with extreme values): the run must finish.
func TestExtremeSettingsRun(t *testing.T) {
	dir := copySample(t)
	toml := "main_round = \"main\"\n[columns]\n\"Loc.\" = \"Localization\"\n" +
		"[rubric]\nmin = -95\nmax = 5\n[solve]\nrubric_threshold = -95\nchecklist_threshold = 1\n" +
		"[analysis]\nextreme_evaluators = 100000\nbootstrap = 0\nresamples = 0\n" +
		"[criteria]\nhard_share = 4.9e-324\nparity_margin = 1\n"
	if err := os.WriteFile(filepath.Join(dir, "study.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := run(context.Background(), &out, &errb, []string{"run", "-q", dir, "-o", filepath.Join(t.TempDir(), "report")}); err != nil {
		t.Fatalf("run: %v\n%s", err, errb.String())
	}
}
