package paper

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/euroexec/euroexec/study"
)

var verdictNames = map[study.Verdict]string{study.Hit: "hit", study.Partial: "partial", study.Miss: "miss", study.NA: "na"}

// TextQuestions returns the ids of the questions whose response texts
// AnalyzeResult reads, in study order: TextsNeeded(s, opt).Responses.
func TextQuestions(s *study.Study, opt Options) ([]string, error) {
	n, err := TextsNeeded(s, opt)
	return n.Responses, err
}

// NeededTexts lists the questions whose texts AnalyzeResult reads; the texts of
// other questions may be left out of the study without changing any
// table, figure or page.
type NeededTexts struct {
	// Responses are the ids of the questions whose response texts AnalyzeResult
	// reads (Response.Chars and Words must be set on all responses all the
	// same): those with a reference that passes Options.TextFilter (text
	// metrics, Table 7) and those with a full question page. Reference
	// texts are read for every question.
	Responses []string
	// Questions are the ids of the questions whose Prompt and Checklist
	// texts AnalyzeResult reads: those with a full question page. The others need
	// only PromptChars, PromptWords, ChecklistItems and Snippet (the index
	// line), set on every question.
	Questions []string
}

// TextsNeeded returns the questions whose texts AnalyzeResult reads, in study
// order. The questions with a full page are every question when the study
// has at most opt.QuestionPages questions, else the selection AnalyzeResult
// makes (see Options.QuestionPages) — which costs one pass over the
// gradings, as AnalyzeResult's. Tags are read for every question. The error is
// AnalyzeResult's for an inconsistent study or an option out of range.
func TextsNeeded(s *study.Study, opt Options) (NeededTexts, error) {
	if s == nil {
		return NeededTexts{}, fmt.Errorf("analysis: nil study")
	}
	if err := checkOptions(opt); err != nil {
		return NeededTexts{}, err
	}
	page := make([]bool, len(s.Questions))
	if limit := pageLimit(opt); limit < 0 || len(s.Questions) <= limit {
		for q := range page {
			page[q] = true
		}
	} else {
		p, err := newPrep(s, opt)
		if err != nil {
			return NeededTexts{}, err
		}
		a := &run{p: p, opt: opt}
		for q, why := range a.selectPages(gradesByQuestion(p)) {
			page[q] = page[q] || why != ""
		}
	}
	qIdx := make(map[string]int, len(s.Questions))
	for q, qq := range s.Questions {
		if _, dup := qIdx[qq.ID]; !dup {
			qIdx[qq.ID] = q
		}
	}
	metrics := make([]bool, len(s.Questions))
	for _, r := range s.References {
		if q, ok := qIdx[r.QuestionID]; ok && opt.TextFilter.matches(s.Questions[q].Tags) {
			metrics[q] = true
		}
	}
	var n NeededTexts
	for q := range page {
		if page[q] || metrics[q] {
			n.Responses = append(n.Responses, s.Questions[q].ID)
		}
		if page[q] {
			n.Questions = append(n.Questions, s.Questions[q].ID)
		}
	}
	return n, nil
}

// snippet is the question's index line: its Snippet, or PromptSnippet of
// its Prompt for a question built without one.
func snippet(q *study.Question) string {
	if q.Snippet != "" {
		return q.Snippet
	}
	return study.PromptSnippet(q.Prompt)
}

// pageLimit is Options.QuestionPages with its default applied.
func pageLimit(opt Options) int {
	if opt.QuestionPages == 0 {
		return DefaultQuestionPages
	}
	return opt.QuestionPages
}

// gradesByQuestion lists the indices of p.grades per question.
func gradesByQuestion(p *prep) [][]int {
	byQ := make([][]int, p.nQ())
	for i := range p.grades {
		byQ[p.grades[i].q] = append(byQ[p.grades[i].q], i)
	}
	return byQ
}

