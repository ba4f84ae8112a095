package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/internal/termtext"
	"github.com/euroexec/euroexec/metrics/compare"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/outsafe"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/format"
	"github.com/euroexec/euroexec/report/site"
	"github.com/euroexec/euroexec/transform"
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
	now       func() time.Time
}

func compareCmd(stdout, stderr io.Writer) *cobra.Command {
	o := compareOptions{now: time.Now}
	c := &cobra.Command{
		Use:   "compare OLD NEW [RUN…]",
		Short: "Compare two runs of a study (or k ≥ 3 runs as a trend): what changed, and is it real",
		Long: "compare matches models (by name, or --map old=new), questions (by question_id) and evaluators and\n" +
			"judges (by name) between runs, and writes OUT/tables/compare_*.csv and judge_drift.csv,\n" +
			"OUT/report.xlsx and OUT/site/: each model's change of Solve Rate, rubric, checklist rate,\n" +
			"average rank and win rate with a paired cluster-bootstrap interval over the shared questions,\n" +
			"flagged when significant after Holm across the table; the questions that regressed; judges\n" +
			"that score the same responses differently; rank flips; with three runs or more, the trend.\n" +
			"Each run is a report folder of `euroexec run` (its study.duckdb is read) or a study folder\n" +
			"(ingested into a temporary database first). With k ≥ 3 runs the pairwise tables compare the\n" +
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
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print no summary, only problems")
	f.BoolVar(&o.force, "force", false, "replace OUT even when it holds files euroexec did not write")
	return c
}

// runCompare is `euroexec compare`.
func runCompare(ctx context.Context, stdout, stderr io.Writer, args []string, o compareOptions) error {
	start := o.now()
	opt := compare.DefaultOptions()
	opt.Map = map[string]string{}
	for _, m := range o.maps {
		old, new, ok := strings.Cut(m, "=")
		old, new = strings.TrimSpace(old), strings.TrimSpace(new)
		if !ok || old == "" || new == "" {
			return &usageError{fmt.Errorf("--map %q: expected old=new (two model names)", m)}
		}
		if prev, dup := opt.Map[old]; dup && prev != new {
			return &usageError{fmt.Errorf("--map %q: model %q is already mapped to %q", m, old, prev)}
		}
		opt.Map[old] = new
	}
	var err error
	if opt.Margins, err = parseMargins(o.margins); err != nil {
		return &usageError{err}
	}
	// Refuse an output folder that is not ours, or is one of the runs,
	// before any work.
	if err := outsafe.CheckFolder(o.out, outsafe.ReportMarker, o.force, args...); err != nil {
		return err
	}
	out, err := filepath.Abs(o.out)
	if err != nil {
		return err
	}
	for _, n := range outsafe.CleanScratch() {
		fmt.Fprintln(stderr, "note:", n)
	}
	scratch, err := outsafe.ScratchDir("compare")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	runs := make([]compare.Run, len(args))
	var settings []report.KV
	sites := map[string]string{} // the runs' sites the comparison carries
	for i, a := range args {
		r, cfg, err := loadRun(ctx, stderr, a, filepath.Join(scratch, strconv.Itoa(i)), runSiteDir(i))
		if err != nil {
			return err
		}
		if r.Pages != nil {
			if abs, err := filepath.Abs(a); err == nil {
				sites[runSiteDir(i)] = filepath.Join(abs, "site")
			}
		}
		if i == 0 {
			opt.Bootstrap, opt.Seed = cfg.Analysis.Bootstrap, cfg.Analysis.Seed
		}
		runs[i] = r
		settings = append(settings, report.KV{Key: fmt.Sprintf("run %d", i+1), Value: r.Label + " (" + a + ")"})
	}
	dedupeLabels(runs)
	if o.bootstrap >= 0 {
		opt.Bootstrap = o.bootstrap
	}
	if o.seed >= 0 {
		opt.Seed = uint64(o.seed)
	}
	part, err := compare.Analyze(ctx, runs, opt)
	if err != nil {
		return err
	}
	rep := &report.Report{Title: "Comparison: " + runs[0].Label + " → " + runs[len(runs)-1].Label, Version: version, GeneratedAt: start}
	rep.Add(part)
	rep.Overview = compare.Overview(runs, opt.Map)
	settings = append(settings, report.KV{Key: "bootstrap", Value: strconv.Itoa(opt.Bootstrap)},
		report.KV{Key: "seed", Value: strconv.FormatUint(opt.Seed, 10)}, report.KV{Key: "alpha", Value: "0.05"},
		report.KV{Key: "map", Value: strings.Join(o.maps, ", ")})
	rep.Settings = settings
	swarn, err := writeCompareReport(ctx, out, rep, strings.Join(args, ", "), sites)
	if err != nil {
		return err
	}
	if o.quiet {
		return nil
	}
	printWarnings(stderr, append(rep.Warnings, swarn...))
	printFlagged(stdout, rep)
	fmt.Fprintf(stdout, "\ncomparison written to %s (site: %s, workbook: %s) in %.1fs\n", o.out,
		filepath.Join(o.out, "site", "index.html"), filepath.Join(o.out, "report.xlsx"), time.Since(start).Seconds())
	return nil
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

// loadRun reads one run: a report folder (its study.duckdb), a database
// file, or a study folder ingested into scratch. siteDir is where the
// comparison's site carries the run's site (runSiteDir), relative to it:
// the links to the run's question pages point there.
func loadRun(ctx context.Context, stderr io.Writer, arg, scratch, siteDir string) (compare.Run, config.Config, error) {
	var r compare.Run
	abs, err := filepath.Abs(arg)
	if err != nil {
		return r, config.Config{}, err
	}
	r.Label = filepath.Base(abs)
	st, err := os.Stat(abs)
	if err != nil {
		return r, config.Config{}, fmt.Errorf("run %s: %w", arg, err)
	}
	var dbPath string
	var cfg config.Config
	isReport, own := false, false
	switch {
	case !st.IsDir():
		dbPath = abs
		r.Label = strings.TrimSuffix(r.Label, filepath.Ext(r.Label))
	case fileExists(filepath.Join(abs, "study.duckdb")):
		dbPath = filepath.Join(abs, "study.duckdb")
		isReport = true
	default:
		if err := os.MkdirAll(scratch, 0o755); err != nil {
			return r, cfg, err
		}
		dbPath = filepath.Join(scratch, "study.duckdb")
		res, err := ingest.Ingest(ctx, abs, ingest.Options{DB: dbPath})
		if err != nil {
			return r, cfg, reportProblems(stderr, fmt.Errorf("run %s: %w", arg, err))
		}
		cfg, own = res.Config, true
	}
	// A database from elsewhere is data, not code (transform.OpenUntrusted);
	// the one ingested into scratch is the tool's own.
	var db *transform.DB
	if own {
		db, err = transform.Open(dbPath)
	} else {
		db, err = transform.OpenUntrusted(ctx, dbPath)
	}
	if err != nil {
		return r, cfg, fmt.Errorf("run %s: %w", arg, err)
	}
	defer db.Close()
	if cfg.MainRound == "" {
		cfg, err = settingsConfig(ctx, db.SQL())
		if err != nil {
			return r, cfg, fmt.Errorf("run %s: %s: %w", arg, dbPath, err)
		}
	}
	s, _, err := db.Load(ctx, cfg)
	if err != nil {
		return r, cfg, fmt.Errorf("run %s: %w", arg, err)
	}
	r.Study = s
	r.Scores = scores.Options{RubricThreshold: cfg.Solve.RubricThreshold, ChecklistThreshold: cfg.Solve.ChecklistThreshold, PartialCredit: cfg.Solve.PartialCredit}
	if isReport && fileExists(filepath.Join(abs, "site", "index.html")) {
		{
			base := siteDir + "/"
			// Above [site] question_pages a report has pages for some
			// questions only: link only to pages that are there.
			pages := map[string]bool{}
			if ents, err := os.ReadDir(filepath.Join(abs, "site", "questions")); err == nil {
				for _, e := range ents {
					pages["questions/"+e.Name()] = true
				}
			}
			r.Pages = func(id string) string {
				if f := site.QuestionFile(id); pages[f] {
					return base + f
				}
				return ""
			}
		}
	}
	return r, cfg, nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// settingsConfig rebuilds the settings a comparison needs from a database's
// study_settings table (what ingest recorded from study.toml).
func settingsConfig(ctx context.Context, db *sql.DB) (config.Config, error) {
	cfg := config.Default()
	rows, err := db.QueryContext(ctx, `SELECT key, value FROM study_settings`)
	if err != nil {
		return cfg, fmt.Errorf("read study_settings: %w", err)
	}
	defer rows.Close()
	var probs []string
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return cfg, fmt.Errorf("read study_settings: %w", err)
		}
		fl := func(dst *float64) {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				probs = append(probs, fmt.Sprintf("study_settings %s = %q: expected a number", k, v))
				return
			}
			*dst = x
		}
		in := func(dst *int) {
			x, err := strconv.Atoi(v)
			if err != nil {
				probs = append(probs, fmt.Sprintf("study_settings %s = %q: expected an integer", k, v))
				return
			}
			*dst = x
		}
		switch k {
		case "title":
			cfg.Title = v
		case "human_label":
			cfg.HumanLabel = v
		case "main_round":
			cfg.MainRound = v
		case "rubric.attributes":
			if v != "" {
				cfg.Rubric.Attributes = strings.Split(v, ", ")
			}
		case "rubric.min":
			fl(&cfg.Rubric.Min)
		case "rubric.max":
			fl(&cfg.Rubric.Max)
		case "rubric.step":
			fl(&cfg.Rubric.Step)
		case "rubric.direction":
			cfg.Rubric.Direction = v
		case "report.primary":
			cfg.Report.Primary = v
		case "solve.rubric_threshold":
			fl(&cfg.Solve.RubricThreshold)
		case "solve.checklist_threshold":
			fl(&cfg.Solve.ChecklistThreshold)
		case "solve.partial_credit":
			fl(&cfg.Solve.PartialCredit)
		case "analysis.bootstrap":
			in(&cfg.Analysis.Bootstrap)
		case "analysis.seed":
			x, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				probs = append(probs, fmt.Sprintf("study_settings %s = %q: expected a non-negative integer", k, v))
			}
			cfg.Analysis.Seed = x
		case "difficulty.bins":
			cfg.Difficulty.Bins = nil
			for _, b := range strings.Split(v, ", ") {
				name, max, ok := strings.Cut(b, " ≤ ")
				x, err := strconv.ParseFloat(max, 64)
				if !ok || err != nil {
					probs = append(probs, fmt.Sprintf("study_settings %s = %q: expected \"name ≤ max, …\"", k, v))
					break
				}
				cfg.Difficulty.Bins = append(cfg.Difficulty.Bins, config.Bin{Name: name, Max: x})
			}
		}
	}
	if err := rows.Err(); err != nil {
		return cfg, fmt.Errorf("read study_settings: %w", err)
	}
	if len(probs) > 0 {
		return cfg, fmt.Errorf("%s", strings.Join(probs, "; "))
	}
	return cfg, nil
}

