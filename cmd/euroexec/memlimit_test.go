package main

import (
	"runtime/debug"
	"testing"
)

func TestSetMemoryLimitHonoursGOMEMLIMIT(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	env := func(k string) string {
		if k == "GOMEMLIMIT" {
			return "100MiB"
		}
		return ""
	}
	if got := setMemoryLimit(env, 1000<<10); got != 0 {
		t.Errorf("with GOMEMLIMIT set: limit %d, want 0 (left to the runtime)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != old {
		t.Errorf("with GOMEMLIMIT set the limit changed to %d", got)
	}
	none := func(string) string { return "" }
	if got := setMemoryLimit(none, 0); got != 0 {
		t.Errorf("nothing known: limit %d, want 0 (left to the runtime)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != old {
		t.Errorf("nothing known: the limit changed to %d", got)
	}
	if got := setMemoryLimit(none, 6000000*1024); got != 6000000*1024 {
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