// questionPages builds one QuestionPage per question, with every
// response (the text from the dumps) and every grading (judge runs
// averaged), in question, model, round, evaluator order.
func (a *run) questionPages() {
	p := a.p
	byQ := gradesByQuestion(p)
	refs := make([][]ReferenceText, p.nQ())
	for _, r := range p.s.References {
		if q, ok := p.qIdx[r.QuestionID]; ok {
			refs[q] = append(refs[q], ReferenceText{ID: r.ID, Author: r.Author, Text: r.Text, Graded: r.Graded})
		}
	}
	featured := a.selectPages(byQ)
	for q := range p.s.Questions {
		qq := &p.s.Questions[q]
		pg := &QuestionPage{ID: qq.ID, Domain: qq.Domain, Difficulty: a.difficultyOf(q),
			Author: qq.Author, Snippet: snippet(qq)}
		if pg.Difficulty == binUnknown {
			pg.Difficulty = ""
		}
		if featured != nil && featured[q] == "" {
			// index line only: no texts kept
			pg.Summary = true
			pg.NGradings = len(byQ[q])
			seen := map[int]bool{}
			for m := range p.s.Models {
				if p.respOf(q, m) != nil {
					seen[m] = true
				}
			}
			for _, gi := range byQ[q] {
				seen[p.grades[gi].m] = true
			}
			pg.NResponses = len(seen)
			a.res.Questions = append(a.res.Questions, pg)
			continue
		}
		if featured != nil {
			pg.Featured = featured[q]
		}
		for _, t := range qq.Tags {
			pg.Tags = append(pg.Tags, study.Tag{Key: t.Key, Value: t.Value})
		}
		pg.Prompt, pg.Checklist, pg.References = qq.Prompt, append([]string(nil), qq.Checklist...), refs[q]
		views := map[int]*ResponseView{}
		var order []int
		lo, hi := map[int]float64{}, map[int]float64{}
		pg.SolveRate, pg.Disagreement = math.NaN(), math.NaN()
		for m := range p.s.Models {
			if r := p.respOf(q, m); r != nil {
				views[m] = &ResponseView{Model: r.Model, Text: r.Text, HasText: r.Text != "", Chars: r.Chars, Words: r.Words}
				order = append(order, m)
			}
		}
		for _, gi := range byQ[q] {
			g := &p.grades[gi]
			rv := views[g.m]
			if rv == nil {
				rv = &ResponseView{Model: p.s.Models[g.m].Name}
				views[g.m] = rv
				order = append(order, g.m)
			}
			gv := a.gradingView(g)
			rv.Gradings = append(rv.Gradings, gv)
			if gv.Label != "" && !slices.Contains(rv.Labels, gv.Label) {
				rv.Labels = append(rv.Labels, gv.Label)
			}
			if p.gradings[g.src].Kind == study.Human || p.gradings[g.src].Kind == "" {
				if g.solved >= 0 {
					pg.Graded++
					if g.solved == 1 {
						pg.Solved++
					}
				}
				if !math.IsNaN(g.rubMean) {
					if _, ok := lo[g.m]; !ok {
						lo[g.m], hi[g.m] = g.rubMean, g.rubMean
					}
					lo[g.m], hi[g.m] = math.Min(lo[g.m], g.rubMean), math.Max(hi[g.m], g.rubMean)
				}
			}
		}
		if pg.Graded > 0 {
			pg.SolveRate = float64(pg.Solved) / float64(pg.Graded)
		}
		sum, n := 0.0, 0
		for _, m := range sortedKeys(lo) { // a fixed order: the same bits every run
			if countHuman(views[m]) > 1 {
				sum += hi[m] - lo[m]
				n++
			}
		}
		if n > 0 {
			pg.Disagreement = sum / float64(n)
		}
		sortInts(order)
		for _, m := range order {
			slices.Sort(views[m].Labels)
			pg.Responses = append(pg.Responses, *views[m])
			pg.NGradings += len(views[m].Gradings)
		}
		pg.NResponses = len(pg.Responses)
		a.res.Questions = append(a.res.Questions, pg)
	}
}

