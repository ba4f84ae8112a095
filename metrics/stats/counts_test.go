package stats

import (
	"context"
	"math"
	"runtime"
	"testing"
)

// The counts engine draws the same resamples as ClusterBootstrap: a
// weighted mean computed from counts equals the mean over the drawn
// indices, for any number of cores.
func TestClusterBootstrapCountsSameDraws(t *testing.T) {
	v := []float64{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7}
	want := ClusterBootstrap(len(v), 200, 11, 2, func(idx []int, out []float64) {
		// order-free statistics: sum and the count of cluster 0
		var s float64
		n0 := 0
		for _, q := range idx {
			s += v[q]
			if q == 0 {
				n0++
			}
		}
		out[0], out[1] = s, float64(n0)
	})
	for _, procs := range []int{1, 2, 4} {
		prev := runtime.GOMAXPROCS(procs)
		got, err := ClusterBootstrapCounts(context.Background(), len(v), 200, 11, 2, func() CountStat {
			return func(cnt []int32, out []float64) {
				var s float64
				for q, c := range cnt {
					// the same additions in the same order as above would need the
					// draw order; integer-valued data makes any order exact
					s += float64(c) * v[q]
				}
				out[0], out[1] = s, float64(cnt[0])
			}
		})
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		for r := range want {
			for j := range want[r] {
				if got[r][j] != want[r][j] {
					t.Fatalf("GOMAXPROCS %d replicate %d column %d: got %v, want %v", procs, r, j, got[r][j], want[r][j])
				}
			}
		}
	}
}

func TestClusterBootstrapCountsEdges(t *testing.T) {
	stat := func() CountStat { return func(cnt []int32, out []float64) { out[0] = 1 } }
	if reps, err := ClusterBootstrapCounts(context.Background(), 5, 0, 1, 1, stat); err != nil || len(reps) != 0 {
		t.Errorf("0 replicates: %v %v, want empty", reps, err)
	}
	reps, err := ClusterBootstrapCounts(context.Background(), 0, 3, 1, 2, stat)
	if err != nil || len(reps) != 3 || !math.IsNaN(reps[2][1]) {
		t.Errorf("0 clusters: %v %v, want 3 rows of NaN", reps, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if reps, err := ClusterBootstrapCounts(ctx, 5, 100, 1, 1, stat); err != context.Canceled || reps != nil {
		t.Errorf("cancelled: %v %v, want nil and context.Canceled", reps, err)
	}
}

// No allocation per replicate: the allocations of a run do not grow with
// the number of replicates.
func TestClusterBootstrapCountsNoAllocPerReplicate(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	stat := func() CountStat { return func(cnt []int32, out []float64) { out[0] = float64(cnt[0]) } }
	allocs := func(reps int) float64 {
		return testing.AllocsPerRun(5, func() {
			ClusterBootstrapCounts(context.Background(), 50, reps, 1, 1, stat)
		})
	}
	a, b := allocs(10), allocs(1000)
	if b > a+2 {
		t.Errorf("allocations: %v for 10 replicates, %v for 1000; want no growth", a, b)
	}
}
