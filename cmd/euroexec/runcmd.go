package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/euroexec/euroexec/internal/crash"
	"github.com/euroexec/euroexec/internal/duckopen"
	"github.com/euroexec/euroexec/internal/termtext"
	"github.com/euroexec/euroexec/outsafe"
	"github.com/euroexec/euroexec/pipeline"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/csvout"
	"github.com/euroexec/euroexec/report/findings"
	"github.com/euroexec/euroexec/report/format"
	"github.com/euroexec/euroexec/report/site"
	"github.com/euroexec/euroexec/report/xlsx"
	"github.com/euroexec/euroexec/sample"
)

// runOptions are the flags of `euroexec run`.
type runOptions struct {
	out        string
	quiet      bool
	noWarnings bool
	force      bool
	allowEmpty bool
	now        func() time.Time
	// hook, when set (tests), is called with the name of each stage and of
	// each analysis stage as it starts.
	hook  func(stage string)
	stats bool         // print wall time, CPU time and peak RSS per stage
	order format.Order // --order: the models in the terminal summary and the site's tables
	// storeDir and storeRun (--store, --run): analyse a run of a Parquet
	// store where it lies instead of a study folder.
	storeDir, storeRun string
}

func runCmd(stdout, stderr io.Writer) *cobra.Command {
	o := runOptions{now: time.Now, order: format.OrderRank}
	c := &cobra.Command{
		Use:   "run [STUDY]",
		Short: "Ingest a study, analyse it and write the report (bundled sample when STUDY is omitted)",
		Long: "run is the main job: it validates and loads the study folder into DuckDB, computes every table\n" +
			"and figure of the analysis, and writes OUT/tables/*.csv, OUT/report.xlsx, OUT/site/ and\n" +
			"OUT/study.duckdb. Without STUDY it runs on the sample study bundled in the binary.\n" +
			"The report is written to a temporary folder beside OUT and moved into place only when\n" +
			"complete, so a failed or interrupted run (Ctrl-C) leaves the previous report as it was.\n" +
			"OUT is replaced only when it does not exist, is empty or holds a report of euroexec (marked by\n" +
			"its " + outsafe.ReportMarker + " file), unless --force; never when it is, holds or lies inside\n" +
			"the study folder. A second run into the same OUT fails at once while one is running.\n" +
			outRule + "\n\n" + exitHelp,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			study := ""
			if len(args) == 1 {
				study = args[0]
			}
			if o.storeDir != "" && study != "" {
				return &usageError{fmt.Errorf("run: give a STUDY folder or --store DIR, not both")}
			}
			if o.storeRun != "" && o.storeDir == "" {
				return &usageError{fmt.Errorf("run: --run names a run of a store; it needs --store DIR")}
			}
			_, err := runStudy(cmd.Context(), stdout, stderr, study, o)
			return err
		},
	}
	c.Flags().StringVarP(&o.out, "out", "o", "euroexec-report", "output folder")
	c.Flags().BoolVarP(&o.quiet, "quiet", "q", false, "print no progress or summary (warnings and problems still)")
	c.Flags().BoolVar(&o.noWarnings, "no-warnings", false, "do not print warnings (they stay in the report's Notes)")
	c.Flags().BoolVar(&o.force, "force", false, "replace OUT even when it holds files euroexec did not write")
	c.Flags().BoolVar(&o.allowEmpty, "allow-empty", false, allowEmptyHelp)
	c.Flags().Var(&o.order, "order", "order of the models in the terminal summary and the site's tables: rank or primary (by the primary metric: Solve Rate unless [report] primary says otherwise) or alpha (by name); the place # is shown either way")
	c.Flags().StringVar(&o.storeDir, "store", "", "analyse a run of the Parquet store DIR (export --partition-by) where it lies, without loading it into a database")
	c.Flags().StringVar(&o.storeRun, "run", "", "with --store: the run to analyse (default: the store's only run)")
	c.Flags().BoolVar(&o.stats, "stats", false, "print wall time, CPU time and peak memory (RSS) of every stage to stderr")
	return c
}

