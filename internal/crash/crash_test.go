package crash

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
)

func panics(v any) (err error) {
	defer Recover(&err)
	panic(v)
}

func TestRecover(t *testing.T) {
	tests := []struct {
		name  string
		value any
		want  string
	}{
		{"string", "boom", "internal error: panic: boom"},
		{"error", errors.New("bad state"), "internal error: panic: bad state"},
		{"int", 7, "internal error: panic: 7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := panics(tt.value)
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v (%T), want *crash.Error", err, err)
			}
			if err.Error() != tt.want {
				t.Errorf("Error() = %q, want %q", err.Error(), tt.want)
			}
			if !strings.Contains(string(ce.Stack), "crash.panics") {
				t.Errorf("stack does not name the panicking function:\n%s", ce.Stack)
			}
		})
	}
}

func TestRecoverRuntimeError(t *testing.T) {
	var m map[string]int
	err := func() (err error) {
		defer Recover(&err)
		m["x"] = 1 // assignment to a nil map
		return nil
	}()
	var re runtime.Error
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want it to unwrap to a runtime.Error", err)
	}
}

func TestRecoverNoPanic(t *testing.T) {
	want := errors.New("plain")
	err := func() (err error) {
		defer Recover(&err)
		return want
	}()
	if err != want {
		t.Fatalf("err = %v, want the function's own error", err)
	}
}

func TestShortStack(t *testing.T) {
	long := strings.Repeat("line\n", 100)
	got := string(shortStack([]byte(long)))
	if n := strings.Count(got, "\n"); n != maxStackLines+1 {
		t.Errorf("%d lines, want %d (the kept lines and the marker)", n, maxStackLines+1)
	}
	if !strings.HasSuffix(got, "\t…\n") {
		t.Errorf("no marker at the end: %q", got[len(got)-20:])
	}
	short := "a\nb\n"
	if got := string(shortStack([]byte(short))); got != short {
		t.Errorf("short stack changed: %q", got)
	}
}

func workerPanics() {
	panic("worker failed")
}

// A worker's panic reaches the waiting goroutine with the worker's stack;
// the other workers finish.
func TestRelay(t *testing.T) {
	err := func() (err error) {
		defer Recover(&err)
		var r Relay
		var wg sync.WaitGroup
		done := make([]bool, 4)
		for i := range done {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer r.Catch()
				if i == 2 {
					workerPanics()
				}
				done[i] = true
			}()
		}
		wg.Wait()
		if !done[0] || !done[1] || !done[3] {
			t.Errorf("workers that did not panic: done %v", done)
		}
		r.Raise()
		return nil
	}()
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a *crash.Error", err)
	}
	if err.Error() != "internal error: panic: worker failed" {
		t.Errorf("message %q", err.Error())
	}
	if !strings.Contains(string(ce.Stack), "crash.workerPanics") {
		t.Errorf("stack is not the worker's:\n%s", ce.Stack)
	}
}

func TestRelayNoPanic(t *testing.T) {
	var r Relay
	r.Raise() // must not panic
}
