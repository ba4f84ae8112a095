package main

import (
	"bufio"
	"io"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// memLimitShare is the share of the machine's memory (or of the container's
// cgroup limit, when lower) given to the Go heap as a soft limit. DuckDB's
// own memory is limited in ingest and released before the analyses run, so
// the soft limit only guards against running out of memory; it must not make
// the garbage collector run continuously on a large study.
const memLimitShare = 0.75

// setMemoryLimit sets the Go soft memory limit from the machine's memory,
// unless the user set GOMEMLIMIT (which the Go runtime then honours as it
// is). It returns the limit set, or 0 when it left the runtime's own.
func setMemoryLimit(getenv func(string) string, meminfo, cgroup io.Reader) int64 {
	if getenv("GOMEMLIMIT") != "" {
		return 0
	}
	lim := memoryLimit(meminfo, cgroup)
	if lim <= 0 {
		return 0
	}
	debug.SetMemoryLimit(lim)
	return lim
}

// memoryLimit is memLimitShare of the smaller of MemTotal in /proc/meminfo
// and the cgroup v2 memory.max; 0 when neither is known.
func memoryLimit(meminfo, cgroup io.Reader) int64 {
	total := int64(0)
	if meminfo != nil {
		sc := bufio.NewScanner(meminfo)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil && kb > 0 && kb < math.MaxInt64/1024 {
					total = kb * 1024
				}
				break
			}
		}
	}
	if cgroup != nil {
		b, _ := io.ReadAll(io.LimitReader(cgroup, 64))
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 && (total == 0 || v < total) {
			total = v
		}
	}
	return int64(float64(total) * memLimitShare)
}

// openOrNil opens a file for reading, nil when it cannot be read.
func openOrNil(path string) io.Reader {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(f, 1<<16))
	f.Close()
	if err != nil {
		return nil
	}
	return strings.NewReader(string(b))
}

// gcPercent is pipeline.Options.GCPercent for `euroexec run`: the
// pipeline's default, unless the user set GOGC, which the Go runtime read
// at start and which then stands (-1: leave it alone).
func gcPercent(getenv func(string) string) int {
	if getenv("GOGC") != "" {
		return -1
	}
	return 0
}
