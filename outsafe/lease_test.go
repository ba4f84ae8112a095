package outsafe

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// deadPID returns the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot start a process: %v", err)
	}
	return cmd.Process.Pid
}

// sleeper starts a process that runs until the test ends and returns its
// pid and start time (field 22 of /proc/PID/stat, read by cut: the
// command "sleep" holds no space).
func sleeper(t *testing.T) (int, uint64) {
	t.Helper()
	cmd := exec.Command("sleep", "600")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start a process: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	out, err := exec.Command("cut", "-d", " ", "-f", "22", fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid)).Output()
	if err != nil {
		t.Skipf("cannot read the start time: %v", err)
	}
	st, err := strconv.ParseUint(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid, st
}

// testLease is this machine's host, boot and PID namespace as the
// documented lease format writes them, read independently of ownLease.
type testLease struct {
	host, boot string
	ns         uint64
}

func hereLease(t *testing.T) testLease {
	t.Helper()
	h, err := os.Hostname()
	if err != nil {
		t.Skip(err)
	}
	sum := sha256.Sum256([]byte(h))
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		t.Skip(err)
	}
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		t.Skip(err)
	}
	n, err := strconv.ParseUint(strings.Trim(ns, "pid:[]"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return testLease{host: hex.EncodeToString(sum[:4]), boot: strings.ReplaceAll(string(b), "-", "")[:8], ns: n}
}

// name builds a leased name by the documented format.
func (l testLease) name(prefix string, pid int, start uint64, suffix string) string {
	return fmt.Sprintf("%s-%d-%d-L%d-%d-%s-%s.tmp%s", prefix, pid, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano(), start, l.ns, l.boot, l.host, suffix)
}

// otherHex returns an 8-digit hex string different from h.
func otherHex(h string) string {
	if h == "00000000" {
		return "11111111"
	}
	return "00000000"
}

// TestCleanStaleLeases checks every verdict of a lease on folders beside
// an output: removed when its process is gone (ended, PID reused, machine
// restarted), kept when it runs or belongs to another machine or PID
// namespace (with a note), restored when a swap had moved it aside.
func TestCleanStaleLeases(t *testing.T) {
	here := hereLease(t)
	dead := deadPID(t)
	spid, sstart := sleeper(t)
	parent := t.TempDir()
	otherBoot, otherHost, otherNS := here, here, here
	otherBoot.boot = otherHex(here.boot)
	otherHost.host = otherHex(here.host)
	otherNS.ns = here.ns + 1
	cases := []struct {
		name   string
		path   string
		exist  bool   // after CleanStale
		note   string // a note naming path holds this ("" for no note)
		marker bool   // write the report marker into it
	}{
		{"ended", here.name(".report.euroexec", dead, 1, ""), false, "process " + strconv.Itoa(dead) + " has ended", false},
		{"pid reused", here.name(".a.euroexec", spid, sstart+1, ""), false, "belongs to another process", false},
		{"running", here.name(".b.euroexec", spid, sstart, ""), true, "", false},
		{"rebooted", otherBoot.name(".c.euroexec", spid, sstart, ""), false, "restarted", false},
		{"other namespace", otherNS.name(".d.euroexec", dead, 1, ""), true, "another PID namespace", false},
		{"other host", otherHost.name(".e.euroexec", dead, 1, ""), true, "another machine", false},
		{"legacy", fmt.Sprintf(".f.euroexec-%d-1.tmp", dead), true, "earlier euroexec", true},
		{"legacy unmarked", fmt.Sprintf(".g.euroexec-%d-1.tmp", dead), true, "", false},
		{"scratch is not beside an output", here.name("euroexec-plan", dead, 1, ""), true, "", false},
		{"moved aside, output present", here.name(".h.euroexec", dead, 1, ".old"), false, "has ended", false},
		{"moved aside, output gone", here.name(".gone.euroexec", dead, 1, ".old"), false, "restored", false},
	}
	write(t, filepath.Join(parent, "h", "new.csv"), "new")
	for _, c := range cases {
		write(t, filepath.Join(parent, c.path, "thesis.docx"), "content of "+c.name)
		if c.marker {
			write(t, filepath.Join(parent, c.path, ReportMarker), "x")
		}
	}
	notes := CleanStale(parent, ReportMarker)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := os.Stat(filepath.Join(parent, c.path))
			if got := err == nil; got != c.exist {
				t.Errorf("%s exists = %v, want %v", c.path, got, c.exist)
			}
			var got []string
			for _, n := range notes {
				if strings.Contains(n, c.path) || (c.name == "moved aside, output gone" && strings.Contains(n, "restored")) {
					got = append(got, n)
				}
			}
			if len(got) > 1 {
				t.Errorf("notes %q, want one", got)
			}
			if c.note == "" && len(got) != 0 {
				t.Errorf("notes %q, want none", got)
			}
			if c.note != "" && (len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), c.note)) {
				t.Errorf("notes %q, want one saying %q", got, c.note)
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(parent, "gone", "thesis.docx")); string(b) != "content of moved aside, output gone" {
		t.Errorf("restored output holds %q, %v", b, err)
	}
	if b, _ := os.ReadFile(filepath.Join(parent, "h", "new.csv")); string(b) != "new" {
		t.Errorf("the output beside a removed .old holds %q, want new", b)
	}
}

