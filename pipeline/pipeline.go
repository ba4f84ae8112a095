// Package pipeline runs a study folder end to end into the report model:
// ingest (validate and load into a DuckDB file), read back into the study
// model (package readback), the paper's analyses (package
// metrics/paper), the PRBench analysis, the analyses beyond the paper
// (reliability, rankings with uncertainty, judge calibration, study
// planning, the judge audit, pairwise judgments), the listings of
// responses and failed batch requests, and the report's settings, inputs
// and warnings. It also stores the text_metrics table into the database.
//
// Run is what `euroexec run` does between parsing its flags and writing
// the report; a Go program calls it the same way and gets the same tables.
// Writing the report (report/csvout, report/xlsx, report/site), output
// folder safety (package outsafe) and printing stay with the caller.
package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/internal/crash"
	"github.com/euroexec/euroexec/metrics/calibration"
	"github.com/euroexec/euroexec/metrics/judgeaudit"
	"github.com/euroexec/euroexec/metrics/pairwise"
	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/metrics/planning"
	"github.com/euroexec/euroexec/metrics/prbench"
	"github.com/euroexec/euroexec/metrics/ranking"
	"github.com/euroexec/euroexec/metrics/rateradjust"
	"github.com/euroexec/euroexec/metrics/reliability"
	"github.com/euroexec/euroexec/readback"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/tables"
	"github.com/euroexec/euroexec/study"
)

// Stage names passed to Options.Stage, in the order the stages start.
const (
	StageLoad     = "load"                     // ingest into the database
	StageReadBack = "read back"                // the database into the study model
	StageAnalyse  = "analyse"                  // the paper's tables
	StageBeyond   = "analyse beyond the paper" // PRBench, reliability, rankings, calibration, planning, judge audit, pairwise, concurrently
)

// Options control Run. The zero value is usable (see each field's
// default); DefaultOptions returns it with Now set.
type Options struct {
	// DB is the DuckDB database file ingest creates and text_metrics is
	// stored into. It must not exist yet (a stale file is an error of
	// ingest). Default "": a database in a temporary folder, removed when
	// Run returns.
	DB string
	// AllowEmpty accepts a study in which every rubric score (or every
	// checklist verdict) of the human graders or of the judges was
	// dropped (ingest.Options.AllowEmpty, flag --allow-empty); default
	// false: that is a problem.
	AllowEmpty bool
	// Now returns the time the run starts; it is called once, and the time
	// is recorded in the database's ingest_files and as
	// Report.GeneratedAt. Default (nil): time.Now.
	Now func() time.Time
	// Version is the tool version recorded as Report.Version; default "".
	Version string
	// Stage, when not nil, is called with the name of each stage as it
	// starts: StageLoad, StageReadBack, StageAnalyse, StageBeyond (the
	// names `run --stats` prints). When the later analyses overlap the
	// paper's (OverlapMaxGradings), StageAnalyse covers both and
	// StageBeyond starts when the paper's ends. Default nil.
	Stage func(name string)
	// LoadProgress, when not nil, is called after each input file is read
	// with the bytes read so far and the study's total (as
	// ingest.Options.Progress). Default nil.
	LoadProgress func(done, total int64)
	// Progress, when not nil, is called as each stage of the paper's
	// analysis starts, with its name ("overview", "summary", …), its index
	// and the number of stages, and once more with "done" when the last
	// ends (as paper.Options.Progress). Default nil.
	Progress func(name string, done, total int)
	// TextProgress, when not nil, is called after each response is scored
	// by ROUGE and BLEU with the number done and the total, from several
	// goroutines (as paper.Options.TextProgress). Default nil.
	TextProgress func(done, total int)
	// Workers is how many of the analyses after the paper's (PRBench,
	// reliability, rankings, calibration, planning, judge audit, pairwise)
	// run at the same time; the report is the same whatever the number.
	// Default 0: runtime.GOMAXPROCS(0); 1 runs them one by one.
	Workers int
	// OverlapMaxGradings is the largest study, in gradings (human and
	// judge, every run), whose later analyses run at the same time as the
	// paper's analysis instead of after it: the report is the same, the
	// run is shorter, and the memory of both is held at once, so only
	// small studies overlap. Default 0: DefaultOverlapMaxGradings; a
	// negative value never overlaps.
	OverlapMaxGradings int
	// GCPercent is the garbage collector's target percentage
	// (debug.SetGCPercent) while Run reads back and analyses a large study,
	// one of more than OverlapMaxGradings gradings; Run restores the
	// previous setting when it returns. The heap grows to the live heap
	// times 1 + GCPercent/100 before the next collection, so a lower value
	// holds less memory for more collections: at 40,000 questions the live
	// heap of the paper's analysis is 0.8–0.95 GB, which Go's default of
	// 100 let grow to 1,660–1,800 MiB of resident memory. The setting is the
	// process's, so it also applies to whatever else runs in the process
	// meanwhile. Default 0: DefaultGCPercent; a negative value leaves the
	// runtime's setting (GOGC) alone, as `euroexec run` does when the
	// user set GOGC.
	GCPercent int
}

