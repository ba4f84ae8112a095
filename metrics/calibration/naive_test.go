package calibration

// The length regression by its definition: each replicate stacks the drawn
// questions' rows and solves the least-squares problem by QR (gonum). It
// is the independent check of the fit on per-question cross-products
// (TestLengthFitEqualsNaive) and the baseline of BenchmarkLengthBootstrap.

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
	"gonum.org/v1/gonum/mat"
)

type naiveLengthFit struct {
	nM       int
	clusters [][]lengthRow
}

func (lf *naiveLengthFit) fit(idx []int, out []float64) {
	nM := lf.nM
	n := 0
	for _, c := range idx {
		n += len(lf.clusters[c])
	}
	if n < nM {
		return
	}
	xd := make([]float64, 0, n*nM)
	yd := make([]float64, 0, n)
	for _, c := range idx {
		for _, r := range lf.clusters[c] {
			xd = append(xd, r.x...)
			yd = append(yd, r.y)
		}
	}
	var b mat.VecDense
	if err := b.SolveVec(mat.NewDense(n, nM, xd), mat.NewVecDense(n, yd)); err != nil {
		return
	}
	beta := make([]float64, nM)
	for m := 1; m < nM; m++ {
		beta[m] = b.AtVec(m - 1)
	}
	mean := stats.Mean(beta)
	for m := range beta {
		out[m] = beta[m] - mean
	}
	out[nM] = b.AtVec(nM - 1)
}

// lengthClusters: nQ questions answered by six models (the last one only on
// every rare-th question, so that some resamples miss it and the fit is
// singular there), y depending on the model and on z.
func lengthClusters(nQ, rare int, seed uint64) [][]lengthRow {
	r := rand.New(rand.NewPCG(seed, 5))
	const nM = 6
	var out [][]lengthRow
	for q := 0; q < nQ; q++ {
		var os []lengthObs
		for m := 0; m < nM; m++ {
			if m == nM-1 && q%rare != 0 {
				continue
			}
			z := r.NormFloat64()
			os = append(os, lengthObs{m: m, q: q, z: z, y: 3 + 0.2*float64(m) + 0.3*z + r.NormFloat64()*0.5})
		}
		out = append(out, demean(os, nM))
	}
	return out
}

// The normal equations give the QR coefficients to 1e-9 on every
// replicate, and the same replicates are singular (NaN).
func TestLengthFitEqualsNaive(t *testing.T) {
	cl := lengthClusters(60, 20, 1)
	const nM, B = 6, 300
	naive := &naiveLengthFit{nM: nM, clusters: cl}
	want := stats.ClusterBootstrap(len(cl), B, 4, nM+1, naive.fit)
	lf := newLengthFit(cl, nM)
	singular := 0
	for _, procs := range []int{1, 3} {
		prev := runtime.GOMAXPROCS(procs)
		got, err := stats.ClusterBootstrapCounts(context.Background(), len(cl), B, 4, nM+1, func() stats.CountStat {
			ws := newLengthWork(nM)
			return func(cnt []int32, out []float64) { lf.fit(cnt, out, ws) }
		})
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		for r := range want {
			for j := range want[r] {
				g, w := got[r][j], want[r][j]
				if math.IsNaN(g) != math.IsNaN(w) || math.Abs(g-w) > 1e-9 {
					t.Fatalf("GOMAXPROCS %d replicate %d coefficient %d: got %v, QR by definition %v", procs, r, j, g, w)
				}
			}
			if math.IsNaN(want[r][0]) && procs == 1 {
				singular++
			}
		}
	}
	if singular == 0 || singular == B {
		t.Errorf("%d of %d replicates singular; the test wants some of each", singular, B)
	}
}

// BenchmarkLengthBootstrap: naive (stack the rows, QR per replicate)
// against the analysis's (weighted sum of per-question XᵀX and Xᵀy, 6×6 Cholesky) on the same
// 10,000 questions × 6 models, 50 replicates.
func BenchmarkLengthBootstrap(b *testing.B) {
	cl := lengthClusters(10000, 1, 1)
	const nM, B = 6, 50
	b.Run("naive", func(b *testing.B) {
		b.ReportAllocs()
		naive := &naiveLengthFit{nM: nM, clusters: cl}
		for i := 0; i < b.N; i++ {
			stats.ClusterBootstrap(len(cl), B, 4, nM+1, naive.fit)
		}
	})
	b.Run("crossproducts", func(b *testing.B) {
		b.ReportAllocs()
		lf := newLengthFit(cl, nM)
		for i := 0; i < b.N; i++ {
			stats.ClusterBootstrapCounts(context.Background(), len(cl), B, 4, nM+1, func() stats.CountStat {
				ws := newLengthWork(nM)
				return func(cnt []int32, out []float64) { lf.fit(cnt, out, ws) }
			})
		}
	})
}
