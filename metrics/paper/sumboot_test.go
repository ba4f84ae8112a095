package paper

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"github.com/euroexec/euroexec/metrics/stats"
)

// naiveBootstrapSums is the summary bootstrap from its definition: for
// replicate r, the clusters drawn by stats.ResampleIndices with
// stats.NewRand(seed, r) (stats.ClusterBootstrapContext's draws), each
// row of acc weighted by its draw count and added in row order (the
// product rounded, then the sum), then finished. The oracle of
// bootstrapSums.
func naiveBootstrapSums(nB int, seed uint64, acc []float64, width, nOut int, newFinish func() func(s, o []float64)) [][]float64 {
	nC := len(acc) / width
	reps, _ := stats.ClusterBootstrapContext(context.Background(), nC, nB, seed, nOut, func(idx []int, o []float64) {
		cnt := make([]int, nC)
		for _, c := range idx {
			cnt[c]++
		}
		s := make([]float64, width)
		for c, m := range cnt {
			if m == 0 {
				continue
			}
			for j, x := range acc[c*width : c*width+width] {
				s[j] += float64(float64(m) * x)
			}
		}
		newFinish()(s, o)
	})
	return reps
}

// sumTestMatrix is an nC × width matrix of per-question sums like the
// analyses build: small integer counts in even columns, real-valued sums
// (thirds and sevenths, so that the order of additions matters) in odd
// ones, and a share of all-zero cells (groups a question is not in).
func sumTestMatrix(nC, width int, zeroShare float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	acc := make([]float64, nC*width)
	for i := range acc {
		if r.Float64() < zeroShare {
			continue
		}
		if i%2 == 0 {
			acc[i] = float64(1 + r.IntN(4))
		} else {
			acc[i] = float64(r.IntN(50)) / 3.0 / 7.0 * (1 + r.Float64())
		}
	}
	return acc
}

// ratioPairs is a finish function that keeps every quotient s[2j+1]/s[2j]
// and the raw sums, so that a test compares the sums themselves.
func ratioPairs(width int) func() func(s, o []float64) {
	return func() func(s, o []float64) {
		return func(s, o []float64) {
			for j := 0; j+1 < width; j += 2 {
				o[j/2] = ratioF(s[j+1], s[j])
			}
			copy(o[width/2:], s)
		}
	}
}

func sameBits(t *testing.T, what string, got, want [][]float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d replicates, want %d", what, len(got), len(want))
	}
	for r := range want {
		if len(got[r]) != len(want[r]) {
			t.Fatalf("%s: replicate %d has %d outputs, want %d", what, r, len(got[r]), len(want[r]))
		}
		for j := range want[r] {
			g, w := got[r][j], want[r][j]
			if math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
				t.Fatalf("%s: replicate %d output %d = %v (%x), want %v (%x)", what, r, j, g, math.Float64bits(g), w, math.Float64bits(w))
			}
		}
	}
}

func TestBootstrapSumsMatchesNaive(t *testing.T) {
	for _, tc := range []struct {
		nC, width, nB int
		zero          float64
	}{
		{1, 6, 40, 0},
		{10, 6, 50, 0.2},
		{255, 8, 50, 0.1},   // largest draw summed in draw order
		{256, 8, 50, 0.1},   // smallest draw summed in row order
		{300, 2, 33, 0.1},   // width < 4: draw order
		{1000, 54, 37, 0},   // summary-like
		{2000, 60, 64, 0.8}, // groupRates-like: most cells zero
		{700, 72, 17, 0.3},
	} {
		t.Run(fmt.Sprintf("%dx%d", tc.nC, tc.width), func(t *testing.T) {
			acc := sumTestMatrix(tc.nC, tc.width, tc.zero, uint64(tc.nC))
			nOut := tc.width/2 + tc.width
			fin := ratioPairs(tc.width)
			want := naiveBootstrapSums(tc.nB, 99, acc, tc.width, nOut, fin)
			var one [][]float64
			for _, procs := range []int{1, 3} {
				prev := runtime.GOMAXPROCS(procs)
				a := &run{ctx: context.Background(), opt: Options{Bootstrap: tc.nB, Seed: 99}}
				got := a.bootstrapSums(acc, tc.width, nOut, fin)
				runtime.GOMAXPROCS(prev)
				// the same terms, perhaps added in another order: equal to
				// 1e-12 relative; bit for bit across core counts
				closeReps(t, fmt.Sprintf("GOMAXPROCS=%d", procs), got, want, 1e-12)
				if one == nil {
					one = got
				} else {
					sameBits(t, "GOMAXPROCS=3 against 1", got, one)
				}
			}
		})
	}
}

