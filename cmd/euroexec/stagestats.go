package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/euroexec/euroexec/internal/duckopen"
)

// stageStat is what `run --stats` reports for one stage.
type stageStat struct {
	name   string
	wall   time.Duration
	cpu    time.Duration // user + system, all threads
	peakKB int64         // peak resident set size during the stage; 0 when unknown
}

// stageClock measures the stages of a run: each call to next ends the
// current stage and starts another. The peak RSS of a stage is the largest
// resident set size a sampler goroutine read (VmRSS, every rssEvery) during
// the stage, with the RSS at its start and end; the total line's peak is
// the process's own high-water mark (getrusage's ru_maxrss, which
// /usr/bin/time and a parent's wait4 report too). The kernel's high-water
// mark is never reset, so an outside measurement of the process sees its
// true peak.
type stageClock struct {
	now     func() time.Time
	name    string
	start   time.Time
	cpu0    time.Duration
	stats   []stageStat
	sampler *rssSampler
}

// rssEvery is how often the sampler reads the resident set size.
const rssEvery = 5 * time.Millisecond

func newStageClock(now func() time.Time) *stageClock { return &stageClock{now: now} }

// next ends the running stage (if any) and starts name ("" ends the last
// and stops the sampler).
func (c *stageClock) next(name string) {
	t, cpu := c.now(), processCPU()
	if c.sampler == nil && name != "" {
		c.sampler = startRSSSampler(rssEvery, residentKB)
	}
	peak := int64(0)
	if c.sampler != nil {
		peak = c.sampler.take()
	}
	if c.name != "" {
		c.stats = append(c.stats, stageStat{name: c.name, wall: t.Sub(c.start), cpu: cpu - c.cpu0, peakKB: peak})
	}
	if name == "" && c.sampler != nil {
		c.sampler.stop()
		c.sampler = nil
	}
	c.name, c.start, c.cpu0 = name, t, cpu
}

// rssSampler records the largest resident set size read since the last
// take.
type rssSampler struct {
	read func() int64
	peak atomic.Int64
	quit chan struct{}
	done chan struct{}
}

// startRSSSampler starts a goroutine that calls read (kB) every interval.
func startRSSSampler(every time.Duration, read func() int64) *rssSampler {
	s := &rssSampler{read: read, quit: make(chan struct{}), done: make(chan struct{})}
	s.peak.Store(read())
	go func() {
		defer close(s.done)
		tk := time.NewTicker(every)
		defer tk.Stop()
		for {
			select {
			case <-s.quit:
				return
			case <-tk.C:
				s.note(s.read())
			}
		}
	}()
	return s
}

// note raises the peak to kb.
func (s *rssSampler) note(kb int64) {
	for {
		p := s.peak.Load()
		if kb <= p || s.peak.CompareAndSwap(p, kb) {
			return
		}
	}
}

// take returns the peak since the last take (the RSS now included) and
// starts the next from the RSS now.
func (s *rssSampler) take() int64 {
	now := s.read()
	return max(s.peak.Swap(now), now)
}

// stop ends the sampling goroutine.
func (s *rssSampler) stop() {
	close(s.quit)
	<-s.done
}

// write prints the stages as a table, with a total line (peak: the
// process's high-water mark so far, as getrusage reports it; the largest
// stage peak where that is unknown).
func (c *stageClock) write(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "stage\twall s\tCPU s\tpeak RSS MiB\t")
	var tot stageStat
	for _, s := range c.stats {
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%s\t\n", s.name, s.wall.Seconds(), s.cpu.Seconds(), mib(s.peakKB))
		tot.wall += s.wall
		tot.cpu += s.cpu
		tot.peakKB = max(tot.peakKB, s.peakKB)
	}
	if hwm := maxRSSKB(); hwm > 0 {
		tot.peakKB = hwm
	}
	fmt.Fprintf(tw, "total\t%.2f\t%.2f\t%s\t\n", tot.wall.Seconds(), tot.cpu.Seconds(), mib(tot.peakKB))
	tw.Flush()
}

func mib(kb int64) string {
	if kb <= 0 {
		return "?"
	}
	return fmt.Sprintf("%.0f", float64(kb)/1024)
}

// processCPU is the user + system CPU time of the process.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// maxRSSKB is the process's peak resident set size in kB (getrusage's
// ru_maxrss, kB on Linux); 0 when unavailable.
func maxRSSKB() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Maxrss)
}

// residentKB reads VmRSS from /proc/self/status; 0 when unavailable.
func residentKB() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	return parseStatusKB(f, "VmRSS")
}

// parseStatusKB returns the field (VmRSS, VmHWM, …) of a /proc/PID/status
// text in kB; 0 when absent.
func parseStatusKB(r io.Reader, field string) int64 {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			f := strings.Fields(v)
			if len(f) >= 1 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n
			}
		}
	}
	return 0
}

// limitsLine is what `run --stats` prints of the limits in force: the
// memory budget and where it comes from, DuckDB's memory limit and
// threads, its temporary folder, and the Go soft limit (GOMEMLIMIT's when
// the user set it).
func limitsLine(l duckopen.Limits, getenv func(string) string) string {
	goLim := "none"
	if v := getenv("GOMEMLIMIT"); v != "" {
		goLim = "GOMEMLIMIT=" + v
	} else if l.GoMemory > 0 {
		goLim = fmt.Sprintf("%.0f MiB", float64(l.GoMemory)/(1<<20))
	}
	duck := "DuckDB's default"
	if l.DuckDBMemory > 0 {
		duck = fmt.Sprintf("%.0f MiB", float64(l.DuckDBMemory)/(1<<20))
	}
	budget := "unknown"
	if l.Budget > 0 {
		budget = fmt.Sprintf("%.0f MiB from %s", float64(l.Budget)/(1<<20), l.Source)
	}
	arenas := ""
	if duckopen.MallocArenasCapped() {
		arenas = "; malloc arenas capped at 2"
	}
	return fmt.Sprintf("limits: memory budget %s; DuckDB memory_limit %s, threads %d, temp_directory a new folder in %s; Go soft limit %s%s",
		budget, duck, l.Threads, os.TempDir(), goLim, arenas)
}
