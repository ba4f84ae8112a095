package paper

import (
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

const (
	binAbove   = "Above gate"
	binUnknown = "unknown"
)

// Dataset is the paper's description of the study: Tables 1, 2, 3 and 12,
// the descriptives and Figure 1. A nil slice is a table left out (the
// notes say why).
type Dataset struct {
	// Domains are Table 1's rows in byte order of the domain; Total counts
	// every domain (a person in two domains once).
	Domains []DomainRow
	Total   DomainRow
	// Difficulty are Table 2's rows: the bins in Options order, Above gate,
	// other names in byte order, unknown last.
	Difficulty []DifficultyRow
	// Models are Table 3's rows in model order.
	Models []ModelRow
	// GateItems are Table 12's rows in Study.Gate's order and
	// GateQuestions the per-question gate scores; nil without a gate.
	GateItems     []GateItemRow
	GateQuestions []GateQuestionRow
	// Descriptives are the length and checklist-size summaries.
	Descriptives []DescriptiveRow
	// SolveByDifficulty are Figure 1's rows, model by model (the models
	// of set all in model order), each model with one row per entry of
	// Difficulties.
	SolveByDifficulty []DifficultySolveRow
	Difficulties      []string
}

// DomainRow is one domain of Table 1.
type DomainRow struct {
	Domain string
	// Experts counts the distinct authors and human evaluators of the
	// domain (an author and an evaluator with the same id are one person).
	Experts, Authors, Evaluators, Questions int64
}

// DifficultyRow is one difficulty bin of Table 2.
type DifficultyRow struct {
	Difficulty string
	// GateFrom and GateTo are the bin's gate-score range (NaN for a
	// category that is not a configured bin).
	GateFrom, GateTo float64
	Questions        int64
}

// ModelRow is one model of Table 3.
type ModelRow struct {
	Model, DisplayName, Provider string
	// HumanLabel is true for the graded expert answer.
	HumanLabel                    bool
	USDPer1kInput, USDPer1kOutput float64
	// Responses counts the responses in the dumps; Gradings every grading
	// (human and judge, every round, judge runs averaged); HumanGradings
	// the main round's human gradings, SolveGradings those of them with a
	// defined solved flag; JudgeGradings the judges' (every round).
	Responses, Gradings, HumanGradings, SolveGradings, JudgeGradings int64
}

// GateItemRow is one question's checklist item in the difficulty gate.
type GateItemRow struct {
	QuestionID         string
	Item, Runs, Passed int64
	// Fulfilment is Passed ÷ Runs (NaN without runs).
	Fulfilment float64
}

// GateQuestionRow is one question's gate score.
type GateQuestionRow struct {
	QuestionID    string
	Cells, Passed int64
	// Score is Passed ÷ Cells; Difficulty the bin the report uses.
	Score      float64
	Difficulty string
}

// DescriptiveRow summarises one measure over a group.
type DescriptiveRow struct {
	// Measure is prompt_chars, prompt_words, checklist_items,
	// response_chars, response_words, reference_chars or reference_words;
	// Group "all" or the model for responses.
	Measure, Group string
	N              int64
	// SD uses n − 1 (NaN for one value).
	Mean, SD, Median, Min, Max float64
}

// DifficultySolveRow is one model's Solve Rate in one difficulty bin.
type DifficultySolveRow struct {
	Difficulty, Model string
	// N counts the gradings with a defined solved flag.
	N int64
	// SolveRate with its 95 % cluster-bootstrap interval.
	SolveRate, Lo, Hi float64
}

// datasetTables builds Tables 1, 2, 3, 12, the descriptives and Figure 1.
func (a *run) datasetTables() {
	a.steps(a.domainsTable, a.difficultyTable, a.modelsTable, a.gateTables, a.descriptivesTable, a.solveByDifficulty)
}

// domains returns the study's domains in byte order.
func (p *prep) domains() []string {
	set := map[string]bool{}
	for _, q := range p.s.Questions {
		set[q.Domain] = true
	}
	out := make([]string, 0, len(set))
	for d := range set {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// domainsTable is Table 1: experts and questions per domain. The experts
// of a domain are the distinct authors of its questions and its human
// evaluators: those whose evaluators.domain names it, or, for an evaluator
// without a domain, those who graded its questions.
func (a *run) domainsTable() {
	p := a.p
	doms := p.domains()
	people := map[string]map[string]bool{}
	authors := map[string]map[string]bool{}
	evals := map[string]map[string]bool{}
	qs := map[string]int{}
	add := func(m map[string]map[string]bool, d, id string) {
		if m[d] == nil {
			m[d] = map[string]bool{}
		}
		m[d][id] = true
	}
	for _, q := range p.s.Questions {
		qs[q.Domain]++
		if q.Author != "" {
			add(people, q.Domain, q.Author)
			add(authors, q.Domain, q.Author)
		}
	}
	for _, e := range p.humans {
		if d := p.s.Evaluators[e].Domain; d != "" {
			add(people, d, p.s.Evaluators[e].ID)
			add(evals, d, p.s.Evaluators[e].ID)
		}
	}
	for _, g := range p.grades {
		ev := p.s.Evaluators[g.e]
		if g.human && ev.Domain == "" {
			d := p.s.Questions[g.q].Domain
			add(people, d, ev.ID)
			add(evals, d, ev.ID)
		}
	}
	all, allA, allE := map[string]bool{}, map[string]bool{}, map[string]bool{}
	rows := []DomainRow{}
	for _, d := range doms {
		rows = append(rows, DomainRow{Domain: d, Experts: int64(len(people[d])), Authors: int64(len(authors[d])), Evaluators: int64(len(evals[d])), Questions: int64(qs[d])})
	}
	for _, m := range []struct {
		src map[string]map[string]bool
		dst map[string]bool
	}{{people, all}, {authors, allA}, {evals, allE}} {
		for _, ids := range m.src {
			for id := range ids {
				m.dst[id] = true
			}
		}
	}
	a.res.Dataset.Domains = rows
	a.res.Dataset.Total = DomainRow{Domain: "Total", Experts: int64(len(all)), Authors: int64(len(allA)), Evaluators: int64(len(allE)), Questions: int64(p.nQ())}
}

// difficultyOf returns a question's difficulty bin: questions.difficulty,
// else the bin of its gate score, else the bin of passed/cells from the
// gate runs; binUnknown when none is known.
func (a *run) difficultyOf(q int) string {
	qq := &a.p.s.Questions[q]
	if qq.Difficulty != "" {
		return qq.Difficulty
	}
	if !math.IsNaN(qq.GateScore) {
		return a.binOfFloat(qq.GateScore)
	}
	if c := a.gateCells(); c[q][1] > 0 {
		return a.binOfCount(c[q][0], c[q][1])
	}
	return binUnknown
}

func (a *run) binOfFloat(x float64) string {
	for _, b := range a.opt.DifficultyBins {
		if x <= b.Max {
			return b.Name
		}
	}
	return binAbove
}

// binOfCount bins passed/cells exactly (upper bounds inclusive).
func (a *run) binOfCount(passed, cells int64) string {
	for _, b := range a.opt.DifficultyBins {
		if r, ok := study.RatOf(b.Max); ok && cells > 0 {
			if study.NewRat(passed, cells).Cmp(r) <= 0 {
				return b.Name
			}
		} else if frac(passed, cells) <= b.Max {
			return b.Name
		}
	}
	return binAbove
}

// gateCells returns per question (passed, cells) of the gate: the sums over
// its items of Study.Gate (exact integers).
func (a *run) gateCells() [][2]int64 {
	if a.gate != nil {
		return a.gate
	}
	a.gate = make([][2]int64, a.p.nQ())
	q, last := -1, ""
	for _, g := range a.p.gate {
		if q < 0 || g.QuestionID != last {
			var ok bool
			if q, ok = a.p.qIdx[g.QuestionID]; !ok {
				q = -1
			}
			last = g.QuestionID
		}
		if q >= 0 {
			a.gate[q][0] += int64(g.Passed)
			a.gate[q][1] += int64(g.Runs)
		}
	}
	return a.gate
}

// difficultyOrder lists the difficulty categories present: the bins in
// Options order, Above gate, other names in byte order, unknown last.
func (a *run) difficultyOrder() []string {
	present := map[string]bool{}
	for q := range a.p.s.Questions {
		present[a.difficultyOf(q)] = true
	}
	var out []string
	known := map[string]bool{binAbove: true, binUnknown: true}
	for _, b := range a.opt.DifficultyBins {
		known[b.Name] = true
		if present[b.Name] {
			out = append(out, b.Name)
		}
	}
	var other []string
	for d := range present {
		if !known[d] {
			other = append(other, d)
		}
	}
	sort.Strings(other)
	if present[binAbove] {
		out = append(out, binAbove)
	}
	out = append(out, other...)
	if present[binUnknown] {
		out = append(out, binUnknown)
	}
	return out
}

// difficultyTable is Table 2: questions per difficulty bin.
func (a *run) difficultyTable() {
	n := map[string]int64{}
	for q := range a.p.s.Questions {
		n[a.difficultyOf(q)]++
	}
	lo := 0.0
	ranges := map[string][2]float64{}
	for _, b := range a.opt.DifficultyBins {
		ranges[b.Name] = [2]float64{lo, b.Max}
		lo = b.Max
	}
	for _, d := range a.difficultyOrder() {
		r, ok := ranges[d]
		if !ok {
			r = [2]float64{math.NaN(), math.NaN()}
			if d == binAbove {
				r = [2]float64{lo, 1}
			}
		}
		a.res.Dataset.Difficulty = append(a.res.Dataset.Difficulty, DifficultyRow{Difficulty: d, GateFrom: r[0], GateTo: r[1], Questions: n[d]})
	}
	if n[binAbove] > 0 {
		a.p.warn("analysis: %d questions have a gate score above the last difficulty bin (%v)", n[binAbove], lo)
	}
	if a.res.Dataset.Difficulty == nil {
		a.res.Dataset.Difficulty = []DifficultyRow{}
	}
}

// gradingCount is how many gradings a model has, by the one definition the
// overview, Table 3 and the summary share.
type gradingCount struct {
	all   int64 // every grading, human and judge, every round (judge runs averaged)
	main  int64 // human gradings in the main round (summary n_gradings, set all)
	solve int64 // of main, those with a defined solved flag (Solve Rate denominator)
	judge int64 // judge gradings, every round
}

// gradingCounts counts each model's gradings (by model index).
func (p *prep) gradingCounts() []gradingCount {
	c := make([]gradingCount, p.nM())
	for i := range p.grades {
		g := &p.grades[i]
		n := &c[g.m]
		n.all++
		switch {
		case !g.human:
			n.judge++
		case g.round == p.mainRnd:
			n.main++
			if g.solved >= 0 {
				n.solve++
			}
		}
	}
	return c
}

// modelsTable is Table 3: the models with provider and prices.
func (a *run) modelsTable() {
	p := a.p
	nResp := make([]int64, p.nM())
	for _, r := range p.s.Responses {
		if m, ok := p.mIdx[r.Model]; ok {
			nResp[m]++
		}
	}
	c := p.gradingCounts()
	rows := make([]ModelRow, 0, p.nM())
	for i, m := range p.s.Models {
		rows = append(rows, ModelRow{Model: m.Name, DisplayName: m.DisplayName, Provider: m.Provider, HumanLabel: i == p.label,
			USDPer1kInput: m.USDPer1kInput, USDPer1kOutput: m.USDPer1kOutput, Responses: nResp[i],
			Gradings: c[i].all, HumanGradings: c[i].main, SolveGradings: c[i].solve, JudgeGradings: c[i].judge})
	}
	a.res.Dataset.Models = rows
}

// gateTables is Table 12: per-item fulfilment of the difficulty gate, and
// the per-question gate scores.
func (a *run) gateTables() {
	p := a.p
	if !p.hasGate {
		a.leaveOut("gate_items", "the study has no difficulty-gate runs (gate file)")
		return
	}
	items := make([]GateItemRow, 0, len(p.gate))
	for _, g := range p.gate {
		runs, passed := int64(g.Runs), int64(g.Passed)
		items = append(items, GateItemRow{QuestionID: g.QuestionID, Item: int64(g.Item), Runs: runs, Passed: passed, Fulfilment: frac(passed, runs)})
	}
	a.res.Dataset.GateItems = items
	cells := a.gateCells()
	qs := []GateQuestionRow{}
	for q, qq := range p.s.Questions {
		c := cells[q]
		if c[1] == 0 {
			continue
		}
		qs = append(qs, GateQuestionRow{QuestionID: qq.ID, Cells: c[1], Passed: c[0], Score: frac(c[0], c[1]), Difficulty: a.difficultyOf(q)})
	}
	a.res.Dataset.GateQuestions = qs
}

func words(s string) int { return len(strings.Fields(s)) }

// descriptivesTable describes prompt, response and reference lengths and
// checklist sizes.
func (a *run) descriptivesTable() {
	p := a.p
	rows := []DescriptiveRow{}
	row := func(measure, group string, x []float64) {
		if len(x) == 0 {
			return
		}
		rows = append(rows, DescriptiveRow{Measure: measure, Group: group, N: int64(len(x)), Mean: stats.Mean(x), SD: stats.SD(x), Median: stats.Median(x), Min: minOf(x), Max: maxOf(x)})
	}
	var pc, pw, ci []float64
	for i := range p.s.Questions {
		q := &p.s.Questions[i]
		// the counts, set even when the texts are not read (see TextsNeeded)
		chars, words := q.PromptLen()
		pc = append(pc, float64(chars))
		pw = append(pw, float64(words))
		if p.hasChecklist {
			ci = append(ci, float64(q.Items()))
		}
	}
	row("prompt_chars", "all", pc)
	row("prompt_words", "all", pw)
	row("checklist_items", "all", ci)
	rc := make([][]float64, p.nM())
	rw := make([][]float64, p.nM())
	var ac, aw []float64
	for _, r := range p.s.Responses {
		m, ok := p.mIdx[r.Model]
		// a response has a text when Chars > 0 (the text itself need not be
		// loaded, see TextQuestions) or, in a study built without Chars, a Text
		if !ok || r.Text == "" && r.Chars == 0 {
			continue
		}
		rc[m] = append(rc[m], float64(r.Chars))
		rw[m] = append(rw[m], float64(r.Words))
		ac = append(ac, float64(r.Chars))
		aw = append(aw, float64(r.Words))
	}
	row("response_chars", "all", ac)
	row("response_words", "all", aw)
	for m, mm := range p.s.Models {
		row("response_chars", mm.Name, rc[m])
		row("response_words", mm.Name, rw[m])
	}
	var fc, fw []float64
	for _, r := range p.s.References {
		fc = append(fc, float64(utf8.RuneCountInString(r.Text)))
		fw = append(fw, float64(words(r.Text)))
	}
	row("reference_chars", "all", fc)
	row("reference_words", "all", fw)
	a.res.Dataset.Descriptives = rows
}

func minOf(x []float64) float64 {
	m := math.Inf(1)
	for _, v := range x {
		m = math.Min(m, v)
	}
	return m
}

func maxOf(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = math.Max(m, v)
	}
	return m
}

// groupRates computes, per group × model of a view, the share of gradings
// solved, with cluster-bootstrap intervals over the view's questions.
// groupOf returns the group of a grading or −1 to leave it out.
type groupRate struct {
	n, solved    int64
	rate, lo, hi float64
}

func (a *run) groupRates(v *view, nGroups int, groupOf func(g *grade) int) [][]groupRate {
	p := a.p
	nM := len(v.models)
	mPos := map[int]int{}
	for i, m := range v.models {
		mPos[m] = i
	}
	out := make([][]groupRate, nGroups)
	for i := range out {
		out[i] = make([]groupRate, nM)
	}
	nC := len(v.questions)
	acc := make([]float64, nC*nGroups*nM*2)
	for _, gi := range v.g {
		g := &p.grades[gi]
		k := groupOf(g)
		if k < 0 || g.solved < 0 {
			continue
		}
		mi := mPos[g.m]
		out[k][mi].n++
		out[k][mi].solved += int64(g.solved)
		c := ((int(v.qPos[g.q])*nGroups+k)*nM + mi) * 2
		acc[c]++
		acc[c+1] += float64(g.solved)
	}
	w := nGroups * nM * 2
	reps := a.bootstrapSums(acc, w, nGroups*nM, pairRatioFinish)
	for k := range out {
		for mi := range out[k] {
			r := &out[k][mi]
			r.rate = frac(r.solved, r.n)
			r.lo, r.hi = a.interval(reps, k*nM+mi)
		}
	}
	return out
}

// solveByDifficulty is Figure 1: Solve Rate per model × difficulty.
func (a *run) solveByDifficulty() {
	p := a.p
	v := a.view(setAll, -1)
	order := a.difficultyOrder()
	if len(v.g) == 0 || len(order) == 0 || (len(order) == 1 && order[0] == binUnknown) {
		a.leaveOut("solve_rate_by_difficulty", "no human gradings in the main round or no question has a difficulty")
		return
	}
	pos := map[string]int{}
	for i, d := range order {
		pos[d] = i
	}
	diff := make([]int, p.nQ())
	for q := range diff {
		diff[q] = pos[a.difficultyOf(q)]
	}
	rates := a.groupRates(v, len(order), func(g *grade) int { return diff[g.q] })
	var rows []DifficultySolveRow
	for mi, m := range v.models {
		for k, d := range order {
			r := rates[k][mi]
			rows = append(rows, DifficultySolveRow{Difficulty: d, Model: p.s.Models[m].Name, N: r.n, SolveRate: r.rate, Lo: r.lo, Hi: r.hi})
		}
	}
	if rows == nil {
		rows = []DifficultySolveRow{}
	}
	a.res.Dataset.SolveByDifficulty, a.res.Dataset.Difficulties = rows, order
}
