package sample

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Attributes are the rubric attributes of a generated study, in column order.
var Attributes = []string{"Domain", "Localization", "Reasoning", "Communication", "Actionability"}

// HumanLabel is the model name under which the expert-written reference
// answer is graded in the "reference" round (study.toml human_label).
const HumanLabel = "Human Expert"

// MainRound and ReferenceRound are the grading rounds (sub-folders of
// grades/humans/) a generated study has.
const (
	MainRound      = "main"
	ReferenceRound = "reference"
)

const (
	maxItems  = 8 // checklist items per question: 3..maxItems
	gateRuns  = 5
	rubricMin = 1
	rubricMax = 5
)

// style is how a human grader's main-round file is laid out.
type style int

const (
	styleSingle  style = iota // one sheet "Grades", wide form
	styleDomains              // "Instructions" sheet + one wide sheet per domain
	styleLong                 // long form (instrument, key, value)
	styleLabel                // wide form with blinded `label` instead of `model`
)

type modelInfo struct {
	name, provider, display string
	priceIn, priceOut       float64 // USD per 1k tokens
	quality                 float64
	attrOff                 []float64
	lenFactor               float64
	tokensOnly              bool
}

type humanInfo struct {
	id        string
	domain    int
	leniency  float64
	noise     float64
	style     style
	spelling  [4]string // hit, partial, miss, na as this grader writes them
	textQuirk bool      // first data row has question_id and Domain as text cells
}

type judgeInfo struct {
	name    string
	bias    float64
	noise   float64
	samples int     // samples averaged per score
	runs    int     // 1, or 3 with a run column
	missing bool    // has a few missing scores
	step    float64 // scores are multiples of step
}

// study holds the study-level latent parameters, drawn once from the seed.
type study struct {
	opt        Options
	models     []modelInfo
	humans     []humanInfo
	judges     []judgeInfo
	byDomain   [][]int // human evaluator indices per domain
	idBase     int     // question ids are idBase+1 .. idBase+Questions
	xlsx       bool    // human grading files as .xlsx
	skipQ      int     // question index whose last model's response is not dumped
	retryQ     int     // question index whose first model's response has two attempts
	missingMod int     // judge scores missing when qi%missingMod == 3
}

var (
	modelStems = []string{"atlas", "borealis", "cirrus", "dorado", "ember", "fjord", "gale", "helix",
		"ion", "juniper", "kite", "lyra"}
	modelSuffixes = []string{"5", "2.5-pro", "large-3", "4o", "3.1", "1.5-flash", "ultra", "7", "mini-2", "x", "9", "nova"}
	providerNames = []string{"Atlas AI", "Borealis Labs", "Cirrus Systems", "Dorado", "Ember Research", "Fjord AI",
		"Gale", "Helix", "Ion Labs", "Juniper", "Kite", "Lyra AI"}
	judgeNames = []string{"arbiter-large", "critic-mini", "assessor-pro", "referee-2", "umpire-x"}
)

