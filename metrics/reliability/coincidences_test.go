package reliability

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/scores"
)

// domainOfOld is the sorted, deduplicated values of d, as alphaRows built
// it before domainOf.
func domainOfOld(d ratings) []float64 {
	var domain []float64
	for _, ru := range d.units {
		for _, v := range ru.vals {
			domain = append(domain, v.v)
		}
	}
	slices.Sort(domain)
	return slices.Compact(domain)
}

// checkCoincidences checks that newCoincidences builds exactly the sums of
// newCoincidencesOld (the builder before it looked values up in a table
// and kept one slab of entries), for the nominal/interval and the ordinal
// layout.
func checkCoincidences(t *testing.T, name string, d ratings) {
	t.Helper()
	domain := domainOf(d)
	if old := domainOfOld(d); !slices.Equal(domain, old) {
		t.Errorf("%s: domainOf %v, sorted and compacted values %v", name, domain, old)
	}
	for _, ordinal := range []bool{false, true} {
		got, want := toOld(newCoincidences(d, domain, ordinal)), newCoincidencesOld(d, domain, ordinal)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s (ordinal %v, %d values): got %+v, old %+v", name, ordinal, len(domain), got, want)
		}
		if want.nQ == 0 {
			t.Errorf("%s: no question has a pairable unit; the comparison says little", name)
		}
	}
}

// TestCoincidencesEqualOld: on every instrument of every population of a
// generated study (rubric attributes on a 1–5 scale: the table lookup; the
// rubric mean with half points: the binary search; checklist codes) and on
// hand-made ratings (21 values, more than smallV; a span too wide for the
// table; zeros of both signs; negative values; units of one value,
// skipped; units not in question order), the
// coincidence sums equal the old builder's bit for bit.
func TestCoincidencesEqualOld(t *testing.T) {
	s := synthStudy(300, 11)
	b := newBuilder(s, computeMain(s), s.MainRound)
	pops := []population{{name: "humans"}}
	for _, e := range b.evaluators {
		if b.kind[e] == analysis.Judge {
			pops = append(pops, population{name: "humans+judge:" + e, judge: e})
		}
	}
	for _, p := range pops {
		for a, name := range s.Attributes {
			checkCoincidences(t, p.name+" "+name, b.collect(p, 0, func(g *scores.Grading, _ int) float64 { return g.Rubric[a] }))
		}
		checkCoincidences(t, p.name+" rubric_mean", b.collect(p, 0, func(g *scores.Grading, _ int) float64 { return g.RubricMean }))
		checkCoincidences(t, p.name+" checklist", b.collect(p, b.maxItems, func(g *scores.Grading, it int) float64 {
			if it < len(g.Verdicts) {
				return verdictCode(g.Verdicts[it])
			}
			return math.NaN()
		}))
	}
	r := rand.New(rand.NewPCG(8, 9))
	for _, c := range []struct {
		name  string
		value func() float64
	}{
		{"wide scale", func() float64 { return float64(r.IntN(21)) }},
		{"wide span", func() float64 { return float64(r.IntN(3) * 5000) }},
		{"signed zeros", func() float64 { return []float64{0, math.Copysign(0, -1), 1, 2.5}[r.IntN(4)] }},
		{"negative", func() float64 { return float64(r.IntN(7) - 3) }},
	} {
		var d ratings
		for g := range 5 {
			d.graders = append(d.graders, string(rune('a'+g)))
		}
		for q := range 60 {
			for range 1 + r.IntN(3) {
				ru := rUnit{q: q}
				for _, g := range r.Perm(5)[:1+r.IntN(5)] {
					ru.vals = append(ru.vals, rVal{g, c.value()})
				}
				d.units = append(d.units, ru)
			}
		}
		checkCoincidences(t, c.name, d)
		if c.name == "wide scale" {
			// units not in question order: visited by question, each
			// question's in their order
			r.Shuffle(len(d.units), func(i, j int) { d.units[i], d.units[j] = d.units[j], d.units[i] })
			checkCoincidences(t, "shuffled units", d)
		}
	}
}

