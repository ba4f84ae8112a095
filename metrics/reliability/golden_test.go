package reliability

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/study"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/analyze_golden.txt from the current code")

// wideStudy is synthStudy with the rubric stretched from 1…5 to 1…10 (2v −
// 1, plus 1 on every other score): with the averaged runs' half points an
// attribute has 19 distinct values, more than smallV (the ordinal
// replicates' wide layout).
func wideStudy(nQ int, seed uint64) *study.Study {
	s := synthStudy(nQ, seed)
	s.ScaleMax = 10
	for i := range s.Gradings {
		for a, v := range s.Gradings[i].Rubric {
			s.Gradings[i].Rubric[a] = 2*v - 1 + float64((i+a)%2)
		}
	}
	return s
}

// goldenRows renders every row of Analyze on the golden studies with the
// numbers' exact bits.
func goldenRows(t *testing.T) string {
	t.Helper()
	var sb strings.Builder
	for _, c := range []struct {
		name string
		s    *study.Study
	}{
		{"synth 300", synthStudy(300, 21)},
		{"wide 200", wideStudy(200, 22)},
		{"krippendorff C", studyFromMatrix(krippC(), 1, 5, nil)},
	} {
		opt := DefaultOptions()
		opt.Bootstrap, opt.Seed = 200, 5
		res := analyze(t, c.s, opt)
		bits := func(v float64) string {
			if math.IsNaN(v) {
				return "NaN"
			}
			return fmt.Sprintf("%016x", math.Float64bits(v))
		}
		fmt.Fprintf(&sb, "# %s: %d rows; warnings %q; notes %v\n", c.name, len(res.Rows), res.Warnings, res.Notes)
		for _, r := range res.Rows {
			fmt.Fprintf(&sb, "%s|%s|%s|%s|%d|%d|%s|%s|%s\n", r.Instrument, r.Population, r.Statistic,
				bits(r.Value), r.Units, r.Graders, bits(r.Lo), bits(r.Hi), r.Note)
		}
	}
	return sb.String()
}

// TestAnalyzeGolden is a change detector, not an oracle: every row of
// Analyze (values, units, graders, interval ends, notes) on a generated
// study, a wide-scale one and Krippendorff's example C, bit for bit, as
// recorded in testdata (rewrite it with -update-golden only when the
// numbers are meant to change; the oracles are the published values and
// TestKernelsEqualStatsOnResamples).
func TestAnalyzeGolden(t *testing.T) {
	got := goldenRows(t)
	const file = "testdata/analyze_golden.txt"
	if *updateGolden {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got == string(want) {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Errorf("line %d:\n got  %s\n want %s", i+1, gl, wl)
		}
	}
}
