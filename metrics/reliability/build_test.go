package reliability

import (
	"fmt"
	"math"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/report"
)

// analyzePopulationPrev is analyzePopulation before the α rows were built
// alongside the κ and ICC rows (copied verbatim): the oracle of
// TestBuildAlongsideEqualsPrev and the baseline of BenchmarkBuild.
func (b *builder) analyzePopulationPrev(s *analysis.Study, p population, lo, hi int) ([]*row, []report.Note, int) {
	var rows []*row
	var notes []report.Note
	var icc2Missing []string
	dropped := 0
	labels := make([]int, 0, hi-lo+1)
	for v := lo; v <= hi; v++ {
		labels = append(labels, v)
	}
	add := func(inst string, rs []*row) {
		for _, r := range rs {
			r.instrument, r.population = inst, p.name
		}
		rows = append(rows, rs...)
	}
	// one instrument's ratings at a time, in space reused from one to the
	// next (the rows keep nothing of them) and freed with the population
	buf := &ratingsBuf{}
	for a, name := range s.Attributes {
		d := b.collectInto(buf, p, 0, func(g *scores.Grading, _ int) float64 {
			if a < len(g.Rubric) {
				return g.Rubric[a]
			}
			return math.NaN()
		})
		inst := "rubric:" + name
		rs := alphaRows(d, []string{AlphaNominal, AlphaOrdinal, AlphaInterval}, "units = responses")
		kr, nd := kappaRows(d, labelsOf(labels, lo), true)
		dropped += nd
		rs = append(rs, kr...)
		ir, why := iccRows(d)
		rs = append(rs, ir...)
		if why != "" {
			icc2Missing = append(icc2Missing, inst+": "+why)
		}
		add(inst, rs)
	}
	if len(s.Attributes) > 0 {
		d := b.collectInto(buf, p, 0, func(g *scores.Grading, _ int) float64 { return g.RubricMean })
		rs := alphaRows(d, []string{AlphaInterval}, "units = responses")
		ir, why := iccRows(d)
		rs = append(rs, ir...)
		if why != "" {
			icc2Missing = append(icc2Missing, "rubric_mean: "+why)
		}
		add("rubric_mean", rs)
	}
	if b.hasChecklist {
		d := b.collectInto(buf, p, b.maxItems, func(g *scores.Grading, it int) float64 {
			if it < len(g.Verdicts) {
				return verdictCode(g.Verdicts[it])
			}
			return math.NaN()
		})
		rs := alphaRows(d, []string{AlphaNominal}, "units = (response, checklist item); categories hit, partial, miss")
		kr, _ := kappaRows(d, labelsOf([]int{1, 2, 3}, 1), false)
		rs = append(rs, kr...)
		add("checklist", rs)
	}
	if len(icc2Missing) > 0 {
		notes = append(notes, report.Note{Table: TableName, Reason: fmt.Sprintf("%s: icc2_1 and icc2_k left out (%s)", p.name, summarizeWhy(icc2Missing))})
	}
	return rows, notes, dropped
}

// rowFields is a row without its replicate group, for comparing.
type rowFields struct {
	instrument, population, statistic string
	value                             uint64
	nUnits, nGraders                  int
	note                              string
	gi                                int
}

func fieldsOf(rs []*row) []rowFields {
	var out []rowFields
	for _, r := range rs {
		out = append(out, rowFields{r.instrument, r.population, r.statistic, math.Float64bits(r.value), r.nUnits, r.nGraders, r.note, r.gi})
	}
	return out
}

// popGroups returns the replicate groups of rows in their order.
func popGroups(rs []*row) []*repGroup {
	var gs []*repGroup
	seen := map[*repGroup]bool{}
	for _, r := range rs {
		if r.grp != nil && !seen[r.grp] {
			seen[r.grp] = true
			gs = append(gs, r.grp)
		}
	}
	return gs
}

// Every population's rows, notes, dropped count and replicate values are
// the same whether the α rows are built alongside the κ and ICC rows or
// after them, with one core or two.
func TestBuildAlongsideEqualsPrev(t *testing.T) {
	s := sampleStudy(200, 17)
	b := newBuilder(s, computeMain(s), s.MainRound)
	pops := []population{{name: "humans"}}
	for _, e := range b.evaluators {
		if b.kind[e] == analysis.Judge {
			pops = append(pops, population{name: "humans+judge:" + e, judge: e})
		}
	}
	for _, procs := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(procs)
		for _, p := range pops {
			got, gotNotes, gotDropped := b.analyzePopulation(s, p, wholeLabels(int(s.ScaleMin), int(s.ScaleMax)))
			want, wantNotes, wantDropped := b.analyzePopulationPrev(s, p, int(s.ScaleMin), int(s.ScaleMax))
			if !reflect.DeepEqual(fieldsOf(got), fieldsOf(want)) {
				t.Fatalf("GOMAXPROCS %d %s: rows differ:\ngot  %v\nwant %v", procs, p.name, fieldsOf(got), fieldsOf(want))
			}
			if !reflect.DeepEqual(gotNotes, wantNotes) || gotDropped != wantDropped {
				t.Errorf("GOMAXPROCS %d %s: notes %v, dropped %d; want %v, %d", procs, p.name, gotNotes, gotDropped, wantNotes, wantDropped)
			}
			gg, wg := popGroups(got), popGroups(want)
			if len(gg) != len(wg) || len(gg) < 10 {
				t.Fatalf("%s: %d replicate groups, want %d (at least 10)", p.name, len(gg), len(wg))
			}
			gr := popBootstrap(t, gg, len(b.questions), 64, 3, repBlock, false)
			wr := popBootstrap(t, wg, len(b.questions), 64, 3, repBlock, false)
			for i := range wr {
				for j := range wr[i] {
					if g, w := gr[i][j], wr[i][j]; math.Float64bits(g) != math.Float64bits(w) {
						t.Fatalf("%s replicate %d column %d: got %v, want %v", p.name, i, j, g, w)
					}
				}
			}
		}
		runtime.GOMAXPROCS(prev)
	}
}

// BenchmarkBuild builds every population's rows of sampleStudy
// (EUROEXEC_BENCH_QUESTIONS questions, default 20,000) with the α rows
// alongside the κ and ICC rows (new) and after them (prev), in one run,
// reporting the wall seconds (ns/op) and the CPU seconds.
func BenchmarkBuild(b *testing.B) {
	nQ := 20000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		nQ = v
	}
	s := sampleStudy(nQ, 5)
	bl := newBuilder(s, computeMain(s), s.MainRound)
	pops := []population{{name: "humans"}}
	for _, e := range bl.evaluators {
		if bl.kind[e] == analysis.Judge {
			pops = append(pops, population{name: "humans+judge:" + e, judge: e})
		}
	}
	for _, prev := range []bool{true, false} {
		name := "new"
		if prev {
			name = "prev"
		}
		b.Run(name, func(b *testing.B) {
			c0 := cpuSeconds()
			t0 := time.Now()
			for b.Loop() {
				for _, p := range pops {
					if prev {
						bl.analyzePopulationPrev(s, p, int(s.ScaleMin), int(s.ScaleMax))
					} else {
						bl.analyzePopulation(s, p, wholeLabels(int(s.ScaleMin), int(s.ScaleMax)))
					}
				}
			}
			b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
			b.ReportMetric(time.Since(t0).Seconds()/float64(b.N), "wall-s/op")
		})
	}
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