// coincidencesOld is coincidences as it was at 46a691c: each ordinal
// entry's (c, k) in int32 (eCK = c·V + k when V ≤ smallV, else eC and eK)
// and its value in a float64 (eV). The layout of newCoincidencesOld and of
// the old kernel alphasOld.
type coincidencesOld struct {
	domain       []float64
	nQ           int
	eStart       []int32
	eCK          []int32
	eC, eK       []int32
	eV           []float64
	doNom, doInt []float64
	mStart       []int32
	mC           []int32
	mN           []float64
	mD           []float64
}

// toOld returns co in the layout of 46a691c (the entries' compact types
// widened, their values looked up).
func toOld(co *coincidences) *coincidencesOld {
	o := &coincidencesOld{domain: co.domain, nQ: co.nQ, eStart: co.eStart, doNom: co.doNom, doInt: co.doInt,
		mStart: slices.Clone(co.mStart), mC: co.mC, mN: co.mN, mD: co.mD}
	widen := func(xs any) (out []int32) {
		switch xs := xs.(type) {
		case []uint8:
			for _, x := range xs {
				out = append(out, int32(x))
			}
		case []uint16:
			for _, x := range xs {
				out = append(out, int32(x))
			}
		case []uint32:
			for _, x := range xs {
				out = append(out, int32(x))
			}
		}
		return out
	}
	// c·V + k apart into c and k, as the old layout keeps them when
	// V > smallV
	split := func(ck []int32) (c, k []int32) {
		V := int32(len(co.domain))
		for _, x := range ck {
			c, k = append(c, x/V), append(k, x%V)
		}
		return c, k
	}
	var vi []int32
	switch e := untypedOrd(co).(type) {
	case nil:
		return o
	case *tableEntries[uint8, uint16]:
		o.eCK, vi = widen(e.ck), widen(e.vi)
	case *tableEntries[uint8, uint32]:
		o.eCK, vi = widen(e.ck), widen(e.vi)
	case *tableEntries[uint16, uint16]:
		o.eC, o.eK = split(widen(e.ck))
		vi = widen(e.vi)
	case *tableEntries[uint16, uint32]:
		o.eC, o.eK = split(widen(e.ck))
		vi = widen(e.vi)
	case *wideEntries[uint16, uint16]:
		o.eC, o.eK, vi = widen(e.c), widen(e.k), widen(e.vi)
	case *wideEntries[uint16, uint32]:
		o.eC, o.eK, vi = widen(e.c), widen(e.k), widen(e.vi)
	case *wideEntries[uint32, uint16]:
		o.eC, o.eK, vi = widen(e.c), widen(e.k), widen(e.vi)
	case *wideEntries[uint32, uint32]:
		o.eC, o.eK, vi = widen(e.c), widen(e.k), widen(e.vi)
	default:
		panic("unknown entries")
	}
	for _, i := range vi {
		o.eV = append(o.eV, co.vTab[i])
	}
	return o
}

// coEntry is one coincidence entry of newCoincidencesOld.
type coEntry struct {
	c, k int
	v    float64
}

// newCoincidencesOld is newCoincidences before the value table and the
// single slab of entries (commit 954eb51): the oracle of
// TestCoincidencesEqualOld.
func newCoincidencesOld(d ratings, domain []float64, ordinal bool) *coincidencesOld {
	co := &coincidencesOld{domain: domain}
	pos := make(map[float64]int, len(domain))
	for i, v := range domain {
		pos[v] = i
	}
	V := len(domain)
	cnt := make([]int, V)
	var perQ [][]coEntry // by question index, only while building
	for _, ru := range d.units {
		m := len(ru.vals)
		if m < 2 {
			continue
		}
		clear(cnt)
		for _, v := range ru.vals {
			cnt[pos[v.v]]++
		}
		den := float64(m - 1)
		for c := 0; c < V; c++ {
			if cnt[c] == 0 {
				continue
			}
			for k := 0; k < V; k++ {
				nk := cnt[k]
				if c == k {
					nk--
				}
				if nk > 0 {
					for len(perQ) <= ru.q {
						perQ = append(perQ, nil)
					}
					perQ[ru.q] = append(perQ[ru.q], coEntry{c, k, float64(cnt[c]*nk) / den})
				}
			}
		}
	}
	nQ := len(perQ)
	co.nQ = nQ
	co.doNom, co.doInt = make([]float64, nQ), make([]float64, nQ)
	co.mStart = make([]int32, nQ+1)
	if V <= smallV {
		co.mD = make([]float64, nQ*V)
	}
	if ordinal {
		co.eStart = make([]int32, nQ+1)
	}
	m := make([]float64, V)
	seen := make([]bool, V)
	var keys []int
	for q, es := range perQ {
		keys = keys[:0]
		for _, e := range es {
			if !seen[e.c] {
				seen[e.c] = true
				keys = append(keys, e.c)
			}
			m[e.c] += e.v
			if e.c != e.k {
				co.doNom[q] += e.v
				d := domain[e.c] - domain[e.k]
				co.doInt[q] += e.v * d * d
				if ordinal {
					if V <= smallV {
						co.eCK = append(co.eCK, int32(e.c*V+e.k))
					} else {
						co.eC = append(co.eC, int32(e.c))
						co.eK = append(co.eK, int32(e.k))
					}
					co.eV = append(co.eV, e.v)
				}
			}
		}
		for _, c := range keys {
			if co.mD != nil {
				co.mD[q*V+c] = m[c]
			} else {
				co.mC = append(co.mC, int32(c))
				co.mN = append(co.mN, m[c])
			}
			m[c], seen[c] = 0, false
		}
		co.mStart[q+1] = int32(len(co.mC))
		if ordinal {
			co.eStart[q+1] = int32(len(co.eV))
		}
		perQ[q] = nil
	}
	return co
}

