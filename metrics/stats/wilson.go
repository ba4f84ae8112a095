package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Wilson is the Wilson score interval of a proportion x/n at the given
// level, as statsmodels' proportion_confint(x, n, method="wilson"): never
// of zero width for 0 < n, and inside [0, 1] even when x is 0 or n, where a
// percentile interval of resampled rates collapses to a point. NaN ends
// when n ≤ 0, x is outside [0, n] or level is not in (0, 1).
func Wilson(x, n, level float64) (lo, hi float64) {
	if !(n > 0) || !(x >= 0 && x <= n) || !(level > 0 && level < 1) {
		return math.NaN(), math.NaN()
	}
	z := distuv.UnitNormal.Quantile(0.5 + level/2)
	p := x / n
	z2 := z * z
	den := 1 + z2/n
	centre := (p + z2/(2*n)) / den
	half := z / den * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	return math.Max(0, centre-half), math.Min(1, centre+half)
}
