package outsafe

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// special is a file of a kind outputs must never replace or write
// through, and how to tell afterwards that it is untouched.
type special struct {
	name   string
	path   string
	reason string // in the refusal
	mode   os.FileMode
	rdev   uint64
}

// specials makes a FIFO, a socket, a character device (when root), links
// to each and to a file, a folder and nothing, in dir.
func specials(t *testing.T, dir string) []special {
	t.Helper()
	var out []special
	add := func(name, reason string) {
		p := filepath.Join(dir, name)
		var st unix.Stat_t
		if err := unix.Stat(p, &st); err != nil && !strings.HasPrefix(name, "link-to-nothing") {
			t.Fatal(err)
		}
		fi, _ := os.Lstat(p)
		out = append(out, special{name: name, path: p, reason: reason, mode: fi.Mode().Type(), rdev: st.Rdev})
	}
	if err := unix.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	add("fifo", "it is a named pipe (FIFO)")
	l, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	add("sock", "it is a socket")
	if os.Geteuid() == 0 {
		if err := unix.Mknod(filepath.Join(dir, "null"), unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
			t.Fatal(err)
		}
		add("null", "it is a character device")
	} else {
		t.Log("not root: no character device made with mknod (/dev/null stands in)")
	}
	write(t, filepath.Join(dir, "file"), "user data")
	os.Mkdir(filepath.Join(dir, "folder"), 0o755)
	for _, c := range []struct{ to, reason string }{
		{"fifo", "it is a symbolic link to a named pipe (FIFO)"},
		{"sock", "it is a symbolic link to a socket"},
		{"null", "it is a symbolic link to a character device"},
		{"file", "it is a symbolic link to a file"},
		{"folder", "it is a symbolic link to a folder"},
		{"nothing", "it is a symbolic link to nothing"},
	} {
		if c.to == "null" && os.Geteuid() != 0 {
			continue
		}
		if err := os.Symlink(filepath.Join(dir, c.to), filepath.Join(dir, "link-to-"+c.to)); err != nil {
			t.Fatal(err)
		}
		add("link-to-"+c.to, c.reason)
	}
	return out
}

// checkUntouched fails unless s is still what it was.
func checkUntouched(t *testing.T, s special) {
	t.Helper()
	fi, err := os.Lstat(s.path)
	if err != nil {
		t.Fatalf("%s: %v", s.name, err)
	}
	if fi.Mode().Type() != s.mode {
		t.Errorf("%s is now %v, was %v", s.name, fi.Mode().Type(), s.mode)
	}
	var st unix.Stat_t
	if unix.Stat(s.path, &st) == nil && st.Rdev != s.rdev {
		t.Errorf("%s: device %d, was %d", s.name, st.Rdev, s.rdev)
	}
}

// TestSpecialOutputsRefused runs every check on every kind of special
// target, with and without force: each is refused naming the kind.
func TestSpecialOutputsRefused(t *testing.T) {
	dir := t.TempDir()
	sp := specials(t, dir)
	sp = append(sp, special{name: "/dev/null", path: "/dev/null", reason: "it is a character device", mode: os.ModeDevice | os.ModeCharDevice, rdev: uint64(unix.Mkdev(1, 3))})
	checks := map[string]func(string, bool) error{
		"CheckFolder": func(p string, f bool) error { return CheckFolder(p, ReportMarker, f) },
		"CheckDB":     func(p string, f bool) error { return CheckDB(p, f) },
		"CheckFile":   func(p string, f bool) error { return CheckFile(p, f) },
	}
	for _, s := range sp {
		for name, check := range checks {
			for _, force := range []bool{false, true} {
				t.Run(s.name+"/"+name, func(t *testing.T) {
					checkRefused(t, check(s.path, force), s.reason, "--force does not change this")
					checkUntouched(t, s)
				})
			}
		}
		t.Run(s.name+"/Lock", func(t *testing.T) {
			if s.path == "/dev/null" {
				t.Skip("the lock of /dev/null would be in /dev")
			}
			// the lock of a special output is beside it and is ours: taking
			// it never touches the special file
			unlock, err := Lock(s.path)
			if err != nil {
				t.Fatal(err)
			}
			unlock()
			checkUntouched(t, s)
		})
	}
}

