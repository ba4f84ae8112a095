package pipeline

import (
	"context"
	"fmt"
	"os"
	"testing"
)

func TestZZDump(t *testing.T) {
	out := os.Getenv("DUMP")
	if out == "" {
		t.Skip()
	}
	res, err := Run(context.Background(), sample(t), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	b := []byte(fmt.Sprintf("%+v\n%#v\n%#v\n", deref(res.Report.Figures), res.Report.Notes, res.Report.Warnings))
	os.WriteFile(out, b, 0o644)
}

func deref[T any](xs []*T) []T {
	var out []T
	for _, x := range xs {
		out = append(out, *x)
	}
	return out
}
