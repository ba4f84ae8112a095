package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/metrics/planning"
	"github.com/euroexec/euroexec/outsafe"
	"github.com/euroexec/euroexec/readback"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/tables"
)

// Plan is `euroexec plan`'s work: it validates the pilot study in
// studyDir, loads it into a scratch database (removed before Plan
// returns), reads its gradings back and returns the study plan
// (planning.Plan with opt, the study's Solve rule) as the table
// study_plan. An invalid study is an *ingest.ProblemsError. note, when not
// nil, is told of stale scratch folders cleaned up.
func Plan(ctx context.Context, studyDir string, opt planning.PlanOptions, note func(string)) (*report.Table, error) {
	for _, n := range outsafe.CleanScratch() {
		if note != nil {
			note(n)
		}
	}
	tmp, err := outsafe.ScratchDir("plan")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	db := filepath.Join(tmp, "study.duckdb")
	res, err := ingest.Ingest(ctx, studyDir, ingest.Options{DB: db})
	if err != nil {
		return nil, err
	}
	d, err := readback.Open(db)
	if err != nil {
		return nil, err
	}
	s, _, err := d.LoadWithoutTexts(ctx, res.Config) // the plan reads scores, not texts
	d.Close()
	if err != nil {
		return nil, err
	}
	opt.Scores = readback.ScoreOptions(res.Config)
	pairs, err := planning.Plan(s, opt)
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	return tables.PlanningPairs(pairs, opt), nil
}
