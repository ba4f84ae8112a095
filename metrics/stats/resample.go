package stats

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/euroexec/euroexec/internal/workers"
)

// NewRand returns the random generator of replicate rep for a seed:
// rand.New(rand.NewPCG(seed, uint64(rep))). Every replicate has its own
// stream, so a replicate's draws depend only on (seed, rep), never on the
// order or the goroutine in which replicates run.
func NewRand(seed uint64, rep int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(rep)))
}

// ResampleIndices returns n cluster indices drawn uniformly from 0 … n−1
// with replacement, in draw order, using r.IntN(n) for each draw. It
// returns an empty slice for n < 1.
func ResampleIndices(n int, r *rand.Rand) []int {
	if n < 1 {
		return []int{}
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = r.IntN(n)
	}
	return idx
}

// ClusterBootstrap draws replicates resamples of nClusters cluster indices
// with replacement and evaluates stat on each. Replicate r uses
// ResampleIndices(nClusters, NewRand(seed, r)); stat(idx, out) must fill
// out (length nOut, one row of the result; it arrives filled with NaN) from
// the clusters idx (a cluster drawn twice appears twice). The result is the
// replicates × nOut matrix, row r being replicate r.
//
// Replicates run on runtime.GOMAXPROCS(0) goroutines; because each row
// depends only on (seed, r), the matrix is identical for any number of
// cores. stat is called concurrently and must be safe for that (read shared
// data, write only out); idx must not be retained or modified. NaN results
// are kept. replicates < 1 gives an empty matrix; nClusters < 1 gives rows of
// NaN without calling stat; nOut < 0 is treated as 0.
func ClusterBootstrap(nClusters, replicates int, seed uint64, nOut int, stat func(idx []int, out []float64)) [][]float64 {
	if replicates < 1 {
		return [][]float64{}
	}
	rows, _ := ClusterBootstrapContext(context.Background(), nClusters, replicates, seed, nOut, stat)
	return rows
}

// ClusterBootstrapContext is ClusterBootstrap that stops drawing once ctx
// is cancelled: the replicates not yet begun are left as rows of NaN and
// ctx's error is returned with the matrix. With a live ctx the matrix is
// ClusterBootstrap's, bit for bit.
func ClusterBootstrapContext(ctx context.Context, nClusters, replicates int, seed uint64, nOut int, stat func(idx []int, out []float64)) ([][]float64, error) {
	if replicates < 1 {
		return [][]float64{}, ctx.Err()
	}
	nOut = max(nOut, 0)
	rows := nanRows(replicates, nOut)
	if nClusters < 1 {
		return rows, ctx.Err()
	}
	// The index lists are reused between replicates (stat must not keep
	// idx after it returns), so a bootstrap allocates a few lists, not one
	// per replicate. The draws are NewRand(seed, r).IntN(nClusters)'s,
	// made by drawIndices on the generator itself.
	type scratch struct {
		idx []int
		src rand.PCG
	}
	pool := sync.Pool{New: func() any { return &scratch{idx: make([]int, nClusters)} }}
	parallelRows(replicates, func(r int) {
		if ctx.Err() != nil {
			return
		}
		sc := pool.Get().(*scratch)
		sc.src.Seed(seed, uint64(r))
		drawIndices(&sc.src, nClusters, sc.idx)
		stat(sc.idx, rows[r])
		pool.Put(sc)
	})
	return rows, ctx.Err()
}

// drawIndices fills idx with draws from 0 … n−1 as len(idx) calls of
// rand.New(src).IntN(n) make them (uint64n's, written out as in
// drawCounts, so that the generator is inlined instead of called through
// the Source interface).
func drawIndices(src *rand.PCG, n int, idx []int) {
	if n <= 0 {
		return
	}
	un := uint64(n)
	if un&(un-1) == 0 { // a power of two: a mask
		for i := range idx {
			idx[i] = int(src.Uint64() & (un - 1))
		}
		return
	}
	for i := range idx {
		hi, lo := bits.Mul64(src.Uint64(), un)
		if lo < un {
			hi = reject(src, un, hi, lo)
		}
		idx[i] = int(hi)
	}
}

// BootstrapFromIndices evaluates stat on explicit resamples: row r of the
// result is stat(indices[r], out) with out of length nOut prefilled with
// NaN. It is the engine of ClusterBootstrap (which generates the index lists
// itself) and lets callers and tests supply fixed resamples. It runs in
// parallel like ClusterBootstrap and is equally deterministic.
func BootstrapFromIndices(indices [][]int, nOut int, stat func(idx []int, out []float64)) [][]float64 {
	nOut = max(nOut, 0)
	rows := nanRows(len(indices), nOut)
	parallelRows(len(indices), func(r int) {
		stat(indices[r], rows[r])
	})
	return rows
}

func nanRows(n, m int) [][]float64 {
	backing := make([]float64, n*m)
	for i := range backing {
		backing[i] = math.NaN()
	}
	rows := make([][]float64, n)
	for r := range rows {
		rows[r] = backing[r*m : (r+1)*m : (r+1)*m]
	}
	return rows
}

// parallelRows calls f(r) for r = 0 … n−1 on up to GOMAXPROCS goroutines.
func parallelRows(n int, f func(r int)) {
	_ = workers.Each(context.Background(), n, func(r int) error { f(r); return nil })
}

// PercentileInterval returns the equal-tailed percentile interval of column
// j of a replicate matrix at the given level (0.95 → the 2.5th and 97.5th
// percentiles), with numpy's default type-7 percentile. NaN replicates
// (rows where the statistic was undefined, or too short to have column j)
// are ignored; the interval is NaN, NaN when no finite value remains, when
// j < 0, or when level is not in (0, 1). The tail percent 50·(1−level) is
// rounded to 9 decimals so that 0.95 gives exactly numpy.percentile(col,
// [2.5, 97.5]).
func PercentileInterval(reps [][]float64, j int, level float64) (lo, hi float64) {
	nan := math.NaN()
	if j < 0 || !(level > 0 && level < 1) {
		return nan, nan
	}
	col := make([]float64, 0, len(reps))
	finite := false
	for _, row := range reps {
		if j >= len(row) || math.IsNaN(row[j]) {
			continue
		}
		col = append(col, row[j])
		if !math.IsInf(row[j], 0) {
			finite = true
		}
	}
	if !finite {
		return nan, nan
	}
	slices.Sort(col)
	tail := math.Round(50*(1-level)*1e9) / 1e9
	return percentileSorted(col, tail), percentileSorted(col, 100-tail)
}

// Subsample returns k distinct indices drawn uniformly without replacement
// from 0 … n−1, sorted ascending (a partial Fisher–Yates shuffle driven by
// r.IntN). It returns nil when k < 0, k > n or r is nil; k = 0 gives an
// empty slice.
func Subsample(n, k int, r *rand.Rand) []int {
	if k < 0 || k > n || r == nil {
		return nil
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for i := 0; i < k; i++ {
		j := i + r.IntN(n-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	out := perm[:k:k]
	slices.Sort(out)
	return out
}
