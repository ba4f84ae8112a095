package textsim

import (
	"math"
	"math/bits"
)

// The longest common subsequence is computed with the bit-parallel
// algorithm of Allison & Dix (1986) in Hyyrö's formulation (2004): the
// pattern a is held as bit masks over its positions (64 cells per machine
// word) and every symbol of b updates a whole DP column at once:
//
//	U = V & PM[b_j];  V = (V + U) | (V - U)
//
// where bit i of ^V is set iff t[i+1][j] - t[i][j] = 1, so t[i][j] is the
// number of set bits of ^V_j below bit i. V - U never borrows (U ⊆ V), so
// only the addition carries between words.

// LCS returns the length of a longest common subsequence of a and b,
// computed bit-parallel in O(len(a)·len(b)/64) time.
func LCS(a, b []int32) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	// Map symbols to dense ids so that the engine can index masks by id.
	ids := make(map[int32]int32, len(a))
	da := make([]int32, len(a))
	for i, x := range a {
		id, ok := ids[x]
		if !ok {
			id = int32(len(ids))
			ids[x] = id
		}
		da[i] = id
	}
	db := make([]int32, len(b))
	for j, x := range b {
		id, ok := ids[x]
		if !ok {
			id = -1 // absent from a: never matches
		}
		db[j] = id
	}
	var e lcsEngine
	return e.lcsLength(da, db, len(ids))
}

