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
			gotDense, wantDense := make([]float64, nS*nb), make([]float64, nS*nb)
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
				dense := make([]float64, r.IntN(nS+1))
				for x := range dense {
					dense[x] = val()
					for b, c := range cnt {
						if c != 0 {
							wantDense[x*nb+b] += float64(float64(c) * dense[x])
						}
					}
				}
				addCountsDense(gotDense, nb, cnt, dense)
			}
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) || math.Float64bits(gotGo[i]) != math.Float64bits(want[i]) {
					t.Fatalf("nb %d trial %d: sum %d: got %v (Go %v), want %v (AVX2 used: %v)", nb, trial, i, got[i], gotGo[i], want[i], useAVX2 && nb%4 == 0)
				}
				if math.Float64bits(gotDense[i]) != math.Float64bits(wantDense[i]) {
					t.Fatalf("nb %d trial %d: dense sum %d: got %v, want %v", nb, trial, i, gotDense[i], wantDense[i])
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
	defer func() {
		if recover() == nil && useAVX2 {
			t.Errorf("3 dense sums of a 2-slot acc: got no panic, want one")
		}
	}()
	addCountsDense(make([]float64, 8), 4, make([]int32, 4), make([]float64, 3))
}

// TestSlotMajorNeedsFinite checks that per-question ANOVA sums with a
// value that is not finite are marked so, and that ICC's replicates on
// such sums are the replicate-major pass's, bit for bit, in a block that
// would otherwise be summed slot-major (there a question a replicate did
// not draw would add 0·Inf = NaN).
func TestSlotMajorNeedsFinite(t *testing.T) {
	if a := newANOVASums([][]float64{{1, 2}, {3, math.Inf(1)}}, []int{0, 1}, 2); a.finite {
		t.Error("newANOVASums: got finite sums with an infinite value, want not")
	}
	nQ, k := 50, 2
	a := &anovaSums{k: k}
	for q := range nQ {
		a.qs = append(a.qs, int32(q))
		a.n, a.g, a.s, a.q = append(a.n, 2), append(a.g, float64(q%7)-3), append(a.s, float64(q%5)), append(a.q, float64(q%9)+1)
		a.c = append(a.c, float64(q%3), float64(q%4)-1)
	}
	a.q[17] = math.Inf(1)
	a.finite = allFinite(a.n, a.g, a.s, a.q, a.c)
	bc := blockOf(nQ, repBlock, 3)
	run := func(avx bool) [][]float64 {
		defer func(v bool) { useAVX2 = v }(useAVX2)
		useAVX2 = avx
		out := newOut(repBlock, 4)
		a.icc(bc, out, &scratch{})
		return out
	}
	want, got := run(false), run(true)
	for b := range want {
		for i := range want[b] {
			if math.Float64bits(got[b][i]) != math.Float64bits(want[b][i]) {
				t.Fatalf("replicate %d, ICC %d: got %v, want %v", b, i, got[b][i], want[b][i])
			}
		}
	}
}

// TestSumTypes32 checks sumTypes32 (AVX2 where the CPU has it) and
// sumTypes32Go against each replicate's sum of its terms from +0 in entry
// order, bit for bit, and that a type past perT panics.
func TestSumTypes32(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for trial := range 300 {
		nT := 1 + r.IntN(40)
		perT := make([]float64, nT*32)
		for i := range perT {
			perT[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(20)-10))
		}
		typ := make([]uint16, r.IntN(25))
		for x := range typ {
			typ[x] = uint16(r.IntN(nT))
		}
		var got, gotGo [32]float64
		sumTypes32(perT, typ, &got)
		sumTypes32Go(perT, typ, &gotGo)
		for b := range 32 {
			var want float64
			for _, ty := range typ {
				want += perT[int(ty)*32+b]
			}
			if math.Float64bits(got[b]) != math.Float64bits(want) || math.Float64bits(gotGo[b]) != math.Float64bits(want) {
				t.Fatalf("trial %d replicate %d: got %v (Go %v), want %v", trial, b, got[b], gotGo[b], want)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a type past perT: got no panic, want one")
		}
	}()
	var s [32]float64
	sumTypes32(make([]float64, 64), []uint16{0, 2}, &s)
}
