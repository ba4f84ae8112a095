package reliability

// The replicate kernels as they were before the per-question lists of the
// nonzero counts (blockCounts): one pass over every question and every
// replicate of the block per statistic, a branch on each zero count. Kept
// verbatim as the baseline of BenchmarkPopulationBootstrap and as a second
// oracle (TestKernelsEqualOld).

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/stats"
)

// kappaOld is the κ replicate statistic of k on the old accumulate.
func (k *kappaKernel) evalOld(cnt []int32, out [][]float64, sc *scratch) {
	pk := k.pk
	w := pk.stride * pk.pairs
	accAll := pk.accumulateOld(cnt, len(out), sc.floats(2, w*len(out)))
	k.finish(accAll, out)
}

// oldLayouts are the α kernels' coincidences in the layout of the old
// kernel (see setOldLayouts), filled before the bootstraps that read them.
var oldLayouts = map[*coincidences]*coincidencesOld{}

// setOldLayouts gives the α kernels of groups their old layout: entries
// with c and k apart (eC, eK) and the margins sparse (mC, mN), as the old
// kernel reads them.
func setOldLayouts(groups []*repGroup) {
	for _, g := range groups {
		k, ok := g.k.(*alphaKernel)
		if !ok {
			continue
		}
		o := toOld(k.co)
		if o.eC == nil {
			V := int32(len(o.domain))
			for _, ck := range o.eCK {
				o.eC, o.eK = append(o.eC, ck/V), append(o.eK, ck%V)
			}
		}
		if o.mD != nil && o.mC == nil {
			V := len(o.domain)
			for q := 0; q < o.nQ; q++ {
				for c, m := range o.mD[q*V : q*V+V] {
					if m != 0 {
						o.mC, o.mN = append(o.mC, int32(c)), append(o.mN, m)
					}
				}
				o.mStart[q+1] = int32(len(o.mC))
			}
		}
		oldLayouts[k.co] = o
	}
}

// evalOld evaluates g with the old kernels (setOldLayouts first).
func (g *repGroup) evalOld(cnt []int32, out [][]float64, sc *scratch) {
	switch k := g.k.(type) {
	case *alphaKernel:
		oldLayouts[k.co].alphasOld(cnt, k.levels, out, sc)
	case *kappaKernel:
		k.evalOld(cnt, out, sc)
	case *anovaSums:
		k.iccOld(cnt, out, sc)
	default:
		panic("unknown kernel")
	}
}

