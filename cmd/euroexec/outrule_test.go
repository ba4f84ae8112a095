package main

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"
	"golang.org/x/sys/unix"

	"github.com/euroexec/euroexec/outsafe"
)

// state is what a path holds, to tell afterwards that it is untouched:
// its type, device number, link target and content (a file's bytes or a
// folder's files' hashes).
type state struct {
	exists  bool
	mode    os.FileMode
	rdev    uint64
	link    string
	content string
}

func stateOf(t *testing.T, p string) state {
	t.Helper()
	fi, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		return state{}
	}
	if err != nil {
		t.Fatal(err)
	}
	s := state{exists: true, mode: fi.Mode().Type()}
	var st unix.Stat_t
	if unix.Lstat(p, &st) == nil {
		s.rdev = st.Rdev
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		s.link, _ = os.Readlink(p)
	case fi.Mode().IsRegular():
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		s.content = hex.EncodeToString(sum[:])
	case fi.IsDir():
		ents, err := os.ReadDir(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			sub := stateOf(t, filepath.Join(p, e.Name()))
			s.content += fmt.Sprintf("%s: %+v\n", e.Name(), sub)
		}
	}
	return s
}

// outTarget is a kind of thing an output path can name.
type outTarget struct {
	name string
	// make creates it at p (aux is a folder for what links point to);
	// marker is the command's marker file.
	make    func(t *testing.T, p, aux, marker string)
	special string // the refusal's words for a link or special file, refused whatever --force says
}

