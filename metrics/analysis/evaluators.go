package analysis

import (
	"fmt"
	"math"
	"sort"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

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
	t := newTable("evaluators", "Human evaluators", report.SectionConsistency,
		"Each human evaluator of the main round: gradings, mean rubric and checklist rate over LLM responses, Solve Rate, the Figure 7 group, and their agreement with the other human graders of the same responses (mean absolute difference from the others' mean, Spearman's ρ with it, share of agreeing solved verdicts).",
		col("evaluator", report.Text, "evaluator id"),
		col("domain", report.Text, "evaluators.domain"),
		col("n_gradings", report.Int, "gradings of LLM responses in the main round"),
		col("rubric_mean", report.Float, "mean over the evaluator's gradings of the rubric mean"),
		col("checklist_rate", report.Fraction, "mean over the evaluator's gradings of the checklist rate"),
		col("solve_rate", report.Fraction, "share of the evaluator's gradings solved"),
		col("group", report.Text, "critical or lenient (Figure 7), else empty"),
		col("n_shared", report.Int, "the evaluator's gradings with a rubric mean of responses another human grader also scored: the units of rubric_abs_diff_others and spearman_others"),
		col("rubric_abs_diff_others", report.Float, "mean over the shared responses of |the evaluator's rubric mean − the mean of the other human graders' rubric means|, in rubric points (0 = always agrees)"),
		col("spearman_others", report.Float, "Spearman's ρ between the evaluator's rubric means and the other graders' mean (leave-one-out) over the shared responses; empty below 3 or when either side is constant"),
		col("solve_agreement", report.Fraction, "share of the pairs (this grading, another human grader's grading of the same response), both with a defined solved flag, that agree on solved"),
		col("n_solve_pairs", report.Int, "pairs behind solve_agreement"))
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
	for _, m := range ms {
		x := ag[m.e]
		ev := p.s.Evaluators[m.e]
		r, ok := agree[m.e]
		if !ok {
			r = agreement{mad: math.NaN(), rho: math.NaN(), solveAgree: math.NaN()}
		}
		addRow(t, ev.ID, ev.Domain, x.n, m.mean, x.chk.Mean(), frac(x.sv, x.sn), grp[m.e],
			int64(r.shared), r.mad, r.rho, r.solveAgree, int64(r.solvePairs))
	}
	a.addTable(t)
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
	t := newTable("evaluator_leniency", "Figure 6: Evaluators by mean rubric score", report.SectionConsistency,
		fmt.Sprintf("Number of human evaluators per %g-wide bin of their mean rubric score over LLM responses (main round).", w),
		col("bin", report.Text, "score range, [from, to)"),
		col("bin_from", report.Float, "lower end (inclusive)"),
		col("bin_to", report.Float, "upper end (exclusive, inclusive for the last bin)"),
		col("evaluators", report.Int, "evaluators whose mean falls in the bin"))
	f := &report.Figure{ID: "fig6_evaluator_leniency", Section: report.SectionConsistency,
		Title: "Figure 6: Number of evaluators by their mean rubric score", Kind: report.Histogram,
		XName: "mean rubric score", YName: "evaluators", Table: t.Name}
	s := report.Series{Name: "evaluators"}
	for b := 0; b < nb; b++ {
		from, to := lo+float64(b)*w, lo+float64(b+1)*w
		close := ")"
		if b == nb-1 {
			close = "]"
		}
		name := fmt.Sprintf("[%g, %g%s", from, to, close)
		addRow(t, name, from, to, cnt[b])
		f.Categories = append(f.Categories, name)
		s.Values = append(s.Values, float64(cnt[b]))
	}
	f.Series = []report.Series{s}
	if out > 0 {
		p.note(t.Name, "%d evaluators have a mean outside the rubric scale and are not in a bin", out)
	}
	a.addTable(t)
	a.addFigure(f)
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
	t := newTable("extreme_evaluators", "Figure 7: Solve Rate by the most critical and most lenient evaluators", report.SectionConsistency,
		fmt.Sprintf("Solve Rate per model from the gradings of the %d most critical and %d most lenient human evaluators (by mean rubric score over LLM responses; ties at the cut by evaluator id).", len(crit), len(lenient)),
		col("group", report.Text, "critical or lenient"),
		col("model", report.Text, "model"),
		col("n_evaluators", report.Int, "evaluators in the group"),
		col("n_gradings", report.Int, "gradings of the model by the group"),
		col("solve_rate", report.Fraction, "share solved"),
		col("solve_rate_lo", report.Fraction, "95 % cluster-bootstrap interval, lower end"),
		col("solve_rate_hi", report.Fraction, "95 % cluster-bootstrap interval, upper end"))
	f := &report.Figure{ID: "fig7_extreme_evaluators", Section: report.SectionConsistency,
		Title: "Figure 7: Solve Rate according to the most critical and most lenient evaluators", Kind: report.Bar,
		XName: "model", YName: "Solve Rate", YUnit: "%", Percent: true, Table: t.Name}
	for _, m := range v.models {
		f.Categories = append(f.Categories, p.s.Models[m].Name)
	}
	for k, name := range []string{"critical", "lenient"} {
		s := report.Series{Name: name}
		for mi, m := range v.models {
			r := rates[k][mi]
			addRow(t, name, p.s.Models[m].Name, int64(len(crit)), r.n, r.rate, r.lo, r.hi)
			s.Values = append(s.Values, r.rate)
			s.Lo = append(s.Lo, r.lo)
			s.Hi = append(s.Hi, r.hi)
		}
		f.Series = append(f.Series, s)
	}
	a.addTable(t)
	a.addFigure(f)
}
