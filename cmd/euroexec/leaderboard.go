package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/euroexec/euroexec/internal/termtext"
	"github.com/euroexec/euroexec/report/findings"
)

// printLeaderboard prints the leaderboard (findings.Leaderboard): rank
// with its interval, model, the metric with its interval, group, n and
// cost when known, best first whatever --order says; nothing when the
// study defines no score per model.
func printLeaderboard(w io.Writer, b findings.Board) {
	if len(b.Rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\nLeaderboard — %s\n", termtext.Line(b.Caption()))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"rank", "model", b.Metric + " [95% interval]"}
	if b.HasGroup {
		head = append(head, "group")
	}
	head = append(head, "n")
	if b.HasCost {
		head = append(head, "cost")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, l := range b.Rows {
		cells := []string{l.RankText(), termtext.Line(l.Name), b.ValueText(l)}
		if b.HasGroup {
			cells = append(cells, l.Group)
		}
		cells = append(cells, fmt.Sprint(l.N))
		if b.HasCost {
			cells = append(cells, l.CostText())
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
	fmt.Fprintln(w, b.Legend())
}
