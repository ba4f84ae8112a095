package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/euroexec/euroexec/internal/termtext"
	"github.com/euroexec/euroexec/metrics/planning"
	"github.com/euroexec/euroexec/outsafe"
	"github.com/euroexec/euroexec/pipeline"
	"github.com/euroexec/euroexec/report/csvout"
)

func planCmd(stdout, stderr io.Writer) *cobra.Command {
	opt := planning.DefaultPlanOptions()
	var out string
	var force bool
	c := &cobra.Command{
		Use:   "plan STUDY",
		Short: "Say how many questions (and graders per question) a study needs to separate adjacent models",
		Long: "plan uses a pilot study's variances (between questions, and between graders of the same response)\n" +
			"to compute, for each adjacent pair of models ordered by mean human rubric, the number of questions a\n" +
			"paired two-sided t-test at --alpha needs to reach --power, for each number of graders per question.\n" +
			"It generalises the paper's Figure 3 (p-value against sample size) to a new study.\n" +
			"-o FILE also writes the plan as CSV, built beside FILE and renamed over it when complete; FILE is\n" +
			"never inside STUDY, a symbolic link, pipe, socket or device, whatever --force says. -o - writes\n" +
			"the CSV to standard output instead of the table.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkPlanFlags(opt); err != nil {
				return err
			}
			toStdout := out == "-"
			if out != "" && !toStdout {
				// before any work: never a file of the study, a link or a
				// special file, never another file unless --force
				if err := outsafe.CheckFile(out, force, args[0]); err != nil {
					return err
				}
				unlock, err := outsafe.Lock(out)
				if err != nil {
					return err
				}
				defer unlock()
				for _, n := range outsafe.CleanStaleFiles(out) {
					fmt.Fprintln(stderr, "note:", n)
				}
			}
			t, err := pipeline.Plan(cmd.Context(), args[0], opt, func(n string) { fmt.Fprintln(stderr, "note:", n) })
			if err != nil {
				return reportProblems(stderr, err)
			}
			if toStdout {
				return csvout.WriteTable(stdout, t)
			}
			if out != "" {
				// written beside out and renamed over it when complete
				// mode 0644 less the umask, as every file euroexec writes
				f, err := os.OpenFile(outsafe.TempFileName(out), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
				if err != nil {
					return err
				}
				defer os.Remove(f.Name()) // a no-op once renamed
				if err := csvout.WriteTable(f, t); err != nil {
					f.Close()
					return err
				}
				if err := f.Close(); err != nil {
					return err
				}
				// the rule again at the swap: a file put there meanwhile
				// is kept
				if err := outsafe.CheckFile(out, force, args[0]); err != nil {
					return err
				}
				if err := outsafe.ReplaceFile(f.Name(), out); err != nil {
					return err
				}
			}
			tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
			var names []string
			for _, col := range t.Columns {
				names = append(names, termtext.Line(col.Name))
			}
			fmt.Fprintln(tw, strings.Join(names, "\t"))
			for _, row := range t.Rows {
				cells := make([]string, len(row))
				for i, v := range row {
					txt, _ := csvout.FormatValue(v)
					if f, ok := v.(float64); ok {
						txt = fmt.Sprintf("%.4g", f)
					}
					cells[i] = termtext.Line(txt)
				}
				fmt.Fprintln(tw, strings.Join(cells, "\t"))
			}
			return tw.Flush()
		},
	}
	f := c.Flags()
	f.Float64Var(&opt.Alpha, "alpha", opt.Alpha, "significance level of the paired two-sided t-test, "+rangeAlpha.String())
	f.Float64Var(&opt.Power, "power", opt.Power, "power to reach, "+rangePower.String())
	f.IntSliceVar(&opt.GradersPerQuestion, "graders", opt.GradersPerQuestion, fmt.Sprintf("graders per question to plan for: up to %d values, each %s", maxGraderDesigns, rangeGraders))
	f.StringVarP(&out, "out", "o", "", "also write the plan as CSV to this file, or only to standard output with -o - (never inside STUDY, never a link, pipe or device; an existing file only with --force)")
	f.BoolVar(&force, "force", false, "replace the -o file even when it exists")
	return c
}

// checkPlanFlags checks the numeric flags of plan against their documented
// ranges (flagrange.go).
func checkPlanFlags(opt planning.PlanOptions) error {
	if err := rangeAlpha.check(opt.Alpha); err != nil {
		return err
	}
	if err := rangePower.check(opt.Power); err != nil {
		return err
	}
	g := opt.GradersPerQuestion
	if len(g) == 0 || len(g) > maxGraderDesigns {
		return &usageError{fmt.Errorf("--graders: %d values: expected 1 to %d", len(g), maxGraderDesigns)}
	}
	for _, v := range g {
		if err := rangeGraders.check(int64(v)); err != nil {
			return err
		}
	}
	return nil
}
