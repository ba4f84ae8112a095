package reliability

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/euroexec/euroexec/metrics/stats"
)

// alphaRows returns Krippendorff's α of d at the given levels, each with a
// replicate function built from per-question coincidence matrices; unitNote
// says what a unit is.
func alphaRows(d ratings, levels []string, unitNote string) []*row {
	domain := domainOf(d)
	var res stats.AlphaResult
	var err error
	if len(d.graders) == 0 {
		// no raters: stats' own error for it
		res, err = stats.KrippendorffAlphaDetail(nil, nil)
	} else {
		// the units' values as the dense graders × units matrix would give
		// them (graders in order; a grader given twice in a unit counts once,
		// with its last value)
		var buf []float64
		res, err = stats.KrippendorffAlphaUnits(func(yield func([]float64) bool) {
			for _, ru := range d.units {
				buf = buf[:0]
				for i, v := range ru.vals {
					if i+1 < len(ru.vals) && ru.vals[i+1].g == v.g {
						continue
					}
					buf = append(buf, v.v)
				}
				if !yield(buf) {
					return
				}
			}
		}, domain)
	}
	// graders with a value in a pairable unit
	seen := make([]bool, len(d.graders))
	nG := 0
	for _, ru := range d.units {
		if len(ru.vals) < 2 {
			continue
		}
		for _, v := range ru.vals {
			if !seen[v.g] {
				seen[v.g] = true
				nG++
			}
		}
	}
	note := unitNote
	if err != nil {
		note = "undefined: " + trimStats(err.Error())
	}
	co := newCoincidences(d, domain, slices.Contains(levels, AlphaOrdinal))
	var rows []*row
	for _, lv := range levels {
		r := &row{statistic: lv, nUnits: res.PairableUnits, nGraders: nG, note: note}
		switch lv {
		case AlphaNominal:
			r.value = res.Nominal
		case AlphaOrdinal:
			r.value = res.Ordinal
		case AlphaInterval:
			r.value = res.Interval
		}
		rows = append(rows, r)
	}
	setGroup(&repGroup{n: len(levels), k: &alphaKernel{co: co, levels: levels}}, rows...)
	return rows
}

// domainOf returns the sorted distinct values of d (a few, or a few
// hundred for a rubric mean), without a list of every value.
func domainOf(d ratings) []float64 {
	seen := map[float64]struct{}{}
	for _, ru := range d.units {
		for _, v := range ru.vals {
			seen[v.v] = struct{}{}
		}
	}
	domain := make([]float64, 0, len(seen))
	for v := range seen {
		domain = append(domain, v)
	}
	slices.Sort(domain)
	return domain
}

// alphaKernel is the replicate statistic of the α rows: α at each level.
type alphaKernel struct {
	co     *coincidences
	levels []string
}

func (k *alphaKernel) eval(bc *blockCounts, out [][]float64, sc *scratch) {
	k.co.alphas(bc, k.levels, out, sc)
}

// trimStats drops the "stats: " prefix of an error from package stats.
func trimStats(s string) string {
	if len(s) > 7 && s[:7] == "stats: " {
		return s[7:]
	}
	return s
}

// coincidences holds, per question, the coincidence contributions
// o_q[c][k] = Σ_{u in q} n_uc·(n_uk − [c=k])/(m_u − 1) of its pairable
// units, packed into flat arrays indexed by question (compressed rows: the
// entries of question q are [start[q], start[q+1])) so that a replicate
// reads them in one sequential pass.
type coincidences struct {
	domain []float64
	nQ     int
	// Off-diagonal entries (c ≠ k), only kept when the ordinal level is
	// asked for: the ordinal δ depends on the replicate's margins. ord
	// holds each entry's (c, k) and the index of its value in vTab, in
	// the smallest integer types that hold them (an entry's value is
	// n_c·(n_k − [c=k])/(m − 1), of which a study has a handful): 3 bytes
	// an entry on a rubric scale instead of 12.
	eStart []int32
	ord    ordEntries
	vTab   []float64
	// Per question, for the nominal and interval levels, which need no
	// V×V table: the observed disagreement Σ_{c≠k} o_ck·δ²_ck and the
	// value margins n_c as a sparse list.
	doNom, doInt []float64
	mStart       []int32
	mC           []int32
	mN           []float64
	// mD holds the margins dense instead (V per question, zero for a
	// value the question lacks) when V ≤ smallV: no index to follow, and
	// adding a zero leaves a sum as it was.
	mD []float64
}

// ordEntries are the ordinal entries of a coincidences: typedEntries when
// the entries have at most maxTypes distinct (c, k, value) triples (each
// replicate's terms v·δ²_ck computed once per triple), else wideEntries
// (δ from the mid-ranks of c and k, entry by entry).
type ordEntries interface {
	// addQuestion adds, for each replicate b[j] of a block (with ns[b] ≠
	// 0) that drew the question c[j] times, c[j]·Σ v·δ² over the entries
	// [lo, hi) to doOrd[b]; per holds every replicate's table (see
	// perLen and fill; the mid-ranks themselves, stride V, when perLen is
	// 0), replicate b's from per[b·stride], and maxTypes floats past the
	// last replicate's start.
	addQuestion(lo, hi int32, bs []uint8, cs []int32, ns, per []float64, stride int, vTab, doOrd []float64)
	// perLen returns the length of a replicate's table on a scale of V
	// values, 0 when addQuestion reads the mid-ranks themselves.
	perLen(V int) int
	// fill sets dst (perLen long) to the table of a replicate with
	// mid-ranks mid.
	fill(mid, vTab, dst []float64)
}

// eachFour calls four with the positions j of the replicates bs[j] that
// have ns[bs[j]] ≠ 0, four at a time, and one with the last few. Each
// replicate comes once in a question's list, so the order in which their
// sums are finished does not matter.
func eachFour(bs []uint8, ns []float64, four func(j0, j1, j2, j3 int), one func(j int)) {
	var act [4]int
	n := 0
	for j, b := range bs {
		if ns[b] == 0 {
			continue
		}
		act[n] = j
		n++
		if n == 4 {
			four(act[0], act[1], act[2], act[3])
			n = 0
		}
	}
	for _, j := range act[:n] {
		one(j)
	}
}

// wideEntries are ordinal entries one by one: c, k and the index of the
// value in vTab.
type wideEntries struct {
	c, k, vi []int32
}

func (e *wideEntries) perLen(int) int { return 0 }

func (e *wideEntries) fill(_, _, _ []float64) {}

