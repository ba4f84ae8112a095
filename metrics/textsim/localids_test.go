package textsim

import (
	"math"
	"testing"
)

// TestLocalIDs checks the epoch mechanism by hand: local ids in first-seen
// order, forgotten by next (also when the epoch wraps), and dropped global
// ids.
func TestLocalIDs(t *testing.T) {
	check := func(l *localIDs, g int32, wantID int32, wantOK bool) {
		t.Helper()
		if id, ok := l.lookup(g); ok != wantOK || (ok && id != wantID) {
			t.Errorf("lookup(%d) = %d, %v; want %d, %v", g, id, ok, wantID, wantOK)
		}
	}
	for _, start := range []uint32{0, math.MaxUint32 - 1} {
		var l localIDs
		l.grow(4)
		l.epoch = start
		l.next()
		for i, g := range []int32{2, 0, 2, 3} {
			want := []int32{0, 1, 0, 2}[i]
			if got := l.assign(g); got != want {
				t.Errorf("start %d: assign(%d) = %d, want %d", start, g, got, want)
			}
		}
		if l.n != 3 {
			t.Errorf("start %d: n = %d, want 3", start, l.n)
		}
		check(&l, 1, 0, false)
		check(&l, 3, 2, true)
		l.next() // from MaxUint32 this wraps: every stamp is cleared
		if l.epoch == 0 {
			t.Fatalf("start %d: epoch 0 after next", start)
		}
		for g := int32(0); g < 4; g++ {
			check(&l, g, 0, false)
		}
		if got := l.assign(3); got != 0 || l.n != 1 {
			t.Errorf("start %d: after next assign(3) = %d (n %d), want 0 (n 1)", start, got, l.n)
		}
		l.drop()
		l.next()
		l.grow(1)
		if got := l.assign(0); got != 0 {
			t.Errorf("start %d: after drop assign(0) = %d, want 0", start, got)
		}
	}
}

// TestLocalIDsWrap: a stamp from epoch 1 must not look current once the
// epoch wraps back to 1.
func TestLocalIDsWrap(t *testing.T) {
	var l localIDs
	l.grow(2)
	l.next() // epoch 1
	l.assign(1)
	l.epoch = math.MaxUint32
	l.next() // wraps to 1
	if id, ok := l.lookup(1); ok {
		t.Errorf("after the wrap lookup(1) = %d, true; want no local id", id)
	}
}
