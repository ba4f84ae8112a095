package analysis

import (
	"fmt"
	"math"
	"sort"

	"github.com/euroexec/euroexec/report"
)

// grade is one grading after judge runs are averaged: one evaluator's
// grading of one response in one round.
type grade struct {
	round int // index into prep.rounds
	q, m  int // question and model index
	e     int // evaluator index
	human bool
	runs  int // rows averaged into this grade (1 for humans)
	src   int // index of the first Study.Gradings row

	attr    []float64 // per attribute; NaN = missing
	rubSum  float64   // sum of the present attributes
	rubN    int       // number of present attributes
	rubMean float64   // NaN when rubN == 0

	// Checklist credit as the exact fraction chkNum/chkDen (units of the
	// partial credit's denominator) when chkExact; rate is the divided value.
	chkNum, chkDen              int64
	chkExact                    bool
	rate                        float64 // NaN when no item has a verdict other than na
	hits, partials, misses, nas int

	rank   float64 // evaluator's rank (mean over runs); 0 = not ranked
	solved int8    // 1 solved, 0 not, -1 undefined
}

// prep is the indexed study that every analysis reads.
type prep struct {
	s   *Study
	opt Options

	qIdx, mIdx, eIdx map[string]int
	label            int // model index of the human label; -1 when absent
	nAttr            int

	hasRubric, hasChecklist, hasRanks, hasJudges, hasRefs, hasGate, hasCost bool

	rounds   []string
	mainRnd  int   // index of the main round; -1 when no grading is in it
	refRound []int // per question: round of the reference subset; -1 = not in it

	grades   []grade
	gradings []Grading // Study.Gradings in the documented order; grade.src indexes it
	resp     []int     // q*nM+m → index into s.Responses, -1 when absent
	humans   []int     // evaluator indexes of humans (sorted by id)
	judges   []int     // evaluator indexes of judges (sorted by id)

	pc              ratio // partial credit
	pcOK            bool
	rubThr, chkThr  ratio
	rubThrOK, chkOK bool

	notes    []report.Note
	warnings []string
}

func (p *prep) note(table, format string, args ...any) {
	p.notes = append(p.notes, report.Note{Table: table, Reason: fmt.Sprintf(format, args...)})
}

func (p *prep) warn(format string, args ...any) {
	p.warnings = append(p.warnings, fmt.Sprintf(format, args...))
}

func (p *prep) nQ() int { return len(p.s.Questions) }
func (p *prep) nM() int { return len(p.s.Models) }

// respOf returns the response of question q by model m, or nil.
func (p *prep) respOf(q, m int) *Response {
	i := p.resp[q*p.nM()+m]
	if i < 0 {
		return nil
	}
	return &p.s.Responses[i]
}

func newPrep(s *Study, opt Options) (*prep, error) {
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
		if e.Kind == Judge {
			p.judges = append(p.judges, i)
		} else {
			p.humans = append(p.humans, i)
		}
	}
	p.nAttr = len(s.Attributes)
	p.hasRubric = p.nAttr > 0
	p.pc, p.pcOK = decimalRatio(opt.PartialCredit)
	p.rubThr, p.rubThrOK = decimalRatio(opt.RubricThreshold)
	p.chkThr, p.chkOK = decimalRatio(opt.ChecklistThreshold)
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