// selectPages returns, for a study with more questions than
// Options.QuestionPages, why each question gets a full page ("" = none);
// nil when every question gets one. With N pages: first the questions
// unsolved by every model (no grading of any response solved; up to N/3,
// in question order), then those with the largest grader disagreement (the
// largest spread, max − min, of the rubric means of one response's human
// gradings; ties in question order) up to 2N/3 pages in all, then a random
// sample of the rest (a PCG stream seeded by Options.Seed) up to N.
func (a *run) selectPages(byQ [][]int) []Featured {
	p := a.p
	limit := pageLimit(a.opt)
	nQ := len(p.s.Questions)
	if limit < 0 || nQ <= limit {
		return nil
	}
	out := make([]Featured, nQ)
	taken := 0
	// unsolved by every model
	for q := 0; q < nQ && taken < limit/3; q++ {
		solved, graded := false, false
		for _, gi := range byQ[q] {
			g := &p.grades[gi]
			graded = graded || g.solved >= 0
			solved = solved || g.solved == 1
		}
		if graded && !solved {
			out[q] = FeaturedUnsolved
			taken++
		}
	}
	// largest disagreement
	type qs struct {
		q      int
		spread float64
	}
	var spreads []qs
	for q := 0; q < nQ; q++ {
		if out[q] != "" {
			continue
		}
		lo, hi := map[int]float64{}, map[int]float64{}
		best := math.NaN()
		for _, gi := range byQ[q] {
			g := &p.grades[gi]
			if !g.human || math.IsNaN(g.rubMean) {
				continue
			}
			if l, ok := lo[g.m]; !ok || g.rubMean < l {
				lo[g.m] = g.rubMean
			}
			if h, ok := hi[g.m]; !ok || g.rubMean > h {
				hi[g.m] = g.rubMean
			}
			if d := hi[g.m] - lo[g.m]; math.IsNaN(best) || d > best {
				best = d
			}
		}
		if !math.IsNaN(best) && best > 0 {
			spreads = append(spreads, qs{q, best})
		}
	}
	sort.SliceStable(spreads, func(i, j int) bool { return spreads[i].spread > spreads[j].spread })
	for _, s := range spreads {
		if taken >= 2*limit/3 {
			break
		}
		out[s.q] = FeaturedDisagreement
		taken++
	}
	// random sample of the rest: a partial Fisher–Yates shuffle
	var rest []int
	for q := 0; q < nQ; q++ {
		if out[q] == "" {
			rest = append(rest, q)
		}
	}
	r := rand.New(rand.NewPCG(a.opt.Seed, 0x51e))
	for i := 0; i < len(rest) && taken < limit; i++ {
		j := i + r.IntN(len(rest)-i)
		rest[i], rest[j] = rest[j], rest[i]
		out[rest[i]] = FeaturedSample
		taken++
	}
	return out
}

// gradingView renders one grading. Verdicts are those of the first run for
// an averaged judge grading; its rank is the mean rank rounded.
func (a *run) gradingView(g *grade) GradingView {
	p := a.p
	row := &p.gradings[g.src]
	gv := GradingView{Evaluator: row.Evaluator, Kind: row.Kind, Round: row.Round,
		Rubric: append([]float64(nil), g.attr...), RubricMean: g.rubMean, ChecklistRate: g.rate,
		Rank: int(math.Round(g.rank)), Solved: g.solved == 1, Comment: row.Comment, Label: row.Label}
	if gv.Kind == "" {
		gv.Kind = study.Human
	}
	for _, v := range row.Verdicts {
		gv.Verdicts = append(gv.Verdicts, verdictNames[v])
	}
	return gv
}

// countHuman counts the human gradings with a mean rubric score of a
// response.
func countHuman(rv *ResponseView) int {
	n := 0
	if rv == nil {
		return 0
	}
	for _, g := range rv.Gradings {
		if (g.Kind == study.Human || g.Kind == "") && !math.IsNaN(g.RubricMean) {
			n++
		}
	}
	return n
}

func sortedKeys(m map[int]float64) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortInts(out)
	return out
}
