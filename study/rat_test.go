package study

import (
	"math"
	"math/big"
	"testing"
)

func TestRatOf(t *testing.T) {
	tests := []struct {
		x        float64
		num, den int64
		ok       bool
	}{
		{3, 3, 1, true},
		{0.6, 3, 5, true},
		{3.5, 7, 2, true},
		{-0.25, -1, 4, true},
		{0.1, 1, 10, true},
		{1.0 / 3, 0, 0, false}, // 0.3333333333333333: denominator 10^16 > 2^40
		{math.NaN(), 0, 0, false},
		{math.Inf(1), 0, 0, false},
	}
	for _, tt := range tests {
		r, ok := RatOf(tt.x)
		if ok != tt.ok || r.Num != tt.num || r.Den != tt.den {
			t.Errorf("RatOf(%v) = %v, %v; want %d/%d, %v", tt.x, r, ok, tt.num, tt.den, tt.ok)
		}
	}
}

// TestRatArithmetic checks Add, MulInt, DivInt and Cmp against math/big on
// a grid of fractions, including values near the int64 limits (where Add
// must report overflow as the zero Rat and Cmp must still be exact).
func TestRatArithmetic(t *testing.T) {
	vals := []Rat{NewRat(22, 9), NewRat(44, 18), NewRat(-3, 5), NewRat(0, 7), NewRat(1, 3),
		NewRat(math.MaxInt64/3, 7), NewRat(math.MaxInt64-1, math.MaxInt64), NewRat(-math.MaxInt64/2, 3)}
	big1 := func(r Rat) *big.Rat { return big.NewRat(r.Num, r.Den) }
	for _, a := range vals {
		for _, b := range vals {
			if got, want := a.Cmp(b), big1(a).Cmp(big1(b)); got != want {
				t.Errorf("%v.Cmp(%v) = %d, want %d", a, b, got, want)
			}
			sum := new(big.Rat).Add(big1(a), big1(b))
			got := a.Add(b)
			fits := sum.Num().IsInt64() && sum.Denom().IsInt64()
			switch {
			case got.OK() && big1(got).Cmp(sum) != 0:
				t.Errorf("%v + %v = %v, want %v", a, b, got, sum)
			case !got.OK() && fits && a.Den == b.Den:
				t.Errorf("%v + %v: overflow reported, but %v fits", a, b, sum)
			}
		}
	}
	if NewRat(22, 9) != NewRat(44, 18) {
		t.Errorf("NewRat does not reduce: %v vs %v", NewRat(22, 9), NewRat(44, 18))
	}
	if r := NewRat(math.MaxInt64, 1).MulInt(2); r.OK() {
		t.Errorf("MaxInt64·2 = %v, want overflow (zero Rat)", r)
	}
	if r := NewRat(1, math.MaxInt64).DivInt(2); r.OK() {
		t.Errorf("1/MaxInt64 / 2 = %v, want overflow (zero Rat)", r)
	}
}

// TestRatSumOrder: 22/9 reached in different orders is the same float64;
// the float sums of the same terms are not (the bug exact means fix).
func TestRatSumOrder(t *testing.T) {
	// three graders' rubric means over 6 attributes: sums 14, 15 and 15 →
	// (14/6 + 15/6 + 15/6)/3 = 44/18 = 22/9, in every order
	orders := [][]int64{{14, 15, 15}, {15, 14, 15}, {15, 15, 14}}
	var got []float64
	for _, o := range orders {
		var s RatSum
		for _, x := range o {
			s.Add(NewRat(x, 6), float64(x)/6)
		}
		if r := s.Rat(); r != NewRat(22, 9) {
			t.Errorf("order %v: mean %v, want 22/9", o, r)
		}
		got = append(got, s.Mean())
	}
	for _, g := range got {
		if g != 22.0/9 {
			t.Errorf("means %v, want all %v", got, 22.0/9)
		}
	}
	var empty RatSum
	if !math.IsNaN(empty.Mean()) || empty.Rat().OK() {
		t.Errorf("empty RatSum: mean %v, rat %v; want NaN and no value", empty.Mean(), empty.Rat())
	}
	third, half := 1.0, 0.5
	third /= 3 // float64 arithmetic at run time, not exact constants
	want := (half + third) / 2
	var mixed RatSum
	mixed.Add(NewRat(1, 2), half)
	mixed.Add(Rat{}, third) // not exact: falls back to floats
	if mixed.Rat().OK() || mixed.Mean() != want {
		t.Errorf("mixed RatSum: rat %v mean %v; want no rat and %v", mixed.Rat(), mixed.Mean(), want)
	}
}
