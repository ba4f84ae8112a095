package pipeline

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"sync"

	"golang.org/x/sync/errgroup"

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
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/readback"
	"github.com/euroexec/euroexec/report/tables"
	"github.com/euroexec/euroexec/study"
)

// analysisOptions maps study.toml to the options of the paper's analysis.
func analysisOptions(c config.Config) paper.Options {
	o := paper.DefaultOptions()
	o.RubricThreshold = c.Solve.RubricThreshold
	o.ChecklistThreshold = c.Solve.ChecklistThreshold
	o.PartialCredit = c.Solve.PartialCredit
	o.DifficultyBins = nil
	for _, b := range c.Difficulty.Bins {
		o.DifficultyBins = append(o.DifficultyBins, paper.Bin{Name: b.Name, Max: b.Max})
	}
	o.Seed = c.Analysis.Seed
	o.Bootstrap = c.Analysis.Bootstrap
	o.Resamples = c.Analysis.Resamples
	o.ExtremeEvaluators = c.Analysis.ExtremeEvaluators
	o.Stemmer = c.Stemmer()
	o.TextFilter.Key, o.TextFilter.Value = c.TextFilter()
	o.Language = c.Text.Language
	o.QuestionPages = c.SiteQuestionPages()
	o.Primary = c.Report.Primary
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
	return readback.ScoreOptions(c)
}

// job is one analysis that runs after the paper's: run computes from the
// study alone (it may run concurrently with the other jobs: the analyses
// only read the study) and returns add, which puts the typed result and
// its report part into res; the adds run one after another in the jobs'
// order, so the report's tables, figures, notes and warnings come in the
// same order as when the analyses ran one by one.
type job struct {
	name string
	// early: the job reads the study's grading rows (Study.Gradings); a
	// large study's later analyses run these first and then release the
	// rows (computeLater).
	early bool
	run   func(ctx context.Context) (add func(res *Result), err error)
}

