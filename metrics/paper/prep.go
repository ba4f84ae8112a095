package paper

import (
	"fmt"
	"math"
	"sort"

	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/study"
)

// grade is one grading after judge runs are averaged: one evaluator's
// grading of one response in one round. It holds only what the analyses
// read (the verdict counts and the number of runs stay in scores.Grading),
// with the small fields packed together: 136 bytes instead of 200, a
// third less for the largest value the analysis keeps (one per grading).
type grade struct {
	round int // index into prep.rounds
	q, m  int // question and model index
	e     int // evaluator index

	src  int32 // index of the first Study.Gradings row (a study holds far fewer than 2³¹)
	rubN int32 // number of present attributes

	attr    []float64 // per attribute; NaN = missing
	rubSum  float64   // sum of the present attributes (float)
	rubMean float64   // NaN when rubN == 0
	rub     study.Rat // exact rubric mean; zero when not exact

	// Checklist credit as the exact fraction chkNum/chkDen (units of the
	// partial credit's denominator) when chkExact; rate is the divided value.
	chkNum, chkDen int64
	rate           float64 // NaN when no item has a verdict other than na

	rank     float64 // evaluator's rank (mean over runs); 0 = not ranked
	human    bool
	chkExact bool
	solved   int8 // 1 solved, 0 not, -1 undefined
	usable   bool // scores.Grading.Usable: pairs judge with human
}

// prep is the indexed study that every analysis reads.
type prep struct {
	s   *study.Study
	opt Options

	qIdx, mIdx, eIdx map[string]int
	label            int // model index of the human label; -1 when absent
	nAttr            int

	hasRubric, hasChecklist, hasRanks, hasJudges, hasRefs, hasGate, hasCost bool

	rounds   []string
	mainRnd  int   // index of the main round; -1 when no grading is in it
	refRound []int // per question: round of the reference subset; -1 = not in it

	gate     []study.GateItem // Study.Gate(): the difficulty gate per (question, item)
	grades   []grade
	gradings []study.Grading // Study.Gradings in the documented order; grade.src indexes it
	resp     []int           // q*nM+m → index into s.Responses, -1 when absent
	humans   []int           // evaluator indexes of humans (sorted by id)
	judges   []int           // evaluator indexes of judges (sorted by id)

	sopt scores.Options // the Solve rule of Options

	notes    []Note
	warnings []string
}

func (p *prep) note(table, format string, args ...any) {
	p.notes = append(p.notes, Note{Table: table, Reason: fmt.Sprintf(format, args...)})
}

func (p *prep) warn(format string, args ...any) {
	p.warnings = append(p.warnings, fmt.Sprintf(format, args...))
}

func (p *prep) nQ() int { return len(p.s.Questions) }
func (p *prep) nM() int { return len(p.s.Models) }

// respOf returns the response of question q by model m, or nil.
func (p *prep) respOf(q, m int) *study.Response {
	i := p.resp[q*p.nM()+m]
	if i < 0 {
		return nil
	}
	return &p.s.Responses[i]
}

func newPrep(s *study.Study, opt Options) (*prep, error) {
	if s == nil {
		return nil, fmt.Errorf("analysis: nil study")
	}
	p := &prep{s: s, opt: opt, label: -1, mainRnd: -1}
	p.qIdx = make(map[string]int, len(s.Questions))
	for i, q := range s.Questions {
		if _, dup := p.qIdx[q.ID]; dup {
			return nil, fmt.Errorf("analysis: question %q appears twice", q.ID)
		}
		p.qIdx[q.ID] = i
	}
	p.mIdx = make(map[string]int, len(s.Models))
	for i, m := range s.Models {
		if _, dup := p.mIdx[m.Name]; dup {
			return nil, fmt.Errorf("analysis: model %q appears twice", m.Name)
		}
		p.mIdx[m.Name] = i
	}
	if i, ok := p.mIdx[s.HumanLabel]; ok {
		p.label = i
	}
	p.eIdx = make(map[string]int, len(s.Evaluators))
	for i, e := range s.Evaluators {
		if _, dup := p.eIdx[e.ID]; dup {
			return nil, fmt.Errorf("analysis: evaluator %q appears twice", e.ID)
		}
		p.eIdx[e.ID] = i
		if e.Kind == study.Judge {
			p.judges = append(p.judges, i)
		} else {
			p.humans = append(p.humans, i)
		}
	}
	p.nAttr = len(s.Attributes)
	p.hasRubric = p.nAttr > 0
	p.sopt = scores.Options{RubricThreshold: opt.RubricThreshold, ChecklistThreshold: opt.ChecklistThreshold, PartialCredit: opt.PartialCredit, Lower: s.LowerIsBetter, Grid: scores.GridOf(s)}
	if !(opt.PartialCredit >= 0 && opt.PartialCredit <= 1) {
		return nil, fmt.Errorf("analysis: partial credit %v is not in [0,1]", opt.PartialCredit)
	}
	p.indexResponses()
	p.collapse()
	p.deriveFlags()
	p.findRounds()
	return p, nil
}

