package stats

import (
	"math"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// StudentTCDF returns P(T ≤ t) for Student's t distribution with df degrees
// of freedom (df > 0, not necessarily an integer), as scipy.stats.t.cdf. It
// uses gonum's distuv.StudentsT, except near t = 0 where gonum rounds
// ν/(ν+t²) to 1 and returns exactly 0.5: there the complementary form
// ½·(1 − I_{t²/(ν+t²)}(½, ν/2)) keeps the digits. t = ±Inf gives 1 or 0.
// NaN for df ≤ 0 or NaN arguments.
func StudentTCDF(t, df float64) float64 {
	if math.IsNaN(t) || !(df > 0) {
		return math.NaN()
	}
	if t > 0 {
		return 1 - studentTLower(-t, df)
	}
	return studentTLower(t, df)
}

// StudentTSF returns the survival function P(T > t) = StudentTCDF(−t, df),
// as scipy.stats.t.sf; accurate in the upper tail (it is not 1 − CDF).
func StudentTSF(t, df float64) float64 {
	return StudentTCDF(-t, df)
}

// StudentTTwoSided returns the two-sided p-value 2·P(T ≤ −|t|) of a t
// statistic with df degrees of freedom (0 for infinite t, NaN for NaN t or
// df ≤ 0 or NaN df).
func StudentTTwoSided(t, df float64) float64 {
	return 2 * StudentTCDF(-math.Abs(t), df)
}

// studentTLower returns P(T ≤ t) for t ≤ 0.
func studentTLower(t, df float64) float64 {
	if t == 0 {
		return 0.5
	}
	if math.IsInf(t, -1) {
		return 0
	}
	if math.IsInf(df, 1) {
		return 0.5 * math.Erfc(-t/math.Sqrt2)
	}
	t2 := t * t
	x := t2 / (df + t2) // the complement of gonum's ν/(ν+t²), without cancellation
	if x < 0.5 {
		// I_x(½, ν/2) is the two-sided probability P(|T| ≤ |t|).
		inner := mathext.RegIncBeta(0.5, df/2, x)
		if inner < 0.5 {
			return 0.5 * (1 - inner)
		}
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.CDF(t)
}

// normTwoSided returns 2·Φ(−|z|) = erfc(|z|/√2), scipy's 2·norm.sf(|z|).
func normTwoSided(z float64) float64 {
	return math.Erfc(math.Abs(z) / math.Sqrt2)
}

// chi2SF1 returns P(χ²₁ > x) = erfc(√(x/2)), accurate in the tail.
func chi2SF1(x float64) float64 {
	return math.Erfc(math.Sqrt(x / 2))
}
