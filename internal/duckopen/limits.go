package duckopen

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// Sources are what the process may use, as read from the system (see
// ReadSources); a zero field is unknown or unlimited.
type Sources struct {
	// AddressSpace is the soft RLIMIT_AS (`ulimit -v`) in bytes.
	AddressSpace int64
	// VmSize is the process's address space in use when read (the Go
	// runtime's reservations and the mapped binary among it), in bytes.
	VmSize int64
	// Cgroup is the memory limit of the process's cgroup in bytes, and
	// CgroupFile the file it was read from.
	Cgroup     int64
	CgroupFile string
	// MemAvailable is /proc/meminfo's MemAvailable in bytes.
	MemAvailable int64
	// CPUs is the number of CPUs the process may run on.
	CPUs int
}

// Limits are the limits the process runs with, from Compute.
type Limits struct {
	// Budget is the memory the process may use, in bytes (0 unknown), and
	// Source says which limit it comes from.
	Budget int64
	Source string
	// DuckDBMemory is DuckDB's memory_limit in bytes (0: DuckDB's own).
	DuckDBMemory int64
	// Threads is DuckDB's thread count.
	Threads int
	// GoMemory is the Go runtime's soft memory limit in bytes (0: none
	// set here).
	GoMemory int64
	// AddressSpace is the address-space limit (RLIMIT_AS) in bytes, 0 for
	// none, and AddressSpaceLeft what it leaves (negative when less than
	// the reserve is left).
	AddressSpace, AddressSpaceLeft int64
}

const (
	// asReserve is kept out of the address-space budget for what neither
	// DuckDB's memory limit nor Go's counts: thread stacks and the C
	// allocator's arenas (two: see MallocArenasCapped).
	asReserve = 128 << 20
	// duckShare and goShare are the shares of the budget given to DuckDB's
	// memory limit and to the Go runtime's soft limit: together the whole
	// budget, since both can be at their peak at once (read back holds the
	// study in Go while DuckDB scans).
	duckShare = 0.4
	goShare   = 0.6
	// minDuckDBMemory is the smallest memory limit given to DuckDB.
	minDuckDBMemory = 64 << 20
	// perThread is the budget per DuckDB thread: fewer threads than CPUs
	// when the budget is small, since every thread holds buffers of its own.
	perThread = 256 << 20
)

// Compute derives the limits from s. The budget is the smallest of
//
//   - the address space left: RLIMIT_AS minus the address space in use
//     (VmSize, read first thing in main) minus 128 MiB for thread stacks
//     and the C allocator's arenas;
//   - the cgroup's memory limit (v2 memory.max, v1 memory.limit_in_bytes);
//   - MemAvailable.
//
// DuckDB's memory_limit is 40 % of the budget (at least 64 MiB), the Go
// soft limit 60 %, and DuckDB gets a thread per 256 MiB of the budget, at
// least one and at most one per CPU. With no budget known DuckDB keeps its
// own defaults and no Go limit is set.
func Compute(s Sources) Limits {
	l := Limits{Threads: max(s.CPUs, 1), AddressSpace: s.AddressSpace}
	take := func(v int64, src string) {
		if v > 0 && (l.Budget == 0 || v < l.Budget) {
			l.Budget, l.Source = v, src
		}
	}
	if s.AddressSpace > 0 {
		room := s.AddressSpace - s.VmSize - asReserve
		l.AddressSpaceLeft = room
		take(max(room, 1), fmt.Sprintf("RLIMIT_AS %s", mibText(s.AddressSpace)))
	}
	take(s.Cgroup, s.CgroupFile)
	take(s.MemAvailable, "MemAvailable")
	if l.Budget == 0 {
		return l
	}
	l.DuckDBMemory = max(int64(float64(l.Budget)*duckShare), minDuckDBMemory)
	l.GoMemory = int64(float64(l.Budget) * goShare)
	l.Threads = int(max(min(l.Budget/perThread, int64(l.Threads)), 1))
	return l
}

// minAddressSpaceLeft is the address space below which Warning warns: the
// bundled sample needs some 250 MiB beyond what is mapped at start.
const minAddressSpaceLeft = 256 << 20

// Warning is a warning for the user when the address-space limit leaves
// too little room to run in, else "".
func (l Limits) Warning() string {
	if l.AddressSpace <= 0 || l.AddressSpaceLeft >= minAddressSpaceLeft {
		return ""
	}
	need := l.AddressSpace - l.AddressSpaceLeft + minAddressSpaceLeft
	return fmt.Sprintf("the address-space limit (ulimit -v %d) leaves %s beyond what euroexec maps at start and a reserve of %s for threads; "+
		"it may fail for lack of memory: raise the limit to at least ulimit -v %d (more for large studies)",
		l.AddressSpace>>10, mibText(max(l.AddressSpaceLeft, 0)), mibText(asReserve), (need+1023)>>10)
}

func mibText(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

var (
	currentOnce sync.Once
	current     Limits
)

// Current is Compute(ReadSources()), read once per process: on the first
// call, which main makes first thing, before the address space grows.
func Current() Limits {
	currentOnce.Do(func() { current = Compute(ReadSources()) })
	return current
}

// SetCurrent makes l the limits Current returns, if Current was not
// called yet; it reports whether it did. Tests use it to run under a given
// budget.
func SetCurrent(l Limits) bool {
	set := false
	currentOnce.Do(func() { current, set = l, true })
	return set
}

// parseMeminfoKB returns the field of a /proc/meminfo or /proc/PID/status
// text ("Name:   123 kB") in bytes; 0 when absent or not a number.
func parseMeminfoKB(r io.Reader, field string) int64 {
	if r == nil {
		return 0
	}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		v, ok := strings.CutPrefix(sc.Text(), field+":")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			return 0
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb <= 0 || kb > math.MaxInt64/1024 {
			return 0
		}
		return kb * 1024
	}
	return 0
}

// parseCgroupLimit reads a cgroup memory limit file: a number of bytes, or
// "max" (v2) or a value near 2^63 (v1) for none; 0 for none or unreadable.
func parseCgroupLimit(r io.Reader) int64 {
	if r == nil {
		return 0
	}
	b, _ := io.ReadAll(io.LimitReader(r, 64))
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || v <= 0 || v >= 1<<62 {
		return 0
	}
	return v
}

// cgroupFiles lists the memory limit files of the cgroups in a
// /proc/self/cgroup text, under root (/sys/fs/cgroup): the process's own
// cgroup's and the namespace root's, v2 then v1.
func cgroupFiles(r io.Reader, root string) []string {
	var v2, v1 []string
	if r != nil {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			f := strings.SplitN(sc.Text(), ":", 3)
			if len(f) != 3 || strings.Contains(f[2], "..") {
				continue
			}
			switch {
			case f[0] == "0" && f[1] == "":
				v2 = append(v2, root+strings.TrimSuffix(f[2], "/")+"/memory.max")
			case hasController(f[1], "memory"):
				v1 = append(v1, root+"/memory"+strings.TrimSuffix(f[2], "/")+"/memory.limit_in_bytes")
			}
		}
	}
	v2 = append(v2, root+"/memory.max")
	v1 = append(v1, root+"/memory/memory.limit_in_bytes")
	return append(v2, v1...)
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// cpus is the number of CPUs the process may run on.
func cpus() int { return runtime.GOMAXPROCS(0) }
