package pipeline

import (
	"context"
	"fmt"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/calibration"
	"github.com/euroexec/euroexec/metrics/judgeaudit"
	"github.com/euroexec/euroexec/metrics/pairwise"
	"github.com/euroexec/euroexec/metrics/planning"
	"github.com/euroexec/euroexec/metrics/prbench"
	"github.com/euroexec/euroexec/metrics/ranking"
	"github.com/euroexec/euroexec/metrics/reliability"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/study"
)

// analysisOptions maps study.toml to the options of the paper's analysis.
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
	o.QuestionPages = c.SiteQuestionPages()
	return o
}

// prbenchOptions maps study.toml to the PRBench options.
func prbenchOptions(c config.Config) prbench.Options {
	o := prbench.DefaultOptions()
	o.HardShare, o.HardCount, o.ParityMargin = c.Criteria.HardShare, c.Criteria.HardCount, c.Criteria.ParityMargin
	o.Seed, o.Bootstrap = c.Analysis.Seed, c.Analysis.Bootstrap
	return o
}

// scoreOptions is the Solve rule of study.toml [solve].
func scoreOptions(c config.Config) scores.Options {
	return scores.Options{RubricThreshold: c.Solve.RubricThreshold, ChecklistThreshold: c.Solve.ChecklistThreshold, PartialCredit: c.Solve.PartialCredit}
}

// beyond adds the analyses beyond the paper: reliability, rankings with
// uncertainty (and their columns of the summary table), judge calibration
// and prediction-powered estimates, length control and study planning, and
// keeps their typed results in res.
func beyond(ctx context.Context, res *Result, s *study.Study, c config.Config) error {
	rep := res.Report
	sc := scoreOptions(c)
	ro := reliability.DefaultOptions()
	ro.Seed, ro.Bootstrap, ro.Round, ro.Scores = c.Analysis.Seed, c.Analysis.Bootstrap, c.MainRound, sc
	r, err := reliability.Analyze(ctx, s, ro)
	if err != nil {
		return err
	}
	rep.Add(r.Part())
	res.Reliability = r
	ko := ranking.DefaultOptions()
	ko.Seed, ko.Bootstrap, ko.Round, ko.Scores = c.Analysis.Seed, c.Analysis.Bootstrap, c.MainRound, sc
	k, err := ranking.Analyze(ctx, s, ko)
	if err != nil {
		return err
	}
	rep.Add(k.Part())
	res.Rankings = k
	k.AnnotateSummary(rep.Table("summary"))
	co := calibration.DefaultOptions()
	co.Seed, co.Bootstrap, co.Scores = c.Analysis.Seed, c.Analysis.Bootstrap, sc
	cr, err := calibration.Analyze(ctx, s, co)
	if err != nil {
		return err
	}
	rep.Add(cr.Part())
	res.Calibration = cr
	po := planning.DefaultOptions()
	po.Plan.Scores = sc
	pr, err := planning.Analyze(ctx, s, po)
	if err != nil {
		return err
	}
	rep.Add(pr.Part())
	res.Planning = pr
	return nil
}

// auditJudges adds the judge audit (judge_bias, judge_bias_by_attribute,
// judge_audit and a forest plot per judge) to the report and keeps its
// typed result in res.
func auditJudges(ctx context.Context, res *Result, s *study.Study, c config.Config) error {
	o := judgeaudit.DefaultOptions()
	o.Seed, o.Bootstrap, o.Round = c.Analysis.Seed, c.Analysis.Bootstrap, c.MainRound
	o.Scores = scoreOptions(c)
	r, err := judgeaudit.Analyze(ctx, s, o)
	if err != nil {
		return fmt.Errorf("analyse: %w", err)
	}
	res.Report.Add(r.Part())
	res.JudgeAudit = r
	return nil
}

// addPairwise adds the analysis of the pairwise (A-vs-B) judgments and
// keeps its typed result in res.
func addPairwise(ctx context.Context, res *Result, s *study.Study, c config.Config) error {
	o := pairwise.DefaultOptions()
	o.Seed, o.Bootstrap, o.Round = c.Analysis.Seed, c.Analysis.Bootstrap, c.MainRound
	p, err := pairwise.Analyze(ctx, s, o)
	if err != nil {
		return fmt.Errorf("analyse pairwise judgments: %w", err)
	}
	res.Report.Add(p.Part())
	res.Pairwise = p
	return nil
}
