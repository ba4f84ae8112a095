package compare

import (
	"context"
	"math"

	"github.com/euroexec/euroexec/internal/workers"
	"github.com/euroexec/euroexec/metrics/stats"
)

// pairBoot is the paired cluster bootstrap of one grader population over
// two runs: each replicate resamples, with replacement, the questions both
// runs share (the same draws for both runs) and, separately, the questions
// of each run alone; unpaired when nothing is shared.
type pairBoot struct {
	a, b         *pop
	nMA, nMB     int
	shared       [][2]int // (position in a.qIDs, position in b.qIDs)
	onlyA, onlyB []int
	mA, mB       []int // per compared model: index in run a / b, −1 absent
	reps         [][]float64
	nU           int
}

// out layout of a replicate row: ((u·5 + k)·2 + side), side 0 = old, 1 = new.
func outIdx(u, k, side int) int { return (u*len(Metrics)+k)*2 + side }

// block is the number of replicates a worker accumulates together: each
// question's accumulators are read once per block instead of once per
// replicate, which keeps large studies from being memory-bound.
const block = 16

// run fills reps with B replicates; replicate r uses stats.NewRand(seed, r)
// and draws the shared questions first, then OLD's own, then NEW's own.
// Sums run over questions in ascending order, so the result does not depend
// on the blocking or the number of cores.
func (pb *pairBoot) run(ctx context.Context, B int, seed uint64) error {
	nOut := pb.nU * len(Metrics) * 2
	pb.reps = make([][]float64, B)
	backing := make([]float64, B*nOut)
	for r := range pb.reps {
		pb.reps[r] = backing[r*nOut : (r+1)*nOut : (r+1)*nOut]
	}
	side := func(p *pop, nM int) (w [][]int32, s [][]float64) {
		if p == nil {
			return nil, nil
		}
		w, s = make([][]int32, block), make([][]float64, block)
		for j := range w {
			w[j] = make([]int32, len(p.qIDs))
			s[j] = make([]float64, nM*acLen)
		}
		return w, s
	}
	nBlocks := (B + block - 1) / block
	return workers.Run(ctx, nBlocks, func() func(int) error {
		wA, sA := side(pb.a, pb.nMA)
		wB, sB := side(pb.b, pb.nMB)
		return func(k int) error {
			b0 := k * block
			nb := min(block, B-b0)
			for j := 0; j < nb; j++ {
				if wA != nil {
					clear(wA[j])
				}
				if wB != nil {
					clear(wB[j])
				}
				rng := stats.NewRand(seed, b0+j)
				for range pb.shared {
					s := pb.shared[rng.IntN(len(pb.shared))]
					wA[j][s[0]]++
					wB[j][s[1]]++
				}
				for range pb.onlyA {
					wA[j][pb.onlyA[rng.IntN(len(pb.onlyA))]]++
				}
				for range pb.onlyB {
					wB[j][pb.onlyB[rng.IntN(len(pb.onlyB))]]++
				}
			}
			if pb.a != nil {
				weighted(pb.a.acc, wA[:nb], pb.nMA, sA[:nb])
			}
			if pb.b != nil {
				weighted(pb.b.acc, wB[:nb], pb.nMB, sB[:nb])
			}
			for j := 0; j < nb; j++ {
				row := pb.reps[b0+j]
				for u := 0; u < pb.nU; u++ {
					va, vb := nanValues(), nanValues()
					if m := pb.mA[u]; m >= 0 {
						va = values(sA[j][m*acLen : (m+1)*acLen])
					}
					if m := pb.mB[u]; m >= 0 {
						vb = values(sB[j][m*acLen : (m+1)*acLen])
					}
					for k := range Metrics {
						row[outIdx(u, k, 0)] = va[k]
						row[outIdx(u, k, 1)] = vb[k]
					}
				}
			}
			return nil
		}
	})
}

// weighted sums, for every replicate j of a block, the accumulators of every
// question times its draw count w[j][q] into s[j] (per model × acLen),
// questions in ascending order. The product is rounded before the sum (no
// fused multiply-add), so results are the same on every platform.
func weighted(acc []float64, w [][]int32, nM int, s [][]float64) {
	for j := range s {
		clear(s[j])
	}
	stride := nM * acLen
	nQ := len(acc) / max(stride, 1)
	for q := 0; q < nQ; q++ {
		row := acc[q*stride : (q+1)*stride]
		for j := range w {
			n := w[j][q]
			if n == 0 {
				continue
			}
			f := float64(n)
			sj := s[j][:len(row)]
			for i, x := range row {
				sj[i] += float64(f * x)
			}
		}
	}
}

// values turns one model's summed accumulators into the five metrics.
func values(s []float64) [5]float64 {
	r := func(n, d float64) float64 {
		if d == 0 {
			return math.NaN()
		}
		return n / d
	}
	return [5]float64{r(s[acSolved], s[acSolvedN]), r(s[acRubSum], s[acRubN]), r(s[acChkSum], s[acChkN]),
		r(s[acRankSum], s[acRankedN]), r(s[acWins], s[acRankedN])}
}

func nanValues() [5]float64 {
	n := math.NaN()
	return [5]float64{n, n, n, n, n}
}

// column extracts f(row) of every replicate, leaving out NaN.
func column(reps [][]float64, f func(row []float64) float64) []float64 {
	out := make([]float64, 0, len(reps))
	for _, row := range reps {
		if v := f(row); !math.IsNaN(v) {
			out = append(out, v)
		}
	}
	return out
}

// interval is the 95 % percentile interval and the standard deviation of
// the finite replicate values x; NaN when there are none.
func interval(x []float64) (lo, hi, se float64) {
	if len(x) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	p := stats.Percentiles(x, []float64{2.5, 97.5})
	return p[0], p[1], sd(x)
}

// sd is the standard deviation (divisor n − 1; 0 for one value).
func sd(x []float64) float64 {
	if len(x) < 2 {
		return 0
	}
	var s float64
	for _, v := range x {
		s += v
	}
	mean := s / float64(len(x))
	var ss float64
	for _, v := range x {
		d := v - mean
		ss += float64(d * d)
	}
	return math.Sqrt(ss / float64(len(x)-1))
}
