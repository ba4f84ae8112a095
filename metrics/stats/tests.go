package stats

import (
	"errors"
	"fmt"
	"math"
	"math/big"
)

// McNemarResult holds McNemar's test of a paired 2×2 table in the three
// variants of statsmodels.stats.contingency_tables.mcnemar.
type McNemarResult struct {
	// ExactStatistic is min(b, c); ExactP the two-sided binomial p-value
	// min(1, 2·P(Bin(b+c, ½) ≤ min(b, c))), 1 when b = c = 0.
	ExactStatistic, ExactP float64
	// Chi2 is the continuity-corrected (|b−c|−1)²/(b+c) (+Inf when
	// b = c = 0, as statsmodels) and Chi2P its χ²₁ upper tail.
	Chi2, Chi2P float64
	// Chi2Uncorrected is (b−c)²/(b+c) (NaN when b = c = 0) and
	// Chi2PUncorrected its p-value.
	Chi2Uncorrected, Chi2PUncorrected float64
}

// McNemar returns McNemar's test of the paired table
// [[a, b], [c, d]]; only the discordant counts b = table[0][1] and
// c = table[1][0] matter. The exact p-value is computed with big integers
// and rounded once. Every field is NaN when b or c is negative.
func McNemar(table [2][2]int) McNemarResult {
	b, c := table[0][1], table[1][0]
	nan := math.NaN()
	if b < 0 || c < 0 {
		return McNemarResult{nan, nan, nan, nan, nan, nan}
	}
	r := McNemarResult{}
	s := min(b, c)
	r.ExactStatistic = float64(s)
	n := b + c
	if n == 0 {
		r.ExactP = 1
	} else {
		num := new(big.Int)
		bin := big.NewInt(1) // C(n, 0)
		for j := 0; j <= s; j++ {
			if j > 0 {
				bin.Mul(bin, big.NewInt(int64(n-j+1)))
				bin.Quo(bin, big.NewInt(int64(j)))
			}
			num.Add(num, bin)
		}
		num.Lsh(num, 1)
		den := new(big.Int).Lsh(big.NewInt(1), uint(n))
		if num.Cmp(den) >= 0 {
			r.ExactP = 1
		} else {
			r.ExactP, _ = new(big.Rat).SetFrac(num, den).Float64()
		}
	}
	fb, fc := float64(b), float64(c)
	d := math.Abs(fb-fc) - 1
	r.Chi2 = d * d / (fb + fc)
	r.Chi2P = chi2SF1(r.Chi2)
	e := fb - fc
	r.Chi2Uncorrected = e * e / (fb + fc)
	r.Chi2PUncorrected = chi2SF1(r.Chi2Uncorrected)
	return r
}

// WilcoxonResult is the Wilcoxon signed-rank test with its intermediates.
type WilcoxonResult struct {
	// Statistic is min(R+, R−); P the two-sided p-value of the mode used.
	Statistic, P float64
	// Exact reports whether P is the exact null distribution (n ≤ 50 pairs
	// and no zero difference) or the normal approximation.
	Exact bool
	// NUsed counts the nonzero differences.
	NUsed int
	// RPlus and RMinus are the rank sums of the positive and negative
	// differences.
	RPlus, RMinus float64
	// PApprox and ZApprox are the normal approximation (without continuity
	// correction, with the tie correction), whatever mode P used.
	PApprox, ZApprox float64
}

// ErrAllZero is returned by WilcoxonTest when every difference is zero.
var ErrAllZero = errors.New("every difference x − y is zero")

// Wilcoxon returns the statistic and two-sided p-value of the Wilcoxon
// signed-rank test of d = x − y, with scipy.stats.wilcoxon's defaults
// (zero_method 'wilcox', no continuity correction, method 'auto'). NaN, NaN
// when WilcoxonTest reports an error.
func Wilcoxon(x, y []float64) (stat, p float64) {
	w, err := WilcoxonTest(x, y)
	if err != nil {
		return math.NaN(), math.NaN()
	}
	return w.Statistic, w.P
}

