package ranking

import (
	"math"
	"testing"
)

// pairs returns wa orderings (0 before 1) and wb orderings (1 before 0).
func pairsOf(wa, wb int) []Ordering {
	var o []Ordering
	for i := 0; i < wa; i++ {
		o = append(o, Ordering{0, 1})
	}
	for i := 0; i < wb; i++ {
		o = append(o, Ordering{1, 0})
	}
	return o
}

// Two models compared n = W_a + W_b times. Maximum likelihood: γ_a/γ_b =
// W_a/W_b; with mean 1, γ_a = 2·W_a/n. With c pseudo-wins (Gamma(1+c, c)
// prior): γ_a/γ_b = (W_a + c)/(W_b + c) and γ_a + γ_b = 2, so
// γ_a = 2(W_a + c)/(n + 2c).
func TestPLTwoModelsClosedForm(t *testing.T) {
	cases := []struct {
		name   string
		wa, wb int
		c      float64
		ga, gb float64
	}{
		{"mle 7:3", 7, 3, 0, 1.4, 0.6},              // 2·7/10, 2·3/10
		{"prior 1, 7:3", 7, 3, 1, 4.0 / 3, 2.0 / 3}, // 2·8/12, 2·4/12
		{"prior 2, 7:3", 7, 3, 2, 9.0 / 7, 5.0 / 7}, // 2·9/14, 2·5/14
		{"prior 1, 5:0 (always wins)", 5, 0, 1, 12.0 / 7, 2.0 / 7},
		{"prior 0.5, 1:4", 1, 4, 0.5, 0.5, 1.5}, // 2·1.5/6, 2·4.5/6
		{"mle 5:0 undefined", 5, 0, 0, math.NaN(), math.NaN()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := FitPlackettLuce(pairsOf(c.wa, c.wb), nil, 2, c.c, nil)
			if !close(f.Strength[0], c.ga, 1e-9) || !close(f.Strength[1], c.gb, 1e-9) {
				t.Errorf("got %v, want [%v %v]", f.Strength, c.ga, c.gb)
			}
			if !math.IsNaN(c.ga) && !f.Converged {
				t.Errorf("not converged after %d steps", f.Iterations)
			}
		})
	}
	// Weights act as multiplicities: 7:3 as weights 3.5 and 1.5 on one ordering each, doubled.
	f := FitPlackettLuce([]Ordering{{0, 1}, {1, 0}}, []float64{7, 3}, 2, 1, nil)
	if !close(f.Strength[0], 4.0/3, 1e-9) {
		t.Errorf("weighted: got %v, want 4/3", f.Strength)
	}
}

func close(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

// For more models there is no closed form; the fit must satisfy the
// stationary equations of the log posterior, computed here independently
// (by brute force over the choice sets):
// (W_t + c)/γ_t − Σ_{choice sets S ∋ t} 1/γ(S) − c = 0, and Σ γ = K.
func TestPLStationary(t *testing.T) {
	obs := []Ordering{{0, 1, 2, 3}, {1, 0, 3, 2}, {0, 2, 1}, {3, 0}, {2, 3, 1, 0}, {0, 1, 3}, {1, 2}}
	for _, c := range []float64{0, 1, 3} {
		f := FitPlackettLuce(obs, nil, 4, c, nil)
		g := f.Strength
		sum := 0.0
		for ti := 0; ti < 4; ti++ {
			sum += g[ti]
			var wins, den float64
			for _, o := range obs {
				for j := 0; j < len(o)-1; j++ {
					in := false
					var s float64
					for _, x := range o[j:] {
						s += g[x]
						if x == ti {
							in = true
						}
					}
					if o[j] == ti {
						wins++
					}
					if in {
						den += 1 / s
					}
				}
			}
			grad := (wins+c)/g[ti] - den - c
			if math.Abs(grad) > 1e-8 {
				t.Errorf("c = %v: model %d gradient %v (γ = %v)", c, ti, grad, g)
			}
		}
		if math.Abs(sum-4) > 1e-9 {
			t.Errorf("c = %v: Σγ = %v, want 4", c, sum)
		}
	}
	// All six orders of three models once each: every strength 1.
	sym := []Ordering{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	f := FitPlackettLuce(sym, nil, 3, 0, nil)
	for _, v := range f.Strength {
		if !close(v, 1, 1e-9) {
			t.Errorf("symmetric data: %v, want all 1", f.Strength)
		}
	}
}

func TestPLDegenerate(t *testing.T) {
	if f := FitPlackettLuce(nil, nil, 0, 1, nil); len(f.Strength) != 0 {
		t.Errorf("no models: %v", f.Strength)
	}
	f := FitPlackettLuce(nil, nil, 3, 1, nil)
	for _, v := range f.Strength {
		if v != 1 {
			t.Errorf("no data, prior 1: %v, want the prior mode 1", f.Strength)
		}
	}
	f = FitPlackettLuce(pairsOf(2, 1), nil, 2, -1, nil)
	if !math.IsNaN(f.Strength[0]) {
		t.Errorf("negative prior: %v, want NaN", f.Strength)
	}
	for name, bad := range map[string][]Ordering{"index out of range": {{0, 5}}, "negative index": {{-1, 0}}, "repeated model": {{1, 1}}} {
		if f := FitPlackettLuce(bad, nil, 2, 1, nil); !math.IsNaN(f.Strength[0]) {
			t.Errorf("%s: %v, want NaN", name, f.Strength)
		}
	}
	if f := FitPlackettLuce(pairsOf(2, 1), []float64{1}, 2, 1, nil); !math.IsNaN(f.Strength[0]) {
		t.Errorf("short weights: %v, want NaN", f.Strength)
	}
	// Model 2 never appears: with MLE it is NaN, the others still fitted.
	f = FitPlackettLuce(pairsOf(3, 1), nil, 3, 0, nil)
	if !math.IsNaN(f.Strength[2]) || !close(f.Strength[0], 1.5, 1e-9) {
		t.Errorf("absent model: %v, want [1.5 0.5 NaN]", f.Strength)
	}
}