// TestOwnTemporariesKept checks that the temporaries this process makes
// carry a lease that says it runs: a clean-up in the same process leaves
// them, and their names follow the documented format.
func TestOwnTemporariesKept(t *testing.T) {
	here := hereLease(t)
	t.Setenv("TMPDIR", t.TempDir())
	parent := t.TempDir()
	out := filepath.Join(parent, "report")
	tmp, err := TempDir(out, ReportMarker, nil)
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(parent, "study.duckdb")
	f := TempFileName(db)
	write(t, f, "")
	scratch, err := ScratchDir("plan")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(scratch)
	suffix := fmt.Sprintf("-%d-%s-%s.tmp", here.ns, here.boot, here.host)
	for _, p := range []string{tmp, f, scratch} {
		if !strings.HasSuffix(p, suffix) || !strings.Contains(p, fmt.Sprintf("-%d-", os.Getpid())) {
			t.Errorf("%s: want a name with PID %d ending %s", p, os.Getpid(), suffix)
		}
	}
	if !strings.HasPrefix(filepath.Base(scratch), "euroexec-plan-") || filepath.Dir(scratch) != filepath.Clean(os.TempDir()) {
		t.Errorf("scratch %s: want euroexec-plan-… in %s", scratch, os.TempDir())
	}
	if fi, err := os.Stat(scratch); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("scratch folder: %v, %v; want mode 0700", fi, err)
	}
	if n := CleanStale(parent, ReportMarker); len(n) != 0 {
		t.Errorf("CleanStale notes %q, want none", n)
	}
	if n := CleanStaleFiles(db); len(n) != 0 {
		t.Errorf("CleanStaleFiles notes %q, want none", n)
	}
	for _, n := range CleanScratch() {
		if strings.Contains(n, scratch) {
			t.Errorf("CleanScratch: %q", n)
		}
	}
	for _, p := range []string{tmp, f, scratch} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestCleanScratch checks that a dead scratch folder in $TMPDIR goes and
// a running one stays.
func TestCleanScratch(t *testing.T) {
	here := hereLease(t)
	t.Setenv("TMPDIR", t.TempDir())
	dead := deadPID(t)
	spid, sstart := sleeper(t)
	gone := filepath.Join(os.TempDir(), here.name("euroexec-compare", dead, 7, ""))
	kept := filepath.Join(os.TempDir(), here.name("euroexec-export", spid, sstart, ""))
	user := filepath.Join(os.TempDir(), "euroexec-plan-12345")
	for _, p := range []string{gone, kept, user} {
		write(t, filepath.Join(p, "study.duckdb"), "x")
	}
	notes := CleanScratch()
	if len(notes) != 1 || !strings.Contains(notes[0], "removed "+gone) {
		t.Errorf("notes %q, want one removing %s", notes, gone)
	}
	for p, want := range map[string]bool{gone: false, kept: true, user: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", p, err == nil, want)
		}
	}
}

func TestCleanStaleFiles(t *testing.T) {
	here := hereLease(t)
	parent := t.TempDir()
	out := filepath.Join(parent, "study.duckdb")
	dead := deadPID(t)
	duck := "\x00\x00\x00\x00\x00\x00\x00\x00DUCK\x40\x00"
	stale := filepath.Join(parent, here.name(".study.duckdb.euroexec", dead, 1, ""))
	write(t, stale, duck)
	write(t, stale+".wal", "partial")
	empty := filepath.Join(parent, here.name(".study.duckdb.euroexec", dead, 2, ""))
	write(t, empty, "")
	notDuck := filepath.Join(parent, here.name(".study.duckdb.euroexec", dead, 3, ""))
	write(t, notDuck, "my notes")
	spid, sstart := sleeper(t)
	live := filepath.Join(parent, here.name(".study.duckdb.euroexec", spid, sstart, ""))
	write(t, live, duck)
	other := filepath.Join(parent, here.name(".other.duckdb.euroexec", dead, 5, ""))
	write(t, other, duck)
	legacy := filepath.Join(parent, fmt.Sprintf(".study.duckdb.euroexec-%d-6.tmp", dead))
	write(t, legacy, duck)

	notes := CleanStaleFiles(out)
	if len(notes) != 3 {
		t.Errorf("notes = %q, want 3 (the stale database, the empty file, the other file)", notes)
	}
	for _, c := range []struct {
		path  string
		exist bool
	}{
		{stale, false}, {stale + ".wal", false}, {empty, false}, {notDuck, false}, {live, true}, {other, true}, {legacy, true},
	} {
		_, err := os.Stat(c.path)
		if got := err == nil; got != c.exist {
			t.Errorf("%s exists = %v, want %v", filepath.Base(c.path), got, c.exist)
		}
	}
}
