package ranking

import (
	"context"
	"testing"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/report"
)

// analyze runs Analyze and fails the test on an error; it returns the
// report part built from the typed result.
func analyze(t testing.TB, s *analysis.Study, opt Options) report.Part {
	t.Helper()
	res, err := Analyze(context.Background(), s, opt)
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	return res.Part()
}
