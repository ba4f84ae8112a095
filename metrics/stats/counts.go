package stats

import (
	"context"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
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
	workers := min(runtime.GOMAXPROCS(0), replicates)
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stat := newStat()
			cnt := make([]int32, nClusters)
			var src rand.PCG
			rng := rand.New(&src)
			for {
				r := int(next.Add(1) - 1)
				if r >= replicates || stop.Load() {
					return
				}
				if ctx.Err() != nil {
					stop.Store(true)
					return
				}
				src.Seed(seed, uint64(r))
				clear(cnt)
				for range nClusters {
					cnt[rng.IntN(nClusters)]++
				}
				stat(cnt, rows[r])
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return rows, nil
}
