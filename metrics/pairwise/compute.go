package pairwise

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mathext"

	"github.com/euroexec/euroexec/metrics/stats"
)

// layout places each statistic in a bootstrap replicate's row.
type layout struct {
	present [][]int32    // per population: model indices with data, ascending
	pairs   [][][2]int32 // per population: model pairs (lo < hi) that met
	pairOf  []int        // per population: offset of its pair win rates
	popOff  []int        // per population: offset of its block
	pairOff int          // offset of the agreement block
	n       int
}

// per population block: win rate ×k, rating ×k, rank ×k, then the five
// shares below.
const (
	sPos = iota
	sSwapSame
	sSwapConflict
	sLen
	sRub
	nShares
)

// per agreement pair: five statistics.
const (
	aAgree = iota
	aKappa
	aF1
	aPrec
	aRec
	nAgree
)

func newLayout(p *prepared) *layout {
	l := &layout{}
	m := int32(len(p.models))
	for _, pp := range p.pops {
		seen := make([]bool, m)
		for _, c := range pp.cells {
			pair := c / 3
			seen[pair/m], seen[pair%m] = true, true
		}
		var pres []int32
		for i, ok := range seen {
			if ok {
				pres = append(pres, int32(i))
			}
		}
		l.present = append(l.present, pres)
		l.popOff = append(l.popOff, l.n)
		l.n += 3*len(pres) + nShares
		var prs [][2]int32
		for _, c := range pp.cells {
			pair := c / 3
			prs = append(prs, [2]int32{pair / m, pair % m})
		}
		slices.SortFunc(prs, func(x, y [2]int32) int {
			if x[0] != y[0] {
				return int(x[0] - y[0])
			}
			return int(x[1] - y[1])
		})
		prs = slices.Compact(prs)
		l.pairs = append(l.pairs, prs)
		l.pairOf = append(l.pairOf, l.n)
		l.n += len(prs)
	}
	l.pairOff = l.n
	l.n += nAgree * len(p.pairs)
	return l
}

// scratch is one goroutine's work space.
type scratch struct {
	acc  []int64
	w    []float64
	loc  []int32
	bt   btScratch
	rate []float64
	init []float64
}

// popCounts are a population's weighted counts: acc[(lo·m+hi)·3+v].
func (p *prepared) accumulate(pp *population, wt []int32, acc []int64) {
	for i := range acc {
		acc[i] = 0
	}
	for q, w := range wt {
		if w == 0 {
			continue
		}
		w64 := int64(w)
		for e := pp.qStart[q]; e < pp.qStart[q+1]; e++ {
			acc[pp.cells[e]] += w64 * int64(pp.counts[e])
		}
	}
}

