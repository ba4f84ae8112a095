package main

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/euroexec/euroexec/data"
	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/calibration"
	"github.com/euroexec/euroexec/metrics/planning"
	"github.com/euroexec/euroexec/metrics/prbench"
	"github.com/euroexec/euroexec/metrics/ranking"
	"github.com/euroexec/euroexec/metrics/reliability"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/csvout"
	"github.com/euroexec/euroexec/report/findings"
	"github.com/euroexec/euroexec/report/format"
	"github.com/euroexec/euroexec/report/site"
	"github.com/euroexec/euroexec/report/xlsx"
	"github.com/euroexec/euroexec/transform"
)

// runOptions are the flags of `euroexec run`.
type runOptions struct {
	out      string
	quiet    bool
	now      func() time.Time
	progress bool
}

func runCmd(stdout, stderr io.Writer) *cobra.Command {
	o := runOptions{now: time.Now}
	c := &cobra.Command{
		Use:   "run [STUDY]",
		Short: "Ingest a study, analyse it and write the report (bundled sample when STUDY is omitted)",
		Long: "run is the main job: it validates and loads the study folder into DuckDB, computes every table\n" +
			"and figure of the analysis, and writes OUT/tables/*.csv, OUT/report.xlsx, OUT/site/ and\n" +
			"OUT/study.duckdb. Without STUDY it runs on the sample study bundled in the binary.\n" +
			"The report is written to a temporary folder beside OUT and moved into place only when\n" +
			"complete, so a failed or interrupted run leaves the previous report as it was.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			study := ""
			if len(args) == 1 {
				study = args[0]
			}
			_, err := runStudy(cmd.Context(), stdout, stderr, study, o)
			return err
		},
	}
	c.Flags().StringVarP(&o.out, "out", "o", "euroexec-report", "output folder")
	c.Flags().BoolVarP(&o.quiet, "quiet", "q", false, "print no progress bars or summary, only problems")
	return c
}

