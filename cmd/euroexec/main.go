// Command euroexec turns expert grading spreadsheets, model response dumps
// and LLM-judge outputs into the full analysis of a human evaluation study.
//
// Usage:
//
//	euroexec run [STUDY] [-o OUT]      the main job (bundled sample when STUDY is omitted)
//	euroexec validate STUDY            check everything, load nothing
//	euroexec ingest STUDY [--db FILE]  load the study into DuckDB
//	euroexec sample -o DIR [flags]     write a synthetic study
//	euroexec export SRC --parquet DIR  tables and views of the study database as Parquet
//	euroexec version
//
// Run `euroexec help COMMAND` for the flags of each command.
//
// Exit status: 0 success, 1 problems in the study (or another failure),
// 2 usage errors, 3 output refused, 70 internal error (a panic: a bug),
// 130 interrupted (SIGINT; 143 for SIGTERM).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/euroexec/euroexec/internal/crash"
	"github.com/euroexec/euroexec/internal/duckopen"
	"github.com/euroexec/euroexec/internal/termtext"
)

func main() {
	// The limits are read first, before the address space grows (see
	// duckopen.Compute). The Go soft limit is sized from them (GOMEMLIMIT
	// wins): a fixed small limit made the garbage collector run
	// continuously on large studies.
	lim := duckopen.Current()
	setMemoryLimit(os.Getenv, lim.GoMemory)
	if w := lim.Warning(); w != "" {
		fmt.Fprintln(os.Stderr, "euroexec: warning:", w)
	}
	ctx, stop := interruptible(context.Background())
	err := run(ctx, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	code := exitCode(ctx, err)
	if err != nil && err != errReported {
		fmt.Fprintln(os.Stderr, "euroexec:", termtext.Escape(err.Error()))
	}
	printCrash(os.Stderr, err)
	os.Exit(code)
}

// printCrash prints, for an error that is a recovered panic, its stack and
// a request to report it.
func printCrash(w io.Writer, err error) {
	var ce *crash.Error
	if !errors.As(err, &ce) {
		return
	}
	fmt.Fprintf(w, "euroexec %s: this is a bug of euroexec, not of your study; please report it with\nthe command line and this stack:\n%s", version, termtext.Escape(string(ce.Stack)))
}

// interruptible returns a context cancelled, with an *interrupted cause,
// by the first SIGINT or SIGTERM. After that first signal the default
// behaviour is restored, so a second Ctrl-C ends the process at once (the
// next run then removes what it left; see outsafe.CleanStale).
func interruptible(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			cancel(&interrupted{sig: s.(syscall.Signal)})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel(nil)
	}
}
