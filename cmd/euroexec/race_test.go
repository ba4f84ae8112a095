package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/euroexec/euroexec/report/format"
)

// The three report writers run concurrently on one report and only read
// it. This test writes the bundled sample's report twice at once, so that
// `go test -race -run TestWriteReportConcurrent ./cmd/euroexec` (CI runs it,
// see .ci/run) checks the writers against each other and against a second
// writer of the same report; without -race it checks that both outputs are
// complete and equal.
func TestWriteReportConcurrent(t *testing.T) {
	var stdout, stderr bytes.Buffer
	rep, err := runStudy(context.Background(), &stdout, &stderr, "", runOptions{out: filepath.Join(t.TempDir(), "r"), quiet: true, now: fixedNow})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	dirs := []string{t.TempDir(), t.TempDir()}
	errs := make(chan error, len(dirs))
	for _, d := range dirs {
		go func() {
			_, err := writeReport(context.Background(), d, rep, nil, format.OrderRank)
			errs <- err
		}()
	}
	for range dirs {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"tables/summary.csv", "tables/reliability.csv", "report.xlsx", "site/index.html"} {
		a, errA := os.ReadFile(filepath.Join(dirs[0], name))
		b, errB := os.ReadFile(filepath.Join(dirs[1], name))
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v %v", name, errA, errB)
		}
		if len(a) == 0 {
			t.Errorf("%s is empty", name)
		}
		if name != "report.xlsx" && !bytes.Equal(a, b) {
			t.Errorf("%s differs between the two concurrent writes", name)
		}
	}
}
