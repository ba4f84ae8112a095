package analysis

import (
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

const (
	binAbove   = "Above gate"
	binUnknown = "unknown"
)

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
	t := newTable("domains", "Table 1: Experts and questions per domain", report.SectionDataset,
		"Distinct experts (question authors and human evaluators of the domain; an author and an evaluator with the same id are one person) and questions per domain.",
		col("domain", report.Text, "question domain; Total = all domains (a person in two domains counts once)"),
		col("experts", report.Int, "distinct authors and human evaluators of the domain"),
		col("authors", report.Int, "distinct question authors"),
		col("evaluators", report.Int, "distinct human evaluators"),
		col("questions", report.Int, "questions"))
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
	for _, d := range doms {
		addRow(t, d, int64(len(people[d])), int64(len(authors[d])), int64(len(evals[d])), int64(qs[d]))
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
	addRow(t, "Total", int64(len(all)), int64(len(allA)), int64(len(allE)), int64(p.nQ()))
	a.addTable(t)
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
	t := newTable("difficulty", "Table 2: Questions per difficulty", report.SectionDataset,
		"Questions per difficulty bin of the difficulty gate (share of checklist items passed by the automatic runs; upper bounds inclusive).",
		col("difficulty", report.Text, "bin name; Above gate = score above the last bin; unknown = no difficulty or gate score"),
		col("gate_from", report.Fraction, "lower end of the bin's gate score range (exclusive except for the first bin)"),
		col("gate_to", report.Fraction, "upper end of the bin's gate score range (inclusive)"),
		col("questions", report.Int, "questions in the bin"))
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
		addRow(t, d, r[0], r[1], n[d])
	}
	if n[binAbove] > 0 {
		a.p.warn("analysis: %d questions have a gate score above the last difficulty bin (%v)", n[binAbove], lo)
	}
	a.addTable(t)
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
	t := newTable("models", "Table 3: Evaluated models", report.SectionDataset,
		"The models with their provider, display name, prices and counts.",
		col("model", report.Text, "model name"),
		col("display_name", report.Text, "display name"),
		col("provider", report.Text, "provider"),
		col("human_label", report.Text, "yes for the graded expert answer"),
		col("usd_per_1k_input", report.Float, "USD per 1,000 input tokens"),
		col("usd_per_1k_output", report.Float, "USD per 1,000 output tokens"),
		col("responses", report.Int, "responses in the dumps"),
		col("gradings", report.Int, "every grading of the model: human and judge, every round (judge runs averaged); the column sums to the overview's gradings"),
		col("human_gradings", report.Int, "human gradings in the main round: the gradings the summary's n_gradings counts (set all, humans)"),
		col("solve_gradings", report.Int, "of human_gradings, those with a defined solved flag: the denominator of the model's Solve Rate"),
		col("judge_gradings", report.Int, "judge gradings, every round (judge runs averaged)"))
	nResp := make([]int64, p.nM())
	for _, r := range p.s.Responses {
		if m, ok := p.mIdx[r.Model]; ok {
			nResp[m]++
		}
	}
	c := p.gradingCounts()
	for i, m := range p.s.Models {
		lbl := "no"
		if i == p.label {
			lbl = "yes"
		}
		addRow(t, m.Name, m.DisplayName, m.Provider, lbl, m.USDPer1kInput, m.USDPer1kOutput, nResp[i],
			c[i].all, c[i].main, c[i].solve, c[i].judge)
	}
	a.addTable(t)
}

