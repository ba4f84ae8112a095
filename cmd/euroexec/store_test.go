package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/outsafe"
	"github.com/euroexec/euroexec/sample"
	"github.com/euroexec/euroexec/store"
)

// writeStudy writes the files of s into a new temporary folder.
func writeStudy(t *testing.T, s shapeStudy) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "study")
	for rel, content := range s {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// sampleStudy copies the bundled sample study into a new temporary folder.
func sampleStudy(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "sample")
	if err := os.CopyFS(dir, sample.Sample()); err != nil {
		t.Fatal(err)
	}
	return dir
}

// checkSameTables checks that the report folders a and b hold the same CSV
// tables, byte for byte.
func checkSameTables(t *testing.T, a, b string) {
	t.Helper()
	names := func(dir string) []string {
		ents, err := os.ReadDir(filepath.Join(dir, "tables"))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range ents {
			out = append(out, e.Name())
		}
		return out
	}
	na, nb := names(a), names(b)
	if !slices.Equal(na, nb) {
		t.Fatalf("tables differ: %v against %v", na, nb)
	}
	if len(na) < 5 {
		t.Fatalf("only %d tables: %v", len(na), na)
	}
	for _, n := range na {
		x, _ := os.ReadFile(filepath.Join(a, "tables", n))
		y, _ := os.ReadFile(filepath.Join(b, "tables", n))
		if !bytes.Equal(x, y) {
			t.Errorf("tables/%s differs:\n%s\nagainst\n%s", n, x, y)
		}
	}
}

// TestRunStoreSameTables runs `run` on a study folder and `run --store` on
// a store exported from it (each partitioning) and on a store the study
// was appended to as a second run: every CSV table is the same, byte for
// byte — the bundled sample and three shapes of the shape matrix (humans
// and a judge; judge only with averaged runs; checklist only).
func TestRunStoreSameTables(t *testing.T) {
	both := []string{"m1", "m2"}
	all := []string{"Quality", "Clarity", "C1", "C2", "rank"}
	cases := []struct {
		name, partition string
		study           func(t *testing.T) string
	}{
		{"sample", "run,model", sampleStudy},
		{"full", "run", func(t *testing.T) string {
			s := newShape("", true, both...)
			s["grades/humans/main/alice.csv"] = humanSheet("alice", both, all...)
			s["grades/humans/main/bob.csv"] = humanSheet("bob", both, all...)
			s["grades/judges/gpt.jsonl"] = judgeFile("gpt")
			return writeStudy(t, s)
		}},
		{"judge only", "model", func(t *testing.T) string {
			s := newShape("", true, both...)
			s["grades/judges/gpt.jsonl"] = judgeFile("gpt")
			return writeStudy(t, s)
		}},
		{"hostile model names", "run,model", func(t *testing.T) string {
			return writeStudy(t, hostileModels(newShape("", true, both...), `../x=/é*?`, `a/b%2F'q`))
		}},
		{"checklist only", "run,model", func(t *testing.T) string {
			s := newShape("title = \"Shape\"\n", true, both...)
			s["grades/humans/main/alice.csv"] = humanSheet("alice", both, "C1", "C2")
			return writeStudy(t, s)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			study := c.study(t)
			dir := t.TempDir()
			folder, st, fromStore := filepath.Join(dir, "folder"), filepath.Join(dir, "store"), filepath.Join(dir, "fromstore")
			var stderr bytes.Buffer
			if _, err := runStudy(context.Background(), io.Discard, &stderr, study, runOptions{out: folder, quiet: true, now: fixedNow}); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			code, _, se, err := cli(context.Background(), "export", study, "--parquet", st, "--partition-by", c.partition, "--run", "r1")
			checkExit(t, err, code, exitOK, se)
			if _, err := runStudy(context.Background(), io.Discard, io.Discard, "", runOptions{out: fromStore, quiet: true, now: fixedNow, storeDir: st}); err != nil {
				t.Fatal(err)
			}
			checkSameTables(t, folder, fromStore)
			if !strings.Contains(c.partition, "run") {
				return
			}
			// The same study appended as a second run, under a hostile name.
			code, _, se, err = cli(context.Background(), "append", st, study, "--run", "../x/=\n")
			checkExit(t, err, code, exitOK, se)
			second := filepath.Join(dir, "second")
			if _, err := runStudy(context.Background(), io.Discard, io.Discard, "", runOptions{out: second, quiet: true, now: fixedNow, storeDir: st, storeRun: "../x/=\n"}); err != nil {
				t.Fatal(err)
			}
			checkSameTables(t, folder, second)
		})
	}
}

