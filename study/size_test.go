package study

import (
	"testing"
	"unsafe"
)

// A study read from a database holds one Grading per run (1,520,000 at
// 40,000 questions): its size is part of the memory budget.
func TestRowSizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"Grading", unsafe.Sizeof(Grading{}), 192},
	} {
		if c.got > c.want {
			t.Errorf("study.%s is %d bytes, want at most %d", c.name, c.got, c.want)
		}
	}
}
