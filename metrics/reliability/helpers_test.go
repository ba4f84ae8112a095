package reliability

import (
	"context"
	"testing"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/scores"
)

type scoresGrading = scores.Grading

// computeMain returns the main-round gradings of s.
func computeMain(s *analysis.Study) []scores.Grading {
	var out []scores.Grading
	for _, g := range scores.Compute(s, scores.DefaultOptions()) {
		if g.Round == s.MainRound {
			out = append(out, g)
		}
	}
	return out
}

// analyze runs Analyze and fails the test on an error.
func analyze(t testing.TB, s *analysis.Study, opt Options) Result {
	t.Helper()
	res, err := Analyze(context.Background(), s, opt)
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	return res
}
