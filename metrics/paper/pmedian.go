package paper

import (
	"cmp"
	"math"
	"slices"

	"github.com/euroexec/euroexec/metrics/stats"
)

// tdraw is one draw's paired t statistic, kept as |t| (the two-sided p
// depends on t only through |t|) with its degrees of freedom.
type tdraw struct {
	at float64 // |t|; +Inf for a constant nonzero difference
	df int32   // n − 1 ≥ 1
}

// pairedT is pairedP without the p-value: the paired t statistic of the
// differences d (in pairedP's operations, so StudentTTwoSided(t, df) is
// bit for bit pairedP(d, sq)) and whether p is defined (len(d) ≥ 2 and t
// is not NaN).
func pairedT(d, sq []float64) (tdraw, bool) {
	n := len(d)
	if n < 2 {
		return tdraw{}, false
	}
	m := stats.Mean(d)
	sq = sq[:n]
	for i, v := range d {
		e := v - m
		sq[i] = e * e
	}
	fn := float64(n)
	v := (stats.Sum(sq) / fn) * (fn / float64(n-1))
	se := math.Sqrt(v / fn)
	t := (m - 0) / se
	if math.IsNaN(t) {
		return tdraw{}, false
	}
	return tdraw{at: math.Abs(t), df: int32(n - 1)}, true
}

// pairedTAt is pairedT of the differences v[idx[0]], v[idx[1]], … (none
// NaN) without gathering them: the pairwise sums of stats.Sum are taken
// over the indices in the same order and grouping, and the squared
// deviations are summed as they are formed, so the result is pairedT's
// bit for bit (TestPairedTAtMatches).
func pairedTAt(v []float64, idx []int) (tdraw, bool) {
	n := len(idx)
	if n < 2 {
		return tdraw{}, false
	}
	fn := float64(n)
	m := (0.0 + pairwiseAt(v, idx)) / fn
	ss := 0.0 + pairwiseSqAt(v, idx, m)
	vr := (ss / fn) * (fn / float64(n-1))
	se := math.Sqrt(vr / fn)
	t := (m - 0) / se
	if math.IsNaN(t) {
		return tdraw{}, false
	}
	return tdraw{at: math.Abs(t), df: int32(n - 1)}, true
}

// pairwiseAt is stats' pairwise summation (numpy's) of v[idx[i]]: a
// left-to-right loop below 8 terms, eight interleaved sums up to 128, a
// split at half (rounded down to a multiple of 8) above.
func pairwiseAt(v []float64, idx []int) float64 {
	n := len(idx)
	switch {
	case n < 8:
		res := 0.0
		for _, i := range idx {
			res += v[i]
		}
		return res
	case n <= 128:
		var r [8]float64
		for j := range r {
			r[j] = v[idx[j]]
		}
		i := 8
		for ; i < n-n%8; i += 8 {
			x := idx[i : i+8 : i+8]
			r[0] += v[x[0]]
			r[1] += v[x[1]]
			r[2] += v[x[2]]
			r[3] += v[x[3]]
			r[4] += v[x[4]]
			r[5] += v[x[5]]
			r[6] += v[x[6]]
			r[7] += v[x[7]]
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += v[idx[i]]
		}
		return res
	default:
		n2 := n / 2
		n2 -= n2 % 8
		return pairwiseAt(v, idx[:n2]) + pairwiseAt(v, idx[n2:])
	}
}

// pairwiseSqAt is pairwiseAt of the squared deviations (v[idx[i]] − m)²,
// each rounded to float64 before it is added (no fused multiply-add), as
// when they are stored first.
func pairwiseSqAt(v []float64, idx []int, m float64) float64 {
	sq := func(i int) float64 {
		e := v[i] - m
		return float64(e * e)
	}
	n := len(idx)
	switch {
	case n < 8:
		res := 0.0
		for _, i := range idx {
			res += sq(i)
		}
		return res
	case n <= 128:
		var r [8]float64
		for j := range r {
			r[j] = sq(idx[j])
		}
		i := 8
		for ; i < n-n%8; i += 8 {
			x := idx[i : i+8 : i+8]
			r[0] += sq(x[0])
			r[1] += sq(x[1])
			r[2] += sq(x[2])
			r[3] += sq(x[3])
			r[4] += sq(x[4])
			r[5] += sq(x[5])
			r[6] += sq(x[6])
			r[7] += sq(x[7])
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += sq(idx[i])
		}
		return res
	default:
		n2 := n / 2
		n2 -= n2 % 8
		return pairwiseSqAt(v, idx[:n2], m) + pairwiseSqAt(v, idx[n2:], m)
	}
}

// pOf is the two-sided p-value of a draw: stats.StudentTTwoSided, which
// depends on t only through −|t|. It is a number (never NaN) for a t that
// is not NaN and df ≥ 1.
func pOf(d tdraw) float64 { return stats.StudentTTwoSided(-d.at, float64(d.df)) }

// medianPFull is the reference for pMedian.median: every draw's p, then
// stats.Median (NaN without draws).
func medianPFull(ts []tdraw) float64 {
	if len(ts) == 0 {
		return math.NaN()
	}
	ps := make([]float64, len(ts))
	for i, d := range ts {
		ps[i] = pOf(d)
	}
	return stats.Median(ps)
}

