// Package scores is the one definition of the per-grading scores of
// docs/METHODS.md — attribute means, rubric mean, checklist rate, solved — that
// every analysis uses: the paper's tables (package paper), reliability,
// rankings, calibration, planning, run comparison and the judge audit. Judge
// runs are averaged per response so that a judge has one grading per
// response.
//
// Source: this package is the only computation of these scores. Every
// analysis computes them from the raw grading rows (Compute); the table
// grading_scores of a study database is written from the same values
// (package ingest), for people who query the database, and is never read
// back. Each passes the values one at a time, for a caller that turns them
// into its own records and need not hold Compute's slice (a few hundred MB
// at 40,000 questions). No I/O.
//
// Exactness: rubric means and checklist rates are kept as exact fractions
// (study.Rat) and compared with the thresholds exactly; the float64 fields
// are those fractions divided once. A score is an exact fraction when it is
// a short decimal (study.RatOf) or the float64 of a mean k·step/n of a few
// scores on the scale's step (Options.Grid).
//
// Undefined: a grading whose rubric has no score, or whose checklist has no
// item with a verdict other than na (an all-na checklist), has an undefined
// rubric mean or checklist rate (NaN). When the Solve rule needs an
// undefined score the grading's solved flag is undefined (Solve == -1) and
// the grading is left out of every Solve Rate — its numerator and its
// denominator.
package scores

import (
	"math"
	"sort"

	"github.com/euroexec/euroexec/study"
)

// Options are the Solve Rate rule.
type Options struct {
	// RubricThreshold: solved needs rubric mean ≥ this; default 3.0.
	RubricThreshold float64
	// ChecklistThreshold: solved needs checklist rate ≥ this; default 0.60.
	ChecklistThreshold float64
	// PartialCredit is what a partial verdict counts, in [0,1]; default 0.5.
	PartialCredit float64
	// Lower is a lower-is-better rubric ([rubric] direction = "lower"):
	// solved needs rubric mean ≤ RubricThreshold. Compute, Each and
	// FromRows take it from the study (Study.LowerIsBetter).
	Lower bool
	// Grid is the rubric's scale ([rubric] step and averaged): a score
	// that is not a short decimal is still exact when it is the float64 of
	// k·step/n for some n ≤ max(Grid.Averaged, MinAveraged) — a mean of
	// raters' scores as ingest stores it, or a judge's mean of its runs
	// written with all its digits. The zero Grid recognises short decimals
	// only; FromRows, Compute and Each use the study's (GridOf) when it is
	// zero.
	Grid Grid
}

// MinAveraged is the most runs a judge's score may be the mean of and
// still be recognised as its fraction without [rubric] averaged: a judge
// that averaged three runs writes 5/3 as 1.6666666666666667, which is the
// float64 of 5/3 and is read as 5/3. A float64 that is not such a mean
// equals none of these fractions (equality is exact, not approximate).
const MinAveraged = 16

// Grid is a scale's step and the most raters a score may be the mean of.
type Grid struct {
	// StepMicros is the step in millionths (1,000,000 for whole points).
	StepMicros int64
	// Averaged is the most raters averaged ([rubric] averaged); below
	// MinAveraged, MinAveraged.
	Averaged int64
}

// GridOf is the grid of s's rubric scale: its step and [rubric] averaged.
func GridOf(s *study.Study) Grid {
	step := s.ScaleStep
	if step <= 0 {
		step = 1
	}
	return Grid{StepMicros: int64(math.Round(step * 1e6)), Averaged: int64(s.ScaleAveraged)}
}

// rat returns the exact fraction of score v: v's short decimal form, or a
// mean k·step/n, n ≤ max(Averaged, MinAveraged), whose float64 (as ingest
// computes it, float64(k·step)/float64(n·10⁶)) is v.
func (g Grid) rat(v float64) (study.Rat, bool) {
	if r, ok := study.RatOf(v); ok {
		return r, true
	}
	if g.StepMicros <= 0 || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e9 {
		return study.Rat{}, false
	}
	for n := int64(2); n <= max(g.Averaged, MinAveraged); n++ {
		k := math.Round(v * float64(n) * 1e6 / float64(g.StepMicros))
		num := int64(k) * g.StepMicros
		if float64(num)/float64(n*1e6) == v {
			return study.NewRat(num, n*1e6), true
		}
	}
	return study.Rat{}, false
}

