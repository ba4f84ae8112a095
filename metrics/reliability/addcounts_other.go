//go:build !amd64

package reliability

// useAVX2 is false off amd64: addCounts runs in Go.
var useAVX2 = false

func addCountsAVX2(acc []float64, nb int, cnt []int32, slots []int32, vals []float64) {
	addCountsGo(acc, nb, cnt, slots, vals)
}
