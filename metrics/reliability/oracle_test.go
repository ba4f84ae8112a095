package reliability

import (
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// The oracle of the replicate kernels: a bootstrap replicate is the study
// with each question repeated as often as it was drawn, so its statistic
// must equal the point statistic of that duplicated data — computed by
// metrics/stats (KrippendorffAlphaDetail, CohenKappaDetail, ICC), which
// the kernels do not use and which are themselves checked against
// Krippendorff's, Shrout & Fleiss's and scikit-learn's published values.

// dupRatings returns d with question q's units repeated cnt[q] times.
func dupRatings(d ratings, cnt []int) ratings {
	dup := ratings{graders: d.graders}
	for q, c := range cnt {
		for range c {
			for _, u := range d.units {
				if u.q == q {
					dup.units = append(dup.units, u)
				}
			}
		}
	}
	return dup
}

// dupRef returns a replicate function that evaluates rows (alphaRows,
// kappaRows or iccRows of d) on the duplicated data: the point values,
// which come from metrics/stats, each at its output of the replicate
// group. An output no row reports (ICC(2,·) when the graders differ
// between units) stays NaN: checkReplicates leaves it out.
func dupRef(d ratings, rows func(ratings) []*row) func(cnt []int, out []float64) {
	return func(cnt []int, out []float64) {
		for i := range out {
			out[i] = math.NaN()
		}
		for i, r := range rows(dupRatings(d, cnt)) {
			if r.grp != nil {
				i = r.gi
			}
			out[i] = r.value
		}
	}
}

// refBootstrap evaluates the reference functions fns (widths[i] outputs
// each) on every replicate of stats.ClusterBootstrap: the draws of the
// counts engine's replicate r are those of its PCG stream (seed, r).
func refBootstrap(fns []func(cnt []int, out []float64), widths []int, nQ, B int, seed uint64) [][]float64 {
	total := 0
	for _, w := range widths {
		total += w
	}
	return stats.ClusterBootstrap(nQ, B, seed, total, func(idx []int, out []float64) {
		cnt := make([]int, nQ)
		for _, q := range idx {
			cnt[q]++
		}
		o := 0
		for i, f := range fns {
			f(cnt, out[o:o+widths[i]])
			o += widths[i]
		}
	})
}

// checkReplicates fails unless got equals want to 1e-9 relative (NaN
// equal to NaN) with most values finite, in the columns reported.
func checkReplicates(t *testing.T, name string, got, want [][]float64, reported []bool) {
	t.Helper()
	finite, all := 0, 0
	for r := range want {
		for j := range want[r] {
			if !reported[j] {
				continue
			}
			g, w := got[r][j], want[r][j]
			all++
			if math.IsNaN(g) && math.IsNaN(w) {
				continue
			}
			if math.IsNaN(g) != math.IsNaN(w) || math.Abs(g-w) > 1e-9*math.Max(1, math.Abs(w)) {
				t.Fatalf("%s replicate %d column %d: kernel %v, stats on the duplicated data %v", name, r, j, g, w)
			}
			finite++
		}
	}
	if finite < all/2 {
		t.Errorf("%s: only %d of %d replicate values finite; the comparison says little", name, finite, all)
	}
}

// populationGroups returns, per population of s (humans, then humans with
// each judge), the replicate groups of its rows, as Analyze bootstraps them.
func populationGroups(s *study.Study) ([][]*repGroup, int) {
	b := newBuilder(s, computeMain(s), s.MainRound)
	var out [][]*repGroup
	for _, p := range studyPopulations(b) {
		rows, _, _ := b.analyzePopulation(s, p, wholeLabels(int(s.ScaleMin), int(s.ScaleMax)))
		var gs []*repGroup
		for _, r := range rows {
			if r.grp != nil && !slices.Contains(gs, r.grp) {
				gs = append(gs, r.grp)
			}
		}
		out = append(out, gs)
	}
	return out, len(b.questions)
}

// studyPopulations are humans, then humans with each judge.
func studyPopulations(b *builder) []population {
	pops := []population{{name: "humans"}}
	for _, e := range b.evaluators {
		if b.kind[e] == study.Judge {
			pops = append(pops, population{name: "humans+judge:" + e, judge: e})
		}
	}
	return pops
}

// TestKernelsEqualStatsOnResamples: on every (population, instrument) of
// two generated studies — five 1…5 rubric attributes at the nominal,
// ordinal and interval levels, κ and weighted κ, ICC, the rubric mean with
// judges' half points (about 25 values), the checklist — every replicate
// of the kernels equals metrics/stats on the duplicated data, with one
// core and two, block sizes 1, 7 and the default, and with the ordinal
// entries typed and untyped (maxOrdTypes = 0).
func TestKernelsEqualStatsOnResamples(t *testing.T) {
	if testing.Short() {
		t.Skip("stats on every replicate's duplicated data")
	}
	const B = 40
	for _, untyped := range []bool{false, true} {
		if untyped {
			defer func(m int) { maxOrdTypes = m }(maxOrdTypes)
			maxOrdTypes = 0
		}
		for _, s := range []*study.Study{synthStudy(120, 5), sampleStudy(80, 17)} {
			cases, nQ := instrumentCases(s)
			for _, pb := range [][2]int{{1, 1}, {2, 7}, {2, 0}} {
				prev := runtime.GOMAXPROCS(pb[0])
				for _, c := range cases {
					got := newBootstrap(t, c.groups, nQ, B, 9, pb[1])
					want := refBootstrap(c.ref, c.widths, nQ, B, 9)
					checkReplicates(t, c.name, got, want, c.reported)
				}
				runtime.GOMAXPROCS(prev)
			}
		}
	}
}
