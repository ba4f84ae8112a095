package stats

import (
	"math"
	"math/big"
	"slices"
)

// KendallResult is Kendall's τ-b with the pair counts and both p-values.
type KendallResult struct {
	Tau float64
	// P is the two-sided p-value of scipy's method 'auto': the exact
	// permutation distribution when there are no ties and (n ≤ 33 or
	// min(D, pairs−D) ≤ 1), otherwise the normal approximation.
	P float64
	// Exact reports which method P used.
	Exact bool
	// PAsymptotic is the normal-approximation p-value 2·Φ(−|z|) (NaN for
	// n = 2 or a constant vector).
	PAsymptotic float64
	// PExact is the exact p-value; NaN when there are ties, or when
	// n > 170 and min(D, pairs−D) > 1 (too large to enumerate).
	PExact float64
	// Z and Var are the asymptotic statistic z = (C−D)/√Var and the variance
	// of C−D under independence with scipy's tie corrections.
	Z, Var float64
	// Pair counts over all i < j.
	Concordant, Discordant         int64
	TiesXOnly, TiesYOnly, TiesBoth int64
	// Pairs is n(n−1)/2; XTie and YTie count pairs tied in x (resp. y),
	// joint ties included.
	Pairs, XTie, YTie int64
}

// KendallTauB returns Kendall's τ-b of x and y and its two-sided p-value,
// as scipy.stats.kendalltau(x, y) (variant 'b', method 'auto'). It runs in
// O(n log n) time (Knight's algorithm: sort, then count discordant pairs by
// merge sort). τ = (C−D)/√(pairs−xtie)/√(pairs−ytie), clipped to [−1, 1].
// NaN, NaN when n < 2, the lengths differ, x or y holds a NaN, or x or y is
// constant. See KendallTauBDetail for the counts and both p-values.
func KendallTauB(x, y []float64) (tau, p float64) {
	k := kendall(x, y, false)
	return k.Tau, k.P
}

// KendallTau is the τ of KendallTauB alone, bit for bit, without its
// p-value: NaN in the same cases. Up to kendallDirectMax values it counts
// the pairs directly (O(n²), no allocation), which for the few models of a
// ranking is several times faster than sorting and the exact p-value;
// longer inputs go through KendallTauB's algorithm.
func KendallTau(x, y []float64) float64 {
	n := len(x)
	if n < 2 || len(y) != n || n > kendallDirectMax {
		return kendall(x, y, false).Tau
	}
	if hasNaN(x) || hasNaN(y) {
		return math.NaN()
	}
	y = y[:n]
	// C − D and the pairs tied in x (resp. y), joint ties included: the
	// integers kendall derives by sorting, so the quotient below is its
	// own expression on the same numbers.
	var cmd, xtie, ytie int64
	for i := 0; i < n; i++ {
		xi, yi := x[i], y[i]
		for j := i + 1; j < n; j++ {
			dx := b2i(xi > x[j]) - b2i(xi < x[j])
			dy := b2i(yi > y[j]) - b2i(yi < y[j])
			cmd += dx * dy
			xtie += 1 - dx*dx
			ytie += 1 - dy*dy
		}
	}
	tot := int64(n) * int64(n-1) / 2
	if xtie == tot || ytie == tot {
		return math.NaN()
	}
	return clip1(float64(cmd) / math.Sqrt(float64(tot-xtie)) / math.Sqrt(float64(tot-ytie)))
}

// kendallDirectMax is the longest input KendallTau counts pair by pair.
const kendallDirectMax = 32

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// KendallTauBDetail is KendallTauB with every intermediate; see
// [KendallResult]. Counts are filled whenever n ≥ 2 and the input is valid,
// even when τ is NaN.
func KendallTauBDetail(x, y []float64) KendallResult {
	return kendall(x, y, true)
}

