package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"time"

	"github.com/spf13/cobra"
)

// profiles are the hidden --cpuprofile, --memprofile and --trace flags of
// every command: pprof profiles of the whole command, for `go tool pprof`,
// and an execution trace (every goroutine's timeline), for `go tool trace`.
type profiles struct {
	cpu, mem, trace string
	cpuFile         *os.File
	traceFile       *os.File
	// the heap watcher: every second it takes a heap profile when the live
	// heap is the largest seen, so that --memprofile shows the peak
	stopWatch chan struct{}
	watchDone sync.WaitGroup
	peak      []byte
	peakHeap  uint64
}

// flags adds the hidden flags to root (inherited by every command).
func (p *profiles) flags(root *cobra.Command) {
	f := root.PersistentFlags()
	f.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile of the command to this file")
	f.StringVar(&p.mem, "memprofile", "", "write a heap profile (all allocations, and live memory at the largest live heap seen, sampled every second) to this file")
	f.StringVar(&p.trace, "trace", "", "write an execution trace of the command (goroutines, GC, system calls) to this file, for go tool trace")
	_ = f.MarkHidden("cpuprofile")
	_ = f.MarkHidden("memprofile")
	_ = f.MarkHidden("trace")
}

// start starts the CPU profile, the execution trace and the heap watcher
// when asked for.
func (p *profiles) start() error {
	if p.trace != "" {
		f, err := os.Create(p.trace)
		if err != nil {
			return fmt.Errorf("trace: %w", err)
		}
		if err := trace.Start(f); err != nil {
			f.Close()
			return fmt.Errorf("trace: %w", err)
		}
		p.traceFile = f
	}
	if p.mem != "" {
		p.stopWatch = make(chan struct{})
		p.watchDone.Add(1)
		go p.watch()
	}
	if p.cpu == "" {
		return nil
	}
	f, err := os.Create(p.cpu)
	if err != nil {
		return fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("cpu profile: %w", err)
	}
	p.cpuFile = f
	return nil
}

// stop ends the CPU profile and the trace and writes the heap profile,
// when asked for.
func (p *profiles) stop() error {
	var err error
	if p.traceFile != nil {
		trace.Stop()
		if cerr := p.traceFile.Close(); cerr != nil {
			err = fmt.Errorf("trace: %w", cerr)
		}
		p.traceFile = nil
	}
	if p.cpuFile != nil {
		pprof.StopCPUProfile()
		if cerr := p.cpuFile.Close(); cerr != nil {
			err = fmt.Errorf("cpu profile: %w", cerr)
		}
		p.cpuFile = nil
	}
	if p.stopWatch != nil {
		close(p.stopWatch)
		p.watchDone.Wait()
		p.stopWatch = nil
		p.snapshot()
		if werr := os.WriteFile(p.mem, p.peak, 0o644); werr != nil && err == nil {
			err = fmt.Errorf("memory profile: %w", werr)
		}
	}
	return err
}

// watch takes a snapshot every second until stopWatch is closed.
func (p *profiles) watch() {
	defer p.watchDone.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.stopWatch:
			return
		case <-t.C:
			p.snapshot()
		}
	}
}

// snapshot keeps a heap profile when the live heap is the largest seen.
func (p *profiles) snapshot() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc <= p.peakHeap && p.peak != nil {
		return
	}
	var b bytes.Buffer
	if pprof.Lookup("allocs").WriteTo(&b, 0) == nil {
		p.peak, p.peakHeap = b.Bytes(), ms.HeapAlloc
	}
}
