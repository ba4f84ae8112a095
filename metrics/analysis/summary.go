package analysis

import (
	"math"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

// modelStats are one model's Table 4 measures over one view's gradings.
type modelStats struct {
	model                                          int
	nQuestions, nGradings                          int
	solve, rank, win, rubric, checklist            float64
	solveLo, solveHi, rankLo, rankHi               float64
	winLo, winHi, rubricLo, rubricHi, chkLo, chkHi float64
	// wilson: the Solve Rate or win rate interval is a Wilson interval
	// (edgeInterval)
	wilson bool
}

// edgeQuestions is the number of questions below which a rate's interval
// is a Wilson interval instead of a percentile interval of resampled
// questions.
const edgeQuestions = 10

// edgeInterval returns the interval of a rate on nQ questions: the
// bootstrap percentile interval [lo, hi] as it is, or, when the rate is 0
// or 1, the percentile interval has no width, or there are fewer than
// edgeQuestions questions, the Wilson score interval (stats.Wilson) with
// the questions as the sample size, which is conservative when questions
// have several gradings and never collapses to a point; true when it
// replaced the percentile interval.
func edgeInterval(rate, lo, hi float64, nQ int) (float64, float64, bool) {
	if math.IsNaN(rate) || nQ == 0 || math.IsNaN(lo) && math.IsNaN(hi) {
		return lo, hi, false
	}
	if rate > 0 && rate < 1 && lo < hi && nQ >= edgeQuestions {
		return lo, hi, false
	}
	n := float64(nQ)
	wlo, whi := stats.Wilson(rate*n, n, 0.95)
	return wlo, whi, true
}

// Per-cluster accumulator layout of the summary bootstrap.
const (
	acSolvedN = iota // gradings with a defined solved flag
	acSolved
	acRankedN
	acRankSum
	acWins
	acRubN
	acRubSum
	acChkN
	acChkSum
	acLen
)

// summarize computes the Table 4 measures of every model of v with their
// cluster-bootstrap intervals (one shared resample of questions per
// replicate for all models).
func (a *run) summarize(v *view) []modelStats {
	p := a.p
	nM := len(v.models)
	mPos := map[int]int{}
	for i, m := range v.models {
		mPos[m] = i
	}
	nC := len(v.questions)
	acc := make([]float64, nC*nM*acLen)
	out := make([]modelStats, nM)
	type exact struct {
		solved, solvedN, rankSum, rankedN, wins int64
		rub, chk                                study.RatSum
	}
	ex := make([]exact, nM)
	qSeen := make([]bool, nC*nM) // (cluster, model position) counted in nQuestions
	for pos, gi := range v.g {
		g := &p.grades[gi]
		mi := mPos[g.m]
		qi := int(v.qPos[g.q])
		c := acc[(qi*nM+mi)*acLen:][:acLen]
		e := &ex[mi]
		if !qSeen[qi*nM+mi] {
			qSeen[qi*nM+mi] = true
			out[mi].nQuestions++
		}
		out[mi].nGradings++
		if g.solved >= 0 {
			c[acSolvedN]++
			c[acSolved] += float64(g.solved)
			e.solvedN++
			e.solved += int64(g.solved)
		}
		if r := v.rank[pos]; r > 0 {
			c[acRankedN]++
			c[acRankSum] += r
			e.rankedN++
			e.rankSum += int64(r)
			if v.win[pos] {
				c[acWins]++
				e.wins++
			}
		}
		if !math.IsNaN(g.rubMean) {
			c[acRubN]++
			c[acRubSum] += g.rubMean
			addRubric(&e.rub, g)
		}
		if !math.IsNaN(g.rate) {
			c[acChkN]++
			c[acChkSum] += g.rate
			addChecklist(&e.chk, g)
		}
	}
	const k = 5
	reps := a.bootstrapSums(acc, nM*acLen, nM*k, func() func(all, o []float64) { return summaryFinish(nM) })
	for mi, m := range v.models {
		e := &ex[mi]
		o := &out[mi]
		o.model = m
		o.solve = frac(e.solved, e.solvedN)
		o.rank = frac(e.rankSum, e.rankedN)
		o.win = frac(e.wins, e.rankedN)
		o.rubric = e.rub.Mean()
		o.checklist = e.chk.Mean()
		o.solveLo, o.solveHi = a.interval(reps, mi*k+0)
		o.rankLo, o.rankHi = a.interval(reps, mi*k+1)
		o.winLo, o.winHi = a.interval(reps, mi*k+2)
		o.rubricLo, o.rubricHi = a.interval(reps, mi*k+3)
		o.chkLo, o.chkHi = a.interval(reps, mi*k+4)
		var ws, ww bool
		o.solveLo, o.solveHi, ws = edgeInterval(o.solve, o.solveLo, o.solveHi, o.nQuestions)
		o.winLo, o.winHi, ww = edgeInterval(o.win, o.winLo, o.winHi, o.nQuestions)
		o.wilson = ws || ww
	}
	return out
}

// summaryFinish turns the summed accumulators of one replicate (nM rows of
// acLen) into the five Table 4 measures per model.
func summaryFinish(nM int) func(all, o []float64) {
	const k = 5
	return func(all, o []float64) {
		for mi := 0; mi < nM; mi++ {
			s := all[mi*acLen : (mi+1)*acLen]
			o[mi*k+0] = ratioF(s[acSolved], s[acSolvedN])
			o[mi*k+1] = ratioF(s[acRankSum], s[acRankedN])
			o[mi*k+2] = ratioF(s[acWins], s[acRankedN])
			o[mi*k+3] = ratioF(s[acRubSum], s[acRubN])
			o[mi*k+4] = ratioF(s[acChkSum], s[acChkN])
		}
	}
}

// addRubric adds g's rubric mean to an exact sum: its exact fraction
// (scores.Grading.RubricRat) when it has one, else the float mean (the sum
// then falls back to float64, see study.RatSum).
func addRubric(f *study.RatSum, g *grade) {
	f.Add(g.rub, g.rubMean)
}

// addChecklist adds g's checklist rate to an exact sum (its exact fraction
// when it has one, as addRubric).
func addChecklist(f *study.RatSum, g *grade) {
	r := study.Rat{}
	if g.chkExact {
		r = study.NewRat(g.chkNum, g.chkDen)
	}
	f.Add(r, g.rate)
}

func ratioF(num, den float64) float64 {
	if den == 0 {
		return math.NaN()
	}
	return num / den
}

var summaryCols = []report.Column{
	col("set", report.Text, "all = the main round without the human label; reference_subset = the questions where the human label was graded, all models"),
	col("graders", report.Text, "humans (all human gradings pooled) or judge:<id> (one judge, runs averaged per response)"),
	col("model", report.Text, "model name"),
	col("n_questions", report.Int, "questions on which the model has gradings"),
	col("n_gradings", report.Int, "gradings of the model by the population (one evaluator's grading of one response, judge runs averaged); for set all and humans, Table 3's human_gradings"),
	col("solve_rate", report.Fraction, "share of gradings with mean rubric ≥ threshold and checklist rate ≥ threshold"),
	col("solve_rate_lo", report.Fraction, "95 % cluster-bootstrap interval over questions, lower end; a Wilson interval on the questions at 0 % or 100 % or below 10 questions (see notes)"),
	col("solve_rate_hi", report.Fraction, "95 % interval, upper end"),
	col("avg_rank", report.Float, "mean rank among the compared models (1 = best), ranks re-derived per grading"),
	col("avg_rank_lo", report.Float, "95 % interval, lower end"),
	col("avg_rank_hi", report.Float, "95 % interval, upper end"),
	col("win_rate", report.Fraction, "share of ranked gradings where the model was ranked first among the compared models"),
	col("win_rate_lo", report.Fraction, "95 % interval, lower end"),
	col("win_rate_hi", report.Fraction, "95 % interval, upper end"),
	col("rubric", report.Float, "mean over gradings of the mean attribute score"),
	col("rubric_lo", report.Float, "95 % interval, lower end"),
	col("rubric_hi", report.Float, "95 % interval, upper end"),
	col("checklist_rate", report.Fraction, "mean over gradings of (hits + partial credit × partials) / items not na"),
	col("checklist_rate_lo", report.Fraction, "95 % interval, lower end"),
	col("checklist_rate_hi", report.Fraction, "95 % interval, upper end"),
}

// summaryTable builds Tables 4 and 10 for every set and grader population.
func (a *run) summaryTable() {
	p := a.p
	wilson := 0
	for _, set := range []string{setAll, setRef} {
		pops := append([]int{-1}, p.judges...)
		for _, j := range pops {
			v := a.view(set, j)
			if len(v.g) == 0 {
				if j < 0 {
					a.noteEmptySet(set)
				}
				continue
			}
			p.noteCoverage("summary", v)
			for _, o := range a.stats(set, j) {
				if o.wilson {
					wilson++
				}
				a.summary = append(a.summary, SummaryRow{Set: set, Graders: v.pop, Model: p.s.Models[o.model].Name,
					Questions: int64(o.nQuestions), Gradings: int64(o.nGradings),
					SolveRate: o.solve, SolveRateLo: o.solveLo, SolveRateHi: o.solveHi,
					AvgRank: o.rank, AvgRankLo: o.rankLo, AvgRankHi: o.rankHi,
					WinRate: o.win, WinRateLo: o.winLo, WinRateHi: o.winHi,
					Rubric: o.rubric, RubricLo: o.rubricLo, RubricHi: o.rubricHi,
					Checklist: o.checklist, ChecklistLo: o.chkLo, ChecklistHi: o.chkHi})
			}
		}
	}
	if !p.hasRanks {
		p.note("summary", "the study has no preference ranks: avg_rank and win_rate are empty")
	}
	if wilson > 0 {
		p.note("summary", "%d rows: the Solve Rate or win rate interval is a Wilson score interval on the number of questions "+
			"(the rate is 0 %% or 100 %%, or fewer than %d questions), where a percentile interval of resampled questions would collapse to a point", wilson, edgeQuestions)
	}
	if !p.hasChecklist {
		p.note("summary", "the study has no checklist: checklist_rate is empty")
	}
	if !p.hasRubric {
		p.note("summary", "the study has no rubric: rubric is empty")
	}
	a.addTable(SummaryTable(a.summary))
	a.headlineFigure()
}

func (a *run) noteEmptySet(set string) {
	p := a.p
	switch {
	case set == setAll && p.mainRnd < 0:
		p.note("summary", "set all is empty: no grading is in the main round %q", p.s.MainRound)
	case set == setRef && p.label < 0:
		p.note("summary", "set reference_subset is empty: the human label %q was not graded", p.s.HumanLabel)
	default:
		p.note("summary", "set %s has no human gradings", set)
	}
}

// headlineFigure draws the primary metric per model (humans, set all) with
// error bars, best first: the Solve Rate, or the mean rubric score (lowest
// first on a lower-is-better scale) or checklist rate when
// Options.Primary says so.
func (a *run) headlineFigure() {
	p := a.p
	st := a.stats(setAll, -1)
	if len(st) == 0 {
		return
	}
	f := &report.Figure{ID: "solve_rate_by_model", Section: report.SectionOverview,
		Title: "Solve Rate by model (human graders, 95 % interval)", Kind: report.Bar,
		XName: "model", YName: "Solve Rate", YUnit: "%", Percent: true, Table: "summary"}
	val := func(o modelStats) [3]float64 { return [3]float64{o.solve, o.solveLo, o.solveHi} }
	lower := false
	switch a.opt.Primary {
	case "rubric":
		lower = p.s.LowerIsBetter
		f.ID, f.Title, f.YName, f.YUnit, f.Percent = "rubric_by_model", "Mean rubric score by model (human graders, 95 % interval)", "mean rubric score", "", false
		if lower {
			f.Title = "Mean rubric score by model, lower is better (human graders, 95 % interval)"
		}
		val = func(o modelStats) [3]float64 { return [3]float64{o.rubric, o.rubricLo, o.rubricHi} }
	case "checklist":
		f.ID, f.Title, f.YName = "checklist_by_model", "Checklist rate by model (human graders, 95 % interval)", "checklist rate"
		val = func(o modelStats) [3]float64 { return [3]float64{o.checklist, o.chkLo, o.chkHi} }
	}
	s := report.Series{Name: f.YName}
	if a.opt.Primary == "" || a.opt.Primary == "solve_rate" {
		s.Name = "Solve Rate"
	}
	key := func(o modelStats) float64 {
		if lower {
			return -val(o)[0]
		}
		return val(o)[0]
	}
	for _, o := range sortByValue(st, key) {
		v := val(o)
		f.Categories = append(f.Categories, p.s.Models[o.model].Name)
		s.Values = append(s.Values, v[0])
		s.Lo = append(s.Lo, v[1])
		s.Hi = append(s.Hi, v[2])
	}
	f.Series = []report.Series{s}
	a.addFigure(f)
}