// evaluate fills out (laid out by l) from the questions weighted by wt (how
// often each was drawn; all 1 for the point estimates). prior is the
// Bradley–Terry prior. It returns, per population, whether the fit was
// regularised.
//
// warm, when not nil, holds per population the point estimates' strengths
// by present-model position, the starting point of each replicate's fit.
func (p *prepared) evaluate(l *layout, wt []int32, out []float64, s *scratch, prior float64, warm [][]float64) []bool {
	m := len(p.models)
	if len(s.acc) < m*m*3 {
		s.acc = make([]int64, m*m*3)
		s.loc = make([]int32, m)
	}
	reg := make([]bool, len(p.pops))
	for pi, pp := range p.pops {
		pres := l.present[pi]
		k := len(pres)
		base := l.popOff[pi]
		p.accumulate(pp, wt, s.acc)
		// Active models: present with at least one weighted judgment.
		nAll := make([]int64, k)
		score2 := make([]int64, k) // 2·wins + ties
		for i := range s.loc {
			s.loc[i] = -1
		}
		for li, g := range pres {
			s.loc[g] = int32(li)
		}
		for a := 0; a < k; a++ {
			for b := a + 1; b < k; b++ {
				c := (int(pres[a])*m + int(pres[b])) * 3
				wa, t, wb := s.acc[c], s.acc[c+1], s.acc[c+2]
				n := wa + t + wb
				nAll[a] += n
				nAll[b] += n
				score2[a] += 2*wa + t
				score2[b] += 2*wb + t
			}
		}
		var act []int
		for a := 0; a < k; a++ {
			if nAll[a] > 0 {
				act = append(act, a)
				out[base+a] = float64(score2[a]) / float64(2*nAll[a])
			}
		}
		ka := len(act)
		s.w = grow(s.w, ka*ka)
		for i := range s.w[:ka*ka] {
			s.w[i] = 0
		}
		for i, a := range act {
			for j := i + 1; j < ka; j++ {
				b := act[j]
				c := (int(pres[a])*m + int(pres[b])) * 3
				wa, t, wb := float64(s.acc[c]), float64(s.acc[c+1]), float64(s.acc[c+2])
				s.w[i*ka+j] = wa + t/2
				s.w[j*ka+i] = wb + t/2
			}
		}
		if ka > 0 {
			var init []float64
			if warm != nil {
				s.init = grow(s.init, ka)
				for i, a := range act {
					s.init[i] = warm[pi][a]
				}
				init = s.init
			}
			f := s.bt.fit(s.w, ka, prior, init)
			reg[pi] = f.Regularised
			s.rate = grow(s.rate, ka)
			for i, a := range act {
				r := Rating(f.Beta[i])
				s.rate[i] = r
				out[base+k+a] = r
			}
			for i, a := range act {
				rank := 1
				for j := range act {
					if s.rate[j] > s.rate[i] {
						rank++
					}
				}
				out[base+2*k+a] = float64(rank)
			}
		}
		for i, pr := range l.pairs[pi] {
			c := (int(pr[0])*m + int(pr[1])) * 3
			wa, t, wb := s.acc[c], s.acc[c+1], s.acc[c+2]
			if n := wa + t + wb; n > 0 {
				out[l.pairOf[pi]+i] = float64(2*wa+t) / float64(2*n)
			}
		}
		sh := base + 3*k
		var sums [10]int64
		for _, st := range pp.qs {
			w := int64(wt[st.q])
			if w == 0 {
				continue
			}
			for i, c := range st.c {
				sums[i] += w * int64(c)
			}
		}
		ratio := func(i int) float64 {
			if sums[i+1] == 0 {
				return math.NaN()
			}
			return float64(sums[i]) / float64(sums[i+1])
		}
		out[sh+sPos] = ratio(0)
		if pp.swap {
			out[sh+sSwapSame] = ratio(2)
			out[sh+sSwapConflict] = ratio(4)
		}
		if pp.hasLen {
			out[sh+sLen] = ratio(6)
		}
		if pp.hasRub {
			out[sh+sRub] = ratio(8)
		}
	}
	for i, ap := range p.pairs {
		var conf [9]int64
		for e, q := range ap.q {
			c := int64(wt[q]) * int64(ap.counts[e])
			conf[ap.cell[e]] += c
			conf[8-ap.cell[e]] += c // the same verdicts with the pair's order swapped
		}
		st := agreementStats(conf)
		copy(out[l.pairOff+nAgree*i:], st[:])
	}
	return reg
}

