package paper

import (
	"context"
	"math"
	"slices"
	"sync"

	"github.com/euroexec/euroexec/internal/workers"
)

// frac divides two counts once; NaN when the denominator is 0.
func frac(num, den int64) float64 {
	if den == 0 {
		return math.NaN()
	}
	return float64(num) / float64(den)
}

// parallelFor runs body(i) for i in [0,n) on up to GOMAXPROCS goroutines.
// Each body writes only its own slot, so results do not depend on the
// number of cores.
func parallelFor(n int, body func(i int)) {
	_ = workers.Each(context.Background(), n, func(i int) error { body(i); return nil })
}

// mixSeed derives an independent seed from the study seed and a stream
// tag (splitmix64 finaliser), so the draws of different analyses do not
// share streams.
func mixSeed(seed uint64, tag uint64) uint64 {
	z := seed + 0x9E3779B97F4A7C15*(tag+1)
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// nanIfEmpty returns NaN for n == 0 and sum/n otherwise.
func meanOf(sum float64, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

func sortInts(x []int) { slices.Sort(x) }

// sumRows adds the rows idx of a row-major matrix of the given width into
// s (len(s) == width), a row drawn m times counting m times. Large draws
// are first turned into per-row counts so that the matrix is read once, in
// order; the result depends only on idx, never on scheduling.
func sumRows(acc []float64, width int, idx []int, s []float64) {
	s = s[:width]
	for j := range s {
		s[j] = 0
	}
	nRows := len(acc) / max(width, 1)
	if len(idx) < sumRowsMin || width < 4 {
		for _, c := range idx {
			row := acc[c*width : c*width+width : c*width+width]
			s := s[:len(row)]
			for j := range row {
				s[j] += row[j]
			}
		}
		return
	}
	cp := countPool.Get().(*[]int32)
	cnt := *cp
	if cap(cnt) < nRows {
		cnt = make([]int32, nRows)
	}
	cnt = cnt[:nRows]
	for _, c := range idx {
		cnt[c]++
	}
	for c, m := range cnt {
		if m == 0 {
			continue
		}
		cnt[c] = 0
		row := acc[c*width : c*width+width : c*width+width]
		s := s[:len(row)]
		if m == 1 {
			for j := range row {
				s[j] += row[j]
			}
			continue
		}
		w := float64(m)
		for j := range row {
			s[j] += float64(w * row[j])
		}
	}
	*cp = cnt
	countPool.Put(cp)
}

// countPool recycles the per-row count buffers of sumRows.
var countPool = sync.Pool{New: func() any { return new([]int32) }}