// LCSDP is the plain O(len(a)·len(b)) dynamic programme for the LCS length
// (rouge-score's _lcs_table, one row at a time). It is the reference
// implementation against which LCS is tested and benchmarked.
func LCSDP(a, b []int32) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	prev := make([]int32, len(b)+1)
	cur := make([]int32, len(b)+1)
	for i := 1; i <= len(a); i++ {
		ai := a[i-1]
		for j := 1; j <= len(b); j++ {
			if ai == b[j-1] {
				cur[j] = prev[j-1] + 1
			} else if prev[j] >= cur[j-1] {
				cur[j] = prev[j]
			} else {
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return int(prev[len(b)])
}

// lcsEngine holds the pattern masks and scratch buffers of the bit-parallel
// LCS. Symbols are dense non-negative ids; negative ids never match.
type lcsEngine struct {
	m, w  int      // pattern length and words per column
	slot  []int32  // id -> index of its mask in pm (0: absent)
	pm    []uint64 // masks, w words each; mask 0 is all zeros
	v     []uint64 // current column
	rows  []uint64 // stored columns for traceback (or checkpoints)
	block []uint64 // recomputed block of columns (checkpoint mode)
	mark  []uint64 // union of LCS index sets over the pattern positions
	carry []uint64 // per-column carries between blocks (lengthBlocked)
}

// maxMaskWords bounds the pattern masks (distinct symbols × words per
// column) that lcsLength builds at once (8 MiB); longer patterns are
// processed 64 positions at a time.
const maxMaskWords = 1 << 20

// lcsLength returns the LCS length of a and b (dense ids < nids; negative
// ids in b never match) with memory bounded by maxMaskWords.
func (e *lcsEngine) lcsLength(a, b []int32, nids int) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	if min(len(a), nids)*((len(a)+63)>>6) > maxMaskWords {
		return e.lengthBlocked(a, b, nids)
	}
	e.setPattern(a, nids)
	l := e.length(b)
	e.clearPattern(a)
	return l
}

// lengthBlocked computes the LCS length one 64-position block of the
// pattern at a time, over all of b, keeping between blocks only the carry
// of each column's addition (the carry into word k at column j is the
// carry out of word k-1 at column j): O(nids + len(b)/64) memory, the same
// O(len(a)·len(b)/64) time.
func (e *lcsEngine) lengthBlocked(a, b []int32, nids int) int {
	if cap(e.slot) < nids {
		e.slot = make([]int32, nids)
	}
	slot := e.slot[:cap(e.slot)]
	nw := (len(b) + 63) >> 6
	if cap(e.carry) < nw {
		e.carry = make([]uint64, nw)
	}
	carry := e.carry[:nw]
	clear(carry)
	var pm [65]uint64 // pm[0] stays zero: absent symbols
	total := 0
	for off := 0; off < len(a); off += 64 {
		blk := a[off:min(off+64, len(a))]
		k := int32(0)
		for i, x := range blk {
			s := slot[x]
			if s == 0 {
				k++
				s = k
				slot[x] = s
				pm[s] = 0
			}
			pm[s] |= 1 << uint(i)
		}
		v := ^uint64(0)
		for j, x := range b {
			var s int32
			if uint32(x) < uint32(len(slot)) {
				s = slot[x]
			}
			u := v & pm[s]
			cw, cb := j>>6, uint(j)&63
			sum, cout := bits.Add64(v, u, carry[cw]>>cb&1)
			v = sum | (v &^ u)
			carry[cw] = carry[cw]&^(1<<cb) | cout<<cb
		}
		total += len(blk) - bits.OnesCount64(v&(^uint64(0)>>uint(64-len(blk))))
		for _, x := range blk {
			slot[x] = 0
		}
	}
	return total
}

// maxRowWords bounds the memory of stored DP columns (in 64-bit words,
// 32 MiB); longer pairs are traced back from checkpoints, recomputing each
// block of columns once. A variable so that tests can exercise that path.
var maxRowWords = 1 << 22

// setPattern loads pattern a (ids < nids) into the engine.
func (e *lcsEngine) setPattern(a []int32, nids int) {
	e.m = len(a)
	e.w = (len(a) + 63) >> 6
	if cap(e.slot) < nids {
		e.slot = make([]int32, nids)
	}
	e.slot = e.slot[:cap(e.slot)]
	e.pm = e.pm[:0]
	for k := 0; k < e.w; k++ {
		e.pm = append(e.pm, 0)
	}
	for i, x := range a {
		s := e.slot[x]
		if s == 0 {
			s = int32(len(e.pm) / e.w)
			for k := 0; k < e.w; k++ {
				e.pm = append(e.pm, 0)
			}
			e.slot[x] = s
		}
		e.pm[int(s)*e.w+i>>6] |= 1 << (uint(i) & 63)
	}
}

// clearPattern resets the slots set by setPattern(a).
func (e *lcsEngine) clearPattern(a []int32) {
	for _, x := range a {
		e.slot[x] = 0
	}
}

// mask returns the pattern mask of symbol x, or nil when x is absent.
func (e *lcsEngine) mask(x int32) []uint64 {
	if x < 0 || int(x) >= len(e.slot) {
		return nil
	}
	s := e.slot[x]
	if s == 0 {
		return nil
	}
	o := int(s) * e.w
	return e.pm[o : o+e.w]
}

// resetColumn sets v to the all-ones column 0.
func (e *lcsEngine) resetColumn() {
	if cap(e.v) < e.w {
		e.v = make([]uint64, e.w)
	}
	e.v = e.v[:e.w]
	for k := range e.v {
		e.v[k] = ^uint64(0)
	}
}

// step advances column v by symbol x.
func step(v, pm []uint64) {
	if len(v) == 1 {
		x := v[0]
		u := x & pm[0]
		v[0] = (x + u) | (x - u)
		return
	}
	var carry uint64
	for k := range v {
		x := v[k]
		u := x & pm[k]
		var s uint64
		s, carry = bits.Add64(x, u, carry)
		v[k] = s | (x &^ u)
	}
}

// zeros counts the unset bits among the low m bits of v: the LCS length.
func zerosLow(v []uint64, m int) int {
	n := 0
	full := m >> 6
	for k := 0; k < full; k++ {
		n += bits.OnesCount64(^v[k])
	}
	if r := m & 63; r != 0 {
		n += bits.OnesCount64(^v[full] & (1<<uint(r) - 1))
	}
	return n
}

// length returns the LCS length of the pattern and b.
func (e *lcsEngine) length(b []int32) int {
	e.resetColumn()
	for _, x := range b {
		if pm := e.mask(x); pm != nil {
			step(e.v, pm)
		}
	}
	return zerosLow(e.v, e.m)
}

// traceUnion computes the DP between pattern a (rows i, rouge-score's "ref")
// and b (columns j, its "can"), reads one LCS back with rouge-score's
// _backtrack_norec tie-break (on equal symbols take the match; else move
// left iff t[i][j-1] > t[i-1][j], otherwise up) and sets the bits of the
// matched pattern positions in e.mark. It returns the LCS length.
func (e *lcsEngine) traceUnion(a, b []int32) int {
	n := len(b)
	w := e.w
	if n < maxRowWords/4 {
		switch w {
		case 1:
			return e.traceUnion1(a, b)
		case 2:
			return e.traceUnion2(a, b)
		}
	}
	// Store every column when they fit, else every k-th (k ≈ √n) and
	// recompute blocks of k columns during the traceback.
	all := n*w <= maxRowWords
	k := n
	if !all {
		k = int(math.Sqrt(float64(n))) + 1
	}
	e.resetColumn()
	if all {
		need := (n + 1) * w
		if cap(e.rows) < need {
			e.rows = make([]uint64, need)
		}
		e.rows = e.rows[:need]
		copy(e.rows, e.v)
	} else {
		e.rows = e.rows[:0]
		e.rows = append(e.rows, e.v...)
	}
	for j, x := range b {
		if pm := e.mask(x); pm != nil {
			step(e.v, pm)
		}
		if all {
			copy(e.rows[(j+1)*w:], e.v)
		} else if (j+1)%k == 0 {
			e.rows = append(e.rows, e.v...)
		}
	}
	l := zerosLow(e.v, e.m)
	if l == 0 {
		return 0
	}
	blockStart := -1
	col := func(j int) []uint64 {
		if all {
			return e.rows[j*w : (j+1)*w]
		}
		return e.blockCol(b, j, k, &blockStart)
	}
	// Traceback. cur = t[i][j] is invariant under the non-match moves, and
	// d = t[i][j] - t[i-1][j] is bit i-1 of ^V_j. Without a match,
	// t[i][j] = max(t[i-1][j], t[i][j-1]), so d = 0 means t[i-1][j] = cur
	// >= t[i][j-1] (rouge-score moves up), and d = 1 forces
	// t[i][j-1] = cur > t[i-1][j] (it moves left). Each step is O(1), and
	// the walk stops once no match is left (cur = 0).
	i, j, cur := len(a), n, l
	for cur > 0 {
		if a[i-1] == b[j-1] {
			e.mark[(i-1)>>6] |= 1 << (uint(i-1) & 63)
			i--
			j--
			cur--
			continue
		}
		if col(j)[(i-1)>>6]&(1<<(uint(i-1)&63)) == 0 { // d = 1
			j--
		} else {
			i--
		}
	}
	return l
}

// traceUnion1 is traceUnion for patterns of at most 64 symbols.
func (e *lcsEngine) traceUnion1(a, b []int32) int {
	n := len(b)
	if cap(e.rows) < n+1 {
		e.rows = make([]uint64, n+1)
	}
	rows := e.rows[:n+1]
	slot, pm := e.slot, e.pm
	v := ^uint64(0)
	rows[0] = v
	for j, x := range b {
		var s int32 // absent symbols use the zero mask: v stays
		if uint32(x) < uint32(len(slot)) {
			s = slot[x]
		}
		u := v & pm[s]
		v = (v + u) | (v - u)
		rows[j+1] = v
	}
	l := bits.OnesCount64(^v & (^uint64(0) >> uint(64-e.m)))
	// Traceback by runs (see traceUnion for the O(1) step this compresses):
	// in column j rouge-score moves up until d = 1 or a match, i.e. to the
	// highest position below i in ^V_j | PM[b[j-1]]; there, without a
	// match, it moves left, and keeps moving left until a match, because
	// t[i][j'] stays cur while t[i-1][j'] <= t[i-1][j] = cur-1 (d stays 1).
	i, j, cur := len(a), n, l
	for cur > 0 {
		stop := ^rows[j]
		if x := b[j-1]; uint32(x) < uint32(len(slot)) {
			stop |= pm[slot[x]]
		}
		i = bits.Len64(stop & (1<<uint(i) - 1)) // i <= 64; 1<<64 wraps to 0, -1 = all ones
		x := a[i-1]
		j--
		for b[j] != x {
			j--
		}
		e.mark[0] |= 1 << uint(i-1)
		i--
		cur--
	}
	return l
}

// traceUnion2 is traceUnion for patterns of 65 to 128 symbols.
func (e *lcsEngine) traceUnion2(a, b []int32) int {
	n := len(b)
	if cap(e.rows) < 2*(n+1) {
		e.rows = make([]uint64, 2*(n+1))
	}
	rows := e.rows[:2*(n+1)]
	slot, pm := e.slot, e.pm
	v0, v1 := ^uint64(0), ^uint64(0)
	rows[0], rows[1] = v0, v1
	for j, x := range b {
		var o int // absent symbols use the zero mask: v stays
		if uint32(x) < uint32(len(slot)) {
			o = 2 * int(slot[x])
		}
		u0 := v0 & pm[o]
		u1 := v1 & pm[o+1]
		s0, c := bits.Add64(v0, u0, 0)
		s1, _ := bits.Add64(v1, u1, c)
		v0 = s0 | (v0 &^ u0)
		v1 = s1 | (v1 &^ u1)
		rows[2*j+2], rows[2*j+3] = v0, v1
	}
	l := 64 - bits.OnesCount64(v0) + bits.OnesCount64(^v1&(^uint64(0)>>uint(128-e.m)))
	// Traceback by runs, as in traceUnion1.
	mark := e.mark[:2]
	i, j, cur := len(a), n, l
	for cur > 0 {
		s0, s1 := ^rows[2*j], ^rows[2*j+1]
		if x := b[j-1]; uint32(x) < uint32(len(slot)) {
			o := 2 * int(slot[x])
			s0 |= pm[o]
			s1 |= pm[o+1]
		}
		if i > 64 {
			s1 &= 1<<uint(i-64) - 1
		} else {
			s1 = 0
			s0 &= 1<<uint(i) - 1
		}
		if s1 != 0 {
			i = 64 + bits.Len64(s1)
		} else {
			i = bits.Len64(s0)
		}
		x := a[i-1]
		j--
		for b[j] != x {
			j--
		}
		mark[(i-1)>>6] |= 1 << (uint(i-1) & 63)
		i--
		cur--
	}
	return l
}

// blockCol returns column j in checkpoint mode, recomputing the block of
// columns [s, s+k] (s = k·floor((j-1)/k)) from its checkpoint when needed.
func (e *lcsEngine) blockCol(b []int32, j, k int, blockStart *int) []uint64 {
	w := e.w
	bi := 0
	if j > 0 {
		bi = (j - 1) / k
	}
	s := bi * k
	if *blockStart != s {
		end := s + k
		if end > len(b) {
			end = len(b)
		}
		need := (end - s + 1) * w
		if cap(e.block) < need {
			e.block = make([]uint64, need)
		}
		e.block = e.block[:need]
		copy(e.block, e.rows[bi*w:(bi+1)*w])
		cur := e.block[:w]
		for jj := s; jj < end; jj++ {
			next := e.block[(jj-s+1)*w : (jj-s+2)*w]
			copy(next, cur)
			if pm := e.mask(b[jj]); pm != nil {
				step(next, pm)
			}
			cur = next
		}
		*blockStart = s
	}
	return e.block[(j-s)*w : (j-s+1)*w]
}

// unionLCSDP is the reference for traceUnion: rouge-score's _lcs_table and
// _backtrack_norec verbatim, returning the matched positions of ref.
func unionLCSDP(ref, can []int32, mark []bool) int {
	rows, cols := len(ref), len(can)
	if rows == 0 || cols == 0 {
		return 0
	}
	t := make([]int32, (rows+1)*(cols+1))
	at := func(i, j int) int32 { return t[i*(cols+1)+j] }
	for i := 1; i <= rows; i++ {
		for j := 1; j <= cols; j++ {
			var v int32
			if ref[i-1] == can[j-1] {
				v = at(i-1, j-1) + 1
			} else {
				v = max(at(i-1, j), at(i, j-1))
			}
			t[i*(cols+1)+j] = v
		}
	}
	i, j := rows, cols
	for i > 0 && j > 0 {
		if ref[i-1] == can[j-1] {
			mark[i-1] = true
			i--
			j--
		} else if at(i, j-1) > at(i-1, j) {
			j--
		} else {
			i--
		}
	}
	return int(at(rows, cols))
}