// newStudy draws the study-level parameters.
func newStudy(opt Options) *study {
	r := rand.New(rand.NewPCG(opt.Seed, 0x5eed))
	s := &study{opt: opt, xlsx: opt.Questions <= XLSXQuestionLimit}
	s.idBase = 100
	for s.idBase <= opt.Questions {
		s.idBase *= 10
	}
	s.skipQ = min(5, opt.Questions-1)
	s.retryQ = min(1, opt.Questions-1)
	s.missingMod = 29

	M := opt.Models
	for m := 0; m < M; m++ {
		stem := modelStems[m%len(modelStems)]
		suf := modelSuffixes[m%len(modelSuffixes)]
		if m >= len(modelStems) {
			suf += "-" + strconv.Itoa(m/len(modelStems)+1)
		}
		name := stem + "-" + suf
		disp := capitalise(stem) + " " + strings.ReplaceAll(suf, "-", " ")
		// Qualities spread evenly from 3.45 (first model) down to 2.3, jittered.
		q := 3.45 - 1.15*float64(m)/float64(M-1) + 0.08*r.NormFloat64()
		off := make([]float64, len(Attributes))
		base := []float64{0, 0.25, -0.35, 0.2, -0.1}
		for a := range off {
			off[a] = base[a] + 0.15*r.NormFloat64()
		}
		lf := 0.75 + 0.5*r.Float64()
		if m == 2 {
			lf = 1.9 // one verbose model
		}
		s.models = append(s.models, modelInfo{
			name: name, provider: providerNames[m%len(providerNames)], display: disp,
			priceIn:  float64(1+r.IntN(30)) / 2000,
			priceOut: float64(2+r.IntN(60)) / 1000,
			quality:  q, attrOff: off, lenFactor: lf,
			tokensOnly: m == 1,
		})
	}

	E := opt.Evaluators
	s.byDomain = make([][]int, len(domainNames))
	width := len(strconv.Itoa(E))
	if width < 2 {
		width = 2
	}
	for e := 0; e < E; e++ {
		h := humanInfo{
			id:       "expert_" + pad(e+1, width),
			domain:   e % len(domainNames),
			leniency: 0.35 * r.NormFloat64(),
			noise:    0.45 + 0.4*r.Float64(),
			spelling: [4]string{"hit", "partial", "miss", "na"},
		}
		switch {
		case e == 2:
			h.style = styleLong
		case e == 3:
			h.style = styleLabel
		case e%4 == 1:
			h.style = styleDomains
		default:
			h.style = styleSingle
		}
		switch {
		case e == 4:
			h.spelling = [4]string{"HIT", "PARTIAL", "MISS", "NA"}
		case e == 5:
			h.spelling = [4]string{"yes", "partial", "no", "na"}
		case e%3 == 0:
			h.spelling = [4]string{"Hit", "Partial", "Miss", "na"}
		}
		h.textQuirk = e == 0
		s.humans = append(s.humans, h)
		s.byDomain[h.domain] = append(s.byDomain[h.domain], e)
	}

	for j := 0; j < opt.Judges; j++ {
		name := judgeNames[j%len(judgeNames)]
		if j >= len(judgeNames) {
			name += "-" + strconv.Itoa(j/len(judgeNames)+1)
		}
		ji := judgeInfo{name: name, bias: 0.25 * r.NormFloat64(), noise: 0.2 + 0.2*r.Float64(), runs: 1}
		if j%2 == 0 {
			ji.samples, ji.step = 2, 0.5
		} else {
			ji.samples, ji.step = 4, 0.25
		}
		if j == 0 && !opt.SingleRun {
			ji.runs = 3
		}
		ji.missing = j == opt.Judges-1
		s.judges = append(s.judges, ji)
	}
	return s
}

// pad formats n with leading zeros to width digits.
func pad(n, width int) string {
	t := strconv.Itoa(n)
	for len(t) < width {
		t = "0" + t
	}
	return t
}

// response is one response as dumped (or not) in responses/<model>.jsonl.
type response struct {
	model         int
	text          string
	retryText     string // non-empty: an earlier attempt 1 is dumped before (text is attempt 2)
	inTok, outTok int
	cost          float64
	skipped       bool // graded but absent from the dumps
}

type reference struct {
	id, author, text string
	graded           bool
}

// loc is where a grading row is written.
type loc struct {
	file, sheet string
	row         int
}

// grading is one grading as written in one file.
type grading struct {
	ev       int // human or judge index
	judge    bool
	round    string
	run      int // 0: no run column
	model    int // model index; len(models) = the human label
	label    string
	scores   []float64 // NaN: missing (judges only)
	verdicts []int     // per item: 0 hit, 1 partial, 2 miss, 3 na
	rank     int
	comment  string
	textCell bool // write question_id and first attribute as text cells
	at       loc
}

type criterion struct {
	id, text, category string
	weight             int
}

type critGrading struct {
	evaluator string
	judge     bool
	model     int
	met       []bool
	at        loc
}

// question is everything generated for one question.
type question struct {
	idx        int
	id         string
	domain     int
	decision   string
	prompt     string
	author     string
	items      []string
	gate       [][]bool // [run][item]
	gatePassed int
	labels     []string // blinded label per model
	responses  []response
	refs       []reference
	graders    []int // main-round human graders
	refGraders []int
	gradings   []grading
	criteria   []criterion
	critGrades []critGrading
}

// layout hands out row numbers per file and sheet, shared by Write and Walk.
type layout struct{ next map[string]int }

func (l *layout) take(file, sheet string, rows, first int) loc {
	k := file + "\x00" + sheet
	n, ok := l.next[k]
	if !ok {
		n = first
	}
	l.next[k] = n + rows
	return loc{file: file, sheet: sheet, row: n}
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }

// letters returns the blinded label for index i: A..Z, AA, AB, ...
func letters(i int) string {
	s := ""
	for {
		s = string(rune('A'+i%26)) + s
		i = i/26 - 1
		if i < 0 {
			return s
		}
	}
}

// hasReference reports whether question qi gets an expert answer: questions
// are spread evenly, floor((qi+1)·share) > floor(qi·share).
func (s *study) hasReference(qi int) bool {
	sh := s.opt.ReferenceShare
	return math.Floor(float64(qi+1)*sh) > math.Floor(float64(qi)*sh)
}

