package judgeaudit

// The judge audit's prepare as it was before it was made compact (commit
// 46a691c), kept as the oracle of TestPrepareMatchesOld: the new prepare
// must give the same sufficient statistics bit for bit.

import (
	"math"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/study"
)

// judgeDataOld is everything Analyze needs about one judge.
type judgeDataOld struct {
	id, provider string
	// stats[q*nStat+k] is statistic k summed over question q's responses
	// (while preparing); cols[k][q] is the same by column, nil when the
	// column is all zero.
	stats []float64
	cols  [][]float64
	// facts for the notes.
	responses, withText, withRuns, withPos, withChk int
	ownProvider, modelsWithProvider, ownN, othN     int
	distinctLen                                     bool
	tauSum                                          float64
	tauN, tauUndef                                  int
	solvedJ, solvedH                                []int
	questions                                       map[int]bool
}

// response is one (question, model) of the round with its human side.
type responseOld struct {
	q        int
	model    string
	hMeans   []float64 // human gradings' rubric means (defined ones)
	hMean    float64   // mean of hMeans (exact, study.RatSum); NaN when none
	hSum     study.RatSum
	hRate    float64   // mean human checklist rate; NaN when none
	hAttr    []float64 // per attribute, mean over humans; NaN when none
	hSolved  []bool
	chars    int // 0 when no text
	provider string
}

// preparedOld is the study reduced to what the audit reads.
type preparedOld struct {
	round     string
	questions []string
	attrs     []string
	judges    []*judgeDataOld
	hasChk    bool
	humans    bool // some human grading in the round
}

