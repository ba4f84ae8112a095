package analysis

import (
	"fmt"
	"math"
	"math/big"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"github.com/euroexec/euroexec/internal/crash"
	"github.com/euroexec/euroexec/report"
)

// col builds a report.Column.
func col(name string, kind report.ColumnKind, doc string) report.Column {
	return report.Column{Name: name, Kind: kind, Doc: doc}
}

// newTable builds an empty report.Table.
func newTable(name, title, section, doc string, cols ...report.Column) *report.Table {
	return &report.Table{Name: name, Title: title, Section: section, Doc: doc, Columns: cols}
}

// addRow appends one row; it panics only on a programming error (a row of
// the wrong width), never on user input.
func addRow(t *report.Table, vals ...any) {
	if len(vals) != len(t.Columns) {
		panic(fmt.Sprintf("analysis: table %s: row has %d values, want %d", t.Name, len(vals), len(t.Columns)))
	}
	t.Rows = append(t.Rows, vals)
}

// countNaN counts the float cells of t that are NaN.
func countNaN(t *report.Table) int {
	n := 0
	for _, r := range t.Rows {
		for _, v := range r {
			if f, ok := v.(float64); ok && math.IsNaN(f) {
				n++
			}
		}
	}
	return n
}

// frac divides two counts once; NaN when the denominator is 0.
func frac(num, den int64) float64 {
	if den == 0 {
		return math.NaN()
	}
	return float64(num) / float64(den)
}

// ratio is a non-negative fraction num/den with den > 0.
type ratio struct{ num, den int64 }

// decimalRatio returns x as the exact fraction of its shortest decimal
// form (0.6 → 3/5), so that thresholds compare exactly as written. ok is
// false when x is not finite or does not fit int64 comfortably.
func decimalRatio(x float64) (ratio, bool) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return ratio{}, false
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
	if !ok || !r.Num().IsInt64() || !r.Denom().IsInt64() {
		return ratio{}, false
	}
	n, d := r.Num().Int64(), r.Denom().Int64()
	if n > 1<<30 || n < -(1<<30) || d > 1<<30 {
		return ratio{}, false
	}
	return ratio{n, d}, true
}

// parallelFor runs body(i) for i in [0,n) on up to GOMAXPROCS goroutines.
// Each body writes only its own slot, so results do not depend on the
// number of cores.
func parallelFor(n int, body func(i int)) {
	w := runtime.GOMAXPROCS(0)
	if w > n {
		w = n
	}
	if w <= 1 {
		for i := 0; i < n; i++ {
			body(i)
		}
		return
	}
	var wg sync.WaitGroup
	var relay crash.Relay // a worker's panic is raised again here
	var mu sync.Mutex
	next := 0
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer relay.Catch()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				body(i)
			}
		}()
	}
	wg.Wait()
	relay.Raise()
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
