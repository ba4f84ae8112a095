package pairwise

import (
	"math"
	"strings"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

// JudgeAuditTable is the table of the pairwise judges' audit.
const JudgeAuditTable = "pairwise_judge_audit"

// JudgeAudit is one LLM judge's audit on its pairwise judgments (a row of
// pairwise_judge_audit): the biases the judge audit measures on rubric
// gradings, measured on preferences.
type JudgeAudit struct {
	Judge string
	// N are its judgments.
	N int64
	// FirstShare and PositionP are its position bias (Population.Position).
	FirstShare Estimate
	PositionP  float64
	// Length is its length effect with model quality held fixed
	// (LengthModel, logit per doubling); NaN without texts.
	Length  Estimate
	LengthP float64
	// SelfPreference is the mean, over the comparisons the judge and human
	// graders both judged in which exactly one answer comes from the
	// judge's provider, of the judge's score of that answer minus the
	// humans' mean score (1 win, ½ tie, 0 loss), with a t interval with
	// questions as clusters; SelfN those comparisons. NaN when the judge or
	// the models have no provider, or no human judged such a comparison.
	SelfPreference Estimate
	SelfP          float64
	SelfN          int64
	// Kappa and Agreement are its agreement with the strict majority of the
	// human graders (the pairwise_agreement row), NaN without one.
	Kappa, Agreement Estimate
	KappaN           int64
}

// selfPreference computes the self-preference of judge ev with provider
// prov from the study's judgments of round.
func selfPreference(s *study.Study, round, ev, prov string, level float64) (Estimate, float64, int64) {
	nan := Estimate{math.NaN(), math.NaN(), math.NaN()}
	if strings.TrimSpace(prov) == "" {
		return nan, math.NaN(), 0
	}
	provOf := map[string]string{}
	for _, m := range s.Models {
		provOf[m.Name] = strings.ToLower(strings.TrimSpace(m.Provider))
	}
	prov = strings.ToLower(strings.TrimSpace(prov))
	type item struct{ q, own, other string }
	type acc struct{ js, jn, hs, hn float64 }
	items := map[item]*acc{}
	var order []item
	for _, c := range s.Comparisons {
		if c.Round != round || c.ModelA == c.ModelB {
			continue
		}
		aOwn, bOwn := provOf[c.ModelA] == prov, provOf[c.ModelB] == prov
		if aOwn == bOwn {
			continue
		}
		it := item{c.QuestionID, c.ModelA, c.ModelB}
		score := map[study.Preference]float64{study.PreferA: 1, study.Tie: 0.5, study.PreferB: 0}[c.Winner]
		if bOwn {
			it.own, it.other = c.ModelB, c.ModelA
			score = 1 - score
		}
		var isJudge bool
		switch {
		case c.Kind == study.Judge && c.Evaluator == ev:
			isJudge = true
		case c.Kind != study.Judge:
		default:
			continue
		}
		a := items[it]
		if a == nil {
			a = &acc{}
			items[it] = a
			order = append(order, it)
		}
		if isJudge {
			a.js, a.jn = a.js+score, a.jn+1
		} else {
			a.hs, a.hn = a.hs+score, a.hn+1
		}
	}
	// Per question: the sum of the differences and the number of items.
	sum, cnt := map[string]float64{}, map[string]float64{}
	var qs []string
	var n int64
	for _, it := range order {
		a := items[it]
		if a.jn == 0 || a.hn == 0 {
			continue
		}
		if _, ok := cnt[it.q]; !ok {
			qs = append(qs, it.q)
		}
		sum[it.q] += a.js/a.jn - a.hs/a.hn
		cnt[it.q]++
		n++
	}
	if n == 0 {
		return nan, math.NaN(), 0
	}
	var D, N float64
	for _, q := range qs {
		D, N = D+sum[q], N+cnt[q]
	}
	mean := D / N
	g := float64(len(qs))
	if g < 2 {
		return Estimate{mean, math.NaN(), math.NaN()}, math.NaN(), n
	}
	// Ratio estimator's cluster-robust variance, G/(G − 1) correction.
	v := 0.0
	for _, q := range qs {
		r := sum[q] - mean*cnt[q]
		v += r * r
	}
	se := math.Sqrt(g / (g - 1) * v / (N * N))
	lo, hi := stats.TInterval(mean, se, g-1, level)
	p := math.NaN()
	if se > 0 {
		p = stats.StudentTTwoSided(mean/se, g-1)
	}
	return Estimate{mean, lo, hi}, p, n
}

// judgeAudits builds the rows of pairwise_judge_audit from the computed
// populations and agreement rows.
func judgeAudits(s *study.Study, round string, res *Result, level float64) []JudgeAudit {
	prov := map[string]string{}
	for _, e := range s.Evaluators {
		prov[e.ID] = e.Provider
	}
	var out []JudgeAudit
	for _, pop := range res.Populations {
		if pop.Name == HumansName {
			continue
		}
		var n int64
		for _, m := range pop.Models {
			n += m.N
		}
		ja := JudgeAudit{Judge: pop.Name, N: n / 2, FirstShare: pop.Position.FirstShare, PositionP: pop.Position.PValue,
			Length: nanEst(), LengthP: math.NaN(), Kappa: nanEst(), Agreement: nanEst()}
		if pop.HasModel {
			ja.Length, ja.LengthP = pop.Model.Effects[cLength].Estimate, pop.Model.Effects[cLength].PValue
		}
		ja.SelfPreference, ja.SelfP, ja.SelfN = selfPreference(s, round, pop.Name, prov[pop.Name], level)
		for _, a := range res.Agreement {
			if a.GraderA == pop.Name && a.GraderB == MajorityName {
				ja.Kappa, ja.Agreement, ja.KappaN = a.Kappa, a.Agreement, a.N
			}
		}
		out = append(out, ja)
	}
	return out
}

// judgeAuditPart is the pairwise_judge_audit table; nil without judges.
func (r Result) judgeAuditTable() *report.Table {
	if len(r.Judges) == 0 {
		return nil
	}
	t := &report.Table{Name: JudgeAuditTable, Title: "Pairwise judges: audit", Section: report.SectionPairwise,
		Doc: "Per LLM judge of pairwise judgments, the biases the judge audit measures on rubric gradings, measured on preferences: position (share of non-tie verdicts won by the answer shown first, question-clustered p-value), length with model quality held fixed (logit per doubling of the length ratio, from the model of pairwise_length), self-preference (over the comparisons the humans judged too in which exactly one answer comes from the judge's provider, the judge's score of that answer minus the humans' mean score, 1 win, ½ tie, 0 loss; t interval and p-value with questions as clusters) and agreement with the strict majority of the human graders (κ as in pairwise_agreement).",
		Columns: cols(col("judge", report.Text, "the judge"), col("n", report.Int, "its pairwise judgments"),
			withCI("first_share", report.Fraction, "share of non-tie verdicts won by the answer shown first (½ = no position bias)"),
			col("position_p", report.Float, "question-clustered p-value of first_share = ½"),
			withT("length_logit", report.Float, "logit effect per doubling of the length ratio, model quality held fixed (0 = no length bias)", "as in pairwise_length"),
			col("length_p", report.Float, "p-value of length_logit = 0"),
			col("n_self", report.Int, "comparisons judged by the judge and by humans with exactly one answer from the judge's provider"),
			withT("self_preference", report.Float, "judge's minus humans' score of its provider's answer (0 = none; empty without providers or such comparisons)", "cluster-robust SE of the ratio estimator, questions − 1 degrees of freedom"),
			col("self_p", report.Float, "p-value of self_preference = 0, questions as clusters"),
			col("n_humans", report.Int, "comparisons with a strict human majority"),
			withCI("agreement_humans", report.Fraction, "share of those with the majority's verdict"),
			withCI("kappa_humans", report.Float, "Cohen's κ against the majority (both orientations)"))}
	for _, j := range r.Judges {
		row := append([]any{j.Judge, j.N}, ciCells(j.FirstShare)...)
		row = append(append(row, j.PositionP), ciCells(j.Length)...)
		row = append(append(row, j.LengthP, j.SelfN), ciCells(j.SelfPreference)...)
		row = append(append(row, j.SelfP, j.KappaN), ciCells(j.Agreement)...)
		t.Rows = append(t.Rows, append(row, ciCells(j.Kappa)...))
	}
	return t
}