// closeReps fails unless got and want have the same shape and values
// within tol relative (NaN equal to NaN).
func closeReps(t *testing.T, what string, got, want [][]float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d replicates, want %d", what, len(got), len(want))
	}
	for r := range want {
		if len(got[r]) != len(want[r]) {
			t.Fatalf("%s: replicate %d has %d outputs, want %d", what, r, len(got[r]), len(want[r]))
		}
		for j, w := range want[r] {
			g := got[r][j]
			if math.IsNaN(g) != math.IsNaN(w) || math.Abs(g-w) > tol*math.Max(1, math.Abs(w)) {
				t.Fatalf("%s: replicate %d output %d = %v, want %v", what, r, j, g, w)
			}
		}
	}
}

// TestBootstrapSumsHandComputed checks the sums of one replicate against
// the draws of stats.ResampleIndices added up by hand.
func TestBootstrapSumsHandComputed(t *testing.T) {
	const nC, width = 300, 4
	acc := make([]float64, nC*width)
	for c := range nC {
		acc[c*width] = 1
		acc[c*width+1] = float64(c)
		acc[c*width+3] = float64(c % 2)
	}
	a := &run{ctx: context.Background(), opt: Options{Bootstrap: 5, Seed: 3}}
	got := a.bootstrapSums(acc, width, width, func() func(s, o []float64) {
		return func(s, o []float64) { copy(o, s) }
	})
	for r := range 5 {
		var n, sum, odd float64
		for _, c := range stats.ResampleIndices(nC, stats.NewRand(3, r)) {
			n++
			sum += float64(c)
			odd += float64(c % 2)
		}
		want := []float64{n, sum, 0, odd}
		for j := range want {
			if got[r][j] != want[j] {
				t.Errorf("replicate %d column %d = %v, want %v", r, j, got[r][j], want[j])
			}
		}
	}
}

func TestBootstrapSumsCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a := &run{ctx: ctx, opt: Options{Bootstrap: 10, Seed: 1}}
	if got := a.bootstrapSums(sumTestMatrix(500, 8, 0, 1), 8, 4, ratioPairs(8)); got != nil {
		t.Errorf("cancelled bootstrap gave %d replicates, want none", len(got))
	}
}

// summaryLikeMatrix is an nC × 6 models × acLen matrix laid out as
// summarize's: one to three gradings per question and model, their counts,
// solved flags, ranks and wins as integers, rubric and checklist sums as
// floats.
func summaryLikeMatrix(nC int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 2))
	const nM = 6
	acc := make([]float64, nC*nM*acLen)
	for c := range nC {
		for mi := range nM {
			x := acc[(c*nM+mi)*acLen:][:acLen]
			for range 1 + r.IntN(3) {
				x[acSolvedN]++
				x[acSolved] += float64(r.IntN(2))
				x[acRankedN]++
				rk := 1 + r.IntN(nM)
				x[acRankSum] += float64(rk)
				if rk == 1 {
					x[acWins]++
				}
				x[acRubN]++
				x[acRubSum] += float64(1+r.IntN(20)) / 4
				x[acChkN]++
				x[acChkSum] += float64(r.IntN(8)) / 7
			}
		}
	}
	return acc
}

