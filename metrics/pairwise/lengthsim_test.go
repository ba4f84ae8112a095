package pairwise

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// simLengthStudy is an AlpacaEval-shaped study with known truth: five
// models judged against a baseline on g questions by one judge. Model m's
// answer to question q has log length 6 + slope·quality_m + N(0, 0.4²)
// (better models write longer answers when slope > 0) and the judge
// prefers a over b with probability σ(quality_a − quality_b − u_q +
// gamma·log2(len_a/len_b)) (u_q ~ N(0, 0.3²) a question effect on the
// baseline, so the judgments of a question are correlated); with ties, 10 %
// of the verdicts become ties whatever η (which shrinks every logit effect
// by about 0.9 in the half-win scale, so the test of a known γ has none).
// Markdown counts are drawn independently of the verdicts.
func simLengthStudy(seed uint64, g int, quality map[string]float64, verbosity map[string]float64, slope, gamma float64, ties bool) *study.Study {
	r := rand.New(rand.NewPCG(seed, 36))
	s := &study.Study{MainRound: "main"}
	names := []string{"base", "m1", "m2", "m3", "m4", "m5"}
	for q := 0; q < g; q++ {
		qid := fmt.Sprintf("q%03d", q)
		loglen := map[string]float64{}
		for _, m := range names {
			loglen[m] = 6 + slope*quality[m] + verbosity[m] + 0.4*r.NormFloat64()
			s.Responses = append(s.Responses, study.Response{QuestionID: qid, Model: m, Chars: int(math.Exp(loglen[m])),
				Headers: int32(r.IntN(4)), ListItems: int32(r.IntN(8)), Bold: int32(r.IntN(5)), HasStyle: true})
		}
		u := 0.3 * r.NormFloat64()
		for _, m := range names[1:] {
			eta := quality[m] - quality["base"] - u + gamma*(loglen[m]-loglen["base"])/math.Ln2
			w := study.PreferB
			switch x := r.Float64(); {
			case ties && x < 0.1:
				w = study.Tie
			case ties && x < 0.1+0.9/(1+math.Exp(-eta)), !ties && x < 1/(1+math.Exp(-eta)):
				w = study.PreferA
			}
			a, b := m, "base"
			if r.IntN(2) == 0 { // shown in either order
				a, b = b, a
				w = map[study.Preference]study.Preference{study.PreferA: study.PreferB, study.PreferB: study.PreferA, study.Tie: study.Tie}[w]
			}
			s.Comparisons = append(s.Comparisons, judg("judge", J, qid, a, b, w))
		}
	}
	return s
}

var simQuality = map[string]float64{"base": 0, "m1": 1, "m2": 0.5, "m3": 0, "m4": -0.5, "m5": -1}

func simLength(t *testing.T, seed uint64, quality, verbosity map[string]float64, slope, gamma float64, ties bool) Population {
	t.Helper()
	res := run(t, simLengthStudy(seed, 200, quality, verbosity, slope, gamma, ties), 0)
	pop := res.Populations[0]
	if !pop.HasModel || pop.Model.Failed {
		t.Fatalf("seed %d: no length model: %+v", seed, pop.Model)
	}
	return pop
}

