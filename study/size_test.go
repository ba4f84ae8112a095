package study

import (
	"testing"
	"unsafe"
)

// A study read from a database holds one Score per grading and one Grading
// per run (1,040,000 and 1,520,000 at 40,000 questions): their sizes are
// part of the memory budget. Score was 176 bytes while it kept the five
// key strings of its grading.
func TestRowSizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"Score", unsafe.Sizeof(Score{}), 88},
		{"Grading", unsafe.Sizeof(Grading{}), 192},
	} {
		if c.got > c.want {
			t.Errorf("study.%s is %d bytes, want at most %d", c.name, c.got, c.want)
		}
	}
}
