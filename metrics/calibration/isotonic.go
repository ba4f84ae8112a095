package calibration

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// PAV returns the weighted least-squares non-decreasing fit to y in the
// given order (the pool-adjacent-violators algorithm): the sequence ŷ with
// ŷ₀ ≤ ŷ₁ ≤ … minimising Σ wᵢ(yᵢ − ŷᵢ)². A pooled block takes the weighted
// mean of its values. w nil means unit weights. It returns nil when the
// lengths differ, a weight is not positive and finite, or a value is NaN.
func PAV(y, w []float64) []float64 {
	if w != nil && len(w) != len(y) {
		return nil
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		if w != nil && !(w[i] > 0 && !math.IsInf(w[i], 0)) {
			return nil
		}
	}
	// Blocks on a stack: weighted mean, total weight, length.
	type block struct {
		mean, w float64
		n       int
	}
	st := make([]block, 0, len(y))
	for i, v := range y {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		b := block{v, wi, 1}
		for len(st) > 0 && st[len(st)-1].mean > b.mean {
			top := st[len(st)-1]
			st = st[:len(st)-1]
			tw := top.w + b.w
			b = block{mean: (float64(top.mean*top.w) + float64(b.mean*b.w)) / tw, w: tw, n: top.n + b.n}
		}
		st = append(st, b)
	}
	out := make([]float64, 0, len(y))
	for _, b := range st {
		for k := 0; k < b.n; k++ {
			out = append(out, b.mean)
		}
	}
	return out
}

// IsotonicMap is a fitted non-decreasing map from a judge score to a human
// score: knots X (distinct, ascending) with fitted values Y.
type IsotonicMap struct {
	X, Y []float64
}

// FitIsotonic fits an isotonic (non-decreasing) regression of y on x with
// weights w (nil = unit weights), as scikit-learn's IsotonicRegression with
// increasing=True: tied x values are first pooled into one point (the
// weighted mean of their y, with the summed weight), then PAV runs over the
// distinct x in ascending order. It returns an error for no points,
// mismatched lengths, NaN values or weights that are not positive.
func FitIsotonic(x, y, w []float64) (*IsotonicMap, error) {
	switch {
	case len(x) == 0:
		return nil, errors.New("calibration: isotonic: no points")
	case len(y) != len(x) || (w != nil && len(w) != len(x)):
		return nil, fmt.Errorf("calibration: isotonic: lengths differ (x %d, y %d, w %d)", len(x), len(y), len(w))
	}
	idx := make([]int, len(x))
	for i := range idx {
		if math.IsNaN(x[i]) || math.IsNaN(y[i]) || math.IsInf(x[i], 0) || math.IsInf(y[i], 0) {
			return nil, fmt.Errorf("calibration: isotonic: point %d is not finite", i)
		}
		if w != nil && !(w[i] > 0 && !math.IsInf(w[i], 0)) {
			return nil, fmt.Errorf("calibration: isotonic: weight %d is %v, want > 0", i, w[i])
		}
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	var ux, uy, uw []float64
	for _, i := range idx {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		if k := len(ux) - 1; k >= 0 && ux[k] == x[i] {
			tw := uw[k] + wi
			uy[k] = (float64(uy[k]*uw[k]) + float64(y[i]*wi)) / tw
			uw[k] = tw
			continue
		}
		ux = append(ux, x[i])
		uy = append(uy, y[i])
		uw = append(uw, wi)
	}
	return &IsotonicMap{X: ux, Y: PAV(uy, uw)}, nil
}

// Predict returns the map at v: linear interpolation between the two
// surrounding knots, the end value outside the fitted range (scikit-learn's
// out_of_bounds="clip"). NaN for a NaN v or an empty map.
func (m *IsotonicMap) Predict(v float64) float64 {
	if m == nil || len(m.X) == 0 || math.IsNaN(v) {
		return math.NaN()
	}
	n := len(m.X)
	if v <= m.X[0] {
		return m.Y[0]
	}
	if v >= m.X[n-1] {
		return m.Y[n-1]
	}
	k := sort.SearchFloat64s(m.X, v) // m.X[k-1] < v ≤ m.X[k]
	if m.X[k] == v {
		return m.Y[k]
	}
	x0, x1, y0, y1 := m.X[k-1], m.X[k], m.Y[k-1], m.Y[k]
	return y0 + float64((y1-y0)*((v-x0)/(x1-x0)))
}
