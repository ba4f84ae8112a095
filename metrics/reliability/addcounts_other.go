//go:build !amd64

package reliability

// useAVX2 is false off amd64: the replicate-major kernels run.
var useAVX2 = false

func addCountsAVX2(acc []float64, nb int, cnt []int32, slots []int32, vals []float64) {
	addCountsGo(acc, nb, cnt, slots, vals)
}

func sumTypes32AVX2(perT []float64, typ []uint16, s *[32]float64) {
	sumTypes32Go(perT, typ, s)
}
