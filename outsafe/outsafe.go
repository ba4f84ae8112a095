// Package outsafe keeps the tool's outputs from replacing anything it did not
// write, and makes them appear whole or not at all.
//
// One rule holds for every output path: the tool writes only to a regular
// file or a folder that is absent, empty, or marked as its own, and never
// replaces or writes through a symbolic link, a FIFO, a socket or a device,
// whatever --force says. Every folder the tool writes (a report, a
// synthetic study) carries a marker file naming the tool, its version and
// the study. An output folder is replaced only when it does not exist, is
// empty, or carries the marker ([CheckFolder]); a database file only when it
// is a DuckDB database ([CheckDB]); neither ever when it is, holds, or lies
// inside a protected folder (the study being read), compared by device and
// inode as well as by name. New outputs are built in a temporary folder
// beside the target ([TempDir]), synced to disk and swapped into place in one
// rename after the target is checked again ([Replace], [ReplaceFile],
// [ReplaceDB]); temporaries carry a lease in their name and those of a run
// that was killed are removed by the next run ([CleanStale],
// [CleanStaleFiles], [CleanScratch]); a lock file beside the target keeps
// two runs from racing ([Lock]).
package outsafe

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sys/unix"

	"github.com/euroexec/euroexec/internal/crash"
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

// kindName names a file's type for a refusal: "a named pipe (FIFO)", "a
// character device", ...; "" for a regular file or a folder.
func kindName(m os.FileMode) string {
	switch {
	case m.IsRegular(), m.IsDir():
		return ""
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a block device"
	}
	return "a special file"
}

// specialHint is the way through for an output that is a special file or
// a symbolic link: there is none but another name.
const specialHint = "outputs are written only to regular files and folders, never through a link or into a pipe or device; name another path (--force does not change this)"

