package stats

import (
	"context"
	"math/bits"
	"math/rand/v2"

	"github.com/euroexec/euroexec/internal/workers"
)

// CountStat evaluates a statistic on one resample given as counts: cnt[c]
// is the number of times cluster c was drawn. It fills out (one row of the
// replicate matrix, prefilled with NaN). It may keep scratch space between
// calls: each worker gets its own CountStat from the factory.
type CountStat func(cnt []int32, out []float64)

// ClusterBootstrapCounts is ClusterBootstrap for statistics that depend on
// a resample only through how often each cluster was drawn — weighted sums
// of per-cluster sufficient statistics. Replicate r draws exactly what
// ClusterBootstrap draws (ResampleIndices(nClusters, NewRand(seed, r))) and
// passes the counts, so the matrix equals ClusterBootstrap's for a statistic
// that ignores the draw order. Nothing is allocated per replicate: each of
// the runtime.GOMAXPROCS(0) workers reuses its generator, its count vector
// and the CountStat that newStat returns for it (newStat is called once per
// worker, from that worker's goroutine).
//
// The result is the replicates × nOut matrix, identical for any number of
// cores. ctx is checked before every replicate; when it is done, the error
// is ctx.Err() and the matrix nil. replicates < 1 gives an empty matrix;
// nClusters < 1 gives rows of NaN without calling the statistic.
func ClusterBootstrapCounts(ctx context.Context, nClusters, replicates int, seed uint64, nOut int, newStat func() CountStat) ([][]float64, error) {
	if replicates < 1 {
		return [][]float64{}, ctx.Err()
	}
	nOut = max(nOut, 0)
	rows := nanRows(replicates, nOut)
	if nClusters < 1 {
		return rows, ctx.Err()
	}
	err := workers.Run(ctx, replicates, func() func(int) error {
		stat := newStat()
		cnt := make([]int32, nClusters)
		var src rand.PCG
		return func(r int) error {
			src.Seed(seed, uint64(r))
			clear(cnt)
			drawCounts(&src, nClusters, cnt, 1)
			stat(cnt, rows[r])
			return nil
		}
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// CountBlockStat evaluates a statistic on a block of consecutive
// replicates at once: out[b] is the row of the block's replicate b (prefilled
// with NaN) and cnt[c·len(out)+b] the number of times cluster c was drawn in
// it (clusters major, so that one pass over the clusters serves every
// replicate of the block). It may keep scratch space between calls: each
// worker gets its own CountBlockStat from the factory.
type CountBlockStat func(cnt []int32, out [][]float64)

// DefaultCountBlock is the block size ClusterBootstrapCountBlocks uses for
// block ≤ 0: large enough that per-cluster data is read once for many
// replicates, small enough that a block's accumulators stay in cache.
const DefaultCountBlock = 16

// ClusterBootstrapCountBlocks is ClusterBootstrapCounts with the replicates
// handed to the statistic in blocks of block consecutive replicates (the
// last block may be shorter; block ≤ 0 means DefaultCountBlock). Replicate r
// draws exactly what ClusterBootstrapCounts draws, so a statistic that
// computes each replicate of the block as the per-replicate statistic would
// (the same operations in the same order) gives the same matrix bit for bit;
// the gain is memory traffic: a statistic that streams per-cluster
// sufficient statistics reads them once per block instead of once per
// replicate. Workers take whole blocks; the result is identical for any
// number of cores. ctx is checked before every block.
func ClusterBootstrapCountBlocks(ctx context.Context, nClusters, replicates int, seed uint64, nOut, block int, newStat func() CountBlockStat) ([][]float64, error) {
	return ClusterBootstrapStrata(ctx, []int{nClusters}, replicates, seed, nOut, block, newStat)
}

// ClusterBootstrapStrata is ClusterBootstrapCountBlocks over strata of
// clusters, each resampled on its own: the clusters are numbered stratum by
// stratum (stratum k holds strata[k] clusters, after those of the strata
// before it), and replicate r draws, from its one stream (seed, r),
// strata[0] clusters of stratum 0 with replacement, then strata[1] of
// stratum 1, and so on, each draw as rand.New(src).IntN(strata[k]) makes
// it. The stratum sizes are thus the same in every replicate: a paired
// comparison resamples the clusters both sides share and those of each
// side alone without mixing them. With one stratum it is
// ClusterBootstrapCountBlocks. A stratum of size ≤ 0 draws nothing; with
// no cluster at all every row is NaN and the statistic is not called.
func ClusterBootstrapStrata(ctx context.Context, strata []int, replicates int, seed uint64, nOut, block int, newStat func() CountBlockStat) ([][]float64, error) {
	if replicates < 1 {
		return [][]float64{}, ctx.Err()
	}
	if block <= 0 {
		block = DefaultCountBlock
	}
	block = min(block, replicates)
	nOut = max(nOut, 0)
	rows := nanRows(replicates, nOut)
	nClusters := 0
	for _, n := range strata {
		nClusters += max(n, 0)
	}
	if nClusters < 1 {
		return rows, ctx.Err()
	}
	nBlocks := (replicates + block - 1) / block
	err := workers.Run(ctx, nBlocks, func() func(int) error {
		stat := newStat()
		cnt := make([]int32, nClusters*block)
		var one []int32 // drawBlock's replicate vector, when it needs one
		if nClusters*block > spreadCounts {
			one = make([]int32, nClusters)
		}
		var src rand.PCG
		return func(k int) error {
			r0 := k * block
			nb := min(block, replicates-r0)
			c := cnt[:nClusters*nb]
			drawBlock(&src, seed, r0, strata, nClusters, c, nb, one)
			stat(c, rows[r0:r0+nb])
			return nil
		}
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// drawBlock sets c (n·nb long, n the clusters of all strata) to the counts
// of the nb replicates r0 … r0+nb−1: c[i·nb+b] is the number of times
// replicate r0+b, drawn with src seeded (seed, r0+b) stratum after stratum
// (drawStrata), drew cluster i. When the block's counts outgrow a
// core's cache (more than spreadCounts), each replicate's draws go to one
// (n long, zeroed here) whose counts then go to c in cluster order: the
// draws' scattered increments stay in a vector the cache holds (160 KB at
// 40,000 clusters, the block's 5 MB) and c is written in one sequential
// pass per replicate — the same counts, in half the time at 40,000
// clusters (BenchmarkDrawBlock). Smaller blocks are drawn into straight.
func drawBlock(src *rand.PCG, seed uint64, r0 int, strata []int, n int, c []int32, nb int, one []int32) {
	c = c[:n*nb]
	if n*nb <= spreadCounts {
		clear(c)
		for b := 0; b < nb; b++ {
			src.Seed(seed, uint64(r0+b))
			drawStrata(src, strata, c[b:], nb)
		}
		return
	}
	one = one[:n]
	for b := 0; b < nb; b++ {
		clear(one)
		src.Seed(seed, uint64(r0+b))
		drawStrata(src, strata, one, 1)
		for i, x := range one {
			c[i*nb+b] = x
		}
	}
}

// drawStrata draws every stratum's clusters in turn with drawCounts, the
// clusters of stratum k counted from the first after the strata before it.
func drawStrata(src *rand.PCG, strata []int, c []int32, stride int) {
	off := 0
	for _, n := range strata {
		if n <= 0 {
			continue
		}
		drawCounts(src, n, c[off*stride:], stride)
		off += n
	}
}

// spreadCounts is the largest block of counts drawBlock draws into
// straight (1 MB).
const spreadCounts = 1 << 18

// drawCounts draws n clusters from 0 … n−1 with src, as n calls of
// rand.New(src).IntN(n) draw them, and adds one to c[i·stride] for each
// drawn cluster i. The draws are uint64n's, written out here so that the
// generator is inlined: no draw goes through the Source interface.
func drawCounts(src *rand.PCG, n int, c []int32, stride int) {
	if n <= 0 {
		return
	}
	un := uint64(n)
	if un&(un-1) == 0 { // a power of two: a mask
		for range n {
			c[int(src.Uint64()&(un-1))*stride]++
		}
		return
	}
	for range n {
		hi, lo := bits.Mul64(src.Uint64(), un)
		if lo < un {
			hi = reject(src, un, hi, lo)
		}
		c[int(hi)*stride]++
	}
}

// reject finishes drawCounts's draw (hi, lo) of the product of a random
// word and n when lo < n: drawn again while lo is below 2⁶⁴ mod n.
func reject(src *rand.PCG, n, hi, lo uint64) uint64 {
	thresh := -n % n
	for lo < thresh {
		hi, lo = bits.Mul64(src.Uint64(), n)
	}
	return hi
}
