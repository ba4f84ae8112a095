package workers

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

func TestRunEveryItemOnce(t *testing.T) {
	for _, procs := range []int{1, 2, 5} {
		prev := runtime.GOMAXPROCS(procs)
		const n = 1000
		var seen [n]atomic.Int32
		var made atomic.Int32
		err := Run(context.Background(), n, func() func(int) error {
			made.Add(1)
			return func(i int) error { seen[i].Add(1); return nil }
		})
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("GOMAXPROCS %d: item %d ran %d times", procs, i, c)
			}
		}
		if m := made.Load(); m < 1 || int(m) > procs {
			t.Errorf("GOMAXPROCS %d: %d workers made", procs, m)
		}
	}
}

func TestRunStops(t *testing.T) {
	boom := errors.New("boom")
	var ran atomic.Int32
	err := Each(context.Background(), 100000, func(i int) error {
		ran.Add(1)
		if i == 10 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
	if ran.Load() == 100000 {
		t.Error("every item ran after an error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Each(ctx, 10, func(int) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v", err)
	}
	if err := Each(context.Background(), 0, func(int) error { t.Error("item ran"); return nil }); err != nil {
		t.Error(err)
	}
}

// TestRunRaisesPanic: a worker's panic reaches the caller's goroutine as a
// crash.Error that names it.
func TestRunRaisesPanic(t *testing.T) {
	defer func() {
		v := recover()
		if v == nil {
			t.Fatal("no panic raised")
		}
		if e, ok := v.(error); !ok || !strings.Contains(e.Error(), "index 7") {
			t.Errorf("panic %v", v)
		}
	}()
	_ = Each(context.Background(), 20, func(i int) error {
		if i == 7 {
			panic("index 7")
		}
		return nil
	})
}