// hostileModels renames the models m1 and m2 of a judge-only shape s
// (JSON string contents, written into the JSONL files' model fields).
func hostileModels(s shapeStudy, m1, m2 string) shapeStudy {
	s["grades/judges/gpt.jsonl"] = judgeFile("gpt")
	for k, v := range s {
		if strings.HasSuffix(k, ".jsonl") {
			v = strings.ReplaceAll(v, `"model":"m1"`, `"model":"`+m1+`"`)
			s[k] = strings.ReplaceAll(v, `"model":"m2"`, `"model":"`+m2+`"`)
		}
	}
	return s
}

// TestLongModelName checks that a model name too long for a partition
// folder is refused by --partition-by model, naming it, and stored under
// --partition-by run; and that two models differing only in case are
// refused by --partition-by model.
func TestLongModelName(t *testing.T) {
	long := strings.Repeat("m", 300)
	study := writeStudy(t, hostileModels(newShape("", true, "m1", "m2"), long, "m2"))
	dir := t.TempDir()
	code, _, se, err := cli(context.Background(), "export", study, "--parquet", filepath.Join(dir, "a"), "--partition-by", "run,model")
	checkExit(t, err, code, exitProblems, se, "model \"mmmm", "300 bytes once escaped for a folder name; expected at most 240")
	if _, err := os.Stat(filepath.Join(dir, "a")); err == nil {
		t.Error("a store was written")
	}
	code, _, se, err = cli(context.Background(), "export", study, "--parquet", filepath.Join(dir, "b"), "--partition-by", "run")
	checkExit(t, err, code, exitOK, se)
	// Models differing only in case would share a folder on macOS.
	cased := writeStudy(t, hostileModels(newShape("", true, "m1", "m2"), "GPT-x", "gpt-X"))
	code, _, se, err = cli(context.Background(), "export", cased, "--parquet", filepath.Join(dir, "c"), "--partition-by", "model")
	checkExit(t, err, code, exitProblems, se, `models "GPT-x" and "gpt-X" differ only in letter case`)
}

