package calibration

import (
	"math"
	"testing"
)

func sliceNear(t *testing.T, name string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s = %v, want %v", name, got, want)
		return
	}
	for i := range got {
		if !(math.Abs(got[i]-want[i]) <= tol) {
			t.Errorf("%s = %v, want %v", name, got, want)
			return
		}
	}
}

// TestPAV checks hand-worked pool-adjacent-violators cases.
func TestPAV(t *testing.T) {
	cases := []struct {
		name string
		y, w []float64
		want []float64
	}{
		{"sorted stays", []float64{1, 2, 3}, nil, []float64{1, 2, 3}},
		{"one violation", []float64{1, 3, 2, 4}, nil, []float64{1, 2.5, 2.5, 4}},
		{"all decreasing: one block of mean 2", []float64{3, 2, 1}, nil, []float64{2, 2, 2}},
		// 7,5 → 6,6; 9,8,7 → 8,8,8 (scikit-learn's test_isotonic_regression).
		{"sklearn case", []float64{3, 7, 5, 9, 8, 7, 10}, nil, []float64{3, 6, 6, 8, 8, 8, 10}},
		// 5,1 pool to 3; 3 > 1 pools again: (5+1+1)/3 = 7/3; 7/3 > 1 pools: 8/4 = 2.
		{"cascade", []float64{5, 1, 1, 1, 5}, nil, []float64{2, 2, 2, 2, 5}},
		// weights: (3·1 + 1·3)/4 = 1.5.
		{"weighted", []float64{3, 1}, []float64{1, 3}, []float64{1.5, 1.5}},
		// 4 > 2 → (4·1+2·3)/4 = 2.5 ≤ 3 stays.
		{"weighted cascade", []float64{4, 2, 3}, []float64{1, 3, 1}, []float64{2.5, 2.5, 3}},
		{"empty", []float64{}, nil, []float64{}},
	}
	for _, c := range cases {
		sliceNear(t, c.name, PAV(c.y, c.w), c.want, 1e-15)
	}
	for _, bad := range []struct{ y, w []float64 }{
		{[]float64{1, math.NaN()}, nil}, {[]float64{1, 2}, []float64{1}}, {[]float64{1, 2}, []float64{1, 0}},
	} {
		if got := PAV(bad.y, bad.w); got != nil {
			t.Errorf("PAV(%v, %v) = %v, want nil", bad.y, bad.w, got)
		}
	}
}

// TestIsotonicTiesAndPredict: x = 1,1,2,3 with y = 3,1,0,4. The tie at
// x = 1 pools to y = 2 with weight 2; 2 > 0 pools with x = 2:
// (2·2 + 0·1)/3 = 4/3. Knots (1, 4/3), (2, 4/3), (3, 4). Predict(2.5) =
// 4/3 + (4 − 4/3)/2 = 8/3; outside the range the end values.
func TestIsotonicTiesAndPredict(t *testing.T) {
	m, err := FitIsotonic([]float64{3, 1, 2, 1}, []float64{4, 3, 0, 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sliceNear(t, "X", m.X, []float64{1, 2, 3}, 0)
	sliceNear(t, "Y", m.Y, []float64{4.0 / 3, 4.0 / 3, 4}, 1e-15)
	for _, c := range [][2]float64{{0, 4.0 / 3}, {1, 4.0 / 3}, {1.5, 4.0 / 3}, {2.5, 8.0 / 3}, {3, 4}, {9, 4}} {
		if got := m.Predict(c[0]); math.Abs(got-c[1]) > 1e-15 {
			t.Errorf("Predict(%v) = %v, want %v", c[0], got, c[1])
		}
	}
	if !math.IsNaN(m.Predict(math.NaN())) {
		t.Error("Predict(NaN) is not NaN")
	}
	if _, err := FitIsotonic(nil, nil, nil); err == nil {
		t.Error("no points: no error")
	}
	if _, err := FitIsotonic([]float64{1, math.NaN()}, []float64{1, 2}, nil); err == nil {
		t.Error("NaN x: no error")
	}
}
