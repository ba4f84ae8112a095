package ingest

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// checkAligned fails unless b starts on a 64-byte boundary.
func checkAligned(t *testing.T, what string, b []byte) {
	t.Helper()
	if cap(b) > 0 && uintptr(unsafe.Pointer(unsafe.SliceData(b)))%64 != 0 {
		t.Errorf("%s: got a buffer at %p, want one 64-byte aligned", what, unsafe.SliceData(b))
	}
}

// checkZeroed fails unless b has n bytes, all zero.
func checkZeroed(t *testing.T, what string, b []byte, n int) {
	t.Helper()
	if len(b) != n {
		t.Fatalf("%s: got %d bytes, want %d", what, len(b), n)
	}
	if i := bytes.IndexFunc(b, func(r rune) bool { return r != 0 }); i >= 0 {
		t.Errorf("%s: got byte %d = %#x, want every byte zero", what, i, b[i])
	}
}

// TestBufferPool checks that buffers come out zeroed, aligned and of the
// size asked for, new or reused, that Reallocate keeps the contents and
// zeroes what it adds, and that the pool keeps at most poolBytes.
func TestBufferPool(t *testing.T) {
	p := &bufferPool{}
	for _, n := range []int{0, 1, 63, 64, 65, 1000, 4096, 70000, 1 << 20} {
		b := p.Allocate(n)
		checkZeroed(t, fmt.Sprintf("new Allocate(%d)", n), b, n)
		checkAligned(t, fmt.Sprintf("new Allocate(%d)", n), b)
		b = b[:cap(b)] // dirty the whole buffer, past its size too
		for i := range b {
			b[i] = 0xAB
		}
		p.Free(b)
		b = p.Allocate(n)
		checkZeroed(t, fmt.Sprintf("reused Allocate(%d)", n), b, n)
		checkAligned(t, fmt.Sprintf("reused Allocate(%d)", n), b)
		for i := range b {
			b[i] = byte(i)
		}
		for _, m := range []int{n / 2, n, n + 1, 2*n + 100} {
			c := append([]byte(nil), b[:min(n, m)]...)
			r := p.Reallocate(m, b[:min(n, m)])
			if !bytes.Equal(r[:len(c)], c) {
				t.Errorf("Reallocate(%d) of %d bytes: contents changed", m, n)
			}
			checkZeroed(t, fmt.Sprintf("Reallocate(%d) of %d bytes, past the contents", m, n), r[len(c):], m-len(c))
			checkAligned(t, fmt.Sprintf("Reallocate(%d) of %d bytes", m, n), r)
			b = r[:min(n, m)]
		}
		p.Free(b)
	}
	var big [][]byte
	for i := 0; i < 2*poolBytes/(1<<20); i++ {
		big = append(big, p.Allocate(1<<20))
	}
	for _, b := range big {
		p.Free(b)
	}
	if p.bytes > poolBytes {
		t.Errorf("the pool holds %d bytes, want at most %d", p.bytes, poolBytes)
	}
	if p.release(); p.bytes != 0 || len(p.free[20]) != 0 {
		t.Errorf("after release the pool holds %d bytes, %d buffers of 1 MiB; want none", p.bytes, len(p.free[20]))
	}
	for _, b := range big {
		p.Free(b)
	}
	p.Free(make([]byte, 100)) // not the pool's: dropped
	p.Free(make([]byte, 10, 32))
	for c, l := range p.free {
		for _, b := range l {
			if cap(b) != 1<<c {
				t.Errorf("size class %d holds a buffer of %d bytes", c, cap(b))
			}
		}
	}
}

// TestBufferPoolConcurrent allocates and frees from several goroutines
// (the reader and the loaders); run with -race.
func TestBufferPoolConcurrent(t *testing.T) {
	p := &bufferPool{}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				b := p.Allocate(100 + i%3000)
				b[0] = byte(g)
				p.Free(p.Reallocate(5000, b))
			}
		}()
	}
	wg.Wait()
}

// poolTable is gradingLikeTable on a sink's pool, or on arrow-go's Go
// allocator (as before the pool) when pool is false.
func poolTable(pool bool) *batcher {
	if !pool {
		return gradingLikeTable()
	}
	s := &sink{alloc: &bufferPool{}}
	return s.table("t", col{"evaluator", kDict}, col{"question_id", kDict}, col{"attribute", kDict},
		col{"label", kDict}, col{"comment", kStr}, col{"n", kInt})
}

// checkSameBuffers fails unless the record batches hold the same bytes in
// every buffer of every column (nulls' slots included).
func checkSameBuffers(t *testing.T, got, want []arrow.RecordBatch) {
	t.Helper()
	checkSameRecords(t, got, want)
	for b := range want {
		for c := 0; c < int(want[b].NumCols()); c++ {
			gd, wd := got[b].Column(c).Data(), want[b].Column(c).Data()
			for k, wb := range wd.Buffers() {
				gb := gd.Buffers()[k]
				if (gb == nil) != (wb == nil) || (wb != nil && !bytes.Equal(gb.Bytes(), wb.Bytes())) {
					t.Errorf("batch %d, column %d, buffer %d: got other bytes than want", b, c, k)
				}
			}
		}
	}
}

// TestPooledBatchesSame builds batches on the pool, releasing each batch
// before the next as the loaders do (so that the next reuses its
// buffers), and checks them byte for byte against batches built on the
// Go allocator.
func TestPooledBatchesSame(t *testing.T) {
	rows := textRows(11, 20000)
	pt := poolTable(true)
	for i, n := range []int{5000, 7000, 3, 20000, 9000} {
		rs := rows[i*100:]
		want := fillBatches(poolTable(false), newSetters, rs, []int{n})
		got := fillBatches(pt, newSetters, rs, []int{n})
		checkSameBuffers(t, got, want)
		got[0].Release()
	}
	if pt.s.alloc.bytes == 0 {
		t.Error("no buffer came back to the pool")
	}
}

// BenchmarkBatchAllocator builds and releases gradings-like batches on
// arrow-go's Go allocator (old) and on the pool (new), in one run.
//
//	go test -tags duckdb_arrow -run X -bench BatchAllocator ./ingest
func BenchmarkBatchAllocator(b *testing.B) {
	rows := textRows(3, 60000)
	for _, s := range []struct {
		name string
		pool bool
	}{{"old", false}, {"new", true}} {
		b.Run(s.name, func(b *testing.B) {
			t := poolTable(s.pool)
			for i := 0; i < b.N; i++ {
				for _, r := range fillBatches(t, newSetters, rows, []int{60000}) {
					r.Release()
				}
			}
		})
	}
}

var _ memory.Allocator = &bufferPool{}
