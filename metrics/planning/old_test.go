package planning

// The pilot as it was before it was made compact (commit 46a691c): a map
// of graders per model and question. Kept as the oracle of
// TestPilotMatchesOld.

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// pilot holds the main-round human rubric means of the study per model and
// question.
type pilotOld struct {
	models []string
	nQ     int
	// per model: per question: grader → rubric mean (NaN skipped)
	by [][]map[string]score
}

// loadPilot collects the main-round human rubric means per model and
// question, with the models ordered by mean rubric over gradings.
func loadPilotOld(s *analysis.Study, so scores.Options, graded []scores.Grading) *pilotOld {
	round := s.MainRound
	if round == "" {
		round = "main"
	}
	qPos := map[string]int{}
	for i, q := range s.Questions {
		qPos[q.ID] = i
	}
	accs := map[string]*study.RatSum{} // per model: the exact mean rubric over gradings
	by := map[string][]map[string]score{}
	for _, g := range scores.OrCompute(graded, s, so) {
		if g.Kind != analysis.Human || g.Round != round || g.Model == s.HumanLabel || math.IsNaN(g.RubricMean) {
			continue
		}
		qi, ok := qPos[g.QuestionID]
		if !ok {
			continue
		}
		a := accs[g.Model]
		if a == nil {
			a = &study.RatSum{}
			accs[g.Model] = a
			by[g.Model] = make([]map[string]score, len(s.Questions))
		}
		a.Add(g.RubricRat, g.RubricMean)
		if by[g.Model][qi] == nil {
			by[g.Model][qi] = map[string]score{}
		}
		by[g.Model][qi][g.Evaluator] = score{g.RubricMean, g.RubricRat}
	}
	p := &pilotOld{nQ: len(s.Questions)}
	for m := range accs {
		p.models = append(p.models, m)
	}
	// descending exact means (equal means tie exactly), then by name
	sort.Slice(p.models, func(i, j int) bool {
		if c := cmpMean(accs[p.models[i]], accs[p.models[j]]); c != 0 {
			return c > 0
		}
		return p.models[i] < p.models[j]
	})
	for _, m := range p.models {
		p.by = append(p.by, by[m])
	}
	return p
}

// gradersMeanOld returns the mean of a grader map: exact (a RatSum) when every
// grader's mean is; its N is 0 when the map is empty.
func gradersMeanOld(g map[string]score) study.RatSum {
	var m study.RatSum
	for _, k := range sortedKeysOld(g) {
		m.Add(g[k].r, g[k].x)
	}
	return m
}

func sortedKeysOld(g map[string]score) []string {
	k := make([]string, 0, len(g))
	for e := range g {
		k = append(k, e)
	}
	sort.Strings(k)
	return k
}

