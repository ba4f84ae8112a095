package stats

import (
	"math"
	"math/big"

	"gonum.org/v1/gonum/stat/distuv"
)

// ClusterPair is one cluster's data for a paired comparison of two means:
// the sum and count of a's unit values in the cluster (SumA, NA) and of
// b's (SumB, NB). In euroexec a cluster is a question and a unit a grading
// (a solved flag 0/1, or a score).
type ClusterPair struct {
	SumA, NA, SumB, NB float64
}

// PairedDiff is the result of PairedClusterDiff.
type PairedDiff struct {
	// Estimate is mean_a − mean_b, each mean the ratio ΣSum/ΣN over the
	// clusters where both sides have units (Clusters of them).
	Estimate float64
	// SE is the cluster-robust (CR1) standard error of Estimate, T =
	// Estimate/SE with DF = Clusters − 1, and Lo, Hi the t interval at the
	// level asked.
	SE, T, DF, Lo, Hi float64
	// P is the two-sided p-value: McNemar's mid-p when Exact, else that
	// of T on DF degrees of freedom. It is 1 when the two sides agree in
	// every cluster.
	P        float64
	Clusters int
	// Exact reports that every cluster holds one unit a side with a 0/1
	// value, so P is McNemar's mid-p test of the discordant clusters
	// (McNemarMidP).
	Exact bool
}

// PairedClusterDiff tests mean_a = mean_b for two means measured on the
// same clusters, with the clusters as the independent units: the
// difference of the two ratio means, its cluster-robust variance by
// linearisation, n/(n−1)·Σ_g u_g² with u_g = (SumA_g − mean_a·NA_g)/ΣNA −
// (SumB_g − mean_b·NB_g)/ΣNB (the CR1 sandwich of the ratio estimators,
// which with one unit a side per cluster is the paired t test's variance),
// and a t reference distribution on n − 1 degrees of freedom. When every
// cluster has one 0/1 unit a side the p-value is McNemar's mid-p test
// instead (McNemarMidP). Its p-value is continuous in the data, so, unlike a bootstrap
// p-value, its smallest value does not depend on a number of replicates
// and a multiplicity adjustment over many pairs can still reject.
//
// Clusters where a side has no unit are left out. Every field but
// Clusters is NaN with fewer than two paired clusters or a NaN input.
func PairedClusterDiff(cl []ClusterPair, level float64) PairedDiff {
	nan := math.NaN()
	r := PairedDiff{Estimate: nan, SE: nan, T: nan, DF: nan, Lo: nan, Hi: nan, P: nan}
	exact := true
	disc := [2][2]int{}
	for _, c := range cl {
		if math.IsNaN(c.SumA) || math.IsNaN(c.SumB) || math.IsNaN(c.NA) || math.IsNaN(c.NB) {
			return r
		}
		if !(c.NA > 0 && c.NB > 0) {
			continue
		}
		r.Clusters++
		if c.NA != 1 || c.NB != 1 || (c.SumA != 0 && c.SumA != 1) || (c.SumB != 0 && c.SumB != 1) {
			exact = false
			continue
		}
		disc[int(c.SumA)][int(c.SumB)]++
	}
	if r.Clusters < 2 {
		return r
	}
	sums := make([][]float64, 0, r.Clusters)
	ns := make([][]float64, 0, r.Clusters)
	for _, c := range cl {
		if c.NA > 0 && c.NB > 0 {
			sums = append(sums, []float64{c.SumA, c.SumB})
			ns = append(ns, []float64{c.NA, c.NB})
		}
	}
	k := RatioContrast(sums, ns, []float64{1, -1}, level)
	r.Estimate, r.SE, r.DF, r.T, r.Lo, r.Hi = k.Estimate, k.SE, k.DF, k.T, k.Lo, k.Hi
	switch {
	case exact:
		r.Exact = true
		r.P = McNemarMidP(disc[1][0], disc[0][1])
	case r.SE == 0 && r.Estimate == 0:
		r.P, r.T = 1, 0
	default:
		r.P = k.P
	}
	return r
}

// McNemarMidP is the two-sided mid-p McNemar test of b discordant pairs one
// way and c the other: 2·(P(X < k) + ½·P(X = k)) for X ~ Bin(b + c, ½) and
// k = min(b, c), capped at 1; 1 when b = c = 0. The exact test (McNemar's
// ExactP, 2·P(X ≤ k)) keeps its size below α by a margin that grows with
// the discreteness; the mid-p test keeps it close to α (Fagerland, Lydersen
// and Laake 2013, "The McNemar test for binary matched-pairs data:
// mid-p and asymptotic are better than exact conditional", BMC Medical
// Research Methodology 13:91). Computed with big integers, rounded once.
// NaN for negative counts.
func McNemarMidP(b, c int) float64 {
	if b < 0 || c < 0 {
		return math.NaN()
	}
	n, k := b+c, min(b, c)
	if n == 0 {
		return 1
	}
	// 2·(Σ_{j<k} C(n,j) + ½·C(n,k)) / 2^n = (2·Σ_{j<k} C(n,j) + C(n,k)) / 2^n
	num := new(big.Int)
	bin := big.NewInt(1)
	for j := 0; j <= k; j++ {
		if j > 0 {
			bin.Mul(bin, big.NewInt(int64(n-j+1)))
			bin.Quo(bin, big.NewInt(int64(j)))
		}
		if j < k {
			num.Add(num, new(big.Int).Lsh(bin, 1))
		} else {
			num.Add(num, bin)
		}
	}
	den := new(big.Int).Lsh(big.NewInt(1), uint(n))
	if num.Cmp(den) >= 0 {
		return 1
	}
	p, _ := new(big.Rat).SetFrac(num, den).Float64()
	return p
}

// TInterval is the two-sided t interval est ± t_{df, (1+level)/2}·se; NaN
// ends when df is not positive, level is not in (0, 1) or an input is NaN.
func TInterval(est, se, df, level float64) (lo, hi float64) {
	if !(df > 0) || !(level > 0 && level < 1) || math.IsNaN(est) || math.IsNaN(se) {
		return math.NaN(), math.NaN()
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(0.5 + level/2)
	return est - q*se, est + q*se
}

// MDE is the minimum detectable effect of a two-sided t test at level
// alpha with the given power: (t_{1−α/2, df} + t_{power, df})·se, the
// difference whose test rejects with that probability (the usual
// approximation, which ignores the small chance of rejecting in the wrong
// tail and the non-centrality's effect on the t distribution's shape). NaN
// when df ≤ 0, se is NaN or a level is outside (0, 1).
func MDE(se, df, alpha, power float64) float64 {
	if !(df > 0) || math.IsNaN(se) || !(alpha > 0 && alpha < 1) || !(power > 0 && power < 1) {
		return math.NaN()
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	return (t.Quantile(1-alpha/2) + t.Quantile(power)) * se
}