func prepareOld(s *analysis.Study, opt Options) *preparedOld {
	round := opt.Round
	if round == "" {
		round = s.MainRound
	}
	p := &preparedOld{round: round, attrs: s.Attributes}
	nA := len(s.Attributes)
	nStat := nFixed + 2*nA
	gs := scores.OrCompute(opt.Graded, s, opt.Scores)
	provOf := map[string]string{}
	for _, m := range s.Models {
		provOf[m.Name] = strings.TrimSpace(m.Provider)
	}
	chars := map[[2]string]int{}
	for _, r := range s.Responses {
		if r.Chars > 0 { // texts may be dropped by now; their lengths stay
			chars[[2]string{r.QuestionID, r.Model}] = r.Chars
		}
	}
	qIdx := map[string]int{}
	for _, q := range s.Questions {
		qIdx[q.ID] = len(p.questions)
		p.questions = append(p.questions, q.ID)
	}
	qOf := func(id string) int {
		i, ok := qIdx[id]
		if !ok {
			i = len(p.questions)
			qIdx[id] = i
			p.questions = append(p.questions, id)
		}
		return i
	}
	use := func(round, model string) bool { return round == p.round && model != s.HumanLabel }

	// Human side per response.
	resp := map[[2]string]*responseOld{}
	type acc struct {
		rate, attr []float64
		nRate      int
		nAttr      []int
	}
	accs := map[[2]string]*acc{}
	for i := range gs {
		g := &gs[i]
		if g.Kind != analysis.Human || !use(g.Round, g.Model) {
			continue
		}
		p.humans = true
		k := [2]string{g.QuestionID, g.Model}
		r := resp[k]
		if r == nil {
			r = &responseOld{q: qOf(g.QuestionID), model: g.Model, chars: chars[k], provider: provOf[g.Model]}
			resp[k] = r
			accs[k] = &acc{attr: make([]float64, nA), nAttr: make([]int, nA)}
		}
		a := accs[k]
		if !math.IsNaN(g.RubricMean) {
			r.hMeans = append(r.hMeans, g.RubricMean)
			r.hSum.Add(g.RubricRat, g.RubricMean)
		}
		if !math.IsNaN(g.ChecklistRate) {
			a.rate = append(a.rate, g.ChecklistRate)
			a.nRate++
		}
		for j, v := range g.Rubric {
			if !math.IsNaN(v) {
				a.attr[j] += v
				a.nAttr[j]++
			}
		}
		r.hSolved = append(r.hSolved, g.Solved)
	}
	for k, r := range resp {
		a := accs[k]
		// The exact mean, as Table 8's mean-human ranking has it, so that
		// equal means tie.
		r.hMean = r.hSum.Mean()
		r.hRate = meanOf(a.rate)
		r.hAttr = make([]float64, nA)
		for j := range r.hAttr {
			r.hAttr[j] = math.NaN()
			if a.nAttr[j] > 0 {
				r.hAttr[j] = a.attr[j] / float64(a.nAttr[j])
			}
		}
	}

	// Judges, in evaluator order.
	provJ := map[string]string{}
	for _, e := range s.Evaluators {
		provJ[e.ID] = strings.TrimSpace(e.Provider)
	}
	jIdx := map[string]*judgeDataOld{}
	var ids []string
	for i := range gs {
		g := &gs[i]
		if g.Kind == analysis.Judge && use(g.Round, g.Model) && jIdx[g.Evaluator] == nil {
			jIdx[g.Evaluator] = &judgeDataOld{id: g.Evaluator, provider: provJ[g.Evaluator]}
			ids = append(ids, g.Evaluator)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		jd := jIdx[id]
		jd.stats = make([]float64, len(p.questions)*nStat)
		jd.questions = map[int]bool{}
		p.judges = append(p.judges, jd)
	}
	for _, m := range s.Models {
		if provOf[m.Name] != "" && m.Name != s.HumanLabel {
			for _, jd := range p.judges {
				jd.modelsWithProvider++
				if jd.provider != "" && strings.EqualFold(provOf[m.Name], jd.provider) {
					jd.ownProvider++
				}
			}
		}
	}

	// Run-level values per (judge, response): rubric means of each run and
	// the positions.
	type runVal struct {
		mean float64
		pos  int
	}
	runs := map[[3]string][]runVal{}
	for i := range s.Gradings {
		g := &s.Gradings[i]
		if g.Kind != analysis.Judge || !use(g.Round, g.Model) {
			continue
		}
		k := [3]string{g.Evaluator, g.QuestionID, g.Model}
		runs[k] = append(runs[k], runVal{mean: rubricMean(g.Rubric), pos: g.Position})
	}

	// Pass 1: the judge's unit values, kept to centre the sums.
	type unitVal struct {
		r    *responseOld
		j    float64 // judge rubric mean
		rate float64 // judge checklist rate
		attr []float64
		runs []runVal
	}
	units := make([][]unitVal, len(p.judges))
	for i := range gs {
		g := &gs[i]
		if g.Kind != analysis.Judge || !use(g.Round, g.Model) {
			continue
		}
		r := resp[[2]string{g.QuestionID, g.Model}]
		if r == nil {
			continue // no human grading: not audited
		}
		jd := jIdx[g.Evaluator]
		ji := sort.SearchStrings(ids, g.Evaluator)
		units[ji] = append(units[ji], unitVal{r: r, j: g.RubricMean, rate: g.ChecklistRate, attr: g.Rubric,
			runs: runs[[3]string{g.Evaluator, g.QuestionID, g.Model}]})
		for _, hs := range r.hSolved {
			jd.solvedJ = append(jd.solvedJ, b2i(g.Solved))
			jd.solvedH = append(jd.solvedH, b2i(hs))
		}
		if !math.IsNaN(g.ChecklistRate) || !math.IsNaN(r.hRate) {
			p.hasChk = true
		}
	}

	for ji, jd := range p.judges {
		us := units[ji]
		// Centres: means over the units (any fixed value works; the mean
		// keeps the sums small).
		var x0, y0, j0, h0, v0 float64
		var nx, ny, nv, nh int
		firstLen := -1
		for _, u := range us {
			res := u.j - u.r.hMean
			if math.IsNaN(res) {
				continue
			}
			y0 += res
			j0 += u.j
			ny++
			for _, h := range u.r.hMeans {
				h0 += h
				nh++
			}
			if u.r.chars > 0 {
				x0 += math.Log2(float64(u.r.chars))
				nx++
			}
			for _, rv := range u.runs {
				if !math.IsNaN(rv.mean) {
					v0 += rv.mean
					nv++
				}
			}
		}
		x0, y0, j0, h0, v0 = div(x0, nx), div(y0, ny), div(j0, ny), div(h0, nh), div(v0, nv)
		for _, u := range us {
			q := u.r.q
			st := jd.stats[q*nStat : (q+1)*nStat]
			res := u.j - u.r.hMean
			if !math.IsNaN(u.rate) && !math.IsNaN(u.r.hRate) {
				st[sCn]++
				st[sC] += u.rate - u.r.hRate
				jd.withChk++
				jd.questions[q] = true
			}
			for a := 0; a < nA && a < len(u.attr); a++ {
				if d := u.attr[a] - u.r.hAttr[a]; !math.IsNaN(d) {
					st[nFixed+2*a]++
					st[nFixed+2*a+1] += d
				}
			}
			if math.IsNaN(res) {
				continue
			}
			jd.responses++
			jd.questions[q] = true
			st[sN]++
			st[sR] += res
			for _, h := range u.r.hMeans {
				st[sHn]++
				st[sH1] += h - h0
				st[sH2] += (h - h0) * (h - h0)
			}
			dj, dm := u.j-j0, u.r.hMean-h0
			st[sJ1] += dj
			st[sJ2] += dj * dj
			st[sM1] += dm
			st[sM2] += dm * dm
			if u.r.chars > 0 {
				jd.withText++
				if firstLen < 0 {
					firstLen = u.r.chars
				} else if u.r.chars != firstLen {
					jd.distinctLen = true
				}
				x, y := math.Log2(float64(u.r.chars))-x0, res-y0
				st[sLn]++
				st[sLx] += x
				st[sLy] += y
				st[sLxx] += x * x
				st[sLxy] += x * y
			}
			if jd.provider != "" && u.r.provider != "" {
				if strings.EqualFold(jd.provider, u.r.provider) {
					st[sOwnN]++
					st[sOwn] += res
					jd.ownN++
				} else {
					st[sOthN]++
					st[sOth] += res
					jd.othN++
				}
			}
			var vals []float64
			for _, rv := range u.runs {
				if math.IsNaN(rv.mean) {
					continue
				}
				vals = append(vals, rv.mean)
				if rv.pos > 0 {
					jd.withPos++
					rr := rv.mean - u.r.hMean
					if rv.pos == 1 {
						st[sPfN]++
						st[sPf] += rr
					} else {
						st[sPoN]++
						st[sPo] += rr
					}
				}
			}
			if m := len(vals); m >= 2 {
				jd.withRuns++
				var s1, s2, c1, c2, mad float64
				c := meanOf(vals)
				for _, v := range vals {
					s1 += v - v0
					s2 += (v - v0) * (v - v0)
					c1 += v - c
					c2 += (v - c) * (v - c)
				}
				for a := 0; a < m; a++ {
					for b := a + 1; b < m; b++ {
						mad += math.Abs(vals[a] - vals[b])
					}
				}
				st[sVn] += float64(m)
				st[sV1] += s1
				st[sV2] += s2
				st[sVw] += (float64(m)*c2 - c1*c1) / float64(m-1)
				st[sVu]++
				st[sVmad] += mad / float64(m*(m-1)/2)
			}
		}
		jd.tauSum, jd.tauN, jd.tauUndef = table8Tau(us2tau(us, func(u unitVal) (int, string, float64, float64) {
			return u.r.q, u.r.model, u.j, u.r.hMean
		}))
	}
	for _, jd := range p.judges {
		jd.cols = make([][]float64, nStat)
		for k := range jd.cols {
			var c []float64
			for q := range p.questions {
				if v := jd.stats[q*nStat+k]; v != 0 {
					if c == nil {
						c = make([]float64, len(p.questions))
					}
					c[q] = v
				}
			}
			jd.cols[k] = c
		}
		jd.stats = nil // the columns hold it all now
	}
	return p
}