// gradingLess is the documented order of Study.Gradings.
func gradingLess(a, b *Grading) bool {
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

// sortedGradings returns Study.Gradings in the documented order: the slice
// itself when it is sorted (as package transform delivers it), else a
// sorted copy (a Grading's src index then refers to the copy).
func (p *prep) sortedGradings() []Grading {
	gs := p.s.Gradings
	for i := 1; i < len(gs); i++ {
		if gradingLess(&gs[i], &gs[i-1]) {
			c := append([]Grading(nil), gs...)
			sort.SliceStable(c, func(i, j int) bool { return gradingLess(&c[i], &c[j]) })
			p.warn("analysis: gradings were not sorted by (round, question, model, evaluator, run); sorted them")
			return c
		}
	}
	return gs
}

// collapse turns Study.Gradings into grades, averaging judge runs.
func (p *prep) collapse() {
	gs := p.sortedGradings()
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
	unknown := 0
	for i := 0; i < len(gs); {
		j := i + 1
		for j < len(gs) && sameResponseGrading(&gs[i], &gs[j]) {
			j++
		}
		q, okq := p.qIdx[gs[i].QuestionID]
		m, okm := p.mIdx[gs[i].Model]
		e, oke := p.eIdx[gs[i].Evaluator]
		if !okq || !okm || !oke {
			unknown += j - i
			i = j
			continue
		}
		g := grade{round: roundIdx[gs[i].Round], q: q, m: m, e: e, src: i,
			human: p.s.Evaluators[e].Kind != Judge, runs: j - i}
		if j-i == 1 {
			p.fillOne(&g, &gs[i])
		} else {
			p.fillRuns(&g, gs[i:j])
			if g.human {
				p.warn("analysis: human %s graded %s/%s %d times in round %q; the gradings were averaged",
					gs[i].Evaluator, gs[i].QuestionID, gs[i].Model, j-i, gs[i].Round)
			}
		}
		p.grades = append(p.grades, g)
		i = j
	}
	if unknown > 0 {
		p.warn("analysis: %d gradings name an unknown question, model or evaluator and were left out", unknown)
	}
	p.warnJudgeGaps(gs)
}

// warnJudgeGaps counts the judge scores and verdicts that are missing; they
// are left out of the means and rates.
func (p *prep) warnJudgeGaps(gs []Grading) {
	scores, verdicts := 0, 0
	for i := range gs {
		if gs[i].Kind != Judge {
			continue
		}
		for k := 0; k < p.nAttr; k++ {
			if k >= len(gs[i].Rubric) || math.IsNaN(gs[i].Rubric[k]) {
				scores++
			}
		}
		for _, v := range gs[i].Verdicts {
			if v == VerdictNone {
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

func sameResponseGrading(a, b *Grading) bool {
	return a.Round == b.Round && a.QuestionID == b.QuestionID && a.Model == b.Model && a.Evaluator == b.Evaluator
}

// rubricOf fills the rubric fields from one row.
func (p *prep) rubricOf(g *grade, r []float64) {
	g.attr = make([]float64, p.nAttr)
	for k := range g.attr {
		v := math.NaN()
		if k < len(r) {
			v = r[k]
		}
		g.attr[k] = v
		if !math.IsNaN(v) {
			g.rubSum += v
			g.rubN++
		}
	}
	g.rubMean = math.NaN()
	if g.rubN > 0 {
		g.rubMean = g.rubSum / float64(g.rubN)
	}
}

// verdictCounts counts one row's verdicts.
func verdictCounts(v []Verdict) (h, pa, mi, na int) {
	for _, x := range v {
		switch x {
		case Hit:
			h++
		case Partial:
			pa++
		case Miss:
			mi++
		case NA:
			na++
		}
	}
	return
}

// fillOne fills g from a single grading row, exactly.
func (p *prep) fillOne(g *grade, row *Grading) {
	p.rubricOf(g, row.Rubric)
	g.hits, g.partials, g.misses, g.nas = verdictCounts(row.Verdicts)
	items := int64(g.hits + g.partials + g.misses)
	g.rate = math.NaN()
	if items > 0 {
		if p.pcOK {
			g.chkNum = int64(g.hits)*p.pc.den + int64(g.partials)*p.pc.num
			g.chkDen = items * p.pc.den
			g.chkExact = true
			g.rate = float64(g.chkNum) / float64(g.chkDen)
		} else {
			g.rate = (float64(g.hits) + float64(p.opt.PartialCredit*float64(g.partials))) / float64(items)
		}
	}
	g.rank = float64(row.Rank)
}

// fillRuns averages several runs of one judge on one response: each
// attribute over the runs that scored it, the checklist rate over the runs
// with a defined rate, the rank over the runs that ranked.
func (p *prep) fillRuns(g *grade, rows []Grading) {
	g.attr = make([]float64, p.nAttr)
	for k := range g.attr {
		s, n := 0.0, 0
		for _, r := range rows {
			if k < len(r.Rubric) && !math.IsNaN(r.Rubric[k]) {
				s += r.Rubric[k]
				n++
			}
		}
		g.attr[k] = math.NaN()
		if n > 0 {
			g.attr[k] = s / float64(n)
			g.rubSum += g.attr[k]
			g.rubN++
		}
	}
	g.rubMean = math.NaN()
	if g.rubN > 0 {
		g.rubMean = g.rubSum / float64(g.rubN)
	}
	rs, rn, ks, kn := 0.0, 0, 0.0, 0
	for i := range rows {
		var one grade
		p.fillOne(&one, &rows[i])
		g.hits += one.hits
		g.partials += one.partials
		g.misses += one.misses
		g.nas += one.nas
		if !math.IsNaN(one.rate) {
			rs += one.rate
			rn++
		}
		if rows[i].Rank > 0 {
			ks += float64(rows[i].Rank)
			kn++
		}
	}
	g.rate = math.NaN()
	if rn > 0 {
		g.rate = rs / float64(rn)
	}
	if kn > 0 {
		g.rank = ks / float64(kn)
	}
}

// rubricPass says whether the grading meets the rubric threshold, exactly
// when the attribute sum is an integer.
func (p *prep) rubricPass(g *grade) bool {
	if p.rubThrOK && g.rubSum == math.Trunc(g.rubSum) && math.Abs(g.rubSum) < 1<<30 {
		return int64(g.rubSum)*p.rubThr.den >= p.rubThr.num*int64(g.rubN)
	}
	return g.rubMean >= p.opt.RubricThreshold
}

// checklistPass says whether the grading meets the checklist threshold,
// exactly when the credit is an exact fraction.
func (p *prep) checklistPass(g *grade) bool {
	if g.chkExact && p.chkOK {
		return g.chkNum*p.chkThr.den >= p.chkThr.num*g.chkDen
	}
	return g.rate >= p.opt.ChecklistThreshold
}

// deriveFlags finds which instruments the study has and settles each
// grading's solved flag with them.
func (p *prep) deriveFlags() {
	for i := range p.grades {
		g := &p.grades[i]
		if g.hits+g.partials+g.misses+g.nas > 0 {
			p.hasChecklist = true
		}
		if g.rank > 0 {
			p.hasRanks = true
		}
		if !g.human {
			p.hasJudges = true
		}
	}
	p.hasRefs = len(p.s.References) > 0
	p.hasGate = len(p.s.GateRuns) > 0
	for _, r := range p.s.Responses {
		if !math.IsNaN(r.CostUSD) || (r.InputTokens >= 0 && r.OutputTokens >= 0) {
			p.hasCost = true
			break
		}
	}
	for i := range p.grades {
		g := &p.grades[i]
		switch {
		case p.hasRubric && p.hasChecklist:
			g.solved = -1
			if g.rubN > 0 && !math.IsNaN(g.rate) {
				g.solved = b2i(p.rubricPass(g) && p.checklistPass(g))
			}
		case p.hasRubric:
			g.solved = -1
			if g.rubN > 0 {
				g.solved = b2i(p.rubricPass(g))
			}
		case p.hasChecklist:
			g.solved = -1
			if !math.IsNaN(g.rate) {
				g.solved = b2i(p.checklistPass(g))
			}
		default:
			g.solved = -1
		}
	}
	if p.hasRubric && !p.hasChecklist {
		p.note("summary", "the study has no checklist: Solve Rate uses the rubric rule alone (mean rubric ≥ %v)", p.opt.RubricThreshold)
	}
	if !p.hasRubric && p.hasChecklist {
		p.note("summary", "the study has no rubric: Solve Rate uses the checklist rule alone (checklist rate ≥ %v)", p.opt.ChecklistThreshold)
	}
}

func b2i(b bool) int8 {
	if b {
		return 1
	}
	return 0
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