// DefaultGCPercent is the default Options.GCPercent: 40. At 40,000
// questions the analyse stage's peak resident memory was 1,660-1,800 MiB
// at Go's default of 100, 1,320-1,383 MiB at 50 and 1,311-1,362 MiB at
// 40, for a few percent more CPU time (docs/PERFORMANCE.md). The collector's work
// per allocated byte is some 2.5 times Go's default, but it still grows
// linearly with the study, unlike a fixed soft limit.
const DefaultGCPercent = 40

// gcPercent is GCPercent with its default; negative: leave it alone.
func (o Options) gcPercent() int {
	if o.GCPercent == 0 {
		return DefaultGCPercent
	}
	return o.GCPercent
}

// DefaultOverlapMaxGradings is the default Options.OverlapMaxGradings:
// 100,000 gradings, about 2,700 questions of `euroexec sample` (36.5
// gradings a question), where the paper's and the later analyses together
// hold well under 0.5 GB; the studies of the memory targets (40,000
// questions, 1.46 M gradings; 200,000 judge-only, 1.2 M) never overlap.
const DefaultOverlapMaxGradings = 100_000

// overlapMaxGradings is OverlapMaxGradings with its default.
func (o Options) overlapMaxGradings() int {
	if o.OverlapMaxGradings == 0 {
		return DefaultOverlapMaxGradings
	}
	return o.OverlapMaxGradings
}

// DefaultOptions returns the options of `euroexec run` without flags: a
// temporary database, Now = time.Now, no callbacks.
func DefaultOptions() Options { return Options{Now: time.Now} }

// Result is what Run produced.
type Result struct {
	// Report is the complete report model, ready for the writers: tables,
	// figures, question pages, notes, warnings (ingest's, read-back's, then
	// the analyses'), settings (the effective study.toml), inputs (every
	// file read, with its checksum), Version and GeneratedAt.
	Report *report.Report
	// Config is the effective study.toml.
	Config config.Config
	// Rows counts the rows ingest loaded per database table.
	Rows map[string]int64
	// Summary are the rows of the summary table (Tables 4 and 10) as typed
	// values, without the rank columns the rankings add (see Rankings).
	Summary []paper.SummaryRow
	// PRBench is the typed result of the PRBench analysis (the prbench_*,
	// criterion_agreement and judge_parity tables and their figures).
	PRBench prbench.Result
	// Rankings is the typed result of the rankings with uncertainty (the
	// rankings table and the rank and group columns of the summary table
	// are built from it).
	Rankings ranking.Result
	// RaterAdjusted is the typed result of the rater adjustment (the
	// rater_adjusted table is built from it by report/tables).
	RaterAdjusted rateradjust.Result
	// Reliability is the typed result of the inter-rater reliability (the
	// reliability table and its figure are built from it).
	Reliability reliability.Result
	// Calibration is the typed result of the judge calibration and the
	// length-controlled comparison (judge_calibration,
	// judge_calibration_summary, length_controlled and their figures).
	Calibration calibration.Result
	// JudgeAudit is the typed result of the judge audit (judge_bias,
	// judge_bias_by_attribute, judge_audit and the forest plots).
	JudgeAudit judgeaudit.Result
	// Pairwise is the typed result of the pairwise (A-vs-B) judgments (the
	// pairwise_* tables and their figures).
	Pairwise pairwise.Result
	// Planning is the typed result of the study plan (the study_plan table
	// and its figure).
	Planning planning.Result
}

// workers is Workers with its default.
func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Run ingests the study folder studyDir, analyses it and returns the
// report model. Input problems come back as ingest's *ingest.ProblemsError
// (every problem, located); nothing is written but opts.DB. A cancelled
// ctx stops the run between stages and within the long ones (bootstraps,
// resamples, text pairs) and returns ctx's error, wrapped.
func Run(ctx context.Context, studyDir string, opts Options) (*Result, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	start := opts.Now()
	stage := func(name string) {
		if opts.Stage != nil {
			opts.Stage(name)
		}
	}
	dbPath := opts.DB
	if dbPath == "" {
		tmp, err := os.MkdirTemp("", "euroexec-pipeline-*")
		if err != nil {
			return nil, fmt.Errorf("pipeline: temporary database: %w", err)
		}
		defer os.RemoveAll(tmp)
		dbPath = filepath.Join(tmp, "study.duckdb")
	}

	stage(StageLoad)
	// The table grading_scores is written below from the scores the
	// analyses compute (no Finish: not from a second read back).
	ires, err := ingest.Ingest(ctx, studyDir, ingest.Options{DB: dbPath, Now: func() time.Time { return start },
		AllowEmpty: opts.AllowEmpty, Progress: opts.LoadProgress})
	if err != nil {
		return nil, err
	}
	ls := loadedStudy{cfg: ires.Config, rows: ires.Rows, warnings: ires.Warnings, dbPath: dbPath,
		open: func() (*readback.DB, error) { return readback.Open(dbPath) }}
	for _, f := range ires.Files {
		ls.inputs = append(ls.inputs, report.InputFile{Path: f.Path, SHA256: f.SHA256, Rows: f.Rows})
	}
	return analyseLoaded(ctx, opts, start, ls)
}

