package analysis

// The oracles of the consistency tables: consistencyTables,
// judgeConsistency and intervals as they were before the per-question τ
// were computed on several goroutines (with stats.KendallTau and
// meanEntries's per-model sums) and the intervals' accumulators
// interleaved, kept to check the new code bit for bit
// (TestConsistencyTablesEqualPrev).

import (
	"math"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

// prevTauOf is tauOf before stats.KendallTau: Kendall τ-b between two orderings over the models both define
// (lists sorted by model); NaN when undefined.
func prevTauOf(x []entry, ix int, y []entry, iy int) float64 {
	var a, b []float64
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		switch {
		case x[i].m < y[j].m:
			i++
		case x[i].m > y[j].m:
			j++
		default:
			if !math.IsNaN(x[i].val[ix]) && !math.IsNaN(y[j].val[iy]) {
				a = append(a, x[i].val[ix])
				b = append(b, y[j].val[iy])
			}
			i++
			j++
		}
	}
	if len(a) < 2 {
		return math.NaN()
	}
	t, _ := stats.KendallTauB(a, b)
	return t
}

// prevConsistencyTables is consistencyTables (Table 6) before its τ were
// computed in parallel over blocks of questions.
func (a *run) prevConsistencyTables() {
	p := a.p
	v := a.view(setAll, -1)
	if len(v.g) == 0 {
		a.leaveOut("consistency", "no human gradings in the main round")
		return
	}
	have := [nIns]bool{p.hasRanks, p.hasRubric, p.hasChecklist}
	bq := a.byQuestion(v)
	nQ := len(bq)
	type cmp struct {
		name  string
		scope string
		x, y  int
	}
	var cmps []cmp
	for _, c := range []cmp{{"explicit_vs_rubric", "within", insExplicit, insRubric},
		{"explicit_vs_checklist", "within", insExplicit, insChecklist},
		{"checklist_vs_rubric", "within", insChecklist, insRubric}} {
		if have[c.x] && have[c.y] {
			cmps = append(cmps, c)
		}
	}
	for k := 0; k < nIns; k++ {
		if have[k] {
			cmps = append(cmps, cmp{"cross_" + insNames[k], "across", k, k})
		}
	}
	accs := make([]*meanAcc, len(cmps))
	for i := range accs {
		accs[i] = newMeanAcc(nQ)
	}
	for qi, es := range bq {
		evs := splitEvaluators(es)
		for ci, c := range cmps {
			if c.scope == "within" {
				for _, ev := range evs {
					accs[ci].add(qi, prevTauOf(ev, c.x, ev, c.y))
				}
				continue
			}
			for i := 0; i < len(evs); i++ {
				for j := i + 1; j < len(evs); j++ {
					accs[ci].add(qi, prevTauOf(evs[i], c.x, evs[j], c.y))
				}
			}
		}
	}
	t := newTable("consistency", "Table 6: Consistency of instruments and evaluators", report.SectionConsistency,
		"Kendall τ-b between explicit and derived rankings within each (evaluator, question) and across each (question, evaluator pair), averaged; Pearson r between evaluators on the rubric mean and checklist rate of the same response (every pair in both orders). Human gradings of the main round; 95 % cluster-bootstrap intervals.",
		a.consistencyCols()...)
	iv := a.prevIntervals(nQ, accs)
	a.crossTau = map[int]*meanAcc{}
	for ci, c := range cmps {
		m := accs[ci]
		addRow(t, c.name, c.scope, m.mean(), m.count, m.undefined, iv[ci][0], iv[ci][1])
		if c.scope == "across" {
			a.crossTau[c.x] = m
			a.crossIv[c.x] = iv[ci]
		}
	}
	for _, k := range []int{insRubric, insChecklist} {
		if !have[k] {
			continue
		}
		r, n, lo, hi := a.pairPearson(v, bq, k)
		addRow(t, "pearson_"+insNames[k], "pearson", r, int64(n), int64(0), lo, hi)
	}
	for k := 0; k < nIns; k++ {
		if !have[k] {
			p.note(t.Name, "no %s rows: the study has no %s", insNames[k], map[int]string{insExplicit: "preference ranks", insRubric: "rubric", insChecklist: "checklist"}[k])
		}
	}
	a.addTable(t)
}