// DefaultOptions returns the EuroExec rule.
func DefaultOptions() Options {
	return Options{RubricThreshold: 3.0, ChecklistThreshold: 0.60, PartialCredit: 0.5}
}

// Solve states of a grading.
const (
	Undefined int8 = -1 // a score the rule needs is undefined: left out of Solve Rates
	Unsolved  int8 = 0
	Solved    int8 = 1
)

// Grading is one grader's grading of one response in one round, judge runs
// averaged. The counts are int32 and packed after the wider fields (216
// bytes, not 248: a study holds one per grading, and analyses share one
// slice of them).
type Grading struct {
	Evaluator  string
	Kind       string // study.Human or study.Judge
	Round      string
	QuestionID string
	Model      string
	// Rubric is the mean over runs of each attribute (NaN where no run scored it).
	Rubric []float64
	// RubricRat is the exact rubric mean (mean of the present attributes);
	// the zero Rat when none is present or a judge score is not a short decimal.
	RubricRat study.Rat
	// RubricMean is the rubric mean as a float64; NaN when no attribute has a score.
	RubricMean float64
	// ChecklistRat is the exact checklist rate: per run
	// (hits + credit·partials) / (items not na), averaged over the runs
	// where it is defined; the zero Rat when undefined.
	ChecklistRat study.Rat
	// ChecklistRate is the checklist rate as a float64; NaN when no run has
	// an item with a verdict other than na.
	ChecklistRate float64
	// Verdicts are the first run's verdicts (humans have one run).
	Verdicts []study.Verdict
	// Rank is the mean rank over runs; 0 when not ranked.
	Rank float64
	// Runs is the number of judge runs averaged (1 for humans).
	Runs int32
	// RubricN is the number of attributes with a score.
	RubricN int32
	// Hits, Partials, Misses and NAs count the verdicts over all runs.
	Hits, Partials, Misses, NAs int32
	// Src is the index into Study.Gradings of the grading's first run (in
	// the slice passed to Collapse).
	Src int32
	// Solve is Solved, Unsolved or Undefined (see Rule).
	Solve int8
	// Solved is Solve == Solved.
	Solved bool
}

// Usable reports whether g has a usable score: a rubric attribute with a
// score or a defined checklist rate. A grading without one (every judge
// score dropped as off the scale, every verdict missing) is not a grading:
// it pairs with nothing in the judge–human tables and counts nowhere.
func (g *Grading) Usable() bool { return g.RubricN > 0 || !math.IsNaN(g.ChecklistRate) }

// Scorer scores gradings with one rule. Build it with NewScorer.
type Scorer struct {
	opt                  Options
	nAttr                int
	rats                 ratCache
	pc, rubThr, chkThr   study.Rat
	pcOK, rubOK, chkOK   bool
	HasRubric, HasChecks bool
}

// NewScorer returns a scorer for a study with nAttr rubric attributes;
// hasChecklist says whether the study has a checklist (some grading has
// verdicts). Both settle which parts the Solve rule uses.
func NewScorer(nAttr int, hasChecklist bool, opt Options) *Scorer {
	sc := &Scorer{opt: opt, nAttr: nAttr, HasRubric: nAttr > 0, HasChecks: hasChecklist, rats: ratCache{grid: opt.Grid, m: map[uint64]ratOf{}}}
	sc.pc, sc.pcOK = study.RatOf(opt.PartialCredit)
	sc.rubThr, sc.rubOK = study.RatOf(opt.RubricThreshold)
	sc.chkThr, sc.chkOK = study.RatOf(opt.ChecklistThreshold)
	return sc
}

// HasChecklist reports whether any grading has verdicts: the study has a
// checklist.
func HasChecklist(gs []study.Grading) bool {
	for i := range gs {
		if len(gs[i].Verdicts) > 0 {
			return true
		}
	}
	return false
}

// Score scores the runs of one grader on one response (one row for humans
// and single-run judges) and applies Rule. A Scorer is not safe for
// concurrent use (it memoises the exact fractions of the scores it saw).
func (sc *Scorer) Score(runs []study.Grading) Grading {
	return sc.score(runs, make([]float64, sc.nAttr))
}

