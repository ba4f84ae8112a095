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
	"github.com/euroexec/euroexec/readback"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/findings"
	"github.com/euroexec/euroexec/report/format"
	"github.com/euroexec/euroexec/report/site"
	"github.com/euroexec/euroexec/report/tables"
	"github.com/euroexec/euroexec/store"
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
	opt := compare.DefaultOptions()
	opt.Map = map[string]string{}
	labels, err := parseLabels(o.labels, len(args))
	if err != nil {
		return &usageError{err}
	}
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
	if opt.Margins, err = parseMargins(o.margins, "--margin"); err != nil {
		return &usageError{err}
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
		var r compare.Run
		var cfg config.Config
		if o.store != "" {
			r, cfg, err = loadStoreRun(ctx, o.store, a)
		} else {
			r, cfg, err = loadRun(ctx, stderr, a, filepath.Join(scratch, strconv.Itoa(i)), runSiteDir(i))
		}
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
			if len(o.margins) == 0 && len(cfg.Compare.Margins) > 0 {
				// the first run's [compare] margins, unless --margin is given
				if opt.Margins, err = parseMargins(cfg.Compare.Margins, "[compare] margins"); err != nil {
					return &usageError{fmt.Errorf("run %s: study.toml: %w", a, err)}
				}
			}
		}
		if labels != nil {
			r.Label = labels[i]
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
	res, err := compare.Analyze(ctx, runs, opt)
	if err != nil {
		return err
	}
	rep := &report.Report{Title: "Comparison: " + runs[0].Label + " → " + runs[len(runs)-1].Label, Version: version, GeneratedAt: start}
	rep.Add(tables.Compare(res))
	rep.Overview = tables.CompareOverview(compare.Overview(runs, opt.Map))
	settings = append(settings, report.KV{Key: "bootstrap", Value: strconv.Itoa(opt.Bootstrap)},
		report.KV{Key: "seed", Value: strconv.FormatUint(opt.Seed, 10)}, report.KV{Key: "alpha", Value: "0.05"},
		report.KV{Key: "map", Value: strings.Join(o.maps, ", ")})
	settings = append(settings, report.KV{Key: "old_label", Value: runs[0].Label}, report.KV{Key: "new_label", Value: runs[len(runs)-1].Label})
	if runs[0].Study != nil && runs[0].Study.LowerIsBetter {
		settings = append(settings, report.KV{Key: "rubric.direction", Value: "lower"})
	}
	rep.Settings = settings
	// what changed first: the delta dot plots of the flagged changes lead
	// the figures (the site's index and the workbook's first sheet)
	rep.Figures = append(findings.DeltaFigures(findings.WhatChanged(rep)), rep.Figures...)
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

// loadStoreRun reads run name of the Parquet store dir for compare: the
// study read back from DuckDB views over the run's files (store.Open).
func loadStoreRun(ctx context.Context, dir, name string) (compare.Run, config.Config, error) {
	r := compare.Run{Label: name}
	st, err := store.FindRun(dir, name)
	if err != nil {
		return r, config.Config{}, err
	}
	cfg, err := st.Config()
	if err != nil {
		return r, cfg, fmt.Errorf("%s: %w", dir, err)
	}
	ddb, _, err := store.Open(ctx, dir, st.Name)
	if err != nil {
		return r, cfg, err
	}
	db := readback.Wrap(ddb)
	defer db.Close()
	s, _, err := db.Load(ctx, cfg)
	if err != nil {
		return r, cfg, fmt.Errorf("run %q of %s: %w", name, dir, err)
	}
	r.Study = s
	r.Scores = scores.Options{RubricThreshold: cfg.Solve.RubricThreshold, ChecklistThreshold: cfg.Solve.ChecklistThreshold, PartialCredit: cfg.Solve.PartialCredit}
	return r, cfg, nil
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
	// A database from elsewhere is data, not code (readback.OpenUntrusted);
	// the one ingested into scratch is the tool's own.
	var db *readback.DB
	if own {
		db, err = readback.Open(dbPath)
	} else {
		db, err = readback.OpenUntrusted(ctx, dbPath)
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
		case "compare.margins":
			cfg.Compare.Margins = strings.Split(v, "; ")
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