// runStudy is `euroexec run`; it returns the report it wrote.
func runStudy(ctx context.Context, stdout, stderr io.Writer, study string, o runOptions) (*report.Report, error) {
	start := o.now()
	if study == "" {
		tmp, err := os.MkdirTemp("", "euroexec-sample-*")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		if err := os.CopyFS(tmp, data.Sample()); err != nil {
			return nil, fmt.Errorf("unpack the bundled sample study: %w", err)
		}
		study = tmp
		if !o.quiet {
			fmt.Fprintln(stderr, "no study given: running on the bundled sample study")
		}
	}
	out, err := filepath.Abs(o.out)
	if err != nil {
		return nil, err
	}
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("create output folder: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("create output folder: %w", err)
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()

	stage := newStages(stderr, o.quiet)
	stage("load", 0)
	dbPath := filepath.Join(tmp, "study.duckdb")
	iopt := ingest.Options{DB: dbPath, Now: func() time.Time { return start }}
	if !o.quiet {
		iopt.Progress = bytesBar(stderr, "load")
	}
	res, err := ingest.Ingest(ctx, study, iopt)
	if err != nil {
		return nil, reportProblems(stderr, err)
	}
	db, err := transform.Open(dbPath)
	if err != nil {
		return nil, err
	}
	s, twarn, err := db.Load(ctx, res.Config)
	var listings []*report.Table
	if err == nil {
		listings, err = db.ResponseTables(ctx)
	}
	db.Close()
	if err != nil {
		return nil, err
	}
	aopt := analysisOptions(res.Config)
	var bar *progressbar.ProgressBar
	if !o.quiet && isTerminal(stderr) {
		aopt.Progress = func(name string, i, n int) {
			if bar == nil {
				bar = progressbar.NewOptions(n, progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription("analyse"),
					progressbar.OptionClearOnFinish(), progressbar.OptionShowCount())
			}
			bar.Describe("analyse: " + name)
			bar.Set(i)
		}
	}
	if !o.quiet && isTerminal(stderr) {
		var once sync.Once
		var tbar *progressbar.ProgressBar
		aopt.TextProgress = func(done, total int) {
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
	rep, err := analysis.Analyze(s, aopt)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return nil, fmt.Errorf("analyse: %w", err)
	}
	popt := prbench.DefaultOptions()
	popt.HardShare, popt.HardCount, popt.ParityMargin = res.Config.Criteria.HardShare, res.Config.Criteria.HardCount, res.Config.Criteria.ParityMargin
	popt.Seed, popt.Bootstrap = res.Config.Analysis.Seed, res.Config.Analysis.Bootstrap
	pr := prbench.Analyze(s, popt)
	rep.Add(pr)
	beyond(rep, s, res.Config)
	rep.Tables = append(rep.Tables, listings...)
	if n := len(listings[1].Rows); n > 0 {
		rep.Warnings = append(rep.Warnings, failedSummary(listings[1])...)
	}
	rep.Version = version
	rep.GeneratedAt = start
	for _, p := range res.Config.Pairs() {
		rep.Settings = append(rep.Settings, report.KV{Key: p[0], Value: p[1]})
	}
	for _, f := range res.Files {
		rep.Inputs = append(rep.Inputs, report.InputFile{Path: f.Path, SHA256: f.SHA256, Rows: f.Rows})
	}
	rep.Warnings = append(append(append([]string(nil), res.Warnings...), twarn...), rep.Warnings...)
	if t := rep.Table("text_metrics"); t != nil {
		if err := storeTable(ctx, dbPath, t); err != nil {
			return nil, err
		}
	}

	stage("write tables", 0)
	if err := csvout.Write(tmp, rep, csvout.DefaultOptions); err != nil {
		return nil, fmt.Errorf("write tables: %w", err)
	}
	stage("write workbook", 0)
	if err := xlsx.Write(filepath.Join(tmp, "report.xlsx"), rep, xlsx.DefaultOptions); err != nil {
		return nil, fmt.Errorf("write workbook: %w", err)
	}
	stage("write site", 0)
	swarn, err := site.Write(filepath.Join(tmp, "site"), rep, site.DefaultOptions)
	if err != nil {
		return nil, fmt.Errorf("write site: %w", err)
	}
	if err := swap(tmp, out); err != nil {
		return nil, err
	}
	done = true
	stage("", 0)
	if o.quiet {
		return rep, nil
	}
	printWarnings(stderr, append(rep.Warnings, swarn...))
	printSummary(stdout, rep)
	fmt.Fprintf(stdout, "\nreport written to %s (site: %s, workbook: %s) in %.1fs\n", o.out,
		filepath.Join(o.out, "site", "index.html"), filepath.Join(o.out, "report.xlsx"), time.Since(start).Seconds())
	return rep, nil
}

// beyond adds the analyses beyond the paper: reliability, rankings with
// uncertainty, judge calibration and prediction-powered estimates, length
// control and study planning.
func beyond(rep *report.Report, s *analysis.Study, c config.Config) {
	sc := scores.Options{RubricThreshold: c.Solve.RubricThreshold, ChecklistThreshold: c.Solve.ChecklistThreshold, PartialCredit: c.Solve.PartialCredit}
	ro := reliability.DefaultOptions()
	ro.Seed, ro.Bootstrap, ro.Round, ro.Scores = c.Analysis.Seed, c.Analysis.Bootstrap, c.MainRound, sc
	r := reliability.Analyze(s, ro)
	rep.Add(r)
	ko := ranking.DefaultOptions()
	ko.Seed, ko.Bootstrap, ko.Round, ko.Scores = c.Analysis.Seed, c.Analysis.Bootstrap, c.MainRound, sc
	k := ranking.Analyze(s, ko)
	rep.Add(k)
	ranking.AnnotateSummary(rep.Table("summary"), rep.Table(ranking.RankingsTable))
	co := calibration.DefaultOptions()
	co.Seed, co.Bootstrap, co.Scores = c.Analysis.Seed, c.Analysis.Bootstrap, sc
	cr := calibration.Analyze(s, co)
	rep.Add(cr)
	po := planning.DefaultOptions()
	po.Plan.Scores = sc
	pr := planning.Analyze(s, po)
	rep.Add(pr)
}

// failedSummary says, per model, how many batch requests failed and the
// first error text.
func failedSummary(t *report.Table) []string {
	type agg struct {
		n     int
		first string
	}
	by := map[string]*agg{}
	var order []string
	for _, r := range t.Rows {
		m := r[1].(string)
		if by[m] == nil {
			by[m] = &agg{first: r[5].(string)}
			order = append(order, m)
		}
		by[m].n++
	}
	var out []string
	for _, m := range order {
		out = append(out, fmt.Sprintf("model %s: %d failed batch requests (first: %s); see tables/failed_requests.csv", m, by[m].n, by[m].first))
	}
	return out
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

// analysisOptions maps study.toml to the analysis options.
func analysisOptions(c config.Config) analysis.Options {
	o := analysis.DefaultOptions()
	o.RubricThreshold = c.Solve.RubricThreshold
	o.ChecklistThreshold = c.Solve.ChecklistThreshold
	o.PartialCredit = c.Solve.PartialCredit
	o.DifficultyBins = nil
	for _, b := range c.Difficulty.Bins {
		o.DifficultyBins = append(o.DifficultyBins, analysis.Bin{Name: b.Name, Max: b.Max})
	}
	o.Seed = c.Analysis.Seed
	o.Bootstrap = c.Analysis.Bootstrap
	o.Resamples = c.Analysis.Resamples
	o.ExtremeEvaluators = c.Analysis.ExtremeEvaluators
	o.Stemmer = c.Stemmer()
	o.TextFilter.Key, o.TextFilter.Value = c.TextFilter()
	return o
}

// swap moves the finished report folder tmp over out, keeping the previous
// report until the new one is in place.
func swap(tmp, out string) error {
	old := ""
	if _, err := os.Stat(out); err == nil {
		old = tmp + ".old"
		if err := os.Rename(out, old); err != nil {
			return fmt.Errorf("move the previous report aside: %w", err)
		}
	}
	if err := os.Rename(tmp, out); err != nil {
		if old != "" {
			os.Rename(old, out)
		}
		return fmt.Errorf("move the report into place: %w", err)
	}
	if old != "" {
		os.RemoveAll(old)
	}
	return nil
}

// storeTable writes a report table into the study database as a table of the
// same name, through DuckDB's appender (user values are never spliced into SQL).
func storeTable(ctx context.Context, dbPath string, t *report.Table) error {
	c, err := duckdb.NewConnector(dbPath, nil)
	if err != nil {
		return fmt.Errorf("store %s: %w", t.Name, err)
	}
	db := sql.OpenDB(c)
	defer db.Close()
	var cols []string
	for _, col := range t.Columns {
		typ := "VARCHAR"
		switch col.Kind {
		case report.Int:
			typ = "BIGINT"
		case report.Float, report.Fraction:
			typ = "DOUBLE"
		}
		cols = append(cols, fmt.Sprintf("%q %s", col.Name, typ))
	}
	if _, err := db.ExecContext(ctx, fmt.Sprintf("CREATE OR REPLACE TABLE %q (%s)", t.Name, strings.Join(cols, ", "))); err != nil {
		return fmt.Errorf("store %s: %w", t.Name, err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		app, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "", t.Name)
		if err != nil {
			return fmt.Errorf("store %s: %w", t.Name, err)
		}
		for _, row := range t.Rows {
			vals := make([]driver.Value, len(row))
			for i, v := range row {
				switch x := v.(type) {
				case float64:
					if math.IsNaN(x) {
						vals[i] = nil
					} else {
						vals[i] = x
					}
				case int:
					vals[i] = int64(x)
				default:
					vals[i] = v
				}
			}
			if err := app.AppendRow(vals...); err != nil {
				app.Close()
				return fmt.Errorf("store %s: %w", t.Name, err)
			}
		}
		return app.Close()
	})
}

// printSummary prints the human summary table (set all) compactly.
func printSummary(w io.Writer, rep *report.Report) {
	t := rep.Table("summary")
	if t == nil {
		return
	}
	idx := map[string]int{}
	for i, c := range t.Columns {
		idx[c.Name] = i
	}
	get := func(row []any, name string) any {
		if i, ok := idx[name]; ok && i < len(row) {
			return row[i]
		}
		return nil
	}
	f64 := func(v any) float64 {
		if f, ok := v.(float64); ok {
			return f
		}
		return math.NaN()
	}
	// Findings first, then the models by Solve Rate (report/format units).
	fmt.Fprintf(w, "\n%s — findings\n", rep.Title)
	for _, h := range findings.Make(rep).Headlines {
		fmt.Fprintf(w, "  • %s\n", h.Text)
	}
	byID := map[string][]any{}
	for _, row := range t.Rows {
		if get(row, "set") == "all" && get(row, "graders") == "humans" {
			m, _ := get(row, "model").(string)
			byID[m] = row
		}
	}
	fmt.Fprintf(w, "\nhuman graders, all questions, by Solve Rate\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tmodel\tgradings\tSolve Rate [95% interval]\tavg rank\twin rate\trubric (points)\tchecklist\tgroup")
	for _, m := range findings.Ranking(rep) {
		row := byID[m.ID]
		group, _ := get(row, "group_solve_rate").(string)
		fmt.Fprintf(tw, "%d\t%s\t%v\t%s %s\t%s\t%s\t%s\t%s\t%s\n", m.Rank, m.Name, get(row, "n_gradings"),
			format.Percent(m.SolveRate), format.RateInterval(m.Lo, m.Hi),
			format.Points(f64(get(row, "avg_rank"))), format.Percent(f64(get(row, "win_rate"))), format.Points(m.Rubric),
			format.Percent(f64(get(row, "checklist_rate"))), group)
	}
	tw.Flush()
	fmt.Fprintln(w, "group: models sharing a letter do not differ significantly in Solve Rate (paired bootstrap, Holm-adjusted)")
}

var _ fs.FS = nil