// agreementStats returns raw agreement, Cohen's κ, macro F1, macro
// precision and macro recall of a 3×3 confusion matrix conf[3·ref + other]
// (rows: the reference rater, sklearn's y_true / y1), as scikit-learn
// computes them from the label vectors: the labels are those observed in
// either rater (the sorted union), κ = 1 − Σ w·O / Σ w·E with
// E[i][j] = col_i·row_j/N summed pairwise in row-major order, per-label
// precision and recall 0 when undefined, F1 = (2p)·r/(p + r) (0 when
// p + r = 0), and macro means as numpy's mean. All NaN when conf is empty.
func agreementStats(conf [9]int64) [nAgree]float64 {
	var res [nAgree]float64
	var rows, cols [3]int64
	var N, diag int64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			c := conf[3*i+j]
			rows[i] += c
			cols[j] += c
			N += c
			if i == j {
				diag += c
			}
		}
	}
	if N == 0 {
		for i := range res {
			res[i] = math.NaN()
		}
		return res
	}
	res[aAgree] = float64(diag) / float64(N)
	var labels []int
	for i := 0; i < 3; i++ {
		if rows[i] > 0 || cols[i] > 0 {
			labels = append(labels, i)
		}
	}
	L := len(labels)
	var num int64
	terms := make([]float64, 0, L*L)
	for _, i := range labels {
		for _, j := range labels {
			var w int64
			if i != j {
				w = 1
			}
			num += w * conf[3*i+j]
			e := float64(cols[i]*rows[j]) / float64(N)
			terms = append(terms, float64(w)*e)
		}
	}
	res[aKappa] = 1 - float64(num)/stats.Sum(terms)
	f1s, ps, rs := make([]float64, L), make([]float64, L), make([]float64, L)
	for li, l := range labels {
		tp := conf[3*l+l]
		fp := cols[l] - tp
		fn := rows[l] - tp
		var prec, rec, f1 float64
		if tp+fp > 0 {
			prec = float64(tp) / float64(tp+fp)
		}
		if tp+fn > 0 {
			rec = float64(tp) / float64(tp+fn)
		}
		if d := prec + rec; d != 0 {
			f1 = float64(2*prec*rec) / d
		}
		f1s[li], ps[li], rs[li] = f1, prec, rec
	}
	res[aF1] = stats.Mean(f1s)
	res[aPrec] = stats.Mean(ps)
	res[aRec] = stats.Mean(rs)
	return res
}

// binomTwoSided is the exact two-sided binomial test p-value of k
// successes in n trials with p = ½ (scipy.stats.binomtest): exact with big
// integers up to n = 5000, via the regularised incomplete beta above.
func binomTwoSided(k, n int64) float64 {
	if n <= 0 {
		return math.NaN()
	}
	s := min(k, n-k)
	if n <= 5000 {
		return stats.McNemar([2][2]int{{0, int(s)}, {int(n - s), 0}}).ExactP
	}
	if 2*s == n {
		return 1
	}
	// P(X ≤ s) = I_{1/2}(n − s, s + 1).
	p := 2 * mathext.RegIncBeta(float64(n-s), float64(s+1), 0.5)
	return math.Min(1, p)
}

// clusteredShareP is the two-sided p-value of share = Σ k_q / Σ n_q = ½
// with questions as clusters: the one-sample t test (G − 1 degrees of
// freedom) of d_q = k_q − n_q/2 over the G questions with n_q > 0, whose
// expectation is 0 under the null whatever the dependence of the verdicts
// within a question (judge reruns, several pairs, both orders). It returns
// the larger of that p-value and the exact binomial test's, which treats
// every verdict as independent: the binomial is the better test when
// verdicts are independent and the t test is undefined when every d_q is
// equal, so the larger is the cautious choice for both. 1 when every d_q is
// 0; NaN when fewer than two questions have verdicts.
func clusteredShareP(k, n []int32) float64 {
	var d []float64
	var sk, sn int64
	for q := range n {
		if n[q] > 0 {
			d = append(d, float64(k[q])-float64(n[q])/2)
			sk += int64(k[q])
			sn += int64(n[q])
		}
	}
	if len(d) < 2 {
		return math.NaN()
	}
	pb := binomTwoSided(sk, sn)
	allZero := true
	for _, x := range d {
		allZero = allZero && x == 0
	}
	if allZero {
		return 1
	}
	pt := stats.TTest1Samp(d, 0).P
	if math.IsNaN(pt) {
		return pb
	}
	return math.Max(pt, pb)
}
