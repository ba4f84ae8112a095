package stats

import "math"

// Contrast is the result of RatioContrast.
type Contrast struct {
	// Estimate is Σ_j c_j·m_j, each m_j = Σ_g Sum_gj / Σ_g N_gj a ratio
	// mean over all clusters.
	Estimate float64
	// SE is the cluster-robust (CR1) standard error, DF = Clusters − 1,
	// T = Estimate/SE, Lo and Hi the t interval at the level asked and P
	// the two-sided p-value of T (1 when Estimate and SE are both 0).
	SE, DF, T, Lo, Hi, P float64
	// Clusters counts the clusters with a unit in at least one mean of
	// nonzero coefficient.
	Clusters int
}

// RatioContrast tests a linear contrast Σ_j c_j·m_j = 0 of ratio means
// m_j = Σ_g sum[g][j] / Σ_g n[g][j] measured on the same clusters g (in
// euroexec: questions), with the clusters as the independent units. Its
// variance is the CR1 sandwich of the linearised estimator,
// G/(G−1)·Σ_g u_g² with u_g = Σ_j c_j·(sum[g][j] − m_j·n[g][j]) / Σ_g n[g][j],
// and its reference distribution t on G − 1 degrees of freedom (G the
// clusters with units). A cluster may hold units of some means only: a
// question graded in one run alone adds to that run's mean and variance,
// so one function serves paired, partly paired and unpaired comparisons
// (with no shared cluster it is the two-sample cluster-robust test). It is
// the engine of PairedClusterDiff (two means, c = (1, −1), shared clusters
// only), of compare's changes (new − old) and of its gap changes
// ((new_u − new_v) − (old_u − old_v)).
//
// Every field but Clusters is NaN when a mean with a nonzero coefficient
// has no unit, an input is NaN, the slices disagree in length, or fewer
// than two clusters have units.
func RatioContrast(sum, n [][]float64, coef []float64, level float64) Contrast {
	nan := math.NaN()
	r := Contrast{Estimate: nan, SE: nan, DF: nan, T: nan, Lo: nan, Hi: nan, P: nan}
	J := len(coef)
	if len(sum) != len(n) {
		return r
	}
	tot, totN := make([]float64, J), make([]float64, J)
	for g := range sum {
		if len(sum[g]) != J || len(n[g]) != J {
			return r
		}
		has := false
		for j, c := range coef {
			if math.IsNaN(sum[g][j]) || math.IsNaN(n[g][j]) {
				return r
			}
			tot[j] += sum[g][j]
			totN[j] += n[g][j]
			if c != 0 && n[g][j] > 0 {
				has = true
			}
		}
		if has {
			r.Clusters++
		}
	}
	m := make([]float64, J)
	est := 0.0
	for j, c := range coef {
		if c == 0 {
			continue
		}
		if !(totN[j] > 0) {
			return r
		}
		m[j] = tot[j] / totN[j]
		est += c * m[j]
	}
	if r.Clusters < 2 {
		return r
	}
	var ss float64
	for g := range sum {
		u := 0.0
		for j, c := range coef {
			if c != 0 && n[g][j] > 0 {
				u += c * (sum[g][j] - m[j]*n[g][j]) / totN[j]
			}
		}
		ss += u * u
	}
	G := float64(r.Clusters)
	r.Estimate = est
	r.SE = math.Sqrt(G / (G - 1) * ss)
	r.DF = G - 1
	r.T = est / r.SE
	r.Lo, r.Hi = TInterval(est, r.SE, r.DF, level)
	if r.SE == 0 && est == 0 {
		r.P, r.T = 1, 0
	} else {
		r.P = StudentTTwoSided(r.T, r.DF)
	}
	return r
}
