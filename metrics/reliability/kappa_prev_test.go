package reliability

// The κ replicate kernel as it was before n left the packed sums (pairs
// 2L + 3 wide: r, c, n, the diagonal, Σ w·(i−j)²): finish and
// kappaFromSums copied verbatim (names suffixed Prev), on sums rebuilt in
// that layout (withN). The oracle of TestKappaEqualsPrev and the baseline
// of BenchmarkKappa.

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/euroexec/euroexec/metrics/scores"
)

// finishPrev is finish before n left the packed sums (pk: the sums with n
// in place of k.pk, the one change to the copy). It sets out[b] from the block's accumulated pair sums accAll (see
// accumulate): the pair-averaged κ of replicate b, pairs weighted by their
// units, pairs with κ undefined left out.
func (k *kappaKernel) finishPrev(pk *packedCells, accAll []float64, out [][]float64) {
	L := k.L
	w := pk.stride * pk.pairs
	for b, o := range out {
		acc := accAll[b*w : b*w+w]
		var num0, numQ, den0, denQ float64
		for p := 0; p < pk.pairs; p++ {
			k0, kq, n := kappaFromSumsPrev(acc[p*pk.stride:(p+1)*pk.stride], L)
			if !math.IsNaN(k0) {
				num0 += float64(n * k0)
				den0 += n
			}
			if !math.IsNaN(kq) {
				numQ += float64(n * kq)
				denQ += n
			}
		}
		if den0 > 0 {
			o[0] = num0 / den0
		}
		if len(o) > 1 && denQ > 0 {
			o[1] = numQ / denQ
		}
	}
}

// kappaFromSumsPrev is kappaFromSums reading n from the sums. It returns Cohen's κ of a grader pair from its weighted
// confusion-matrix sums a (see accumulate), unweighted (k0) and
// quadratic-weighted (kq), as sklearn computes them from the confusion
// matrix O (rows rater a): κ = 1 − Σ w·O / Σ w·E with E = outer(row sums r,
// column sums c)/n. Unweighted (w = [i≠j]): Σ w·O = n − trace(O) and
// Σ w·E = n − Σ_i r_i·c_i/n. Quadratic (w = (i−j)²): Σ w·E = Σ r_i·i² +
// Σ c_j·j² − 2·(Σ r_i·i)(Σ c_j·j)/n. Each is NaN when its Σ w·E = 0; n is
// the number of units counted.
func kappaFromSumsPrev(a []float64, L int) (k0, kq, n float64) {
	rs, cs := a[:L], a[L:2*L]
	n, diag, wq := a[2*L], a[2*L+1], a[2*L+2]
	k0, kq = math.NaN(), math.NaN()
	if n == 0 {
		return k0, kq, 0
	}
	var r1, r2, c1, c2, rc float64
	for i := 0; i < L; i++ {
		fi := float64(i)
		r1 += rs[i] * fi
		r2 += rs[i] * fi * fi
		c1 += cs[i] * fi
		c2 += cs[i] * fi * fi
		rc += rs[i] * cs[i]
	}
	if we := n - rc/n; we > 0 {
		k0 = 1 - (n-diag)/we
	}
	if we := r2 + c2 - 2*r1*c1/n; we > 0 {
		kq = 1 - wq/we
	}
	return k0, kq, n
}

// withN returns pk's sums in the layout with n (pairs 2L + 3 wide, n =
// Σ r of the pair at 2L, the diagonal and Σ w·(i−j)² one place up), as
// the cell packer built them before.
func withN(pk *packedCells, L int) *packedCells {
	newW, oldW, l2 := int32(2*L+2), int32(2*L+3), int32(2*L)
	o := &packedCells{pairs: pk.pairs, stride: int(oldW), start: []int32{0}}
	for q := 0; q+1 < len(pk.start); q++ {
		lo, hi := pk.start[q], pk.start[q+1]
		for x := lo; x < hi; {
			// one pair's entries: r and c (below 2L), then the rest
			p := pk.slot[x] / newW
			var n float64
			for ; x < hi && pk.slot[x]/newW == p && pk.slot[x]%newW < l2; x++ {
				if pk.slot[x]%newW < int32(L) {
					n += pk.val[x]
				}
				o.slot, o.val = append(o.slot, p*oldW+pk.slot[x]%newW), append(o.val, pk.val[x])
			}
			o.slot, o.val = append(o.slot, p*oldW+l2), append(o.val, n)
			for ; x < hi && pk.slot[x]/newW == p; x++ {
				o.slot, o.val = append(o.slot, p*oldW+pk.slot[x]%newW+1), append(o.val, pk.val[x])
			}
		}
		o.start = append(o.start, int32(len(o.slot)))
	}
	return o
}

// kappaCase is a κ kernel with its sums in the layout with n.
type kappaCase struct {
	name string
	k    *kappaKernel
	prev *packedCells
}