// TestAppend checks append's rules on the tiny study: existing files stay
// byte-identical, hostile run names are one escaped folder each, a run name
// the store holds is refused, a store being appended to (its lock held)
// refuses a second append, and a store partitioned by model only refuses
// any.
func TestAppend(t *testing.T) {
	study := tinyStudy(t)
	dir := t.TempDir()
	st := filepath.Join(dir, "store")
	code, _, se, err := cli(context.Background(), "export", study, "--parquet", st, "--partition-by", "run,model", "--run", "first")
	checkExit(t, err, code, exitOK, se)
	long := strings.Repeat("é", 200)
	names := []string{"../x", "a/b", "=", "line\nbreak", "..", ".", `q"'*?[`, strings.Repeat("n", 240)}
	for _, name := range names {
		before := hashes(t, st)
		code, _, se, err := cli(context.Background(), "append", st, study, "--run", name)
		checkExit(t, err, code, exitOK, se)
		after := hashes(t, st)
		for p, h := range before {
			if after[p] != h {
				t.Errorf("append %q changed %s", name, p)
			}
		}
		seg := store.RunSegment(name)
		if strings.ContainsAny(seg, "/\n") {
			t.Errorf("run %q: folder %q", name, seg)
		}
		var added int
		for p := range after {
			if _, ok := before[p]; !ok {
				added++
				if !strings.Contains(p, seg) {
					t.Errorf("append %q added %s, outside its partition %s", name, p, seg)
				}
				if rel, err := filepath.Rel(st, filepath.Join(st, p)); err != nil || strings.HasPrefix(rel, "..") {
					t.Errorf("append %q wrote %s outside the store", name, p)
				}
			}
		}
		if added == 0 {
			t.Errorf("append %q added no file", name)
		}
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
	runs, err := store.Runs(st)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != len(names)+1 {
		t.Errorf("%d runs, want %d", len(runs), len(names)+1)
	}
	for _, c := range []struct {
		name string
		args []string
		msg  string
	}{
		{"run name present", []string{"append", st, study, "--run", "a/b"}, `it already holds a run "a/b"; choose another --run name`},
		{"run name too long", []string{"append", st, study, "--run", long}, "bytes once escaped"},
		{"no run name", []string{"append", st, study}, "--run NAME is required"},
		{"not a store", []string{"append", study, study, "--run", "x"}, "not a Parquet store"},
		{"run of several without --run", []string{"run", "--store", st, "-o", filepath.Join(dir, "r")}, "choose one with --run NAME"},
		{"unknown run", []string{"run", "--store", st, "--run", "nope", "-o", filepath.Join(dir, "r")}, `no run "nope"`},
		{"export of a file", []string{"export", filepath.Join(st, store.ManifestName), "--parquet", filepath.Join(dir, "q"), "--partition-by", "run"}, "not a folder; expected a study folder"},
		{"--run without --partition-by", []string{"export", study, "--parquet", filepath.Join(dir, "q"), "--run", "x"}, "it needs --partition-by"},
		{"run with a study and --store", []string{"run", study, "--store", st}, "not both"},
		{"bad partition key", []string{"export", study, "--parquet", filepath.Join(dir, "p"), "--partition-by", "run,grader"}, `"grader" is not a partition key`},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := hashes(t, st)
			code, _, se, err := cli(context.Background(), c.args...)
			if code == exitOK {
				t.Fatalf("%v succeeded", c.args)
			}
			checkExit(t, err, code, code, se, c.msg)
			if after := hashes(t, st); !mapsEqual(before, after) {
				t.Errorf("the store changed")
			}
		})
	}
	t.Run("locked", func(t *testing.T) {
		unlock, err := outsafe.Lock(st)
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
		before := hashes(t, st)
		_, err = store.Append(context.Background(), st, study, store.Options{Run: "concurrent"})
		var le *outsafe.LockedError
		if !errors.As(err, &le) {
			t.Fatalf("append while locked: %v, want a LockedError", err)
		}
		if after := hashes(t, st); !mapsEqual(before, after) {
			t.Errorf("the store changed")
		}
	})
	t.Run("model only", func(t *testing.T) {
		mo := filepath.Join(dir, "bymodel")
		code, _, se, err := cli(context.Background(), "export", study, "--parquet", mo, "--partition-by", "model")
		checkExit(t, err, code, exitOK, se)
		code, _, se, err = cli(context.Background(), "append", mo, study, "--run", "x")
		checkExit(t, err, code, code, se, "not by run")
		if code == exitOK {
			t.Error("append to a store by model only succeeded")
		}
	})
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestKilledAppend kills a real append (SIGKILL) while it writes its
// partitions: the store keeps every file byte-identical and gains none, a
// run of the store still reads it, and the next append removes what the
// killed one left and adds the run.
func TestKilledAppend(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := binary(t)
	big := syntheticStudy(t, 3000)
	small := tinyStudy(t)
	dir := t.TempDir()
	st := filepath.Join(dir, "store")
	code, _, se, err := cli(context.Background(), "export", small, "--parquet", st, "--partition-by", "run,model", "--run", "first")
	checkExit(t, err, code, exitOK, se)
	before := hashes(t, st)
	tmp := killWhen(t, nil, filepath.Join(dir, ".store.euroexec-*.tmp", "checklist_items"), bin, "append", st, big, "--run", "big")
	if after := hashes(t, st); !mapsEqual(before, after) {
		t.Errorf("the killed append changed the store: %d files before, %d after", len(before), len(after))
	}
	code, _, se, err = cli(context.Background(), "run", "--store", st, "-q", "-o", filepath.Join(t.TempDir(), "report"))
	checkExit(t, err, code, exitOK, se)
	code, _, se, err = cli(context.Background(), "append", st, small, "--run", "big")
	checkExit(t, err, code, exitOK, se, "note: removed "+filepath.Dir(tmp))
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
	if runs, _ := store.Runs(st); len(runs) != 2 {
		t.Errorf("%d runs after the second append, want 2", len(runs))
	}
}

// TestCompareStore compares two runs of a store and the two study folders
// they were made from: every table but the settings (which name the runs'
// paths) is the same, byte for byte.
func TestCompareStore(t *testing.T) {
	_, _, round2 := fixture(t)
	sample := sampleStudy(t)
	dir := t.TempDir()
	st := filepath.Join(dir, "store")
	code, _, se, err := cli(context.Background(), "export", sample, "--parquet", st, "--partition-by", "run,model", "--run", "sample")
	checkExit(t, err, code, exitOK, se)
	code, _, se, err = cli(context.Background(), "append", st, round2, "--run", "round2")
	checkExit(t, err, code, exitOK, se)
	folders, stored := filepath.Join(dir, "folders"), filepath.Join(dir, "stored")
	opt := compareOptions{out: folders, bootstrap: 200, seed: -1, quiet: true, now: fixedNow}
	if err := runCompare(context.Background(), io.Discard, io.Discard, []string{sample, round2}, opt); err != nil {
		t.Fatal(err)
	}
	opt.out, opt.store = stored, st
	if err := runCompare(context.Background(), io.Discard, io.Discard, []string{"sample", "round2"}, opt); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(folders, "tables", "settings.csv"))
	os.Remove(filepath.Join(stored, "tables", "settings.csv"))
	checkSameTables(t, folders, stored)
	code, _, se, err = cli(context.Background(), "compare", "--store", st, "sample", "nope", "-o", filepath.Join(dir, "x"))
	checkExit(t, err, code, code, se, `no run "nope"`)
	if code == exitOK {
		t.Error("compare of an unknown run succeeded")
	}
}
