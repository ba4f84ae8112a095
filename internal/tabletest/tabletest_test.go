package tabletest

import (
	"math"
	"testing"
)

func TestSameCell(t *testing.T) {
	for _, c := range []struct {
		got, want any
		same      bool
	}{
		{0.1, 0.1, true},
		{math.NaN(), math.NaN(), true},
		{0.1, math.NaN(), false},
		{math.Nextafter(0.1, 1), 0.1, false},
		{int64(3), 3.0, false},
		{"a", "a", true},
		{int64(2), int64(2), true},
	} {
		if got := SameCell(c.got, c.want); got != c.same {
			t.Errorf("SameCell(%v, %v) = %v, want %v", c.got, c.want, got, c.same)
		}
	}
}
