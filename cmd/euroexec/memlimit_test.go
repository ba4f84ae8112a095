package main

import (
	"io"
	"runtime/debug"
	"strings"
	"testing"
)

func TestMemoryLimit(t *testing.T) {
	const meminfo = "MemTotal:       16384000 kB\nMemFree:        1000 kB\n"
	for _, c := range []struct {
		name            string
		meminfo, cgroup string
		want            int64
	}{
		{"machine", meminfo, "", 16384000 * 1024 * 3 / 4},
		{"cgroup max means none", meminfo, "max\n", 16384000 * 1024 * 3 / 4},
		{"cgroup lower", meminfo, "4294967296\n", 3 << 30},
		{"cgroup higher than machine", meminfo, "99999999999999\n", 16384000 * 1024 * 3 / 4},
		{"nothing known", "", "", 0},
		{"garbage", "MemTotal: lots kB\n", "x", 0},
	} {
		var mi, cg io.Reader
		if c.meminfo != "" {
			mi = strings.NewReader(c.meminfo)
		}
		if c.cgroup != "" {
			cg = strings.NewReader(c.cgroup)
		}
		if got := memoryLimit(mi, cg); got != c.want {
			t.Errorf("%s: memoryLimit = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestSetMemoryLimitHonoursGOMEMLIMIT(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	env := func(k string) string {
		if k == "GOMEMLIMIT" {
			return "100MiB"
		}
		return ""
	}
	if got := setMemoryLimit(env, strings.NewReader("MemTotal: 1000 kB\n"), nil); got != 0 {
		t.Errorf("with GOMEMLIMIT set: limit %d, want 0 (left to the runtime)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != old {
		t.Errorf("with GOMEMLIMIT set the limit changed to %d", got)
	}
	none := func(string) string { return "" }
	if got := setMemoryLimit(none, strings.NewReader("MemTotal: 8000000 kB\n"), nil); got != 6000000*1024 {
		t.Errorf("limit = %d, want %d", got, 6000000*1024)
	}
	if got := debug.SetMemoryLimit(-1); got != 6000000*1024 {
		t.Errorf("runtime limit = %d, want %d", got, 6000000*1024)
	}
}

func TestGCPercentHonoursGOGC(t *testing.T) {
	for _, c := range []struct {
		gogc string
		want int
	}{
		{"", 0},     // the pipeline's default
		{"100", -1}, // the user's setting stands
		{"off", -1},
	} {
		env := func(k string) string {
			if k == "GOGC" {
				return c.gogc
			}
			return ""
		}
		if got := gcPercent(env); got != c.want {
			t.Errorf("GOGC=%q: gcPercent = %d, want %d", c.gogc, got, c.want)
		}
	}
}
