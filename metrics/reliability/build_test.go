package reliability

import (
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkBuild builds every population's rows of sampleStudy
// (EUROEXEC_BENCH_QUESTIONS questions, default 20,000), reporting the wall
// seconds and the CPU seconds.
func BenchmarkBuild(b *testing.B) {
	nQ := 20000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		nQ = v
	}
	s := sampleStudy(nQ, 5)
	bl := newBuilder(s, computeMain(s), s.MainRound)
	pops := studyPopulations(bl)
	c0 := cpuSeconds()
	t0 := time.Now()
	for b.Loop() {
		for _, p := range pops {
			bl.analyzePopulation(s, p, wholeLabels(int(s.ScaleMin), int(s.ScaleMax)))
		}
	}
	b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
	b.ReportMetric(time.Since(t0).Seconds()/float64(b.N), "wall-s/op")
}

// cpuSeconds is the process's user and system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return math.NaN()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// labelsOf is the whole-point scale of labels, consecutive from lo.
func labelsOf(labels []int, lo int) labelScale { return wholeLabels(lo, lo+len(labels)-1) }

func TestStepLabels(t *testing.T) {
	tests := []struct {
		name         string
		lo, hi, step float64
		v            float64
		want         int
		points       int64
		describe     string
	}{
		{"whole point", 1, 5, 1, 4, 3, 5, "labels 1…5"},
		{"whole, not a point", 1, 5, 1, 3.5, -1, 5, "labels 1…5"},
		{"tenth", 0, 25, 0.1, 0.3, 3, 251, "labels 0…25 in steps of 0.1"},
		{"tenth, top", 0, 25, 0.1, 25, 250, 251, "labels 0…25 in steps of 0.1"},
		{"tenth, averaged judge", 0, 25, 0.1, 0.15, -1, 251, "labels 0…25 in steps of 0.1"},
		{"half, below", 1, 5, 0.5, 0.5, -1, 9, "labels 1…5 in steps of 0.5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Helper()
			ls := stepLabels(tc.lo, tc.hi, tc.step)
			if got := ls.index(tc.v); got != tc.want {
				t.Errorf("index(%v) = %d, want %d", tc.v, got, tc.want)
			}
			if ls.points != tc.points || int64(len(ls.labels)) != tc.points {
				t.Errorf("points %d, labels %d; want %d", ls.points, len(ls.labels), tc.points)
			}
			if got := ls.describe(); got != tc.describe {
				t.Errorf("describe() = %q, want %q", got, tc.describe)
			}
		})
	}
	// a scale wider than maxKappaLabels leaves κ out, with a note, holding no labels
	wide := stepLabels(0, 100000, 1)
	if wide.labels != nil || wide.points != 100001 {
		t.Fatalf("wide scale: %d labels, %d points", len(wide.labels), wide.points)
	}
	rows, _ := kappaRows(ratings{graders: []string{"a", "b"}}, wide, true)
	if len(rows) != 2 || !math.IsNaN(rows[0].value) || !strings.Contains(rows[0].note, "the scale has 100001 points") {
		t.Fatalf("wide scale rows: %+v", rows)
	}
}
