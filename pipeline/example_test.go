package pipeline_test

import (
	"context"
	"fmt"
	"os"

	"github.com/euroexec/euroexec/pipeline"
	"github.com/euroexec/euroexec/report/findings"
	"github.com/euroexec/euroexec/sample"
)

// Run the whole analysis of the bundled sample study from Go and print the
// headline ranking (the summary table's human rows on all questions).
func ExampleRun() {
	dir, err := os.MkdirTemp("", "sample-*")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, sample.Sample()); err != nil {
		fmt.Println(err)
		return
	}
	res, err := pipeline.Run(context.Background(), dir, pipeline.DefaultOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range findings.Ranking(res.Report) {
		fmt.Printf("%d %s %.1f%% group %s\n", m.Rank, m.ID, 100*m.SolveRate, m.Group)
	}
	// Output:
	// 1 atlas-5 64.3% group a
	// 2 borealis-2.5-pro 50.8% group ab
	// 3 cirrus-large-3 42.1% group bc
	// 4 dorado-4o 28.6% group cd
	// 5 ember-3.1 21.4% group d
	// 6 fjord-1.5-flash 8.7% group e
}