// pair computes one row for models i (higher) and j.
func (p *pilotOld) pair(i, j int, opt PlanOptions) Pair {
	ps := Pair{ModelA: p.models[i], ModelB: p.models[j], QuestionsByGraders: make([]int64, len(opt.GradersPerQuestion))}
	var diff, inv []float64
	var meanA, meanB, meanD study.RatSum // exact means over the questions
	var gSum float64
	// Paired per-grader differences (leniency cancels) and the unpaired
	// fallback: within-response deviations.
	var ssPaired, ssResp float64
	var dfPaired, dfResp, qPaired, qResp int
	for q := 0; q < p.nQ; q++ {
		ga, gb := p.by[i][q], p.by[j][q]
		if len(ga) == 0 || len(gb) == 0 {
			continue
		}
		sa, sb := gradersMeanOld(ga), gradersMeanOld(gb)
		ra, rb := sa.Rat(), sb.Rat()
		ma, mb := sa.Mean(), sb.Mean()
		rd := ra.Add(rb.MulInt(-1)) // the zero Rat when either is not exact
		dq := ma - mb
		if rd.OK() {
			dq = rd.Float64() // the difference rounded once
		}
		meanA.Add(ra, ma)
		meanB.Add(rb, mb)
		meanD.Add(rd, dq)
		diff = append(diff, dq)
		inv = append(inv, 1/float64(len(ga))+1/float64(len(gb)))
		gSum += float64(len(ga) + len(gb))
		var dj []float64
		for _, e := range sortedKeysOld(ga) {
			if vb, ok := gb[e]; ok {
				dj = append(dj, ga[e].x-vb.x)
			}
		}
		if len(dj) >= 2 {
			ssPaired += float64(stats.Variance(dj) * float64(len(dj)-1))
			dfPaired += len(dj) - 1
			qPaired++
		}
		resp := false
		for _, g := range []map[string]score{ga, gb} {
			if len(g) >= 2 {
				v := make([]float64, 0, len(g))
				for _, e := range sortedKeysOld(g) {
					v = append(v, g[e].x)
				}
				ssResp += float64(stats.Variance(v) * float64(len(v)-1))
				dfResp += len(v) - 1
				resp = true
			}
		}
		if resp {
			qResp++
		}
	}
	n := len(diff)
	ps.Questions = int64(n)
	ps.Graders = math.NaN()
	if n > 0 {
		ps.Graders = gSum / float64(2*n)
	}
	ps.MeanA, ps.MeanB = meanA.Mean(), meanB.Mean()
	ps.MeanAExact, ps.MeanBExact, ps.DExact = meanA.Rat(), meanB.Rat(), meanD.Rat()
	ps.D = meanD.Mean() // exact: 0 only when the means are equal
	if n == 0 {
		ps.MeanA, ps.MeanB, ps.D = math.NaN(), math.NaN(), math.NaN()
	}
	ps.VarDiff = stats.Variance(diff)
	ps.VarGrader, ps.VarQuestion = math.NaN(), math.NaN()
	switch {
	case dfPaired > 0:
		ps.VarGrader = ssPaired / float64(dfPaired) / 2
		ps.GraderQuestions = int64(qPaired)
	case dfResp > 0:
		ps.VarGrader = ssResp / float64(dfResp)
		ps.GraderQuestions = int64(qResp)
	}
	if !math.IsNaN(ps.VarGrader) && !math.IsNaN(ps.VarDiff) {
		ps.VarQuestion = math.Max(0, ps.VarDiff-float64(ps.VarGrader*stats.Mean(inv)))
	}
	ps.EffectSize = ps.D / math.Sqrt(ps.VarDiff)
	ps.PowerPilot = math.NaN()
	if n >= 2 {
		ps.PowerPilot = PairedPower(float64(n), ps.EffectSize, opt.Alpha)
	}
	var notes []string
	size := func(v float64) int64 {
		if math.IsNaN(v) || n < 2 {
			return 0
		}
		if v == 0 {
			if ps.D != 0 {
				notes = append(notes, "no variance: every question shows the same difference")
			}
			return 0
		}
		k, _, err := PairedSampleSize(ps.D/math.Sqrt(v), opt.Alpha, opt.Power)
		if err != nil {
			if !errors.Is(err, ErrNoEffect) {
				notes = append(notes, err.Error())
			}
			return 0
		}
		return int64(k)
	}
	switch {
	case n < 2:
		notes = append(notes, fmt.Sprintf("%d question(s) with a score for both models; need 2", n))
	case ps.D == 0:
		notes = append(notes, "cannot be separated: the pilot's mean difference is 0")
	}
	ps.QuestionsPilot = size(ps.VarDiff)
	if math.IsNaN(ps.VarGrader) && n >= 2 {
		notes = append(notes, "no question has two graders: the grader variance cannot be estimated")
	}
	for k, g := range opt.GradersPerQuestion {
		ps.QuestionsByGraders[k] = size(ps.VarQuestion + 2*ps.VarGrader/float64(g))
	}
	ps.Note = joinUnique(notes)
	return ps
}
