package paper

import (
	"math"

	"github.com/euroexec/euroexec/metrics/stats"
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
				a.res.Summary = append(a.res.Summary, SummaryRow{Set: set, Graders: v.pop, Model: p.s.Models[o.model].Name,
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
	if a.res.Summary == nil {
		a.res.Summary = []SummaryRow{}
	}
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

// Headline is the primary metric per model (humans, set all) with its
// interval, best first: the Solve Rate, or the mean rubric score (lowest
// first on a lower-is-better scale) or checklist rate when
// Options.Primary says so.
type Headline struct {
	// Primary is Options.Primary ("" or solve_rate, rubric, checklist);
	// LowerIsBetter the rubric's direction when Primary is rubric.
	Primary       string
	LowerIsBetter bool
	Bars          []HeadlineBar
}

// HeadlineBar is one model's primary metric with its 95 % interval.
type HeadlineBar struct {
	Model         string
	Value, Lo, Hi float64
}

// headlineFigure orders the primary metric per model for the headline
// figure; none without human gradings in set all.
func (a *run) headlineFigure() {
	p := a.p
	st := a.stats(setAll, -1)
	if len(st) == 0 {
		return
	}
	h := &Headline{Primary: a.opt.Primary}
	val := func(o modelStats) [3]float64 { return [3]float64{o.solve, o.solveLo, o.solveHi} }
	switch a.opt.Primary {
	case "rubric":
		h.LowerIsBetter = p.s.LowerIsBetter
		val = func(o modelStats) [3]float64 { return [3]float64{o.rubric, o.rubricLo, o.rubricHi} }
	case "checklist":
		val = func(o modelStats) [3]float64 { return [3]float64{o.checklist, o.chkLo, o.chkHi} }
	}
	key := func(o modelStats) float64 {
		if h.LowerIsBetter {
			return -val(o)[0]
		}
		return val(o)[0]
	}
	for _, o := range sortByValue(st, key) {
		v := val(o)
		h.Bars = append(h.Bars, HeadlineBar{Model: p.s.Models[o.model].Name, Value: v[0], Lo: v[1], Hi: v[2]})
	}
	a.res.Headline = h
}
