package providers

import (
	"math"
	"testing"
)

func TestCost(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name            string
		in, out         int64
		pIn, pOut, disc float64
		want            float64
	}{
		// (1200·0.0025 + 350·0.01)/1000 = (3 + 3.5)/1000 = 0.0065; half off
		// = 0.00325.
		{"gpt-4o batch", 1200, 350, 0.0025, 0.01, 0.5, 0.00325},
		// Same at list price.
		{"gpt-4o list", 1200, 350, 0.0025, 0.01, 0, 0.0065},
		// Claude Sonnet $3/$15 per M = 0.003/0.015 per 1k:
		// (3087·0.003 + 64·0.015)/1000 = (9.261 + 0.96)/1000 = 0.010221.
		{"sonnet list", 3087, 64, 0.003, 0.015, 0, 0.010221},
		// 0.010221 · 0.5 = 0.0051105.
		{"sonnet batch", 3087, 64, 0.003, 0.015, 0.5, 0.0051105},
		// Gemini 2.5 Flash $0.30/$2.50 per M; 12 in, 235 out (thoughts
		// included): (12·0.0003 + 235·0.0025)/1000 = (0.0036 + 0.5875)/1000
		// = 0.0005911; 30 % off → 0.00041377.
		{"flash 30% off", 12, 235, 0.0003, 0.0025, 0.3, 0.00041377},
		// One million output tokens at $10 per M = $10; a full discount is 0.
		{"million", 0, 1000000, 0.0025, 0.01, 0, 10},
		{"free", 0, 1000000, 0.0025, 0.01, 1, 0},
		{"no tokens", 0, 0, 0.0025, 0.01, 0.5, 0},
		{"unknown input", -1, 10, 0.0025, 0.01, 0.5, nan},
		{"unknown output", 10, -1, 0.0025, 0.01, 0.5, nan},
		{"missing price", 10, 10, nan, 0.01, 0.5, nan},
		{"negative price", 10, 10, -0.1, 0.01, 0.5, nan},
		{"infinite price", 10, 10, math.Inf(1), 0.01, 0.5, nan},
		{"discount above 1", 10, 10, 0.0025, 0.01, 1.5, nan},
		{"negative discount", 10, 10, 0.0025, 0.01, -0.5, nan},
		{"NaN discount", 10, 10, 0.0025, 0.01, nan, nan},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Cost(tc.in, tc.out, tc.pIn, tc.pOut, tc.disc)
			switch {
			case math.IsNaN(tc.want):
				if !math.IsNaN(got) {
					t.Errorf("got %v, want NaN", got)
				}
			case tc.want == 0:
				if got != 0 {
					t.Errorf("got %v, want 0", got)
				}
			case math.Abs(got-tc.want) > 1e-14*math.Abs(tc.want):
				t.Errorf("got %.17g, want %.17g", got, tc.want)
			}
		})
	}
}