// kendall computes τ-b; PExact is filled only when P uses it unless
// allExact is set.
func kendall(x, y []float64, allExact bool) KendallResult {
	nan := math.NaN()
	res := KendallResult{Tau: nan, P: nan, PAsymptotic: nan, PExact: nan, Z: nan, Var: nan}
	n := len(x)
	if n < 2 || len(y) != n || hasNaN(x) || hasNaN(y) {
		return res
	}
	// Order the pairs by (x, y).
	type xy struct{ x, y float64 }
	ps := make([]xy, n)
	for i := range ps {
		ps[i] = xy{x[i], y[i]}
	}
	slices.SortFunc(ps, func(a, b xy) int {
		if c := cmpF(a.x, b.x); c != 0 {
			return c
		}
		return cmpF(a.y, b.y)
	})
	ys := make([]float64, n)
	for i, p := range ps {
		ys[i] = p.y
	}
	// ties in x and joint ties, over runs of the sorted order.
	var xtie, ntie int64
	var x0, x1 float64
	for i := 0; i < n; {
		j := i + 1
		for j < n && ps[j].x == ps[i].x {
			j++
		}
		t := int64(j - i)
		xtie += t * (t - 1) / 2
		x0 += tieX0(t)
		x1 += tieX1(t)
		// joint ties: within the x run, y is sorted.
		for a := i; a < j; {
			b := a + 1
			for b < j && ys[b] == ys[a] {
				b++
			}
			u := int64(b - a)
			ntie += u * (u - 1) / 2
			a = b
		}
		i = j
	}
	// discordant pairs = strict inversions of ys (x-ties are ordered by y,
	// so they add none); mergeCount also sorts ys.
	buf := make([]float64, n)
	dis := mergeCount(ys, buf)
	var ytie int64
	var y0, y1 float64
	for i := 0; i < n; {
		j := i + 1
		for j < n && ys[j] == ys[i] {
			j++
		}
		t := int64(j - i)
		ytie += t * (t - 1) / 2
		y0 += tieX0(t)
		y1 += tieX1(t)
		i = j
	}
	tot := int64(n) * int64(n-1) / 2
	conMinusDis := tot - xtie - ytie + ntie - 2*dis
	res.Pairs, res.XTie, res.YTie = tot, xtie, ytie
	res.Discordant = dis
	res.Concordant = conMinusDis + dis
	res.TiesBoth = ntie
	res.TiesXOnly = xtie - ntie
	res.TiesYOnly = ytie - ntie
	if xtie == tot || ytie == tot {
		return res
	}
	res.Tau = clip1(float64(conMinusDis) / math.Sqrt(float64(tot-xtie)) / math.Sqrt(float64(tot-ytie)))

	// asymptotic
	fn := float64(n)
	m := fn * (fn - 1)
	v := (float64(m*(2*fn+5))-x1-y1)/18 + float64(2*xtie*ytie)/m + float64(x0*y0)/float64(float64(9*m)*(fn-2))
	res.Var = v
	res.Z = float64(conMinusDis) / math.Sqrt(v)
	res.PAsymptotic = normTwoSided(res.Z)

	c := min(dis, tot-dis)
	noTies := xtie == 0 && ytie == 0
	auto := noTies && (n <= 33 || c <= 1)
	if auto || (allExact && noTies && n <= 170) {
		res.PExact = kendallPExact(n, c)
	}
	if auto {
		res.Exact = true
		res.P = res.PExact
	} else {
		res.P = res.PAsymptotic
	}
	return res
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// tieX0 is t(t−1)(t−2) and tieX1 is t(t−1)(2t+5) in float64, as scipy.
func tieX0(t int64) float64 {
	f := float64(t)
	return f * (f - 1) * (f - 2)
}

func tieX1(t int64) float64 {
	f := float64(t)
	return f * (f - 1) * (2*f + 5)
}

// mergeCount sorts a ascending (buf is scratch of the same length) and
// returns the number of pairs i < j with a[i] > a[j].
func mergeCount(a, buf []float64) int64 {
	n := len(a)
	var inv int64
	// bottom-up merge sort
	src, dst := a, buf
	for width := 1; width < n; width *= 2 {
		for lo := 0; lo < n; lo += 2 * width {
			mid := min(lo+width, n)
			hi := min(lo+2*width, n)
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if src[j] < src[i] {
					dst[k] = src[j]
					inv += int64(mid - i)
					j++
				} else {
					dst[k] = src[i]
					i++
				}
				k++
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
	return inv
}

// kendallPExact returns the exact two-sided p-value 2·P(X ≤ c), capped at 1,
// where X is the number of inversions of a uniformly random permutation of
// n (Mahonian numbers / n!), computed with big integers and rounded once.
func kendallPExact(n int, c int64) float64 {
	if n <= 2 {
		return 1
	}
	if 2*c == int64(n)*int64(n-1)/2 {
		return 1
	}
	// counts[k] = number of permutations of j elements with k inversions, k ≤ c.
	cc := int(c)
	counts := make([]*big.Int, cc+1)
	for k := range counts {
		counts[k] = new(big.Int)
	}
	counts[0].SetInt64(1)
	// permutations of 1 element: only k = 0.
	prefix := make([]*big.Int, cc+2)
	for k := range prefix {
		prefix[k] = new(big.Int)
	}
	for j := 2; j <= n; j++ {
		// new[k] = Σ_{i=0}^{min(k, j−1)} old[k−i]
		prefix[0].SetInt64(0)
		for k := 0; k <= cc; k++ {
			prefix[k+1].Add(prefix[k], counts[k])
		}
		for k := 0; k <= cc; k++ {
			lo := k - (j - 1)
			if lo < 0 {
				lo = 0
			}
			counts[k].Sub(prefix[k+1], prefix[lo])
		}
	}
	num := new(big.Int)
	for _, v := range counts {
		num.Add(num, v)
	}
	num.Lsh(num, 1)
	den := new(big.Int).MulRange(1, int64(n))
	if num.Cmp(den) >= 0 {
		return 1
	}
	f, _ := new(big.Rat).SetFrac(num, den).Float64()
	return f
}
