package ingest

import (
	"math/bits"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// bufferPool is the Arrow allocator of a load: it keeps the buffers of the
// record batches DuckDB has inserted (freed when a batch is released) and
// hands them out again to the next batches, instead of allocating every
// buffer anew from the Go heap. A builder's buffers grow by doubling and a
// batch is thrown away once inserted: with arrow-go's Go allocator every
// batch of every table allocated, zeroed and faulted in its buffers again
// (at 40,000 questions ~1.5 CPU-s of the reader's and more of the
// kernel's), and left them to the garbage collector.
//
// Buffers are kept by size class (powers of two from 64 bytes); a buffer
// handed out is zeroed up to the size asked for, as the Go allocator's
// are, so that the batches hold the same bytes. At most poolBytes wait
// in the pool; beyond that a freed buffer is left to the garbage
// collector. The pool is safe for concurrent use (the loaders free the
// batches they inserted).
type bufferPool struct {
	mu    sync.Mutex
	free  [bits.UintSize][][]byte // by size class: cap 1<<class
	bytes int                     // held in free
}

// poolBytes caps the bytes of the buffers a bufferPool keeps.
const poolBytes = 128 << 20

// minClass is the smallest size class: 64 bytes, the alignment Arrow asks
// for (a power-of-two size class of the Go heap is aligned to its size up
// to 8 KiB, and to the page beyond).
const minClass = 6

var _ memory.Allocator = (*bufferPool)(nil)

// class returns the size class of a buffer of size bytes.
func class(size int) int {
	if size <= 1<<minClass {
		return minClass
	}
	return bits.Len(uint(size - 1))
}

// Allocate returns a zeroed buffer of size bytes, 64-byte aligned.
func (p *bufferPool) Allocate(size int) []byte {
	c := class(size)
	p.mu.Lock()
	if n := len(p.free[c]); n > 0 {
		b := p.free[c][n-1]
		p.free[c][n-1] = nil
		p.free[c] = p.free[c][:n-1]
		p.bytes -= cap(b)
		p.mu.Unlock()
		b = b[:size]
		clear(b)
		return b
	}
	p.mu.Unlock()
	return make([]byte, size, 1<<c)
}

// Reallocate returns b resized to size bytes, its contents kept and the
// bytes past them zeroed.
func (p *bufferPool) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		if size > len(b) {
			clear(b[len(b):size])
		}
		return b[:size]
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

// release drops the buffers waiting in the pool (the load is over), for
// the garbage collector to take whatever still holds the pool.
func (p *bufferPool) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.free = [bits.UintSize][][]byte{}
	p.bytes = 0
}

// Free takes back a buffer the pool handed out.
func (p *bufferPool) Free(b []byte) {
	c := cap(b)
	if c < 1<<minClass || c&(c-1) != 0 {
		return // not one of the pool's
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bytes+c > poolBytes {
		return
	}
	k := bits.Len(uint(c - 1))
	p.free[k] = append(p.free[k], b[:0])
	p.bytes += c
}