// laterAnalyses are the analyses after the paper's, in report order:
// PRBench, reliability, rankings with uncertainty (which also annotate the
// summary table), judge calibration and length control, study planning,
// the judge audit and the pairwise judgments. Each job's error is wrapped
// as when they ran one by one.
//
// The study's per-grading scores are computed once, by the first job that
// needs them or by the caller through the returned graded, and shared
// read-only by reliability, ranking, calibration, planning and the judge
// audit (one copy instead of one per analysis).
func laterAnalyses(s *study.Study, c config.Config) (jobs []job, graded func() []scores.Grading) {
	sc := scoreOptions(c)
	graded = sync.OnceValue(func() []scores.Grading { return scores.Compute(s, sc) })
	return []job{
		{"prbench", false, func(ctx context.Context) (func(*Result), error) {
			pr, err := prbench.Analyze(ctx, s, prbenchOptions(c))
			if err != nil {
				return nil, fmt.Errorf("analyse: %w", err)
			}
			return func(res *Result) { res.Report.Add(tables.PRBench(pr)); res.PRBench = pr }, nil
		}},
		{"reliability", false, func(ctx context.Context) (func(*Result), error) {
			o := reliability.DefaultOptions()
			o.Seed, o.Bootstrap, o.Round, o.Scores, o.Graded = c.Analysis.Seed, c.Analysis.Bootstrap, c.MainRound, sc, graded()
			r, err := reliability.Analyze(ctx, s, o)
			if err != nil {
				return nil, fmt.Errorf("analyse: %w", err)
			}
			return func(res *Result) { res.Report.Add(tables.Reliability(r)); res.Reliability = r }, nil
		}},
		{"ranking", false, func(ctx context.Context) (func(*Result), error) {
			o := ranking.DefaultOptions()
			o.Seed, o.Bootstrap, o.Round, o.Scores, o.Graded = c.Analysis.Seed, c.Analysis.Bootstrap, c.MainRound, sc, graded()
			k, err := ranking.Analyze(ctx, s, o)
			if err != nil {
				return nil, fmt.Errorf("analyse: %w", err)
			}
			return func(res *Result) {
				res.Report.Add(tables.Ranking(k))
				res.Rankings = k
				tables.RankingAnnotateSummary(k, res.Report.Table("summary"))
			}, nil
		}},
		{"rater adjustment", false, func(ctx context.Context) (func(*Result), error) {
			ra, err := rateradjust.Estimate(ctx, raterObs(s, c, graded()), rateradjust.DefaultOptions())
			if err != nil {
				return nil, fmt.Errorf("analyse: %w", err)
			}
			return func(res *Result) { res.Report.Add(tables.RaterAdjusted(ra, !c.Rubric.Lower())); res.RaterAdjusted = ra }, nil
		}},
		{"calibration", false, func(ctx context.Context) (func(*Result), error) {
			o := calibration.DefaultOptions()
			o.Seed, o.Bootstrap, o.Scores, o.Graded = c.Analysis.Seed, c.Analysis.Bootstrap, sc, graded()
			cr, err := calibration.Analyze(ctx, s, o)
			if err != nil {
				return nil, fmt.Errorf("analyse: %w", err)
			}
			return func(res *Result) { res.Report.Add(tables.Calibration(cr)); res.Calibration = cr }, nil
		}},
		{"planning", false, func(ctx context.Context) (func(*Result), error) {
			o := planning.DefaultOptions()
			o.Plan.Scores, o.Plan.Graded = sc, graded()
			pr, err := planning.Analyze(ctx, s, o)
			if err != nil {
				return nil, fmt.Errorf("analyse: %w", err)
			}
			return func(res *Result) { res.Report.Add(tables.Planning(pr)); res.Planning = pr }, nil
		}},
		{"judge audit", true, func(ctx context.Context) (func(*Result), error) {
			o := judgeaudit.DefaultOptions()
			o.Seed, o.Bootstrap, o.Round = c.Analysis.Seed, c.Analysis.Bootstrap, c.MainRound
			o.Scores, o.Graded = sc, graded()
			r, err := judgeaudit.Analyze(ctx, s, o)
			if err != nil {
				return nil, fmt.Errorf("analyse: %w", err)
			}
			return func(res *Result) { res.Report.Add(tables.JudgeAudit(r)); res.JudgeAudit = r }, nil
		}},
		{"pairwise", true, func(ctx context.Context) (func(*Result), error) {
			o := pairwise.DefaultOptions()
			o.Seed, o.Bootstrap, o.Round = c.Analysis.Seed, c.Analysis.Bootstrap, c.MainRound
			p, err := pairwise.Analyze(ctx, s, o)
			if err != nil {
				return nil, fmt.Errorf("analyse pairwise judgments: %w", err)
			}
			return func(res *Result) { res.Report.Add(tables.Pairwise(p)); res.Pairwise = p }, nil
		}},
	}, graded
}

// raterObs are the main round's human gradings with a rubric mean, of the
// models other than the graded human answer: what the rater adjustment
// fits.
func raterObs(s *study.Study, c config.Config, gs []scores.Grading) []rateradjust.Obs {
	var obs []rateradjust.Obs
	for i := range gs {
		g := &gs[i]
		if g.Kind != study.Human || g.Round != c.MainRound || g.Model == s.HumanLabel || math.IsNaN(g.RubricMean) {
			continue
		}
		obs = append(obs, rateradjust.Obs{Question: g.QuestionID, Model: g.Model, Grader: g.Evaluator, Score: g.RubricMean})
	}
	return obs
}

