package reliability

import (
	"context"
	"testing"

	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/study"
)

type scoresGrading = scores.Grading

// computeMain returns the main-round gradings of s.
func computeMain(s *study.Study) []scores.Grading {
	var out []scores.Grading
	for _, g := range scores.Compute(s, scores.DefaultOptions()) {
		if g.Round == s.MainRound {
			out = append(out, g)
		}
	}
	return out
}

// analyze runs Analyze and fails the test on an error.
func analyze(t testing.TB, s *study.Study, opt Options) Result {
	t.Helper()
	res, err := Analyze(context.Background(), s, opt)
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	return res
}

// tableRows are r's rows as the reliability table's cells: instrument,
// population, statistic, value, n_units, n_graders, lo, hi, note.
func tableRows(r Result) [][]any {
	var out [][]any
	for _, w := range r.Rows {
		out = append(out, []any{w.Instrument, w.Population, w.Statistic, w.Value, w.Units, w.Graders, w.Lo, w.Hi, w.Note})
	}
	return out
}
