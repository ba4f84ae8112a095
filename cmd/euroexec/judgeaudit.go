package main

import (
	"context"
	"fmt"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/judgeaudit"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/report"
)

// auditJudges adds the judge audit (judge_bias, judge_bias_by_attribute,
// judge_audit and a forest plot per judge) to the report.
func auditJudges(ctx context.Context, rep *report.Report, s *analysis.Study, c config.Config) error {
	o := judgeaudit.DefaultOptions()
	o.Seed, o.Bootstrap, o.Round = c.Analysis.Seed, c.Analysis.Bootstrap, c.MainRound
	o.Scores = scores.Options{RubricThreshold: c.Solve.RubricThreshold, ChecklistThreshold: c.Solve.ChecklistThreshold, PartialCredit: c.Solve.PartialCredit}
	r, err := judgeaudit.Analyze(ctx, s, o)
	if err != nil {
		return fmt.Errorf("analyse: %w", err)
	}
	rep.Add(r)
	return nil
}