func (p *prep) indexResponses() {
	s := p.s
	p.resp = make([]int, len(s.Questions)*len(s.Models))
	for i := range p.resp {
		p.resp[i] = -1
	}
	unknown := 0
	for i, r := range s.Responses {
		q, okq := p.qIdx[r.QuestionID]
		m, okm := p.mIdx[r.Model]
		if !okq || !okm {
			unknown++
			continue
		}
		p.resp[q*len(s.Models)+m] = i
	}
	if unknown > 0 {
		p.warn("analysis: %d responses name an unknown question or model and were left out", unknown)
	}
}

// collapse turns Study.Gradings into grades with the one definition of the
// per-grading scores (package scores), judge runs averaged.
func (p *prep) collapse() {
	gs, sorted := scores.Sorted(p.s.Gradings)
	if !sorted {
		p.warn("analysis: gradings were not sorted by (round, question, model, evaluator, run); sorted them")
	}
	p.gradings = gs
	roundIdx := map[string]int{}
	var rounds []string
	for _, g := range gs {
		if _, ok := roundIdx[g.Round]; !ok {
			roundIdx[g.Round] = 0
			rounds = append(rounds, g.Round)
		}
	}
	sort.Strings(rounds)
	for i, r := range rounds {
		roundIdx[r] = i
	}
	p.rounds = rounds
	p.hasChecklist = scores.HasChecklist(gs)
	unknown := 0
	// the per-grading scores (package scores), one grading at a time
	// (scores.Each), so that no slice of scores.Grading is built only to be
	// copied into grades
	p.grades = make([]grade, 0, len(gs))
	add := func(sg *scores.Grading) {
		q, okq := p.qIdx[sg.QuestionID]
		m, okm := p.mIdx[sg.Model]
		e, oke := p.eIdx[sg.Evaluator]
		if !okq || !okm || !oke {
			unknown += int(sg.Runs)
			return
		}
		g := grade{round: roundIdx[sg.Round], q: q, m: m, e: e, src: int32(sg.Src),
			human: p.s.Evaluators[e].Kind != study.Judge,
			attr:  sg.Rubric, rubN: int32(sg.RubricN), rubMean: sg.RubricMean, rub: sg.RubricRat,
			rate: sg.ChecklistRate, rank: sg.Rank, solved: sg.Solve, usable: sg.Usable()}
		for _, v := range sg.Rubric {
			if !math.IsNaN(v) {
				g.rubSum += v
			}
		}
		if sg.ChecklistRat.OK() {
			g.chkNum, g.chkDen, g.chkExact = sg.ChecklistRat.Num, sg.ChecklistRat.Den, true
		}
		if sg.Runs > 1 && g.human {
			p.warn("analysis: human %s graded %s/%s %d times in round %q; the gradings were averaged",
				sg.Evaluator, sg.QuestionID, sg.Model, sg.Runs, sg.Round)
		}
		p.grades = append(p.grades, g)
	}
	if sorted {
		scores.Each(p.s, p.sopt, add)
	} else {
		sgs := scores.NewScorer(p.nAttr, p.hasChecklist, p.sopt).Collapse(gs)
		for i := range sgs {
			add(&sgs[i])
		}
	}
	if unknown > 0 {
		p.warn("analysis: %d gradings name an unknown question, model or evaluator and were left out", unknown)
	}
	p.warnJudgeGaps(gs)
}

