// Package workers is euroexec's one worker pool: n items spread over up to
// runtime.GOMAXPROCS(0) goroutines of an errgroup, each worker taking the
// next item from a shared counter, with its own state (scratch space, a
// generator) made once on its goroutine. A worker's panic is raised again
// on the caller's goroutine (internal/crash), so a bug is reported as one
// instead of ending the process; the first error, or ctx's end, stops the
// items not yet begun.
//
// The pool decides only which goroutine runs an item, never what the item
// computes: a caller whose item i depends on i alone (the bootstrap's
// replicate r on (seed, r)) gets the same result on any number of cores.
package workers

import (
	"context"
	"runtime"
	"sync/atomic"

	"github.com/euroexec/euroexec/internal/crash"
	"golang.org/x/sync/errgroup"
)

// Run calls item(i) for every i in 0 … n−1 on up to GOMAXPROCS workers.
// newWorker is called once per worker, on its goroutine, and returns that
// worker's item function (which may keep state between its items). Run
// returns the first error an item returns, or ctx's error when ctx ends
// first; the items not yet begun are then skipped. n ≤ 0 does nothing.
func Run(ctx context.Context, n int, newWorker func() func(i int) error) error {
	if n <= 0 {
		return ctx.Err()
	}
	g, gctx := errgroup.WithContext(ctx)
	var next atomic.Int64
	var relay crash.Relay // a worker's panic is raised again below
	for range min(runtime.GOMAXPROCS(0), n) {
		g.Go(func() error {
			defer relay.Catch()
			item := newWorker()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return nil
				}
				if err := gctx.Err(); err != nil {
					return err
				}
				if err := item(i); err != nil {
					return err
				}
			}
		})
	}
	err := g.Wait()
	relay.Raise()
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// Each is Run with a stateless item function.
func Each(ctx context.Context, n int, item func(i int) error) error {
	return Run(ctx, n, func() func(int) error { return item })
}
