package duckopen

import (
	"io"
	"slices"
	"strings"
	"testing"
)

func TestCompute(t *testing.T) {
	const gib = 1 << 30
	for _, c := range []struct {
		name string
		s    Sources
		want Limits
	}{
		{"nothing known", Sources{CPUs: 8}, Limits{Threads: 8}},
		// ulimit -v 2000000: 2,048,000,000 bytes; 1,331,200,000 in use; the
		// 134,217,728 reserve leaves 582,582,272: DuckDB 0.4 of it
		// (233,032,908.8), Go 0.6 (349,549,363.2), 2 threads of 256 MiB.
		{"ulimit -v", Sources{AddressSpace: 2000000 << 10, VmSize: 1300000 << 10, MemAvailable: 20 * gib, CPUs: 16},
			Limits{Budget: 582582272, Source: "RLIMIT_AS 1953 MiB", DuckDBMemory: 233032908, Threads: 2, GoMemory: 349549363, AddressSpace: 2048000000, AddressSpaceLeft: 582582272}},
		{"ulimit -v below what is in use", Sources{AddressSpace: 1 << 30, VmSize: 1200 << 20, CPUs: 4},
			Limits{Budget: 1, Source: "RLIMIT_AS 1024 MiB", DuckDBMemory: 64 << 20, Threads: 1, AddressSpace: 1 << 30, AddressSpaceLeft: -(176 << 20) - (128 << 20)}},
		{"cgroup", Sources{Cgroup: 2 * gib, CgroupFile: "/sys/fs/cgroup/memory.max", MemAvailable: 20 * gib, CPUs: 16},
			Limits{Budget: 2 * gib, Source: "/sys/fs/cgroup/memory.max", DuckDBMemory: 858993459, Threads: 8, GoMemory: 1288490188}},
		{"memory available lower than cgroup", Sources{Cgroup: 8 * gib, CgroupFile: "memory.max", MemAvailable: 4 * gib, CPUs: 2},
			Limits{Budget: 4 * gib, Source: "MemAvailable", DuckDBMemory: 1717986918, Threads: 2, GoMemory: 2576980377}},
		{"tiny cgroup", Sources{Cgroup: 100 << 20, CgroupFile: "m", CPUs: 4},
			Limits{Budget: 100 << 20, Source: "m", DuckDBMemory: 64 << 20, Threads: 1, GoMemory: 62914560}},
		{"no CPUs known", Sources{}, Limits{Threads: 1}},
	} {
		if got := Compute(c.s); got != c.want {
			t.Errorf("%s: Compute =\n%+v, want\n%+v", c.name, got, c.want)
		}
	}
}

func TestWarning(t *testing.T) {
	for _, c := range []struct {
		name string
		l    Limits
		want string // "" for no warning
	}{
		{"no limit", Limits{}, ""},
		{"room enough", Limits{AddressSpace: 2 << 30, AddressSpaceLeft: 256 << 20}, ""},
		// need = limit - left + 256 MiB = 1,600,000 - 102,400 + 262,144
		// = 1,759,744 KiB.
		{"too little", Limits{AddressSpace: 1600000 << 10, AddressSpaceLeft: 100 << 20},
			"the address-space limit (ulimit -v 1600000) leaves 100 MiB beyond what euroexec maps at start and a reserve of 128 MiB for threads; " +
				"it may fail for lack of memory: raise the limit to at least ulimit -v 1759744 (more for large studies)"},
		{"less than nothing", Limits{AddressSpace: 1 << 30, AddressSpaceLeft: -(300 << 20)},
			"the address-space limit (ulimit -v 1048576) leaves 0 MiB beyond what euroexec maps at start and a reserve of 128 MiB for threads; " +
				"it may fail for lack of memory: raise the limit to at least ulimit -v 1617920 (more for large studies)"},
	} {
		if got := c.l.Warning(); got != c.want {
			t.Errorf("%s: Warning =\n%q, want\n%q", c.name, got, c.want)
		}
	}
}

func TestParseLimits(t *testing.T) {
	rd := func(s string) io.Reader {
		if s == "" {
			return nil
		}
		return strings.NewReader(s)
	}
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"max\n", 0},
		{"9223372036854771712\n", 0}, // cgroup v1's "none"
		{"2147483648\n", 2147483648},
		{"lots", 0},
		{"", 0},
	} {
		if got := parseCgroupLimit(rd(c.in)); got != c.want {
			t.Errorf("parseCgroupLimit(%q) = %d, want %d", c.in, got, c.want)
		}
	}
	const status = "Name:\teuroexec\nVmPeak:\t 2608980 kB\nVmSize:\t 1300000 kB\n"
	for _, c := range []struct {
		in, field string
		want      int64
	}{
		{status, "VmSize", 1300000 * 1024},
		{status, "VmRSS", 0},
		{"MemAvailable: lots kB\n", "MemAvailable", 0},
		{"MemTotal: 100 kB\nMemAvailable:   50 kB\n", "MemAvailable", 51200},
		{"", "MemAvailable", 0},
	} {
		if got := parseMeminfoKB(rd(c.in), c.field); got != c.want {
			t.Errorf("parseMeminfoKB(%q, %s) = %d, want %d", c.in, c.field, got, c.want)
		}
	}
}

func TestCgroupFiles(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"v2", "0::/user.slice/run-1.scope\n", []string{
			"/cg/user.slice/run-1.scope/memory.max", "/cg/memory.max", "/cg/memory/memory.limit_in_bytes"}},
		{"v1", "5:cpu,cpuacct:/a\n4:memory:/process_api/x\n0::/\n", []string{
			"/cg/memory.max", "/cg/memory.max", "/cg/memory/process_api/x/memory.limit_in_bytes", "/cg/memory/memory.limit_in_bytes"}},
		{"escape", "0::/../../etc\n", []string{"/cg/memory.max", "/cg/memory/memory.limit_in_bytes"}},
		{"unreadable", "", []string{"/cg/memory.max", "/cg/memory/memory.limit_in_bytes"}},
	} {
		var r io.Reader
		if c.in != "" {
			r = strings.NewReader(c.in)
		}
		if got := cgroupFiles(r, "/cg"); !slices.Equal(got, c.want) {
			t.Errorf("%s: cgroupFiles = %q, want %q", c.name, got, c.want)
		}
	}
}
