package outsafe

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A lease names the process that made a temporary file or folder well
// enough for a later run to tell, without trusting kill(pid, 0) (which
// answers for whatever process holds that number in the caller's PID
// namespace), whether that process is still running: the host, the boot,
// the PID namespace, the PID and the process's start time. It is written
// into the temporary's name, so that it moves with nothing and needs no
// file of its own:
//
//	.BASE.euroexec-PID-NANOS-LSTART-PIDNS-BOOT-HOST.tmp   beside an output
//	euroexec-KIND-PID-NANOS-LSTART-PIDNS-BOOT-HOST.tmp    scratch in $TMPDIR
//
// START is field 22 of /proc/PID/stat (clock ticks after boot), PIDNS the
// inode of /proc/self/ns/pid, BOOT the first 8 hex digits of
// /proc/sys/kernel/random/boot_id and HOST the first 8 hex digits of the
// SHA-256 of the host name.
type lease struct {
	pid   int
	start uint64
	pidns uint64
	boot  string
	host  string
}

// token is the lease as written in a name, after PID-NANOS-.
func (l lease) token() string {
	return fmt.Sprintf("L%d-%d-%s-%s", l.start, l.pidns, l.boot, l.host)
}

// leaseRe matches a leased temporary's name. Submatches: 1 the output's
// base name (beside an output) or 2 the scratch kind, 3 PID, 4 NANOS,
// 5 START, 6 PIDNS, 7 BOOT, 8 HOST, 9 ".old" for an output a swap moved
// aside.
var leaseRe = regexp.MustCompile(`^(?:\.(.+)\.euroexec|euroexec-([a-z]+))-([0-9]+)-([0-9]+)-L([0-9]+)-([0-9]+)-([0-9a-f]{8})-([0-9a-f]{8})\.tmp(\.old)?$`)

// legacyRe matches the temporaries of earlier versions, which named only
// the PID (.BASE.euroexec-PID-NANOS.tmp); they are never removed, since
// their PID alone cannot say whether their run is still going.
var legacyRe = regexp.MustCompile(`^\.(.+)\.euroexec-([0-9]+)-([0-9]+)\.tmp(\.old)?$`)

// leased is a temporary found by name.
type leased struct {
	name  string
	base  string // the output's base name ("" for scratch)
	kind  string // the scratch kind ("" beside an output)
	old   bool   // an output moved aside by a swap
	when  time.Time
	lease lease
}

// parseLeased reads a leased temporary's name.
func parseLeased(name string) (leased, bool) {
	m := leaseRe.FindStringSubmatch(name)
	if m == nil {
		return leased{}, false
	}
	pid, err1 := strconv.Atoi(m[3])
	nanos, err2 := strconv.ParseInt(m[4], 10, 64)
	start, err3 := strconv.ParseUint(m[5], 10, 64)
	ns, err4 := strconv.ParseUint(m[6], 10, 64)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		return leased{}, false
	}
	return leased{name: name, base: m[1], kind: m[2], old: m[9] != "", when: time.Unix(0, nanos).UTC(),
		lease: lease{pid: pid, start: start, pidns: ns, boot: m[7], host: m[8]}}, true
}

// procRoot is where the process information is read; a variable so that
// tests can stand in another boot or namespace.
var procRoot = "/proc"

// ownLease is this process's lease, read once. A lease it could not read
// in full has empty fields, which match no other lease: then nothing is
// judged stale.
var ownLease = sync.OnceValue(func() lease {
	l := lease{pid: os.Getpid()}
	l.start, _ = startTime(l.pid)
	if s, err := os.Readlink(filepath.Join(procRoot, "self", "ns", "pid")); err == nil {
		s = strings.TrimSuffix(strings.TrimPrefix(s, "pid:["), "]")
		l.pidns, _ = strconv.ParseUint(s, 10, 64)
	}
	if b, err := os.ReadFile(filepath.Join(procRoot, "sys", "kernel", "random", "boot_id")); err == nil {
		if id := strings.ReplaceAll(strings.TrimSpace(string(b)), "-", ""); len(id) >= 8 {
			l.boot = strings.ToLower(id[:8])
		}
	}
	if h, err := os.Hostname(); err == nil {
		sum := sha256.Sum256([]byte(h))
		l.host = hex.EncodeToString(sum[:4])
	}
	return l
})

