package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/euroexec/euroexec/pipeline"
	"github.com/euroexec/euroexec/report/csvout"
	"github.com/euroexec/euroexec/sample"
)

// TestPipelineSameAsCLI runs `euroexec run` on the bundled sample and
// pipeline.Run from Go on the same study, and checks that the Go caller's
// summary, rankings and judge tables are byte for byte what the CLI wrote.
func TestPipelineSameAsCLI(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	code, _, se, err := cli(context.Background(), "run", "-q", "-o", out)
	if err != nil || code != exitOK {
		t.Fatalf("run: exit %d, %v\n%s", code, err, se)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, sample.Sample()); err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Run(context.Background(), dir, pipeline.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"summary", "rankings", "judge_vs_human", "judge_calibration"} {
		tab := res.Report.Table(name)
		if tab == nil {
			t.Errorf("pipeline: no table %s", name)
			continue
		}
		var got bytes.Buffer
		if err := csvout.WriteTable(&got, tab); err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(out, "tables", name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: the Go caller's table differs from the CLI's\ngot:\n%s\nwant:\n%s", name, got.Bytes(), want)
		}
	}
}
