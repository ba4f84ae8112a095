package outsafe

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// write creates the file p (and its folders) holding s.
func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkRefused fails unless err is a *RefusedError whose text holds every want
// (or, with no want, unless err is nil).
func checkRefused(t *testing.T, err error, want ...string) {
	t.Helper()
	if len(want) == 0 {
		if err != nil {
			t.Fatalf("got %v, want no error", err)
		}
		return
	}
	var re *RefusedError
	if !errors.As(err, &re) {
		t.Fatalf("got %v, want a *RefusedError containing %q", err, want)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("got %q, want it to contain %q", err.Error(), w)
		}
	}
}

func TestCheckFolder(t *testing.T) {
	root := t.TempDir()
	study := filepath.Join(root, "study")
	write(t, filepath.Join(study, "questions.csv"), "id\n")
	write(t, filepath.Join(root, "user", "thesis.docx"), "my thesis")
	write(t, filepath.Join(root, "marked", ReportMarker), "euroexec")
	write(t, filepath.Join(root, "marked", "report.xlsx"), "x")
	write(t, filepath.Join(root, "afile"), "12345")
	os.Mkdir(filepath.Join(root, "empty"), 0o755)
	os.Symlink(study, filepath.Join(root, "link-to-study"))
	for _, c := range []struct {
		name  string
		out   string
		force bool
		want  []string // nil: allowed
	}{
		{"absent", "new", false, nil},
		{"empty", "empty", false, nil},
		{"marked", "marked", false, nil},
		{"user folder", "user", false, []string{"did not write", "thesis.docx", "1 entries", "--force"}},
		{"user folder forced", "user", true, nil},
		{"a file", "afile", false, []string{"a file (5 bytes)", "--force"}},
		{"a file forced", "afile", true, nil},
		{"the study", "study", true, []string{"it is the study folder", "--force does not change this"}},
		{"inside the study", "study/out", true, []string{"inside the study folder"}},
		{"contains the study", ".", true, []string{"contains the study folder"}},
		{"the study through a link", "link-to-study", true, []string{"it is the study folder"}},
		{"root", "/", true, []string{"root folder"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := c.out
			if !filepath.IsAbs(out) {
				out = filepath.Join(root, out)
			}
			checkRefused(t, CheckFolder(out, ReportMarker, c.force, study), c.want...)
		})
	}
}

func TestCheckDB(t *testing.T) {
	root := t.TempDir()
	study := filepath.Join(root, "study")
	write(t, filepath.Join(study, "questions.xlsx"), "PK\x03\x04 a workbook")
	// A DuckDB file starts with an 8-byte checksum, then "DUCK".
	write(t, filepath.Join(root, "old.duckdb"), "\x00\x00\x00\x00\x00\x00\x00\x00DUCK\x40\x00")
	write(t, filepath.Join(root, "notes.txt"), "not a database")
	write(t, filepath.Join(root, "zero"), "")
	for _, c := range []struct {
		name  string
		path  string
		force bool
		want  []string
	}{
		{"absent", "new.duckdb", false, nil},
		{"a duckdb file", "old.duckdb", false, nil},
		{"an empty file", "zero", false, nil},
		{"another file", "notes.txt", false, []string{"not a DuckDB database", "--force"}},
		{"another file forced", "notes.txt", true, nil},
		{"an input of the study", "study/questions.xlsx", true, []string{"inside the study folder"}},
		{"a new file in the study", "study/x.duckdb", true, []string{"inside the study folder"}},
		{"a folder", "study", true, []string{"inside the study folder"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkRefused(t, CheckDB(filepath.Join(root, c.path), c.force, study), c.want...)
		})
	}
}

func TestLock(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	unlock, err := Lock(out)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Lock(out)
	var le *LockedError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "being written by another euroexec run") {
		t.Fatalf("second lock: got %v, want a *LockedError", err)
	}
	unlock()
	unlock2, err := Lock(out)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	unlock2()
}

func TestTempDirAndReplace(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "report")
	write(t, filepath.Join(out, ReportMarker), "old")
	write(t, filepath.Join(out, "stale.csv"), "old table")
	tmp, err := TempDir(out, ReportMarker, []byte("new"))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(".report.euroexec-%d-", os.Getpid()); !strings.HasPrefix(filepath.Base(tmp), want) || !leaseRe.MatchString(filepath.Base(tmp)) {
		t.Errorf("temporary folder %s: want %sNANOS-LEASE.tmp", filepath.Base(tmp), want)
	}
	fi, err := os.Stat(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if want := os.FileMode(0o755) &^ umask(); fi.Mode().Perm() != want {
		t.Errorf("temporary folder mode %v, want %v", fi.Mode().Perm(), want)
	}
	write(t, filepath.Join(tmp, "new.csv"), "new table")
	if err := Replace(tmp, out); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(out, ReportMarker))
	if string(b) != "new" {
		t.Errorf("marker after Replace = %q, want %q", b, "new")
	}
	if _, err := os.Stat(filepath.Join(out, "stale.csv")); err == nil {
		t.Error("a file of the previous output survived Replace")
	}
	ents, _ := os.ReadDir(parent)
	if len(ents) != 1 {
		t.Errorf("parent holds %d entries after Replace, want 1 (the output)", len(ents))
	}
	// Into a place where nothing is yet.
	tmp2, _ := TempDir(filepath.Join(parent, "fresh"), ReportMarker, nil)
	if err := Replace(tmp2, filepath.Join(parent, "fresh")); err != nil {
		t.Fatal(err)
	}
}

func TestIsDuckDBShortFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "short")
	write(t, p, "DUCK")
	if ok, err := IsDuckDB(p); ok || err != nil {
		t.Errorf("IsDuckDB(4-byte file) = %v, %v; want false, nil", ok, err)
	}
}

func TestCheckFolderHome(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home", "ana")
	write(t, filepath.Join(home, "cv.pdf"), "x")
	t.Setenv("HOME", home)
	checkRefused(t, CheckFolder(home, ReportMarker, true), "your home folder")
	checkRefused(t, CheckFolder(filepath.Join(root, "home"), ReportMarker, true), "your home folder")
	checkRefused(t, CheckFolder(filepath.Join(home, "report"), ReportMarker, false))
}

// TestReplaceWithoutExchange takes the path for file systems without an
// atomic exchange: the old output is moved aside, then removed.
func TestReplaceWithoutExchange(t *testing.T) {
	saved := exchange
	exchange = func(a, b string) error { return syscall.EINVAL }
	defer func() { exchange = saved }()
	parent := t.TempDir()
	out := filepath.Join(parent, "report")
	write(t, filepath.Join(out, ReportMarker), "old")
	tmp, err := TempDir(out, ReportMarker, []byte("new"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Replace(tmp, out); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, ReportMarker)); string(b) != "new" {
		t.Errorf("marker = %q, want %q", b, "new")
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 1 {
		t.Errorf("parent holds %d entries, want 1", len(ents))
	}
}

// TestSyncTree checks that SyncTree flushes every folder and regular file
// of a tree exactly once, with several flushes at a time, and returns the
// first failure in the walk's order whatever the order the flushes end in.
func TestSyncTree(t *testing.T) {
	dir := t.TempDir()
	want := map[string]int{dir: 1}
	for d := range 3 {
		sub := filepath.Join(dir, fmt.Sprintf("d%d", d))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		want[sub] = 1
		for f := range 15 {
			p := filepath.Join(sub, fmt.Sprintf("f%02d.html", f))
			if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			want[p] = 1
		}
	}
	if err := os.Symlink("d0", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	old := syncOne
	defer func() { syncOne = old }()
	for _, c := range []struct {
		name string
		fail []string // relative paths whose flush fails
		want string   // the error's path, "" for none
	}{
		{"all flushed", nil, ""},
		{"two failures: the first in walk order wins", []string{"d2/f14.html", "d0/f03.html"}, "d0/f03.html"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			got := map[string]int{}
			var running, most atomic.Int32
			syncOne = func(p string) error {
				n := running.Add(1)
				defer running.Add(-1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(time.Millisecond) // let the flushes overlap
				mu.Lock()
				got[p]++
				mu.Unlock()
				for _, f := range c.fail {
					if p == filepath.Join(dir, f) {
						return fmt.Errorf("sync %s: disk full", f)
					}
				}
				return nil
			}
			err := SyncTree(dir)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("got %v, want no error", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("got %v, want the failure of %s", err, c.want)
			}
			if !maps.Equal(got, want) {
				t.Errorf("flushed %d paths %v, want each of %d once (the symlink not)", len(got), got, len(want))
			}
			if most.Load() < 2 {
				t.Errorf("at most %d flushes at a time, want several", most.Load())
			}
		})
	}
	if err := SyncTree(filepath.Join(dir, "missing")); err == nil {
		t.Error("no error for a missing folder")
	}
}

// BenchmarkSyncTree flushes a freshly written tree of 1,000 small files
// (the size of a 1,000-question site) one file after another (the
// baseline, as SyncTree did before) and with SyncTree, in the same run.
func BenchmarkSyncTree(b *testing.B) {
	write := func(b *testing.B) string {
		b.Helper()
		dir := b.TempDir()
		for i := range 1000 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("q%04d.html", i)), []byte(strings.Repeat("x", 20_000)), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		return dir
	}
	sequential := func(dir string) error {
		return filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return syncPath(p)
		})
	}
	for _, c := range []struct {
		name string
		sync func(string) error
	}{{"one_by_one", sequential}, {"SyncTree", SyncTree}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				dir := write(b)
				b.StartTimer()
				if err := c.sync(dir); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