// startTime is field 22 of /proc/PID/stat: when the process started, in
// clock ticks after boot. The second field (the command) is in parentheses
// and may hold spaces and parentheses, so fields are counted after the
// last ')'.
func startTime(pid int) (uint64, error) {
	b, err := os.ReadFile(filepath.Join(procRoot, strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command field", pid)
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (the state): field 22 is f[19].
	if len(f) < 20 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields, want at least 22", pid, len(f)+2)
	}
	return strconv.ParseUint(f[19], 10, 64)
}

// leaseName returns a new temporary's name: prefix (".BASE.euroexec" or
// "euroexec-KIND"), then the PID, a time stamp and the lease.
func leaseName(prefix string, nanos int64) string {
	l := ownLease()
	return fmt.Sprintf("%s-%d-%d-%s.tmp", prefix, l.pid, nanos, l.token())
}

// verdict is what a lease says of its temporary.
type verdict int

const (
	live    verdict = iota // its process runs: leave it
	dead                   // its process is gone: remove it
	foreign                // another machine or PID namespace: leave it, with a note
)

// judge says whether the process of l is still running, and why not.
func judge(l lease) (verdict, string) {
	me := ownLease()
	switch {
	case me.host == "" || me.boot == "" || me.pidns == 0:
		return foreign, "this process cannot read its own host, boot and PID namespace"
	case l.host != me.host:
		return foreign, "it was made on another machine (host " + l.host + ")"
	case l.boot != me.boot:
		return dead, "the machine has restarted since"
	case l.pidns != me.pidns:
		return foreign, fmt.Sprintf("it was made in another PID namespace (%d), a container perhaps", l.pidns)
	case l.pid == me.pid && l.start == me.start:
		return live, ""
	}
	st, err := startTime(l.pid)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return dead, fmt.Sprintf("process %d has ended", l.pid)
	case err != nil:
		return live, ""
	case st != l.start:
		return dead, fmt.Sprintf("process %d has ended (its number now belongs to another process)", l.pid)
	}
	return live, ""
}

// ScratchDir creates a private folder (mode 0700) in the system's
// temporary folder for kind's scratch files (kind: lower-case letters, e.g.
// "plan"), named with a lease so that [CleanScratch] can remove it once its
// process is gone.
func ScratchDir(kind string) (string, error) {
	now := time.Now().UnixNano()
	for i := 0; ; i++ {
		p := filepath.Join(os.TempDir(), leaseName("euroexec-"+kind, now+int64(i)))
		err := os.Mkdir(p, 0o700)
		if errors.Is(err, os.ErrExist) && i < 100 {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("create a scratch folder: %w", err)
		}
		return p, nil
	}
}

// CleanScratch removes the scratch folders of [ScratchDir] in the system's
// temporary folder whose process is gone (a run killed before it could
// clean up). It returns one note per folder removed, not removable, or left
// alone because it belongs to another machine or PID namespace.
func CleanScratch() []string {
	dir := os.TempDir()
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var notes []string
	for _, e := range ents {
		t, ok := parseLeased(e.Name())
		if !ok || t.kind == "" || t.old || !e.IsDir() {
			continue
		}
		notes = append(notes, settle(filepath.Join(dir, e.Name()), t, func(p string) (string, error) { return "", os.RemoveAll(p) })...)
	}
	sort.Strings(notes)
	return notes
}

// settle judges the lease of the temporary at p and removes it with rm
// when its process is gone; it returns the note to print, if any (rm's
// own note when it gives one).
func settle(p string, t leased, rm func(string) (string, error)) []string {
	v, why := judge(t.lease)
	who := fmt.Sprintf("a run (process %d, %s)", t.lease.pid, t.when.Format(time.RFC3339))
	switch v {
	case foreign:
		return []string{fmt.Sprintf("left %s alone, made by %s: %s", p, who, why)}
	case dead:
		note, err := rm(p)
		if err != nil {
			return []string{fmt.Sprintf("could not remove %s, left by %s that was killed (%s): %v", p, who, why, err)}
		}
		if note != "" {
			return []string{note + fmt.Sprintf(", moved aside by %s that was killed (%s)", who, why)}
		}
		return []string{fmt.Sprintf("removed %s, left by %s that was killed (%s)", p, who, why)}
	}
	return nil
}
