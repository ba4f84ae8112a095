//go:build cgo

package textsim

// #cgo LDFLAGS: -lm
// #include <math.h>
import "C"

// With cgo, BLEU uses the C library's exp and log: sacrebleu's Python
// math.exp/math.log call them, and glibc's (≥ 2.28) differ from Go's math
// package in the last bit on some inputs.

// LibmExactBLEU reports whether BLEU scores use the C library's exp/log
// (built with cgo) and so agree with sacrebleu on glibc to the last bit;
// without cgo Go's math.Exp/math.Log are used (within a few ulp).
const LibmExactBLEU = true

func cexp(x float64) float64 { return float64(C.exp(C.double(x))) }
func clog(x float64) float64 { return float64(C.log(C.double(x))) }