// score is Score with the attribute means written into rubric (length
// nAttr), which the Grading keeps.
func (sc *Scorer) score(runs []study.Grading, rubric []float64) Grading {
	first := &runs[0]
	g := Grading{Evaluator: first.Evaluator, Kind: first.Kind, Round: first.Round, QuestionID: first.QuestionID,
		Model: first.Model, Runs: int32(len(runs)), Verdicts: first.Verdicts}
	g.Rubric = rubric
	var sum study.RatSum // of the attribute means
	for k := range g.Rubric {
		var a study.RatSum
		for i := range runs {
			if k < len(runs[i].Rubric) && !math.IsNaN(runs[i].Rubric[k]) {
				v := runs[i].Rubric[k]
				r, _ := sc.rats.of(v)
				a.Add(r, v)
			}
		}
		g.Rubric[k] = math.NaN()
		if a.N() > 0 {
			g.Rubric[k] = a.Mean()
			sum.Add(a.Rat(), g.Rubric[k])
			g.RubricN++
		}
	}
	g.RubricRat = sum.Rat()
	g.RubricMean = sum.Mean()
	var chk study.RatSum
	var ranks, ranked float64
	for i := range runs {
		h, p, m, na := countVerdicts(runs[i].Verdicts)
		g.Hits += int32(h)
		g.Partials += int32(p)
		g.Misses += int32(m)
		g.NAs += int32(na)
		if items := int64(h + p + m); items > 0 {
			r := study.Rat{}
			if sc.pcOK {
				r = study.NewRat(int64(h)*sc.pc.Den+int64(p)*sc.pc.Num, items*sc.pc.Den)
			}
			chk.Add(r, (float64(h)+float64(sc.opt.PartialCredit*float64(p)))/float64(items))
		}
		if runs[i].Rank > 0 {
			ranks += float64(runs[i].Rank)
			ranked++
		}
	}
	g.ChecklistRat = chk.Rat()
	g.ChecklistRate = chk.Mean()
	if ranked > 0 {
		g.Rank = ranks / ranked
	}
	g.Solve = sc.Rule(&g)
	g.Solved = g.Solve == Solved
	return g
}

// Rule is the Solve rule: with a rubric and a checklist, solved needs
// rubric mean ≥ RubricThreshold (≤ with Options.Lower) and checklist rate ≥ ChecklistThreshold;
// with only one instrument, that instrument's condition. Undefined when a
// score the rule needs is undefined (or the study has neither instrument).
// Comparisons are exact when the scores and thresholds are exact fractions.
func (sc *Scorer) Rule(g *Grading) int8 {
	if !sc.HasRubric && !sc.HasChecks {
		return Undefined
	}
	ok := true
	if sc.HasRubric {
		if g.RubricN == 0 {
			return Undefined
		}
		if g.RubricRat.OK() && sc.rubOK {
			c := g.RubricRat.Cmp(sc.rubThr)
			ok = c >= 0 && !sc.opt.Lower || c <= 0 && sc.opt.Lower
		} else if sc.opt.Lower {
			ok = g.RubricMean <= sc.opt.RubricThreshold
		} else {
			ok = g.RubricMean >= sc.opt.RubricThreshold
		}
	}
	if sc.HasChecks {
		if math.IsNaN(g.ChecklistRate) {
			return Undefined
		}
		if g.ChecklistRat.OK() && sc.chkOK {
			ok = ok && g.ChecklistRat.Cmp(sc.chkThr) >= 0
		} else {
			ok = ok && g.ChecklistRate >= sc.opt.ChecklistThreshold
		}
	}
	if ok {
		return Solved
	}
	return Unsolved
}

func countVerdicts(v []study.Verdict) (h, p, m, na int) {
	for _, x := range v {
		switch x {
		case study.Hit:
			h++
		case study.Partial:
			p++
		case study.Miss:
			m++
		case study.NA:
			na++
		}
	}
	return
}