// alphas sets out[b][i] to α at levels[i] (AlphaNominal, AlphaOrdinal or
// AlphaInterval) for the block's replicate b, the resample with
// cnt[q·len(out)+b] copies of question q: 1 − (n−1)·Σ o·δ² / Σ n_c·n_k·δ²,
// as stats.KrippendorffAlpha; NaN when undefined. sc is the calling
// worker's scratch space. Each pass over the questions serves the whole
// block; every replicate's sums are taken in question order, as one
// replicate alone would take them.
func (co *coincidencesOld) alphasOld(cnt []int32, levels []string, out [][]float64, sc *scratch) {
	V := len(co.domain)
	nb := len(out)
	for _, o := range out {
		for i := range o {
			o[i] = math.NaN()
		}
	}
	if V < 2 {
		return
	}
	ordinal := false
	for _, l := range levels {
		ordinal = ordinal || l != AlphaNominal && l != AlphaInterval
	}
	// Closed forms, linear in the number of values (a rubric mean with
	// judges has hundreds): nominal and interval need only the per-question
	// disagreement sums and the margins; the ordinal δ_ck is M_k − M_c with
	// M_g = Σ_{h<g} n_h + n_g/2, an interval metric on the resample's
	// mid-ranks, so its observed disagreement is one pass over the entries.
	ncAll := sc.floats(0, V*nb)
	doNom, doInt := sc.floats(3, nb), sc.floats(4, nb)
	for q := 0; q < co.nQ; q++ {
		cq := cnt[q*nb : q*nb+nb]
		lo, hi := co.mStart[q], co.mStart[q+1]
		mC, mN := co.mC[lo:hi], co.mN[lo:hi]
		for b, c := range cq {
			if c == 0 {
				continue
			}
			fc := float64(c)
			nc := ncAll[b*V : b*V+V]
			for i, k := range mC {
				nc[k] += fc * mN[i]
			}
			doNom[b] += fc * co.doNom[q]
			doInt[b] += fc * co.doInt[q]
		}
	}
	ns, s1s, s2s, sqs := sc.floats(5, nb), sc.floats(6, nb), sc.floats(7, nb), sc.floats(8, nb)
	var midAll, doOrd, deOrd []float64
	if ordinal {
		midAll, doOrd, deOrd = sc.floats(1, V*nb), sc.floats(9, nb), sc.floats(10, nb)
	}
	for b := 0; b < nb; b++ {
		nc := ncAll[b*V : b*V+V]
		var n, s1, s2, sq float64
		for c := 0; c < V; c++ {
			n += nc[c]
			x := co.domain[c]
			s1 += nc[c] * x
			s2 += nc[c] * x * x
			sq += nc[c] * nc[c]
		}
		ns[b], s1s[b], s2s[b], sqs[b] = n, s1, s2, sq
		if ordinal && n != 0 {
			mid := midAll[b*V : b*V+V]
			var cum, m1, m2 float64
			for g := 0; g < V; g++ {
				mid[g] = cum + nc[g]/2
				cum += nc[g]
				m1 += nc[g] * mid[g]
				m2 += nc[g] * mid[g] * mid[g]
			}
			deOrd[b] = 2 * (n*m2 - m1*m1)
		}
	}
	if ordinal {
		for q := 0; q < co.nQ; q++ {
			cq := cnt[q*nb : q*nb+nb]
			lo, hi := co.eStart[q], co.eStart[q+1]
			eC, eK, eV := co.eC[lo:hi], co.eK[lo:hi], co.eV[lo:hi]
			for b, c := range cq {
				if c == 0 || ns[b] == 0 {
					continue
				}
				mid := midAll[b*V : b*V+V]
				var sq float64
				for i, v := range eV {
					d := mid[eC[i]] - mid[eK[i]]
					sq += v * d * d
				}
				doOrd[b] += float64(c) * sq
			}
		}
	}
	for b := 0; b < nb; b++ {
		n := ns[b]
		if n == 0 {
			continue
		}
		for li, level := range levels {
			var do, de float64
			switch level {
			case AlphaNominal:
				do, de = doNom[b], n*n-sqs[b]
			case AlphaInterval:
				do, de = doInt[b], 2*(n*s2s[b]-s1s[b]*s1s[b])
			default: // ordinal
				do, de = doOrd[b], deOrd[b]
			}
			if a := 1 - float64((n-1)*do)/de; !math.IsInf(a, 0) {
				out[b][li] = a
			}
		}
	}
}

// accumulate fills acc (zeroed, nb × pairs × stride) with each pair's
// weighted confusion-matrix sums over the resamples of a block of nb
// replicates, replicate b having cnt[q·nb+b] copies of question q: row sums
// r (L), column sums c (L), then n, the diagonal and Σ w·(i−j)² off the
// diagonal.
func (pk *packedCells) accumulateOld(cnt []int32, nb int, acc []float64) []float64 {
	w := pk.stride * pk.pairs
	for q := 0; q+1 < len(pk.start); q++ {
		lo, hi := pk.start[q], pk.start[q+1]
		slot, val := pk.slot[lo:hi], pk.val[lo:hi]
		for b, cq := range cnt[q*nb : q*nb+nb] {
			if cq == 0 {
				continue
			}
			fc := float64(cq)
			ab := acc[b*w : b*w+w]
			for x, s := range slot {
				ab[s] += fc * val[x]
			}
		}
	}
	return acc
}

