package ranking

import (
	"context"
	"testing"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

// analyze runs Analyze and fails the test on an error; it returns the
// report part built from the typed result.
func analyze(t testing.TB, s *study.Study, opt Options) report.Part {
	t.Helper()
	res, err := Analyze(context.Background(), s, opt)
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	return res.Part()
}
