// Package outsafe keeps the tool's outputs from replacing anything it did not
// write, and makes them appear whole or not at all.
//
// Every folder the tool writes (a report, a synthetic study) carries a marker
// file naming the tool, its version and the study. An output folder is
// replaced only when it does not exist, is empty, or carries the marker
// ([CheckFolder]); a database file only when it is a DuckDB database
// ([CheckDB]); neither ever when it is, holds, or lies inside a protected
// folder (the study being read). New outputs are built in a temporary folder
// beside the target ([TempDir]), synced to disk and swapped into place in one
// rename ([Replace]); temporary folders of a run that was killed are
// recognised by their name and marker and removed by the next run
// ([CleanStale]); a lock file beside the target keeps two runs from racing
// ([Lock]).
package outsafe

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ReportMarker is the marker file of a report folder written by `run`.
const ReportMarker = ".euroexec-report"

// SampleMarker is the marker file of a study folder written by `sample`.
const SampleMarker = ".euroexec-sample"

// ExportMarker marks a folder of Parquet files written by `euroexec export`.
const ExportMarker = ".euroexec-export"

// RefusedError says why an output path was not written to. Commands exit
// with status 3 on it.
type RefusedError struct {
	// Path is the output path as given.
	Path string
	// Reason says what is there.
	Reason string
	// Hint says how to proceed.
	Hint string
}

// Error renders the refusal as one sentence: path, what is there, what to do.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("refusing to write %s: %s; %s", e.Path, e.Reason, e.Hint)
}

// forceHint is the way through for outputs that --force may replace.
const forceHint = "choose another output folder, or add --force to replace it"

// Marker returns the text of a marker file: the tool and version, the study
// path and the time written (RFC 3339, UTC).
func Marker(version, study string, now time.Time) []byte {
	return fmt.Appendf(nil, "euroexec %s\nstudy: %s\nwritten: %s\n", version, study, now.UTC().Format(time.RFC3339))
}