// BenchmarkCoincidences builds the coincidence sums of every instrument of
// the humans+judge:j2 population (the largest) of a generated study of
// EUROEXEC_BENCH_QUESTIONS questions (default 5,000) with the old builder
// and the new one, in the same run.
func BenchmarkCoincidences(b *testing.B) {
	nQ := 5000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		nQ = v
	}
	s := synthStudy(nQ, 5)
	bl := newBuilder(s, computeMain(s), s.MainRound)
	p := population{name: "humans+judge:j2", judge: "j2"}
	var ds []ratings
	for a := range s.Attributes {
		ds = append(ds, bl.collect(p, 0, func(g *scores.Grading, _ int) float64 { return g.Rubric[a] }))
	}
	ds = append(ds, bl.collect(p, 0, func(g *scores.Grading, _ int) float64 { return g.RubricMean }))
	ds = append(ds, bl.collect(p, bl.maxItems, func(g *scores.Grading, it int) float64 {
		if it < len(g.Verdicts) {
			return verdictCode(g.Verdicts[it])
		}
		return math.NaN()
	}))
	domains := make([][]float64, len(ds))
	for i, d := range ds {
		domains[i] = domainOf(d)
	}
	for _, v := range []struct {
		name string
		f    func(ratings, []float64, bool) any
	}{{"old", func(d ratings, dom []float64, o bool) any { return newCoincidencesOld(d, dom, o) }},
		{"new", func(d ratings, dom []float64, o bool) any { return newCoincidences(d, dom, o) }}} {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			c0 := cpuSeconds()
			for b.Loop() {
				for i, d := range ds {
					v.f(d, domains[i], true)
				}
			}
			b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
		})
	}
}

// cell is a grader pair's shared units of one question with the same two
// label positions: w units (the cells of packCellsOld).
type cell struct{ q, i, j, w int32 }

