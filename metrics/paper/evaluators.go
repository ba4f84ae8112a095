package paper

import (
	"math"
	"sort"

	"github.com/euroexec/euroexec/study"
)

// Evaluators describes the human evaluators of the main round: the
// evaluators table, Figure 6 (evaluator_leniency) and Figure 7
// (extreme_evaluators). A nil slice is a table left out (the notes say
// why).
type Evaluators struct {
	// Rows has one row per human evaluator with a rubric mean, in
	// evaluator order.
	Rows []EvaluatorRow
	// Leniency are Figure 6's bins, from the scale minimum up; Width is
	// their width (the last bin is closed).
	Leniency []LeniencyBin
	Width    float64
	// Extreme are Figure 7's rows: the critical group then the lenient,
	// each with one row per model of Models; Critical and Lenient are the
	// groups' sizes.
	Extreme           []ExtremeRow
	Models            []string
	Critical, Lenient int
}

// EvaluatorRow is one human evaluator.
type EvaluatorRow struct {
	Evaluator, Domain string
	// Gradings counts the evaluator's gradings of LLM responses.
	Gradings int64
	// RubricMean and ChecklistRate are means over the evaluator's
	// gradings; SolveRate the share solved.
	RubricMean, ChecklistRate, SolveRate float64
	// Group is "critical", "lenient" (Figure 7) or empty.
	Group string
	// Shared counts the gradings of responses another human also scored;
	// AbsDiffOthers is the mean |rubric mean − the others' mean| over
	// them, SpearmanOthers Spearman's ρ with the others' mean;
	// SolveAgreement is the share of agreeing solved pairs of SolvePairs.
	Shared                        int64
	AbsDiffOthers, SpearmanOthers float64
	SolveAgreement                float64
	SolvePairs                    int64
}

// LeniencyBin is one bin of Figure 6: [From, To), the last bin closed.
type LeniencyBin struct {
	From, To   float64
	Evaluators int64
}

// ExtremeRow is one model's Solve Rate by one group of Figure 7.
type ExtremeRow struct {
	Group, Model string
	// Evaluators is the group's size; Gradings the group's gradings of
	// the model.
	Evaluators, Gradings int64
	// SolveRate with its 95 % cluster-bootstrap interval.
	SolveRate, Lo, Hi float64
}

// evalMean is one human evaluator's mean rubric over LLM responses.
type evalMean struct {
	e    int
	n    int
	mean float64
}

// evaluatorMeans returns the human evaluators of the main round with their
// mean rubric score (exact) over the responses of the models other than
// the human label, in evaluator order.
func (a *run) evaluatorMeans(v *view) []evalMean {
	p := a.p
	acc := map[int]*study.RatSum{}
	for _, gi := range v.g {
		g := &p.grades[gi]
		if math.IsNaN(g.rubMean) {
			continue
		}
		if acc[g.e] == nil {
			acc[g.e] = &study.RatSum{}
		}
		addRubric(acc[g.e], g)
	}
	var out []evalMean
	for e, f := range acc {
		out = append(out, evalMean{e: e, n: int(f.N()), mean: f.Mean()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].e < out[j].e })
	return out
}

// evaluatorTables builds the per-evaluator table, Figure 6 and Figure 7.
func (a *run) evaluatorTables() {
	p := a.p
	v := a.view(setAll, -1)
	if !p.hasRubric || len(v.g) == 0 {
		why := "the study has no rubric"
		if p.hasRubric {
			why = "no human gradings in the main round"
		}
		for _, n := range []string{"evaluators", "evaluator_leniency", "extreme_evaluators"} {
			a.leaveOut(n, "%s", why)
		}
		return
	}
	ms := a.evaluatorMeans(v)
	crit, len_ := a.extremeGroups(ms)
	a.evaluatorsTable(v, ms, crit, len_)
	a.leniencyHistogram(ms)
	a.extremeEvaluators(v, crit, len_)
}

// extremeGroups picks the ExtremeEvaluators most critical and most lenient
// evaluators (ties at the cut by evaluator id); when the groups would
// overlap, each takes the lower or upper half. Critical evaluators give the
// lowest means, or the highest on a lower-is-better scale (penalties).
func (a *run) extremeGroups(ms []evalMean) (crit, lenient []int) {
	x := a.opt.ExtremeEvaluators
	if 2*x > len(ms) {
		x = len(ms) / 2
	}
	asc := append([]evalMean(nil), ms...)
	id := func(e int) string { return a.p.s.Evaluators[e].ID }
	sort.SliceStable(asc, func(i, j int) bool {
		if asc[i].mean != asc[j].mean {
			return asc[i].mean < asc[j].mean
		}
		return id(asc[i].e) < id(asc[j].e)
	})
	desc := append([]evalMean(nil), ms...)
	sort.SliceStable(desc, func(i, j int) bool {
		if desc[i].mean != desc[j].mean {
			return desc[i].mean > desc[j].mean
		}
		return id(desc[i].e) < id(desc[j].e)
	})
	if a.p.s.LowerIsBetter { // penalties: the critical give the most
		asc, desc = desc, asc
	}
	for i := 0; i < x; i++ {
		crit = append(crit, asc[i].e)
		lenient = append(lenient, desc[i].e)
	}
	return
}