// resolve returns the absolute, symlink-resolved form of p; the part of p
// that does not exist yet is kept as written.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	cur := abs
	for {
		r, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(r, rest), nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// within reports whether p is q or lies inside q (both resolved).
func within(p, q string) bool {
	if p == q {
		return true
	}
	rel, err := filepath.Rel(q, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// checkProtected refuses out when it is, lies inside or contains one of the
// protected folders (whatever --force says).
func checkProtected(given, out string, protected []string) error {
	if out == string(filepath.Separator) {
		return &RefusedError{Path: given, Reason: "it is the root folder", Hint: "choose another output folder"}
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rh, err := resolve(home); err == nil && rh != string(filepath.Separator) && (rh == out || within(rh, out)) {
			return &RefusedError{Path: given, Reason: "it is or contains your home folder", Hint: "choose another output folder"}
		}
	}
	for _, p := range protected {
		if p == "" {
			continue
		}
		rp, err := resolve(p)
		if err != nil {
			return err
		}
		hint := "choose an output outside the study folder " + p + " (inputs are never modified; --force does not change this)"
		switch {
		case out == rp:
			return &RefusedError{Path: given, Reason: "it is the study folder", Hint: hint}
		case within(out, rp):
			return &RefusedError{Path: given, Reason: "it lies inside the study folder " + p, Hint: hint}
		case within(rp, out):
			return &RefusedError{Path: given, Reason: "it contains the study folder " + p, Hint: hint}
		}
	}
	return nil
}

// CheckFolder says whether the folder out may be replaced by a new output
// marked with marker: yes when it does not exist, is empty or holds the
// marker file; with force also when it holds something else. It is never
// allowed when out is, lies inside or contains a protected folder, or is the
// root or the home folder. A refusal is a *RefusedError saying what is there.
func CheckFolder(out, marker string, force bool, protected ...string) error {
	r, err := resolve(out)
	if err != nil {
		return err
	}
	if err := checkProtected(out, r, protected); err != nil {
		return err
	}
	fi, err := os.Lstat(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output %s: %w", out, err)
	}
	if force {
		return nil
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return &RefusedError{Path: out, Reason: "it is a symbolic link, not a folder euroexec wrote", Hint: forceHint}
	}
	if !fi.IsDir() {
		return &RefusedError{Path: out, Reason: fmt.Sprintf("it is a file (%d bytes), not a folder euroexec wrote", fi.Size()), Hint: forceHint}
	}
	if m, err := os.Lstat(filepath.Join(out, marker)); err == nil && m.Mode().IsRegular() {
		return nil
	}
	ents, err := os.ReadDir(out)
	if err != nil {
		return fmt.Errorf("output %s: %w", out, err)
	}
	if len(ents) == 0 {
		return nil
	}
	var names []string
	for i, e := range ents {
		if i == 5 {
			names = append(names, "…")
			break
		}
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		names = append(names, n)
	}
	return &RefusedError{Path: out,
		Reason: fmt.Sprintf("it is a folder euroexec did not write (no %s file) holding %d entries: %s", marker, len(ents), strings.Join(names, ", ")),
		Hint:   forceHint}
}

// duckMagic is the DuckDB file signature, at byte 8 of every database file.
var duckMagic = []byte("DUCK")

// IsDuckDB reports whether the file at path starts like a DuckDB database.
func IsDuckDB(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	var b [12]byte
	if _, err := io.ReadFull(f, b[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return false, nil
		}
		return false, err
	}
	return string(b[8:12]) == string(duckMagic), nil
}

// CheckDB says whether the database file path may be replaced: yes when it
// does not exist, is empty or is a DuckDB database (by its signature); with
// force also when it is another file. Never when it lies inside a protected
// folder or is a folder.
func CheckDB(path string, force bool, protected ...string) error {
	if err := checkOutsideStudy(path, "the database", protected); err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("database %s: %w", path, err)
	}
	if fi.IsDir() {
		return &RefusedError{Path: path, Reason: "it is a folder", Hint: "name a database file with --db"}
	}
	if fi.Size() == 0 || force {
		return nil
	}
	ok, err := IsDuckDB(path)
	if err != nil {
		return fmt.Errorf("database %s: %w", path, err)
	}
	if !ok {
		return &RefusedError{Path: path, Reason: fmt.Sprintf("it is a file (%d bytes) that is not a DuckDB database", fi.Size()),
			Hint: "choose another --db file, or add --force to replace it"}
	}
	return nil
}

// checkOutsideStudy refuses the output file path when it is, lies inside
// or contains one of the protected folders (whatever --force says); what
// names the output in the hint.
func checkOutsideStudy(path, what string, protected []string) error {
	r, err := resolve(path)
	if err != nil {
		return err
	}
	for _, p := range protected {
		rp, err := resolve(p)
		if err != nil {
			return err
		}
		if within(r, rp) || within(rp, r) {
			return &RefusedError{Path: path, Reason: "it lies inside the study folder " + p,
				Hint: "write " + what + " outside the study folder (inputs are never modified; --force does not change this)"}
		}
	}
	return nil
}

// CheckFile says whether the plain output file path (e.g. `plan -o`) may
// be written: yes when it does not exist or is empty; with force also when
// it is another file. Never when it is a folder or lies inside a protected
// folder (the study), whatever force says.
func CheckFile(path string, force bool, protected ...string) error {
	if err := checkOutsideStudy(path, "it", protected); err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output file %s: %w", path, err)
	}
	if fi.IsDir() {
		return &RefusedError{Path: path, Reason: "it is a folder", Hint: "name a file"}
	}
	if fi.Size() == 0 || force {
		return nil
	}
	return &RefusedError{Path: path, Reason: fmt.Sprintf("a file of %d bytes is there", fi.Size()),
		Hint: "choose another file, or add --force to replace it"}
}

// tempRe matches the temporary folders TempDir makes: .BASE.euroexec-PID-NANOS.tmp,
// and the previous output a swap moved aside (…tmp.old).
var tempRe = regexp.MustCompile(`^\.(.+)\.euroexec-([0-9]+)-([0-9]+)\.tmp(\.old)?$`)

// TempDir creates a new folder beside out (mode 0755 less the umask) named
// .BASE.euroexec-PID-NANOS.tmp, so that a later run can tell whose it is,
// and writes marker (a file name) holding content into it first.
func TempDir(out, marker string, content []byte) (string, error) {
	parent, base := filepath.Dir(out), filepath.Base(out)
	now := time.Now().UnixNano()
	for i := 0; ; i++ {
		p := filepath.Join(parent, fmt.Sprintf(".%s.euroexec-%d-%d.tmp", base, os.Getpid(), now+int64(i)))
		err := os.Mkdir(p, 0o755)
		if errors.Is(err, os.ErrExist) && i < 100 {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("create a temporary folder beside %s: %w", out, err)
		}
		if err := os.WriteFile(filepath.Join(p, marker), content, 0o644); err != nil {
			os.RemoveAll(p)
			return "", fmt.Errorf("create a temporary folder beside %s: %w", out, err)
		}
		return p, nil
	}
}

// alive reports whether a process with this pid exists.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// stale is an entry of a folder named like TempDir's or TempFileName's
// whose process is gone.
type stale struct {
	entry os.DirEntry
	m     []string // tempRe's submatches: base, pid, nanos, ".old"
	pid   int
}

// staleEntries lists the entries of parent named like a temporary output
// of a process that is no longer running (not this one).
func staleEntries(parent string) []stale {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	var out []stale
	for _, e := range ents {
		m := tempRe.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		pid, err := strconv.Atoi(m[2])
		if err != nil || pid == os.Getpid() || alive(pid) {
			continue
		}
		out = append(out, stale{entry: e, m: m, pid: pid})
	}
	return out
}

// CleanStale removes the temporary folders in parent that a run killed
// before it could clean up left behind: folders named like TempDir's whose
// process is gone and which hold one of the markers. A previous output that
// a killed swap had moved aside is put back when its target is missing. It
// returns one note per folder handled; folders it cannot handle are left
// alone.
func CleanStale(parent string, markers ...string) []string {
	var notes []string
	for _, st := range staleEntries(parent) {
		e, m, pid := st.entry, st.m, st.pid
		if !e.IsDir() {
			continue
		}
		p := filepath.Join(parent, e.Name())
		marked := false
		for _, mk := range markers {
			if fi, err := os.Lstat(filepath.Join(p, mk)); err == nil && fi.Mode().IsRegular() {
				marked = true
			}
		}
		if !marked {
			continue
		}
		nanos, _ := strconv.ParseInt(m[3], 10, 64)
		when := time.Unix(0, nanos).UTC().Format(time.RFC3339)
		if m[4] != "" {
			target := filepath.Join(parent, m[1])
			if _, err := os.Lstat(target); errors.Is(err, os.ErrNotExist) {
				if os.Rename(p, target) == nil {
					notes = append(notes, fmt.Sprintf("restored %s from %s, moved aside by a run (process %d, %s) that was killed", target, p, pid, when))
				}
				continue
			}
		}
		if err := os.RemoveAll(p); err != nil {
			notes = append(notes, fmt.Sprintf("could not remove %s, left by a run (process %d, %s) that was killed: %v", p, pid, when, err))
			continue
		}
		notes = append(notes, fmt.Sprintf("removed %s, left by a run (process %d, %s) that was killed", p, pid, when))
	}
	sort.Strings(notes)
	return notes
}

// TempFileName returns a new name beside the output file out for a file
// being built: .BASE.euroexec-PID-NANOS.tmp, like TempDir's folders, so that
// CleanStaleFiles can tell a killed run's leftovers from a live run's file.
// It does not create the file.
func TempFileName(out string) string {
	parent, base := filepath.Dir(out), filepath.Base(out)
	now := time.Now().UnixNano()
	for i := 0; ; i++ {
		p := filepath.Join(parent, fmt.Sprintf(".%s.euroexec-%d-%d.tmp", base, os.Getpid(), now+int64(i)))
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) || i >= 100 {
			return p
		}
	}
}