// icc sets out[b] to ICC(1,1), ICC(1,k), ICC(2,1), ICC(2,k) of the block's
// replicate b, the resample with cnt[q·len(out)+b] copies of question q,
// from the Shrout & Fleiss mean squares (NaN when undefined). sc is the
// calling worker's scratch space.
func (a *anovaSums) iccOld(cnt []int32, out [][]float64, sc *scratch) {
	nb := len(out)
	k := float64(a.k)
	Ns, Gs, Ss, Qs := sc.floats(5, nb), sc.floats(6, nb), sc.floats(7, nb), sc.floats(8, nb)
	Call := sc.floats(0, a.k*nb)
	for i, q := range a.qs {
		cs := a.c[i*a.k : (i+1)*a.k]
		for b, c := range cnt[int(q)*nb : int(q)*nb+nb] {
			if c == 0 {
				continue
			}
			w := float64(c)
			Ns[b] += w * a.n[i]
			Gs[b] += w * a.g[i]
			Ss[b] += w * a.s[i]
			Qs[b] += w * a.q[i]
			C := Call[b*a.k : b*a.k+a.k]
			for j := range C {
				C[j] += w * cs[j]
			}
		}
	}
	nan := math.NaN()
	for b, o := range out {
		o[0], o[1], o[2], o[3] = nan, nan, nan, nan
		N, G, S, Q := Ns[b], Gs[b], Ss[b], Qs[b]
		if N < 2 || a.k < 2 {
			continue
		}
		corr := G * G / (N * k)
		ssr := S/k - corr
		var sc2 float64
		for _, c := range Call[b*a.k : b*a.k+a.k] {
			sc2 += c * c
		}
		ssc := sc2/N - corr
		sst := Q - corr
		sse := sst - ssr - ssc
		msr := ssr / (N - 1)
		msw := (Q - S/k) / (N * (k - 1))
		msc := ssc / (k - 1)
		mse := sse / ((N - 1) * (k - 1))
		o[0] = (msr - msw) / (msr + (k-1)*msw)
		o[1] = (msr - msw) / msr
		o[2] = (msr - mse) / (msr + (k-1)*mse + k*(msc-mse)/N)
		o[3] = (msr - mse) / (msr + (msc-mse)/N)
	}
}

// populationGroups returns, per population of s (humans, then humans with
// each judge), the replicate groups of its rows, as Analyze bootstraps them.
func populationGroups(s *analysis.Study) ([][]*repGroup, int) {
	b := newBuilder(s, computeMain(s), s.MainRound)
	pops := []population{{name: "humans"}}
	for _, e := range b.evaluators {
		if b.kind[e] == analysis.Judge {
			pops = append(pops, population{name: "humans+judge:" + e, judge: e})
		}
	}
	var out [][]*repGroup
	for _, p := range pops {
		rows, _, _ := b.analyzePopulation(s, p, wholeLabels(int(s.ScaleMin), int(s.ScaleMax)))
		var gs []*repGroup
		for _, r := range rows {
			if r.grp != nil && !slices.Contains(gs, r.grp) {
				gs = append(gs, r.grp)
			}
		}
		setOldLayouts(gs)
		out = append(out, gs)
	}
	return out, len(b.questions)
}