// runStudy is `euroexec run`; it returns the report it wrote.
func runStudy(ctx context.Context, stdout, stderr io.Writer, study string, o runOptions) (rep *report.Report, err error) {
	start := o.now()
	defer func() {
		if err != nil && ctx.Err() != nil {
			err = fmt.Errorf("%w; the previous report, if any, is unchanged", context.Cause(ctx))
		}
	}()
	out, err := filepath.Abs(o.out)
	if err != nil {
		return nil, err
	}
	protected := []string{study}
	if o.storeDir != "" {
		protected = []string{o.storeDir}
	}
	if err := outsafe.CheckFolder(o.out, outsafe.ReportMarker, o.force, protected...); err != nil {
		return nil, err
	}
	studyPath := "(the bundled sample)"
	if o.storeDir != "" {
		if studyPath, err = filepath.Abs(o.storeDir); err != nil {
			return nil, err
		}
	} else if study == "" {
		for _, n := range outsafe.CleanScratch() {
			fmt.Fprintln(stderr, "note:", n)
		}
		tmp, err := outsafe.ScratchDir("sample")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		if err := os.CopyFS(tmp, sample.Sample()); err != nil {
			return nil, fmt.Errorf("unpack the bundled sample study: %w", err)
		}
		study = tmp
		if !o.quiet {
			fmt.Fprintln(stderr, "no study given: running on the bundled sample study")
		}
	} else if studyPath, err = filepath.Abs(study); err != nil {
		return nil, err
	}
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("create output folder: %w", err)
	}
	unlock, err := outsafe.Lock(out)
	if err != nil {
		return nil, err
	}
	defer unlock()
	for _, n := range outsafe.CleanStale(parent, outsafe.ReportMarker) {
		fmt.Fprintln(stderr, "note:", n)
	}
	tmp, err := outsafe.TempDir(out, outsafe.ReportMarker, outsafe.Marker(version, studyPath, start))
	if err != nil {
		return nil, err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	warn := func(ws []string) {
		if !o.noWarnings {
			printWarnings(stderr, ws)
		}
	}

	stage := newStages(stderr, o.quiet)
	if o.stats {
		clock := newStageClock(time.Now)
		fmt.Fprintln(stderr, limitsLine(duckopen.Current(), os.Getenv))
		defer clock.write(stderr)
		show := stage
		stage = func(name string, n int) {
			clock.next(name)
			show(name, n)
		}
		defer clock.next("")
	}
	if o.hook != nil {
		show := stage
		stage = func(name string, n int) { o.hook(name); show(name, n) }
	}
	var bar *progressbar.ProgressBar
	popt := pipeline.Options{DB: filepath.Join(tmp, "study.duckdb"), AllowEmpty: o.allowEmpty,
		Now: func() time.Time { return start }, Version: version}
	popt.GCPercent = gcPercent(os.Getenv)
	popt.Stage = func(name string) {
		if name == pipeline.StageBeyond && bar != nil {
			bar.Finish() // the paper's analysis is done
			bar = nil
		}
		stage(name, 0)
	}
	if !o.quiet {
		popt.LoadProgress = bytesBar(stderr, "load")
	}
	if !o.quiet && isTerminal(stderr) {
		popt.Progress = func(name string, i, n int) {
			if bar == nil {
				bar = progressbar.NewOptions(n, progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription("analyse"),
					progressbar.OptionClearOnFinish(), progressbar.OptionShowCount())
			}
			bar.Describe("analyse: " + name)
			bar.Set(i)
		}
		var once sync.Once
		var tbar *progressbar.ProgressBar
		popt.TextProgress = func(done, total int) {
			if total < 300 {
				return // a few hundred pairs take well under a second
			}
			once.Do(func() {
				tbar = progressbar.NewOptions(total, progressbar.OptionSetWriter(stderr),
					progressbar.OptionSetDescription("ROUGE and BLEU"), progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
			})
			tbar.Add(1)
		}
	}
	if o.hook != nil {
		progress := popt.Progress
		popt.Progress = func(name string, i, n int) {
			o.hook("analyse: " + name)
			if progress != nil {
				progress(name, i, n)
			}
		}
	}
	var res *pipeline.Result
	if o.storeDir != "" {
		res, err = pipeline.RunStore(ctx, o.storeDir, o.storeRun, popt)
	} else {
		res, err = pipeline.Run(ctx, study, popt)
	}
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return nil, reportProblems(stderr, err)
	}
	rep = res.Report
	res = nil
	// The study and the analyses' intermediates are garbage now; the
	// writers need only the report. Collect them and give their memory
	// back before the writers start, so that the writers' allocations
	// reuse it instead of growing the process (the peak of a large study
	// was in this stage, with the heap goal still set by the analyses).
	// A small study skips it: its forced collection and the page faults
	// after it cost more time than the little memory it frees.
	if heapInUse() >= freeBeforeWritingBytes {
		debug.FreeOSMemory()
	}

	stage("write tables, workbook and site", 0)
	swarn, err := writeReport(ctx, tmp, rep, o.hook, o.order)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := outsafe.Replace(tmp, out); err != nil {
		return nil, err
	}
	done = true
	stage("", 0)
	warn(append(rep.Warnings, swarn...))
	if o.quiet {
		return rep, nil
	}
	printSummary(stdout, rep, o.order)
	fmt.Fprintf(stdout, "\nreport written to %s (site: %s, workbook: %s) in %.1fs\n", o.out,
		filepath.Join(o.out, "site", "index.html"), filepath.Join(o.out, "report.xlsx"), time.Since(start).Seconds())
	return rep, nil
}

// freeBeforeWritingBytes is the heap in use from which runStudy returns
// the analyses' memory to the system before writing the report: 256 MiB,
// about 4,000 questions of `euroexec sample` (the 1,000-question run
// holds under 100 MiB there).
const freeBeforeWritingBytes = 256 << 20

// heapInUse returns the bytes in in-use heap spans (live objects and
// garbage not yet swept), from runtime/metrics.
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	metrics.Read(s)
	var n uint64
	for _, x := range s {
		if x.Value.Kind() == metrics.KindUint64 {
			n += x.Value.Uint64()
		}
	}
	return n
}