// A length-neutral judge where better models write longer answers: the
// raw longer-won share is far from ½, but the length effect with model
// quality held fixed is not flagged — its 95 % interval covers 0 in
// ≥ 93 % of 200 studies (the binomial tolerance around 95 %: 1.6 standard
// errors; 189 of these 200, and 957 of 1000 seeds when run once by hand),
// and so do the style effects, which do not enter the judge.
func TestLengthNeutralJudgeNotFlagged(t *testing.T) {
	const seeds = 200
	cover, rawFlagged := 0, 0
	var styleCover [nCov]int
	for seed := range uint64(seeds) {
		pop := simLength(t, seed, simQuality, nil, 1, 0, true)
		e := pop.Model.Effects[cLength].Estimate
		if e.Lo <= 0 && 0 <= e.Hi {
			cover++
		}
		for c := cHeaders; c < nCov; c++ {
			if x := pop.Model.Effects[c].Estimate; x.Lo <= 0 && 0 <= x.Hi {
				styleCover[c]++
			}
		}
		if pop.Length.PValue < 0.05 {
			rawFlagged++
		}
	}
	t.Logf("length-neutral judge: length interval covers 0 in %d of %d studies; the raw longer-won share is flagged in %d; style covers 0 in %v", cover, seeds, rawFlagged, styleCover[cHeaders:])
	if cover < 186 {
		t.Errorf("length interval covers 0 in %d of %d studies; want ≥ 186 (93 %%)", cover, seeds)
	}
	for c := cHeaders; c < nCov; c++ {
		if styleCover[c] < 186 {
			t.Errorf("%s interval covers 0 in %d of %d studies", CovariateNames[c], styleCover[c], seeds)
		}
	}
	if rawFlagged < seeds/2 {
		t.Errorf("the raw share is flagged in only %d of %d studies: the simulation does not confound length with quality", rawFlagged, seeds)
	}
}

// A judge with +0.7 logit per doubling of the length ratio (no ties, so
// that 0.7 is the model's parameter) is found: the interval covers 0.7 in
// ≥ 90 % of 200 studies and excludes 0 in nearly all.
func TestLengthBiasedJudgeFound(t *testing.T) {
	const seeds = 200
	cover, found := 0, 0
	for seed := range uint64(seeds) {
		e := simLength(t, 1000+seed, simQuality, nil, 1, 0.7, false).Model.Effects[cLength]
		if e.Estimate.Lo <= 0.7 && 0.7 <= e.Estimate.Hi {
			cover++
		}
		if e.PValue < 0.05 && e.Estimate.Value > 0 {
			found++
		}
	}
	t.Logf("+0.7 logit per doubling: interval covers 0.7 in %d of %d studies, p < 0.05 in %d", cover, seeds, found)
	if cover < 180 {
		t.Errorf("covers 0.7 in %d of %d; want ≥ 180 (90 %%)", cover, seeds)
	}
	if found < 190 {
		t.Errorf("found in %d of %d; want ≥ 190", found, seeds)
	}
}

// Models of the baseline's quality that write twice (m1) or half (m5) as
// long, before a judge with +0.7 logit per doubling: the raw win rates are
// far from ½, the length-controlled ones near it (mean over 100 studies
// within 0.03, each study's interval covering ½ in ≥ 90 %).
func TestLCWinRateEqualQuality(t *testing.T) {
	const seeds = 100
	equal := map[string]float64{"base": 0, "m1": 0, "m2": 0, "m3": 0, "m4": 0, "m5": 0}
	verb := map[string]float64{"m1": math.Ln2, "m2": math.Ln2 / 2, "m4": -math.Ln2 / 2, "m5": -math.Ln2}
	sumRaw, sumLC := map[string]float64{}, map[string]float64{}
	cover := map[string]int{}
	for seed := range uint64(seeds) {
		pop := simLength(t, 2000+seed, equal, verb, 0, 0.7, true)
		for _, m := range pop.Models {
			sumRaw[m.Model] += m.WinRate.Value
			sumLC[m.Model] += m.LCWinRate.Value
			if m.LCWinRate.Lo <= 0.5 && 0.5 <= m.LCWinRate.Hi {
				cover[m.Model]++
			}
		}
	}
	for _, m := range []string{"m1", "m2", "m3", "m4", "m5"} {
		raw, lc := sumRaw[m]/seeds, sumLC[m]/seeds
		t.Logf("%s: mean raw win rate %.3f, mean LC win rate %.3f, LC interval covers ½ in %d of %d", m, raw, lc, cover[m], seeds)
		if math.Abs(lc-0.5) > 0.03 || cover[m] < 90 {
			t.Errorf("%s: mean LC win rate %.3f, covers ½ in %d of %d; want within 0.03 of ½ and ≥ 90", m, lc, cover[m], seeds)
		}
	}
	if r := sumRaw["m1"] / seeds; r < 0.6 {
		t.Errorf("m1's raw win rate %.3f: the simulated judge is not length-biased enough for the test to mean anything", r)
	}
}
