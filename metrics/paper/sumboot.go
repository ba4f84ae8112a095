package paper

import (
	"math"
	"math/bits"
	"sync"

	"github.com/euroexec/euroexec/metrics/stats"
)

// sumRowsMin is the number of clusters from which sumRows and bootstrapSums
// add rows in cluster order (a row drawn m times counting m·row); below it,
// and for widths under 4, sumRows adds the drawn rows in draw order, and
// bootstrapSums keeps that path so that its replicates stay bit-identical.
const sumRowsMin = 256

// bootstrapSums is the cluster bootstrap of a statistic that depends on a
// resample only through the sums of per-question rows: acc is a row-major
// nClusters × width matrix of per-question sufficient statistics (counts,
// sums of scores), and newFinish returns, once per worker, a function that
// turns the summed row s (length width) of one replicate into its nOut
// outputs o (prefilled with NaN). The finish function may keep scratch space
// between calls; it must not keep s.
//
// Replicate r draws exactly what a.bootstrap draws and its sums are the
// same floating-point operations in the same order as sumRows on the drawn
// indices, so the matrix equals a.bootstrap(nClusters, nOut, stat) with
// stat = sumRows then finish, bit for bit, for any number of cores. For
// nClusters ≥ sumRowsMin and width ≥ 4 it runs stats.ClusterBootstrapCounts
// on packedRows (integer columns summed exactly, several to a word; all-zero
// rows skipped); nothing is allocated per replicate. (Blocks of replicates
// over stats.ClusterBootstrapCountBlocks were measured too: their scattered
// count writes cost more than the shared pass over the rows saves.) A
// matrix with a cell that is not finite (never built by the analyses) takes
// the path of small draws, which adds only the drawn rows. nil when there
// is nothing to resample.
func (a *run) bootstrapSums(acc []float64, width, nOut int, newFinish func() func(s, o []float64)) [][]float64 {
	if width < 1 {
		return nil
	}
	nC := len(acc) / width
	if a.opt.Bootstrap <= 0 || nC == 0 || nOut == 0 || a.ctx.Err() != nil {
		return nil
	}
	if nC < sumRowsMin || width < 4 || !allFinite(acc) {
		type scratch struct {
			s   []float64
			fin func(s, o []float64)
		}
		pool := sync.Pool{New: func() any { return &scratch{make([]float64, width), newFinish()} }}
		return a.bootstrap(nC, nOut, func(idx []int, o []float64) {
			sc := pool.Get().(*scratch)
			sumRows(acc, width, idx, sc.s)
			sc.fin(sc.s, o)
			pool.Put(sc)
		})
	}
	pr := newPackedRows(acc, width)
	reps, _ := stats.ClusterBootstrapCounts(a.ctx, nC, a.opt.Bootstrap, a.opt.Seed, nOut,
		func() stats.CountStat {
			fin := newFinish()
			rs := &repSums{f: make([]float64, len(pr.fcols)), w: make([]uint64, pr.nw)}
			s := make([]float64, width)
			return func(cnt []int32, out []float64) {
				pr.addWeighted(cnt, rs)
				pr.unpack(rs, s)
				fin(s, out)
			}
		})
	return reps
}

// packedRows is a per-question sum matrix laid out for the replicate loop.
// The columns whose cells are all small non-negative integers are packed
// several to a uint64 word: a field gets as many bits as its largest
// possible replicate sum (nClusters × the column's largest cell) needs, so a
// replicate's weighted sum of packed words never carries from one field into
// the next and each field is the column's exact integer sum — which is what
// the float64 sum of integers below 2⁵³ is, in any order. The other columns
// are kept as floats, summed in cluster order as sumRows does. Rows with no
// non-zero cell are skipped (adding zeros changes no sum: a sum starts at +0
// and never becomes −0).
type packedRows struct {
	width int
	fcols []int32   // the float columns, ascending
	fval  []float64 // row c's float cells: fval[c·len(fcols):]
	nw    int       // packed words per row
	wval  []uint64  // row c's words: wval[c·nw:]
	ffld  []field   // the packed columns
	live  []int32   // rows with a non-zero cell, ascending
}

// field is one packed column: bits [shift, shift+bits) of word word.
type field struct {
	col, word int32
	shift     uint8
	mask      uint64
}

// packedMaxCell is the largest cell value a packed column may hold.
const packedMaxCell = 1 << 20

