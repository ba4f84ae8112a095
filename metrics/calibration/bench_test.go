package calibration

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkCalibrate10k: judge calibration of 10,000 questions × 6 models,
// 2 human graders and one judge on every response (120,000 human and
// 60,000 judge gradings). Compare ns/op, B/op and allocs/op with the same
// benchmark on an earlier commit.
func BenchmarkCalibrate10k(b *testing.B) {
	sp := simSpec{nQ: 10000, labelled: 1, graders: 2, mu: []float64{2.5, 2.8, 3, 3.2, 3.5, 3.8}, sdQ: 0.5, sdH: 0.5,
		judge: func(m int, tq float64, r *rand.Rand) float64 { return tq + 0.3*r.NormFloat64() }}
	s := sp.build(1, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		analyze(b, s, noLength())
	}
}
