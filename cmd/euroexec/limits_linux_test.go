//go:build linux

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runBinary runs the built euroexec with args through sh, after the shell
// line prefix (a ulimit, a move into a cgroup), and returns its stderr, its
// resource usage and its error.
func runBinary(t *testing.T, prefix string, args ...string) (string, *syscall.Rusage, error) {
	t.Helper()
	bin := binary(t)
	cmd := exec.Command("sh", append([]string{"-c", prefix + ` exec "$0" "$@"`, bin}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	t.Logf("%s %q: %.1f s", prefix, args, time.Since(start).Seconds())
	var ru *syscall.Rusage
	if cmd.ProcessState != nil {
		ru, _ = cmd.ProcessState.SysUsage().(*syscall.Rusage)
	}
	return stderr.String(), ru, err
}

// checkReport fails unless out holds a whole report.
func checkReport(t *testing.T, out string) {
	t.Helper()
	for _, f := range []string{"report.xlsx", "study.duckdb", "site/index.html", "tables/summary.csv"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("report lacks %s: %v", f, err)
		}
	}
}

// limitsLineRE matches run --stats' line of the limits in force.
var limitsLineRE = regexp.MustCompile(`(?m)^limits: memory budget (\d+) MiB from ([^;]+);`)

// The bundled sample runs under `ulimit -v 2000000`, as HPC login nodes
// and batch schedulers set it, and run --stats says the budget came from
// that limit.
func TestRunUnderAddressSpaceLimit(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	stderr, _, err := runBinary(t, "ulimit -v 2000000 &&", "run", "-q", "--stats", "-o", out)
	if err != nil {
		t.Fatalf("run under ulimit -v 2000000: %v\n%s", err, stderr)
	}
	checkReport(t, out)
	m := limitsLineRE.FindStringSubmatch(stderr)
	if m == nil || !strings.HasPrefix(m[2], "RLIMIT_AS 1953 MiB") {
		t.Errorf("no limits line with the budget from RLIMIT_AS 1953 MiB in:\n%s", stderr)
	}
	if !strings.Contains(stderr, "malloc arenas capped at 2") {
		t.Errorf("the malloc arenas were not capped:\n%s", stderr)
	}
}

// run --stats' peak is the process's own: it agrees (within 10 %) with the
// maximum resident set size the kernel reports to the parent (wait4's
// rusage, what /usr/bin/time -v prints), and no stage's peak is above it.
func TestStatsPeakMatchesRusage(t *testing.T) {
	study := syntheticStudy(t, 400)
	out := filepath.Join(t.TempDir(), "report")
	stderr, ru, err := runBinary(t, "", "run", study, "-q", "--stats", "-o", out)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	if ru == nil || ru.Maxrss <= 0 {
		t.Fatal("no rusage of the child")
	}
	outside := float64(ru.Maxrss) / 1024 // kB on Linux
	stage := regexp.MustCompile(`(?m)^\s*([a-z ,]+?)\s+\d+\.\d\d\s+\d+\.\d\d\s+(\d+)\s*$`)
	var total float64
	var stages []float64
	for _, m := range stage.FindAllStringSubmatch(stderr, -1) {
		v, _ := strconv.ParseFloat(m[2], 64)
		if m[1] == "total" {
			total = v
		} else {
			stages = append(stages, v)
		}
	}
	if total == 0 || len(stages) != 5 {
		t.Fatalf("no total and five stage lines in:\n%s", stderr)
	}
	if d := (total - outside) / outside; d > 0.1 || d < -0.1 {
		t.Errorf("--stats peak %.0f MiB, wait4's maxrss %.0f MiB: %.0f %% apart, want within 10 %%", total, outside, 100*d)
	}
	for i, s := range stages {
		if s > outside*1.1 {
			t.Errorf("stage %d peak %.0f MiB above the process's peak %.0f MiB", i, s, outside)
		}
	}
}

// memoryCgroup makes a memory cgroup under the process's own, with a limit
// of limit bytes, and returns the shell line that moves a shell into it;
// "" when no cgroup can be made here (not root, or cgroup v2 without the
// memory controller delegated) or EUROEXEC_TEST_NO_CGROUP is set.
func memoryCgroup(t *testing.T, limit int64) string {
	t.Helper()
	if os.Getenv("EUROEXEC_TEST_NO_CGROUP") != "" {
		return "" // to test the other way where a cgroup can be made
	}
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var dir, file string
	for sc.Scan() {
		p := strings.SplitN(sc.Text(), ":", 3)
		if len(p) != 3 {
			continue
		}
		if p[0] == "0" && p[1] == "" && dir == "" {
			dir, file = filepath.Join("/sys/fs/cgroup", p[2]), "memory.max"
		}
		for _, c := range strings.Split(p[1], ",") {
			if c == "memory" {
				dir, file = filepath.Join("/sys/fs/cgroup/memory", p[2]), "memory.limit_in_bytes"
			}
		}
	}
	if dir == "" {
		return ""
	}
	cg := filepath.Join(dir, "euroexec-test-"+strconv.Itoa(os.Getpid()))
	if err := os.Mkdir(cg, 0o755); err != nil {
		t.Logf("no cgroup: %v", err)
		return ""
	}
	t.Cleanup(func() { os.Remove(cg) })
	if err := os.WriteFile(filepath.Join(cg, file), []byte(strconv.FormatInt(limit, 10)), 0o644); err != nil {
		t.Logf("no cgroup limit: %v", err)
		return ""
	}
	return "echo $$ > " + filepath.Join(cg, "cgroup.procs") + " &&"
}

// A 10,000-question study runs in 2 GiB: in a memory cgroup of 2 GiB where
// one can be made (root), else under an address-space limit that leaves a
// budget of about 2 GiB (the limits reader's other input). DuckDB's memory
// limit and the Go soft limit come from that budget; the run must end
// without an out-of-memory error.
func TestRunTenThousandQuestionsIn2GiB(t *testing.T) {
	if testing.Short() {
		t.Skip("a 10,000-question run: minutes")
	}
	const limit = 2 << 30
	study := syntheticStudy(t, 10000)
	out := filepath.Join(t.TempDir(), "report")
	prefix, source := memoryCgroup(t, limit), "memory"
	if prefix == "" {
		// the Go runtime and the binary take some 1.4 GiB of address space
		// before main (measured); 2 GiB and the 128 MiB reserve on top
		prefix, source = "ulimit -v "+strconv.Itoa((limit+(1536+128)<<20)>>10)+" &&", "RLIMIT_AS"
	}
	stderr, ru, err := runBinary(t, prefix, "run", study, "-q", "--stats", "-o", out)
	if err != nil {
		t.Fatalf("run in 2 GiB (%s): %v\n%s", prefix, err, stderr)
	}
	if strings.Contains(stderr, "Out of Memory") {
		t.Errorf("DuckDB ran out of memory:\n%s", stderr)
	}
	checkReport(t, out)
	m := limitsLineRE.FindStringSubmatch(stderr)
	if m == nil || !strings.Contains(m[2], source) {
		t.Errorf("no limits line with the budget from %s in:\n%s", source, stderr)
	} else if b, _ := strconv.Atoi(m[1]); b > 2560 || b < 1024 {
		// 2,048 MiB from the cgroup; about that from RLIMIT_AS, depending
		// on what the binary maps at start
		t.Errorf("budget %d MiB; want 1,024-2,560 MiB", b)
	}
	if ru != nil {
		t.Logf("peak RSS %d MiB\n%s", ru.Maxrss>>10, stderr)
	}
}
