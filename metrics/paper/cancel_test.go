package paper

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func TestAnalyzeCancelled(t *testing.T) {
	s := synthStudy(40, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := present(ctx, s, DefaultOptions()); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	// Cancelled inside a stage: the stage stops and Analyze says so.
	for _, stage := range []string{"summary", "significance", "text metrics", "questions"} {
		ctx, cancel := context.WithCancel(context.Background())
		o := DefaultOptions()
		o.Progress = func(name string, _, _ int) {
			if name == stage {
				cancel()
			}
		}
		r, err := present(ctx, s, o)
		if !errors.Is(err, context.Canceled) || r != nil {
			t.Errorf("cancelled at %s: got %v, %v; want nil, context.Canceled", stage, r != nil, err)
		}
	}
}

// BenchmarkCancelLatency5k measures, for each stage of Analyze on a
// 5,000-question study, the time from cancelling the context (50 ms into
// the stage) to Analyze's return (metric ms-to-return, worst stage also as
// ms-worst).
func BenchmarkCancelLatency5k(b *testing.B) {
	s := synthStudy(5000, 1)
	stages := []string{"overview", "summary", "dataset", "rubric", "significance", "checklist", "consistency",
		"evaluators", "judges", "cost", "text metrics", "questions"}
	for range b.N {
		var worst time.Duration
		for _, stage := range stages {
			ctx, cancel := context.WithCancel(context.Background())
			var mu sync.Mutex
			var sent time.Time
			o := DefaultOptions()
			o.Progress = func(name string, _, _ int) {
				if name == stage {
					go func() {
						time.Sleep(50 * time.Millisecond)
						mu.Lock()
						sent = time.Now()
						mu.Unlock()
						cancel()
					}()
				}
			}
			_, err := present(ctx, s, o)
			end := time.Now()
			mu.Lock()
			at := sent
			mu.Unlock()
			if at.IsZero() {
				b.Logf("%-13s finished before the cancel", stage)
				cancel()
				continue
			}
			if !errors.Is(err, context.Canceled) {
				b.Fatalf("%s: got %v, want context.Canceled", stage, err)
			}
			d := end.Sub(at)
			worst = max(worst, d)
			b.Logf("%-13s %v", stage, d.Round(time.Millisecond))
		}
		b.ReportMetric(float64(worst.Milliseconds()), "ms-worst")
	}
}
