package reliability

// The α replicate kernel as it was before the uint16 δ tables (tableEntries
// up to midV values) and the margins four replicates at a time, copied
// verbatim (names suffixed Prev): the oracle of TestAlphasEqualPrev and the
// baseline of BenchmarkAlphas.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
)

// ordEntriesPrev is ordEntries before the table method.
type ordEntriesPrev interface {
	addQuestion(lo, hi int32, bs []uint8, cs []int32, ns, per []float64, stride int, vTab, doOrd []float64)
}

// smallEntriesPrev are ordinal entries with c·V + k in a byte (V ≤ smallV).
type smallEntriesPrev[I valueIndexType] struct {
	ck []uint8
	vi []I
}

func (e *smallEntriesPrev[I]) addQuestion(lo, hi int32, bs []uint8, cs []int32, ns, per []float64, stride int, vTab, doOrd []float64) {
	ck, vi := e.ck[lo:hi], e.vi[lo:hi:hi]
	tab := func(j int) []float64 { b := int(bs[j]); return per[b*stride : b*stride+stride] }
	eachFour(bs, ns, func(j0, j1, j2, j3 int) {
		// four replicates' sums at once, each its own chain of additions
		// in entry order: the same sums as one at a time, four times the
		// additions in flight
		t0, t1, t2, t3 := tab(j0), tab(j1), tab(j2), tab(j3)
		var s0, s1, s2, s3 float64
		for i, x := range vi {
			v, c := vTab[x], ck[i]
			d0, d1, d2, d3 := t0[c], t1[c], t2[c], t3[c]
			s0 += v * d0 * d0
			s1 += v * d1 * d1
			s2 += v * d2 * d2
			s3 += v * d3 * d3
		}
		doOrd[bs[j0]] += float64(cs[j0]) * s0
		doOrd[bs[j1]] += float64(cs[j1]) * s1
		doOrd[bs[j2]] += float64(cs[j2]) * s2
		doOrd[bs[j3]] += float64(cs[j3]) * s3
	}, func(j int) {
		t := tab(j)
		var sq float64
		for i, x := range vi {
			d := t[ck[i]]
			sq += vTab[x] * d * d
		}
		doOrd[bs[j]] += float64(cs[j]) * sq
	})
}

// wideEntriesPrev are ordinal entries with c and k apart (V > smallV).
type wideEntriesPrev[C uint16 | uint32, I valueIndexType] struct {
	c, k []C
	vi   []I
}

func (e *wideEntriesPrev[C, I]) addQuestion(lo, hi int32, bs []uint8, cs []int32, ns, per []float64, stride int, vTab, doOrd []float64) {
	eC, eK, vi := e.c[lo:hi], e.k[lo:hi:hi], e.vi[lo:hi:hi]
	mids := func(j int) []float64 { b := int(bs[j]); return per[b*stride : b*stride+stride] }
	eachFour(bs, ns, func(j0, j1, j2, j3 int) {
		// as smallEntriesPrev.addQuestion: four chains of additions at once
		m0, m1, m2, m3 := mids(j0), mids(j1), mids(j2), mids(j3)
		var s0, s1, s2, s3 float64
		for i, x := range vi {
			v, c, k := vTab[x], eC[i], eK[i]
			d0, d1, d2, d3 := m0[c]-m0[k], m1[c]-m1[k], m2[c]-m2[k], m3[c]-m3[k]
			s0 += v * d0 * d0
			s1 += v * d1 * d1
			s2 += v * d2 * d2
			s3 += v * d3 * d3
		}
		doOrd[bs[j0]] += float64(cs[j0]) * s0
		doOrd[bs[j1]] += float64(cs[j1]) * s1
		doOrd[bs[j2]] += float64(cs[j2]) * s2
		doOrd[bs[j3]] += float64(cs[j3]) * s3
	}, func(j int) {
		m := mids(j)
		var sq float64
		for i, x := range vi {
			d := m[eC[i]] - m[eK[i]]
			sq += vTab[x] * d * d
		}
		doOrd[bs[j]] += float64(cs[j]) * sq
	})
}

