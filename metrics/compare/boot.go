package compare

import (
	"context"
	"math"

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

// run fills reps with B replicates from stats.ClusterBootstrapStrata over
// three strata: the shared questions (one draw serves both runs), then
// OLD's own, then NEW's own, replicate r drawing them in that order from
// its stream (seed, r). Each block's counts become per-run draw counts per
// question, and the sums run over questions in ascending order, so the
// result does not depend on the blocking or the number of cores.
func (pb *pairBoot) run(ctx context.Context, B int, seed uint64) error {
	nOut := pb.nU * len(Metrics) * 2
	nS, nA := len(pb.shared), len(pb.onlyA)
	side := func(p *pop, nM int) (w [][]int32, s [][]float64) {
		if p == nil {
			return nil, nil
		}
		w, s = make([][]int32, stats.DefaultCountBlock), make([][]float64, stats.DefaultCountBlock)
		for j := range w {
			w[j] = make([]int32, len(p.qIDs))
			s[j] = make([]float64, nM*acLen)
		}
		return w, s
	}
	reps, err := stats.ClusterBootstrapStrata(ctx, []int{nS, nA, len(pb.onlyB)}, B, seed, nOut, stats.DefaultCountBlock, func() stats.CountBlockStat {
		wA, sA := side(pb.a, pb.nMA)
		wB, sB := side(pb.b, pb.nMB)
		return func(cnt []int32, out [][]float64) {
			nb := len(out)
			for j := 0; j < nb; j++ {
				if wA != nil {
					clear(wA[j])
				}
				if wB != nil {
					clear(wB[j])
				}
				for i, s := range pb.shared {
					c := cnt[i*nb+j]
					wA[j][s[0]] += c
					wB[j][s[1]] += c
				}
				for i, q := range pb.onlyA {
					wA[j][q] += cnt[(nS+i)*nb+j]
				}
				for i, q := range pb.onlyB {
					wB[j][q] += cnt[(nS+nA+i)*nb+j]
				}
			}
			if pb.a != nil {
				weighted(pb.a.acc, wA[:nb], pb.nMA, sA[:nb])
			}
			if pb.b != nil {
				weighted(pb.b.acc, wB[:nb], pb.nMB, sB[:nb])
			}
			for j := 0; j < nb; j++ {
				row := out[j]
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
		}
	})
	if err != nil {
		return err
	}
	pb.reps = reps
	return nil
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
