package reliability

import "golang.org/x/sys/cpu"

// useAVX2 says that addCounts and sumTypes32 may use AVX2 (the CPU and the OS
// support it); the tests turn it off to compare.
var useAVX2 = cpu.X86.HasAVX2

// addCountsAVX2 is addCounts with AVX2, for nb a multiple of 4; it does not
// check bounds.
//
//go:noescape
func addCountsAVX2(acc []float64, nb int, cnt []int32, slots []int32, vals []float64)

// sumTypes32AVX2 is sumTypes32 with AVX2; it does not check bounds.
//
//go:noescape
func sumTypes32AVX2(perT []float64, typ []uint16, s *[32]float64)
