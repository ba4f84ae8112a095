package stats

import (
	"math"
	"slices"
)

// sortedFinite returns the indices of the non-NaN p-values sorted by p.
func sortedFinite(p []float64) []int {
	idx := make([]int, 0, len(p))
	for i, v := range p {
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmpF(p[a], p[b]) })
	return idx
}

func nanSlice(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	return out
}

// Holm returns Holm's step-down adjusted p-values in input order, as
// statsmodels multipletests(p, method='holm'): sorted ascending,
// adj_(i) = p_(i)·(m−i) (i = 0…m−1), running maximum upwards, capped at 1.
// NaN p-values are left out (m counts the others, as R's p.adjust) and
// their adjusted value is NaN.
func Holm(p []float64) []float64 {
	adj, _ := HolmReject(p, 0.05)
	return adj
}

// HolmReject returns Holm's adjusted p-values and which hypotheses are
// rejected at family-wise level alpha: the sorted p_(i) are rejected up to
// the first one with p_(i) > alpha/(m−i). NaN p-values are never rejected.
func HolmReject(p []float64, alpha float64) (adj []float64, reject []bool) {
	adj = nanSlice(len(p))
	reject = make([]bool, len(p))
	idx := sortedFinite(p)
	m := len(idx)
	run := math.Inf(-1)
	stop := false
	for i, j := range idx {
		k := float64(m - i)
		if p[j] > alpha/k {
			stop = true
		}
		reject[j] = !stop
		run = math.Max(run, p[j]*k)
		adj[j] = math.Min(run, 1)
	}
	return adj, reject
}

// BenjaminiHochberg returns the Benjamini–Hochberg (FDR) adjusted p-values
// in input order, as statsmodels multipletests(p, method='fdr_bh'): sorted
// ascending, adj_(i) = p_(i)/((i+1)/m), running minimum from the top,
// capped at 1. NaN p-values are left out and stay NaN.
func BenjaminiHochberg(p []float64) []float64 {
	adj, _ := BenjaminiHochbergReject(p, 0.05)
	return adj
}

// BenjaminiHochbergReject returns the BH adjusted p-values and the
// rejections at false discovery rate alpha: the largest sorted i with
// p_(i) ≤ alpha·(i+1)/m and every smaller one.
func BenjaminiHochbergReject(p []float64, alpha float64) (adj []float64, reject []bool) {
	adj = nanSlice(len(p))
	reject = make([]bool, len(p))
	idx := sortedFinite(p)
	m := len(idx)
	last := -1
	for i, j := range idx {
		q := float64(i+1) / float64(m)
		if p[j] <= q*alpha {
			last = i
		}
	}
	run := math.Inf(1)
	for i := m - 1; i >= 0; i-- {
		j := idx[i]
		q := float64(i+1) / float64(m)
		run = math.Min(run, p[j]/q)
		adj[j] = math.Min(run, 1)
		reject[j] = i <= last
	}
	return adj, reject
}
