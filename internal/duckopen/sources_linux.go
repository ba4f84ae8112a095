//go:build linux

package duckopen

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// ReadSources reads the limits of the running process: RLIMIT_AS, VmSize
// of /proc/self/status, the smallest memory limit of the cgroup files of
// /proc/self/cgroup, MemAvailable of /proc/meminfo and the CPUs.
func ReadSources() Sources {
	s := Sources{CPUs: cpus()}
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_AS, &rl); err == nil && rl.Cur != unix.RLIM_INFINITY && rl.Cur < 1<<62 {
		s.AddressSpace = int64(rl.Cur)
		s.VmSize = parseMeminfoKB(readFile("/proc/self/status"), "VmSize")
	}
	for _, f := range cgroupFiles(readFile("/proc/self/cgroup"), "/sys/fs/cgroup") {
		if v := parseCgroupLimit(readFile(f)); v > 0 && (s.Cgroup == 0 || v < s.Cgroup) {
			s.Cgroup, s.CgroupFile = v, f
		}
	}
	s.MemAvailable = parseMeminfoKB(readFile("/proc/meminfo"), "MemAvailable")
	return s
}

// readFile returns the start of a small system file, nil when it cannot
// be read.
func readFile(path string) io.Reader {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<16))
	if err != nil || len(b) == 0 {
		return nil
	}
	return bytes.NewReader(b)
}
