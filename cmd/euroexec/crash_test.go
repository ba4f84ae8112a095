package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/internal/crash"
)

// A panic in a command is an internal error (exit status 70), never a
// usage error (2), and main prints a stack and a request to report it.
func TestPanicExitCode(t *testing.T) {
	testPanic = func() { panic("test hook") }
	t.Cleanup(func() { testPanic = nil })
	for _, args := range [][]string{{"version"}, {"sample", "-o", t.TempDir() + "/s"}} {
		var stdout, stderr bytes.Buffer
		ctx := context.Background()
		err := run(ctx, &stdout, &stderr, args)
		if got := exitCode(ctx, err); got != 70 {
			t.Errorf("%v: exit status %d (err %v), want 70", args, got, err)
		}
		var ce *crash.Error
		if !errors.As(err, &ce) {
			t.Fatalf("%v: err = %v (%T), want a *crash.Error", args, err, err)
		}
		if err.Error() != "internal error: panic: test hook" {
			t.Errorf("%v: message %q", args, err.Error())
		}
		var msg bytes.Buffer
		printCrash(&msg, err)
		for _, want := range []string{"this is a bug of euroexec", "please report it", "TestPanicExitCode"} {
			if !strings.Contains(msg.String(), want) {
				t.Errorf("%v: crash message lacks %q:\n%s", args, want, msg.String())
			}
		}
	}
}

// Errors that are not panics print no crash message.
func TestPrintCrashOnlyPanics(t *testing.T) {
	var msg bytes.Buffer
	printCrash(&msg, errors.New("plain failure"))
	printCrash(&msg, nil)
	if msg.Len() != 0 {
		t.Errorf("printed %q for errors that are not panics", msg.String())
	}
}
