package analysis

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync/atomic"

	"github.com/euroexec/euroexec/study"

	"github.com/euroexec/euroexec/internal/crash"
	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
)

// run is one call of Analyze.
type run struct {
	ctx    context.Context
	p      *prep
	opt    Options
	rep    *report.Report
	views  map[string]*view
	stats_ map[string][]modelStats
	gate   [][2]int64 // per question: gate cells passed, all
	// crossTau and crossIv hold Table 6's cross-evaluator τ per instrument
	// for Table 8.
	crossTau map[int]*meanAcc
	crossIv  [nIns][2]float64
	// summary holds the typed rows of the summary table.
	summary []SummaryRow
}

// Analyze computes every EuroExec table, figure and question page of the
// study s. It fills Overview, Attributes, Tables, Figures, Questions, Notes
// and Warnings of the returned report; the caller sets Title (copied from
// the study when not empty), Version, GeneratedAt, Settings and Inputs.
// An error means the study is inconsistent (a duplicate id) or an option
// is out of range; degenerate data never gives an error, only NaN cells
// and notes. A cancelled ctx stops the analysis between stages (and between
// bootstrap replicates, resamples and text pairs within one) and returns
// ctx's error.
func Analyze(ctx context.Context, s *study.Study, opt Options) (*report.Report, error) {
	r, err := AnalyzeResult(ctx, s, opt)
	if err != nil {
		return nil, err
	}
	return r.Report, nil
}

// AnalyzeResult is Analyze returning, beside the report, the typed values
// other code reads (the summary table's rows), so that a caller need not
// read them back from the report's tables.
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
	a := &run{ctx: ctx, p: p, opt: opt, rep: &report.Report{Title: s.Title, Attributes: append([]string(nil), s.Attributes...)},
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
	a.noteUndefined()
	a.rep.Notes = p.notes
	a.rep.Warnings = p.warnings
	return &Result{Report: a.rep, Summary: a.summary}, nil
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
		return nil // nothing to resample, or cancelled (Analyze returns the error)
	}
	// Once cancelled, the replicates left are skipped; Analyze returns the error.
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
// cancelled (Analyze then returns its error).
func (a *run) steps(fns ...func()) {
	for _, f := range fns {
		if a.ctx.Err() != nil {
			return
		}
		f()
	}
}

func (a *run) addTable(t *report.Table) { a.rep.Tables = append(a.rep.Tables, t) }

func (a *run) addFigure(f *report.Figure) { a.rep.Figures = append(a.rep.Figures, f) }

// leaveOut records a table left out and why.
func (a *run) leaveOut(table, format string, args ...any) {
	a.p.note(table, "left out: "+format, args...)
}

// undefinedWhy says, per table, why its cells can be empty.
var undefinedWhy = map[string]string{
	"summary":                  "a measure without data (no ranks, no checklist or no rubric for the population) or an interval without bootstrap replicates",
	"models":                   "prices not given in models",
	"difficulty":               "gate score range of a category that is not a configured bin",
	"descriptives":             "a standard deviation needs at least 2 values",
	"solve_rate_by_difficulty": "no graded response of the model in the bin, or no bootstrap replicates",
	"rubric_by_attribute":      "a standard deviation needs at least 2 gradings",
	"rubric_by_domain":         "no grading of the model in the domain, or a standard deviation from fewer than 2 gradings",
	"rubric_overall":           "a standard deviation needs at least 2 gradings",
	"attribute_correlations":   "Pearson r needs at least 2 gradings and neither side constant (the Fisher-z interval at least 4)",
	"pairwise_tests":           "a paired t-test needs at least 2 questions with scores for both models and differences that are not all zero",
	"pvalue_curve":             "no draw at this size gave a defined p-value",
	"pvalue_crossings":         "the median p-value never stays below the threshold",
	"checklist_distribution":   "the model has no grading with a defined checklist rate",
	"verdict_pairs":            "no (response, item) cell of the domain has 2 verdicts",
	"consistency":              "every unit's τ is undefined (a constant side or fewer than 2 models), or no bootstrap replicates",
	"evaluators":               "the evaluator has no grading with a defined checklist rate or solved flag",
	"extreme_evaluators":       "the group did not grade the model, or no bootstrap replicates",
	"judge_consistency":        "every unit's τ is undefined (a constant side, tied judge ranks after averaging runs, or fewer than 2 common models), or no bootstrap replicates",
	"judge_vs_human":           "no response of the model graded by both, or no bootstrap replicates",
	"judge_crispness":          "a slope or SD ratio needs at least 2 models whose human means differ",
	"cost_vs_solve":            "some responses of the model have no cost, or the fit needs 2 models with a cost",
	"length_vs_scores":         "the model has no response with text",
	"length_correlations":      "Pearson r needs at least 2 responses and neither side constant",
	"text_metrics":             "the response has no human grading in the main round",
	"table7":                   "no human grading of the model's scored responses",
	"table7_correlations":      "Pearson r and τ need at least 2 values and neither side constant",
}

// noteUndefined adds one note per table with empty (NaN) cells.
func (a *run) noteUndefined() {
	for _, t := range a.rep.Tables {
		if n := countNaN(t); n > 0 {
			why, ok := undefinedWhy[t.Name]
			if !ok {
				why = "the value is undefined for the data"
			}
			a.p.note(t.Name, "%d empty cells (undefined, not zero): %s", n, why)
		}
	}
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
	o := &a.rep.Overview
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