// refOrdinal is how many reference questions come before qi.
func (s *study) refOrdinal(qi int) int { return int(math.Floor(float64(qi) * s.opt.ReferenceShare)) }

// humanFile returns the relative path and sheet of grader e's rows in round for
// a question of domain d.
func (s *study) humanFile(e int, round string, d int) (file, sheet string, first int) {
	h := s.humans[e]
	ext := ".csv"
	if s.xlsx {
		ext = ".xlsx"
	}
	file = "grades/humans/" + round + "/" + h.id + ext
	if !s.xlsx {
		return file, "", 2
	}
	sheet = "Grades"
	if round == MainRound && h.style == styleDomains {
		sheet = domainNames[d]
	}
	return file, sheet, 2
}

// gen generates question qi. The per-question generator is seeded from
// (seed, qi), so questions are independent and can be streamed.
func (s *study) gen(qi int, lay *layout) *question {
	r := rand.New(rand.NewPCG(s.opt.Seed, 1<<32+uint64(qi)))
	M := len(s.models)
	q := &question{idx: qi, id: strconv.Itoa(s.idBase + qi + 1)}
	q.domain = r.IntN(len(domainNames))
	q.decision = pick(r, decisionTypes)
	difficulty := 0.6 * r.NormFloat64()

	// Author: a grader of the domain when there is one.
	pool := s.byDomain[q.domain]
	authorIdx := -1
	if len(pool) > 0 {
		authorIdx = pool[r.IntN(len(pool))]
		q.author = s.humans[authorIdx].id
	} else {
		q.author = "author_" + domainNames[q.domain]
	}

	firm, country, city := company(r), pick(r, countries), pick(r, cities)
	q.prompt = promptText(r, 900+r.IntN(600), firm, country, city, q.decision)

	// Checklist: 3..8 items, each testing a key phrase.
	n := 3 + r.IntN(maxItems-2)
	phrases := make([]string, n)
	itemDiff := make([]float64, n)
	q.items = make([]string, n)
	for i := range phrases {
		phrases[i] = keyPhrase(r)
		itemDiff[i] = 0.7 * r.NormFloat64()
		q.items[i] = pick(r, keyVerbs) + " " + phrases[i]
	}

	// Difficulty gate: 5 runs of an automatic solver.
	q.gate = make([][]bool, gateRuns)
	for run := range q.gate {
		q.gate[run] = make([]bool, n)
		for i := range n {
			p := sigmoid(-0.7 - float64(1.3*difficulty) - float64(0.5*itemDiff[i]))
			if r.Float64() < p {
				q.gate[run][i] = true
				q.gatePassed++
			}
		}
	}

	// Blinding labels.
	perm := r.Perm(M)
	q.labels = make([]string, M)
	for m := range M {
		q.labels[m] = letters(perm[m])
	}

	// Latent quality of each response; index M is the expert answer.
	lat := make([]float64, M+1)
	for m := range M {
		lat[m] = s.models[m].quality - difficulty + 0.4*r.NormFloat64()
	}
	lat[M] = 4.3 - 0.3*difficulty + 0.3*r.NormFloat64()
	// Shared checklist signal per (response, item).
	shared := make([][]float64, M+1)
	for m := range shared {
		shared[m] = make([]float64, n)
		for i := range n {
			shared[m][i] = float64(1.2*(lat[m]-3)) - itemDiff[i] + 0.6*r.NormFloat64()
		}
	}

	// Responses: key phrases covered with a probability that grows with quality.
	for m := range M {
		mi := s.models[m]
		var inc []string
		for i := range n {
			if r.Float64() < sigmoid(shared[m][i]) {
				inc = append(inc, phrases[i])
			}
		}
		target := int(float64(s.opt.ResponseChars) * mi.lenFactor * math.Exp(0.25*r.NormFloat64()))
		resp := response{model: m, text: prose(r, target, inc)}
		if qi == s.retryQ && m == 0 {
			resp.retryText = "I'm sorry, the request timed out before an answer was produced."
		}
		resp.skipped = qi == s.skipQ && m == M-1
		resp.inTok = len(q.prompt)/4 + 60
		resp.outTok = len(resp.text) / 4
		c := float64(resp.inTok)/1000*mi.priceIn + float64(resp.outTok)/1000*mi.priceOut
		resp.cost = math.Round(c*1e6) / 1e6
		q.responses = append(q.responses, resp)
	}

	// References.
	if s.hasReference(qi) {
		nref := 1
		ord := s.refOrdinal(qi)
		if ord%3 == 1 {
			nref = 2
		}
		for k := range nref {
			var inc []string
			for i := range n {
				if k == 0 || r.IntN(2) == 0 {
					inc = append(inc, phrases[i])
				}
			}
			q.refs = append(q.refs, reference{
				id:     "r" + strconv.Itoa(k+1),
				author: q.author,
				text:   prose(r, s.opt.ResponseChars, inc),
			})
		}
		// The graded one: r1, except on every second two-reference question.
		g := 0
		if nref == 2 && ord%6 == 4 {
			g = 1
		}
		q.refs[g].graded = true
	}

	// Graders: same-domain experts first (never the author), then others.
	var cand, others []int
	for _, e := range s.byDomain[q.domain] {
		if e != authorIdx {
			cand = append(cand, e)
		}
	}
	for e := range s.humans {
		if e != authorIdx && s.humans[e].domain != q.domain {
			others = append(others, e)
		}
	}
	r.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
	r.Shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
	order := append(cand, others...)
	k := 2
	if qi%10 == 7 {
		k = 3
	}
	k = min(k, len(order))
	q.graders = append([]int(nil), order[:k]...)
	slices.Sort(q.graders)
	if len(q.refs) > 0 {
		rest := order[k:]
		if len(rest) < 2 {
			rest = append(rest, order[:k]...)
		}
		q.refGraders = append([]int(nil), rest[:min(2, len(rest))]...)
		slices.Sort(q.refGraders)
	}

	// Human gradings, main round then reference round.
	for _, e := range q.graders {
		q.gradings = append(q.gradings, s.humanGradings(r, q, lay, e, MainRound, lat, shared, M)...)
	}
	for _, e := range q.refGraders {
		q.gradings = append(q.gradings, s.humanGradings(r, q, lay, e, ReferenceRound, lat, shared, M+1)...)
	}
	// Judge gradings.
	for j := range s.judges {
		for run := 1; run <= s.judges[j].runs; run++ {
			q.gradings = append(q.gradings, s.judgeGradings(r, q, lay, j, run, lat, shared)...)
		}
	}

	if s.opt.Criteria {
		s.genCriteria(r, q, lay, lat)
	}
	return q
}

