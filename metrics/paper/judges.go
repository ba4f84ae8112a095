package paper

import (
	"math"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// Judges compares the LLM judges with the humans: Table 8
// (judge_consistency) and Table 9 (judge_vs_human, judge_crispness). A
// nil slice is a table left out (the notes say why).
type Judges struct {
	// Consistency are Table 8's rows: per judge with gradings, per
	// instrument llm_indiv then llm_mean; then the human baselines
	// (cross_evaluator per instrument, human_vs_mean_of_others).
	Consistency []JudgeTau
	// VsHuman are Table 9's rows, judge by judge, the models in model
	// order.
	VsHuman []JudgeModelRow
	// Crispness are per judge the measures rubric, checklist_rate and
	// solve_rate.
	Crispness []JudgeCrispness
}

// JudgeTau is one mean Kendall τ-b of Table 8.
type JudgeTau struct {
	// Graders is judge:<id> or humans; Instrument explicit, rubric or
	// checklist; Comparison llm_indiv, llm_mean, cross_evaluator or
	// human_vs_mean_of_others.
	Graders, Instrument, Comparison string
	Tau                             float64
	// N counts the units averaged, Undefined those left out.
	N, Undefined int64
	// Lo and Hi bound the 95 % cluster-bootstrap interval.
	Lo, Hi float64
}

// JudgeModelRow is one judge's and the humans' scores of one model, on
// the responses graded by both.
type JudgeModelRow struct {
	Judge, Model string
	// Questions counts the questions with the model's response graded by
	// both.
	Questions                int64
	Rubric, Checklist, Solve JudgeBias
}

// JudgeBias is a human and a judge mean and the bias judge − human with
// its 95 % cluster-bootstrap interval.
type JudgeBias struct{ Human, Judge, Bias, Lo, Hi float64 }

// JudgeCrispness is the fit of a judge's model means on the humans' for
// one measure.
type JudgeCrispness struct {
	// Measure is rubric, checklist_rate or solve_rate; Models the models
	// with both means.
	Judge, Measure string
	Models         int64
	// Slope (with interval), Intercept and R of the least-squares fit;
	// SDHuman, SDJudge and their ratio (with interval).
	Slope, SlopeLo, SlopeHi, Intercept, R float64
	SDHuman, SDJudge                      float64
	SDRatio, SDRatioLo, SDRatioHi         float64
}

// judgeTables builds Table 8 (judge_consistency) and Table 9
// (judge_vs_human, judge_crispness).
func (a *run) judgeTables() {
	p := a.p
	if len(p.judges) == 0 || !p.hasJudges {
		for _, n := range []string{"judge_consistency", "judge_vs_human", "judge_crispness"} {
			a.leaveOut(n, "the study has no LLM-judge gradings")
		}
		return
	}
	hv := a.view(setAll, -1)
	if len(hv.g) == 0 {
		for _, n := range []string{"judge_consistency", "judge_vs_human", "judge_crispness"} {
			a.leaveOut(n, "no human gradings in the main round to compare the judges with")
		}
		return
	}
	a.steps(func() { a.judgeConsistency(hv) }, func() { a.judgeVsHuman(hv) })
}

// meanEntries returns, per model, the mean over the given evaluators'
// entries of each instrument (NaN when none defines it), sorted by model.
// The means are exact fractions (study.RatSum) divided once, so that equal
// means tie whatever the order of the evaluators. The sums are indexed by
// model (a question's entries name few models, with small indexes).
func meanEntries(evs [][]entry) []entry {
	nM := 0
	for _, ev := range evs {
		for _, e := range ev {
			nM = max(nM, e.m+1)
		}
	}
	var buf [8][nIns]study.RatSum
	var seenBuf [8]bool
	var sums [][nIns]study.RatSum
	var seen []bool
	if nM <= len(buf) {
		sums, seen = buf[:nM], seenBuf[:nM]
	} else {
		sums, seen = make([][nIns]study.RatSum, nM), make([]bool, nM)
	}
	n := 0
	for _, ev := range evs {
		for _, e := range ev {
			x := &sums[e.m]
			if !seen[e.m] {
				seen[e.m] = true
				n++
			}
			for k := 0; k < nIns; k++ {
				if !math.IsNaN(e.val[k]) {
					x[k].Add(e.rat[k], e.val[k])
				}
			}
		}
	}
	out := make([]entry, 0, n)
	for m := range sums {
		if !seen[m] {
			continue
		}
		o := entry{e: -1, m: m}
		for k := 0; k < nIns; k++ {
			o.val[k] = sums[m][k].Mean()
			o.rat[k] = sums[m][k].Rat()
		}
		out = append(out, o)
	}
	return out
}

// judgeTaus holds, per question of the human view, a judge's τ against
// each human (llm_indiv) and against the mean human (llm_mean), per
// instrument; has[qi] is false where the judge did not grade the question
// or no human did. ind[k][off[qi]:off[qi+1]] are question qi's τ, one per
// human evaluator in hEvs order.
type judgeTaus struct {
	has  []bool
	off  []int
	ind  [nIns][]float64
	mean [nIns][]float64
}

// judgeTausOf computes the τ of judge view jv against the humans' entries
// hEvs for the instruments in have, on up to GOMAXPROCS goroutines over
// blocks of questions (each question writes only its own slots).
func (a *run) judgeTausOf(hv, jv *view, hEvs [][][]entry, have [nIns]bool) *judgeTaus {
	nQ := len(hEvs)
	jq := a.byQuestion(jv)
	r := &judgeTaus{has: make([]bool, nQ), off: make([]int, nQ+1)}
	for qi := range hEvs {
		r.off[qi+1] = r.off[qi] + len(hEvs[qi])
	}
	for k := 0; k < nIns; k++ {
		if have[k] {
			r.ind[k] = make([]float64, r.off[nQ])
			r.mean[k] = make([]float64, nQ)
		}
	}
	const block = 512
	parallelFor((nQ+block-1)/block, func(b int) {
		for qi := b * block; qi < min(nQ, (b+1)*block); qi++ {
			jp, ok := jv.pos(hv.questions[qi])
			if !ok || len(hEvs[qi]) == 0 {
				continue
			}
			r.has[qi] = true
			je := jq[jp]
			me := meanEntries(hEvs[qi])
			for k := 0; k < nIns; k++ {
				if !have[k] {
					continue
				}
				for i, h := range hEvs[qi] {
					r.ind[k][r.off[qi]+i] = tauOf(je, k, h, k)
				}
				r.mean[k][qi] = tauOf(je, k, me, k)
			}
		}
	})
	return r
}

func (a *run) judgeConsistency(hv *view) {
	p := a.p
	rows := []JudgeTau{}
	row := func(graders, ins, cmp string, m *meanAcc, lo, hi float64) {
		rows = append(rows, JudgeTau{Graders: graders, Instrument: ins, Comparison: cmp, Tau: m.mean(), N: m.count, Undefined: m.undefined, Lo: lo, Hi: hi})
	}
	have := [nIns]bool{p.hasRanks, p.hasRubric, p.hasChecklist}
	hq := a.byQuestion(hv)
	nQ := len(hq)
	hEvs := make([][][]entry, nQ)
	for qi := range hq {
		hEvs[qi] = splitEvaluators(hq[qi])
	}
	for _, j := range p.judges {
		jv := a.view(setAll, j)
		if len(jv.g) == 0 {
			continue
		}
		jt := a.judgeTausOf(hv, jv, hEvs, have)
		var accs []*meanAcc
		var labels [][2]string
		for k := 0; k < nIns; k++ {
			if !have[k] {
				continue
			}
			// added in question order, as the τ were once computed
			ind, mean := newMeanAcc(nQ), newMeanAcc(nQ)
			for qi := range nQ {
				if !jt.has[qi] {
					continue
				}
				for _, x := range jt.ind[k][jt.off[qi]:jt.off[qi+1]] {
					ind.add(qi, x)
				}
				mean.add(qi, jt.mean[k][qi])
			}
			accs = append(accs, ind, mean)
			labels = append(labels, [2]string{insNames[k], "llm_indiv"}, [2]string{insNames[k], "llm_mean"})
		}
		iv := a.intervals(nQ, accs)
		for i, m := range accs {
			row(p.popName(j), labels[i][0], labels[i][1], m, iv[i][0], iv[i][1])
		}
	}
	// Human baselines.
	var accs []*meanAcc
	var labels []string
	for k := 0; k < nIns; k++ {
		if !have[k] {
			continue
		}
		if m := a.crossTau[k]; m != nil {
			row(popHum, insNames[k], "cross_evaluator", m, a.crossIv[k][0], a.crossIv[k][1])
		}
		mo := newMeanAcc(nQ)
		for qi := range hq {
			evs := hEvs[qi]
			if len(evs) < 3 {
				continue
			}
			for i := range evs {
				others := make([][]entry, 0, len(evs)-1)
				others = append(others, evs[:i]...)
				others = append(others, evs[i+1:]...)
				mo.add(qi, tauOf(evs[i], k, meanEntries(others), k))
			}
		}
		if mo.count+mo.undefined > 0 {
			accs = append(accs, mo)
			labels = append(labels, insNames[k])
		}
	}
	iv := a.intervals(nQ, accs)
	for i, m := range accs {
		row(popHum, labels[i], "human_vs_mean_of_others", m, iv[i][0], iv[i][1])
	}
	if len(accs) == 0 {
		p.note("judge_consistency", "no question has 3 or more human evaluators: no human_vs_mean_of_others rows")
	}
	a.res.Judges.Consistency = rows
}

// Per-cluster sums of Table 9, per model: human and judge sums and counts
// of rubric, checklist and solved.
const (
	jvHRub = iota
	jvHRubN
	jvJRub
	jvJRubN
	jvHChk
	jvHChkN
	jvJChk
	jvJChkN
	jvHSol
	jvHSolN
	jvJSol
	jvJSolN
	jvLen
)

// jvExact holds the exact Table 9 sums of one model.
type jvExact struct {
	hRub, jRub, hChk, jChk   study.RatSum
	hSol, hSolN, jSol, jSolN int64
	nQ                       int64 // questions with a paired judge grading
}

var jvMeasures = []string{"rubric", "checklist_rate", "solve_rate"}

func (a *run) judgeVsHuman(hv *view) {
	p := a.p
	a.res.Judges.VsHuman, a.res.Judges.Crispness = []JudgeModelRow{}, []JudgeCrispness{}
	for _, j := range p.judges {
		jv := a.view(setAll, j)
		if len(jv.g) == 0 {
			continue
		}
		a.judgeVsHumanOne(hv, jv, j)
	}
}

// judgeVsHumanOne adds judge j's rows to Judges.VsHuman and
// Judges.Crispness.
func (a *run) judgeVsHumanOne(hv, jv *view, j int) {
	p := a.p
	inJ := map[int]bool{}
	for _, m := range jv.models {
		inJ[m] = true
	}
	var models []int
	mp := map[int]int{}
	for _, m := range hv.models {
		if inJ[m] {
			mp[m] = len(models)
			models = append(models, m)
		}
	}
	nM, nQ := len(models), len(hv.questions)
	if nM == 0 {
		return
	}
	// The pairing rule (scores.Grading.Usable): a grading with no usable
	// score is not a grading, on either side. Responses are indexed
	// q·nModels + m.
	nAll := p.nM()
	judged := make([]bool, p.nQ()*nAll)
	for _, gi := range jv.g {
		if g := &p.grades[gi]; g.usable {
			judged[g.q*nAll+g.m] = true
		}
	}
	humanGraded := make([]bool, p.nQ()*nAll)
	for _, gi := range hv.g {
		if g := &p.grades[gi]; g.usable {
			humanGraded[g.q*nAll+g.m] = true
		}
	}
	qSeen := make([]bool, p.nQ()*nM) // (question, model position) with a judge grading counted
	acc := make([]float64, nQ*nM*jvLen)
	ex := make([]jvExact, nM)
	addSide := func(cl []float64, e *jvExact, g *grade, judge bool) {
		o := 0
		if judge {
			o = 2
		}
		if !math.IsNaN(g.rubMean) {
			cl[jvHRub+o] += g.rubMean
			cl[jvHRubN+o]++
			addRubric(pick(judge, &e.jRub, &e.hRub), g)
		}
		if !math.IsNaN(g.rate) {
			cl[jvHChk+o] += g.rate
			cl[jvHChkN+o]++
			addChecklist(pick(judge, &e.jChk, &e.hChk), g)
		}
		if g.solved >= 0 {
			cl[jvHSol+o] += float64(g.solved)
			cl[jvHSolN+o]++
			if judge {
				e.jSol += int64(g.solved)
				e.jSolN++
			} else {
				e.hSol += int64(g.solved)
				e.hSolN++
			}
		}
	}
	for _, gi := range hv.g {
		g := &p.grades[gi]
		mi, ok := mp[g.m]
		if !ok || !g.usable || !judged[g.q*nAll+g.m] {
			continue
		}
		cl := acc[(int(hv.qPos[g.q])*nM+mi)*jvLen:][:jvLen]
		addSide(cl, &ex[mi], g, false)
	}
	for _, gi := range jv.g {
		g := &p.grades[gi]
		mi, ok := mp[g.m]
		qi, okq := hv.pos(g.q)
		if !ok || !okq || !g.usable || !humanGraded[g.q*nAll+g.m] {
			continue
		}
		cl := acc[(qi*nM+mi)*jvLen:][:jvLen]
		addSide(cl, &ex[mi], g, true)
		if !qSeen[g.q*nM+mi] {
			qSeen[g.q*nM+mi] = true
			ex[mi].nQ++
		}
	}
	// Bootstrap: per model 3 biases; per measure slope and SD ratio.
	nOut := nM*3 + 6
	reps := a.bootstrapSums(acc, nM*jvLen, nOut, func() func(s, o []float64) { return jvFinish(nM) })
	name := p.popName(j)
	hm := make([][]float64, 3)
	jm := make([][]float64, 3)
	for mi, m := range models {
		e := &ex[mi]
		h := [3]float64{e.hRub.Mean(), e.hChk.Mean(), frac(e.hSol, e.hSolN)}
		jj := [3]float64{e.jRub.Mean(), e.jChk.Mean(), frac(e.jSol, e.jSolN)}
		row := JudgeModelRow{Judge: name, Model: p.s.Models[m].Name, Questions: e.nQ}
		for k, b := range []*JudgeBias{&row.Rubric, &row.Checklist, &row.Solve} {
			lo, hi := a.interval(reps, mi*3+k)
			*b = JudgeBias{Human: h[k], Judge: jj[k], Bias: jj[k] - h[k], Lo: lo, Hi: hi}
			if !math.IsNaN(h[k]) && !math.IsNaN(jj[k]) {
				hm[k] = append(hm[k], h[k])
				jm[k] = append(jm[k], jj[k])
			}
		}
		a.res.Judges.VsHuman = append(a.res.Judges.VsHuman, row)
	}
	for k, meas := range jvMeasures {
		lr := stats.LinRegress(hm[k], jm[k])
		slo, shi := a.interval(reps, nM*3+2*k)
		rlo, rhi := a.interval(reps, nM*3+2*k+1)
		sh, sj := stats.SD(hm[k]), stats.SD(jm[k])
		a.res.Judges.Crispness = append(a.res.Judges.Crispness, JudgeCrispness{Judge: name, Measure: meas, Models: int64(len(hm[k])),
			Slope: lr.Slope, SlopeLo: slo, SlopeHi: shi, Intercept: lr.Intercept, R: lr.R,
			SDHuman: sh, SDJudge: sj, SDRatio: sj / sh, SDRatioLo: rlo, SDRatioHi: rhi})
	}
}

// jvFinish turns the summed accumulators of one replicate (nM rows of
// jvLen) into the judge-vs-human bootstrap outputs: per model the three
// biases, per measure the slope and the SD ratio. Its per-model lists are
// reused between replicates.
func jvFinish(nM int) func(s, o []float64) {
	hm := make([][]float64, 3)
	jm := make([][]float64, 3)
	for k := range hm {
		hm[k] = make([]float64, 0, nM)
		jm[k] = make([]float64, 0, nM)
	}
	return func(s, o []float64) {
		for k := range hm {
			hm[k], jm[k] = hm[k][:0], jm[k][:0]
		}
		for mi := 0; mi < nM; mi++ {
			x := s[mi*jvLen:][:jvLen]
			for k := 0; k < 3; k++ {
				h := ratioF(x[jvHRub+4*k], x[jvHRubN+4*k])
				jj := ratioF(x[jvJRub+4*k], x[jvJRubN+4*k])
				o[mi*3+k] = jj - h
				if !math.IsNaN(h) && !math.IsNaN(jj) {
					hm[k] = append(hm[k], h)
					jm[k] = append(jm[k], jj)
				}
			}
		}
		for k := 0; k < 3; k++ {
			o[nM*3+2*k] = stats.LinRegress(hm[k], jm[k]).Slope
			o[nM*3+2*k+1] = stats.SD(jm[k]) / stats.SD(hm[k])
		}
	}
}

func pick(judge bool, j, h *study.RatSum) *study.RatSum {
	if judge {
		return j
	}
	return h
}