// loadedStudy is a study in a database, ready for read back: a study
// database file (Run) or the views over a run of a Parquet store
// (RunStore).
type loadedStudy struct {
	cfg      config.Config
	rows     map[string]int64
	inputs   []report.InputFile
	warnings []string // ingest's
	open     func() (*readback.DB, error)
	// dbPath is the database file text_metrics is stored into; "" for a
	// store, which is read, never written.
	dbPath string
}

// analyseLoaded is Run from read back on.
func analyseLoaded(ctx context.Context, opts Options, start time.Time, ls loadedStudy) (*Result, error) {
	stage := func(name string) {
		if opts.Stage != nil {
			opts.Stage(name)
		}
	}
	cfg := ls.cfg
	if ls.rows["gradings"] > int64(opts.overlapMaxGradings()) {
		if pct := opts.gcPercent(); pct > 0 {
			defer debug.SetGCPercent(debug.SetGCPercent(pct))
		}
		// The load's garbage (its Arrow batches) is collected and its
		// pages given back before read back, where DuckDB's memory for
		// the grading_scores view and then the study read into Go need
		// the room: the runtime would otherwise keep them (250 MB at
		// 40,000 questions).
		debug.FreeOSMemory()
	}

	stage(StageReadBack)
	aopt := analysisOptions(cfg)
	aopt.Progress, aopt.TextProgress = opts.Progress, opts.TextProgress
	s, twarn, listings, err := readBackFrom(ctx, ls.open, cfg, aopt)
	if err != nil {
		return nil, err
	}

	stage(StageAnalyse)
	res := &Result{Config: cfg, Rows: ls.rows}
	jobs, graded := laterAnalyses(s, cfg)
	overlap := len(s.Gradings) <= opts.overlapMaxGradings()
	type computed struct {
		adds []func(*Result)
		err  error
	}
	var later chan computed
	jctx, stopJobs := context.WithCancel(ctx)
	defer stopJobs()
	if overlap {
		// The later analyses only read the study, as the paper's does;
		// their results are applied after it, in the same order.
		later = make(chan computed, 1)
		go func() {
			adds, err := computeJobs(jctx, jobs, opts.workers())
			later <- computed{adds, err}
		}()
	}
	ares, err := paper.AnalyzeResult(ctx, s, aopt)
	if err != nil {
		if later != nil {
			stopJobs()
			<-later // the later analyses stop at their next check of ctx; none outlives Run
		}
		return nil, fmt.Errorf("analyse: %w", err)
	}
	rep := tables.Paper(ares)
	res.Report, res.Summary = rep, ares.Summary
	// grading_scores and text_metrics go into the database: while the later analyses run
	// when they overlap the paper's (a small study), else after them, so
	// that DuckDB's memory does not add to theirs.
	stored := make(chan error, 1)
	store := func() {
		var err error
		defer func() { stored <- err }()
		defer crash.Recover(&err)
		if ls.dbPath == "" {
			return
		}
		if err = readback.WriteScores(ctx, ls.dbPath, graded()); err != nil {
			return
		}
		if t := rep.Table("text_metrics"); t != nil {
			err = storeTable(ctx, ls.dbPath, t)
		}
	}
	if overlap {
		go store()
	}

	stage(StageBeyond)
	var adds []func(*Result)
	if overlap {
		c := <-later
		adds, err = c.adds, c.err
	} else {
		dropTexts(s) // the later analyses do not read the texts
		if adds, err = computeLater(ctx, s, jobs, graded, opts.workers()); err == nil {
			store()
		} else {
			stored <- nil
		}
	}
	if serr := <-stored; err == nil {
		err = serr
	}
	if err != nil {
		return nil, err
	}
	for _, add := range adds {
		add(res)
	}
	rep.Tables = append(rep.Tables, listingTables(listings)...)
	rep.Warnings = append(rep.Warnings, failedSummary(listings.Failed)...)
	rep.Version = opts.Version
	rep.GeneratedAt = start
	for _, p := range cfg.Pairs() {
		rep.Settings = append(rep.Settings, report.KV{Key: p[0], Value: p[1]})
	}
	rep.Inputs = append(rep.Inputs, ls.inputs...)
	rep.Warnings = append(append(append([]string(nil), ls.warnings...), twarn...), rep.Warnings...)
	leaveOutUndefined(rep)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	return res, nil
}

// dropTexts forgets the response and reference texts of s once the text
// metrics and question pages are made (nothing after them reads the texts;
// the listings and pages keep what the writers need), so that the garbage
// collector can return them. Read back loaded only the texts these read
// (readBack).
func dropTexts(s *study.Study) {
	for i := range s.Responses {
		s.Responses[i].Text = ""
	}
	for i := range s.References {
		s.References[i].Text = ""
	}
}
