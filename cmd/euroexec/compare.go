package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/internal/termtext"
	"github.com/euroexec/euroexec/metrics/compare"
	"github.com/euroexec/euroexec/outsafe"
	"github.com/euroexec/euroexec/pipeline"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/findings"
	"github.com/euroexec/euroexec/report/format"
	"github.com/euroexec/euroexec/report/site"
)

// compareOptions are the flags of `euroexec compare`.
type compareOptions struct {
	out       string
	maps      []string
	margins   []string
	bootstrap int
	seed      int64
	quiet     bool
	force     bool
	labels    string
	now       func() time.Time
	// store (--store): the runs are runs of this Parquet store, by name.
	store string
}

func compareCmd(stdout, stderr io.Writer) *cobra.Command {
	o := compareOptions{now: time.Now}
	c := &cobra.Command{
		Use:   "compare OLD NEW [RUN…] | compare --store DIR OLD NEW [RUN…]",
		Short: "Compare two runs of a study (or k ≥ 3 runs as a trend): what changed, and is it real",
		Long: "compare matches models (by name, or --map old=new), questions (by question_id) and evaluators and\n" +
			"judges (by name) between runs, and writes OUT/tables/compare_*.csv and judge_drift.csv,\n" +
			"OUT/report.xlsx and OUT/site/: each model's change of Solve Rate, rubric, checklist rate,\n" +
			"average rank and win rate with a cluster-robust t interval over questions (paired where shared),\n" +
			"flagged when significant after Holm across the table; the questions that regressed; judges\n" +
			"that score the same responses differently; rank flips; with three runs or more, the trend.\n" +
			"Each run is a report folder of `euroexec run` (its study.duckdb is read) or a study folder\n" +
			"(ingested into a temporary database first); with --store DIR, each is the name of a run of the\n" +
			"Parquet store DIR (export --partition-by run, append), read where it lies. With k ≥ 3 runs the pairwise tables compare the\n" +
			"first with the last. Replicates and seed default to the first run's study.toml [analysis].\n" +
			"The report is written to a temporary folder beside OUT and moved into place when complete. OUT is\n" +
			"replaced only when it does not exist, is empty or holds a report euroexec wrote (its\n" +
			outsafe.ReportMarker + " file), unless --force; never when it is, holds or lies inside one of the runs.\n" + outRule,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkCompareFlags(cmd.Flags().Changed, o); err != nil {
				return err
			}
			return runCompare(cmd.Context(), stdout, stderr, args, o)
		},
	}
	f := c.Flags()
	f.StringVarP(&o.out, "out", "o", "euroexec-compare", "output folder")
	f.StringArrayVar(&o.maps, "map", nil, "rename a model before matching, in every run: --map old=new, old a model name or display name (repeatable)")
	f.StringArrayVar(&o.margins, "margin", nil, "non-inferiority margin: 2pp for every rate metric, or METRIC=V (rubric=0.1, avg_rank=0.2, solve_rate=5pp); repeatable")
	f.IntVar(&o.bootstrap, "bootstrap", -1, "bootstrap replicates, "+rangeBootstrap.String()+" (default: the first run's analysis.bootstrap, 2000 unless set)")
	f.Int64Var(&o.seed, "seed", -1, "bootstrap seed, "+rangeCompareSeed.String()+" (default: the first run's analysis.seed, 1 unless set)")
	f.StringVar(&o.labels, "labels", "", "names of the runs in the report, comma-separated, one per run: --labels old,new (default: the folder names)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print no summary, only problems")
	f.BoolVar(&o.force, "force", false, "replace OUT even when it holds files euroexec did not write")
	f.StringVar(&o.store, "store", "", "compare runs of the Parquet store DIR: OLD, NEW, … are run names")
	return c
}

// runCompare is `euroexec compare`.
func runCompare(ctx context.Context, stdout, stderr io.Writer, args []string, o compareOptions) error {
	start := o.now()
	labels, err := parseLabels(o.labels, len(args))
	if err != nil {
		return &usageError{err}
	}
	maps := map[string]string{}
	for _, m := range o.maps {
		old, new, ok := strings.Cut(m, "=")
		old, new = strings.TrimSpace(old), strings.TrimSpace(new)
		if !ok || old == "" || new == "" {
			return &usageError{fmt.Errorf("--map %q: expected old=new (two model names)", m)}
		}
		if prev, dup := maps[old]; dup && prev != new {
			return &usageError{fmt.Errorf("--map %q: model %q is already mapped to %q", m, old, prev)}
		}
		maps[old] = new
	}
	var margins map[string]float64
	if len(o.margins) > 0 {
		if margins, err = compare.ParseMargins(o.margins, "--margin"); err != nil {
			return &usageError{err}
		}
	}
	// Refuse an output folder that is not ours, or is one of the runs,
	// before any work.
	protected := args
	if o.store != "" {
		protected = []string{o.store}
	}
	if err := outsafe.CheckFolder(o.out, outsafe.ReportMarker, o.force, protected...); err != nil {
		return err
	}
	out, err := filepath.Abs(o.out)
	if err != nil {
		return err
	}
	res, err := pipeline.Compare(ctx, args, pipeline.CompareOptions{Store: o.store, Labels: labels, Map: maps, MapFlags: o.maps,
		Margins: margins, Bootstrap: o.bootstrap, Seed: o.seed, Version: version, Now: start,
		Note:  func(n string) { fmt.Fprintln(stderr, "note:", n) },
		Pages: runPages})
	if err != nil {
		var pe *ingest.ProblemsError
		if errors.As(err, &pe) {
			return reportProblems(stderr, err)
		}
		var se *pipeline.SettingError
		if errors.As(err, &se) {
			return &usageError{err}
		}
		return err
	}
	sites := map[string]string{} // the runs' sites the comparison carries
	for i, dir := range res.Sites {
		sites[runSiteDir(i)] = filepath.Join(dir, "site")
	}
	rep := res.Report
	swarn, err := writeCompareReport(ctx, out, rep, strings.Join(args, ", "), sites)
	if err != nil {
		return err
	}
	if o.quiet {
		return nil
	}
	printWarnings(stderr, append(rep.Warnings, swarn...))
	printFlagged(stdout, rep)
	printPairwiseFlagged(stdout, rep)
	fmt.Fprintf(stdout, "\ncomparison written to %s (site: %s, workbook: %s) in %.1fs\n", o.out,
		filepath.Join(o.out, "site", "index.html"), filepath.Join(o.out, "report.xlsx"), time.Since(start).Seconds())
	return nil
}