// pMedian finds the median p-value of a set of draws while evaluating the
// incomplete beta function of stats.StudentTTwoSided only for the draws
// that can be the median; the result is bit for bit medianPFull's (the
// median of the exact p-values), its buffers are reused between calls.
//
// Within draws of equal df, p is a decreasing function of |t|. The draws
// are sorted by df, then by |t| descending (p ascending); an approximate
// normal deviate z(|t|, df), cheap and increasing in |t|, ranks the draws
// of different df. The exact p is computed for a window per df group —
// the draws whose z lies within a band around the approximate median,
// plus one draw on either side and every draw whose |t| is within a
// relative 1e-9 (or absolute 1e-12) of a window's edge, so that a draw
// outside a window has a p on the right side of the window's edge even if
// the floating-point p is not exactly monotone in |t|. The median of the
// exact values is accepted when the window ranks hold the median ranks,
// and each group's first window value is at most the lower median value
// and its last at least the upper one (then every draw before a window is
// below, and every draw after it above, the median); otherwise the band
// widens, and after a few tries every draw is evaluated.
type pMedian struct {
	items []pItem
	win   []float64
	z     []float64
}

// pItem is a draw with its approximate deviate and, once evaluated, its
// exact p.
type pItem struct {
	tdraw
	z    float64
	p    float64
	done bool
}

// tieTol reports whether two |t| of one group are close enough that their
// floating-point p-values might not be ordered like them.
func tieTol(a, b float64) bool {
	if a == b {
		return true
	}
	d := math.Abs(a - b)
	return d <= 1e-12 || d <= 1e-9*math.Max(a, b)
}

// zApprox is Wallace's (1959) normal approximation of a t statistic:
// (8ν+1)/(8ν+3)·√(ν·ln(1+t²/ν)), increasing in |t| for a fixed ν; its
// error is within 6 % of 1+z for ν ≥ 1 and 1 % for ν ≥ 9.
func zApprox(d tdraw) float64 {
	nu := float64(d.df)
	return (8*nu + 1) / (8*nu + 3) * math.Sqrt(nu*math.Log1p(d.at*d.at/nu))
}

// eval returns the exact p of item i, computing it once; consecutive
// items of a group with equal |t| share it.
func (s *pMedian) eval(i, start int) float64 {
	it := &s.items[i]
	if !it.done {
		if i > start && s.items[i-1].done && s.items[i-1].at == it.at {
			it.p = s.items[i-1].p
		} else {
			it.p = pOf(it.tdraw)
		}
		it.done = true
	}
	return it.p
}

// median returns the median over ts of the two-sided p-value (NaN when ts
// is empty), bit for bit medianPFull(ts).
func (s *pMedian) median(ts []tdraw) float64 {
	n := len(ts)
	if n == 0 {
		return math.NaN()
	}
	k1, k2 := (n-1)/2, n/2
	s.items = s.items[:0]
	for _, d := range ts {
		s.items = append(s.items, pItem{tdraw: d, z: zApprox(d)})
	}
	items := s.items
	slices.SortFunc(items, func(a, b pItem) int {
		if c := cmp.Compare(a.df, b.df); c != 0 {
			return c
		}
		return cmp.Compare(b.at, a.at)
	})
	// the approximate median ranks, z descending (p ascending)
	s.z = s.z[:0]
	for i := range items {
		s.z = append(s.z, items[i].z)
	}
	slices.Sort(s.z)
	zHi, zLo := s.z[n-1-k1], s.z[n-1-k2] // zHi ≥ zLo
	oneGroup := items[0].df == items[n-1].df
	w := 0.0 // one df: z orders the draws exactly like p
	if !oneGroup {
		w = (1 + zHi) * (0.02 + 0.08/float64(items[0].df))
	}
	for try := 0; ; try++ {
		full := try == 4 || math.IsInf(w, 0) || math.IsNaN(w) || math.IsInf(zHi, 0)
		if v, ok := s.window(zLo-w, zHi+w, k1, k2, full); ok {
			return v
		}
		if w == 0 {
			w = 0.01 * (1 + zHi)
		} else {
			w *= 8
		}
	}
}

// window evaluates the draws whose z is in [lo, hi] (every draw when
// full), with the guards of pMedian, and returns the median and true when
// the checks prove it exact.
func (s *pMedian) window(lo, hi float64, k1, k2 int, full bool) (float64, bool) {
	items := s.items
	n := len(items)
	s.win = s.win[:0]
	below := 0
	type edge struct{ first, last, start, end int }
	var edges []edge
	for start := 0; start < n; {
		end := start + 1
		for end < n && items[end].df == items[start].df {
			end++
		}
		a, b := start, end // window [a, b)
		if !full {
			a = start
			for a < end && items[a].z > hi {
				a++
			}
			b = a
			for b < end && items[b].z >= lo {
				b++
			}
			// one draw on either side, then the near-ties of the edges
			if a > start {
				a--
			}
			if b < end {
				b++
			}
			if a == b { // cannot happen (a group is not empty); keep one draw
				if b < end {
					b++
				} else {
					a--
				}
			}
			for a > start && tieTol(items[a-1].at, items[a].at) {
				a--
			}
			for b < end && tieTol(items[b].at, items[b-1].at) {
				b++
			}
		}
		for i := a; i < b; i++ {
			s.win = append(s.win, s.eval(i, a))
		}
		below += a - start
		edges = append(edges, edge{a, b - 1, start, end})
		start = end
	}
	if k1 < below || k2 >= below+len(s.win) {
		return 0, false
	}
	slices.Sort(s.win)
	v1, v2 := s.win[k1-below], s.win[k2-below]
	for _, e := range edges {
		if e.first > e.start && !(items[e.first].p <= v1) {
			return 0, false
		}
		if e.last < e.end-1 && !(items[e.last].p >= v2) {
			return 0, false
		}
	}
	if k1 == k2 {
		return v1, true
	}
	return (v1 + v2) / 2, true
}