// kappaCases returns the κ kernels of every population of sampleStudy(nQ)
// (the rubric attributes and the checklist) and the number of questions.
func kappaCases(t testing.TB, nQ int) ([]kappaCase, int) {
	t.Helper()
	var cs []kappaCase
	pops, nQs := populationGroups(sampleStudy(nQ, 5))
	for pi, gs := range pops {
		for gi, g := range gs {
			if k, ok := g.k.(*kappaKernel); ok {
				cs = append(cs, kappaCase{fmt.Sprintf("pop%d/group%d/L%d", pi, gi, k.L), k, withN(k.pk, k.L)})
			}
		}
	}
	if len(cs) < 6 {
		t.Fatalf("%d κ kernels; the comparison says little", len(cs))
	}
	return cs, nQs
}

// evalPrev is kappaKernel.eval on the sums with n and the old finish.
func (c kappaCase) evalPrev(bc *blockCounts, out [][]float64, sc *scratch) {
	w := c.prev.stride * c.prev.pairs
	c.k.finishPrev(c.prev, c.prev.accumulateRows(bc, len(out), sc.floats(2, w*len(out))), out)
}

// The κ replicates from the sums without n equal, bit for bit, those of the
// sums with n and the old finish, on blocks of 1, 5 and repBlock
// replicates; withN rebuilds the layout the packer had (checked against
// packCellsOld by TestCellPackerEqualsOld through withoutN).
func TestKappaEqualsPrev(t *testing.T) {
	cs, nQ := kappaCases(t, 300)
	for _, nb := range []int{1, 5, repBlock} {
		bc := blockOf(nQ, nb, uint64(nb))
		for _, c := range cs {
			got, want := newOut(nb, 2), newOut(nb, 2)
			for _, o := range append(got, want...) {
				o[0], o[1] = math.NaN(), math.NaN()
			}
			c.k.eval(bc, got, &scratch{})
			c.evalPrev(bc, want, &scratch{})
			finite := 0
			for b := range want {
				for i := range want[b] {
					g, w := got[b][i], want[b][i]
					if math.Float64bits(g) != math.Float64bits(w) {
						t.Fatalf("%s block %d replicate %d output %d: got %v, prev %v", c.name, nb, b, i, g, w)
					}
					if !math.IsNaN(w) {
						finite++
					}
				}
			}
			if finite < nb {
				t.Errorf("%s block %d: %d finite values; the comparison says little", c.name, nb, finite)
			}
		}
	}
}

// withN gives back the sums packCellsOld built, n included.
func TestWithNEqualsOld(t *testing.T) {
	s := sampleStudy(200, 7)
	b := newBuilder(s, computeMain(s), s.MainRound)
	d := b.collect(population{name: "humans"}, 0, func(g *scores.Grading, _ int) float64 { return g.Rubric[0] })
	rows, _ := kappaRows(d, labelsOf([]int{1, 2, 3, 4, 5}, 1), true)
	got := withN(rows[0].grp.k.(*kappaKernel).pk, 5)
	start, slot, val, _ := packCellsOld(d, 5, 1)
	if !slices.Equal(got.start, start) || !slices.Equal(got.slot, slot) || !slices.Equal(got.val, val) {
		t.Errorf("withN: %d entries, packCellsOld %d (or they differ)", len(got.slot), len(slot))
	}
}

// BenchmarkKappa evaluates every κ kernel of kappaCases on one block of
// repBlock replicates with the sums with n and the old finish (prev) and
// without n (new), on the same data in one run, EUROEXEC_BENCH_QUESTIONS
// questions (default 20,000).
func BenchmarkKappa(b *testing.B) {
	nQ := 20000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		nQ = v
	}
	cs, nQ := kappaCases(b, nQ)
	bc := blockOf(nQ, repBlock, 1)
	for _, prev := range []bool{true, false} {
		name := "new"
		if prev {
			name = "prev"
		}
		b.Run(name, func(b *testing.B) {
			sc, out := &scratch{}, newOut(repBlock, 2)
			c0 := cpuSeconds()
			for b.Loop() {
				for _, c := range cs {
					if prev {
						c.evalPrev(bc, out, sc)
					} else {
						c.k.eval(bc, out, sc)
					}
				}
			}
			b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
		})
	}
}

// BenchmarkKappaLayouts measures κ's replicate sums of every κ kernel of
// sampleStudy (EUROEXEC_BENCH_QUESTIONS, default 20,000) on one block of
// repBlock replicates: slot-major with addCounts (AVX2 where there is
// one), the same in Go, and the replicate-major kernel before them
// (accumulateRows), in one run.
func BenchmarkKappaLayouts(b *testing.B) {
	nQ := 20000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		nQ = v
	}
	cs, nQ := kappaCases(b, nQ)
	bc := blockOf(nQ, repBlock, 1)
	sc := &scratch{}
	for _, mode := range []string{"rows", "slots-go", "slots"} {
		b.Run(mode, func(b *testing.B) {
			defer func(v bool) { useAVX2 = v }(useAVX2)
			useAVX2 = useAVX2 && mode == "slots"
			for b.Loop() {
				for _, c := range cs {
					pk := c.k.pk
					acc := sc.floats(2, pk.stride*pk.pairs*repBlock)
					if mode == "rows" {
						pk.accumulateRows(bc, repBlock, acc)
					} else {
						pk.accumulate(bc, repBlock, acc)
					}
				}
			}
		})
	}
}
