package study

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// Rat is an exact non-negative-denominator fraction Num/Den of two int64,
// kept in lowest terms. Means over graders and attributes are summed and
// compared as Rats and converted to float64 once, by Float64, for output, so
// that equal means computed in different orders stay equal (22/9 is 22/9
// whichever grader came first).
//
// The zero value (Den == 0) is "no value": not a number, the result of an
// empty mean or of an operation that would overflow int64. Operations on a
// zero Rat give a zero Rat; callers fall back to float64 arithmetic then.
type Rat struct {
	Num, Den int64
}

// NewRat returns num/den in lowest terms; the zero Rat when den is 0.
func NewRat(num, den int64) Rat {
	if den == 0 {
		return Rat{}
	}
	if den < 0 {
		if num == math.MinInt64 || den == math.MinInt64 {
			return Rat{}
		}
		num, den = -num, -den
	}
	g := gcd(abs64(num), den)
	if g > 1 {
		num, den = num/int64(g), den/int64(g)
	}
	return Rat{num, den}
}

// RatOf returns x as the exact fraction of its shortest decimal form
// (0.6 → 3/5, 3.5 → 7/2), so that thresholds and scores written in decimal
// compare exactly as written. ok is false (and the Rat zero) when x is not
// finite or its fraction does not fit in ±2^40 / 2^40.
func RatOf(x float64) (r Rat, ok bool) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return Rat{}, false
	}
	if x == math.Trunc(x) && math.Abs(x) <= 1<<40 {
		return Rat{int64(x), 1}, true
	}
	b, ok := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
	if !ok || !b.Num().IsInt64() || !b.Denom().IsInt64() {
		return Rat{}, false
	}
	n, d := b.Num().Int64(), b.Denom().Int64()
	if n > 1<<40 || n < -(1<<40) || d > 1<<40 {
		return Rat{}, false
	}
	return Rat{n, d}, true
}

// OK reports whether r holds a value.
func (r Rat) OK() bool { return r.Den > 0 }

// Float64 returns Num/Den divided once (correctly rounded when both fit in
// 53 bits); NaN for the zero Rat.
func (r Rat) Float64() float64 {
	if r.Den <= 0 {
		return math.NaN()
	}
	return float64(r.Num) / float64(r.Den)
}

// Add returns r + s; the zero Rat when either is zero or the result
// overflows.
func (r Rat) Add(s Rat) Rat {
	if r.Den <= 0 || s.Den <= 0 {
		return Rat{}
	}
	if r.Den == s.Den {
		n, ok := add64(r.Num, s.Num)
		if !ok {
			return Rat{}
		}
		return NewRat(n, r.Den)
	}
	g := int64(gcd(uint64(r.Den), s.Den))
	a, ok1 := mul64(r.Num, s.Den/g)
	b, ok2 := mul64(s.Num, r.Den/g)
	d, ok3 := mul64(r.Den/g, s.Den)
	n, ok4 := add64(a, b)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return Rat{}
	}
	return NewRat(n, d)
}

// MulInt returns r·k; the zero Rat on overflow.
func (r Rat) MulInt(k int64) Rat {
	if r.Den <= 0 {
		return Rat{}
	}
	n, ok := mul64(r.Num, k)
	if !ok {
		return Rat{}
	}
	return NewRat(n, r.Den)
}

// DivInt returns r/k (k > 0); the zero Rat on overflow or when k ≤ 0.
func (r Rat) DivInt(k int64) Rat {
	if r.Den <= 0 || k <= 0 {
		return Rat{}
	}
	d, ok := mul64(r.Den, k)
	if !ok {
		return Rat{}
	}
	return NewRat(r.Num, d)
}

// Cmp compares r and s exactly (-1, 0, +1) with 128-bit products. Both must
// be OK.
func (r Rat) Cmp(s Rat) int {
	// r.Num·s.Den vs s.Num·r.Den; denominators are positive.
	return cmp128(r.Num, s.Den, s.Num, r.Den)
}

func cmp128(a, b, c, d int64) int {
	sa := sign(a) // b, d > 0
	sc := sign(c)
	if sa != sc {
		if sa < sc {
			return -1
		}
		return 1
	}
	if sa == 0 {
		return 0
	}
	hi1, lo1 := bits.Mul64(abs64(a), uint64(b))
	hi2, lo2 := bits.Mul64(abs64(c), uint64(d))
	switch {
	case hi1 < hi2 || (hi1 == hi2 && lo1 < lo2):
		return -sa
	case hi1 == hi2 && lo1 == lo2:
		return 0
	}
	return sa
}

func sign(x int64) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

func abs64(x int64) uint64 {
	if x < 0 {
		return uint64(-x)
	}
	return uint64(x)
}

func gcd(a uint64, b int64) uint64 {
	y := uint64(b)
	for y != 0 {
		a, y = y, a%y
	}
	if a == 0 {
		return 1
	}
	return a
}

func add64(a, b int64) (int64, bool) {
	c := a + b
	if (c > a) != (b > 0) {
		return 0, false
	}
	return c, true
}

func mul64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	if (c < 0) != ((a < 0) != (b < 0)) || c/b != a || a == math.MinInt64 || b == math.MinInt64 {
		return 0, false
	}
	return c, true
}

// RatSum sums Rats and counts them; Mean divides once. When a term is not
// exact (a zero Rat) or the sum overflows, it keeps a float64 sum instead
// and Mean returns that divided by the count.
type RatSum struct {
	sum   Rat
	fl    float64
	n     int64
	exact bool
	used  bool
}

// Add adds r, or x when r is the zero Rat (x must then be the value as a
// float64; NaN values must not be added).
func (s *RatSum) Add(r Rat, x float64) {
	if !s.used {
		s.used, s.exact, s.sum = true, true, Rat{0, 1}
	}
	s.n++
	s.fl += x
	if s.exact {
		if r.OK() {
			if t := s.sum.Add(r); t.OK() {
				s.sum = t
				return
			}
		}
		s.exact = false
	}
}

// N is the number of terms added.
func (s *RatSum) N() int64 { return s.n }

// Rat returns the exact mean, or the zero Rat when it is not exact or no
// term was added.
func (s *RatSum) Rat() Rat {
	if !s.used || !s.exact {
		return Rat{}
	}
	return s.sum.DivInt(s.n)
}

// Mean returns the mean as a float64: the exact mean divided once when
// every term was exact, else the float sum over the count; NaN when empty.
func (s *RatSum) Mean() float64 {
	if s.n == 0 {
		return math.NaN()
	}
	if r := s.Rat(); r.OK() {
		return r.Float64()
	}
	return s.fl / float64(s.n)
}