func (a *run) evaluatorsTable(v *view, ms []evalMean, crit, lenient []int) {
	p := a.p
	var ag0 []agreeGrading
	for _, gi := range v.g {
		g := &p.grades[gi]
		ag0 = append(ag0, agreeGrading{unit: g.q*p.nM() + g.m, e: g.e, score: g.rubMean, solved: g.solved})
	}
	agree := evaluatorAgreement(ag0)
	grp := map[int]string{}
	for _, e := range crit {
		grp[e] = "critical"
	}
	for _, e := range lenient {
		grp[e] = "lenient"
	}
	type agg struct {
		n, sv, sn int64
		chk       study.RatSum
	}
	ag := map[int]*agg{}
	for _, gi := range v.g {
		g := &p.grades[gi]
		x := ag[g.e]
		if x == nil {
			x = &agg{}
			ag[g.e] = x
		}
		x.n++
		if g.solved >= 0 {
			x.sn++
			x.sv += int64(g.solved)
		}
		if !math.IsNaN(g.rate) {
			addChecklist(&x.chk, g)
		}
	}
	rows := []EvaluatorRow{}
	for _, m := range ms {
		x := ag[m.e]
		ev := p.s.Evaluators[m.e]
		r, ok := agree[m.e]
		if !ok {
			r = agreement{mad: math.NaN(), rho: math.NaN(), solveAgree: math.NaN()}
		}
		rows = append(rows, EvaluatorRow{Evaluator: ev.ID, Domain: ev.Domain, Gradings: x.n, RubricMean: m.mean, ChecklistRate: x.chk.Mean(),
			SolveRate: frac(x.sv, x.sn), Group: grp[m.e], Shared: int64(r.shared), AbsDiffOthers: r.mad, SpearmanOthers: r.rho,
			SolveAgreement: r.solveAgree, SolvePairs: int64(r.solvePairs)})
	}
	a.res.Evaluators.Rows = rows
}

// maxLeniencyBins is the most bins of Figure 6.
const maxLeniencyBins = 100

// histogramWidth is the bin width of Figure 6 over a scale this wide:
// 0.25, or on a wider scale the smallest of 1, 2, 2.5 and 5 times a power
// of ten that keeps the bins at most maxLeniencyBins.
func histogramWidth(span float64) float64 {
	if span/0.25 <= maxLeniencyBins {
		return 0.25
	}
	for p := 1.0; ; p *= 10 {
		for _, m := range []float64{1, 2, 2.5, 5} {
			if span/(m*p) <= maxLeniencyBins {
				return m * p
			}
		}
	}
}

// leniencyHistogram is Figure 6: evaluators per 0.25-wide bin (wider on a
// wide scale, see histogramWidth) of their mean rubric score, from the scale minimum to its maximum (the last bin closed).
func (a *run) leniencyHistogram(ms []evalMean) {
	p := a.p
	lo, hi := p.s.ScaleMin, p.s.ScaleMax
	if !(hi > lo) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, m := range ms {
			lo, hi = math.Min(lo, math.Floor(m.mean)), math.Max(hi, math.Ceil(m.mean))
		}
		if !(hi > lo) {
			hi = lo + 1
		}
	}
	w := histogramWidth(hi - lo)
	nb := int(math.Ceil((hi - lo) / w))
	cnt := make([]int64, nb)
	out := 0
	for _, m := range ms {
		b := int(math.Floor((m.mean - lo) / w))
		if b == nb && m.mean == hi {
			b = nb - 1
		}
		if b < 0 || b >= nb {
			out++
			continue
		}
		cnt[b]++
	}
	bins := make([]LeniencyBin, 0, nb)
	for b := 0; b < nb; b++ {
		bins = append(bins, LeniencyBin{From: lo + float64(b)*w, To: lo + float64(b+1)*w, Evaluators: cnt[b]})
	}
	a.res.Evaluators.Leniency, a.res.Evaluators.Width = bins, w
	if out > 0 {
		p.note("evaluator_leniency", "%d evaluators have a mean outside the rubric scale and are not in a bin", out)
	}
}

// extremeEvaluators is Figure 7: Solve Rate per model from the most
// critical and the most lenient evaluators only.
func (a *run) extremeEvaluators(v *view, crit, lenient []int) {
	p := a.p
	if len(crit) == 0 {
		a.leaveOut("extreme_evaluators", "fewer than two human evaluators (or extreme_evaluators = 0)")
		return
	}
	grp := map[int]int{}
	for _, e := range crit {
		grp[e] = 1
	}
	for _, e := range lenient {
		grp[e] = 2
	}
	rates := a.groupRates(v, 2, func(g *grade) int { return grp[g.e] - 1 })
	e := &a.res.Evaluators
	e.Extreme, e.Critical, e.Lenient = []ExtremeRow{}, len(crit), len(lenient)
	for _, m := range v.models {
		e.Models = append(e.Models, p.s.Models[m].Name)
	}
	for k, name := range []string{"critical", "lenient"} {
		for mi, m := range v.models {
			r := rates[k][mi]
			e.Extreme = append(e.Extreme, ExtremeRow{Group: name, Model: p.s.Models[m].Name, Evaluators: int64(len(crit)), Gradings: r.n, SolveRate: r.rate, Lo: r.lo, Hi: r.hi})
		}
	}
}
