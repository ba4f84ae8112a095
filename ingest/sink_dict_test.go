package ingest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// The batcher's text setters before the dictionary columns kept their own
// memo (the oracle of TestBatcherSameRecords and BenchmarkBatcherText):
// every value went through arrow-go's AppendString, copied into a []byte.

func oldStr(t *batcher, i int, v string) {
	t.bytes += len(v)
	switch b := t.b.Field(i).(type) {
	case *array.StringBuilder:
		b.Append(v)
	case *array.BinaryDictionaryBuilder:
		b.AppendString(v)
	}
}

func oldNull(t *batcher, i int) { t.b.Field(i).AppendNull() }

func oldOptStr(t *batcher, i int, v string) {
	if v == "" {
		t.b.Field(i).AppendNull()
		return
	}
	oldStr(t, i, v)
}

// oldRecord is batcher.flush before, up to the record batch it sent.
func oldRecord(t *batcher) arrow.RecordBatch {
	rec := t.b.NewRecordBatch()
	t.n, t.bytes = 0, 0
	if !keepDictionaries {
		for _, f := range t.b.Fields() {
			if d, ok := f.(*array.BinaryDictionaryBuilder); ok {
				d.ResetFull()
			}
		}
	}
	return rec
}

// textSetters are the text setters under test: the batcher's, or the
// oracle's.
type textSetters struct {
	str, optStr func(t *batcher, i int, v string)
	null        func(t *batcher, i int)
	record      func(t *batcher) arrow.RecordBatch
}

var (
	newSetters = textSetters{
		str:    func(t *batcher, i int, v string) { t.str(i, v) },
		optStr: func(t *batcher, i int, v string) { t.optStr(i, v) },
		null:   func(t *batcher, i int) { t.null(i) },
		record: func(t *batcher) arrow.RecordBatch { return t.record() },
	}
	oldSetters = textSetters{str: oldStr, optStr: oldOptStr, null: oldNull, record: oldRecord}
)

// gradingLikeTable is a batcher shaped like gradings: dictionary columns
// with few values, with many, a plain text column and an integer.
func gradingLikeTable() *batcher {
	return (*sink)(nil).table("t", col{"evaluator", kDict}, col{"question_id", kDict}, col{"attribute", kDict},
		col{"label", kDict}, col{"comment", kStr}, col{"n", kInt})
}

// textRow is one row of gradingLikeTable; null marks a null cell.
type textRow struct {
	ev, q, attr, label, comment string
	nullQ, nullLabel            bool
}

// textRows returns n rows of seeded values: runs of repeats, values seen
// before, new values, nulls and empty strings.
func textRows(seed uint64, n int) []textRow {
	rng := rand.New(rand.NewPCG(seed, 1))
	attrs := []string{"Domain", "Localization", "Reasoning", "Communication", "Actionability"}
	rows := make([]textRow, n)
	for row := range rows {
		r := &rows[row]
		r.ev = fmt.Sprintf("expert_%02d", row/700%12)
		r.nullQ = rng.IntN(50) == 0
		r.q = fmt.Sprint(100000 + row/6)
		r.attr = attrs[row%len(attrs)]
		switch rng.IntN(4) {
		case 0:
			r.nullLabel = true
		case 1:
			r.label = "" // the empty string, a value
		default:
			r.label = string(rune('A'+rng.IntN(6))) + "é"
		}
		r.comment = strings.Repeat("x", rng.IntN(3)) + fmt.Sprint(rng.IntN(100))
		if rng.IntN(10) == 0 {
			r.comment = ""
		}
	}
	return rows
}

// fillBatches writes rows through set, cut into batches of the given
// sizes (the rows are used from the start again when they run out), and
// returns the record batches.
func fillBatches(t *batcher, set textSetters, rows []textRow, sizes []int) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	k := 0
	for _, n := range sizes {
		for ; n > 0; n-- {
			r := &rows[k%len(rows)]
			set.str(t, 0, r.ev)
			if r.nullQ {
				set.null(t, 1)
			} else {
				set.str(t, 1, r.q)
			}
			set.str(t, 2, r.attr)
			if r.nullLabel {
				set.optStr(t, 3, "")
			} else {
				set.str(t, 3, r.label)
			}
			set.optStr(t, 4, r.comment)
			t.i64(5, int64(k))
			t.n++
			k++
		}
		out = append(out, set.record(t))
	}
	return out
}

// checkSameRecords fails unless every record batch of got equals want's,
// column by column, dictionaries (values in order) and indices apart.
func checkSameRecords(t *testing.T, got, want []arrow.RecordBatch) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d record batches, want %d", len(got), len(want))
	}
	for b := range want {
		g, w := got[b], want[b]
		if g.NumRows() != w.NumRows() || g.NumCols() != w.NumCols() {
			t.Fatalf("batch %d: got %d rows × %d columns, want %d × %d", b, g.NumRows(), g.NumCols(), w.NumRows(), w.NumCols())
		}
		for c := 0; c < int(w.NumCols()); c++ {
			gc, wc := g.Column(c), w.Column(c)
			if gc.NullN() != wc.NullN() {
				t.Errorf("batch %d, column %d: got %d nulls, want %d", b, c, gc.NullN(), wc.NullN())
			}
			if gd, ok := gc.(*array.Dictionary); ok {
				wd := wc.(*array.Dictionary)
				if !array.Equal(gd.Dictionary(), wd.Dictionary()) {
					t.Errorf("batch %d, column %d: got dictionary %v, want %v", b, c, gd.Dictionary(), wd.Dictionary())
				}
				if !array.Equal(gd.Indices(), wd.Indices()) {
					t.Errorf("batch %d, column %d: got other indices than want", b, c)
				}
			}
			if !array.Equal(gc, wc) {
				t.Errorf("batch %d, column %d: got %v, want %v", b, c, gc, wc)
			}
		}
	}
}

// TestBatcherSameRecords checks that the dictionary columns' own memo and
// the plain text columns' append build the record batches the builders
// built before, batch after batch, with the dictionaries reset at every
// batch and kept.
func TestBatcherSameRecords(t *testing.T) {
	defer func(k bool) { keepDictionaries = k }(keepDictionaries)
	for _, tc := range []struct {
		name  string
		keep  bool
		sizes []int
	}{
		{"one row", false, []int{1}},
		{"short batches", false, []int{3, 7, 1, 2}},
		{"long runs", false, []int{dictRun - 1, dictRun, dictRun + 1, 5 * dictRun, 3}},
		{"kept dictionaries", true, []int{10, 2 * dictRun, 700, 1}},
		{"more rows than the values", false, []int{6000, 9000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keepDictionaries = tc.keep
			rows := textRows(7, 10000)
			want := fillBatches(gradingLikeTable(), oldSetters, rows, tc.sizes)
			got := fillBatches(gradingLikeTable(), newSetters, rows, tc.sizes)
			checkSameRecords(t, got, want)
		})
	}
}

// BenchmarkBatcherText builds the same gradings-like batches with the
// text setters before (old) and now (new), in one run; compare ns/op.
//
//	go test -tags duckdb_arrow -run X -bench BatcherText ./ingest
func BenchmarkBatcherText(b *testing.B) {
	rows := textRows(3, 40000)
	for _, s := range []struct {
		name string
		set  textSetters
	}{{"old", oldSetters}, {"new", newSetters}} {
		b.Run(s.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for _, r := range fillBatches(gradingLikeTable(), s.set, rows, []int{20000, 20000}) {
					r.Release()
				}
			}
		})
	}
}