// packCellsOld is how kappaRows packed the replicate sums at 46a691c: a
// list of cells per grader pair (pairs numbered in unit order), merged by
// (question, i, j), then every cell's four contributions bucketed by
// question, sorted by slot and summed. The oracle of
// TestCellPackerEqualsOld; it returns the values as float64.
func packCellsOld(d ratings, L, lo int) (start, slot []int32, val []float64, nPairs int) {
	G := len(d.graders)
	pid := make([]int32, G*G)
	var pairs [][]cell
	var lab, gs []int
	for _, ru := range d.units {
		lab, gs = lab[:0], gs[:0]
		for _, v := range ru.vals {
			i := int(v.v) - lo
			if v.v != math.Trunc(v.v) || i < 0 || i >= L {
				continue
			}
			lab, gs = append(lab, i), append(gs, v.g)
		}
		for x := 0; x < len(gs); x++ {
			for y := x + 1; y < len(gs); y++ {
				key := gs[x]*G + gs[y]
				p := int(pid[key]) - 1
				if p < 0 {
					p = len(pairs)
					pid[key] = int32(p + 1)
					pairs = append(pairs, nil)
				}
				pairs[p] = append(pairs[p], cell{int32(ru.q), int32(lab[x]), int32(lab[y]), 1})
			}
		}
	}
	for p, cs := range pairs {
		slices.SortFunc(cs, func(a, b cell) int {
			if a.q != b.q {
				return int(a.q - b.q)
			}
			if a.i != b.i {
				return int(a.i - b.i)
			}
			return int(a.j - b.j)
		})
		out := cs[:0]
		for _, c := range cs {
			if n := len(out); n > 0 && out[n-1].q == c.q && out[n-1].i == c.i && out[n-1].j == c.j {
				out[n-1].w += c.w
				continue
			}
			out = append(out, c)
		}
		pairs[p] = out
	}
	stride := 2*L + 3
	nQ := 0
	for _, cs := range pairs {
		for _, c := range cs {
			nQ = max(nQ, int(c.q)+1)
		}
	}
	type ent struct {
		slot int32
		v    float64
	}
	perQ := make([][]ent, nQ)
	for p, cs := range pairs {
		base := int32(p * stride)
		for _, c := range cs {
			w := float64(c.w)
			e := []ent{{base + c.i, w}, {base + int32(L) + c.j, w}, {base + int32(2*L), w}}
			if c.i == c.j {
				e = append(e, ent{base + int32(2*L+1), w})
			} else {
				e = append(e, ent{base + int32(2*L+2), w * float64((c.i-c.j)*(c.i-c.j))})
			}
			perQ[c.q] = append(perQ[c.q], e...)
		}
	}
	start = make([]int32, nQ+1)
	for q, qe := range perQ {
		slices.SortFunc(qe, func(a, b ent) int { return int(a.slot - b.slot) })
		for i := 0; i < len(qe); {
			e := qe[i]
			v := e.v
			for i++; i < len(qe) && qe[i].slot == e.slot; i++ {
				v += qe[i].v
			}
			slot = append(slot, e.slot)
			val = append(val, v)
		}
		start[q+1] = int32(len(slot))
	}
	return start, slot, val, len(pairs)
}

// withoutN returns the packed sums of packCellsOld (pairs 2L + 3 wide:
// r, c, n, the diagonal, Σ w·(i−j)²) in the layout packedCells has kept
// since n became Σ r: pairs 2L + 2 wide, no n.
func withoutN(L int, start, slot []int32, val []float64) ([]int32, []int32, []float64) {
	oldW, newW := int32(2*L+3), int32(2*L+2)
	var ns []int32
	var nv []float64
	nst := []int32{0}
	for q := 0; q+1 < len(start); q++ {
		for x := start[q]; x < start[q+1]; x++ {
			p, s := slot[x]/oldW, slot[x]%oldW
			switch {
			case s == int32(2*L):
				continue // n
			case s > int32(2*L):
				s--
			}
			ns, nv = append(ns, p*newW+s), append(nv, val[x])
		}
		nst = append(nst, int32(len(ns)))
	}
	return nst, ns, nv
}

// checkPacked checks that kappaRows packs d's replicate sums as the cells
// of packCellsOld did.
func checkPacked(t *testing.T, name string, d ratings, labels []int, lo int) {
	t.Helper()
	rows, _ := kappaRows(d, labelsOf(labels, lo), true)
	pk := rows[0].grp.k.(*kappaKernel).pk
	start, slot, val, nPairs := packCellsOld(d, len(labels), lo)
	start, slot, val = withoutN(len(labels), start, slot, val)
	got := pk.val
	if pk.pairs != nPairs || !slices.Equal(pk.start, start) || !slices.Equal(pk.slot, slot) || !slices.Equal(got, val) {
		t.Errorf("%s: packed %d pairs, %d questions, %d entries; old %d pairs, %d questions, %d entries (or the entries differ)",
			name, pk.pairs, len(pk.start)-1, len(pk.slot), nPairs, len(start)-1, len(slot))
	}
	if len(slot) == 0 {
		t.Errorf("%s: nothing packed; the comparison says little", name)
	}
}

