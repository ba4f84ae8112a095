package scores

import (
	"testing"
	"unsafe"
)

// A study holds one Grading per grading, shared by the analyses: its size
// is part of the memory budget (248 bytes before the counts were packed).
func TestGradingSize(t *testing.T) {
	if got, want := unsafe.Sizeof(Grading{}), uintptr(216); got > want {
		t.Errorf("scores.Grading is %d bytes, want at most %d", got, want)
	}
}