// writeReport writes the CSV tables, the workbook and the site of rep into
// dir concurrently (the writers only read rep), and returns the site's
// warnings; the errors of all three are joined, in that order.
func writeReport(ctx context.Context, dir string, rep *report.Report, hook func(stage string), order format.Order) ([]string, error) {
	if hook != nil {
		// the writers' stages start together (tests arm cancellation here)
		for _, s := range []string{"write tables", "write workbook", "write site"} {
			hook(s)
		}
	}
	var wg sync.WaitGroup
	var errs [3]error
	var swarn []string
	wg.Add(3)
	go func() {
		defer wg.Done()
		defer crash.Recover(&errs[0])
		if err := csvout.Write(ctx, dir, rep, csvout.DefaultOptions); err != nil {
			errs[0] = fmt.Errorf("write tables: %w", err)
		}
	}()
	go func() {
		defer wg.Done()
		defer crash.Recover(&errs[1])
		if err := xlsx.Write(ctx, filepath.Join(dir, "report.xlsx"), rep, xlsx.DefaultOptions); err != nil {
			errs[1] = fmt.Errorf("write workbook: %w", err)
		}
	}()
	go func() {
		defer wg.Done()
		defer crash.Recover(&errs[2])
		so := site.DefaultOptions
		so.Order = order
		w, err := site.Write(ctx, filepath.Join(dir, "site"), rep, so)
		swarn = w
		if err != nil {
			errs[2] = fmt.Errorf("write site: %w", err)
		}
	}()
	wg.Wait()
	return swarn, errors.Join(errs[:]...)
}

// bytesBar returns an ingest progress callback that draws a byte-count bar
// on a terminal (nil elsewhere, so logs stay clean).
func bytesBar(w io.Writer, what string) func(done, total int64) {
	if !isTerminal(w) {
		return nil
	}
	var bar *progressbar.ProgressBar
	return func(done, total int64) {
		if bar == nil {
			bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(what),
				progressbar.OptionShowBytes(true), progressbar.OptionClearOnFinish())
		}
		bar.Set64(done)
		if done >= total {
			bar.Finish()
		}
	}
}

// isTerminal reports whether w is a terminal (progress bars only go there).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newStages returns a function that prints each stage's name once.
func newStages(w io.Writer, quiet bool) func(string, int) {
	return func(name string, _ int) {
		if quiet || name == "" {
			return
		}
		fmt.Fprintf(w, "%s…\n", name)
	}
}

// printSummary prints the human summary table (set all) compactly, the
// models by the primary metric (findings.PrimaryOf: Solve Rate unless
// [report] primary says otherwise) or, with format.OrderAlpha, by display
// name.
func printSummary(w io.Writer, rep *report.Report, order format.Order) {
	t := rep.Table("summary")
	if t == nil {
		t = &report.Table{Name: "summary"} // left out: no rows
	}
	get := t.Get
	f64 := func(v any) float64 {
		if f, ok := v.(float64); ok {
			return f
		}
		return math.NaN()
	}
	// The leaderboard first, then the findings, then the models by the
	// primary metric with every measure (report/format units).
	printLeaderboard(w, findings.Leaderboard(rep))
	fmt.Fprintf(w, "\n%s — findings\n", termtext.Line(rep.Title))
	for _, h := range findings.Make(rep).Headlines {
		fmt.Fprintf(w, "  • %s\n", termtext.Escape(h.Text))
	}
	if !hasHumanSummary(t) {
		printOtherSummaries(w, rep, order)
		return
	}
	byID := map[string][]any{}
	for _, row := range t.Rows {
		if get(row, "set") == "all" && get(row, "graders") == "humans" {
			m, _ := get(row, "model").(string)
			byID[m] = row
		}
	}
	primary := findings.PrimaryOf(rep)
	ranking := findings.RankingBy(rep, primary)
	by := "by " + primary.Label
	if order == format.OrderAlpha {
		by = "by name (# = place by " + primary.Label + ")"
		sort.SliceStable(ranking, func(i, j int) bool { return strings.ToLower(ranking[i].Name) < strings.ToLower(ranking[j].Name) })
	}
	fmt.Fprintf(w, "\nhuman graders, all questions, %s\n", by)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tmodel\thuman gradings\tSolve Rate [95% interval]\tavg rank\twin rate\trubric (points)\tchecklist\tgroup")
	for _, m := range ranking {
		row := byID[m.ID]
		group, _ := get(row, "group_solve_rate").(string)
		fmt.Fprintf(tw, "%d\t%s\t%v\t%s %s\t%s\t%s\t%s\t%s\t%s\n", m.Rank, termtext.Line(m.Name), get(row, "n_gradings"),
			format.Percent(m.SolveRate), format.RateInterval(m.Lo, m.Hi),
			format.Points(f64(get(row, "avg_rank"))), format.Percent(f64(get(row, "win_rate"))), format.Points(m.Rubric),
			format.Percent(f64(get(row, "checklist_rate"))), group)
	}
	tw.Flush()
	fmt.Fprintln(w, "group: models sharing a letter do not differ significantly in Solve Rate (paired tests with questions as clusters, Holm-adjusted)")
}