// prevMeanEntries is meanEntries before it indexed its sums by model: it returns, per model, the mean over the given evaluators'
// entries of each instrument (NaN when none defines it), sorted by model.
// The means are exact fractions (study.RatSum) divided once, so that equal
// means tie whatever the order of the evaluators.
func prevMeanEntries(evs [][]entry) []entry {
	byM := map[int]*[nIns]study.RatSum{}
	var ms []int
	for _, ev := range evs {
		for _, e := range ev {
			x := byM[e.m]
			if x == nil {
				x = &[nIns]study.RatSum{}
				byM[e.m] = x
				ms = append(ms, e.m)
			}
			for k := 0; k < nIns; k++ {
				if !math.IsNaN(e.val[k]) {
					x[k].Add(e.rat[k], e.val[k])
				}
			}
		}
	}
	sortInts(ms)
	out := make([]entry, len(ms))
	for i, m := range ms {
		out[i] = entry{e: -1, m: m}
		for k := 0; k < nIns; k++ {
			out[i].val[k] = byM[m][k].Mean()
			out[i].rat[k] = byM[m][k].Rat()
		}
	}
	return out
}

func (a *run) prevJudgeConsistency(hv *view) {
	p := a.p
	t := newTable("judge_consistency", "Table 8: Judge–human ranking agreement", report.SectionJudges,
		"Kendall τ-b between each judge's ranking (explicit, rubric-derived, checklist-derived) and each human's ranking of the same question, averaged over (human, question) (llm_indiv), and the mean-human ranking, averaged over questions (llm_mean); beside the humans' cross-evaluator τ (Table 6) and, on questions with 3 or more humans, each human against the mean of the other humans. Main round; 95 % cluster-bootstrap intervals.",
		col("graders", report.Text, "judge:<id>, or humans for the human baselines"),
		col("instrument", report.Text, "explicit, rubric or checklist"),
		col("comparison", report.Text, "llm_indiv, llm_mean, cross_evaluator, human_vs_mean_of_others"),
		col("tau", report.Float, "mean Kendall τ-b"),
		col("n", report.Int, "units averaged"),
		col("n_undefined", report.Int, "units with an undefined τ, left out"),
		col("lo", report.Float, "95 % cluster-bootstrap interval over questions, lower end"),
		col("hi", report.Float, "95 % cluster-bootstrap interval over questions, upper end"))
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
		jq := a.byQuestion(jv)
		var accs []*meanAcc
		var labels [][2]string
		for k := 0; k < nIns; k++ {
			if !have[k] {
				continue
			}
			ind, mean := newMeanAcc(nQ), newMeanAcc(nQ)
			for qi, q := range hv.questions {
				jp, ok := jv.pos(q)
				if !ok || len(hEvs[qi]) == 0 {
					continue
				}
				je := jq[jp]
				for _, h := range hEvs[qi] {
					ind.add(qi, prevTauOf(je, k, h, k))
				}
				mean.add(qi, prevTauOf(je, k, prevMeanEntries(hEvs[qi]), k))
			}
			accs = append(accs, ind, mean)
			labels = append(labels, [2]string{insNames[k], "llm_indiv"}, [2]string{insNames[k], "llm_mean"})
		}
		iv := a.prevIntervals(nQ, accs)
		for i, m := range accs {
			addRow(t, p.popName(j), labels[i][0], labels[i][1], m.mean(), m.count, m.undefined, iv[i][0], iv[i][1])
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
			addRow(t, popHum, insNames[k], "cross_evaluator", m.mean(), m.count, m.undefined, a.crossIv[k][0], a.crossIv[k][1])
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
				mo.add(qi, prevTauOf(evs[i], k, prevMeanEntries(others), k))
			}
		}
		if mo.count+mo.undefined > 0 {
			accs = append(accs, mo)
			labels = append(labels, insNames[k])
		}
	}
	iv := a.prevIntervals(nQ, accs)
	for i, m := range accs {
		addRow(t, popHum, labels[i], "human_vs_mean_of_others", m.mean(), m.count, m.undefined, iv[i][0], iv[i][1])
	}
	if len(accs) == 0 {
		p.note(t.Name, "no question has 3 or more human evaluators: no human_vs_mean_of_others rows")
	}
	a.addTable(t)
}

// prevIntervals is intervals before its accumulators were interleaved:
// one pass over the draws per accumulator.
func (a *run) prevIntervals(nQ int, accs []*meanAcc) [][2]float64 {
	reps := a.bootstrap(nQ, len(accs), func(idx []int, o []float64) {
		for k, m := range accs {
			s, n := 0.0, 0.0
			for _, c := range idx {
				s += m.sum[c]
				n += m.n[c]
			}
			o[k] = ratioF(s, n)
		}
	})
	out := make([][2]float64, len(accs))
	for k := range accs {
		out[k][0], out[k][1] = a.interval(reps, k)
	}
	return out
}