// humanGradings grades the first k responses (models, then the expert answer
// when k = M+1) by human e in round.
func (s *study) humanGradings(r *rand.Rand, q *question, lay *layout, e int, round string,
	lat []float64, shared [][]float64, k int) []grading {
	h := s.humans[e]
	n := len(q.items)
	out := make([]grading, k)
	keys := make([]float64, k)
	for m := range k {
		g := grading{ev: e, round: round, model: m, scores: make([]float64, len(Attributes)), verdicts: make([]int, n)}
		gn := 0.35 * r.NormFloat64()
		sum := 0.0
		for a := range Attributes {
			off := 0.1
			if m < len(s.models) {
				off = s.models[m].attrOff[a]
			}
			x := lat[m] + off + h.leniency + gn + h.noise*r.NormFloat64()
			g.scores[a] = clamp(math.Round(x), rubricMin, rubricMax)
			sum += g.scores[a]
		}
		hits, items := 0.0, 0
		for i := range n {
			v := shared[m][i] + float64(0.5*h.leniency) + 0.5*r.NormFloat64()
			switch {
			case r.Float64() < 0.004:
				g.verdicts[i] = 3
			case v > 0.3:
				g.verdicts[i] = 0
			case v > -0.5:
				g.verdicts[i] = 1
			default:
				g.verdicts[i] = 2
			}
			if g.verdicts[i] != 3 {
				items++
				hits += [3]float64{1, 0.5, 0}[g.verdicts[i]]
			}
		}
		rate := 0.0
		if items > 0 {
			rate = hits / float64(items)
		}
		keys[m] = sum/float64(len(Attributes)) + float64(0.5*rate) + 0.3*r.NormFloat64()
		if h.style != styleLong && r.Float64() < 0.3 {
			g.comment = pick(r, commentWords)
			if r.IntN(5) == 0 {
				g.comment += "\nSee also my note on item " + strconv.Itoa(1+r.IntN(n)) + "."
			}
		}
		if round == MainRound && h.style == styleLabel {
			g.label = q.labels[m]
		}
		out[m] = g
	}
	rankByKey(out, keys)
	file, sheet, first := s.humanFile(e, round, q.domain)
	long := h.style == styleLong
	for m := range out {
		rows := 1
		if long {
			rows = len(Attributes) + n + 1
		}
		out[m].at = lay.take(file, sheet, rows, first)
		out[m].textCell = h.textQuirk && s.xlsx && out[m].at.row == 2 && out[m].at.sheet != ""
	}
	return out
}

