package reliability

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAddCounts checks addCounts (AVX2 where the CPU has it) and
// addCountsGo against replicate-major sums that skip the replicates with a
// zero count, as the kernels before the slot-major layout added them: bit
// for bit, with counts of 0, values of every sign and size (whole numbers
// and not), slots in any order and repeated, and block sizes that are and
// are not multiples of 4.
func TestAddCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	val := func() float64 {
		switch r.IntN(5) {
		case 0:
			return float64(r.IntN(200))
		case 1:
			return -r.Float64() * 1e3
		case 2:
			return r.Float64() * 1e-300
		case 3:
			return r.NormFloat64() * 1e12
		}
		return r.Float64()
	}
	for _, nb := range []int{1, 3, 4, 8, 12, 16, 20, 32} {
		for trial := range 200 {
			nS := 1 + r.IntN(9)
			nQ := 1 + r.IntN(30)
			want := make([]float64, nS*nb)
			got := make([]float64, nS*nb)
			gotGo := make([]float64, nS*nb)
			for range nQ {
				cnt := make([]int32, nb)
				for b := range cnt {
					if r.IntN(3) > 0 {
						cnt[b] = int32(r.IntN(4))
					}
				}
				n := r.IntN(6)
				slots, vals := make([]int32, n), make([]float64, n)
				for x := range slots {
					slots[x], vals[x] = int32(r.IntN(nS)), val()
				}
				for x, s := range slots {
					for b, c := range cnt {
						if c != 0 {
							want[int(s)*nb+b] += float64(float64(c) * vals[x])
						}
					}
				}
				addCounts(got, nb, cnt, slots, vals)
				addCountsGo(gotGo, nb, cnt, slots, vals)
			}
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) || math.Float64bits(gotGo[i]) != math.Float64bits(want[i]) {
					t.Fatalf("nb %d trial %d: sum %d: got %v (Go %v), want %v (AVX2 used: %v)", nb, trial, i, got[i], gotGo[i], want[i], useAVX2 && nb%4 == 0)
				}
			}
		}
	}
}

// TestAddCountsBounds checks that addCounts refuses a slot whose sums lie
// outside acc instead of writing past it.
func TestAddCountsBounds(t *testing.T) {
	for _, slots := range [][]int32{{2}, {-1}, {0, 2}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("slots %v of a 2-slot acc: got no panic, want one", slots)
				}
			}()
			addCounts(make([]float64, 8), 4, make([]int32, 4), slots, make([]float64, len(slots)))
		}()
	}
}