func (e *wideEntries) addQuestion(lo, hi int32, bs []uint8, cs []int32, ns, per []float64, stride int, vTab, doOrd []float64) {
	eC, eK, vi := e.c[lo:hi], e.k[lo:hi:hi], e.vi[lo:hi:hi]
	mids := func(j int) []float64 { b := int(bs[j]); return per[b*stride : b*stride+stride] }
	eachFour(bs, ns, func(j0, j1, j2, j3 int) {
		// four replicates' sums at once, each its own chain of additions
		// in entry order: the same sums as one at a time, four times the
		// additions in flight
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

// typedEntries are ordinal entries as indexes into the list of their
// distinct (c, k, value) triples, the types (a few hundred on a rubric
// scale, whatever the number of questions): fill computes each replicate's
// term v·δ²_ck of every type once per block, as the other layouts compute
// it per entry (the same operations: the same term bit for bit), and an
// entry is then one look-up and one addition, in entry order as before.
// An entry takes 2 bytes.
type typedEntries struct {
	typ      []uint16 // per entry, its type
	c, k, vi []int32  // per type: c, k and the index of its value in vTab
}

func (e *typedEntries) perLen(int) int { return len(e.vi) }

// fill sets dst[t] to the term v·δ²_ck of type t, δ_ck = mid[c] − mid[k].
func (e *typedEntries) fill(mid, vTab, dst []float64) {
	c, k := e.c[:len(e.vi)], e.k[:len(e.vi)]
	dst = dst[:len(e.vi)]
	for t, vi := range e.vi {
		d := mid[c[t]] - mid[k[t]]
		dst[t] = vTab[vi] * d * d
	}
}

func (e *typedEntries) addQuestion(lo, hi int32, bs []uint8, cs []int32, _, per []float64, stride int, _, doOrd []float64) {
	if lo == hi {
		// no entry: nothing to add, and per may not hold a table at all
		// (a study whose graders always agree has no types, perLen 0)
		return
	}
	typ := e.typ[lo:hi]
	// replicate j's terms; a type is below maxTypes, so the mask changes
	// no index and spares the bounds checks (per has maxTypes floats past
	// the last replicate's start)
	tab := func(j int) *[maxTypes]float64 {
		o := int(bs[j]) * stride
		return (*[maxTypes]float64)(per[o : o+maxTypes])
	}
	// Eight replicates per pass over the question's entries, each its own
	// chain of additions in entry order: the same sums as one at a time.
	// A replicate with no pairable value (ns[b] = 0) has terms of zero and
	// a sum nobody reads.
	j := 0
	for ; j+8 <= len(bs); j += 8 {
		t0, t1, t2, t3, t4, t5, t6, t7 := tab(j), tab(j+1), tab(j+2), tab(j+3), tab(j+4), tab(j+5), tab(j+6), tab(j+7)
		var s0, s1, s2, s3, s4, s5, s6, s7 float64
		for _, x := range typ {
			i := int(x) & (maxTypes - 1)
			s0 += t0[i]
			s1 += t1[i]
			s2 += t2[i]
			s3 += t3[i]
			s4 += t4[i]
			s5 += t5[i]
			s6 += t6[i]
			s7 += t7[i]
		}
		doOrd[bs[j]] += float64(cs[j]) * s0
		doOrd[bs[j+1]] += float64(cs[j+1]) * s1
		doOrd[bs[j+2]] += float64(cs[j+2]) * s2
		doOrd[bs[j+3]] += float64(cs[j+3]) * s3
		doOrd[bs[j+4]] += float64(cs[j+4]) * s4
		doOrd[bs[j+5]] += float64(cs[j+5]) * s5
		doOrd[bs[j+6]] += float64(cs[j+6]) * s6
		doOrd[bs[j+7]] += float64(cs[j+7]) * s7
	}
	for ; j+4 <= len(bs); j += 4 {
		t0, t1, t2, t3 := tab(j), tab(j+1), tab(j+2), tab(j+3)
		var s0, s1, s2, s3 float64
		for _, x := range typ {
			i := int(x) & (maxTypes - 1)
			s0 += t0[i]
			s1 += t1[i]
			s2 += t2[i]
			s3 += t3[i]
		}
		doOrd[bs[j]] += float64(cs[j]) * s0
		doOrd[bs[j+1]] += float64(cs[j+1]) * s1
		doOrd[bs[j+2]] += float64(cs[j+2]) * s2
		doOrd[bs[j+3]] += float64(cs[j+3]) * s3
	}
	for ; j < len(bs); j++ {
		t := tab(j)
		var sq float64
		for _, x := range typ {
			sq += t[int(x)&(maxTypes-1)]
		}
		doOrd[bs[j]] += float64(cs[j]) * sq
	}
}

// maxTypes is the most types typedEntries hold (at most 2¹⁶: a type is a
// uint16; a power of two: a mask): a replicate's terms take 32 KB at most.
const maxTypes = 1 << 12

// maxOrdTypes is the most types newCoincidences lets typedEntries hold
// (tests lower it to reach the other layouts).
var maxOrdTypes = maxTypes

// ordBuilder collects ordinal entries: as typedEntries while there are at
// most maxT types, else (all of them, once there is one type too many) as
// wideEntries.
type ordBuilder struct {
	V        int
	maxT     int // at most maxTypes; 0: never typed
	untyped  bool
	typ      []uint16
	tC, tK   []int32
	tVI      []int32
	tPos     map[[4]int]uint16 // (c, k, numerator, denominator) → type
	c, k, vi []int32           // untyped entries
	vTab     []float64
	vPos     map[[2]int]uint32 // (numerator, denominator) → index into vTab
}

func (o *ordBuilder) n() int {
	if !o.untyped {
		return len(o.typ)
	}
	return len(o.vi)
}

// add appends entry (c, k) of value num/den.
func (o *ordBuilder) add(c, k, num, den int) {
	if !o.untyped {
		if o.tPos == nil {
			o.tPos = map[[4]int]uint16{}
		}
		key := [4]int{c, k, num, den}
		t, ok := o.tPos[key]
		if !ok && len(o.tVI) < min(o.maxT, maxTypes) {
			t, ok = uint16(len(o.tVI)), true
			o.tPos[key] = t
			o.tC, o.tK, o.tVI = append(o.tC, int32(c)), append(o.tK, int32(k)), append(o.tVI, int32(o.value(num, den)))
		}
		if ok {
			o.typ = append(o.typ, t)
			return
		}
		// one type too many: the entries so far go to the layouts below
		o.untyped = true
		for _, t := range o.typ {
			o.put(int(o.tC[t]), int(o.tK[t]), uint32(o.tVI[t]))
		}
		o.typ, o.tC, o.tK, o.tVI, o.tPos = nil, nil, nil, nil, nil
	}
	o.put(c, k, o.value(num, den))
}

// value returns the index of num/den in vTab, added when new.
func (o *ordBuilder) value(num, den int) uint32 {
	if o.vPos == nil {
		o.vPos = map[[2]int]uint32{}
	}
	key := [2]int{num, den}
	i, ok := o.vPos[key]
	if !ok {
		i = uint32(len(o.vTab))
		o.vPos[key] = i
		o.vTab = append(o.vTab, float64(num)/float64(den))
	}
	return i
}

// put appends entry (c, k) of value vTab[i] to the untyped entries.
func (o *ordBuilder) put(c, k int, i uint32) {
	o.c, o.k, o.vi = append(o.c, int32(c)), append(o.k, int32(k)), append(o.vi, int32(i))
}

// entries returns the collected entries.
func (o *ordBuilder) entries() ordEntries {
	if !o.untyped {
		return &typedEntries{o.typ, o.tC, o.tK, o.tVI}
	}
	return &wideEntries{o.c, o.k, o.vi}
}

// smallV is the largest number of distinct values whose margins are kept
// dense.
const smallV = 16

// valueIndex maps a value of a sorted, deduplicated domain to its index:
// through a table when the domain is whole numbers over a short span (a
// rubric scale, verdict codes), else by binary search.
type valueIndex struct {
	domain []float64
	lo     float64
	table  []int32 // index+1 of value lo+i, 0 = not in the domain
}

// maxIndexSpan is the longest span of whole numbers valueIndex tables.
const maxIndexSpan = 1 << 12

func newValueIndex(domain []float64) valueIndex {
	x := valueIndex{domain: domain}
	if len(domain) == 0 {
		return x
	}
	lo, hi := domain[0], domain[len(domain)-1]
	if hi-lo >= maxIndexSpan {
		return x
	}
	for _, v := range domain {
		if v != math.Trunc(v) {
			return x
		}
	}
	x.lo = lo
	x.table = make([]int32, int(hi-lo)+1)
	for i, v := range domain {
		x.table[int(v-lo)] = int32(i + 1)
	}
	return x
}

// at returns the index of v, which is in the domain.
func (x *valueIndex) at(v float64) int {
	if x.table != nil {
		if o := v - x.lo; o >= 0 && o < float64(len(x.table)) && o == math.Trunc(o) {
			if i := x.table[int(o)]; i > 0 {
				return int(i - 1)
			}
		}
	}
	i, _ := slices.BinarySearch(x.domain, v)
	return i
}

// newCoincidences builds the per-question coincidence sums of d over the
// sorted, deduplicated domain of its values. Each unit adds, for every
// pair of its values (c, k) in ascending order of c then k, the entry
// n_c·(n_k − [c = k])/(m − 1) to its question, in unit order; the units
// are visited by question (they come so from the builder; else a stable
// sort by question keeps their order within one), so that each entry is
// added to its question's sums at once, with no list of entries.
func newCoincidences(d ratings, domain []float64, ordinal bool) *coincidences {
	co := &coincidences{domain: domain}
	idx := newValueIndex(domain)
	V := len(domain)
	byQ := func(a, b rUnit) int { return a.q - b.q }
	units := d.units
	if !slices.IsSortedFunc(units, byQ) {
		units = slices.Clone(units)
		slices.SortStableFunc(units, byQ)
	}
	nQ := 0 // questions up to the last with a pairable unit
	for _, ru := range units {
		if len(ru.vals) >= 2 {
			nQ = max(nQ, ru.q+1)
		}
	}
	co.nQ = nQ
	co.doNom, co.doInt = make([]float64, nQ), make([]float64, nQ)
	co.mStart = make([]int32, nQ+1)
	if V <= smallV {
		co.mD = make([]float64, nQ*V)
	}
	var ob *ordBuilder
	if ordinal {
		co.eStart = make([]int32, nQ+1)
		ob = &ordBuilder{V: V, maxT: maxOrdTypes}
	}
	cnt := make([]int, V)
	m := make([]float64, V)
	seen := make([]bool, V)
	var keys, present []int
	// flush stores the margins of question q, in the order its values
	// first came.
	flush := func(q int) {
		for _, c := range keys {
			if co.mD != nil {
				co.mD[q*V+c] = m[c]
			} else {
				co.mC = append(co.mC, int32(c))
				co.mN = append(co.mN, m[c])
			}
			m[c], seen[c] = 0, false
		}
		keys = keys[:0]
	}
	qDone := 0 // questions before qDone are complete
	closeTo := func(n int) {
		for ; qDone < n; qDone++ {
			co.mStart[qDone+1] = int32(len(co.mC))
			if ordinal {
				co.eStart[qDone+1] = int32(ob.n())
			}
		}
	}
	cur := -1
	for _, ru := range units {
		mv := len(ru.vals)
		if mv < 2 {
			continue
		}
		if ru.q != cur {
			if cur >= 0 {
				flush(cur)
			}
			closeTo(ru.q)
			cur = ru.q
		}
		present = present[:0]
		for _, v := range ru.vals {
			i := idx.at(v.v)
			if cnt[i] == 0 {
				present = append(present, i)
			}
			cnt[i]++
		}
		slices.Sort(present) // the values the unit has, ascending
		den := float64(mv - 1)
		for _, c := range present {
			for _, k := range present {
				nk := cnt[k]
				if c == k {
					nk--
				}
				if nk <= 0 {
					continue
				}
				v := float64(cnt[c]*nk) / den
				if !seen[c] {
					seen[c] = true
					keys = append(keys, c)
				}
				m[c] += v
				if c != k {
					co.doNom[cur] += v
					dd := domain[c] - domain[k]
					co.doInt[cur] += v * dd * dd
					if ordinal {
						ob.add(c, k, cnt[c]*nk, mv-1)
					}
				}
			}
		}
		for _, i := range present {
			cnt[i] = 0
		}
	}
	if cur >= 0 {
		flush(cur)
	}
	closeTo(nQ)
	if ordinal {
		co.ord, co.vTab = ob.entries(), ob.vTab
	}
	return co
}

// alphas sets out[b][i] to α at levels[i] (AlphaNominal, AlphaOrdinal or
// AlphaInterval) for the block's replicate b, the resample with bc's count
// of copies of each question: 1 − (n−1)·Σ o·δ² / Σ n_c·n_k·δ², as
// stats.KrippendorffAlpha; NaN when undefined. sc is the calling worker's
// scratch space. Each pass over the questions serves the whole block;
// every replicate's sums are taken in question order, as one replicate
// alone would take them.
func (co *coincidences) alphas(bc *blockCounts, levels []string, out [][]float64, sc *scratch) {
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
		for j, b := range bs {
			fc := float64(cs[j])
			doNom[b] += fc * dn
			doInt[b] += fc * di
		}
		// the margins, four replicates per pass over the question's
		// (each replicate once per question: every sum in question order)
		nc := func(j int) []float64 { b := int(bs[j]); return ncAll[b*V : b*V+V] }
		j := 0
		if co.mD != nil {
			md := co.mD[q*V : q*V+V : q*V+V]
			for ; j+4 <= len(bs); j += 4 {
				n0, n1, n2, n3 := nc(j), nc(j+1), nc(j+2), nc(j+3)
				n0, n1, n2, n3 = n0[:len(md)], n1[:len(md)], n2[:len(md)], n3[:len(md)]
				f0, f1, f2, f3 := float64(cs[j]), float64(cs[j+1]), float64(cs[j+2]), float64(cs[j+3])
				for k, m := range md {
					n0[k] += f0 * m
					n1[k] += f1 * m
					n2[k] += f2 * m
					n3[k] += f3 * m
				}
			}
			for ; j < len(bs); j++ {
				fc, n := float64(cs[j]), nc(j)[:len(md)]
				for k, m := range md {
					n[k] += fc * m
				}
			}
			continue
		}
		lo, hi := co.mStart[q], co.mStart[q+1]
		mC, mN := co.mC[lo:hi], co.mN[lo:hi:hi]
		mC = mC[:len(mN)]
		for ; j+4 <= len(bs); j += 4 {
			n0, n1, n2, n3 := nc(j), nc(j+1), nc(j+2), nc(j+3)
			f0, f1, f2, f3 := float64(cs[j]), float64(cs[j+1]), float64(cs[j+2]), float64(cs[j+3])
			for i, m := range mN {
				k := mC[i]
				n0[k] += f0 * m
				n1[k] += f1 * m
				n2[k] += f2 * m
				n3[k] += f3 * m
			}
		}
		for ; j < len(bs); j++ {
			fc, n := float64(cs[j]), nc(j)
			for i, m := range mN {
				n[mC[i]] += fc * m
			}
		}
	}
	ns, s1s, s2s, sqs := sc.floats(5, nb), sc.floats(6, nb), sc.floats(7, nb), sc.floats(8, nb)
	var midAll, doOrd, deOrd, perAll []float64
	tl := 0 // length of a replicate's table (co.ord.perLen)
	if ordinal {
		midAll, doOrd, deOrd = sc.floats(1, V*nb), sc.floats(9, nb), sc.floats(10, nb)
		if tl = co.ord.perLen(V); tl > 0 {
			perAll = sc.floats(11, tl*nb+maxTypes)
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
			if tl > 0 {
				co.ord.fill(mid, co.vTab, perAll[b*tl:b*tl+tl])
			}
		}
	}
	if ordinal {
		per, stride := perAll, tl
		if tl == 0 {
			per, stride = midAll, V
		}
		for q := 0; q < nQ; q++ {
			j0, j1 := bc.start[q], bc.start[q+1]
			if j0 == j1 {
				continue
			}
			co.ord.addQuestion(co.eStart[q], co.eStart[q+1], bc.b[j0:j1], bc.c[j0:j1:j1], ns, per, stride, co.vTab, doOrd)
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

// blockCounts is a block of replicates' counts, question by question, with
// the zero counts left out: question q was drawn c[j] times in the block's
// replicate b[j] for j in [start[q], start[q+1]), replicates ascending. The
// kernels loop over these lists instead of testing every count (a third of
// them are zero, in no predictable pattern), and one list serves every
// statistic of a population.
type blockCounts struct {
	start []int32
	b     []uint8
	c     []int32
}

// maxBlock is the largest block of replicates blockCounts can hold.
const maxBlock = 256

// nQ returns the number of questions of bc.
func (bc *blockCounts) nQ() int { return max(len(bc.start)-1, 0) }

// fill sets bc from the counts of a block of nb ≤ maxBlock replicates,
// cnt[q·nb+b] copies of question q in replicate b.
func (bc *blockCounts) fill(cnt []int32, nb int) {
	nQ := len(cnt) / nb
	if cap(bc.start) < nQ+1 {
		bc.start = make([]int32, nQ+1)
	}
	if cap(bc.b) < len(cnt) {
		bc.b, bc.c = make([]uint8, len(cnt)), make([]int32, len(cnt))
	}
	bc.start = bc.start[:nQ+1]
	bs, cs := bc.b[:len(cnt)], bc.c[:len(cnt)]
	n := 0
	for q := 0; q < nQ; q++ {
		bc.start[q] = int32(n)
		for b, c := range cnt[q*nb : q*nb+nb] {
			// written always, kept when c > 0: no branch to mispredict
			bs[n], cs[n] = uint8(b), c
			n += int(uint32(-c) >> 31)
		}
	}
	bc.start[nQ] = int32(n)
}

// scratch is one bootstrap worker's reusable space, so that replicates
// allocate nothing once the buffers have grown to their largest size.
type scratch struct {
	f [15][]float64
}

// floats returns buffer i with length n, zeroed.
func (s *scratch) floats(i, n int) []float64 {
	if cap(s.f[i]) < n {
		s.f[i] = make([]float64, n)
	}
	b := s.f[i][:n]
	clear(b)
	return b
}

// maxKappaLabels is the most points of a scale κ is computed on: each
// grader pair's κ takes a points × points table (stats.CohenKappaDetail),
// so a wider scale leaves κ out with a note and memory stays bounded.
const maxKappaLabels = 1001

// labelScale maps rubric values to κ's labels: value lo + i·step is label
// i of labels. With step 1 and a whole lo the labels are the values.
type labelScale struct {
	lo, step float64
	labels   []int
	points   int64 // points of the scale; labels is nil above maxKappaLabels
}

// wholeLabels is the scale lo…hi in whole points.
func wholeLabels(lo, hi int) labelScale {
	ls := labelScale{lo: float64(lo), step: 1, points: int64(hi - lo + 1)}
	if ls.points <= maxKappaLabels {
		for v := lo; v <= hi; v++ {
			ls.labels = append(ls.labels, v)
		}
	}
	return ls
}

// stepLabels is the scale lo…hi in steps of step (step 1 with a whole lo:
// wholeLabels); labels are then 0, 1, … (κ, weighted or not, does not
// change under a linear map of the labels).
func stepLabels(lo, hi, step float64) labelScale {
	if step == 1 && lo == math.Trunc(lo) && hi == math.Trunc(hi) {
		return wholeLabels(int(lo), int(hi))
	}
	ls := labelScale{lo: lo, step: step, points: int64(math.Round((hi-lo)/step)) + 1}
	if ls.points <= maxKappaLabels {
		for i := range int(ls.points) {
			ls.labels = append(ls.labels, i)
		}
	}
	return ls
}

// index is the label index of v; -1 when v is not a point of the scale
// (an averaged judge score).
func (ls labelScale) index(v float64) int {
	L := len(ls.labels)
	if ls.step == 1 && ls.lo == math.Trunc(ls.lo) {
		i := int(v) - int(ls.lo)
		if v != math.Trunc(v) || i < 0 || i >= L {
			return -1
		}
		return i
	}
	x := math.Round((v - ls.lo) / ls.step)
	if x < 0 || x >= float64(L) || math.Abs(ls.lo+x*ls.step-v) > 1e-9*math.Max(1, math.Abs(v)) {
		return -1
	}
	return int(x)
}

// describe names the labels for the table's note.
func (ls labelScale) describe() string {
	if ls.step == 1 && ls.lo == math.Trunc(ls.lo) {
		return fmt.Sprintf("labels %d…%d", ls.labels[0], ls.labels[len(ls.labels)-1])
	}
	hi := ls.lo + float64(ls.points-1)*ls.step
	return fmt.Sprintf("labels %s…%s in steps of %s", fmtDec(ls.lo), fmtDec(hi), fmtDec(ls.step))
}

// fmtDec writes a scale value in its shortest decimal form (rounded to 9
// places first, so that 0.1·3 reads 0.3).
func fmtDec(v float64) string {
	return strconv.FormatFloat(math.Round(v*1e9)/1e9, 'f', -1, 64)
}

// kappaRows returns the pair-averaged Cohen's κ (and, when weighted, the
// quadratic-weighted κ) of d over the labels of ls, and the number of
// values dropped as not points of the scale.
//
// Grader pairs are numbered as they first come in unit order. Each pair's
// point κ is stats.CohenKappaDetail on its labels (κ depends on them only
// through the confusion matrix, so they are expanded from its counts); the
// replicates' packed sums are built question by question straight from the
// units (packedCells), with no list of cells per pair.
func kappaRows(d ratings, ls labelScale, weighted bool) ([]*row, int) {
	if ls.points > maxKappaLabels {
		names := []string{Kappa}
		if weighted {
			names = append(names, KappaQuadratic)
		}
		rows := make([]*row, len(names))
		for i, n := range names {
			rows[i] = &row{statistic: n, value: math.NaN(),
				note: fmt.Sprintf("left out: the scale has %d points; κ is computed on scales of at most %d points", ls.points, maxKappaLabels)}
		}
		return rows, 0
	}
	labels := ls.labels
	L := len(labels)
	G := len(d.graders)
	type pairData struct {
		g1, g2 int
		n      int        // shared units
		k      [2]float64 // κ unweighted and quadratic
	}
	pid := make([]int32, G*G) // pair index + 1 of graders (g1, g2), 0 = none yet
	var pairs []*pairData
	// label of value v of a unit, -1 when it is not a whole label
	label := ls.index
	dropped := 0
	for _, ru := range d.units {
		for x, vx := range ru.vals {
			if label(vx.v) < 0 {
				dropped++
				continue
			}
			for _, vy := range ru.vals[x+1:] {
				if label(vy.v) < 0 {
					continue
				}
				key := vx.g*G + vy.g
				p := int(pid[key]) - 1
				if p < 0 {
					p = len(pairs)
					pid[key] = int32(p + 1)
					pairs = append(pairs, &pairData{g1: vx.g, g2: vy.g})
				}
				pairs[p].n++
			}
		}
	}
	conf := newPairCounts(len(pairs), L)
	pk := newCellPacker(len(pairs), L)
	eachByQuestion(d.units, func(ru *rUnit) {
		pk.question(ru.q)
		for x, vx := range ru.vals {
			i := label(vx.v)
			if i < 0 {
				continue
			}
			for _, vy := range ru.vals[x+1:] {
				j := label(vy.v)
				if j < 0 {
					continue
				}
				p := int(pid[vx.g*G+vy.g]) - 1
				conf.add(p, i, j)
				pk.add(p, i, j)
			}
		}
	})
	// κ of each pair by stats.CohenKappaDetail on its labels, expanded
	// from the pair's confusion counts into buffers reused from pair to pair
	var la, lb []int
	for p, pd := range pairs {
		la, lb = la[:0], lb[:0]
		conf.each(p, func(i, j int, w int32) {
			for range w {
				la, lb = append(la, labels[i]), append(lb, labels[j])
			}
		})
		pd.k = [2]float64{math.NaN(), math.NaN()}
		if res, err := stats.CohenKappaDetail(la, lb, labels); err == nil {
			pd.k = [2]float64{res.Kappa, res.Quadratic}
		}
	}
	names := []string{Kappa}
	if weighted {
		names = append(names, KappaQuadratic)
	}
	var rows []*row
	for wi := range names {
		var num, den float64
		used, undefined, nUnits := 0, 0, 0
		seen := make([]bool, G)
		nG := 0
		for _, p := range pairs {
			k := p.k[wi]
			if math.IsNaN(k) {
				undefined++
				continue
			}
			n := float64(p.n)
			num += float64(n * k)
			den += n
			used++
			nUnits += p.n
			for _, g := range []int{p.g1, p.g2} {
				if !seen[g] {
					seen[g] = true
					nG++
				}
			}
		}
		r := &row{statistic: names[wi], value: math.NaN(), nUnits: nUnits, nGraders: nG}
		if den > 0 {
			r.value = num / den
		}
		r.note = fmt.Sprintf("mean over %d grader pairs weighted by shared units; %s", used, ls.describe())
		if undefined > 0 {
			r.note += fmt.Sprintf("; %d pairs with κ undefined left out", undefined)
		}
		if len(pairs) == 0 {
			r.note = "undefined: no unit graded by two graders"
		}
		rows = append(rows, r)
	}
	setGroup(&repGroup{n: len(rows), k: &kappaKernel{pk: pk.done(), L: L}}, rows...)
	return rows, dropped
}

// eachByQuestion calls f on every unit, question by question, the units of
// a question in their order (a stable sort by question when they do not
// come so; the builder gives them so).
func eachByQuestion(units []rUnit, f func(ru *rUnit)) {
	byQ := func(a, b rUnit) int { return a.q - b.q }
	if slices.IsSortedFunc(units, byQ) {
		for i := range units {
			f(&units[i])
		}
		return
	}
	order := make([]int32, len(units))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return units[a].q - units[b].q })
	for _, i := range order {
		f(&units[i])
	}
}

// pairCounts are the confusion counts of every grader pair: dense (pairs ×
// L × L) when that is small, else a list of the cells counted (pair, i, j)
// sorted and merged once before the first each: a map keyed by cell took
// most of the time of a study with hundreds of graders per response.
type pairCounts struct {
	L      int
	dense  []int32
	cells  []int64 // sparse: (p·L + i)·L + j of each count, then merged in order
	counts []int32 // sparse, once merged: the count of cells[x]
}

// maxDenseCounts is the largest pairs × L × L pairCounts keeps dense. A
// variable for the tests.
var maxDenseCounts = 1 << 22

func newPairCounts(pairs, L int) *pairCounts {
	c := &pairCounts{L: L}
	if pairs*L*L <= maxDenseCounts {
		c.dense = make([]int32, pairs*L*L)
	}
	return c
}

func (c *pairCounts) add(p, i, j int) {
	if c.dense != nil {
		c.dense[(p*c.L+i)*c.L+j]++
		return
	}
	c.cells = append(c.cells, int64((p*c.L+i)*c.L+j))
}

// each calls f on pair p's nonzero counts, in (i, j) order. No add may
// come after the first each.
func (c *pairCounts) each(p int, f func(i, j int, w int32)) {
	L := c.L
	if c.dense != nil {
		for ij, w := range c.dense[p*L*L : (p+1)*L*L] {
			if w > 0 {
				f(ij/L, ij%L, w)
			}
		}
		return
	}
	if c.counts == nil {
		slices.Sort(c.cells)
		c.counts = make([]int32, 0, 16)
		n := 0
		for x, k := range c.cells {
			if x > 0 && k == c.cells[n-1] {
				c.counts[n-1]++
				continue
			}
			c.cells[n] = k
			c.counts = append(c.counts, 1)
			n++
		}
		c.cells = slices.Clip(c.cells[:n])
	}
	lo, hi := int64(p*L*L), int64((p+1)*L*L)
	x, _ := slices.BinarySearch(c.cells, lo)
	for ; x < len(c.cells) && c.cells[x] < hi; x++ {
		ij := int(c.cells[x] - lo)
		f(ij/L, ij%L, c.counts[x])
	}
}

// packedCells holds, per question, the contributions of its shared units
// to every grader pair's confusion-matrix sums (see accumulate), as sparse
// (slot, value) entries in ascending slot order: question q's are
// [start[q], start[q+1]); slot p·stride + s is sum s of pair p. Every
// value is a whole number (counts of units, and Σ (i − j)² over them), so
// the weighted sums are exact in any order and equal the cell-by-cell sums
// bit for bit. (They stay float64: as uint32 they would take a third less
// memory, but the conversion in the replicate loop made κ 60 % slower.)
type packedCells struct {
	pairs, stride int // stride: floats of one pair's sums (2L + 2)
	start         []int32
	slot          []int32
	val           []float64
}

// cellPacker builds a packedCells question by question: question(q)
// starts (or continues) question q, which must not come before the last
// one; add counts one shared unit of pair p with labels (i, j).
type cellPacker struct {
	pk      *packedCells
	L       int
	cur     int
	acc     []int64 // the current question's sums by slot
	touched []int32 // slots of acc that are nonzero
}

func newCellPacker(pairs, L int) *cellPacker {
	stride := 2*L + 2
	return &cellPacker{
		pk:  &packedCells{pairs: pairs, stride: stride, start: []int32{0}},
		L:   L,
		cur: -1,
		acc: make([]int64, pairs*stride),
	}
}

func (c *cellPacker) question(q int) {
	if q == c.cur {
		return
	}
	c.flush()
	c.cur = q
}

func (c *cellPacker) add(p, i, j int) {
	base := p * c.pk.stride
	L := c.L
	c.bump(base+i, 1)
	c.bump(base+L+j, 1)
	if i == j {
		c.bump(base+2*L, 1)
	} else {
		c.bump(base+2*L+1, int64((i-j)*(i-j)))
	}
}

func (c *cellPacker) bump(s int, v int64) {
	if c.acc[s] == 0 {
		c.touched = append(c.touched, int32(s))
	}
	c.acc[s] += v
}

// flush stores the current question's sums in slot order and closes the
// questions up to it.
func (c *cellPacker) flush() {
	if c.cur < 0 || len(c.touched) == 0 {
		return
	}
	pk := c.pk
	for len(pk.start) < c.cur+1 {
		pk.start = append(pk.start, int32(len(pk.slot)))
	}
	slices.Sort(c.touched)
	for _, s := range c.touched {
		v := c.acc[s]
		c.acc[s] = 0
		pk.slot = append(pk.slot, s)
		pk.val = append(pk.val, float64(v))
	}
	c.touched = c.touched[:0]
	pk.start = append(pk.start, int32(len(pk.slot)))
}

// done finishes the last question and returns the packed sums.
func (c *cellPacker) done() *packedCells {
	c.flush()
	c.acc = nil
	return c.pk
}

// kappaKernel is the replicate statistic of the κ rows: the pair-averaged
// unweighted κ and, when there is a second output, the quadratic one.
type kappaKernel struct {
	pk *packedCells
	L  int
}

func (k *kappaKernel) eval(bc *blockCounts, out [][]float64, sc *scratch) {
	nb := len(out)
	per := max(1, maxKappaChunk/(k.pk.stride*nb)) // pairs per chunk
	if per >= k.pk.pairs {
		k.finish(k.sums(k.pk, bc, out, sc), out)
		return
	}
	// Many grader pairs: the pairs go chunk by chunk, so that the block's
	// sums take at most maxKappaChunk floats whatever the number of pairs;
	// each replicate's κ sums still add the pairs in ascending order, so
	// the values are those of one chunk bit for bit.
	tot := sc.floats(14, 4*nb)
	var sub packedCells
	sub.stride = k.pk.stride
	cur := slices.Clone(k.pk.start[:len(k.pk.start)-1]) // per question: its first entry not yet in a chunk
	for p0 := 0; p0 < k.pk.pairs; p0 += per {
		p1 := min(k.pk.pairs, p0+per)
		k.pk.chunk(p0, p1, cur, &sub)
		k.addPairs(&sub, k.sums(&sub, bc, out, sc), nb, tot)
	}
	k.setOut(tot, out)
}

// maxKappaChunk is the most floats of a block's κ sums (pairs × stride ×
// replicates) kept at once; a block with more grader pairs goes chunk by
// chunk (kappaKernel.eval). A variable for the tests.
var maxKappaChunk = 1 << 20

// sums returns the block's accumulated pair sums of pk, replicate-major
// (see finish).
func (k *kappaKernel) sums(pk *packedCells, bc *blockCounts, out [][]float64, sc *scratch) []float64 {
	w, nb := pk.stride*pk.pairs, len(out)
	return pk.accumulateRows(bc, nb, sc.floats(2, w*nb))
}

// chunk sets sub to the pairs p0 … p1−1 of pk, their slots counted from
// p0's, the chunks taken in ascending order: cur[q] is question q's first
// entry not in an earlier chunk, and is moved past this chunk's.
func (pk *packedCells) chunk(p0, p1 int, cur []int32, sub *packedCells) {
	base, end := int32(p0*pk.stride), int32(p1*pk.stride)
	sub.pairs = p1 - p0
	sub.start, sub.slot, sub.val = append(sub.start[:0], 0), sub.slot[:0], sub.val[:0]
	for q := range cur {
		x, hi := cur[q], pk.start[q+1]
		for ; x < hi && pk.slot[x] < end; x++ {
			sub.slot = append(sub.slot, pk.slot[x]-base)
			sub.val = append(sub.val, pk.val[x])
		}
		cur[q] = x
		sub.start = append(sub.start, int32(len(sub.slot)))
	}
}

// finish sets out[b] from the block's accumulated pair sums accAll (see
// accumulate): the pair-averaged κ of replicate b, pairs weighted by their
// units, pairs with κ undefined left out.
func (k *kappaKernel) finish(accAll []float64, out [][]float64) {
	var tot [4 * maxBlock]float64
	k.addPairs(k.pk, accAll, len(out), tot[:4*len(out)])
	k.setOut(tot[:4*len(out)], out)
}

// addPairs adds, for each replicate b of the block, the κ sums of pk's
// pairs in ascending order to tot[4b:4b+4]: Σ n·κ and Σ n over the pairs
// with κ defined, unweighted then quadratic.
func (k *kappaKernel) addPairs(pk *packedCells, accAll []float64, nb int, tot []float64) {
	w := pk.stride * pk.pairs
	for b := range nb {
		acc := accAll[b*w : b*w+w]
		t := tot[4*b : 4*b+4]
		num0, den0, numQ, denQ := t[0], t[1], t[2], t[3]
		for p := 0; p < pk.pairs; p++ {
			k0, kq, n := kappaFromSums(acc[p*pk.stride:(p+1)*pk.stride], k.L)
			if !math.IsNaN(k0) {
				num0 += float64(n * k0)
				den0 += n
			}
			if !math.IsNaN(kq) {
				numQ += float64(n * kq)
				denQ += n
			}
		}
		t[0], t[1], t[2], t[3] = num0, den0, numQ, denQ
	}
}

// setOut sets out[b] from replicate b's sums tot[4b:4b+4] (see addPairs).
func (k *kappaKernel) setOut(tot []float64, out [][]float64) {
	for b, o := range out {
		t := tot[4*b : 4*b+4]
		if t[1] > 0 {
			o[0] = t[0] / t[1]
		}
		if len(o) > 1 && t[3] > 0 {
			o[1] = t[2] / t[3]
		}
	}
}

// accumulateRows fills acc (zeroed, nb × pairs × stride) with each pair's
// weighted confusion-matrix sums over the resamples of a block of nb
// replicates (bc): row sums r (L), column sums c (L), then the diagonal
// and Σ w·(i−j)² off the diagonal. (n is Σ r: kappaFromSums adds it up.)
func (pk *packedCells) accumulateRows(bc *blockCounts, nb int, acc []float64) []float64 {
	w := pk.stride * pk.pairs
	nQ := min(len(pk.start)-1, bc.nQ())
	for q := 0; q < nQ; q++ {
		j0, j1 := bc.start[q], bc.start[q+1]
		lo, hi := pk.start[q], pk.start[q+1]
		if j0 == j1 || lo == hi {
			continue
		}
		slot, val := pk.slot[lo:hi], pk.val[lo:hi:hi]
		bs, cs := bc.b[j0:j1], bc.c[j0:j1:j1]
		accOf := func(j int) []float64 { b := int(bs[j]); return acc[b*w : b*w+w] }
		j := 0
		// four replicates per pass over the question's entries (each
		// replicate once per question, each slot once per replicate: the
		// same additions in the same order as one at a time)
		for ; j+4 <= len(bs); j += 4 {
			a0, a1, a2, a3 := accOf(j), accOf(j+1), accOf(j+2), accOf(j+3)
			f0, f1, f2, f3 := float64(cs[j]), float64(cs[j+1]), float64(cs[j+2]), float64(cs[j+3])
			for x, s := range slot {
				v := val[x]
				a0[s] += f0 * v
				a1[s] += f1 * v
				a2[s] += f2 * v
				a3[s] += f3 * v
			}
		}
		for ; j < len(bs); j++ {
			fc := float64(cs[j])
			ab := accOf(j)
			for x, s := range slot {
				ab[s] += fc * val[x]
			}
		}
	}
	return acc
}

// kappaFromSums returns Cohen's κ of a grader pair from its weighted
// confusion-matrix sums a (see accumulate), unweighted (k0) and
// quadratic-weighted (kq), as sklearn computes them from the confusion
// matrix O (rows rater a): κ = 1 − Σ w·O / Σ w·E with E = outer(row sums r,
// column sums c)/n. Unweighted (w = [i≠j]): Σ w·O = n − trace(O) and
// Σ w·E = n − Σ_i r_i·c_i/n. Quadratic (w = (i−j)²): Σ w·E = Σ r_i·i² +
// Σ c_j·j² − 2·(Σ r_i·i)(Σ c_j·j)/n. Each is NaN when its Σ w·E = 0; n is
// the number of units counted, Σ r: every sum is a whole number, exact in
// any order, so it equals a sum of n's own (which the packed sums no
// longer carry: an eighth fewer entries) bit for bit.
func kappaFromSums(a []float64, L int) (k0, kq, n float64) {
	rs, cs := a[:L], a[L:2*L]
	diag, wq := a[2*L], a[2*L+1]
	for _, r := range rs {
		n += r
	}
	k0, kq = math.NaN(), math.NaN()
	if n == 0 {
		return k0, kq, 0
	}
	var r1, r2, c1, c2, rc float64
	for i := 0; i < L; i++ {
		fi := float64(i)
		r1 += rs[i] * fi
		r2 += rs[i] * fi * fi
		c1 += cs[i] * fi
		c2 += cs[i] * fi * fi
		rc += rs[i] * cs[i]
	}
	if we := n - rc/n; we > 0 {
		k0 = 1 - (n-diag)/we
	}
	if we := r2 + c2 - 2*r1*c1/n; we > 0 {
		kq = 1 - wq/we
	}
	return k0, kq, n
}

// iccRows returns ICC(1,1) and ICC(1,k) of the units of d with exactly k
// values (k the modal count), and ICC(2,1), ICC(2,k) when every unit was
// scored by the same graders; otherwise why says why the latter are left out.
func iccRows(d ratings) (rows []*row, why string) {
	freq := map[int]int{}
	for _, ru := range d.units {
		if m := len(ru.vals); m >= 2 {
			freq[m]++
		}
	}
	k, best := 0, 0
	for m, f := range freq {
		if f > best || (f == best && m > k) {
			k, best = m, f
		}
	}
	r1 := &row{statistic: ICC11, value: math.NaN()}
	r1k := &row{statistic: ICC1k, value: math.NaN()}
	if k == 0 {
		r1.note = "undefined: no unit has two values"
		r1k.note = r1.note
		return []*row{r1, r1k}, "no unit has two values"
	}
	var x [][]float64
	var qs []int
	seen := map[int]bool{}
	pairable := 0
	for _, ru := range d.units {
		if len(ru.vals) >= 2 {
			pairable++
		}
		if len(ru.vals) != k {
			continue
		}
		rowv := make([]float64, k)
		for i, v := range ru.vals {
			rowv[i] = v.v
			seen[v.g] = true
		}
		x = append(x, rowv)
		qs = append(qs, ru.q)
	}
	res := stats.ICC(x)
	note := fmt.Sprintf("k = %d (modal number of graders); %d of %d units with two or more values", k, len(x), pairable)
	if len(x) < 2 {
		note = "undefined: fewer than two units with k values; " + note
	}
	for _, r := range []*row{r1, r1k} {
		r.nUnits, r.nGraders, r.note = len(x), len(seen), note
	}
	r1.value, r1k.value = res.ICC1, res.ICC1k
	suff := newANOVASums(x, qs, k)
	grp := &repGroup{n: 4, k: suff}
	setGroup(grp, r1, r1k)
	rows = []*row{r1, r1k}
	// ICC(2,·): the same graders on every unit that has a value.
	same := true
	var set []int
	for i, ru := range d.units {
		gs := make([]int, len(ru.vals))
		for j, v := range ru.vals {
			gs[j] = v.g
		}
		if i == 0 {
			set = gs
		} else if !slices.Equal(set, gs) {
			same = false
			break
		}
	}
	switch {
	case !same:
		return rows, "the graders differ between units (ICC(2,·) needs the same graders on every unit)"
	case len(set) < 2:
		return rows, "fewer than two graders"
	}
	r2 := &row{statistic: ICC21, value: res.ICC2, nUnits: len(x), nGraders: len(set), note: fmt.Sprintf("the same %d graders scored all %d units", k, len(x))}
	r2k := &row{statistic: ICC2k, value: res.ICC2k, nUnits: len(x), nGraders: len(set), note: r2.note}
	r2.grp, r2.gi = grp, 2
	r2k.grp, r2k.gi = grp, 3
	return append(rows, r2, r2k), ""
}

// anovaSums holds per-question sums of a target × rater matrix, values
// centred on their overall mean (the ICCs do not depend on a shift), packed
// in flat arrays over the questions that have targets (qs ascending).
type anovaSums struct {
	k          int
	qs         []int32   // questions with targets, ascending
	n, g, s, q []float64 // per entry of qs: targets, Σx, Σ(row sum)², Σx²
	c          []float64 // per entry of qs, k column sums
}

func newANOVASums(x [][]float64, qs []int, k int) *anovaSums {
	a := &anovaSums{k: k}
	var tot float64
	n := 0
	for _, r := range x {
		for _, v := range r {
			tot += v
			n++
		}
	}
	c0 := 0.0
	if n > 0 {
		c0 = tot / float64(n)
	}
	type qSums struct {
		n, g, s, q float64
		c          []float64
	}
	var perQ []*qSums
	for i, r := range x {
		for len(perQ) <= qs[i] {
			perQ = append(perQ, nil)
		}
		s := perQ[qs[i]]
		if s == nil {
			s = &qSums{c: make([]float64, k)}
			perQ[qs[i]] = s
		}
		var R float64
		for j, v := range r {
			v -= c0
			R += v
			s.q += v * v
			s.c[j] += v
		}
		s.n++
		s.g += R
		s.s += R * R
	}
	for q, s := range perQ {
		if s == nil {
			continue
		}
		a.qs = append(a.qs, int32(q))
		a.n, a.g, a.s, a.q = append(a.n, s.n), append(a.g, s.g), append(a.s, s.s), append(a.q, s.q)
		a.c = append(a.c, s.c...)
	}
	return a
}

func (a *anovaSums) eval(bc *blockCounts, out [][]float64, sc *scratch) { a.icc(bc, out, sc) }

// sumsByRow is the pass of icc over the questions replicate by replicate,
// over the replicates that drew each question (bc's lists): it adds each
// question's four sums into Ns, Gs, Ss, Qs and its k column sums into Call
// (nb × k, replicate-major), in question order.
func (a *anovaSums) sumsByRow(bc *blockCounts, nQ int, Ns, Gs, Ss, Qs, Call []float64) {
	for i, q := range a.qs {
		if int(q) >= nQ {
			break
		}
		j0, j1 := bc.start[q], bc.start[q+1]
		if j0 == j1 {
			continue
		}
		cs := a.c[i*a.k : (i+1)*a.k : (i+1)*a.k]
		an, ag, as, aq := a.n[i], a.g[i], a.s[i], a.q[i]
		bcc := bc.c[j0:j1:j1]
		for j, b := range bc.b[j0:j1] {
			w := float64(bcc[j])
			Ns[b] += w * an
			Gs[b] += w * ag
			Ss[b] += w * as
			Qs[b] += w * aq
			C := Call[int(b)*a.k : int(b)*a.k+a.k]
			for j := range C {
				C[j] += w * cs[j]
			}
		}
	}
}

// icc sets out[b] to ICC(1,1), ICC(1,k), ICC(2,1), ICC(2,k) of the block's
// replicate b, the resample with bc's count of copies of each question,
// from the Shrout & Fleiss mean squares (NaN when undefined). sc is the
// calling worker's scratch space.
func (a *anovaSums) icc(bc *blockCounts, out [][]float64, sc *scratch) {
	nb := len(out)
	k := float64(a.k)
	Ns, Gs, Ss, Qs := sc.floats(5, nb), sc.floats(6, nb), sc.floats(7, nb), sc.floats(8, nb)
	Call := sc.floats(0, a.k*nb)
	nQ := bc.nQ()
	a.sumsByRow(bc, nQ, Ns, Gs, Ss, Qs, Call)
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
