package stats

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

func isConstant(x []float64) bool {
	for _, v := range x {
		if v != x[0] {
			return false
		}
	}
	return true
}

func clip1(r float64) float64 {
	return math.Max(-1, math.Min(1, r))
}

func sign(v float64) float64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// dot returns Σ a[i]·b[i], left to right.
func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += float64(a[i] * b[i])
	}
	return s
}

// Pearson returns the Pearson correlation coefficient r of x and y and its
// two-sided p-value, as scipy.stats.pearsonr: r is the dot product of the
// mean-centred vectors each divided by its Euclidean norm, clipped to
// [−1, 1]; p = 2·P(T_{n−2} ≤ −|t|) with t = r·√((n−2)/((1−r)(1+r))), the
// same as scipy's Beta(n/2−1, n/2−1) form; p = 0 when |r| = 1.
//
// With n = 2, r = sign(x₁−x₀)·sign(y₁−y₀) and p = 1. It returns NaN, NaN
// when n < 2, the lengths differ, x or y is constant, or x or y holds a NaN.
func Pearson(x, y []float64) (r, p float64) {
	n := len(x)
	if n < 2 || len(y) != n || hasNaN(x) || hasNaN(y) || isConstant(x) || isConstant(y) {
		return math.NaN(), math.NaN()
	}
	if n == 2 {
		return sign(x[1]-x[0]) * sign(y[1]-y[0]), 1
	}
	mx, my := Mean(x), Mean(y)
	xm := make([]float64, n)
	ym := make([]float64, n)
	for i := range x {
		xm[i] = x[i] - mx
		ym[i] = y[i] - my
	}
	nx := math.Sqrt(dot(xm, xm))
	ny := math.Sqrt(dot(ym, ym))
	for i := range xm {
		xm[i] /= nx
		ym[i] /= ny
	}
	r = clip1(dot(xm, ym))
	return r, corrP(r, n-2)
}

// corrP is the two-sided p-value of a correlation r with df = n−2 degrees
// of freedom: 2·P(T_df ≤ −|t|), t = r·√(df/((1−r)(1+r))); 0 when |r| = 1.
func corrP(r float64, df int) float64 {
	if math.IsNaN(r) || df < 1 {
		return math.NaN()
	}
	if math.Abs(r) == 1 {
		return 0
	}
	t := r * math.Sqrt(float64(df)/float64((1-r)*(1+r)))
	return StudentTTwoSided(t, float64(df))
}

// FisherZInterval returns the confidence interval of a correlation r from n
// pairs by Fisher's z transformation: tanh(atanh(r) ∓ z_{(1+level)/2}/√(n−3)).
// level is the coverage, e.g. 0.95. It returns NaN, NaN when n < 4, r is
// NaN or outside [−1, 1], or level is not in (0, 1); r = ±1 gives (±1, ±1).
func FisherZInterval(r float64, n int, level float64) (lo, hi float64) {
	if n < 4 || !(r >= -1 && r <= 1) || !(level > 0 && level < 1) {
		return math.NaN(), math.NaN()
	}
	z := math.Atanh(r)
	half := distuv.UnitNormal.Quantile((1+level)/2) / math.Sqrt(float64(n-3))
	return math.Tanh(z - half), math.Tanh(z + half)
}

// SpearmanResult is Spearman's rank correlation with the ranks it used.
type SpearmanResult struct {
	Rho, P float64
	// RanksX and RanksY are the average ranks (1-based) of x and y.
	RanksX, RanksY []float64
}

// Spearman returns Spearman's rank correlation ρ of x and y and its
// two-sided p-value, as scipy.stats.spearmanr: ρ is the Pearson correlation
// (numpy.corrcoef) of the average ranks, clipped to [−1, 1];
// p = 2·P(T_{n−2} ≤ −|t|) with t = ρ·√(max((n−2)/((ρ+1)(1−ρ)), 0)), p = 0 when
// |ρ| = 1. n = 2 gives ρ = ±1 and p = NaN (no degrees of freedom). NaN, NaN
// when n < 2, the lengths differ, x or y is constant or holds a NaN.
func Spearman(x, y []float64) (rho, p float64) {
	s := SpearmanDetail(x, y)
	return s.Rho, s.P
}

