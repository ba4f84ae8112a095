package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The documented ranges of the numeric flags, checked before any work so
// that a mistaken value is a usage error (exit status 2) rather than an
// out-of-memory crash or hours of work. They are generous for a demanding
// study and bound what one run may ask of memory, disk and time.
var (
	rangeBootstrap   = intRange{"bootstrap", 100, 100_000}
	rangeCompareSeed = intRange{"seed", 0, math.MaxInt64}
	rangeQuestions   = intRange{"questions", 1, 1_000_000}
	rangeModels      = intRange{"models", 2, 60}
	rangeEvaluators  = intRange{"evaluators", 0, 1_000} // and not 1 or 2: see checkEvaluators
	rangeJudges      = intRange{"judges", 0, 20}
	rangeRespChars   = intRange{"response-chars", 100, 100_000}
	rangeRefShare    = floatRange{"reference-share", 0, 1}
	rangeAlpha       = floatRange{"alpha", 0.000001, 0.2}
	rangePower       = floatRange{"power", 0.5, 0.9999}
	rangeGraders     = intRange{"graders", 1, 100}
	maxGraderDesigns = 20 // values of plan --graders
	// maxResponseText bounds sample's questions × models × response-chars,
	// the characters of response text written (10 GB), which each flag's
	// range alone leaves at terabytes.
	maxResponseText int64 = 10_000_000_000
)

// intRange is the range [min, max] of an integer flag.
type intRange struct {
	flag     string
	min, max int64
}

// String is "100 to 100,000", as the help and the errors show it.
func (r intRange) String() string { return thousands(r.min) + " to " + thousands(r.max) }

// check is a usage error naming the flag, v and the range when v is out of it.
func (r intRange) check(v int64) error {
	if v < r.min || v > r.max {
		return &usageError{fmt.Errorf("--%s %d: expected %s", r.flag, v, r)}
	}
	return nil
}

// floatRange is the range [min, max] of a number flag; NaN and ±Inf are
// never in it.
type floatRange struct {
	flag     string
	min, max float64
}

func (r floatRange) String() string {
	return strconv.FormatFloat(r.min, 'g', -1, 64) + " to " + strconv.FormatFloat(r.max, 'g', -1, 64)
}

func (r floatRange) check(v float64) error {
	if math.IsNaN(v) || v < r.min || v > r.max {
		return &usageError{fmt.Errorf("--%s %v: expected a number from %s", r.flag, v, r)}
	}
	return nil
}

// checkEvaluators: the human grader pool is 0 (judge-only) or 3 to the
// range's maximum (two graders cannot show which one is off).
func checkEvaluators(v int) error {
	if rangeEvaluators.check(int64(v)) != nil || v == 1 || v == 2 {
		return &usageError{fmt.Errorf("--evaluators %d: expected 0 (judge-only) or 3 to %s", v, thousands(rangeEvaluators.max))}
	}
	return nil
}

// thousands writes n with a comma every three digits: 100000 → "100,000".
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
