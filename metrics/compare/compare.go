// Package compare compares runs of a study: two runs (OLD and NEW) side by
// side with cluster-robust tests and intervals of every change, item-level
// regressions, judge drift and rank flips, and k ≥ 3 runs as a trend.
//
// It is pure computation over loaded studies (study.Study, as
// readback.Load returns them): no I/O, no DuckDB. Per-grading scores come
// from metrics/scores (the project's one definition of rubric mean,
// checklist rate and solved); Solve Rate, average rank, win rate, rubric and
// checklist rate are pooled over gradings as in summary.csv (main round, the
// human label left out, one row per grader population: humans or
// judge:<id>). It returns typed rows (Result); report/tables.Compare
// presents them as tables documented on their columns, and the
// definitions are in docs/METHODS.md ("Comparing runs").
package compare

import (
	"context"
	"errors"
	"fmt"

	"github.com/euroexec/euroexec/internal/workers"
	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/study"
)

// Run is one run of a study to compare.
type Run struct {
	// Label names the run in figures, notes and the trend table (e.g. the
	// report folder's name). Labels should differ; an empty label becomes
	// "run N".
	Label string
	// Study is the loaded run.
	Study *study.Study
	// Scores is the run's Solve rule (its study.toml [solve] section).
	Scores scores.Options
	// Pages, when not nil, maps a question id to the address of the
	// question's page in the run's site, relative to the comparison's
	// site folder; compare_questions.csv then links both runs' pages.
	Pages func(questionID string) string
}

// Options are the comparison's settings.
type Options struct {
	// Bootstrap is the number of bootstrap replicates behind the rank
	// intervals and each run's own intervals; default 2000. 0 leaves those
	// empty. The tests and the intervals of changes are cluster-robust t
	// (stats.RatioContrast) and need no replicates.
	Bootstrap int
	// Seed seeds replicate r's PCG stream as (Seed, r); default 1.
	Seed uint64
	// Alpha is the family-wise error rate of the Holm procedure behind the
	// flagged columns; default 0.05, accepted (0, 1).
	Alpha float64
	// Map renames models before matching, in every run: old → new (the
	// command's --map old=new), old being a model's name or, when no name
	// matches, its display name. A model not in Map matches by its name.
	// A rename must not give two models of one run the same name. Default
	// none.
	Map map[string]string
	// Margins are non-inferiority margins per metric, in the metric's own
	// units (rates as fractions: 0.02 for 2 percentage points; rubric in
	// points; avg_rank in ranks), each > 0. A row of a metric with a margin
	// gets a one-sided non-inferiority test at Alpha and a TOST
	// equivalence test (NonInferiority). Default none: the table has no
	// such columns.
	Margins map[string]float64
}

// HigherIsBetter says, per metric, which way is better (avg_rank: lower).
var HigherIsBetter = map[string]bool{"solve_rate": true, "rubric": true, "checklist_rate": true, "avg_rank": false, "win_rate": true}

// DefaultOptions returns 2000 replicates, seed 1, alpha 0.05 and no renames.
func DefaultOptions() Options { return Options{Bootstrap: 2000, Seed: 1, Alpha: 0.05} }

// Metrics are the compared measures, in table order.
var Metrics = []string{"solve_rate", "rubric", "checklist_rate", "avg_rank", "win_rate"}

// Table names.
const (
	ModelsTable    = "compare_models"
	QuestionsTable = "compare_questions"
	DriftTable     = "judge_drift"
	RankingsTable  = "compare_rankings"
	TrendTable     = "compare_trend"
	MatchingTable  = "compare_matching"
)

// Humans is the grader population of all human gradings pooled.
const Humans = "humans"

// Analyze compares runs[0] (OLD) with runs[len(runs)-1] (NEW) and, with
// three runs or more, adds the trend over all runs. It returns the typed
// rows of the comparison (report/tables.Compare presents them); warnings
// name what exists in one run only, solve rules that differ and judges
// that drifted. ctx is checked between bootstrap replicates.
func Analyze(ctx context.Context, runs []Run, opt Options) (Result, error) {
	var part Result
	if len(runs) < 2 {
		return part, errors.New("compare: need at least two runs")
	}
	if opt.Bootstrap < 0 {
		return part, fmt.Errorf("compare: bootstrap = %d: must not be negative", opt.Bootstrap)
	}
	if !(opt.Alpha > 0 && opt.Alpha < 1) {
		return part, fmt.Errorf("compare: alpha = %v: expected a level in (0, 1)", opt.Alpha)
	}
	rd := make([]*runData, len(runs))
	for i, r := range runs {
		if r.Study == nil {
			return part, fmt.Errorf("compare: run %d has no study", i+1)
		}
		if r.Label == "" {
			runs[i].Label = fmt.Sprintf("run %d", i+1)
		}
		seen := map[string]string{}
		name := renamer(r.Study, opt.Map)
		for _, m := range r.Study.Models {
			n := name(m.Name)
			if prev, dup := seen[n]; dup {
				return part, fmt.Errorf("compare: run %s: models %q and %q both become %q after the renames (--map): a rename must not merge two models of one run",
					runs[i].Label, prev, m.Name, n)
			}
			seen[n] = m.Name
		}
	}
	// Index the runs concurrently (each is independent and deterministic).
	_ = workers.Each(ctx, len(runs), func(i int) error {
		rd[i] = prepare(runs[i], opt.Map)
		return nil
	})
	if err := ctx.Err(); err != nil {
		return part, fmt.Errorf("compare: %w", err)
	}
	c := &comparison{opt: opt, runs: runs, rd: rd, old: rd[0], new: rd[len(rd)-1]}
	if err := c.compute(ctx); err != nil {
		return part, err
	}
	return c.result(), nil
}

// Counts are the runs' union as the report's "at a glance" block counts
// it (report/tables.CompareOverview).
type Counts struct {
	// Questions, Models (after renames, the human label not counted),
	// HumanGraders and Judges are distinct ids with a grading.
	Questions, Models, HumanGraders, Judges int
	// Gradings are HumanGradings + JudgeGradings over all runs, a judge's
	// runs on one response being one grading.
	Gradings, HumanGradings, JudgeGradings int
}

// Overview counts the runs' union for the report's "at a glance" block:
// distinct questions, models (after renames), human graders and judges
// with a grading, and the gradings of all runs split by grader kind, each
// run counted as paper.CountGradings counts a study (the definitions of
// report.Overview: a judge's runs on one response are one grading).
func Overview(runs []Run, rename map[string]string) Counts {
	qs, ms, hs, js := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	var o Counts
	for _, r := range runs {
		if r.Study == nil {
			continue
		}
		for _, q := range r.Study.Questions {
			qs[q.ID] = true
		}
		name := renamer(r.Study, rename)
		for _, m := range r.Study.Models {
			if m.Name != r.Study.HumanLabel {
				ms[name(m.Name)] = true
			}
		}
		c := paper.CountGradings(r.Study)
		for _, e := range c.Humans {
			hs[e] = true
		}
		for _, e := range c.Judges {
			js[e] = true
		}
		o.HumanGradings += c.HumanGradings
		o.JudgeGradings += c.JudgeGradings
	}
	o.Gradings = o.HumanGradings + o.JudgeGradings
	o.Questions, o.Models, o.HumanGraders, o.Judges = len(qs), len(ms), len(hs), len(js)
	return o
}