// rankByKey sets ranks 1..k by descending key (ties by index).
func rankByKey(gs []grading, keys []float64) {
	idx := make([]int, len(gs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case keys[a] > keys[b]:
			return -1
		case keys[a] < keys[b]:
			return 1
		}
		return 0
	})
	for rank, i := range idx {
		gs[i].rank = rank + 1
	}
}

// judgeGradings grades every model's response by judge j, run run. Judges
// are over-crisp: quality differences pass through 3 + 1.9·tanh(0.9·x).
func (s *study) judgeGradings(r *rand.Rand, q *question, lay *layout, j, run int,
	lat []float64, shared [][]float64) []grading {
	ji := s.judges[j]
	M, n := len(s.models), len(q.items)
	out := make([]grading, M)
	keys := make([]float64, M)
	runCol := 0
	if ji.runs > 1 {
		runCol = run
	}
	for m := range M {
		g := grading{ev: j, judge: true, round: MainRound, run: runCol, model: m,
			scores: make([]float64, len(Attributes)), verdicts: make([]int, n)}
		sum := 0.0
		for a := range Attributes {
			x := lat[m] + s.models[m].attrOff[a] - 3
			tot := 0.0
			for range ji.samples {
				tot += 3 + ji.bias + float64(1.9*math.Tanh(0.9*x)) + ji.noise*r.NormFloat64()
			}
			v := math.Round(tot/float64(ji.samples)/ji.step) * ji.step
			g.scores[a] = clamp(v, rubricMin, rubricMax)
			sum += g.scores[a]
		}
		if ji.missing && q.idx%s.missingMod == 3 && m == q.idx%M {
			g.scores[q.idx%len(Attributes)] = math.NaN()
		}
		covered := 0
		for i := range n {
			v := shared[m][i] + 0.3*r.NormFloat64()
			switch {
			case v > 0.1:
				g.verdicts[i] = 0
				covered++
			case v > -0.2:
				g.verdicts[i] = 1
			default:
				g.verdicts[i] = 2
			}
		}
		keys[m] = sum + 0.1*r.NormFloat64()
		g.comment = "Covers " + strconv.Itoa(covered) + " of " + strconv.Itoa(n) + " checklist items."
		out[m] = g
	}
	rankByKey(out, keys)
	file := "grades/judges/" + ji.name + ".jsonl"
	for m := range out {
		out[m].at = lay.take(file, "", 1, 1)
	}
	return out
}

// genCriteria adds 10..30 weighted criteria to q, judge criterion grades on
// every response, and human criterion grades (main graders) on every fifth
// question.
func (s *study) genCriteria(r *rand.Rand, q *question, lay *layout, lat []float64) {
	nc := 10 + r.IntN(21)
	width := 2
	q.criteria = make([]criterion, nc)
	for c := range nc {
		cr := criterion{id: "c" + pad(c+1, width), category: pick(r, criterionCategories)}
		if c == 0 || r.Float64() < 0.75 {
			cr.weight = 1 + r.IntN(10)
			cr.text = pick(r, keyVerbs) + " " + keyPhrase(r)
		} else {
			cr.weight = -(1 + r.IntN(10))
			cr.text = pick(r, pitfalls)
		}
		q.criteria[c] = cr
	}
	M := len(s.models)
	latent := make([][]float64, M)
	for m := range M {
		latent[m] = make([]float64, nc)
		for c, cr := range q.criteria {
			if cr.weight > 0 {
				latent[m][c] = float64(1.3*(lat[m]-3)) + 0.3 + 0.8*r.NormFloat64()
			} else {
				latent[m][c] = float64(-1.0*(lat[m]-3)) - 1.2 + 0.8*r.NormFloat64()
			}
		}
	}
	grade := func(name string, judge bool, noise float64, file string, first int) {
		for m := range M {
			cg := critGrading{evaluator: name, judge: judge, model: m, met: make([]bool, nc)}
			for c := range nc {
				cg.met[c] = latent[m][c]+noise*r.NormFloat64() > 0
			}
			cg.at = lay.take(file, "", nc, first)
			q.critGrades = append(q.critGrades, cg)
		}
	}
	for _, ji := range s.judges {
		grade(ji.name, true, 0.4, "criterion_grades/judges/"+ji.name+".jsonl", 1)
	}
	if q.idx%5 == 0 {
		for _, e := range q.graders[:min(2, len(q.graders))] {
			id := s.humans[e].id
			grade(id, false, 0.6, "criterion_grades/humans/"+id+".csv", 2)
		}
	}
}
