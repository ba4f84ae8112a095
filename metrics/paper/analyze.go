package paper

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync/atomic"

	"github.com/euroexec/euroexec/study"

	"github.com/euroexec/euroexec/internal/crash"
	"github.com/euroexec/euroexec/metrics/stats"
)

// run is one call of AnalyzeResult.
type run struct {
	ctx    context.Context
	p      *prep
	opt    Options
	res    *Result // what the stages fill
	views  map[string]*view
	stats_ map[string][]modelStats
	gate   [][2]int64 // per question: gate cells passed, all
	// crossTau and crossIv hold Table 6's cross-evaluator τ per instrument
	// for Table 8.
	crossTau map[int]*meanAcc
	crossIv  [nIns][2]float64
}

// AnalyzeResult computes every EuroExec table, figure and question page of
// the study s as typed results; tables.Paper turns them into the report
// (the caller sets Version, GeneratedAt, Settings and Inputs). An error
// means the study is inconsistent (a duplicate id) or an option is out of
// range; degenerate data never gives an error, only NaN values and notes.
// A cancelled ctx stops the analysis between stages (and between bootstrap
// replicates, resamples and text pairs within one) and returns ctx's error.
func AnalyzeResult(ctx context.Context, s *study.Study, opt Options) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	// Run in a goroutine so that a cancel returns at once even from the
	// parts of a stage that do not check ctx; the abandoned computation
	// stops at its next check, calls Progress no more, and is dropped.
	type result struct {
		r   *Result
		err error
	}
	var dropped atomic.Bool
	if progress := opt.Progress; progress != nil {
		opt.Progress = func(stage string, i, n int) {
			if !dropped.Load() {
				progress(stage, i, n)
			}
		}
	}
	if text := opt.TextProgress; text != nil {
		opt.TextProgress = func(i, n int) {
			if !dropped.Load() {
				text(i, n)
			}
		}
	}
	done := make(chan result, 1)
	go func() {
		var res result
		defer func() { done <- res }()
		defer crash.Recover(&res.err)
		res.r, res.err = analyzeStudy(ctx, s, opt)
	}()
	select {
	case res := <-done:
		return res.r, res.err
	case <-ctx.Done():
		dropped.Store(true)
		return nil, fmt.Errorf("analysis: %w", ctx.Err())
	}
}

