package reliability

// The implementation of the replicate statistics before they were packed
// into flat per-question arrays, kept verbatim as the reference that the
// packed ones must equal bit for bit (TestPackedEqualsReference) and as the
// baseline of BenchmarkBootstrap.

import (
	"math"
	"slices"

	"github.com/euroexec/euroexec/metrics/stats"
)

// refCoincidences holds, per question, the sparse coincidence entries
// o_q[c][k] = Σ_{u in q} n_uc·(n_uk − [c=k])/(m_u − 1) of its pairable units.
type refCoincidences struct {
	domain []float64
	perQ   [][]refCoEntry // by question index
	// Per question, for the nominal and interval levels, which need no
	// V×V table: the observed disagreement Σ_{c≠k} o_ck·δ²_ck and the
	// value margins n_c as a sparse list.
	doNom, doInt []float64
	margins      [][]refMargin
}

type refMargin struct {
	c int
	n float64
}

type refCoEntry struct {
	c, k int
	v    float64
}

func newRefCoincidences(d ratings, domain []float64) *refCoincidences {
	co := &refCoincidences{domain: domain}
	pos := make(map[float64]int, len(domain))
	for i, v := range domain {
		pos[v] = i
	}
	V := len(domain)
	cnt := make([]int, V)
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
					for len(co.perQ) <= ru.q {
						co.perQ = append(co.perQ, nil)
					}
					co.perQ[ru.q] = append(co.perQ[ru.q], refCoEntry{c, k, float64(cnt[c]*nk) / den})
				}
			}
		}
	}
	nQ := len(co.perQ)
	co.doNom, co.doInt, co.margins = make([]float64, nQ), make([]float64, nQ), make([][]refMargin, nQ)
	for q, es := range co.perQ {
		m := map[int]float64{}
		var keys []int
		for _, e := range es {
			if _, ok := m[e.c]; !ok {
				keys = append(keys, e.c)
			}
			m[e.c] += e.v
			if e.c != e.k {
				co.doNom[q] += e.v
				d := domain[e.c] - domain[e.k]
				co.doInt[q] += e.v * d * d
			}
		}
		for _, c := range keys {
			co.margins[q] = append(co.margins[q], refMargin{c, m[c]})
		}
	}
	return co
}