// popBootstrap runs one population's groups through the counts engine, with
// the new kernels or (old) the old ones.
func popBootstrap(t testing.TB, groups []*repGroup, nQ, B int, seed uint64, block int, old bool) [][]float64 {
	t.Helper()
	width := 0
	for _, g := range groups {
		width += g.n
	}
	reps, err := stats.ClusterBootstrapCountBlocks(context.Background(), nQ, B, seed, width, block, func() stats.CountBlockStat {
		sc := &scratch{}
		var sub [][]float64
		var bc blockCounts
		return func(cnt []int32, out [][]float64) {
			if !old {
				bc.fill(cnt, len(out))
			}
			o := 0
			for _, g := range groups {
				sub = sub[:0]
				for _, row := range out {
					sub = append(sub, row[o:o+g.n])
				}
				if old {
					g.evalOld(cnt, sub, sc)
				} else {
					g.k.eval(&bc, sub, sc)
				}
				o += g.n
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return reps
}

// The kernels give the old kernels' replicate values bit for bit, for every
// row of every population of a generated study (five rubric attributes at
// the nominal, ordinal and interval levels, κ, ICC, the rubric mean with a
// judge's half points, the checklist), whatever the block size and the
// number of cores.
func TestKernelsEqualOld(t *testing.T) {
	s := synthStudy(300, 11)
	pops, nQ := populationGroups(s)
	if len(pops) != 3 {
		t.Fatalf("%d populations, want 3", len(pops))
	}
	const B = 120
	for _, pb := range [][2]int{{1, 1}, {2, 0}, {2, 5}, {3, 64}} {
		procs, block := pb[0], pb[1]
		prev := runtime.GOMAXPROCS(procs)
		for pi, gs := range pops {
			want := popBootstrap(t, gs, nQ, B, 21, 0, true)
			got := popBootstrap(t, gs, nQ, B, 21, block, false)
			finite := 0
			for r := range want {
				for j := range want[r] {
					g, w := got[r][j], want[r][j]
					if math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
						t.Fatalf("GOMAXPROCS %d block %d population %d replicate %d column %d: got %v, old %v", procs, block, pi, r, j, g, w)
					}
					if !math.IsNaN(w) {
						finite++
					}
				}
			}
			if len(want[0]) < 30 || finite < B*len(want[0])*9/10 {
				t.Errorf("population %d: %d columns, %d finite replicate values; the comparison says little", pi, len(want[0]), finite)
			}
		}
		runtime.GOMAXPROCS(prev)
	}
}

// cpuSeconds returns the process's user+system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return math.NaN()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// BenchmarkPopulationBootstrap runs every population's replicate
// statistics (all rows of the table) through the counts engine with the old
// kernels and with the new ones, on the same generated study in one run:
// 200 replicates, EUROEXEC_BENCH_QUESTIONS questions (default 5,000) of
// sampleStudy (the wide ordinal layout of a judge's averaged half points).
func BenchmarkPopulationBootstrap(b *testing.B) {
	nQ := 5000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		nQ = v
	}
	pops, nQ := populationGroups(sampleStudy(nQ, 5))
	const B = 200
	for _, v := range []struct {
		name  string
		old   bool
		block int
	}{{"old", true, 0}, {"new", false, repBlock}} {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			c0 := cpuSeconds()
			for i := 0; i < b.N; i++ {
				for _, gs := range pops {
					popBootstrap(b, gs, nQ, B, 9, v.block, v.old)
				}
			}
			// CPU time is what counts on a shared machine
			b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
		})
	}
}

// The ordinal α of a scale with more than smallV values (margins sparse;
// up to midV values the mid-rank differences looked up per entry in a V×V
// table, beyond it two mid-ranks per entry) and the κ and ICC of units with
// two to four graders also equal the old kernels bit for bit.
func TestKernelsEqualOldWideScale(t *testing.T) {
	for _, tc := range []struct {
		span int // values 0 … span−1
		ord  ordEntries
	}{
		{smallV + 1, &tableEntries[uint16, uint16]{}},
		{21, &tableEntries[uint16, uint16]{}},
		{midV, &tableEntries[uint16, uint16]{}},
		{midV + 1, &wideEntries[uint16, uint16]{}},
		{150, &wideEntries[uint16, uint16]{}},
	} {
		t.Run(fmt.Sprint(tc.span), func(t *testing.T) { checkWideScale(t, tc.span, &typedEntries{}) })
		t.Run(fmt.Sprint(tc.span, "untyped"), func(t *testing.T) {
			defer func(m int) { maxOrdTypes = m }(maxOrdTypes)
			maxOrdTypes = 0 // the layouts beyond maxTypes types
			checkWideScale(t, tc.span, tc.ord)
		})
	}
}

