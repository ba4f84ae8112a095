package stats

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// clusterBootstrapIntN is ClusterBootstrapContext's definition:
// NewRand(seed, r).IntN per index. It is the oracle of
// TestClusterBootstrapEqualsIntN.
func clusterBootstrapIntN(ctx context.Context, nClusters, replicates int, seed uint64, nOut int, stat func(idx []int, out []float64)) ([][]float64, error) {
	if replicates < 1 {
		return [][]float64{}, ctx.Err()
	}
	nOut = max(nOut, 0)
	rows := nanRows(replicates, nOut)
	if nClusters < 1 {
		return rows, ctx.Err()
	}
	pool := sync.Pool{New: func() any { b := make([]int, nClusters); return &b }}
	parallelRows(replicates, func(r int) {
		if ctx.Err() != nil {
			return
		}
		bp := pool.Get().(*[]int)
		idx := *bp
		rng := NewRand(seed, r)
		for i := range idx {
			idx[i] = rng.IntN(nClusters)
		}
		stat(idx, rows[r])
		pool.Put(bp)
	})
	return rows, ctx.Err()
}

// TestDrawIndicesEqualsIntN checks drawIndices against rand.Rand.IntN on
// the same generator, for n of every kind (1, powers of two, others), and
// that it leaves the generator where IntN does.
func TestDrawIndicesEqualsIntN(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 64, 1000, 40000, 65537, 1 << 20} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var s1, s2 rand.PCG
			s1.Seed(uint64(n), 5)
			s2.Seed(uint64(n), 5)
			got, want := make([]int, n), make([]int, n)
			drawIndices(&s1, n, got)
			r := rand.New(&s2)
			for i := range want {
				want[i] = r.IntN(n)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("indices differ from IntN's")
			}
			if a, b := s1.Uint64(), s2.Uint64(); a != b {
				t.Errorf("next draw %d, IntN's generator %d", a, b)
			}
		})
	}
}

// TestClusterBootstrapEqualsIntN checks every replicate's index list
// against the definition (clusterBootstrapIntN),
// through a hash of the whole list and its last index.
func TestClusterBootstrapEqualsIntN(t *testing.T) {
	hash := func(idx []int, out []float64) {
		h := uint64(14695981039346656037)
		for _, i := range idx {
			h = (h ^ uint64(i)) * 1099511628211
		}
		out[0] = float64(h >> 11) // exact: 53 bits
		out[1] = float64(idx[len(idx)-1])
	}
	for _, n := range []int{1, 5, 64, 999, 4096, 40000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			got, err := ClusterBootstrapContext(context.Background(), n, 40, 3, 2, hash)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := clusterBootstrapIntN(context.Background(), n, 40, 3, 2, hash)
			for r := range want {
				if !slices.Equal(got[r], want[r]) {
					t.Fatalf("replicate %d: %v, want %v", r, got[r], want[r])
				}
			}
		})
	}
}

// BenchmarkClusterBootstrapDraws times a bootstrap whose statistic only
// reads its indices (40,000 clusters, 200 replicates), with the draws of
// NewRand(seed, r).IntN (old) and of drawIndices (new), in the same run.
func BenchmarkClusterBootstrapDraws(b *testing.B) {
	const n, reps = 40000, 200
	stat := func(idx []int, out []float64) { out[0] = float64(idx[0] + idx[len(idx)-1]) }
	b.Run("old", func(b *testing.B) {
		for range b.N {
			clusterBootstrapIntN(context.Background(), n, reps, 1, 1, stat)
		}
	})
	b.Run("new", func(b *testing.B) {
		for range b.N {
			ClusterBootstrapContext(context.Background(), n, reps, 1, 1, stat)
		}
	})
}