// alphas sets out[i] to α at levels[i] (AlphaNominal, AlphaOrdinal or
// AlphaInterval) for the resample with cnt[q] copies of question q:
// 1 − (n−1)·Σ o·δ² / Σ n_c·n_k·δ², as stats.KrippendorffAlpha; NaN when
// undefined.
func (co *refCoincidences) alphas(cnt []int, levels []string, out []float64) {
	V := len(co.domain)
	for i := range out {
		out[i] = math.NaN()
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
	nc := make([]float64, V)
	var doNom, doInt float64
	for q, ms := range co.margins {
		c := cnt[q]
		if c == 0 {
			continue
		}
		fc := float64(c)
		for _, m := range ms {
			nc[m.c] += fc * m.n
		}
		doNom += fc * co.doNom[q]
		doInt += fc * co.doInt[q]
	}
	var n, s1, s2, sq float64
	for c := 0; c < V; c++ {
		n += nc[c]
		x := co.domain[c]
		s1 += nc[c] * x
		s2 += nc[c] * x * x
		sq += nc[c] * nc[c]
	}
	if n == 0 {
		return
	}
	var doOrd, deOrd float64
	if ordinal {
		mid := make([]float64, V)
		var cum, m1, m2 float64
		for g := 0; g < V; g++ {
			mid[g] = cum + nc[g]/2
			cum += nc[g]
			m1 += nc[g] * mid[g]
			m2 += nc[g] * mid[g] * mid[g]
		}
		deOrd = 2 * (n*m2 - m1*m1)
		for q, es := range co.perQ {
			c := cnt[q]
			if c == 0 {
				continue
			}
			var sq float64
			for _, e := range es {
				if e.c != e.k {
					d := mid[e.c] - mid[e.k]
					sq += e.v * d * d
				}
			}
			doOrd += float64(c) * sq
		}
	}
	for li, level := range levels {
		var do, de float64
		switch level {
		case AlphaNominal:
			do, de = doNom, n*n-sq
		case AlphaInterval:
			do, de = doInt, 2*(n*s2-s1*s1)
		default: // ordinal
			do, de = doOrd, deOrd
		}
		if a := 1 - float64((n-1)*do)/de; !math.IsInf(a, 0) {
			out[li] = a
		}
	}
}

// cell is a grader pair's shared units of one question with the same two
// label positions: w units.
type refCell struct{ q, i, j, w int }

// refCompressCells merges the cells of equal (q, i, j), summing w, in
// (q, i, j) order.
func refCompressCells(cs []refCell) []refCell {
	slices.SortFunc(cs, func(a, b refCell) int {
		if a.q != b.q {
			return a.q - b.q
		}
		if a.i != b.i {
			return a.i - b.i
		}
		return a.j - b.j
	})
	out := cs[:0]
	for _, c := range cs {
		if n := len(out); n > 0 && out[n-1].q == c.q && out[n-1].i == c.i && out[n-1].j == c.j {
			out[n-1].w += c.w
			continue
		}
		out = append(out, c)
	}
	return out
}

// refKappaFromCells returns Cohen's κ of a grader pair's shared units, each
// counted cnt[q] times, unweighted (k0) and quadratic-weighted (kq), as
// sklearn computes them from the confusion matrix O (rows rater a):
// κ = 1 − Σ w·O / Σ w·E with E = outer(row sums r, column sums c)/n.
// Unweighted (w = [i≠j]): Σ w·O = n − trace(O) and Σ w·E = n − Σ_i r_i·c_i/n.
// Quadratic (w = (i−j)²): Σ w·E = Σ r_i·i² + Σ c_j·j² − 2·(Σ r_i·i)(Σ c_j·j)/n.
// Each is NaN when its Σ w·E = 0; n is the number of units counted.
// scratch holds at least 2L floats.
func refKappaFromCells(cells []refCell, cnt []int, L int, scratch []float64) (k0, kq, n float64) {
	rs, cs := scratch[:L], scratch[L:2*L]
	clear(rs)
	clear(cs)
	var diag, wq float64
	for _, e := range cells {
		if cnt[e.q] == 0 {
			continue
		}
		c := float64(cnt[e.q] * e.w)
		n += c
		rs[e.i] += c
		cs[e.j] += c
		if e.i == e.j {
			diag += c
		} else {
			wq += c * float64((e.i-e.j)*(e.i-e.j))
		}
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

// refANOVASums holds per-question sums of a target × rater matrix, values
// centred on their overall mean (the ICCs do not depend on a shift).
type refANOVASums struct {
	k    int
	perQ []*refQSums // by question index; nil where none
}

type refQSums struct {
	n       float64   // targets
	g, s, q float64   // Σx, Σ(row sum)², Σx²
	c       []float64 // column sums
}

func newRefANOVASums(x [][]float64, qs []int, k int) *refANOVASums {
	a := &refANOVASums{k: k}
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
	for i, r := range x {
		for len(a.perQ) <= qs[i] {
			a.perQ = append(a.perQ, nil)
		}
		s := a.perQ[qs[i]]
		if s == nil {
			s = &refQSums{c: make([]float64, k)}
			a.perQ[qs[i]] = s
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
	return a
}

// icc returns the ICC(1,·) and ICC(2,·) of the resample with cnt[q] copies
// of question q, from the Shrout & Fleiss mean squares.
func (a *refANOVASums) icc(cnt []int) stats.ICCResult {
	nan := math.NaN()
	out := stats.ICCResult{ICC1: nan, ICC1k: nan, ICC2: nan, ICC2k: nan, ICC3: nan, ICC3k: nan}
	k := float64(a.k)
	var N, G, S, Q float64
	C := make([]float64, a.k)
	for q, s := range a.perQ {
		c := cnt[q]
		if c == 0 || s == nil {
			continue
		}
		w := float64(c)
		N += w * s.n
		G += w * s.g
		S += w * s.s
		Q += w * s.q
		for j := range C {
			C[j] += w * s.c[j]
		}
	}
	if N < 2 || a.k < 2 {
		return out
	}
	corr := G * G / (N * k)
	ssr := S/k - corr
	var sc float64
	for _, c := range C {
		sc += c * c
	}
	ssc := sc/N - corr
	sst := Q - corr
	sse := sst - ssr - ssc
	msr := ssr / (N - 1)
	msw := (Q - S/k) / (N * (k - 1))
	msc := ssc / (k - 1)
	mse := sse / ((N - 1) * (k - 1))
	out.ICC1 = (msr - msw) / (msr + (k-1)*msw)
	out.ICC1k = (msr - msw) / msr
	out.ICC2 = (msr - mse) / (msr + (k-1)*mse + k*(msc-mse)/N)
	out.ICC2k = (msr - mse) / (msr + (msc-mse)/N)
	return out
}

// refAlphaFn is the old replicate function of alphaRows.
func refAlphaFn(d ratings, levels []string) func(cnt []int, out []float64) {
	var domain []float64
	for _, ru := range d.units {
		for _, v := range ru.vals {
			domain = append(domain, v.v)
		}
	}
	slices.Sort(domain)
	domain = slices.Compact(domain)
	co := newRefCoincidences(d, domain)
	return func(cnt []int, out []float64) { co.alphas(cnt, levels, out) }
}

// refKappaFn is the old replicate function of kappaRows.
func refKappaFn(d ratings, labels []int, lo int) func(cnt []int, out []float64) {
	L := len(labels)
	G := len(d.graders)
	pid := map[int]int{}
	var pairs [][]refCell
	for _, ru := range d.units {
		var lab, gs []int
		for _, v := range ru.vals {
			i := int(v.v) - lo
			if v.v != math.Trunc(v.v) || i < 0 || i >= L {
				continue
			}
			lab = append(lab, i)
			gs = append(gs, v.g)
		}
		for x := 0; x < len(gs); x++ {
			for y := x + 1; y < len(gs); y++ {
				key := gs[x]*G + gs[y]
				p, ok := pid[key]
				if !ok {
					p = len(pairs)
					pid[key] = p
					pairs = append(pairs, nil)
				}
				pairs[p] = append(pairs[p], refCell{ru.q, lab[x], lab[y], 1})
			}
		}
	}
	for p := range pairs {
		pairs[p] = refCompressCells(pairs[p])
	}
	return func(cnt []int, out []float64) {
		scratch := make([]float64, 2*L)
		var num0, numQ, den0, denQ float64
		for _, cells := range pairs {
			k0, kq, n := refKappaFromCells(cells, cnt, L, scratch)
			if !math.IsNaN(k0) {
				num0 += float64(n * k0)
				den0 += n
			}
			if !math.IsNaN(kq) {
				numQ += float64(n * kq)
				denQ += n
			}
		}
		if den0 > 0 {
			out[0] = num0 / den0
		}
		if len(out) > 1 && denQ > 0 {
			out[1] = numQ / denQ
		}
	}
}

// refICCFn is the old replicate function of iccRows (ICC1, ICC1k, ICC2,
// ICC2k); nil when no unit has two values.
func refICCFn(d ratings) func(cnt []int, out []float64) {
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
	if k == 0 {
		return nil
	}
	var x [][]float64
	var qs []int
	for _, ru := range d.units {
		if len(ru.vals) != k {
			continue
		}
		rowv := make([]float64, k)
		for i, v := range ru.vals {
			rowv[i] = v.v
		}
		x = append(x, rowv)
		qs = append(qs, ru.q)
	}
	suff := newRefANOVASums(x, qs, k)
	return func(cnt []int, out []float64) {
		r := suff.icc(cnt)
		out[0], out[1], out[2], out[3] = r.ICC1, r.ICC1k, r.ICC2, r.ICC2k
	}
}

// refBootstrap is the old bootstrap loop: ClusterBootstrap's index lists
// turned into counts, each function writing its own columns.
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
