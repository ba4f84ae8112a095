package main

import (
	"runtime"
	"testing"
)

// heapInUse counts what the program holds: it grows by at least the size
// of a large live allocation.
func TestHeapInUse(t *testing.T) {
	runtime.GC()
	before := heapInUse()
	if before == 0 {
		t.Fatal("heapInUse = 0 in a running program")
	}
	const size = 64 << 20
	held := make([]byte, size)
	for i := range held {
		held[i] = byte(i)
	}
	after := heapInUse()
	runtime.KeepAlive(held)
	if after < size || after+8<<20 < before+size { // other allocations come and go by a few MiB
		t.Errorf("heapInUse grew from %d to %d bytes after holding %d", before, after, size)
	}
}