// CleanStaleFiles removes the temporary database files beside out that a
// killed run left behind: regular files named like TempFileName's for out,
// whose process is gone, and which are empty or DuckDB databases (with their
// .wal file). Anything else is left alone. It returns one note per file
// removed or not removable.
func CleanStaleFiles(out string) []string {
	parent, base := filepath.Dir(out), filepath.Base(out)
	var notes []string
	for _, st := range staleEntries(parent) {
		e, m, pid := st.entry, st.m, st.pid
		if m[1] != base || m[4] != "" || !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(parent, e.Name())
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		if ok, err := IsDuckDB(p); err != nil || (!ok && fi.Size() != 0) {
			continue
		}
		nanos, _ := strconv.ParseInt(m[3], 10, 64)
		when := time.Unix(0, nanos).UTC().Format(time.RFC3339)
		if err := os.Remove(p); err != nil {
			notes = append(notes, fmt.Sprintf("could not remove %s, left by a run (process %d, %s) that was killed: %v", p, pid, when, err))
			continue
		}
		os.Remove(p + ".wal")
		notes = append(notes, fmt.Sprintf("removed %s, left by a run (process %d, %s) that was killed", p, pid, when))
	}
	sort.Strings(notes)
	return notes
}

// LockedError says that another run holds the lock of an output.
type LockedError struct {
	Path string // the output
	Lock string // the lock file
}