// alphasPrev is alphas as it was before the margins were summed four
// replicates at a time and before the δ tables went up to midV values
// (ord: the entries in their layout of then, see prevEntries). It sets out[b][i] to α at levels[i] (AlphaNominal, AlphaOrdinal or
// AlphaInterval) for the block's replicate b, the resample with bc's count
// of copies of each question: 1 − (n−1)·Σ o·δ² / Σ n_c·n_k·δ², as
// stats.KrippendorffAlpha; NaN when undefined. sc is the calling worker's
// scratch space. Each pass over the questions serves the whole block;
// every replicate's sums are taken in question order, as one replicate
// alone would take them.
func (co *coincidences) alphasPrev(ord ordEntriesPrev, bc *blockCounts, levels []string, out [][]float64, sc *scratch) {
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
	nQ := min(co.nQ, bc.nQ())
	for q := 0; q < nQ; q++ {
		j0, j1 := bc.start[q], bc.start[q+1]
		if j0 == j1 {
			continue
		}
		bs, cs := bc.b[j0:j1], bc.c[j0:j1:j1]
		dn, di := co.doNom[q], co.doInt[q]
		if co.mD != nil {
			md := co.mD[q*V : q*V+V : q*V+V]
			for j, b := range bs {
				fc := float64(cs[j])
				nc := ncAll[int(b)*V : int(b)*V+V]
				for k, m := range md {
					nc[k] += fc * m
				}
				doNom[b] += fc * dn
				doInt[b] += fc * di
			}
			continue
		}
		lo, hi := co.mStart[q], co.mStart[q+1]
		mC, mN := co.mC[lo:hi], co.mN[lo:hi:hi]
		for j, b := range bs {
			fc := float64(cs[j])
			nc := ncAll[int(b)*V : int(b)*V+V]
			for i, k := range mC {
				nc[k] += fc * mN[i]
			}
			doNom[b] += fc * dn
			doInt[b] += fc * di
		}
	}
	ns, s1s, s2s, sqs := sc.floats(5, nb), sc.floats(6, nb), sc.floats(7, nb), sc.floats(8, nb)
	var midAll, doOrd, deOrd, diffAll []float64
	if ordinal {
		midAll, doOrd, deOrd = sc.floats(1, V*nb), sc.floats(9, nb), sc.floats(10, nb)
		if V <= smallV {
			diffAll = sc.floats(11, V*V*nb)
		}
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
			if diffAll != nil {
				diff := diffAll[b*V*V : (b+1)*V*V]
				for c := 0; c < V; c++ {
					for k := 0; k < V; k++ {
						diff[c*V+k] = mid[c] - mid[k]
					}
				}
			}
		}
	}
	if ordinal {
		per, stride := diffAll, V*V
		if per == nil {
			per, stride = midAll, V
		}
		for q := 0; q < nQ; q++ {
			j0, j1 := bc.start[q], bc.start[q+1]
			if j0 == j1 {
				continue
			}
			ord.addQuestion(co.eStart[q], co.eStart[q+1], bc.b[j0:j1], bc.c[j0:j1:j1], ns, per, stride, co.vTab, doOrd)
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

// prevEntries returns co's ordinal entries in the layout they had before
// tableEntries went up to midV: c·V + k in a byte up to smallV values, c
// and k apart beyond.
func prevEntries(co *coincidences) ordEntriesPrev {
	V := len(co.domain)
	split := func(ck []uint16) (c, k []uint16) {
		for _, x := range ck {
			c, k = append(c, x/uint16(V)), append(k, x%uint16(V))
		}
		return c, k
	}
	switch e := untypedOrd(co).(type) {
	case nil:
		return nil
	case *tableEntries[uint8, uint16]:
		return &smallEntriesPrev[uint16]{e.ck, e.vi}
	case *tableEntries[uint8, uint32]:
		return &smallEntriesPrev[uint32]{e.ck, e.vi}
	case *tableEntries[uint16, uint16]:
		c, k := split(e.ck)
		return &wideEntriesPrev[uint16, uint16]{c, k, e.vi}
	case *tableEntries[uint16, uint32]:
		c, k := split(e.ck)
		return &wideEntriesPrev[uint16, uint32]{c, k, e.vi}
	case *wideEntries[uint16, uint16]:
		return &wideEntriesPrev[uint16, uint16]{e.c, e.k, e.vi}
	case *wideEntries[uint16, uint32]:
		return &wideEntriesPrev[uint16, uint32]{e.c, e.k, e.vi}
	case *wideEntries[uint32, uint16]:
		return &wideEntriesPrev[uint32, uint16]{e.c, e.k, e.vi}
	case *wideEntries[uint32, uint32]:
		return &wideEntriesPrev[uint32, uint32]{e.c, e.k, e.vi}
	}
	panic(fmt.Sprintf("unknown entries %T", co.ord))
}

// spanRatings returns ratings of nQ questions, three units each, one to
// four of six graders per unit, values whole numbers 0 … span−1.
func spanRatings(nQ, span int) ratings {
	r := rand.New(rand.NewPCG(3, 4))
	var d ratings
	for g := 0; g < 6; g++ {
		d.graders = append(d.graders, string(rune('a'+g)))
	}
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
	return d
}

// alphaCase is an α kernel with its name.
type alphaCase struct {
	name string
	k    *alphaKernel
}

// alphaCases returns the α kernels of every population of sampleStudy(nQ)
// (a 1–5 scale: dense margins and byte entries; a judge's averaged half
// points: about 25 values, uint16 tables) and of spanRatings at 8, 17, 25,
// midV, midV + 1 and 100 values, and the number of questions.
func alphaCases(t testing.TB, nQ int) ([]alphaCase, int) {
	t.Helper()
	var cs []alphaCase
	pops, nQs := populationGroups(sampleStudy(nQ, 5))
	for pi, gs := range pops {
		for gi, g := range gs {
			if k, ok := g.k.(*alphaKernel); ok {
				cs = append(cs, alphaCase{fmt.Sprintf("sample/pop%d/group%d/V%d", pi, gi, len(k.co.domain)), k})
			}
		}
	}
	for _, span := range []int{8, smallV + 1, 25, midV, midV + 1, 100} {
		rows := alphaRows(spanRatings(nQs, span), []string{AlphaNominal, AlphaOrdinal, AlphaInterval}, "")
		k := rows[0].grp.k.(*alphaKernel)
		if len(k.co.domain) != span {
			t.Fatalf("span %d: %d values", span, len(k.co.domain))
		}
		cs = append(cs, alphaCase{fmt.Sprintf("span/V%d", span), k})
	}
	return cs, nQs
}

// blockOf returns the counts of one block of nb replicates over nQ
// questions, drawn as the bootstrap draws them (replicate r from seed s).
func blockOf(nQ, nb int, s uint64) *blockCounts {
	cnt := make([]int32, nQ*nb)
	for rep := 0; rep < nb; rep++ {
		r := stats.NewRand(s, rep)
		for range nQ {
			cnt[r.IntN(nQ)*nb+rep]++
		}
	}
	var bc blockCounts
	bc.fill(cnt, nb)
	return &bc
}

func newOut(nb, n int) [][]float64 {
	out := make([][]float64, nb)
	for i := range out {
		out[i] = make([]float64, n)
	}
	return out
}

// alphas gives alphasPrev's values bit for bit on every α kernel of
// alphaCases, blocks of 1, 5 and repBlock replicates.
func TestAlphasEqualPrev(t *testing.T) {
	cs, nQ := alphaCases(t, 300)
	for _, nb := range []int{1, 5, repBlock} {
		bc := blockOf(nQ, nb, uint64(nb))
		for _, c := range cs {
			got, want := newOut(nb, len(c.k.levels)), newOut(nb, len(c.k.levels))
			c.k.eval(bc, got, &scratch{})
			c.k.co.alphasPrev(prevEntries(c.k.co), bc, c.k.levels, want, &scratch{})
			finite := 0
			for b := range want {
				for i := range want[b] {
					g, w := got[b][i], want[b][i]
					if math.Float64bits(g) != math.Float64bits(w) {
						t.Fatalf("%s block %d replicate %d level %s: got %v, prev %v", c.name, nb, b, c.k.levels[i], g, w)
					}
					if !math.IsNaN(w) {
						finite++
					}
				}
			}
			if finite < nb*len(c.k.levels)*9/10 {
				t.Errorf("%s block %d: %d finite values; the comparison says little", c.name, nb, finite)
			}
		}
	}
}

// BenchmarkAlphas evaluates every α kernel of alphaCases on one block of
// repBlock replicates with alphasPrev (prev) and alphas (new), on the same
// data in one run, EUROEXEC_BENCH_QUESTIONS questions (default 20,000).
func BenchmarkAlphas(b *testing.B) {
	nQ := 20000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		nQ = v
	}
	cs, nQ := alphaCases(b, nQ)
	bc := blockOf(nQ, repBlock, 1)
	for _, c := range cs {
		prev := prevEntries(c.k.co)
		for _, old := range []bool{true, false} {
			name := c.name + "/new"
			if old {
				name = c.name + "/prev"
			}
			b.Run(name, func(b *testing.B) {
				sc, out := &scratch{}, newOut(repBlock, len(c.k.levels))
				c0 := cpuSeconds()
				for b.Loop() {
					if old {
						c.k.co.alphasPrev(prev, bc, c.k.levels, out, sc)
					} else {
						c.k.eval(bc, out, sc)
					}
				}
				b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
			})
		}
	}
}