func newPackedRows(acc []float64, width int) *packedRows {
	nC := len(acc) / width
	pr := &packedRows{width: width}
	maxv := make([]float64, width)
	isInt := make([]bool, width)
	for j := range isInt {
		isInt[j] = true
	}
	for c := range nC {
		row := acc[c*width : (c+1)*width]
		for j, x := range row {
			if !(x >= 0 && x <= packedMaxCell && x == math.Trunc(x)) {
				isInt[j] = false
			}
			maxv[j] = max(maxv[j], x)
		}
	}
	used := 64 // bits used in the current word; 64 opens a new word
	for j := range width {
		if !isInt[j] {
			pr.fcols = append(pr.fcols, int32(j))
			continue
		}
		nb := bits.Len64(uint64(maxv[j]) * uint64(nC))
		if nb == 0 {
			continue // an all-zero column: its sum is 0
		}
		if nb > 53 {
			// float64 sums of integers are exact only below 2⁵³
			pr.fcols = append(pr.fcols, int32(j))
			continue
		}
		if used+nb > 64 {
			pr.nw++
			used = 0
		}
		pr.ffld = append(pr.ffld, field{col: int32(j), word: int32(pr.nw - 1), shift: uint8(used), mask: 1<<nb - 1})
		used += nb
	}
	nF := len(pr.fcols)
	pr.fval = make([]float64, 0, nC*nF)
	pr.wval = make([]uint64, nC*pr.nw)
	for c := range nC {
		row := acc[c*width : (c+1)*width]
		live := false
		for _, j := range pr.fcols {
			pr.fval = append(pr.fval, row[j])
			live = live || row[j] != 0
		}
		for _, f := range pr.ffld {
			if v := uint64(row[f.col]); v != 0 {
				pr.wval[c*pr.nw+int(f.word)] |= v << f.shift
				live = true
			}
		}
		if live {
			pr.live = append(pr.live, int32(c))
		}
	}
	return pr
}

// repSums is the scratch of one worker: the float sums and the packed sums
// of a replicate.
type repSums struct {
	f []float64
	w []uint64
}

// addWeighted sums the rows weighted by their draw counts cnt[c]: the float
// cells into rs.f as s += float64(m·x) row by row in cluster order
// (sumRows's operations), the packed words into rs.w as exact integers.
// It has no branch on m, which is unpredictable (a third of the rows are
// not drawn, a third once): a row drawn m = 1 times adds 1·x = x, as
// sumRows does, and a row not drawn adds 0·x = ±0, which leaves every sum
// as it is, since the float cells are finite (bootstrapSums sees to it)
// and a sum that starts at +0 never becomes −0.
func (pr *packedRows) addWeighted(cnt []int32, rs *repSums) {
	nF, nw := len(pr.fcols), pr.nw
	s := rs.f[:nF]
	w := rs.w[:nw]
	clear(s)
	clear(w)
	for _, c32 := range pr.live {
		c := int(c32)
		m := cnt[c]
		row := pr.fval[c*nF : (c+1)*nF : (c+1)*nF]
		s := s[:len(row)]
		f := float64(m)
		for j, x := range row {
			s[j] += float64(f * x)
		}
		wr := pr.wval[c*nw : (c+1)*nw : (c+1)*nw]
		w := w[:len(wr)]
		um := uint64(m)
		for k, x := range wr {
			w[k] += um * x
		}
	}
}

// unpack writes a replicate's sums into s (length width, all columns).
func (pr *packedRows) unpack(rs *repSums, s []float64) {
	clear(s)
	for k, j := range pr.fcols {
		s[j] = rs.f[k]
	}
	w := rs.w
	for _, f := range pr.ffld {
		s[f.col] = float64(w[f.word] >> f.shift & f.mask)
	}
}

// pairRatioFinish is the finish function of a bootstrap over (count, sum)
// pairs: output j is s[2j+1] / s[2j], NaN for a zero count.
func pairRatioFinish() func(s, o []float64) {
	return func(s, o []float64) {
		for j := range o {
			o[j] = ratioF(s[2*j+1], s[2*j])
		}
	}
}

// allFinite reports whether no cell of acc is ±Inf or NaN.
func allFinite(acc []float64) bool {
	for _, x := range acc {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return false
		}
	}
	return true
}
