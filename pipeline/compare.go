package pipeline

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/metrics/compare"
	"github.com/euroexec/euroexec/outsafe"
	"github.com/euroexec/euroexec/readback"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/findings"
	"github.com/euroexec/euroexec/report/tables"
	"github.com/euroexec/euroexec/store"
)

// CompareOptions are what Compare needs besides the runs.
type CompareOptions struct {
	// Store, when set, is a Parquet store whose runs (by name) are compared.
	Store string
	// Labels name the runs (nil: each run's folder or file name; repeated
	// labels get the run's position).
	Labels []string
	// Map renames OLD's models to NEW's (--map old=new); MapFlags are the
	// values as given, for the report's settings.
	Map      map[string]string
	MapFlags []string
	// Margins are the non-inferiority margins per metric; nil: the first
	// run's study.toml [compare] margins.
	Margins map[string]float64
	// Bootstrap and Seed override the first run's [analysis] settings when
	// not negative.
	Bootstrap int
	Seed      int64
	// Version and Now stamp the report.
	Version string
	Now     time.Time
	// Note, when set, is told of stale scratch folders cleaned up.
	Note func(string)
	// Pages, when set, returns the links to the question pages of the i-th
	// run when it is a report folder with a site (compare.Run.Pages).
	Pages func(i int, reportDir string) func(questionID string) string
}

// SettingError is a setting the user gave that Compare cannot use (a
// [compare] margin of the first run's study.toml): the command treats it
// as a usage error.
type SettingError struct{ Err error }

func (e *SettingError) Error() string { return e.Err.Error() }
func (e *SettingError) Unwrap() error { return e.Err }

// CompareResult is a comparison: its report and the runs' report folders
// whose sites the comparison's site may carry (by run index).
type CompareResult struct {
	Report *report.Report
	Runs   []compare.Run
	// Sites are the report folders of the runs that have a site, by index.
	Sites map[int]string
}

// Compare is `euroexec compare`'s work: it reads each run (a report
// folder's study.duckdb as data, a database file, a study folder ingested
// into a scratch database removed before Compare returns, or a run of
// o.Store), compares them (compare.Analyze) and returns the report, its
// figures led by what changed. An invalid study folder is an
// *ingest.ProblemsError wrapped with the run's name.
func Compare(ctx context.Context, args []string, o CompareOptions) (*CompareResult, error) {
	opt := compare.DefaultOptions()
	opt.Map = o.Map
	if opt.Map == nil {
		opt.Map = map[string]string{}
	}
	opt.Margins = o.Margins
	for _, n := range outsafe.CleanScratch() {
		if o.Note != nil {
			o.Note(n)
		}
	}
	scratch, err := outsafe.ScratchDir("compare")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	runs := make([]compare.Run, len(args))
	var settings []report.KV
	res := &CompareResult{Sites: map[int]string{}}
	for i, a := range args {
		var r compare.Run
		var cfg config.Config
		if o.Store != "" {
			r, cfg, err = loadStoreRun(ctx, o.Store, a)
		} else {
			var pages func(string) func(string) string
			if o.Pages != nil {
				pages = func(dir string) func(string) string { return o.Pages(i, dir) }
			}
			r, cfg, err = loadRun(ctx, a, filepath.Join(scratch, strconv.Itoa(i)), pages)
		}
		if err != nil {
			return nil, err
		}
		if r.Pages != nil {
			if abs, err := filepath.Abs(a); err == nil {
				res.Sites[i] = abs
			}
		}
		if i == 0 {
			opt.Bootstrap, opt.Seed = cfg.Analysis.Bootstrap, cfg.Analysis.Seed
			if o.Margins == nil && len(cfg.Compare.Margins) > 0 {
				// the first run's [compare] margins, unless given
				if opt.Margins, err = compare.ParseMargins(cfg.Compare.Margins, "[compare] margins"); err != nil {
					return nil, &SettingError{fmt.Errorf("run %s: study.toml: %w", a, err)}
				}
			}
		}
		if o.Labels != nil {
			r.Label = o.Labels[i]
		}
		runs[i] = r
		settings = append(settings, report.KV{Key: fmt.Sprintf("run %d", i+1), Value: r.Label + " (" + a + ")"})
	}
	dedupeLabels(runs)
	if o.Bootstrap >= 0 {
		opt.Bootstrap = o.Bootstrap
	}
	if o.Seed >= 0 {
		opt.Seed = uint64(o.Seed)
	}
	cres, err := compare.Analyze(ctx, runs, opt)
	if err != nil {
		return nil, err
	}
	rep := &report.Report{Title: "Comparison: " + runs[0].Label + " → " + runs[len(runs)-1].Label, Version: o.Version, GeneratedAt: o.Now}
	rep.Add(tables.Compare(cres))
	rep.Overview = tables.CompareOverview(compare.Overview(runs, opt.Map))
	settings = append(settings, report.KV{Key: "bootstrap", Value: strconv.Itoa(opt.Bootstrap)},
		report.KV{Key: "seed", Value: strconv.FormatUint(opt.Seed, 10)}, report.KV{Key: "alpha", Value: "0.05"},
		report.KV{Key: "map", Value: strings.Join(o.MapFlags, ", ")})
	settings = append(settings, report.KV{Key: "old_label", Value: runs[0].Label}, report.KV{Key: "new_label", Value: runs[len(runs)-1].Label})
	if runs[0].Study != nil && runs[0].Study.LowerIsBetter {
		settings = append(settings, report.KV{Key: "rubric.direction", Value: "lower"})
	}
	rep.Settings = settings
	// what changed first: the delta dot plots of the flagged changes lead
	// the figures (the site's index and the workbook's first sheet)
	rep.Figures = append(findings.DeltaFigures(findings.WhatChanged(rep)), rep.Figures...)
	res.Report, res.Runs = rep, runs
	return res, nil
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
	r.Scores = readback.ScoreOptions(cfg)
	return r, cfg, nil
}

// loadRun reads one run: a report folder (its study.duckdb), a database
// file, or a study folder ingested into scratch. pages, when not nil,
// gives a report folder's links to its question pages (Run.Pages).
func loadRun(ctx context.Context, arg, scratch string, pages func(reportDir string) func(questionID string) string) (compare.Run, config.Config, error) {
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
	case notDir(filepath.Join(abs, "study.duckdb")):
		dbPath = filepath.Join(abs, "study.duckdb")
		isReport = true
	default:
		if err := os.MkdirAll(scratch, 0o755); err != nil {
			return r, cfg, err
		}
		dbPath = filepath.Join(scratch, "study.duckdb")
		res, err := ingest.Ingest(ctx, abs, ingest.Options{DB: dbPath})
		if err != nil {
			return r, cfg, fmt.Errorf("run %s: %w", arg, err)
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
	r.Scores = readback.ScoreOptions(cfg)
	if isReport && pages != nil && notDir(filepath.Join(abs, "site", "index.html")) {
		r.Pages = pages(abs)
	}
	return r, cfg, nil
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