// WilcoxonTest is Wilcoxon with every intermediate. Zero differences are
// dropped; the ranks are average ranks of |d|. The exact mode (len(x) ≤ 50
// and no zero difference) uses r = ⌊R+⌋ (scipy 1.10 truncates) and the
// untied null distribution of R+ (subset-sum counts / 2^n, exact in
// float64); the approximation uses z = (T − n(n+1)/4)/se with
// se² = (n(n+1)(2n+1) − ½Σt(t²−1))/24. It is an error when the lengths
// differ, x is empty, the data hold a NaN, or every difference is zero.
func WilcoxonTest(x, y []float64) (WilcoxonResult, error) {
	nan := math.NaN()
	res := WilcoxonResult{Statistic: nan, P: nan, RPlus: nan, RMinus: nan, PApprox: nan, ZApprox: nan}
	if len(x) != len(y) {
		return res, fmt.Errorf("stats: wilcoxon: x has %d values, y has %d", len(x), len(y))
	}
	if len(x) == 0 {
		return res, errors.New("stats: wilcoxon: no pairs")
	}
	if hasNaN(x) || hasNaN(y) {
		return res, errors.New("stats: wilcoxon: data holds NaN")
	}
	d := make([]float64, 0, len(x))
	for i := range x {
		if v := x[i] - y[i]; v != 0 {
			d = append(d, v)
		}
	}
	if len(d) == 0 {
		return res, fmt.Errorf("stats: wilcoxon: %w", ErrAllZero)
	}
	res.Exact = len(x) <= 50 && len(d) == len(x)
	n := len(d)
	res.NUsed = n
	abs := make([]float64, n)
	for i, v := range d {
		abs[i] = math.Abs(v)
	}
	r := Rank(abs)
	plus := make([]float64, n)
	minus := make([]float64, n)
	for i, v := range d {
		if v > 0 {
			plus[i] = r[i]
		} else {
			minus[i] = r[i]
		}
	}
	res.RPlus, res.RMinus = Sum(plus), Sum(minus)
	T := math.Min(res.RPlus, res.RMinus)
	res.Statistic = T

	// normal approximation
	fn := float64(n)
	mn := fn * (fn + 1) * 0.25
	se := fn * (fn + 1) * (2*fn + 1)
	var tieSum int64
	for _, t := range tieGroups(r) {
		tieSum += t * (t*t - 1)
	}
	se -= 0.5 * float64(tieSum)
	se = math.Sqrt(se / 24)
	res.ZApprox = (T - mn) / se
	res.PApprox = normTwoSided(res.ZApprox)

	if !res.Exact {
		res.P = res.PApprox
		return res, nil
	}
	rp := int(res.RPlus)
	counts := signedRankCounts(n)
	tmax := len(counts) - 1
	var s uint64
	switch {
	case rp == tmax/2:
		res.P = 1
		return res, nil
	case rp > tmax/2:
		for _, c := range counts[rp:] {
			s += c
		}
	default:
		for _, c := range counts[:rp+1] {
			s += c
		}
	}
	// s < 2^50 and 2^n are exact in float64, so the quotient is correctly rounded.
	res.P = math.Min(1, 2*float64(s)/math.Ldexp(1, n))
	return res, nil
}

// tieGroups returns the sizes (> 1) of groups of equal values.
func tieGroups(v []float64) []int64 {
	m := map[float64]int64{}
	for _, x := range v {
		m[x]++
	}
	var out []int64
	for _, c := range m {
		if c > 1 {
			out = append(out, c)
		}
	}
	return out
}

// signedRankCounts returns, for k = 0 … n(n+1)/2, the number of subsets of
// {1, …, n} whose sum is k (n ≤ 50, so counts fit in uint64).
func signedRankCounts(n int) []uint64 {
	tmax := n * (n + 1) / 2
	c := make([]uint64, tmax+1)
	c[0] = 1
	top := 0
	for j := 1; j <= n; j++ {
		top += j
		for k := top; k >= j; k-- {
			c[k] += c[k-j]
		}
	}
	return c
}
