package stats

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"syscall"
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

// The block engine hands each replicate the same counts as the
// per-replicate engine, whatever the block size and number of cores: a
// statistic that uses every count (an order-dependent hash of them) gives
// the same matrix bit for bit.
func TestClusterBootstrapCountBlocksSameCounts(t *testing.T) {
	const nC, reps = 37, 203
	hash := func(cnt func(c int) int32) float64 {
		var h uint64 = 1469598103934665603
		for c := 0; c < nC; c++ {
			h = (h ^ uint64(cnt(c))) * 1099511628211
		}
		return float64(h >> 11)
	}
	want, err := ClusterBootstrapCounts(context.Background(), nC, reps, 7, 1, func() CountStat {
		return func(cnt []int32, out []float64) { out[0] = hash(func(c int) int32 { return cnt[c] }) }
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, procs := range []int{1, 3} {
		for _, block := range []int{0, 1, 5, 16, 300} {
			prev := runtime.GOMAXPROCS(procs)
			got, err := ClusterBootstrapCountBlocks(context.Background(), nC, reps, 7, 1, block, func() CountBlockStat {
				return func(cnt []int32, out [][]float64) {
					nb := len(out)
					for b := range out {
						out[b][0] = hash(func(c int) int32 { return cnt[c*nb+b] })
					}
				}
			})
			runtime.GOMAXPROCS(prev)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != reps {
				t.Fatalf("block %d: %d replicates, want %d", block, len(got), reps)
			}
			for r := range want {
				if got[r][0] != want[r][0] {
					t.Fatalf("GOMAXPROCS %d block %d replicate %d: got %v, want %v", procs, block, r, got[r][0], want[r][0])
				}
			}
		}
	}
}

func TestClusterBootstrapCountBlocksEdges(t *testing.T) {
	stat := func() CountBlockStat {
		return func(cnt []int32, out [][]float64) {
			for _, o := range out {
				o[0] = 1
			}
		}
	}
	if reps, err := ClusterBootstrapCountBlocks(context.Background(), 5, 0, 1, 1, 0, stat); err != nil || len(reps) != 0 {
		t.Errorf("0 replicates: %v %v, want empty", reps, err)
	}
	reps, err := ClusterBootstrapCountBlocks(context.Background(), 0, 3, 1, 2, 0, stat)
	if err != nil || len(reps) != 3 || !math.IsNaN(reps[2][1]) {
		t.Errorf("0 clusters: %v %v, want 3 rows of NaN", reps, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if reps, err := ClusterBootstrapCountBlocks(ctx, 5, 100, 1, 1, 4, stat); err != context.Canceled || reps != nil {
		t.Errorf("cancelled: %v %v, want nil and context.Canceled", reps, err)
	}
}

// drawCountsIntN is the definition of a replicate's draws: n calls of
// rand.Rand.IntN(n), each adding one to its cluster's count.
func drawCountsIntN(rng *rand.Rand, n int, c []int32, stride int) {
	for range n {
		c[rng.IntN(n)*stride]++
	}
}

// drawCounts adds exactly the counts of n draws of rand.New(src).IntN(n),
// for n a power of two or not, small and large (the rejection loop runs
// for n near 2⁶³), on a stride, and leaves the generator where IntN does.
func TestDrawCountsEqualsIntN(t *testing.T) {
	for _, tc := range []struct {
		n, stride int
		seed      uint64
	}{{1, 1, 1}, {2, 1, 2}, {3, 4, 3}, {7, 2, 4}, {64, 3, 5}, {1000, 1, 6}, {40000, 32, 7}, {65537, 5, 8}} {
		t.Run(fmt.Sprint(tc.n), func(t *testing.T) {
			var s1, s2 rand.PCG
			s1.Seed(tc.seed, 9)
			s2.Seed(tc.seed, 9)
			got, want := make([]int32, tc.n*tc.stride), make([]int32, tc.n*tc.stride)
			drawCounts(&s1, tc.n, got, tc.stride)
			drawCountsIntN(rand.New(&s2), tc.n, want, tc.stride)
			if !slices.Equal(got, want) {
				t.Fatalf("counts differ from IntN's")
			}
			if a, b := s1.Uint64(), s2.Uint64(); a != b {
				t.Errorf("next draw %d, IntN's generator %d", a, b)
			}
		})
	}
}

// uint64n gives rand.Rand.Uint64N's values, in order, for n of every
// kind: 1, powers of two, small, and near 2⁶⁴ (where the rejection loop
// runs often).
func TestUint64nEqualsRand(t *testing.T) {
	for _, n := range []uint64{1, 2, 3, 1 << 20, 40000, 1<<32 + 1, 1<<63 + 12345, 3 << 62, 1<<64 - 3} {
		var s1, s2 rand.PCG
		s1.Seed(n, 1)
		s2.Seed(n, 1)
		r := rand.New(&s2)
		for i := range 2000 {
			if got, want := uint64n(&s1, n), r.Uint64N(n); got != want {
				t.Fatalf("n %d draw %d: got %d, Uint64N %d", n, i, got, want)
			}
		}
	}
}

// BenchmarkDrawCounts draws one block of 32 replicates' counts over 1,000
// and 40,000 clusters as ClusterBootstrapCountBlocks does, with IntN
// through the interface (old) and with drawCounts (new), in one run.
func BenchmarkDrawCounts(b *testing.B) {
	for _, n := range []int{1000, 40000} {
		for _, old := range []bool{true, false} {
			name := fmt.Sprintf("%d/new", n)
			if old {
				name = fmt.Sprintf("%d/old", n)
			}
			b.Run(name, func(b *testing.B) { benchDraws(b, n, old) })
		}
	}
}

func benchDraws(b *testing.B, n int, old bool) {
	const nb = 32
	c := make([]int32, n*nb)
	var src rand.PCG
	rng := rand.New(&src)
	c0 := processCPU()
	for b.Loop() {
		clear(c)
		for r := range nb {
			src.Seed(1, uint64(r))
			if old {
				drawCountsIntN(rng, n, c[r:], nb)
			} else {
				drawCounts(&src, n, c[r:], nb)
			}
		}
	}
	// CPU time is what counts on a shared machine
	b.ReportMetric((processCPU()-c0)/float64(b.N), "cpu-s/op")
}

// processCPU returns the process's user+system CPU seconds.
func processCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return math.NaN()
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// uint64n returns what rand.New(src).Uint64N(n) (and IntN) returns, n > 0:
// math/rand/v2's uint64n written out on the concrete generator (a mask
// for a power of two, else Lemire's multiply-shift with its rejection;
// 32-bit machines give the same sequence), the same values in the same
// order (TestUint64nEqualsRand). It is drawCounts's draw of one cluster,
// kept here to test reject for n up to near 2⁶⁴, which drawCounts
// cannot reach.
func uint64n(src *rand.PCG, n uint64) uint64 {
	if n&(n-1) == 0 { // a power of two: a mask
		return src.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		hi = reject(src, n, hi, lo)
	}
	return hi
}

// drawBlockDirect is drawBlock's definition: each replicate's draws added
// straight into the block's counts, stride nb (the oracle of
// TestDrawBlockEqualsDirect and the baseline of BenchmarkDrawBlock).
func drawBlockDirect(src *rand.PCG, seed uint64, r0, n int, c []int32, nb int) {
	c = c[:n*nb]
	clear(c)
	for b := 0; b < nb; b++ {
		src.Seed(seed, uint64(r0+b))
		drawCounts(src, n, c[b:], nb)
	}
}

// drawBlock gives the counts drawBlockDirect gives, over cluster numbers
// with and without the power-of-two mask and blocks of every length,
// into a block's counts that held other counts before.
func TestDrawBlockEqualsDirect(t *testing.T) {
	for _, tc := range []struct{ n, nb, r0 int }{
		{1, 1, 0}, {2, 3, 5}, {37, 16, 32}, {1024, 32, 64}, {5000, 7, 3}, // straight
		{10000, 29, 3}, {1 << 14, 32, 96}, {40000, 32, 1984}, // through one replicate's vector
	} {
		var src rand.PCG
		want := make([]int32, tc.n*tc.nb)
		drawBlockDirect(&src, 9, tc.r0, tc.n, want, tc.nb)
		got := make([]int32, tc.n*tc.nb)
		for i := range got {
			got[i] = int32(i % 5) // left over from an earlier block
		}
		drawBlock(&src, 9, tc.r0, []int{tc.n}, tc.n, got, tc.nb, make([]int32, tc.n))
		if (tc.n*tc.nb > spreadCounts) != (tc.n >= 10000) {
			t.Fatalf("n %d, %d replicates: not the path the case means", tc.n, tc.nb)
		}
		if !slices.Equal(got, want) {
			t.Errorf("n %d, %d replicates from %d: the counts differ from the old draws", tc.n, tc.nb, tc.r0)
		}
	}
}

// BenchmarkDrawBlock draws one block of 32 replicates' counts over 1,000
// and 40,000 clusters straight into the block (old) and through one
// replicate's vector (new), in one run.
func BenchmarkDrawBlock(b *testing.B) {
	const nb = 32
	for _, n := range []int{1000, 40000} {
		for _, old := range []bool{true, false} {
			name := fmt.Sprintf("%d/new", n)
			if old {
				name = fmt.Sprintf("%d/old", n)
			}
			b.Run(name, func(b *testing.B) {
				c, one := make([]int32, n*nb), make([]int32, n)
				var src rand.PCG
				c0 := processCPU()
				for b.Loop() {
					if old {
						drawBlockDirect(&src, 1, 0, n, c, nb)
					} else {
						drawBlock(&src, 1, 0, []int{n}, n, c, nb, one)
					}
				}
				b.ReportMetric((processCPU()-c0)/float64(b.N), "cpu-s/op")
			})
		}
	}
}

// ClusterBootstrapStrata draws, per replicate, each stratum's clusters in
// turn from the replicate's one stream as NewRand(seed, r).IntN(size)
// draws them (a naive loop written here is the reference), whatever the
// block size and the number of cores, whether the block is drawn into
// straight or spread (40,000 clusters); every stratum keeps its size in
// every replicate; empty strata draw nothing.
func TestClusterBootstrapStrataNaive(t *testing.T) {
	for _, strata := range [][]int{{5, 0, 3, 7}, {1}, {0, 4}, {20000, 13000, 7000}} {
		total := 0
		for _, n := range strata {
			total += n
		}
		const reps, seed = 37, 11
		want := make([][]float64, reps)
		for r := range want {
			want[r] = make([]float64, total)
			rng := NewRand(seed, r)
			off := 0
			for _, n := range strata {
				for range n {
					want[r][off+rng.IntN(n)]++
				}
				off += n
			}
		}
		for _, procs := range []int{1, 2} {
			for _, block := range []int{0, 1, 16} {
				prev := runtime.GOMAXPROCS(procs)
				got, err := ClusterBootstrapStrata(context.Background(), strata, reps, seed, total, block, func() CountBlockStat {
					return func(cnt []int32, out [][]float64) {
						nb := len(out)
						for b := range out {
							for i := range total {
								out[b][i] = float64(cnt[i*nb+b])
							}
						}
					}
				})
				runtime.GOMAXPROCS(prev)
				if err != nil {
					t.Fatal(err)
				}
				for r := range want {
					if !slices.Equal(got[r], want[r]) {
						t.Fatalf("strata %v procs %d block %d replicate %d: counts differ from the naive draws", strata[:min(len(strata), 4)], procs, block, r)
					}
					off := 0
					for _, n := range strata {
						sum := 0.0
						for _, x := range got[r][off : off+n] {
							sum += x
						}
						if sum != float64(n) {
							t.Fatalf("strata %v replicate %d: a stratum of %d drew %v", strata, r, n, sum)
						}
						off += n
					}
				}
			}
		}
	}
	if rows, err := ClusterBootstrapStrata(context.Background(), []int{0, 0}, 3, 1, 2, 0, func() CountBlockStat {
		return func([]int32, [][]float64) { t.Fatal("statistic called without clusters") }
	}); err != nil || len(rows) != 3 || !math.IsNaN(rows[0][0]) {
		t.Errorf("no clusters: rows %v err %v, want 3 rows of NaN", rows, err)
	}
}