// SpearmanDetail is Spearman with the ranks; see [Spearman] for the rules.
// The ranks are filled whenever x and y have the same length (all NaN when
// the vector holds a NaN), even when ρ is not defined.
func SpearmanDetail(x, y []float64) SpearmanResult {
	n := len(x)
	if len(y) != n {
		return SpearmanResult{Rho: math.NaN(), P: math.NaN()}
	}
	rx, ry := Rank(x), Rank(y)
	if n < 2 || hasNaN(x) || hasNaN(y) || isConstant(x) || isConstant(y) {
		return SpearmanResult{Rho: math.NaN(), P: math.NaN(), RanksX: rx, RanksY: ry}
	}
	mx, my := Mean(rx), Mean(ry)
	xm := make([]float64, n)
	ym := make([]float64, n)
	for i := range rx {
		xm[i] = rx[i] - mx
		ym[i] = ry[i] - my
	}
	fact := float64(n - 1)
	cxy := dot(xm, ym) / fact
	sx := math.Sqrt(dot(xm, xm) / fact)
	sy := math.Sqrt(dot(ym, ym) / fact)
	rho := clip1(cxy / sx / sy)
	dof := float64(n - 2)
	var p float64
	switch {
	case dof == 0:
		p = math.NaN()
	case math.Abs(rho) == 1:
		p = 0
	default:
		t := rho * math.Sqrt(math.Max(dof/float64((rho+1)*(1-rho)), 0))
		p = StudentTTwoSided(t, dof)
	}
	return SpearmanResult{Rho: rho, P: p, RanksX: rx, RanksY: ry}
}

// LinReg is the least-squares line y = Intercept + Slope·x with scipy's
// statistics: R is Pearson's r, P the two-sided p-value of slope = 0 (t test
// with n−2 degrees of freedom), StdErr and InterceptStdErr the standard
// errors of the slope and the intercept.
type LinReg struct{ Slope, Intercept, R, P, StdErr, InterceptStdErr float64 }

// ErrConstantX is returned by LinRegressDetail when every x is equal.
var ErrConstantX = errors.New("all x values are identical")

// LinRegress fits y = a + b·x by least squares as scipy.stats.linregress.
// Every field is NaN when LinRegressDetail reports an error (fewer than two
// points, lengths differ, NaN in the data, all x equal). A constant y gives
// slope 0, r 0, p 1 and zero standard errors; n = 2 gives p = 1 when
// y₀ = y₁, else 0, and zero standard errors (scipy's convention).
func LinRegress(x, y []float64) LinReg {
	l, err := LinRegressDetail(x, y)
	if err != nil {
		nan := math.NaN()
		return LinReg{nan, nan, nan, nan, nan, nan}
	}
	return l
}

// LinRegressDetail is LinRegress returning an error instead of NaN fields
// for input it cannot fit.
func LinRegressDetail(x, y []float64) (LinReg, error) {
	n := len(x)
	switch {
	case len(y) != n:
		return LinReg{}, fmt.Errorf("stats: linregress: x has %d values, y has %d", n, len(y))
	case n < 2:
		return LinReg{}, fmt.Errorf("stats: linregress: need at least 2 points, got %d", n)
	case hasNaN(x) || hasNaN(y):
		return LinReg{}, fmt.Errorf("stats: linregress: data holds NaN")
	case isConstant(x):
		return LinReg{}, fmt.Errorf("stats: linregress: %w", ErrConstantX)
	}
	mx, my := Mean(x), Mean(y)
	xm := make([]float64, n)
	ym := make([]float64, n)
	for i := range x {
		xm[i] = x[i] - mx
		ym[i] = y[i] - my
	}
	fn := float64(n)
	sxx := dot(xm, xm) / fn
	sxy := dot(xm, ym) / fn
	syy := dot(ym, ym) / fn
	var r float64
	if sxx != 0 && syy != 0 {
		r = clip1(sxy / math.Sqrt(float64(sxx*syy)))
	}
	l := LinReg{R: r}
	l.Slope = sxy / sxx
	l.Intercept = my - float64(l.Slope*mx)
	if n == 2 {
		if y[0] == y[1] {
			l.P = 1
		}
		return l, nil
	}
	const tiny = 1.0e-20
	df := float64(n - 2)
	t := r * math.Sqrt(df/float64((1-r+tiny)*(1+r+tiny)))
	l.P = StudentTTwoSided(t, df)
	l.StdErr = math.Sqrt(float64((1-float64(r*r))*syy) / sxx / df)
	l.InterceptStdErr = l.StdErr * math.Sqrt(sxx+float64(mx*mx))
	return l, nil
}
