package ranking

import (
	"context"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// analyze runs Analyze and fails the test on an error.
func analyze(t testing.TB, s *study.Study, opt Options) Result {
	t.Helper()
	res, err := Analyze(context.Background(), s, opt)
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	return res
}
