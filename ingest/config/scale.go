package config

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/ingest/tabular"
)

// maxStepDecimals is the most decimal places of rubric.step, min and max:
// scores are then whole multiples of 10^-6, short decimals that the
// per-grading scores (metrics/scores) keep as exact fractions.
const maxStepDecimals = 6

// micro is 10^maxStepDecimals.
const micro = 1_000_000

// FormatDecimal writes a scale setting in its shortest decimal form
// without an exponent (1, 0.1, 25, 1000000).
func FormatDecimal(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// micros returns v (a setting) in millionths when v is a decimal of at most
// six places, by its shortest decimal form, so that 0.1 is 100000 exactly.
func micros(v float64) (int64, bool) {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e12 {
		return 0, false
	}
	return tabular.ParseMicros(FormatDecimal(v))
}

// StepOrOne is rubric.step, 1 when unset (a Config built by hand).
func (r Rubric) StepOrOne() float64 {
	if r.Step == 0 {
		return 1
	}
	return r.Step
}

// Points is the number of points of the scale, (max − min) / step + 1;
// 0 when the scale is not valid.
func (r Rubric) Points() int64 {
	lo, ok1 := micros(r.Min)
	hi, ok2 := micros(r.Max)
	st, ok3 := micros(r.StepOrOne())
	if !ok1 || !ok2 || !ok3 || st <= 0 || hi < lo {
		return 0
	}
	return (hi-lo)/st + 1
}

// Describe names the scale for messages: "an integer score from 1 to 5"
// for a whole-point scale, else "a multiple of 0.1 between 0 and 25".
func (r Rubric) Describe() string {
	lo, hi := FormatDecimal(r.Min), FormatDecimal(r.Max)
	if r.StepOrOne() == 1 && r.Min == math.Trunc(r.Min) {
		return "an integer score from " + lo + " to " + hi
	}
	return "a multiple of " + FormatDecimal(r.StepOrOne()) + " between " + lo + " and " + hi
}

// DescribePlural is Describe for a count of scores: "integers from 1 to 5",
// "multiples of 0.1 between 0 and 25".
func (r Rubric) DescribePlural() string {
	lo, hi := FormatDecimal(r.Min), FormatDecimal(r.Max)
	if r.StepOrOne() == 1 && r.Min == math.Trunc(r.Min) {
		return "integers from " + lo + " to " + hi
	}
	return "multiples of " + FormatDecimal(r.StepOrOne()) + " between " + lo + " and " + hi
}

// Scale is the rubric scale in millionths, for reading many scores: see
// Rubric.Scale and Scale.Parse.
type Scale struct {
	lo, hi, step int64
	averaged     int64 // [rubric] averaged; ≤ 1: multiples of the step only
	ok           bool
}

// Scale returns the scale of r in millionths; a Scale of an invalid rubric
// (one Parse refused) accepts no score.
func (r Rubric) Scale() Scale {
	lo, ok1 := micros(r.Min)
	hi, ok2 := micros(r.Max)
	st, ok3 := micros(r.StepOrOne())
	return Scale{lo: lo, hi: hi, step: st, averaged: int64(r.Averaged), ok: ok1 && ok2 && ok3 && st > 0}
}

// OnScale is r.Scale().Parse(cell).
func (r Rubric) OnScale(cell string) (v float64, ok bool) { return r.Scale().Parse(cell) }

// Parse reads a human's score cell exactly: the decimal text as written
// (decimal comma and exponent forms as tabular.ParseFloat accepts) must be
// a multiple of the step from min to max. A cell holding a binary float
// written with 16 or more significant digits (0.30000000000000004, as
// spreadsheets store a computed 0.3) is read as its 15-digit decimal form.
// ok is false for anything else; v is the score.
func (s Scale) Parse(cell string) (v float64, ok bool) {
	if !s.ok {
		return 0, false
	}
	u, exact := tabular.ParseMicros(cell)
	if (!exact || u%s.step != 0) && significantDigits(cell) >= 16 {
		if f, num := tabular.ParseFloat(cell); num {
			u, exact = tabular.ParseMicros(strconv.FormatFloat(f, 'g', 15, 64))
		}
	}
	if exact && u%s.step == 0 && u >= s.lo && u <= s.hi {
		return float64(u) / micro, true
	}
	if num, n, ok := s.mean(cell); ok {
		return float64(num) / float64(n*micro), true
	}
	return 0, false
}

// mean reads cell as the mean of n ≤ s.averaged scores on the step: the
// fraction num/(n·10⁶) = k·step/n, n smallest, that the cell is exactly
// or, written with 2 decimals or more, whose rounding to the decimals
// written it is (so that 2.5 is 5/2 but 2.3 is never taken for 7/3),
// between min and max. ok is false when s.averaged ≤ 1 or no such
// fraction exists.
func (s Scale) mean(cell string) (num, n int64, ok bool) {
	if s.averaged <= 1 {
		return 0, 0, false
	}
	x, isNum := new(big.Rat).SetString(strings.Replace(strings.TrimSpace(cell), ",", ".", 1))
	if !isNum {
		return 0, 0, false
	}
	d := writtenDecimals(cell)
	if d < 0 || d > 30 {
		return 0, 0, false
	}
	// half a unit of the last decimal written; 0 (exact) below 2 decimals
	half := new(big.Rat)
	if d >= 2 {
		half.SetFrac(big.NewInt(1), new(big.Int).Mul(big.NewInt(2), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d)), nil)))
	}
	step := big.NewRat(s.step, micro)
	for n := int64(2); n <= s.averaged; n++ {
		// k = round(x·n/step)
		y := new(big.Rat).Quo(new(big.Rat).Mul(x, big.NewRat(n, 1)), step)
		k := new(big.Int).Quo(new(big.Int).Add(new(big.Int).Mul(y.Num(), big.NewInt(2)), y.Denom()), new(big.Int).Mul(y.Denom(), big.NewInt(2)))
		if !k.IsInt64() {
			continue
		}
		c := new(big.Rat).Quo(new(big.Rat).Mul(new(big.Rat).SetInt(k), step), big.NewRat(n, 1))
		diff := new(big.Rat).Abs(new(big.Rat).Sub(x, c))
		if diff.Cmp(half) > 0 {
			continue
		}
		num := k.Int64() * s.step // k·step in millionths, over n
		if num < s.lo*n || num > s.hi*n {
			return 0, 0, false
		}
		return num, n, true
	}
	return 0, 0, false
}

