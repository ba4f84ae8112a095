package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseStatusKB(t *testing.T) {
	const status = "Name:\teuroexec\nVmPeak:\t 999 kB\nVmHWM:\t   12345 kB\nVmRSS:\t 100 kB\n"
	for _, c := range []struct {
		in, field string
		want      int64
	}{
		{status, "VmHWM", 12345},
		{status, "VmRSS", 100},
		{"Name:\tx\n", "VmRSS", 0},
		{"VmRSS:\n", "VmRSS", 0},
	} {
		if got := parseStatusKB(strings.NewReader(c.in), c.field); got != c.want {
			t.Errorf("parseStatusKB(%q, %s) = %d, want %d", c.in, c.field, got, c.want)
		}
	}
}

// The sampler's take returns the largest value read since the last take,
// the value at the take included, and starts again from that value.
func TestRSSSamplerTake(t *testing.T) {
	var mu sync.Mutex
	v := int64(10)
	set := func(x int64) { mu.Lock(); v = x; mu.Unlock() }
	read := func() int64 { mu.Lock(); defer mu.Unlock(); return v }
	s := startRSSSampler(time.Hour, read) // no tick: note by hand
	defer s.stop()
	s.note(50)
	set(20)
	if got := s.take(); got != 50 {
		t.Errorf("first take = %d, want 50 (the peak noted)", got)
	}
	set(30)
	if got := s.take(); got != 30 {
		t.Errorf("second take = %d, want 30 (the value now, above the 20 it started from)", got)
	}
	set(5)
	if got := s.take(); got != 30 {
		t.Errorf("third take = %d, want 30 (the value it started from)", got)
	}
}

func TestStageClock(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ticks := []time.Duration{0, 1500 * time.Millisecond, 4 * time.Second}
	i := 0
	c := newStageClock(func() time.Time { d := ticks[i]; i++; return t0.Add(d) })
	c.next("load")
	c.next("analyse")
	c.next("")
	if len(c.stats) != 2 || c.stats[0].name != "load" || c.stats[0].wall != 1500*time.Millisecond || c.stats[1].wall != 2500*time.Millisecond {
		t.Fatalf("stats %+v, want load 1.5 s and analyse 2.5 s", c.stats)
	}
	var b bytes.Buffer
	c.write(&b)
	for _, want := range []string{"load", "1.50", "analyse", "2.50", "total", "4.00"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

// run --stats on the bundled sample prints one line per stage with a peak
// RSS in MiB (this machine has /proc).
func TestRunStats(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"run", "-q", "--stats", "-o", out}); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	for _, st := range []string{"load", "read back", "analyse", "analyse beyond the paper", "write tables, workbook and site", "total"} {
		re := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(st) + `\s+\d+\.\d\d\s+\d+\.\d\d\s+\d+\s*$`)
		if !re.MatchString(stderr.String()) {
			t.Errorf("no stats line for %q in:\n%s", st, stderr.String())
		}
	}
}
