package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
)

// stageStat is what `run --stats` reports for one stage.
type stageStat struct {
	name   string
	wall   time.Duration
	cpu    time.Duration // user + system, all threads
	peakKB int64         // peak resident set size during the stage; 0 when unknown
}

// stageClock measures the stages of a run: each call to next ends the
// current stage and starts another. The peak RSS of a stage is the
// process's high-water mark (VmHWM in /proc/self/status), reset at the
// start of every stage by writing 5 to /proc/self/clear_refs; where that
// file cannot be written the mark covers the run so far. The reset also
// changes what the kernel reports as the process's maximum RSS at exit
// (getrusage, /usr/bin/time): with --stats, the total line is the run's
// peak.
type stageClock struct {
	now   func() time.Time
	name  string
	start time.Time
	cpu0  time.Duration
	stats []stageStat
}

func newStageClock(now func() time.Time) *stageClock { return &stageClock{now: now} }

// next ends the running stage (if any) and starts name ("" ends the last;
// the mark is then left as it is, so that the last stage's peak is what
// the kernel reports at exit, e.g. to /usr/bin/time).
func (c *stageClock) next(name string) {
	t, cpu := c.now(), processCPU()
	if c.name != "" {
		c.stats = append(c.stats, stageStat{name: c.name, wall: t.Sub(c.start), cpu: cpu - c.cpu0, peakKB: peakRSSKB()})
	}
	if name != "" {
		resetPeakRSS()
	}
	c.name, c.start, c.cpu0 = name, t, cpu
}

// write prints the stages as a table, with a total line (peak: the largest
// stage peak).
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

// peakRSSKB reads VmHWM from /proc/self/status; 0 when unavailable.
func peakRSSKB() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	return parseVmHWM(f)
}

// parseVmHWM returns the VmHWM field of a /proc/PID/status text in kB.
func parseVmHWM(r io.Reader) int64 {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			f := strings.Fields(v)
			if len(f) >= 1 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n
			}
		}
	}
	return 0
}

// resetPeakRSS resets the process's RSS high-water mark to its current RSS
// (Linux ≥ 4.0); errors are ignored.
func resetPeakRSS() {
	if f, err := os.OpenFile("/proc/self/clear_refs", os.O_WRONLY, 0); err == nil {
		f.WriteString("5")
		f.Close()
	}
}
