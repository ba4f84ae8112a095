package pairwise

import (
	"math"
	"strings"

	"github.com/euroexec/euroexec/metrics/stats"
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
