package compare

import "github.com/euroexec/euroexec/metrics/stats"

// metricFields are, per metric (Metrics' order), the accumulators of its
// numerator and denominator: every compared metric is a ratio mean over
// the gradings.
var metricFields = [][2]int{
	{acSolved, acSolvedN}, {acRubSum, acRubN}, {acChkSum, acChkN}, {acRankSum, acRankedN}, {acWins, acRankedN},
}

// side is one ratio mean of a contrast: model u's metric k in run 0 (old)
// or 1 (new).
type side struct{ u, k, run int }

// contrast tests Σ coef_i · mean(sides_i) = 0 with stats.RatioContrast,
// the questions as clusters: a question graded in both runs is one
// cluster holding both runs' gradings (paired), a question graded in one
// run only a cluster of that run alone. It is the same engine as run's
// pairwise model tests, so run and compare answer the same kind of
// question the same way.
func (pb *pairBoot) contrast(sides []side, coef []float64, level float64) stats.Contrast {
	var sum, n [][]float64
	add := func(qa, qb int) {
		sg, ng := make([]float64, len(sides)), make([]float64, len(sides))
		for i, sd := range sides {
			p, q, m, nM := pb.a, qa, pb.mA[sd.u], pb.nMA
			if sd.run == 1 {
				p, q, m, nM = pb.b, qb, pb.mB[sd.u], pb.nMB
			}
			if p == nil || q < 0 || m < 0 {
				continue
			}
			row := p.acc[(q*nM+m)*acLen : (q*nM+m+1)*acLen]
			f := metricFields[sd.k]
			sg[i], ng[i] = row[f[0]], row[f[1]]
		}
		sum, n = append(sum, sg), append(n, ng)
	}
	for _, s := range pb.shared {
		add(s[0], s[1])
	}
	for _, q := range pb.onlyA {
		add(q, -1)
	}
	for _, q := range pb.onlyB {
		add(-1, q)
	}
	return stats.RatioContrast(sum, n, coef, level)
}

// change tests model u's change new − old of metric k. When every
// question with a grading of u is graded in both runs, with one 0/1
// grading a side (a Solve Rate from one grader per response), the
// p-value is McNemar's mid-p test, as in run (stats.PairedClusterDiff).
func (pb *pairBoot) change(u, k int, level float64) stats.Contrast {
	r := pb.contrast([]side{{u, k, 0}, {u, k, 1}}, []float64{-1, 1}, level)
	if d, ok := pb.pairedOnly(u, k, level); ok && d.Exact {
		r.P = d.P
	}
	return r
}

// pairedOnly is stats.PairedClusterDiff of u's metric k, new as a and old
// as b, when every question graded of u in either run is graded in both;
// ok false otherwise.
func (pb *pairBoot) pairedOnly(u, k int, level float64) (stats.PairedDiff, bool) {
	ma, mb := pb.mA[u], pb.mB[u]
	if pb.a == nil || pb.b == nil || ma < 0 || mb < 0 {
		return stats.PairedDiff{}, false
	}
	f := metricFields[k]
	cell := func(p *pop, nM, q, m int) (float64, float64) {
		row := p.acc[(q*nM+m)*acLen : (q*nM+m+1)*acLen]
		return row[f[0]], row[f[1]]
	}
	for _, q := range pb.onlyA {
		if _, n := cell(pb.a, pb.nMA, q, ma); n > 0 {
			return stats.PairedDiff{}, false
		}
	}
	for _, q := range pb.onlyB {
		if _, n := cell(pb.b, pb.nMB, q, mb); n > 0 {
			return stats.PairedDiff{}, false
		}
	}
	cl := make([]stats.ClusterPair, 0, len(pb.shared))
	for _, s := range pb.shared {
		sa, na := cell(pb.b, pb.nMB, s[1], mb)
		sb, nb := cell(pb.a, pb.nMA, s[0], ma)
		if (na > 0) != (nb > 0) {
			return stats.PairedDiff{}, false
		}
		cl = append(cl, stats.ClusterPair{SumA: sa, NA: na, SumB: sb, NB: nb})
	}
	return stats.PairedClusterDiff(cl, level), true
}

// gapChange tests the change of the gap between models u and v in metric
// k: (new_u − new_v) − (old_u − old_v).
func (pb *pairBoot) gapChange(u, v, k int, level float64) stats.Contrast {
	return pb.contrast([]side{{u, k, 1}, {v, k, 1}, {u, k, 0}, {v, k, 0}}, []float64{1, -1, -1, 1}, level)
}