// gateTables is Table 12: per-item fulfilment of the difficulty gate, and
// the per-question gate scores.
func (a *run) gateTables() {
	p := a.p
	if !p.hasGate {
		a.leaveOut("gate_items", "the study has no difficulty-gate runs (gate file)")
		return
	}
	t := newTable("gate_items", "Table 12: Difficulty-gate fulfilment per checklist item", report.SectionDataset,
		"For each question and checklist item, the share of automatic gate runs that passed it.",
		col("question_id", report.Text, "question"),
		col("item", report.Int, "checklist item (1..n)"),
		col("runs", report.Int, "gate runs on the item"),
		col("passed", report.Int, "runs that passed the item"),
		col("fulfilment", report.Fraction, "passed / runs"))
	// one row per gate item, in Study.Gate's order (question, item); the
	// rows share one backing array, each question id is boxed once for all
	// its items and each distinct fulfilment once (a handful of values over
	// a million rows at 200,000 questions)
	fr := boxes[[2]int64]{}
	slab := make([]any, 0, 5*len(p.gate))
	t.Rows = make([][]any, 0, len(p.gate))
	var qid any
	for i, g := range p.gate {
		if i == 0 || g.QuestionID != p.gate[i-1].QuestionID {
			qid = g.QuestionID
		}
		runs, passed := int64(g.Runs), int64(g.Passed)
		f := fr.box([2]int64{passed, runs}, func() any { return frac(passed, runs) })
		n := len(slab)
		slab = append(slab, qid, int64(g.Item), runs, passed, f)
		addRow(t, slab[n:n+5:n+5]...)
	}
	a.addTable(t)
	g := newTable("gate_questions", "Difficulty-gate score per question", report.SectionDataset,
		"Per question, the gate score (passed cells / all cells over runs and items) and the difficulty used.",
		col("question_id", report.Text, "question"),
		col("cells", report.Int, "gate cells (runs × items)"),
		col("passed", report.Int, "cells passed"),
		col("gate_score", report.Fraction, "passed / cells"),
		col("difficulty", report.Text, "difficulty bin used by the report"))
	cells := a.gateCells()
	diff := boxes[string]{}
	for q, qq := range p.s.Questions {
		c := cells[q]
		if c[1] == 0 {
			continue
		}
		d := a.difficultyOf(q)
		addRow(g, qq.ID, c[1], c[0], fr.box([2]int64{c[0], c[1]}, func() any { return frac(c[0], c[1]) }),
			diff.box(d, func() any { return d }))
	}
	a.addTable(g)
}

// boxes holds one interface value per distinct key, so that a large table
// whose cells repeat a few values holds one boxed copy of each.
type boxes[K comparable] map[K]any

// box returns the value kept for k, made by mk the first time.
func (b boxes[K]) box(k K, mk func() any) any {
	if v, ok := b[k]; ok {
		return v
	}
	v := mk()
	b[k] = v
	return v
}

func words(s string) int { return len(strings.Fields(s)) }

// descriptivesTable describes prompt, response and reference lengths and
// checklist sizes.
func (a *run) descriptivesTable() {
	p := a.p
	t := newTable("descriptives", "Dataset descriptives", report.SectionDataset,
		"Lengths of prompts, responses and references (Unicode code points and whitespace-separated words) and checklist sizes.",
		col("measure", report.Text, "prompt_chars, prompt_words, checklist_items, response_chars, response_words, reference_chars, reference_words"),
		col("group", report.Text, "all, or the model for responses"),
		col("n", report.Int, "number of values"),
		col("mean", report.Float, "mean"),
		col("sd", report.Float, "standard deviation (n − 1)"),
		col("median", report.Float, "median"),
		col("min", report.Float, "smallest value"),
		col("max", report.Float, "largest value"))
	row := func(measure, group string, x []float64) {
		if len(x) == 0 {
			return
		}
		addRow(t, measure, group, int64(len(x)), stats.Mean(x), stats.SD(x), stats.Median(x), minOf(x), maxOf(x))
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
	a.addTable(t)
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
	t := newTable("solve_rate_by_difficulty", "Figure 1: Solve Rate by difficulty", report.SectionOverview,
		"Solve Rate per model and difficulty bin over the human gradings of the main round, with 95 % cluster-bootstrap intervals.",
		col("difficulty", report.Text, "difficulty bin"),
		col("model", report.Text, "model"),
		col("n_gradings", report.Int, "gradings with a defined solved flag"),
		col("solve_rate", report.Fraction, "share of gradings solved"),
		col("solve_rate_lo", report.Fraction, "95 % interval, lower end"),
		col("solve_rate_hi", report.Fraction, "95 % interval, upper end"))
	f := &report.Figure{ID: "fig1_solve_rate_by_difficulty", Section: report.SectionOverview,
		Title: "Figure 1: Solve Rate by question difficulty", Kind: report.Bar, XName: "difficulty",
		YName: "Solve Rate", YUnit: "%", Percent: true, Table: t.Name, Categories: order}
	for mi, m := range v.models {
		s := report.Series{Name: p.s.Models[m].Name}
		for k, d := range order {
			r := rates[k][mi]
			addRow(t, d, p.s.Models[m].Name, r.n, r.rate, r.lo, r.hi)
			s.Values = append(s.Values, r.rate)
			s.N = append(s.N, int(r.n))
			s.Lo = append(s.Lo, r.lo)
			s.Hi = append(s.Hi, r.hi)
		}
		f.Series = append(f.Series, s)
	}
	a.addTable(t)
	a.addFigure(f)
}