// computeLater runs the later analyses of a large study, after the
// paper's (Options.OverlapMaxGradings), holding less memory at once than
// computeJobs: releaseBeforeLater; then the early jobs (those that read the
// study's grading rows: the judge audit and the pairwise judgments), with
// at most workers at a time; then, the rows released (s.Gradings = nil:
// 280 MB at 40,000 questions, of which the shared scores keep the rubric
// and verdict slabs), collected and the freed memory given back to the
// system (debug.FreeOSMemory), the other jobs. The adds and the error
// are those of computeJobs on all jobs: every job runs, and the error is
// that of the first failed job in the jobs' order.
func computeLater(ctx context.Context, s *study.Study, jobs []job, graded func() []scores.Grading, workers int) ([]func(*Result), error) {
	releaseBeforeLater(graded)
	var early, late []int
	for i, j := range jobs {
		if j.early {
			early = append(early, i)
		} else {
			late = append(late, i)
		}
	}
	adds := make([]func(*Result), len(jobs))
	errs := make([]error, len(jobs))
	phase := func(idx []int) {
		part := make([]job, len(idx))
		for k, i := range idx {
			part[k] = jobs[i]
		}
		a, e := runEach(ctx, part, workers)
		for k, i := range idx {
			adds[i], errs[i] = a[k], e[k]
		}
	}
	phase(early)
	s.Gradings = nil
	// collect the rows and give the pages back: the early jobs' garbage
	// would otherwise stay in the process up to the heap goal they set
	debug.FreeOSMemory()
	phase(late)
	for i := range jobs {
		if errs[i] != nil {
			return nil, errs[i]
		}
	}
	return adds, nil
}

// releaseBeforeLater makes room for the later analyses of a large study,
// which run after the paper's (Options.OverlapMaxGradings). It collects
// the paper's intermediates, garbage now but live when the collector last
// set its heap goal (twice the live heap): without it the later analyses
// would grow the heap up to that goal before the next collection. It also
// gives the freed memory back to the system (debug.FreeOSMemory): the
// shared scores are one large slice (214 MB at 40,000 questions), which
// otherwise tends to be mapped anew beside freed pages too scattered to
// hold it. Then it computes the shared per-grading scores (graded).
func releaseBeforeLater(graded func() []scores.Grading) {
	debug.FreeOSMemory()
	graded()
}

// runJobs runs jobs with at most workers at a time (workers < 1 means
// one), then applies their results to res in the jobs' order (computeJobs,
// then each add).
func runJobs(ctx context.Context, res *Result, jobs []job, workers int) error {
	adds, err := computeJobs(ctx, jobs, workers)
	if err != nil {
		return err
	}
	for _, add := range adds {
		add(res)
	}
	return nil
}

// computeJobs runs jobs with at most workers at a time (workers < 1 means
// one) and returns their adds in the jobs' order, for the caller to apply
// to the result one after another. Every job runs to its end even when
// another fails (a failure does not cancel the others), and the error
// returned is that of the first job, in order, that failed: the same
// report and the same error as running them one by one. A cancelled ctx
// stops the jobs that check it and comes back as the first cancelled
// job's error. It touches no Result, so it may run while the paper's
// analysis makes the report.
func computeJobs(ctx context.Context, jobs []job, workers int) ([]func(*Result), error) {
	adds, errs := runEach(ctx, jobs, workers)
	for i := range jobs {
		if errs[i] != nil {
			return nil, errs[i]
		}
	}
	return adds, nil
}

// runEach runs every job, at most workers at a time (workers < 1 means
// one), and returns each job's add and error in the jobs' order; a job
// that would start after ctx is cancelled does not run and gets ctx's
// error, wrapped with its name.
func runEach(ctx context.Context, jobs []job, workers int) ([]func(*Result), []error) {
	adds := make([]func(*Result), len(jobs))
	errs := make([]error, len(jobs))
	// Every job runs and reports its own error (one failed analysis does
	// not stop the others): the group limits how many run at once.
	var g errgroup.Group
	g.SetLimit(max(workers, 1))
	for i, j := range jobs {
		if err := ctx.Err(); err != nil {
			errs[i] = fmt.Errorf("analyse: %s: %w", j.name, err)
			continue
		}
		g.Go(func() error {
			defer func() {
				if v := recover(); v != nil { // a bug: reported as one (exit status 70), not a crash of the process
					errs[i] = fmt.Errorf("analyse: %s: %w", j.name, crash.New(v))
				}
			}()
			adds[i], errs[i] = j.run(ctx)
			return nil
		})
	}
	_ = g.Wait()
	return adds, errs
}
