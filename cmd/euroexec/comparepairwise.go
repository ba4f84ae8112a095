package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/euroexec/euroexec/internal/termtext"
	"github.com/euroexec/euroexec/metrics/compare"
	"github.com/euroexec/euroexec/report"
)

// printPairwiseFlagged prints the significant changes of compare_pairwise
// (win rates and Bradley–Terry ratings of the pairwise judgments, Holm
// across that table); nothing when the runs have no pairwise judgments in
// common.
func printPairwiseFlagged(w io.Writer, rep *report.Report) {
	t := rep.Table(compare.PairwiseTable)
	if t == nil {
		return
	}
	fmt.Fprintf(w, "\n%s — significant changes of the pairwise judgments (Holm across compare_pairwise)\n", termtext.Line(rep.Title))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "model\tmetric\tgraders\told\tnew\tdelta\t95% CI")
	g := func(row []any, name string) string {
		if f, ok := t.Get(row, name).(float64); ok {
			return fmt.Sprintf("%.4g", f)
		}
		return ""
	}
	n := 0
	for _, row := range t.Rows {
		if t.Get(row, "significant") != "yes" {
			continue
		}
		n++
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t[%s, %s]\n", termtext.Line(fmt.Sprint(t.Get(row, "model"))), fmt.Sprint(t.Get(row, "metric")),
			termtext.Line(fmt.Sprint(t.Get(row, "graders"))), g(row, "old"), g(row, "new"), g(row, "delta"), g(row, "delta_lo"), g(row, "delta_hi"))
	}
	tw.Flush()
	if n == 0 {
		fmt.Fprintln(w, "(none)")
	}
}
