package planning

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/stats"
)

// TestMDEHasItsPower: the paired t test's exact power (noncentral t,
// PairedPower, checked against published sample sizes) at the effect that
// stats.MDE gives is the power asked, within the approximation's error.
func TestMDEHasItsPower(t *testing.T) {
	for _, n := range []int{10, 30, 200} {
		for _, power := range []float64{0.8, 0.9} {
			mde := stats.MDE(1/math.Sqrt(float64(n)), float64(n-1), 0.05, power)
			if got := PairedPower(float64(n), mde, 0.05); math.Abs(got-power) > 0.01 {
				t.Errorf("n %d: power at the MDE %v = %v, want %v", n, mde, got, power)
			}
		}
	}
}