// TestCellPackerEqualsOld: the packed κ sums built question by question
// from the units equal those built from per-pair cells (packCellsOld) on
// every instrument of every population of a generated study, on units not
// in question order, with values that are not labels, and on a wide label
// range (sparse confusion counts).
func TestCellPackerEqualsOld(t *testing.T) {
	s := synthStudy(300, 12)
	b := newBuilder(s, computeMain(s), s.MainRound)
	for _, p := range []population{{name: "humans"}, {name: "humans+judge:j1", judge: "j1"}, {name: "humans+judge:j2", judge: "j2"}} {
		for a, name := range s.Attributes {
			checkPacked(t, p.name+" "+name, b.collect(p, 0, func(g *scores.Grading, _ int) float64 { return g.Rubric[a] }), []int{1, 2, 3, 4, 5}, 1)
		}
		checkPacked(t, p.name+" checklist", b.collect(p, b.maxItems, func(g *scores.Grading, it int) float64 {
			if it < len(g.Verdicts) {
				return verdictCode(g.Verdicts[it])
			}
			return math.NaN()
		}), []int{1, 2, 3}, 1)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		name   string
		lo, L  int
		value  func() float64
		shuffl bool
	}{
		{"shuffled", 1, 5, func() float64 { return float64(1 + r.IntN(5)) }, true},
		{"not labels", 1, 5, func() float64 { return []float64{0, 1, 2.5, 3, 5, 6}[r.IntN(6)] }, false},
		{"wide labels", 0, 600, func() float64 { return float64(r.IntN(600)) }, true}, // pairs × L² > maxDenseCounts: the map
	} {
		var d ratings
		for g := range 6 {
			d.graders = append(d.graders, string(rune('a'+g)))
		}
		for q := range 80 {
			for range 1 + r.IntN(4) {
				ru := rUnit{q: q}
				gs := r.Perm(6)[:1+r.IntN(6)]
				slices.Sort(gs)
				for _, g := range gs {
					ru.vals = append(ru.vals, rVal{g, c.value()})
				}
				d.units = append(d.units, ru)
			}
		}
		if c.shuffl {
			r.Shuffle(len(d.units), func(i, j int) { d.units[i], d.units[j] = d.units[j], d.units[i] })
		}
		labels := make([]int, c.L)
		for i := range labels {
			labels[i] = c.lo + i
		}
		checkPacked(t, c.name, d, labels, c.lo)
	}
}

// An entry table of more than 2¹⁶ distinct values switches the entries'
// value indexes to uint32, the earlier ones kept; c and k are kept as
// c·V + k in a uint16 on a scale of more than smallV values up to midV,
// apart in uint16 beyond.
func TestOrdBuilderWideTable(t *testing.T) {
	for _, tc := range []struct {
		V    int
		want ordEntries
	}{
		{25, &tableEntries[uint16, uint32]{}},
		{midV, &tableEntries[uint16, uint32]{}},
		{midV + 1, &wideEntries[uint16, uint32]{}},
		{300, &wideEntries[uint16, uint32]{}},
	} {
		t.Run(fmt.Sprint(tc.V), func(t *testing.T) { checkWideTable(t, tc.V, tc.want) })
	}
}

// checkWideTable checks an ordBuilder on a scale of V values whose entries
// take the layout of want's type.
func checkWideTable(t *testing.T, V int, want ordEntries) {
	t.Helper()
	o := &ordBuilder{V: V, vPos: map[[2]int]uint32{}}
	const n = 1<<16 + 10
	var vals []float64
	for i := range n {
		num, den := i+1, 7+i%5
		o.add(i%V, (i+1)%V, num, den)
		o.add(1, 2, 3, 2) // a value seen before
		vals = append(vals, float64(num)/float64(den), 1.5)
	}
	co := &coincidences{domain: make([]float64, V), ord: o.entries(), vTab: o.vTab}
	if reflect.TypeOf(co.ord) != reflect.TypeOf(want) {
		t.Fatalf("entries %T, want %T", co.ord, want)
	}
	old := toOld(co)
	if !slices.Equal(old.eV, vals) {
		t.Errorf("values differ from num/den (%d values, want %d)", len(old.eV), len(vals))
	}
	if old.eC[2*(n-1)] != int32((n-1)%V) || old.eK[2*(n-1)] != int32(n%V) || old.eC[1] != 1 || old.eK[1] != 2 {
		t.Errorf("c and k not kept: got (%d, %d) and (%d, %d)", old.eC[2*(n-1)], old.eK[2*(n-1)], old.eC[1], old.eK[1])
	}
	if len(o.vTab) != n+1 {
		t.Errorf("%d distinct values in the table, want %d", len(o.vTab), n+1)
	}
}