// TestReplaceRefusesSpecialAtSwap checks that an output that became a
// special file after the checks is refused at the swap and left as it is.
func TestReplaceRefusesSpecialAtSwap(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	tmp, err := TempDir(out, ReportMarker, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(out, 0o644); err != nil {
		t.Fatal(err)
	}
	checkRefused(t, Replace(tmp, out), "named pipe (FIFO)")
	db := filepath.Join(dir, "db")
	ftmp := TempFileName(db)
	write(t, ftmp, "new")
	if err := os.Symlink("/dev/null", db); err != nil {
		t.Fatal(err)
	}
	checkRefused(t, ReplaceDB(ftmp, db), "symbolic link to a character device")
	checkRefused(t, ReplaceFile(ftmp, db), "symbolic link to a character device")
	for _, p := range []string{out, db} {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode().IsRegular() || fi.IsDir() {
			t.Errorf("%s after a refused swap: %v, %v", p, fi, err)
		}
	}
}

// TestReplaceRechecks checks that files a user puts into the output while
// a run works make the swap refuse, and are kept.
func TestReplaceRechecks(t *testing.T) {
	for _, c := range []struct {
		name   string
		setup  func(t *testing.T, out string) // before CheckFolder
		force  bool
		during func(t *testing.T, out string) // between TempDir and Replace
		want   []string                       // refusal; nil: replaced
	}{
		{"marked, file added", func(t *testing.T, out string) { write(t, filepath.Join(out, ReportMarker), "old") }, false,
			func(t *testing.T, out string) { write(t, filepath.Join(out, "notes.txt"), "mine") }, []string{"1 entries appeared", "notes.txt"}},
		{"marked, file added deep", func(t *testing.T, out string) {
			write(t, filepath.Join(out, ReportMarker), "old")
			os.Mkdir(filepath.Join(out, "tables"), 0o755)
		}, false,
			func(t *testing.T, out string) { write(t, filepath.Join(out, "tables", "mine.csv"), "mine") }, []string{"tables/mine.csv"}},
		{"unmarked forced, file added", func(t *testing.T, out string) { write(t, filepath.Join(out, "a.txt"), "a") }, true,
			func(t *testing.T, out string) { write(t, filepath.Join(out, "b.txt"), "b") }, []string{"b.txt"}},
		{"absent, folder appeared", func(t *testing.T, out string) {}, false,
			func(t *testing.T, out string) { write(t, filepath.Join(out, "c.txt"), "c") }, []string{"c.txt"}},
		{"absent, file appeared", func(t *testing.T, out string) {}, false,
			func(t *testing.T, out string) { write(t, out, "c") }, []string{"a file (1 bytes) appeared"}},
		{"absent, empty folder appeared", func(t *testing.T, out string) {}, false,
			func(t *testing.T, out string) { os.Mkdir(out, 0o755) }, nil},
		{"marked, file of ours removed", func(t *testing.T, out string) {
			write(t, filepath.Join(out, ReportMarker), "old")
			write(t, filepath.Join(out, "x.csv"), "old")
		}, false, func(t *testing.T, out string) { os.Remove(filepath.Join(out, "x.csv")) }, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "report")
			c.setup(t, out)
			if err := CheckFolder(out, ReportMarker, c.force); err != nil {
				t.Fatal(err)
			}
			tmp, err := TempDir(out, ReportMarker, []byte("new"))
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(tmp)
			c.during(t, out)
			err = Replace(tmp, out)
			checkRefused(t, err, c.want...)
			b, _ := os.ReadFile(filepath.Join(out, ReportMarker))
			if replaced := string(b) == "new"; replaced != (c.want == nil) {
				t.Errorf("marker %q: replaced = %v, want %v", b, replaced, c.want == nil)
			}
		})
	}
}

// TestLockNeverWritesThrough checks that the lock file is never followed
// or written through: a link, a second name of a file, a FIFO in its
// place are refused and left as they were; an existing lock file is used
// without writing into it.
func TestLockNeverWritesThrough(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	lock := filepath.Join(dir, ".report.euroexec.lock")
	victim := filepath.Join(dir, "grades.xlsx")
	for _, c := range []struct {
		name  string
		setup func(t *testing.T)
		want  string // refusal; "" for a lock taken
	}{
		{"symlink", func(t *testing.T) { os.Symlink(victim, lock) }, "symbolic link"},
		{"dangling symlink", func(t *testing.T) { os.Symlink(filepath.Join(dir, "nothing"), lock) }, "symbolic link"},
		{"hard link", func(t *testing.T) { os.Link(victim, lock) }, "2 links"},
		{"fifo", func(t *testing.T) { unix.Mkfifo(lock, 0o644) }, "named pipe (FIFO)"},
		{"existing lock file", func(t *testing.T) { write(t, lock, "left by a killed run") }, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			write(t, victim, "grades")
			os.Remove(lock)
			c.setup(t)
			before, _ := os.Lstat(lock)
			unlock, err := Lock(out)
			if c.want != "" {
				checkRefused(t, err, c.want)
				after, _ := os.Lstat(lock)
				if after == nil || after.Mode().Type() != before.Mode().Type() {
					t.Errorf("lock path changed: %v → %v", before, after)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if b, _ := os.ReadFile(lock); string(b) != "left by a killed run" {
					t.Errorf("lock file holds %q: written over", b)
				}
				unlock()
			}
			if b, _ := os.ReadFile(victim); string(b) != "grades" {
				t.Errorf("victim holds %q, want grades", b)
			}
			if _, err := os.Stat(filepath.Join(dir, "nothing")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the dangling link's target was created: %v", err)
			}
		})
	}
	// a lock file we create holds our PID
	os.Remove(lock)
	unlock, err := Lock(out)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(lock); strings.TrimSpace(string(b)) != strconv.Itoa(os.Getpid()) {
		t.Errorf("new lock file holds %q, want the PID", b)
	}
	unlock()
}