// Error says which output is busy and what to do.
func (e *LockedError) Error() string {
	return fmt.Sprintf("%s is being written by another euroexec run (lock %s is held); wait for it to finish or choose another output", e.Path, e.Lock)
}

// Lock takes the lock of the output out: the file .BASE.euroexec.lock
// beside it, locked with flock (released by the system if the process
// dies). It fails at once with a *LockedError when another process (or
// another Lock call) holds it. unlock releases and removes the lock file.
func Lock(out string) (unlock func(), err error) {
	p := filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".euroexec.lock")
	for range 10 {
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", out, err)
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, unix.EWOULDBLOCK) {
				return nil, &LockedError{Path: out, Lock: p}
			}
			return nil, fmt.Errorf("lock %s: %w", out, err)
		}
		// The holder before us may have removed the file after we opened
		// it: then our lock is on a deleted file; try again.
		var a, b unix.Stat_t
		if unix.Fstat(int(f.Fd()), &a) != nil || unix.Stat(p, &b) != nil || a.Ino != b.Ino || a.Dev != b.Dev {
			f.Close()
			continue
		}
		fmt.Fprintf(f, "%d\n", os.Getpid())
		return func() {
			os.Remove(p)
			f.Close()
		}, nil
	}
	return nil, &LockedError{Path: out, Lock: p}
}

// SyncTree flushes every file and folder under dir to disk. The files
// are flushed syncWorkers at a time: one fsync after another waits for one
// journal commit each, which made a report of a thousand question pages
// take seconds to flush on a busy disk; concurrent fsyncs share commits.
// The error is the first, in the walk's order, of the walk or of a flush.
func SyncTree(dir string) error {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || d.Type().IsRegular() {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	errs := make([]error, len(paths))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(syncWorkers, len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(paths); i = int(next.Add(1) - 1) {
				errs[i] = syncOne(paths[i])
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// syncOne is syncPath, a variable so that tests can count and fail the
// flushes of SyncTree.
var syncOne = syncPath

// syncWorkers is how many files SyncTree flushes at a time (the disk, not
// the CPU, is what they wait for).
const syncWorkers = 16

// syncPath fsyncs one file or folder.
func syncPath(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	serr := f.Sync()
	cerr := f.Close()
	if serr != nil {
		return fmt.Errorf("sync %s: %w", p, serr)
	}
	return cerr
}

// SyncFile flushes the file at p and then its folder's entry to disk.
func SyncFile(p string) error {
	if err := syncPath(p); err != nil {
		return err
	}
	return syncPath(filepath.Dir(p))
}

// exchange swaps two paths atomically (Linux renameat2 RENAME_EXCHANGE);
// a variable so that tests can take the fallback path.
var exchange = func(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

// Replace moves the finished temporary folder tmp to out: it syncs tmp's
// tree, swaps it with out in one atomic rename (out's previous content, if
// any, ends in tmp and is then removed), and syncs the parent folder. If
// anything fails before the swap, out is as it was.
func Replace(tmp, out string) error {
	if err := SyncTree(tmp); err != nil {
		return fmt.Errorf("flush %s to disk: %w", tmp, err)
	}
	parent := filepath.Dir(out)
	if _, err := os.Lstat(out); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(tmp, out); err != nil {
			return fmt.Errorf("move the new output into place at %s: %w", out, err)
		}
		return syncPath(parent)
	}
	err := exchange(tmp, out)
	if err == nil {
		if err := syncPath(parent); err != nil {
			return err
		}
		return os.RemoveAll(tmp)
	}
	if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.ENOTSUP) {
		return fmt.Errorf("move the new output into place at %s: %w", out, err)
	}
	// No atomic exchange on this file system: move the old output aside
	// first (CleanStale puts it back if we are killed in between).
	old := tmp + ".old"
	if err := os.Rename(out, old); err != nil {
		return fmt.Errorf("move the previous output %s aside: %w", out, err)
	}
	if err := os.Rename(tmp, out); err != nil {
		os.Rename(old, out)
		return fmt.Errorf("move the new output into place at %s: %w", out, err)
	}
	if err := syncPath(parent); err != nil {
		return err
	}
	return os.RemoveAll(old)
}
