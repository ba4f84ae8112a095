// Package crash turns a panic into an error that says it is a bug, so
// that a crash is never mistaken for a mistake of the user (euroexec's
// exit status 2, a usage error) and a panic on a goroutine the pipeline
// starts reaches the command instead of ending the process.
package crash

import (
	"bytes"
	"fmt"
	"runtime/debug"
	"sync"
)

// maxStackLines bounds the stack an Error keeps: enough to locate the bug
// in a report, short enough to read on a terminal.
const maxStackLines = 40

// Error is a recovered panic: its value and the stack of the goroutine
// that panicked (cut to its first lines).
type Error struct {
	Value any
	Stack []byte
}

// Error is "internal error: panic: VALUE".
func (e *Error) Error() string {
	return fmt.Sprintf("internal error: panic: %v", e.Value)
}

// Unwrap gives the panic's value when it is an error (as a runtime error is).
func (e *Error) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// New is the Error of a recovered value v, with the current goroutine's
// stack; call it in the deferred function that recovered v. A v that is
// an *Error already (raised again by Relay) is returned as it is, with the
// stack of the goroutine that first panicked.
func New(v any) *Error {
	if e, ok := v.(*Error); ok {
		return e
	}
	return &Error{Value: v, Stack: shortStack(debug.Stack())}
}

// Relay carries a panic from worker goroutines to the goroutine that
// waits for them, where it can be recovered (a panic on a goroutine of its
// own ends the process). The zero Relay is ready to use.
type Relay struct {
	mu    sync.Mutex
	first *Error
}

// Catch, deferred directly in a worker (defer r.Catch()), recovers its
// panic and keeps the first of the workers'.
func (r *Relay) Catch() {
	if v := recover(); v != nil {
		e := New(v)
		r.mu.Lock()
		if r.first == nil {
			r.first = e
		}
		r.mu.Unlock()
	}
}

// Raise, called once the workers are done, panics with the first panic
// kept, as an *Error; it does nothing when no worker panicked.
func (r *Relay) Raise() {
	r.mu.Lock()
	e := r.first
	r.mu.Unlock()
	if e != nil {
		panic(e)
	}
}

// Recover, deferred directly (defer crash.Recover(&err)), turns a panic of
// the function into an *Error stored in *errp.
func Recover(errp *error) {
	if v := recover(); v != nil {
		*errp = New(v)
	}
}

// shortStack keeps the first maxStackLines lines of a stack.
func shortStack(s []byte) []byte {
	n := 0
	for i, c := range s {
		if c == '\n' {
			n++
			if n == maxStackLines {
				return append(bytes.Clone(s[:i+1]), "\t…\n"...)
			}
		}
	}
	return s
}