// TestStudyAliasRefused checks that another name of the study folder (a
// bind mount) is recognised by device and inode: an output inside it, it
// itself, or a folder holding the study through an alias of its parent.
func TestStudyAliasRefused(t *testing.T) {
	root := t.TempDir()
	study := filepath.Join(root, "a", "study")
	write(t, filepath.Join(study, "grades", "g1.xlsx"), "grades")
	alias := filepath.Join(root, "alias")
	parentAlias := filepath.Join(root, "palias")
	os.Mkdir(alias, 0o755)
	os.Mkdir(parentAlias, 0o755)
	if err := unix.Mount(study, alias, "", unix.MS_BIND, ""); err != nil {
		t.Skipf("cannot bind-mount (needs root): %v", err)
	}
	defer unix.Unmount(alias, unix.MNT_DETACH)
	if err := unix.Mount(filepath.Join(root, "a"), parentAlias, "", unix.MS_BIND, ""); err != nil {
		t.Skipf("cannot bind-mount: %v", err)
	}
	defer unix.Unmount(parentAlias, unix.MNT_DETACH)
	for _, c := range []struct{ out, want string }{
		{filepath.Join(alias, "grades"), "inside the study folder"},
		{filepath.Join(alias, "new", "report"), "inside the study folder"},
		{alias, "it is the study folder"},
		{parentAlias, "contains the study folder"},
	} {
		checkRefused(t, CheckFolder(c.out, ReportMarker, true, study), c.want)
		checkRefused(t, CheckDB(c.out, true, study), "inside the study folder")
	}
	if b, _ := os.ReadFile(filepath.Join(study, "grades", "g1.xlsx")); string(b) != "grades" {
		t.Errorf("grades: %q", b)
	}
	checkRefused(t, CheckFolder(filepath.Join(root, "report"), ReportMarker, true, study))
}

// TestReplaceDBRechecks checks that a file that is not a database, put at
// --db while the database was built, is kept and refused at the swap,
// unless it is the very file --force allowed; the old database's .wal goes.
func TestReplaceDBRechecks(t *testing.T) {
	duck := "\x00\x00\x00\x00\x00\x00\x00\x00DUCK\x40\x00"
	for _, c := range []struct {
		name   string
		before string // content at CheckDB; "-" for absent
		force  bool
		during string // content written between CheckDB and ReplaceDB; "-" for none
		want   string // refusal; "" for replaced
	}{
		{"absent, user file appeared", "-", false, "my notes", "not a DuckDB database was put there"},
		{"absent, database appeared", "-", false, duck, ""},
		{"empty stays empty", "", false, "-", ""},
		{"old database", duck, false, "-", ""},
		{"forced user file", "my notes", true, "-", ""},
		{"forced user file rewritten", "my notes", true, "my longer notes", "not a DuckDB database was put there"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "study.duckdb")
			if c.before != "-" {
				write(t, db, c.before)
				write(t, db+".wal", "old session")
			}
			if err := CheckDB(db, c.force); err != nil {
				t.Fatal(err)
			}
			if c.during != "-" {
				write(t, db, c.during)
			}
			tmp := TempFileName(db)
			write(t, tmp, "new database")
			err := ReplaceDB(tmp, db)
			b, _ := os.ReadFile(db)
			if c.want != "" {
				checkRefused(t, err, c.want)
				if string(b) != c.during {
					t.Errorf("%s holds %q, want %q kept", db, b, c.during)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != "new database" {
				t.Errorf("%s holds %q, want the new database", db, b)
			}
			if _, err := os.Lstat(db + ".wal"); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the old .wal survived: %v", err)
			}
			if _, err := os.Lstat(tmp); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the temporary file survived: %v", err)
			}
		})
	}
	// the new file's own log, with content, stops the swap
	dir := t.TempDir()
	db := filepath.Join(dir, "study.duckdb")
	tmp := TempFileName(db)
	write(t, tmp, "new")
	write(t, tmp+".wal", "unflushed")
	if err := ReplaceDB(tmp, db); err == nil || !strings.Contains(err.Error(), "write-ahead log") {
		t.Errorf("got %v, want an error about the write-ahead log", err)
	}
	if _, err := os.Lstat(db); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s was written: %v", db, err)
	}
}
