package csvout_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/csvout"
)

func ExampleWrite() {
	r := &report.Report{Tables: []*report.Table{{
		Name:    "summary",
		Columns: []report.Column{{Name: "model", Kind: report.Text}, {Name: "solve_rate", Kind: report.Fraction}},
		Rows:    [][]any{{"alpha", 470.0 / 826.0}, {"beta", nil}},
	}}}
	dir, _ := os.MkdirTemp("", "csvout")
	defer os.RemoveAll(dir)
	if err := csvout.Write(context.Background(), dir, r, csvout.DefaultOptions); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(filepath.Join(dir, "tables", "summary.csv"))
	fmt.Print(string(b))
	// Output:
	// model,solve_rate
	// alpha,0.5690072639225182
	// beta,
}
