package prbench

import (
	"context"
	"errors"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// analyze is Analyze under a context that is never cancelled.
func analyze(s *study.Study, opt Options) Result {
	r, err := Analyze(context.Background(), s, opt)
	if err != nil {
		panic(err) // only a cancelled context gives an error
	}
	return r
}

func TestAnalyzeCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, scoreStudy(), DefaultOptions()); !errors.Is(err, context.Canceled) {
		t.Fatalf("Analyze with a cancelled context: got error %v, want context.Canceled", err)
	}
}
