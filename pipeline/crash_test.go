package pipeline

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/internal/crash"
)

// A job that panics on its goroutine gives a *crash.Error naming the job;
// the other jobs still run.
func TestRunEachPanic(t *testing.T) {
	ran := false
	jobs := []job{
		{name: "fine", run: func(context.Context) (func(*Result), error) { ran = true; return nil, nil }},
		{name: "broken", run: func(context.Context) (func(*Result), error) { panic("index out of range") }},
	}
	_, errs := runEach(context.Background(), jobs, 1)
	if errs[0] != nil || !ran {
		t.Errorf("the job that does not panic: err %v, ran %v", errs[0], ran)
	}
	var ce *crash.Error
	if !errors.As(errs[1], &ce) {
		t.Fatalf("err = %v, want a *crash.Error", errs[1])
	}
	if want := "analyse: broken: internal error: panic: index out of range"; errs[1].Error() != want {
		t.Errorf("err = %q, want %q", errs[1], want)
	}
	if !strings.Contains(string(ce.Stack), "TestRunEachPanic") {
		t.Errorf("stack does not show the panicking job:\n%s", ce.Stack)
	}
}
