package stats

import (
	"math"
	"slices"
)

// Sum returns the sum of x with numpy's pairwise summation (np.sum of a 1-D
// float64 array): a left-to-right loop for n < 8, eight interleaved running
// sums for 8 ≤ n ≤ 128, and a recursive split above that. The empty sum is 0.
func Sum(x []float64) float64 {
	return 0.0 + pairwise(x)
}

func pairwise(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		res := 0.0
		for _, v := range a {
			res += v
		}
		return res
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			r[0] += a[i]
			r[1] += a[i+1]
			r[2] += a[i+2]
			r[3] += a[i+3]
			r[4] += a[i+4]
			r[5] += a[i+5]
			r[6] += a[i+6]
			r[7] += a[i+7]
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	default:
		n2 := n / 2
		n2 -= n2 % 8
		return pairwise(a[:n2]) + pairwise(a[n2:])
	}
}

// Mean returns the arithmetic mean of x as numpy computes it (pairwise sum
// divided by n). It is NaN for an empty x and NaN when x holds a NaN.
func Mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return Sum(x) / float64(len(x))
}

// sqDev returns pairwise_sum((x - m)²).
func sqDev(x []float64, m float64) float64 {
	d := make([]float64, len(x))
	for i, v := range x {
		e := v - m
		d[i] = float64(e * e)
	}
	return Sum(d)
}

// Variance returns the sample variance of x with divisor n − 1, computed as
// numpy's var(x, ddof=1): pairwise_sum((x − mean)²)/(n − 1). It is NaN when
// n < 2 or x holds a NaN.
func Variance(x []float64) float64 {
	n := len(x)
	if n < 2 {
		return math.NaN()
	}
	return sqDev(x, Mean(x)) / float64(n-1)
}

// SD returns the sample standard deviation √Variance(x) (divisor n − 1);
// NaN when n < 2.
func SD(x []float64) float64 {
	return math.Sqrt(Variance(x))
}

// scipyVar returns scipy's internal sample variance, the population
// variance times the float n/(n−1): (pairwise_sum((x−mean)²)/n)·(n/(n−1)).
// scipy's t tests use this form; it can differ from Variance in the last
// bit. n = 1 gives NaN (0·∞).
func scipyVar(x []float64, mean float64) float64 {
	n := float64(len(x))
	return (sqDev(x, mean) / n) * (n / (n - 1))
}

func hasNaN(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) {
			return true
		}
	}
	return false
}

// Percentile returns the q-th percentile (q in [0, 100]) of x with numpy's
// default method 'linear' (Hyndman–Fan type 7), bit-identical to
// numpy.percentile: h = (n−1)·(q/100), i = ⌊h⌋, g = h − i and the two-sided
// interpolation numpy uses (b − (b−a)(1−g) when g ≥ 0.5, else a + (b−a)g).
// It is NaN for an empty x, a q outside [0, 100] or NaN, and when x holds a
// NaN (numpy propagates NaN). x is not modified.
func Percentile(x []float64, q float64) float64 {
	if len(x) == 0 || !(q >= 0 && q <= 100) || hasNaN(x) {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	return percentileSorted(s, q)
}

// percentileSorted is Percentile on an already sorted, NaN-free, non-empty s.
func percentileSorted(s []float64, q float64) float64 {
	n := len(s)
	h := float64(n-1) * (q / 100)
	if h >= float64(n-1) {
		return s[n-1]
	}
	if h <= 0 {
		// numpy clips the lower index at 0; with g = h − 0 = 0 (q = 0).
		h = 0
	}
	fi := math.Floor(h)
	i := int(fi)
	g := h - fi
	a, b := s[i], s[i+1]
	d := b - a
	if g >= 0.5 {
		return b - float64(d*(1-g))
	}
	return a + float64(d*g)
}

// Percentiles returns Percentile(x, q) for every q in qs, sorting x once.
func Percentiles(x []float64, qs []float64) []float64 {
	out := make([]float64, len(qs))
	if len(x) == 0 || hasNaN(x) {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	s := slices.Clone(x)
	slices.Sort(s)
	for i, q := range qs {
		if !(q >= 0 && q <= 100) {
			out[i] = math.NaN()
			continue
		}
		out[i] = percentileSorted(s, q)
	}
	return out
}

// Median returns the median of x as numpy.median computes it: the middle
// value, or the mean (a+b)/2 of the two middle values when n is even. It is
// NaN for an empty x or when x holds a NaN. x is not modified.
func Median(x []float64) float64 {
	n := len(x)
	if n == 0 || hasNaN(x) {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Rank returns the average ranks of x (1-based; tied values get the mean
// of their positions), as scipy.stats.rankdata(method='average'). The result
// is nil for an empty x, and all NaN when x holds a NaN (scipy's
// nan_policy='propagate').
func Rank(x []float64) []float64 {
	n := len(x)
	if n == 0 {
		return nil
	}
	if hasNaN(x) {
		r := make([]float64, n)
		for i := range r {
			r[i] = math.NaN()
		}
		return r
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case x[a] < x[b]:
			return -1
		case x[a] > x[b]:
			return 1
		}
		return 0
	})
	r := make([]float64, n)
	for i := 0; i < n; {
		j := i + 1
		for j < n && x[idx[j]] == x[idx[i]] {
			j++
		}
		// positions i+1 … j (1-based) share the average rank.
		avg := 0.5 * float64(i+1+j)
		for k := i; k < j; k++ {
			r[idx[k]] = avg
		}
		i = j
	}
	return r
}