// BenchmarkBootstrapSums compares the summary bootstrap at 40,000
// questions × 6 models (width 54) and groupRates' at 5 groups (width 60,
// four fifths of the cells zero), 100 replicates, before (per-replicate
// index list, counts and a float pass over the whole matrix) and after
// (stats.ClusterBootstrapCounts, integer columns packed, zero rows skipped),
// in the same run; cpu-ns/op is the CPU time (the wall time of a shared
// machine says little).
func BenchmarkBootstrapSums(b *testing.B) {
	const nC, nB = 40000, 100
	groups := make([]float64, nC*60)
	r := rand.New(rand.NewPCG(1, 1))
	for c := range nC {
		k := r.IntN(5)
		for mi := range 6 {
			n := 1 + r.IntN(3)
			groups[c*60+(k*6+mi)*2] = float64(n)
			groups[c*60+(k*6+mi)*2+1] = float64(r.IntN(n + 1))
		}
	}
	for _, tc := range []struct {
		name      string
		acc       []float64
		width     int
		newFinish func() func(s, o []float64)
		nOut      int
	}{
		{"summary", summaryLikeMatrix(nC, 5), 6 * acLen, func() func(s, o []float64) { return summaryFinish(6) }, 30},
		{"groups", groups, 60, pairRatioFinish, 30},
	} {
		b.Run("naive/"+tc.name, func(b *testing.B) {
			cpu0 := cpuTime()
			for range b.N {
				naiveBootstrapSums(nB, 1, tc.acc, tc.width, tc.nOut, tc.newFinish)
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
		b.Run("new/"+tc.name, func(b *testing.B) {
			a := &run{ctx: context.Background(), opt: Options{Bootstrap: nB, Seed: 1}}
			cpu0 := cpuTime()
			for range b.N {
				a.bootstrapSums(tc.acc, tc.width, tc.nOut, tc.newFinish)
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// TestBootstrapSumsColumnKinds covers the columns newPackedRows must not
// pack (negative integers, integers above packedMaxCell, fractions) beside
// packable ones and an all-zero column.
func TestBootstrapSumsColumnKinds(t *testing.T) {
	const nC, width = 600, 6
	r := rand.New(rand.NewPCG(8, 8))
	acc := make([]float64, nC*width)
	for c := range nC {
		x := acc[c*width : (c+1)*width]
		x[0] = float64(r.IntN(3))                 // packable
		x[1] = float64(r.IntN(5) - 2)             // negative: float
		x[2] = float64(packedMaxCell + r.IntN(3)) // too large: float
		x[3] = float64(r.IntN(9)) / 7             // fraction: float
		// x[4] stays 0
		x[5] = float64(packedMaxCell - r.IntN(2)) // packable, wide field
	}
	fin := func() func(s, o []float64) { return func(s, o []float64) { copy(o, s) } }
	want := naiveBootstrapSums(30, 4, acc, width, width, fin)
	a := &run{ctx: context.Background(), opt: Options{Bootstrap: 30, Seed: 4}}
	sameBits(t, "column kinds", a.bootstrapSums(acc, width, width, fin), want)
	pr := newPackedRows(acc, width)
	if !slices.Equal(pr.fcols, []int32{1, 2, 3}) || len(pr.ffld) != 2 {
		t.Errorf("float columns %v and %d packed fields, want [1 2 3] and 2", pr.fcols, len(pr.ffld))
	}
}

// TestGradeSize keeps the per-grading record of the analysis small: one
// grade per grading is the largest value the analysis keeps (840,000 at
// 40,000 questions), and 200 bytes was 198 MB there.
func TestGradeSize(t *testing.T) {
	if got := unsafe.Sizeof(grade{}); got > 136 {
		t.Errorf("grade is %d bytes, want at most 136", got)
	}
}

// naiveAddWeighted is packedRows.addWeighted from its definition: every
// row c of the matrix with draw count m > 0, in row order, adds m times
// its float cells (the product rounded, then the sum) and m times its
// packed integer words. The oracle of addWeighted.
func (pr *packedRows) naiveAddWeighted(cnt []int32, rs *repSums) {
	nF, nw := len(pr.fcols), pr.nw
	clear(rs.f[:nF])
	clear(rs.w[:nw])
	for c, m := range cnt {
		if m == 0 {
			continue
		}
		for j, x := range pr.fval[c*nF : (c+1)*nF] {
			rs.f[j] += float64(float64(m) * x)
		}
		for k, x := range pr.wval[c*nw : (c+1)*nw] {
			rs.w[k] += uint64(m) * x
		}
	}
}

// drawnCounts returns n count vectors of nC clusters, each as one bootstrap
// replicate draws them (nC draws with replacement).
func drawnCounts(nC, n int, seed uint64) [][]int32 {
	r := rand.New(rand.NewPCG(seed, 3))
	out := make([][]int32, n)
	for i := range out {
		out[i] = make([]int32, nC)
		for range nC {
			out[i][r.IntN(nC)]++
		}
	}
	return out
}

// TestAddWeightedEqualsNaive checks addWeighted's float sums and packed
// words against naiveAddWeighted bit for bit, on matrices with negative
// cells, −0, large and fractional values, zero rows and heavily drawn rows.
func TestAddWeightedEqualsNaive(t *testing.T) {
	for _, tc := range []struct {
		name     string
		nC, wd   int
		zero     float64
		negative bool
	}{
		{"summary-like", 1000, 54, 0, false},
		{"sparse", 3000, 60, 0.8, false},
		{"signed", 700, 12, 0.3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			acc := sumTestMatrix(tc.nC, tc.wd, tc.zero, uint64(tc.nC))
			if tc.negative {
				r := rand.New(rand.NewPCG(5, 5))
				for i := range acc {
					switch r.IntN(5) {
					case 0:
						acc[i] = -acc[i] * 1e10
					case 1:
						acc[i] = math.Copysign(0, -1)
					case 2:
						acc[i] = -float64(r.IntN(1000)) / 3
					}
				}
			}
			pr := newPackedRows(acc, tc.wd)
			cnts := drawnCounts(tc.nC, 30, 9)
			cnts[0][0] += 1000 // one row drawn very often
			for i, cnt := range cnts {
				got := &repSums{f: make([]float64, len(pr.fcols)), w: make([]uint64, pr.nw)}
				want := &repSums{f: make([]float64, len(pr.fcols)), w: make([]uint64, pr.nw)}
				pr.addWeighted(cnt, got)
				pr.naiveAddWeighted(cnt, want)
				for j := range want.f {
					if math.Float64bits(got.f[j]) != math.Float64bits(want.f[j]) {
						t.Fatalf("draw %d float column %d = %v, want %v", i, j, got.f[j], want.f[j])
					}
				}
				if !slices.Equal(got.w, want.w) {
					t.Fatalf("draw %d: packed words %v, want %v", i, got.w, want.w)
				}
			}
		})
	}
}

// TestBootstrapSumsNotFinite: a matrix with an infinite or NaN cell gives
// the naive bootstrap's matrix (only drawn rows are added).
func TestBootstrapSumsNotFinite(t *testing.T) {
	for _, bad := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
		acc := sumTestMatrix(400, 8, 0.1, 4)
		acc[3*8+1] = bad
		fin := ratioPairs(8)
		want := naiveBootstrapSums(30, 2, acc, 8, 12, fin)
		a := &run{ctx: context.Background(), opt: Options{Bootstrap: 30, Seed: 2}}
		closeReps(t, fmt.Sprint("cell ", bad), a.bootstrapSums(acc, 8, 12, fin), want, 1e-12)
	}
}

// BenchmarkAddWeighted compares naiveAddWeighted and addWeighted on the
// summary bootstrap's matrix at 40,000 questions × 6 models (width 54),
// 16 replicates' draw counts, in the same run.
func BenchmarkAddWeighted(b *testing.B) {
	const nC = 40000
	pr := newPackedRows(summaryLikeMatrix(nC, 5), 6*acLen)
	cnts := drawnCounts(nC, 16, 1)
	rs := &repSums{f: make([]float64, len(pr.fcols)), w: make([]uint64, pr.nw)}
	b.Run("naive", func(b *testing.B) {
		for i := range b.N {
			pr.naiveAddWeighted(cnts[i%len(cnts)], rs)
		}
	})
	b.Run("new", func(b *testing.B) {
		for i := range b.N {
			pr.addWeighted(cnts[i%len(cnts)], rs)
		}
	})
}