// checkWideScale checks the kernels against the old ones on ratings of
// span values whose ordinal entries take the layout of ord's type.
func checkWideScale(t *testing.T, span int, ord ordEntries) {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	var d ratings
	for g := 0; g < 6; g++ {
		d.graders = append(d.graders, string(rune('a'+g)))
	}
	const nQ = 250
	for q := 0; q < nQ; q++ {
		for u := 0; u < 3; u++ {
			ru := rUnit{q: q}
			lat := r.IntN(span)
			for _, g := range r.Perm(6)[:1+r.IntN(4)] {
				ru.vals = append(ru.vals, rVal{g, float64(max(0, min(span-1, lat+r.IntN(7)-3)))})
			}
			slices.SortFunc(ru.vals, func(a, b rVal) int { return a.g - b.g })
			d.units = append(d.units, ru)
		}
	}
	labels := make([]int, span)
	for i := range labels {
		labels[i] = i
	}
	var groups []*repGroup
	for _, rows := range [][]*row{alphaRows(d, []string{AlphaNominal, AlphaOrdinal, AlphaInterval}, ""), first(kappaRows(d, labelsOf(labels, 0), true)), first(iccRows(d))} {
		for _, r := range rows {
			if r.grp != nil && !slices.Contains(groups, r.grp) {
				groups = append(groups, r.grp)
			}
		}
	}
	if co := groups[0].k.(*alphaKernel).co; len(co.domain) != span || co.mD != nil {
		t.Fatalf("%d values, want %d: the test means the wide-scale path", len(co.domain), span)
	}
	if got := groups[0].k.(*alphaKernel).co.ord; reflect.TypeOf(got) != reflect.TypeOf(ord) {
		t.Fatalf("entries %T, want %T", got, ord)
	}
	setOldLayouts(groups)
	const B = 150
	want := popBootstrap(t, groups, nQ, B, 5, 0, true)
	got := popBootstrap(t, groups, nQ, B, 5, repBlock, false)
	finite := 0
	for i := range want {
		for j := range want[i] {
			g, w := got[i][j], want[i][j]
			if math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
				t.Fatalf("replicate %d column %d: got %v, old %v", i, j, g, w)
			}
			if !math.IsNaN(w) {
				finite++
			}
		}
	}
	if finite < B*len(want[0])*9/10 {
		t.Errorf("%d finite replicate values of %d; the comparison says little", finite, B*len(want[0]))
	}
}

func first[T any, U any](a T, _ U) T { return a }

// The kernels equal the old ones bit for bit on sampleStudy too, whose
// humans+judge:j2 attributes take the wide ordinal layout within a whole
// population.
func TestKernelsEqualOldSample(t *testing.T) {
	s := sampleStudy(200, 13)
	pops, nQ := populationGroups(s)
	wide := false
	for _, gs := range pops {
		for _, g := range gs {
			if k, ok := g.k.(*alphaKernel); ok && len(k.co.domain) > smallV && k.co.ord != nil {
				wide = true
			}
		}
	}
	if !wide {
		t.Fatal("no α kernel takes the wide ordinal layout; the test means it")
	}
	const B = 120
	for pi, gs := range pops {
		want := popBootstrap(t, gs, nQ, B, 3, 0, true)
		got := popBootstrap(t, gs, nQ, B, 3, repBlock, false)
		for i := range want {
			for j := range want[i] {
				g, w := got[i][j], want[i][j]
				if math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
					t.Fatalf("population %d replicate %d column %d: got %v, old %v", pi, i, j, g, w)
				}
			}
		}
	}
}