// less is the documented order of Study.Gradings.
func less(a, b *study.Grading) bool {
	if a.Round != b.Round {
		return a.Round < b.Round
	}
	if a.QuestionID != b.QuestionID {
		return a.QuestionID < b.QuestionID
	}
	if a.Model != b.Model {
		return a.Model < b.Model
	}
	if a.Evaluator != b.Evaluator {
		return a.Evaluator < b.Evaluator
	}
	return a.Run < b.Run
}

// Sorted returns gs in the documented order of Study.Gradings: gs itself
// when it is sorted (as package readback delivers it), else a sorted copy;
// sorted reports whether gs was.
func Sorted(gs []study.Grading) (out []study.Grading, sorted bool) {
	for i := 1; i < len(gs); i++ {
		if less(&gs[i], &gs[i-1]) {
			c := append([]study.Grading(nil), gs...)
			sort.SliceStable(c, func(i, j int) bool { return less(&c[i], &c[j]) })
			return c, false
		}
	}
	return gs, true
}

// sameGrading reports whether runs a and b are of one grading: the same
// round, question, model and evaluator.
func sameGrading(a, b *study.Grading) bool {
	return a.Round == b.Round && a.QuestionID == b.QuestionID && a.Model == b.Model && a.Evaluator == b.Evaluator
}

// Collapse scores gs, which must be sorted (see Sorted): one Grading per
// (round, question, model, evaluator), runs averaged, in that order.
func (sc *Scorer) Collapse(gs []study.Grading) []Grading {
	same := sameGrading
	n := 0
	for i := range gs {
		if i == 0 || !same(&gs[i], &gs[i-1]) {
			n++
		}
	}
	out := make([]Grading, 0, n)
	// one array holds the attribute means of all gradings (capacity capped
	// per grading), instead of one allocation each
	slab := make([]float64, n*sc.nAttr)
	for i := 0; i < len(gs); {
		j := i + 1
		for j < len(gs) && same(&gs[j], &gs[i]) {
			j++
		}
		k := len(out) * sc.nAttr
		g := sc.score(gs[i:j], slab[k:k+sc.nAttr:k+sc.nAttr])
		g.Src = int32(i)
		out = append(out, g)
		i = j
	}
	return out
}

// Compute returns the gradings of s scored with opt, sorted by (Round,
// QuestionID, Model, Evaluator): FromRows.
func Compute(s *study.Study, opt Options) []Grading {
	return FromRows(s, opt)
}

// OrCompute returns given when it is not nil, else Compute(s, opt). given
// is the study's gradings already scored with opt by the caller and shared,
// read-only, by several analyses (package pipeline scores a study once for
// all of them: at 40,000 questions each copy is ~220 MB).
func OrCompute(given []Grading, s *study.Study, opt Options) []Grading {
	if given != nil {
		return given
	}
	return Compute(s, opt)
}

// FromRows computes the gradings of s from its raw Grading rows with
// Scorer, the Solve rule's direction taken from the study, and its scale's
// grid unless opt has one.
func FromRows(s *study.Study, opt Options) []Grading {
	opt.Lower = s.LowerIsBetter
	if opt.Grid == (Grid{}) {
		opt.Grid = GridOf(s)
	}
	gs, _ := Sorted(s.Gradings)
	return NewScorer(len(s.Attributes), HasChecklist(gs), opt).Collapse(gs)
}

// Each calls fn with each grading of s scored with opt — Compute's values
// in Compute's order. The *Grading passed may be reused between calls, so
// fn must copy what it keeps (the Rubric slice it points to stays valid).
func Each(s *study.Study, opt Options, fn func(g *Grading)) {
	gs := FromRows(s, opt)
	for i := range gs {
		fn(&gs[i])
	}
}

// ratCache memoises Grid.rat by the value's bits: a study has few
// distinct scores, and RatOf of a non-integer formats and parses the value.
type ratCache struct {
	grid Grid
	m    map[uint64]ratOf
}

type ratOf struct {
	r  study.Rat
	ok bool
}

// of is grid.rat(v), computed once per distinct v.
func (c ratCache) of(v float64) (study.Rat, bool) {
	k := math.Float64bits(v)
	if e, hit := c.m[k]; hit {
		return e.r, e.ok
	}
	r, ok := c.grid.rat(v)
	c.m[k] = ratOf{r, ok}
	return r, ok
}