// checkKind refuses the output path when it is a symbolic link (to
// anything: replacing it would not write where it points, and writing
// through it could reach a device) or a special file (FIFO, socket,
// device), whatever --force says. It returns what path is when it is a
// regular file or a folder, and nil when nothing is there.
func checkKind(path string) (os.FileInfo, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("output %s: %w", path, err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		reason := "it is a symbolic link"
		if t, err := os.Stat(path); err != nil {
			reason += " to nothing (" + fmt.Sprint(errors.Unwrap(err)) + ")"
		} else if k := kindName(t.Mode()); k != "" {
			reason += " to " + k
		} else if t.IsDir() {
			reason += " to a folder"
		} else {
			reason += " to a file"
		}
		if dst, err := os.Readlink(path); err == nil {
			reason += " (" + dst + ")"
		}
		return nil, &RefusedError{Path: path, Reason: reason, Hint: specialHint}
	}
	if k := kindName(fi.Mode()); k != "" {
		return nil, &RefusedError{Path: path, Reason: "it is " + k, Hint: specialHint}
	}
	return fi, nil
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

// relation says how the resolved paths out and dir lie: the same folder,
// out inside dir, or dir inside out. Paths are compared as strings and by
// the (device, inode) of every existing folder on the way up, so that
// another name of the same folder (a bind mount, a hard-linked path) is
// seen through.
func relation(out, dir string) (same, inside, contains bool) {
	if out == dir {
		return true, false, false
	}
	if within(out, dir) {
		return false, true, false
	}
	if within(dir, out) {
		return false, false, true
	}
	di, err := os.Stat(dir)
	if err != nil {
		return false, false, false
	}
	// out, or its deepest existing folder, and every folder above it
	for p := out; ; p = filepath.Dir(p) {
		if fi, err := os.Stat(p); err == nil && os.SameFile(fi, di) {
			if p == out {
				return true, false, false
			}
			return false, true, false
		}
		if filepath.Dir(p) == p {
			break
		}
	}
	oi, err := os.Stat(out)
	if err != nil {
		return false, false, false
	}
	for p := filepath.Dir(dir); ; p = filepath.Dir(p) {
		if fi, err := os.Stat(p); err == nil && os.SameFile(fi, oi) {
			return false, false, true
		}
		if filepath.Dir(p) == p {
			break
		}
	}
	return false, false, false
}

// checkProtected refuses out when it is, lies inside or contains one of the
// protected folders (whatever --force says).
func checkProtected(given, out string, protected []string) error {
	if same, _, _ := relation(out, string(filepath.Separator)); same {
		return &RefusedError{Path: given, Reason: "it is the root folder", Hint: "choose another output folder"}
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rh, err := resolve(home); err == nil && rh != string(filepath.Separator) {
			if same, _, contains := relation(out, rh); same || contains {
				return &RefusedError{Path: given, Reason: "it is or contains your home folder", Hint: "choose another output folder"}
			}
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
		switch same, inside, contains := relation(out, rp); {
		case same:
			return &RefusedError{Path: given, Reason: "it is the study folder", Hint: hint}
		case inside:
			return &RefusedError{Path: given, Reason: "it lies inside the study folder " + p, Hint: hint}
		case contains:
			return &RefusedError{Path: given, Reason: "it contains the study folder " + p, Hint: hint}
		}
	}
	return nil
}

// CheckFolder says whether the folder out may be replaced by a new output
// marked with marker: yes when it does not exist, is empty or holds the
// marker file; with force also when it holds something else or is a
// regular file. It is never allowed when out is a symbolic link or a
// special file (FIFO, socket, device), when it is, lies inside or contains
// a protected folder, or is the root or the home folder. A refusal is a
// *RefusedError saying what is there. When allowed, what out holds is
// recorded: [Replace] refuses to replace out if entries appeared in it
// since.
func CheckFolder(out, marker string, force bool, protected ...string) error {
	if err := checkFolder(out, marker, force, protected); err != nil {
		return err
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	l, err := list(abs)
	if err != nil {
		return fmt.Errorf("output %s: %w", out, err)
	}
	checked.Store(abs, l)
	return nil
}

// checked holds what each output folder held when CheckFolder allowed it,
// for the TempDir of the same output.
var checked sync.Map // absolute output path → listing

// checkFolder is CheckFolder's verdict.
func checkFolder(out, marker string, force bool, protected []string) error {
	r, err := resolve(out)
	if err != nil {
		return err
	}
	if err := checkProtected(out, r, protected); err != nil {
		return err
	}
	fi, err := checkKind(out)
	if fi == nil || err != nil {
		return err
	}
	if force {
		return nil
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
// does not exist, is an empty regular file or is a DuckDB database (by its
// signature); with force also when it is another regular file. Never when
// it is a symbolic link, a special file (FIFO, socket, device) or a
// folder, or lies inside a protected folder.
func CheckDB(path string, force bool, protected ...string) error {
	if err := checkOutsideStudy(path, "the database", protected); err != nil {
		return err
	}
	fi, err := checkKind(path)
	if fi == nil || err != nil {
		return err
	}
	if fi.IsDir() {
		return &RefusedError{Path: path, Reason: "it is a folder", Hint: "name a database file with --db"}
	}
	if fi.Size() == 0 {
		return nil
	}
	ok, err := IsDuckDB(path)
	if err != nil {
		return fmt.Errorf("database %s: %w", path, err)
	}
	if !ok && !force {
		return &RefusedError{Path: path, Reason: fmt.Sprintf("it is a file (%d bytes) that is not a DuckDB database", fi.Size()),
			Hint: "choose another --db file, or add --force to replace it"}
	}
	if !ok {
		if abs, err := filepath.Abs(path); err == nil {
			forcedDB.Store(abs, fi)
		}
	}
	return nil
}

// forcedDB holds the files that are not DuckDB databases which CheckDB
// allowed with force, for ReplaceDB to tell them from a file put there
// since.
var forcedDB sync.Map // absolute path → os.FileInfo

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
		if same, inside, contains := relation(r, rp); same || inside || contains {
			return &RefusedError{Path: path, Reason: "it lies inside the study folder " + p,
				Hint: "write " + what + " outside the study folder (inputs are never modified; --force does not change this)"}
		}
	}
	return nil
}

// CheckFile says whether the plain output file path (e.g. `plan -o`) may
// be written: yes when it does not exist or is an empty regular file;
// with force also when it is another regular file. Never when it is a
// symbolic link, a special file (FIFO, socket, device) or a folder, or
// lies inside a protected folder (the study), whatever force says.
func CheckFile(path string, force bool, protected ...string) error {
	if err := checkOutsideStudy(path, "it", protected); err != nil {
		return err
	}
	fi, err := checkKind(path)
	if fi == nil || err != nil {
		return err
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

// TempDir creates a new folder beside out (mode 0755 less the umask) named
// .BASE.euroexec-PID-NANOS-LEASE.tmp, so that a later run can tell whose
// it is and whether its process still runs (see [CleanStale]), and writes
// marker (a file name) holding content into it first. out is an absolute
// path. What out held when [CheckFolder] allowed it (or now, without that)
// is kept for [Replace], which refuses to replace out when entries
// appeared in it since.
func TempDir(out, marker string, content []byte) (string, error) {
	before, err := startListing(out)
	if err != nil {
		return "", fmt.Errorf("create a temporary folder beside %s: %w", out, err)
	}
	parent, base := filepath.Dir(out), filepath.Base(out)
	now := time.Now().UnixNano()
	for i := 0; ; i++ {
		p := filepath.Join(parent, leaseName("."+base+".euroexec", now+int64(i)))
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
		snapshots.Store(p, before)
		return p, nil
	}
}

// startListing is what out held when CheckFolder allowed it, or holds now.
func startListing(out string) (listing, error) {
	if l, ok := checked.LoadAndDelete(out); ok {
		return l.(listing), nil
	}
	return list(out)
}

// snapshots holds, for each folder TempDir made and Replace has not yet
// used, what its output held when it was made.
var snapshots sync.Map // temporary folder → listing

// listing is what an output path holds: nothing, a file, or a folder's
// entries (paths relative to it).
type listing struct {
	fi      os.FileInfo // nil when nothing is there
	entries map[string]bool
}

// list reads what out holds now.
func list(out string) (listing, error) {
	fi, err := os.Lstat(out)
	if errors.Is(err, os.ErrNotExist) {
		return listing{}, nil
	}
	if err != nil {
		return listing{}, err
	}
	l := listing{fi: fi}
	if !fi.IsDir() {
		return l, nil
	}
	l.entries = map[string]bool{}
	err = filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != out {
			rel, _ := filepath.Rel(out, p)
			l.entries[rel] = true
		}
		return nil
	})
	return l, err
}

// recheck refuses to replace out when it changed since before was taken:
// it became a link or special file, something appeared where nothing was,
// a file became another, or a folder gained entries (files a user put
// there while the run worked, which the swap would delete).
func recheck(out string, before listing) error {
	if _, err := checkKind(out); err != nil {
		return err
	}
	now, err := list(out)
	if err != nil {
		return fmt.Errorf("output %s: %w", out, err)
	}
	hint := "nothing was replaced; move them elsewhere (or choose another output) and run again"
	switch {
	case now.fi == nil:
		return nil
	case before.fi == nil && !now.fi.IsDir():
		return &RefusedError{Path: out, Reason: fmt.Sprintf("a file (%d bytes) appeared there since this run started", now.fi.Size()), Hint: hint}
	case before.fi != nil && before.fi.IsDir() != now.fi.IsDir():
		return &RefusedError{Path: out, Reason: "it was replaced by something else since this run started", Hint: hint}
	case !now.fi.IsDir():
		if !sameVersion(before.fi, now.fi) {
			return &RefusedError{Path: out, Reason: "the file there was changed since this run started", Hint: hint}
		}
		return nil
	}
	var added []string
	for e := range now.entries {
		if !before.entries[e] {
			added = append(added, e)
		}
	}
	if len(added) == 0 {
		return nil
	}
	sort.Strings(added)
	names := added[:min(5, len(added))]
	more := ""
	if len(added) > 5 {
		more = ", …"
	}
	return &RefusedError{Path: out,
		Reason: fmt.Sprintf("%d entries appeared in it since this run started: %s%s", len(added), strings.Join(names, ", "), more),
		Hint:   hint}
}

// CleanStale removes the temporary folders in parent that a run killed
// before it could clean up left behind: folders named like TempDir's
// whose lease says their process is gone (see [lease]); that holds
// whatever the swap had put there, a half-built output or the previous
// output being deleted. A previous output that a killed swap had moved
// aside (…tmp.old) is put back when its target is missing. Folders of a
// run on another machine or in another PID namespace, and those of
// earlier versions (named without a lease) that hold one of markers, are
// left alone with a note. It returns one note per folder handled.
func CleanStale(parent string, markers ...string) []string {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	var notes []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		p := filepath.Join(parent, e.Name())
		t, ok := parseLeased(e.Name())
		if !ok || t.base == "" {
			if legacyRe.MatchString(e.Name()) && hasMarker(p, markers) {
				notes = append(notes, fmt.Sprintf("left %s alone: an earlier euroexec made it, and whether its run still goes cannot be told; remove it by hand if no run is writing it", p))
			}
			continue
		}
		notes = append(notes, settle(p, t, func(p string) (string, error) {
			if t.old {
				target := filepath.Join(parent, t.base)
				if _, err := os.Lstat(target); errors.Is(err, os.ErrNotExist) {
					return "restored " + target + " from " + p, os.Rename(p, target)
				}
			}
			return "", os.RemoveAll(p)
		})...)
	}
	sort.Strings(notes)
	return notes
}

// hasMarker reports whether the folder p holds one of the marker files.
func hasMarker(p string, markers []string) bool {
	for _, mk := range markers {
		if fi, err := os.Lstat(filepath.Join(p, mk)); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// TempFileName returns a new name beside the output file out for a file
// being built: .BASE.euroexec-PID-NANOS-LEASE.tmp, like TempDir's folders,
// so that CleanStaleFiles can tell a killed run's leftovers from a live
// run's file. It does not create the file.
func TempFileName(out string) string {
	parent, base := filepath.Dir(out), filepath.Base(out)
	now := time.Now().UnixNano()
	for i := 0; ; i++ {
		p := filepath.Join(parent, leaseName("."+base+".euroexec", now+int64(i)))
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) || i >= 100 {
			return p
		}
	}
}

// CleanStaleFiles removes the temporary files beside out that a killed
// run left behind: regular files named like TempFileName's for out whose
// lease says their process is gone (with a database's .wal file; the
// name, lease included, is what says the file is a temporary of
// euroexec). Anything else is left alone. It
// returns one note per file removed, not removable, or left alone because
// it belongs to another machine or PID namespace.
func CleanStaleFiles(out string) []string {
	parent, base := filepath.Dir(out), filepath.Base(out)
	ents, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	var notes []string
	for _, e := range ents {
		t, ok := parseLeased(e.Name())
		if !ok || t.base != base || t.old || !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(parent, e.Name())
		notes = append(notes, settle(p, t, func(p string) (string, error) {
			if err := os.Remove(p); err != nil {
				return "", err
			}
			if err := os.Remove(p + ".wal"); err != nil && !errors.Is(err, os.ErrNotExist) {
				return "", err
			}
			return "", nil
		})...)
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
// another Lock call) holds it. The lock file is never followed or written
// through: it is opened with O_NOFOLLOW, and refused (a *RefusedError)
// unless it is a regular file with one link; this process's PID is
// written only into a lock file it created itself. unlock releases and
// removes the lock file.
func Lock(out string) (unlock func(), err error) {
	p := filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".euroexec.lock")
	hint := "remove it if no euroexec run is writing " + out + ", or choose another output"
	for range 10 {
		created := true
		fd, err := unix.Open(p, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0o644)
		if errors.Is(err, unix.EEXIST) {
			created = false
			// Never open a device or FIFO: its open alone may act.
			if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() {
				return nil, &RefusedError{Path: p, Reason: "the lock file is " + kindName(fi.Mode()) + ", not a regular file", Hint: hint}
			}
			fd, err = unix.Open(p, unix.O_RDWR|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
			if errors.Is(err, unix.ENOENT) {
				continue // its holder removed it meanwhile
			}
		}
		if errors.Is(err, unix.ELOOP) {
			return nil, &RefusedError{Path: p, Reason: "the lock file is a symbolic link", Hint: hint}
		}
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", out, err)
		}
		f := os.NewFile(uintptr(fd), p)
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", out, err)
		}
		if st.Mode&unix.S_IFMT != unix.S_IFREG || st.Nlink != 1 {
			f.Close()
			reason := fmt.Sprintf("the lock file has %d links (another name points at the same file)", st.Nlink)
			if st.Mode&unix.S_IFMT != unix.S_IFREG {
				reason = "the lock file is not a regular file"
			}
			return nil, &RefusedError{Path: p, Reason: reason, Hint: hint}
		}
		if err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, unix.EWOULDBLOCK) {
				return nil, &LockedError{Path: out, Lock: p}
			}
			return nil, fmt.Errorf("lock %s: %w", out, err)
		}
		// The holder before us may have removed the file after we opened
		// it: then our lock is on a deleted file; try again.
		var b unix.Stat_t
		if unix.Lstat(p, &b) != nil || st.Ino != b.Ino || st.Dev != b.Dev {
			f.Close()
			continue
		}
		if created {
			fmt.Fprintf(f, "%d\n", os.Getpid())
		}
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
	var g errgroup.Group
	g.SetLimit(syncWorkers) // I/O-bound: more than the cores
	for i, p := range paths {
		g.Go(func() error {
			defer crash.Recover(&errs[i]) // a bug: reported, never a crash
			errs[i] = syncOne(p)
			return nil
		})
	}
	_ = g.Wait()
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

// Replace moves the finished temporary folder tmp (made by [TempDir]) to
// out: it syncs tmp's tree, checks out again (refusing, with a
// *RefusedError, when it became a link or special file or gained entries
// since TempDir), swaps tmp with out in one atomic rename (out's previous
// content, if any, ends under tmp's leased name and is then removed, by
// the next run's [CleanStale] if this one is killed first), and syncs the
// parent folder. If anything fails before the swap, out is as it was.
func Replace(tmp, out string) error {
	if err := SyncTree(tmp); err != nil {
		return fmt.Errorf("flush %s to disk: %w", tmp, err)
	}
	before, _ := snapshots.LoadAndDelete(tmp)
	b, _ := before.(listing) // none: as if nothing was there at the start
	if err := recheck(out, b); err != nil {
		return err
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

// sameVersion reports whether a and b are the same file with the same
// size and modification time.
func sameVersion(a, b os.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// ReplaceFile moves the finished temporary file tmp (beside out, from
// [TempFileName]) over out: it syncs tmp, checks out again (refusing,
// with a *RefusedError, when it became a link or a special file), renames
// and syncs the folder. If anything fails before the rename, out is as it
// was.
func ReplaceFile(tmp, out string) error {
	if err := syncPath(tmp); err != nil {
		return fmt.Errorf("flush %s to disk: %w", tmp, err)
	}
	if _, err := checkKind(out); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		return fmt.Errorf("move %s into place: %w", out, err)
	}
	return syncPath(filepath.Dir(out))
}

// ReplaceDB is [ReplaceFile] for a DuckDB database: the new file must have
// no write-ahead log of its own left (its content would be lost), and the
// old database's log (out.wal) is removed first, so that DuckDB does not
// replay the old session into the new file when it opens it. It refuses
// when out is now a file that is neither empty nor a DuckDB database,
// unless it is the very file [CheckDB] allowed with force.
func ReplaceDB(tmp, out string) error {
	if fi, err := os.Lstat(tmp + ".wal"); err == nil {
		if fi.Size() != 0 {
			return fmt.Errorf("database %s still has a write-ahead log (%s, %d bytes) after it was closed", tmp, tmp+".wal", fi.Size())
		}
		if err := os.Remove(tmp + ".wal"); err != nil {
			return fmt.Errorf("remove %s: %w", tmp+".wal", err)
		}
	}
	fi, err := checkKind(out)
	if err != nil {
		return err
	}
	if fi != nil && fi.Mode().IsRegular() && fi.Size() > 0 {
		ok, err := IsDuckDB(out)
		if err != nil {
			return fmt.Errorf("database %s: %w", out, err)
		}
		abs, _ := filepath.Abs(out)
		f, forced := forcedDB.Load(abs)
		if !ok && (!forced || !sameVersion(f.(os.FileInfo), fi)) {
			return &RefusedError{Path: out, Reason: fmt.Sprintf("a file (%d bytes) that is not a DuckDB database was put there while the database was built", fi.Size()),
				Hint: "nothing was replaced; move it elsewhere (or choose another --db) and run again"}
		}
	}
	wal := out + ".wal"
	if fi, err := os.Lstat(wal); err == nil {
		if fi.IsDir() {
			return &RefusedError{Path: out, Reason: "a folder named " + wal + " is where its write-ahead log belongs", Hint: "move that folder elsewhere"}
		}
		if err := os.Remove(wal); err != nil {
			return fmt.Errorf("remove the old database's write-ahead log %s: %w", wal, err)
		}
	}
	return ReplaceFile(tmp, out)
}
