package stats

import (
	"context"
	"errors"
	"math"
	"sync/atomic"
	"testing"
)

func TestClusterBootstrapContext(t *testing.T) {
	stat := func(idx []int, out []float64) {
		s := 0
		for _, i := range idx {
			s += i
		}
		out[0] = float64(s)
	}
	want := ClusterBootstrap(50, 200, 7, 1, stat)
	got, err := ClusterBootstrapContext(context.Background(), 50, 200, 7, 1, stat)
	if err != nil {
		t.Fatal(err)
	}
	for r := range want {
		if math.Float64bits(got[r][0]) != math.Float64bits(want[r][0]) {
			t.Fatalf("replicate %d: got %v, want %v (as ClusterBootstrap)", r, got[r][0], want[r][0])
		}
	}
	// Cancelled after 10 replicates: the rest are never drawn.
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	_, err = ClusterBootstrapContext(ctx, 50, 2000, 7, 1, func(idx []int, out []float64) {
		if calls.Add(1) == 10 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	if n := calls.Load(); n >= 2000 {
		t.Errorf("%d of 2000 replicates ran after the cancel at 10", n)
	}
}