// analyzeStudy is AnalyzeResult without the goroutine.
func analyzeStudy(ctx context.Context, s *study.Study, opt Options) (*Result, error) {
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	p, err := newPrep(s, opt)
	if err != nil {
		return nil, err
	}
	a := &run{ctx: ctx, p: p, opt: opt, res: &Result{Title: s.Title, Attributes: append([]string(nil), s.Attributes...)},
		views: map[string]*view{}, stats_: map[string][]modelStats{}}
	stages := []struct {
		name string
		fn   func()
	}{
		{"overview", a.overview},
		{"summary", a.summaryTable},
		{"dataset", a.datasetTables},
		{"rubric", a.rubricTables},
		{"significance", a.significanceTables},
		{"checklist", a.checklistTables},
		{"consistency", a.consistencyTables},
		{"evaluators", a.evaluatorTables},
		{"judges", a.judgeTables},
		{"cost", a.costTables},
		{"text metrics", a.textTables},
		{"questions", a.questionPages},
	}
	for i, st := range stages {
		if opt.Progress != nil {
			opt.Progress(st.name, i, len(stages))
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("analysis: %s: %w", st.name, err)
		}
		st.fn()
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	if opt.Progress != nil {
		opt.Progress("done", len(stages), len(stages))
	}
	a.res.Notes, a.res.Warnings = p.notes, p.warnings
	return a.res, nil
}

func checkOptions(o Options) error {
	switch {
	case !(o.ChecklistThreshold >= 0 && o.ChecklistThreshold <= 1):
		return fmt.Errorf("analysis: checklist threshold %v is not in [0,1]", o.ChecklistThreshold)
	case !(o.PartialCredit >= 0 && o.PartialCredit <= 1):
		return fmt.Errorf("analysis: partial credit %v is not in [0,1]", o.PartialCredit)
	case math.IsNaN(o.RubricThreshold) || math.IsInf(o.RubricThreshold, 0):
		return fmt.Errorf("analysis: rubric threshold %v is not a number", o.RubricThreshold)
	case o.Bootstrap < 0 || o.Resamples < 0 || o.ExtremeEvaluators < 0:
		return fmt.Errorf("analysis: bootstrap (%d), resamples (%d) and extreme evaluators (%d) must not be negative",
			o.Bootstrap, o.Resamples, o.ExtremeEvaluators)
	}
	for i := 1; i < len(o.DifficultyBins); i++ {
		if !(o.DifficultyBins[i].Max > o.DifficultyBins[i-1].Max) {
			return fmt.Errorf("analysis: difficulty bin %q: max %v is not above the previous bin's %v",
				o.DifficultyBins[i].Name, o.DifficultyBins[i].Max, o.DifficultyBins[i-1].Max)
		}
	}
	return nil
}

// view returns the (cached) view of a set and population.
func (a *run) view(set string, judge int) *view {
	k := fmt.Sprint(set, "/", judge)
	if v, ok := a.views[k]; ok {
		return v
	}
	v := a.p.makeView(set, judge)
	a.views[k] = v
	return v
}

// stats returns the (cached) Table 4 measures of a view.
func (a *run) stats(set string, judge int) []modelStats {
	k := fmt.Sprint(set, "/", judge)
	if s, ok := a.stats_[k]; ok {
		return s
	}
	s := a.summarize(a.view(set, judge))
	a.stats_[k] = s
	return s
}

// bootstrap runs the cluster bootstrap over nClusters questions with
// Options.Bootstrap replicates; nil when there is nothing to resample.
func (a *run) bootstrap(nClusters, nOut int, stat func(idx []int, out []float64)) [][]float64 {
	if a.opt.Bootstrap <= 0 || nClusters == 0 || nOut == 0 || a.ctx.Err() != nil {
		return nil // nothing to resample, or cancelled (AnalyzeResult returns the error)
	}
	// Once cancelled, the replicates left are skipped; AnalyzeResult returns the error.
	reps, _ := stats.ClusterBootstrapContext(a.ctx, nClusters, a.opt.Bootstrap, a.opt.Seed, nOut, stat)
	return reps
}

// interval is the 95 % percentile interval of output j; NaN without replicates.
func (a *run) interval(reps [][]float64, j int) (lo, hi float64) {
	if reps == nil {
		return math.NaN(), math.NaN()
	}
	return stats.PercentileInterval(reps, j, 0.95)
}

// steps runs the parts of a stage in order, stopping once the context is
// cancelled (AnalyzeResult then returns its error).
func (a *run) steps(fns ...func()) {
	for _, f := range fns {
		if a.ctx.Err() != nil {
			return
		}
		f()
	}
}

// leaveOut records a table left out and why.
func (a *run) leaveOut(table, format string, args ...any) {
	a.p.note(table, "left out: "+format, args...)
}

// sortByValue returns st ordered by f descending (ties by model index).
func sortByValue(st []modelStats, f func(modelStats) float64) []modelStats {
	out := append([]modelStats(nil), st...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := f(out[i]), f(out[j])
		if math.IsNaN(a) != math.IsNaN(b) {
			return !math.IsNaN(a)
		}
		if a != b {
			return a > b
		}
		return out[i].model < out[j].model
	})
	return out
}

// overview counts what the study holds.
func (a *run) overview() {
	p := a.p
	o := &a.res.Overview
	o.Questions = p.nQ()
	o.Models = p.nM()
	if p.label >= 0 {
		o.Models--
		m := p.s.Models[p.label]
		o.HumanLabel = m.Name
		if m.DisplayName != "" {
			o.HumanLabel = m.DisplayName
		}
	}
	doms := map[string]bool{}
	for _, q := range p.s.Questions {
		doms[q.Domain] = true
	}
	o.Domains = len(doms)
	c := CountGradings(p.s)
	o.HumanGraders, o.Judges = len(c.Humans), len(c.Judges)
	o.HumanGradings, o.JudgeGradings = c.HumanGradings, c.JudgeGradings
	o.Gradings = c.HumanGradings + c.JudgeGradings
	have := []struct {
		name string
		ok   bool
	}{
		{"rubric", p.hasRubric}, {"checklist", p.hasChecklist}, {"ranking", p.hasRanks},
		{"references", p.hasRefs}, {"judges", p.hasJudges}, {"criteria", len(p.s.Criteria) > 0},
		{"gate", p.hasGate}, {"cost", p.hasCost}, {"pairwise", len(p.s.Comparisons) > 0},
	}
	for _, h := range have {
		if h.ok {
			o.Instruments = append(o.Instruments, h.name)
		} else {
			o.Missing = append(o.Missing, h.name)
		}
	}
}
