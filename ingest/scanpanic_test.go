package ingest

import (
	"errors"
	"testing"

	"github.com/euroexec/euroexec/ingest/tabular"
	"github.com/euroexec/euroexec/internal/crash"
)

// panicReader is a reader whose Next panics, as a bug in a file reader
// would.
type panicReader struct{ closed bool }

func (r *panicReader) Sheet() tabular.Sheet { return tabular.Sheet{Header: []string{"a"}} }
func (r *panicReader) Next() ([]tabular.Cell, tabular.Loc, error) {
	panic("reader bug")
}
func (r *panicReader) NextSheet() bool         { return false }
func (r *panicReader) Digest() (string, error) { return "", nil }
func (r *panicReader) Close() error            { r.closed = true; return nil }

// TestScanPanicRaised: a panic in a reader on scan's goroutine does not end
// the process (exit status 2); it reaches the consumer as a *crash.Error
// event, the file is closed, the events channel is closed, and raiseCrash
// raises it on the consumer's goroutine (where the command turns it into
// exit status 70).
func TestScanPanicRaised(t *testing.T) {
	r := &panicReader{}
	events := make(chan scanEvent, 8)
	scan(r, events)
	var got error
	for ev := range events {
		if ev.err != nil {
			got = ev.err
		}
	}
	var ce *crash.Error
	if !errors.As(got, &ce) || ce.Error() != "internal error: panic: reader bug" {
		t.Fatalf("event error %v, want the reader's panic as a *crash.Error", got)
	}
	if !r.closed {
		t.Error("the reader was not closed")
	}
	defer func() {
		v := recover()
		if e, ok := v.(*crash.Error); !ok || e != ce {
			t.Errorf("raiseCrash panicked with %v, want the *crash.Error", v)
		}
	}()
	raiseCrash(errors.New("a plain error")) // not a crash: returns
	raiseCrash(got)
	t.Error("raiseCrash returned on a crash")
}
