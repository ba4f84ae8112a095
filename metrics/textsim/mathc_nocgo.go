//go:build !cgo

package textsim

import "math"

// LibmExactBLEU reports whether BLEU scores use the C library's exp/log
// (built with cgo) and so agree with sacrebleu on glibc to the last bit;
// without cgo Go's math.Exp/math.Log are used (within a few ulp).
const LibmExactBLEU = false

func cexp(x float64) float64 { return math.Exp(x) }
func clog(x float64) float64 { return math.Log(x) }
