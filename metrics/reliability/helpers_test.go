package reliability

import (
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