// warnJudgeGaps counts the judge scores and verdicts that are missing; they
// are left out of the means and rates.
func (p *prep) warnJudgeGaps(gs []study.Grading) {
	scores, verdicts := 0, 0
	for i := range gs {
		if gs[i].Kind != study.Judge {
			continue
		}
		for k := 0; k < p.nAttr; k++ {
			if k >= len(gs[i].Rubric) || math.IsNaN(gs[i].Rubric[k]) {
				scores++
			}
		}
		for _, v := range gs[i].Verdicts {
			if v == study.VerdictNone {
				verdicts++
			}
		}
	}
	if scores > 0 {
		p.warn("analysis: %d judge rubric scores are missing and were left out of the rubric means", scores)
	}
	if verdicts > 0 {
		p.warn("analysis: %d judge checklist verdicts are missing and were left out of the checklist rates", verdicts)
	}
}

// deriveFlags finds which instruments the study has; each grading's solved
// flag comes from scores.Scorer.Rule (collapse).
func (p *prep) deriveFlags() {
	for i := range p.grades {
		g := &p.grades[i]
		if g.rank > 0 {
			p.hasRanks = true
		}
		if !g.human {
			p.hasJudges = true
		}
	}
	p.hasRefs = len(p.s.References) > 0
	p.gate = p.s.Gate()
	p.hasGate = len(p.gate) > 0
	for _, r := range p.s.Responses {
		if !math.IsNaN(r.CostUSD) || (r.InputTokens >= 0 && r.OutputTokens >= 0) {
			p.hasCost = true
			break
		}
	}
	if p.hasRubric && !p.hasChecklist {
		p.note("summary", "the study has no checklist: Solve Rate uses the rubric rule alone (mean rubric ≥ %v)", p.opt.RubricThreshold)
	}
	if !p.hasRubric && p.hasChecklist {
		p.note("summary", "the study has no rubric: Solve Rate uses the checklist rule alone (checklist rate ≥ %v)", p.opt.ChecklistThreshold)
	}
}

// findRounds settles the main round and the reference subset: the
// questions where the human label has a grading (by a human when there is
// one, else by any grader) and, per question, the round it was graded in
// (the main round when it is among them, else the first in byte order).
func (p *prep) findRounds() {
	for i, r := range p.rounds {
		if r == p.s.MainRound {
			p.mainRnd = i
		}
	}
	p.refRound = make([]int, p.nQ())
	for i := range p.refRound {
		p.refRound[i] = -1
	}
	if p.label < 0 {
		return
	}
	anyHuman := false
	for _, g := range p.grades {
		if g.m == p.label && g.human {
			anyHuman = true
			break
		}
	}
	for _, g := range p.grades {
		if g.m != p.label || (anyHuman && !g.human) {
			continue
		}
		cur := p.refRound[g.q]
		switch {
		case cur < 0:
			p.refRound[g.q] = g.round
		case cur == p.mainRnd:
		case g.round == p.mainRnd || g.round < cur:
			p.refRound[g.q] = g.round
		}
	}
}

// inSet says whether grade g belongs to set "all" or "reference_subset".
func (p *prep) inSet(set string, g *grade) bool {
	if set == setAll {
		return g.round == p.mainRnd && g.m != p.label
	}
	return p.refRound[g.q] >= 0 && p.refRound[g.q] == g.round
}

// Set and population names.
const (
	setAll = "all"
	setRef = "reference_subset"
	popHum = "humans"
)

// popName is the graders column value of a population: "humans" or
// "judge:<id>".
func (p *prep) popName(judge int) string {
	if judge < 0 {
		return popHum
	}
	return "judge:" + p.s.Evaluators[judge].ID
}

// inPop says whether g belongs to the population (judge < 0: humans).
func inPop(judge int, g *grade) bool {
	if judge < 0 {
		return g.human
	}
	return g.e == judge
}
