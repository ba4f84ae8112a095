package stats

import (
	"math"
	"testing"
)

// TestRatioContrastHand checks RatioContrast on cases computed by hand,
// the p-values and t quantiles from scipy.stats.t (scipy 1.10).
func TestRatioContrastHand(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name           string
		sum, n         [][]float64
		coef           []float64
		est, se, p, hw float64 // hw: half-width of the 95 % interval
		clusters       int
	}{
		{
			// unpaired: A = {1, 2, 3} on clusters 1-3, B = {2, 4} on 4-5;
			// B − A = 1, u = 1/3, 0, −1/3, −1/2, 1/2, Σu² = 13/18,
			// SE² = 5/4·13/18 = 65/72, t = 1.052469623168435 on 4 df
			name: "unpaired two samples",
			sum:  [][]float64{{1, 0}, {2, 0}, {3, 0}, {0, 2}, {0, 4}},
			n:    [][]float64{{1, 0}, {1, 0}, {1, 0}, {0, 1}, {0, 1}},
			coef: []float64{-1, 1},
			est:  1, se: 0.950146187582615, p: 0.3519610670909776, hw: 2.638028731736101, clusters: 5,
		},
		{
			// one mean, three clusters of sizes 2, 1, 1 and sums 1, 1, 0:
			// m = 1/2, u = 0, 1/8, −1/8, Σu² = 1/32, SE² = 3/2·1/32 = 3/64,
			// t = 2.3094010767585034 on 2 df
			name: "one mean",
			sum:  [][]float64{{1}, {1}, {0}},
			n:    [][]float64{{2}, {1}, {1}},
			coef: []float64{1},
			est:  0.5, se: 0.21650635094610965, p: 0.14719713457755818, hw: 0.9315516419414072, clusters: 3,
		},
		{
			name: "a mean without units", sum: [][]float64{{1, 0}, {1, 0}}, n: [][]float64{{1, 0}, {1, 0}},
			coef: []float64{1, -1}, est: nan, se: nan, p: nan, hw: nan, clusters: 2,
		},
		{
			name: "a zero coefficient ignores its mean", sum: [][]float64{{1, 5}, {0, nan}}, n: [][]float64{{1, 1}, {1, 1}},
			coef: []float64{1, 0}, est: nan, se: nan, p: nan, hw: nan, clusters: 0,
		},
		{
			name: "equal sides", sum: [][]float64{{1, 1}, {0, 0}, {1, 1}}, n: [][]float64{{1, 1}, {1, 1}, {1, 1}},
			coef: []float64{1, -1}, est: 0, se: 0, p: 1, hw: 0, clusters: 3,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := RatioContrast(tc.sum, tc.n, tc.coef, 0.95)
			check := func(what string, got, want float64) {
				t.Helper()
				if math.IsNaN(want) != math.IsNaN(got) || math.Abs(got-want) > 1e-12 {
					t.Errorf("%s = %v, want %v", what, got, want)
				}
			}
			check("estimate", r.Estimate, tc.est)
			check("SE", r.SE, tc.se)
			check("p", r.P, tc.p)
			// gonum's t quantile agrees with scipy's to about 1e-10
			if d := math.Abs((r.Hi - r.Estimate) - tc.hw); d > 1e-9 || math.IsNaN(d) != math.IsNaN(tc.hw) {
				t.Errorf("half-width = %v, want %v", r.Hi-r.Estimate, tc.hw)
			}
			if r.Clusters != tc.clusters && !math.IsNaN(tc.est) {
				t.Errorf("clusters = %d, want %d", r.Clusters, tc.clusters)
			}
		})
	}
}

// TestRatioContrastSize simulates 400 studies under the null for the
// designs compare meets — two runs that share all, half or none of their
// questions, and the change of a gap between two models — and checks the
// type I error at α = 5 % is within [3 %, 7 %], and that a true change of
// 10 points is found.
func TestRatioContrastSize(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	const studies = 400
	// study draws q questions graded by 1-3 graders; run "old" sees the
	// first share·q questions shared with "new", both see others alone.
	study := func(seed uint64, q int, shared float64, delta float64, gap bool) ([][]float64, [][]float64, []float64) {
		r := NewRand(seed, 0)
		J := 2
		coef := []float64{-1, 1}
		if gap {
			J = 4 // old u, old v, new u, new v
			coef = []float64{-1, 1, 1, -1}
		}
		var sum, n [][]float64
		grade := func(p float64) (float64, float64) {
			k := 1 + r.IntN(3)
			s := 0
			for range k {
				if r.Float64() < p {
					s++
				}
			}
			return float64(s), float64(k)
		}
		nShared := int(shared * float64(q))
		for i := 0; i < q+(q-nShared); i++ {
			p := 0.15 + 0.7*r.Float64()
			sg, ng := make([]float64, J), make([]float64, J)
			inOld, inNew := i < q, i < nShared || i >= q
			for j := 0; j < J; j++ {
				isNew := j == 1 && !gap || j >= 2
				if isNew && !inNew || !isNew && !inOld {
					continue
				}
				pp := p
				if isNew && (!gap || j == 2) {
					pp += delta
				}
				sg[j], ng[j] = grade(math.Min(1, math.Max(0, pp+0.1*r.NormFloat64())))
			}
			sum, n = append(sum, sg), append(n, ng)
		}
		return sum, n, coef
	}
	for _, tc := range []struct {
		name   string
		shared float64
		gap    bool
	}{
		{"all questions shared", 1, false},
		{"half shared", 0.5, false},
		{"none shared", 0, false},
		{"gap change, half shared", 0.5, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rejNull, rejAlt := 0, 0
			for s := range studies {
				sum, n, coef := study(uint64(2000+s), 200, tc.shared, 0, tc.gap)
				if RatioContrast(sum, n, coef, 0.95).P < 0.05 {
					rejNull++
				}
				sum, n, coef = study(uint64(9000+s), 200, tc.shared, 0.1, tc.gap)
				if RatioContrast(sum, n, coef, 0.95).P < 0.05 {
					rejAlt++
				}
			}
			size, power := float64(rejNull)/studies, float64(rejAlt)/studies
			t.Logf("size %.3f, power %.3f", size, power)
			if size < 0.03 || size > 0.07 {
				t.Errorf("type I error %.3f outside [0.03, 0.07]", size)
			}
			if power < 0.5 {
				t.Errorf("power %.3f < 0.5", power)
			}
		})
	}
}