func outTargets(t *testing.T) []outTarget {
	link := func(to func(t *testing.T, p string)) func(t *testing.T, p, aux, marker string) {
		return func(t *testing.T, p, aux, marker string) {
			dst := filepath.Join(aux, "target")
			to(t, dst)
			if err := os.Symlink(dst, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	fifo := func(t *testing.T, p string) {
		if err := unix.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sock := func(t *testing.T, p string) {
		l, err := net.Listen("unix", p)
		if err != nil {
			t.Fatal(err)
		}
		l.(*net.UnixListener).SetUnlinkOnClose(false)
		t.Cleanup(func() { l.Close() })
	}
	dev := func(t *testing.T, p string) {
		if err := unix.Mknod(p, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
			t.Fatal(err)
		}
	}
	userFile := func(t *testing.T, p string) {
		if err := os.WriteFile(p, []byte("user data"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ts := []outTarget{
		{name: "absent", make: func(*testing.T, string, string, string) {}},
		{name: "empty file", make: func(t *testing.T, p, _, _ string) { os.WriteFile(p, nil, 0o644) }},
		{name: "user file", make: func(t *testing.T, p, _, _ string) { userFile(t, p) }},
		{name: "marked folder", make: func(t *testing.T, p, _, marker string) {
			os.Mkdir(p, 0o755)
			os.WriteFile(filepath.Join(p, marker), []byte("euroexec"), 0o644)
			os.WriteFile(filepath.Join(p, "old.csv"), []byte("old"), 0o644)
		}},
		{name: "unmarked folder", make: func(t *testing.T, p, _, _ string) {
			os.Mkdir(p, 0o755)
			os.WriteFile(filepath.Join(p, "thesis.docx"), []byte("mine"), 0o644)
		}},
		{name: "fifo", make: func(t *testing.T, p, _, _ string) { fifo(t, p) }, special: "it is a named pipe (FIFO)"},
		{name: "socket", make: func(t *testing.T, p, _, _ string) { sock(t, p) }, special: "it is a socket"},
		{name: "link to fifo", make: link(fifo), special: "symbolic link to a named pipe (FIFO)"},
		{name: "link to socket", make: link(sock), special: "symbolic link to a socket"},
		{name: "link to file", make: link(userFile), special: "symbolic link to a file"},
		{name: "link to folder", make: link(func(t *testing.T, p string) { os.Mkdir(p, 0o755) }), special: "symbolic link to a folder"},
		{name: "/dev/stdout", special: "symbolic link"},
	}
	if os.Geteuid() == 0 {
		ts = append(ts,
			outTarget{name: "character device", make: func(t *testing.T, p, _, _ string) { dev(t, p) }, special: "it is a character device"},
			outTarget{name: "link to character device", make: link(dev), special: "symbolic link to a character device"})
	} else {
		t.Log("not root: no character device made with mknod; /dev/stdout stands in")
	}
	return ts
}

// TestOutputRule runs every output-taking command against every kind of
// target: a command writes only where nothing is, into an empty regular
// file (file outputs), or over a folder of its own (folder outputs); a
// user's file or folder is refused without --force; a link or special
// file is refused with or without --force and left exactly as it was.
func TestOutputRule(t *testing.T) {
	study := tinyStudy(t)
	planStudy := filepath.Join("..", "..", "sample", "study")
	_, rep, _ := fixture(t)
	srcDB := filepath.Join(t.TempDir(), "src.duckdb")
	if code, _, se, err := cli(context.Background(), "ingest", study, "--db", srcDB); code != exitOK {
		t.Fatalf("ingest: %v\n%s", err, se)
	}
	cmds := []struct {
		name   string
		folder bool
		marker string
		args   func(out string) []string
	}{
		{"run", true, outsafe.ReportMarker, func(o string) []string { return []string{"run", "-q", study, "-o", o} }},
		{"sample", true, outsafe.SampleMarker, func(o string) []string { return []string{"sample", "-o", o, "--questions", "3"} }},
		{"export", true, outsafe.ExportMarker, func(o string) []string { return []string{"export", srcDB, "--parquet", o} }},
		{"compare", true, outsafe.ReportMarker, func(o string) []string { return []string{"compare", "-q", rep, rep, "-o", o} }},
		{"plan", false, "", func(o string) []string { return []string{"plan", planStudy, "--graders", "1", "-o", o} }},
		{"ingest", false, "", func(o string) []string { return []string{"ingest", study, "--db", o} }},
	}
	for _, tg := range outTargets(t) {
		for _, c := range cmds {
			// what happens without --force: "" written, else the refusal's words
			var want string
			switch {
			case tg.special != "":
				want = tg.special
			case tg.name == "absent":
			case tg.name == "empty file" && c.folder:
				want = "it is a file (0 bytes)"
			case tg.name == "empty file":
			case tg.name == "user file" && c.folder:
				want = "it is a file (9 bytes)"
			case tg.name == "user file" && c.name == "plan":
				want = "a file of 9 bytes is there"
			case tg.name == "user file":
				want = "not a DuckDB database"
			case tg.name == "marked folder" && c.folder:
			case tg.name == "unmarked folder" && c.folder:
				want = "did not write"
			default:
				want = "it is a folder"
			}
			forces := []bool{false}
			if tg.special != "" {
				forces = append(forces, true)
			}
			for _, force := range forces {
				name := tg.name + "/" + c.name
				if force {
					name += "/force"
				}
				t.Run(name, func(t *testing.T) {
					parent, aux := t.TempDir(), t.TempDir()
					out := filepath.Join(parent, "out")
					if tg.make == nil {
						out = "/dev/stdout"
					} else {
						tg.make(t, out, aux, c.marker)
					}
					before, beforeAux := stateOf(t, out), stateOf(t, aux)
					args := c.args(out)
					if force {
						args = append(args, "--force")
					}
					code, _, se, err := cli(context.Background(), args...)
					if want != "" {
						checkExit(t, err, code, exitRefused, se, want)
						if after := stateOf(t, out); after != before {
							t.Errorf("%s changed: %+v → %+v", out, before, after)
						}
					} else {
						checkExit(t, err, code, exitOK, se)
						fi, err := os.Lstat(out)
						switch {
						case err != nil:
							t.Errorf("nothing written: %v", err)
						case c.folder && (!fi.IsDir() || !fileExists(filepath.Join(out, c.marker))):
							t.Errorf("%s: want a folder holding %s", out, c.marker)
						case c.folder && fileExists(filepath.Join(out, "old.csv")):
							t.Errorf("a file of the previous output survived")
						case !c.folder && (!fi.Mode().IsRegular() || fi.Size() == 0):
							t.Errorf("%s: %v, want a regular file with content", out, fi.Mode())
						}
					}
					if after := stateOf(t, aux); after != beforeAux {
						t.Errorf("a link's target changed: %+v → %+v", beforeAux, after)
					}
					if l := leftovers(t, parent); len(l) > 0 {
						t.Errorf("left behind: %v", l)
					}
				})
			}
		}
	}
}

// TestPlanToStdout checks that `plan -o -` writes the CSV of `plan -o FILE`
// to standard output, and no file named "-".
func TestPlanToStdout(t *testing.T) {
	study, err := filepath.Abs(filepath.Join("..", "..", "sample", "study"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	file := filepath.Join(dir, "plan.csv")
	if code, _, se, err := cli(context.Background(), "plan", study, "--graders", "1", "-o", file); code != exitOK {
		t.Fatalf("plan -o FILE: %v\n%s", err, se)
	}
	want, _ := os.ReadFile(file)
	code, so, se, err := cli(context.Background(), "plan", study, "--graders", "1", "-o", "-")
	checkExit(t, err, code, exitOK, se)
	if so != string(want) || len(want) == 0 {
		t.Errorf("plan -o - wrote %q, want the CSV %q", so, want)
	}
	if fileExists(filepath.Join(dir, "-")) {
		t.Error("plan -o - wrote a file named -")
	}
}

// TestIngestDropsStaleWAL checks that a database written over an old one
// never inherits the old one's write-ahead log: an old session's table left
// in the log only, and a log of garbage, are both gone, and the new
// database holds what a fresh ingest holds.
func TestIngestDropsStaleWAL(t *testing.T) {
	study := tinyStudy(t)
	dir := t.TempDir()
	fresh := filepath.Join(dir, "fresh.duckdb")
	if code, _, se, err := cli(context.Background(), "ingest", study, "--db", fresh); code != exitOK {
		t.Fatalf("ingest: %v\n%s", err, se)
	}
	want := tableCounts(t, fresh)
	if len(want) == 0 {
		t.Fatal("the fresh database holds no tables")
	}
	for _, c := range []struct {
		name string
		wal  func(t *testing.T, db string)
	}{
		{"a session's log", func(t *testing.T, db string) {
			conn, err := duckdb.NewConnector(db, nil)
			if err != nil {
				t.Fatal(err)
			}
			h := sql.OpenDB(conn)
			if _, err := h.Exec("PRAGMA disable_checkpoint_on_shutdown; SET checkpoint_threshold = '10GB'; CREATE TABLE old_session AS SELECT 42 AS x"); err != nil {
				t.Fatal(err)
			}
			h.Close()
			conn.Close()
			if fi, err := os.Stat(db + ".wal"); err != nil || fi.Size() == 0 {
				t.Fatalf("no write-ahead log was left (%v)", err)
			}
		}},
		{"garbage", func(t *testing.T, db string) { os.WriteFile(db+".wal", []byte("not a log at all"), 0o644) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "study.duckdb")
			if code, _, se, err := cli(context.Background(), "ingest", study, "--db", db); code != exitOK {
				t.Fatalf("ingest: %v\n%s", err, se)
			}
			c.wal(t, db)
			code, _, se, err := cli(context.Background(), "ingest", study, "--db", db)
			checkExit(t, err, code, exitOK, se)
			if _, err := os.Stat(db + ".wal"); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the old .wal is still there (%v)", err)
			}
			got := tableCounts(t, db)
			if len(got) != len(want) {
				t.Errorf("tables %v, want %v", got, want)
			}
			for k, n := range want {
				if got[k] != n {
					t.Errorf("%s: %d rows, want %d", k, got[k], n)
				}
			}
		})
	}
}

// tableCounts opens db read-only and returns the row count of each base
// table.
func tableCounts(t *testing.T, db string) map[string]int64 {
	t.Helper()
	c, err := duckdb.NewConnector(db+"?access_mode=read_only", nil)
	if err != nil {
		t.Fatalf("open %s: %v", db, err)
	}
	h := sql.OpenDB(c)
	defer h.Close()
	rows, err := h.Query(`SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		names = append(names, n)
	}
	rows.Close()
	out := map[string]int64{}
	for _, n := range names {
		var k int64
		if err := h.QueryRow(`SELECT count(*) FROM ` + quoteIdent(n)).Scan(&k); err != nil {
			t.Fatal(err)
		}
		out[n] = k
	}
	return out
}

// killWhen starts bin with args (and env added), waits until a path
// matching glob exists, sends SIGKILL and returns that path. It fails the
// test when the process ends first.
func killWhen(t *testing.T, env []string, glob string, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.After(2 * time.Minute)
	for {
		if m, _ := filepath.Glob(glob); len(m) > 0 {
			cmd.Process.Signal(syscall.SIGKILL)
			<-done
			return m[0]
		}
		select {
		case err := <-done:
			t.Fatalf("%s ended before it could be killed: %v", args[0], err)
		case <-deadline:
			cmd.Process.Kill()
			t.Fatalf("%s: %s never appeared", args[0], glob)
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// TestKilledCommandsCleaned kills real ingest, run and plan processes
// (SIGKILL, no clean-up) while they work, then runs the command again:
// the temporary file or folder the killed one left (beside --db or OUT,
// or in TMPDIR) is removed with a note.
func TestKilledCommandsCleaned(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := binary(t)
	big := syntheticStudy(t, 3000)
	small := tinyStudy(t)
	t.Run("ingest", func(t *testing.T) {
		dir := t.TempDir()
		db := filepath.Join(dir, "study.duckdb")
		tmp := killWhen(t, nil, filepath.Join(dir, ".study.duckdb.euroexec-*.tmp"), bin, "ingest", big, "--db", db)
		if !fileExists(tmp) {
			t.Fatalf("the killed ingest left no %s", tmp)
		}
		code, _, se, err := cli(context.Background(), "ingest", small, "--db", db)
		checkExit(t, err, code, exitOK, se, "note: removed "+tmp, "has ended")
		for _, p := range []string{tmp, tmp + ".wal"} {
			if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s is still there (%v)", p, err)
			}
		}
		if l := leftovers(t, dir); len(l) > 0 {
			t.Errorf("left behind: %v", l)
		}
	})
	t.Run("run", func(t *testing.T) {
		dir := t.TempDir()
		out := filepath.Join(dir, "report")
		tmp := killWhen(t, nil, filepath.Join(dir, ".report.euroexec-*.tmp", outsafe.ReportMarker), bin, "run", "-q", big, "-o", out)
		tmp = filepath.Dir(tmp)
		code, _, se, err := cli(context.Background(), "run", "-q", small, "-o", out)
		checkExit(t, err, code, exitOK, se, "note: removed "+tmp)
		if l := leftovers(t, dir); len(l) > 0 {
			t.Errorf("left behind: %v", l)
		}
	})
	t.Run("plan scratch", func(t *testing.T) {
		tmpdir := t.TempDir()
		tmp := killWhen(t, []string{"TMPDIR=" + tmpdir}, filepath.Join(tmpdir, "euroexec-plan-*.tmp"), bin, "plan", big)
		t.Setenv("TMPDIR", tmpdir)
		code, _, se, err := cli(context.Background(), "plan", filepath.Join("..", "..", "sample", "study"), "--graders", "1")
		checkExit(t, err, code, exitOK, se, "note: removed "+tmp)
		if ents, _ := os.ReadDir(tmpdir); len(ents) != 0 {
			t.Errorf("TMPDIR holds %d entries after plan, want none", len(ents))
		}
	})
}

// TestRunKeepsFilesAddedMeanwhile puts a file into OUT while `run` works
// (a report of its own, or a user's folder replaced with --force): the
// swap is refused (exit 3), the file and the previous report are kept,
// and no temporary folder is left.
func TestRunKeepsFilesAddedMeanwhile(t *testing.T) {
	study := tinyStudy(t)
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, out string)
		force bool
	}{
		{"marked report", func(t *testing.T, out string) {
			if _, err := runStudy(context.Background(), io.Discard, io.Discard, study, runOptions{out: out, quiet: true, now: fixedNow}); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"user folder with --force", func(t *testing.T, out string) {
			os.MkdirAll(out, 0o755)
			os.WriteFile(filepath.Join(out, "old.txt"), []byte("old"), 0o644)
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "report")
			c.setup(t, out)
			before := stateOf(t, out)
			added := filepath.Join(out, "my-notes.txt")
			o := runOptions{out: out, quiet: true, now: fixedNow, force: c.force, hook: func(stage string) {
				if strings.HasPrefix(stage, "write") && !fileExists(added) {
					if err := os.WriteFile(added, []byte("written while the run worked"), 0o644); err != nil {
						t.Error(err)
					}
				}
			}}
			_, err := runStudy(context.Background(), io.Discard, io.Discard, study, o)
			checkExit(t, err, exitCode(context.Background(), err), exitRefused, "", "my-notes.txt", "appeared in it since this run started")
			if b, _ := os.ReadFile(added); string(b) != "written while the run worked" {
				t.Errorf("the added file holds %q", b)
			}
			os.Remove(added)
			if after := stateOf(t, out); after != before {
				t.Errorf("the previous output changed:\n%+v\n%+v", before, after)
			}
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("left behind: %v", l)
			}
		})
	}
}

// TestRunRefusesStudyAlias writes into a bind-mount alias of the study
// folder with --force: refused (device and inode), grading sheets kept.
func TestRunRefusesStudyAlias(t *testing.T) {
	study := tinyStudy(t)
	sum := hashes(t, study)
	alias := filepath.Join(t.TempDir(), "alias")
	os.Mkdir(alias, 0o755)
	if err := unix.Mount(study, alias, "", unix.MS_BIND, ""); err != nil {
		t.Skipf("cannot bind-mount (needs root): %v", err)
	}
	defer unix.Unmount(alias, unix.MNT_DETACH)
	for _, out := range []string{filepath.Join(alias, "grades"), alias} {
		code, _, se, err := cli(context.Background(), "run", "-q", study, "-o", out, "--force")
		checkExit(t, err, code, exitRefused, se, "study folder")
		checkSame(t, "study", sum, hashes(t, study))
	}
}

// fileExists reports whether p exists and is not a folder.
func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