// dedupeLabels makes run labels distinct by adding the run's position.
func dedupeLabels(runs []compare.Run) {
	count := map[string]int{}
	for _, r := range runs {
		count[r.Label]++
	}
	for i := range runs {
		if count[runs[i].Label] > 1 {
			runs[i].Label = fmt.Sprintf("%s (%d)", runs[i].Label, i+1)
		}
	}
}

// printFlagged prints the flagged changes of compare_models.
func printFlagged(w io.Writer, rep *report.Report) {
	t := rep.Table(compare.ModelsTable)
	if t == nil {
		return
	}
	fmt.Fprintf(w, "\n%s — significant changes (Holm across the table)\n", termtext.Line(rep.Title))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "model\tmetric\tgraders\told\tnew\tdelta\t95% CI")
	get := t.Get
	g := func(row []any, name string) string {
		if f, ok := get(row, name).(float64); ok {
			return fmt.Sprintf("%.4g", f)
		}
		return ""
	}
	n := 0
	for _, row := range t.Rows {
		if get(row, "flagged") != "yes" {
			continue
		}
		n++
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t[%s, %s]\n", termtext.Line(fmt.Sprint(get(row, "model"))), fmt.Sprint(get(row, "metric")), termtext.Line(fmt.Sprint(get(row, "graders"))),
			g(row, "old"), g(row, "new"), g(row, "delta"), g(row, "delta_lo"), g(row, "delta_hi"))
	}
	tw.Flush()
	if n == 0 {
		fmt.Fprintln(w, "(none)")
	}
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
