package pipeline

import (
	"context"
	"fmt"

	"github.com/euroexec/euroexec/readback"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/store"
)

// RunStore analyses run name ("" for the only run) of the Parquet store at
// dir (package store) where it lies: no database is loaded. The canonical
// tables are DuckDB views over the run's Parquet files, so the per-grading
// scores (the grading_scores view) and the other reductions of read back
// are computed by DuckDB as it streams the files, within duckopen's memory
// limit, and only their results reach Go. The settings, inputs and
// ingest's warnings come from the run's file; the report equals Run's on
// the study folder the run was made from, but for text_metrics, which is
// not stored (the store is only read). opts.DB and opts.LoadProgress are
// not used.
func RunStore(ctx context.Context, dir, name string, opts Options) (*Result, error) {
	if opts.Now == nil {
		opts.Now = DefaultOptions().Now
	}
	start := opts.Now()
	if opts.Stage != nil {
		opts.Stage(StageLoad)
	}
	r, err := store.FindRun(dir, name)
	if err != nil {
		return nil, err
	}
	cfg, err := r.Config()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	ls := loadedStudy{cfg: cfg, rows: r.Rows, warnings: r.Warnings,
		open: func() (*readback.DB, error) {
			db, _, err := store.Open(ctx, dir, r.Name)
			if err != nil {
				return nil, err
			}
			return readback.Wrap(db), nil
		}}
	for _, f := range r.Inputs {
		ls.inputs = append(ls.inputs, report.InputFile{Path: f.Path, SHA256: f.SHA256, Rows: f.Rows})
	}
	return analyseLoaded(ctx, opts, start, ls)
}