// runPages returns the links to the question pages of run i, a report
// folder at dir with a site, as the comparison's site carries that site
// (runSiteDir). Above [site] question_pages a report has pages for some
// questions only: only pages that are there are linked.
func runPages(i int, dir string) func(string) string {
	base := runSiteDir(i) + "/"
	pages := map[string]bool{}
	if ents, err := os.ReadDir(filepath.Join(dir, "site", "questions")); err == nil {
		for _, e := range ents {
			pages["questions/"+e.Name()] = true
		}
	}
	return func(id string) string {
		if f := site.QuestionFile(id); pages[f] {
			return base + f
		}
		return ""
	}
}

// writeCompareReport writes rep's tables, workbook and site into a
// temporary folder beside out and moves it over out when complete, under
// the output rules of `euroexec run` (marker, lock, stale temporary
// folders, fsync; out was checked by outsafe.CheckFolder). sites are the
// runs' sites the comparison's site carries (copySites).
func writeCompareReport(ctx context.Context, out string, rep *report.Report, runs string, sites map[string]string) ([]string, error) {
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("create output folder: %w", err)
	}
	unlock, err := outsafe.Lock(out)
	if err != nil {
		return nil, err
	}
	defer unlock()
	outsafe.CleanStale(parent, outsafe.ReportMarker)
	tmp, err := outsafe.TempDir(out, outsafe.ReportMarker, outsafe.Marker(version, "compare: "+runs, time.Now()))
	if err != nil {
		return nil, fmt.Errorf("create output folder: %w", err)
	}
	defer os.RemoveAll(tmp) // a no-op once moved into place
	swarn, err := writeReport(ctx, tmp, rep, nil, format.OrderRank)
	if err != nil {
		return nil, err
	}
	if err := copySites(filepath.Join(tmp, "site"), sites); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return swarn, outsafe.Replace(tmp, out)
}

// printFlagged prints what changed: the flagged changes of
// compare_models (findings.WhatChanged, the rows the workbook's first
// sheet and the site's index show), with their sizes and intervals in the
// metric's units.
func printFlagged(w io.Writer, rep *report.Report) {
	cs := findings.WhatChanged(rep)
	if !cs.Found {
		return
	}
	fmt.Fprintf(w, "\nWhat changed: %s → %s — %d of %d changes significant (Holm across the table)\n",
		termtext.Line(cs.Old), termtext.Line(cs.New), len(cs.Flagged), cs.Tests)
	if len(cs.Flagged) == 0 {
		fmt.Fprintln(w, "(none)")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "model\tmetric\tgraders\t"+termtext.Line(cs.Old)+"\t"+termtext.Line(cs.New)+"\tchange [95% interval]\t")
	for _, c := range cs.Flagged {
		word := "better"
		if !c.Better {
			word = "worse"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", termtext.Line(c.Name), findings.MetricLabel(c.Metric), termtext.Line(c.Who()),
			c.ValueText(c.Old), c.ValueText(c.New), c.DeltaText(), word)
	}
	tw.Flush()
}

// parseLabels splits --labels into one label per run (nil when not
// given): as many as runs, none empty, no two alike.
func parseLabels(s string, runs int) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	ls := strings.Split(s, ",")
	if len(ls) != runs {
		return nil, fmt.Errorf("--labels %q: %d labels for %d runs; give one per run, comma-separated", s, len(ls), runs)
	}
	seen := map[string]bool{}
	for i, l := range ls {
		l = strings.TrimSpace(l)
		if l == "" {
			return nil, fmt.Errorf("--labels %q: label %d is empty", s, i+1)
		}
		if seen[l] {
			return nil, fmt.Errorf("--labels %q: label %q is given twice", s, l)
		}
		seen[l] = true
		ls[i] = l
	}
	return ls, nil
}

// checkCompareFlags checks the numeric flags of compare that were given
// (changed reports which) against their documented ranges (flagrange.go);
// unset, they come from the first run's study.toml.
func checkCompareFlags(changed func(string) bool, o compareOptions) error {
	if changed("bootstrap") {
		if err := rangeBootstrap.check(int64(o.bootstrap)); err != nil {
			return err
		}
	}
	if changed("seed") {
		return rangeCompareSeed.check(o.seed)
	}
	return nil
}