// writtenDecimals counts the digits after the decimal point (or comma) of
// a number written without an exponent; −1 with an exponent.
func writtenDecimals(s string) int {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "eE") {
		return -1
	}
	i := strings.IndexAny(s, ".,")
	if i < 0 {
		return 0
	}
	return len(s) - i - 1
}

// significantDigits counts the digits of a number's mantissa from its
// first non-zero digit (the exponent not included).
func significantDigits(s string) int {
	n, started := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == 'e' || c == 'E' {
			break
		}
		if c >= '1' && c <= '9' {
			started = true
		}
		if started && c >= '0' && c <= '9' {
			n++
		}
	}
	return n
}

// checkScale validates [rubric] min, max, step and direction; it reports
// whether min and max form a usable scale.
func (c Config) checkScale(bad func(key string, value any, expected string)) bool {
	r := c.Rubric
	okScale := true
	// dec shows a value as written in study.toml (2147483647, 0.1)
	type dec string
	decimal := fmt.Sprintf("a decimal from %d to %d with at most %d decimal places", -scaleBound, scaleBound, maxStepDecimals)
	lo, okLo := micros(r.Min)
	if !okLo || math.Abs(r.Min) > scaleBound {
		bad("rubric.min", dec(FormatDecimal(r.Min)), decimal)
		okScale = false
	}
	hi, okHi := micros(r.Max)
	if !okHi || math.Abs(r.Max) > scaleBound {
		bad("rubric.max", dec(FormatDecimal(r.Max)), decimal)
		okScale = false
	}
	st, okSt := micros(r.Step)
	if !okSt || st <= 0 || r.Step > 2*scaleBound {
		bad("rubric.step", dec(FormatDecimal(r.Step)), fmt.Sprintf("a positive decimal with at most %d decimal places (1 for whole points, 0.5, 0.1)", maxStepDecimals))
		okScale, okSt = false, false
	}
	if okScale && hi <= lo {
		bad("rubric.max", dec(FormatDecimal(r.Max)), fmt.Sprintf("above rubric.min (%s)", FormatDecimal(r.Min)))
		okScale = false
	}
	if okScale && okSt && (lo%st != 0 || hi%st != 0) {
		bad("rubric.step", dec(FormatDecimal(r.Step)), fmt.Sprintf("a step of which rubric.min (%s) and rubric.max (%s) are multiples", FormatDecimal(r.Min), FormatDecimal(r.Max)))
		okScale = false
	}
	if r.Averaged < 1 || r.Averaged > 100 {
		bad("rubric.averaged", r.Averaged, "a number of raters from 1 to 100 (1: every human score is a multiple of rubric.step)")
	}
	switch r.Direction {
	case DirectionHigher, DirectionLower:
	default:
		bad("rubric.direction", r.Direction, `"higher" (higher scores are better) or "lower" (penalties such as MQM)`)
	}
	return okScale
}

// scalePairs lists rubric.step and rubric.direction when they differ from
// the defaults, so that studies without them keep their settings table.
func (c Config) scalePairs() [][2]string {
	var out [][2]string
	if c.Rubric.Step != 1 {
		out = append(out, [2]string{"rubric.step", FormatDecimal(c.Rubric.Step)})
	}
	if c.Rubric.Direction != DirectionHigher {
		out = append(out, [2]string{"rubric.direction", c.Rubric.Direction})
	}
	if c.Rubric.Averaged > 1 {
		out = append(out, [2]string{"rubric.averaged", strconv.Itoa(c.Rubric.Averaged)})
	}
	return out
}

// MeanOf returns the smallest number of raters n, 2 ≤ n ≤ upTo, of whose
// scores on r's step the cell is a mean (as [rubric] averaged = n would
// read it), or 0: what an error about an off-step human score suggests.
func (r Rubric) MeanOf(cell string, upTo int) int {
	r.Averaged = upTo
	if _, n, ok := r.Scale().mean(cell); ok {
		return int(n)
	}
	return 0
}
