package planning

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// PlanOptions are the design targets of Plan.
type PlanOptions struct {
	// Alpha is the two-sided level of the paired t-test; default 0.01 (the
	// threshold the paper's Figure 3 discusses). Accepted: (0, 1).
	Alpha float64
	// Power is the wanted probability of rejecting; default 0.8. Accepted:
	// (Alpha, 1).
	Power float64
	// GradersPerQuestion are the designs to size: human graders per
	// response; default {1, 2, 3}. Each must be ≥ 1; one column
	// n_questions_g<g> per entry, in this order.
	GradersPerQuestion []int
	// Scores is the Solve Rate rule used to derive per-grading scores;
	// default scores.DefaultOptions() (only rubric means are used here).
	Scores scores.Options
	// Graded, when not nil, is scores.Compute(s, Scores), computed once by
	// the caller and shared read-only with other analyses; default nil:
	// computed here.
	Graded []scores.Grading
}

// DefaultPlanOptions returns Alpha 0.01, Power 0.8, graders {1, 2, 3}.
func DefaultPlanOptions() PlanOptions {
	return PlanOptions{Alpha: 0.01, Power: 0.8, GradersPerQuestion: []int{1, 2, 3}, Scores: scores.DefaultOptions()}
}

// Options are the options of Analyze.
type Options struct {
	// Plan are the design targets; default DefaultPlanOptions().
	Plan PlanOptions
}

// DefaultOptions returns Options{Plan: DefaultPlanOptions()}.
func DefaultOptions() Options { return Options{Plan: DefaultPlanOptions()} }

// Result is what Analyze produced, as typed values; report/tables
// presents it (table study_plan and its figure).
type Result struct {
	// Pairs are the adjacent pairs of models in the human rubric order,
	// higher model first; empty when the plan could not be made (see
	// Notes).
	Pairs []Pair
	// Plan are the design targets used (alpha, power and the graders per
	// response of the sample-size columns).
	Plan PlanOptions
	// Notes say what was left out of table study_plan and why.
	Notes []string
	// Warnings are non-fatal findings.
	Warnings []string
}

// Pair is one row of study_plan: two models adjacent in the human rubric
// order. Undefined numbers are NaN; undefined sample sizes 0.
type Pair struct {
	// ModelA is the higher model, ModelB the next one.
	ModelA, ModelB string
	// Questions are the pilot questions with a human score for both.
	Questions int64
	// Graders is the mean number of human graders per response in the
	// pilot.
	Graders float64
	// MeanA and MeanB are the models' mean per-question rubric on those
	// questions, D the mean per-question difference a − b; the Exact
	// fields are the same means as exact fractions (the zero Rat when a
	// term was not exact).
	MeanA, MeanB, D                float64
	MeanAExact, MeanBExact, DExact study.Rat
	// VarDiff is the variance (n − 1) of the per-question difference,
	// VarQuestion its between-question part σ²_q and VarGrader the grader
	// noise variance per response σ²_e, estimated on GraderQuestions
	// questions.
	VarDiff, VarQuestion, VarGrader float64
	GraderQuestions                 int64
	// EffectSize is D / √VarDiff (Cohen's d_z); PowerPilot the power of
	// the pilot itself at alpha for the observed D; MDEPilot the smallest
	// difference the pilot's own paired t test detects with the plan's
	// power at alpha (stats.MDE).
	EffectSize, PowerPilot, MDEPilot float64
	// QuestionsPilot are the questions needed with the pilot's graders per
	// response; 0 when it cannot be computed (see Note).
	QuestionsPilot int64
	// QuestionsByGraders are the questions needed with g graders per
	// response, g in Result.Plan.GradersPerQuestion order; 0 when it cannot
	// be computed.
	QuestionsByGraders []int64
	// Note says why a sample size is empty.
	Note string
}

// Analyze runs Plan and keeps its pairs with the options used. When Plan
// fails (no rubric, fewer than two models with human gradings, invalid
// options) the result holds a Note saying why and no pairs. A cancelled
// ctx returns ctx's error.
func Analyze(ctx context.Context, s *study.Study, opt Options) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	r := analyze(s, opt)
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return r, nil
}

func analyze(s *study.Study, opt Options) Result {
	r := Result{Plan: opt.Plan}
	pairs, err := Plan(s, opt.Plan)
	if err != nil {
		r.Notes = append(r.Notes, err.Error())
		return r
	}
	r.Pairs = pairs
	for _, ps := range pairs {
		if ps.Note != "" {
			r.Notes = append(r.Notes, fmt.Sprintf("%v vs %v: %s", ps.ModelA, ps.ModelB, ps.Note))
		}
	}
	return r
}

// pilot holds the main-round human rubric means of the study per model and
// question.
type pilot struct {
	models []string
	nQ     int
	// per model: its graders' rubric means question by question (NaN
	// skipped)
	by []modelGradings
}

// modelGradings is one model's gradings: question q's are s[start[q]:start[q+1]],
// in grader-name order, one per grader.
type modelGradings struct {
	start []int32
	s     []entry
}

// at returns question q's gradings.
func (g modelGradings) at(q int) []entry { return g.s[g.start[q]:g.start[q+1]] }

// entry is one grader's rubric mean of a response: e is the grader's rank
// in name order, q the question.
type entry struct {
	q, e int32
	score
}

// score is one grading's rubric mean, as a float and as an exact fraction
// (the zero Rat where not exact).
type score struct {
	x float64
	r study.Rat
}

// Plan sizes a follow-up study from a pilot. For each pair of models
// adjacent in the order of mean human rubric (main round, every human
// grading counts once, descending, ties by name; the human label left out
// as in set all), it takes the per-question score (mean of the question's
// human rubric means, as in pairwise_tests), their mean difference d over
// the questions both models have, and decomposes the variance of the
// per-question difference D_q under the model
//
//	y_qmj = μ_m + u_qm + l_qj + e_qmj
//
// (question-by-model effect u, grader j's leniency on question q, l_qj,
// which cancels in a paired difference, and independent grader noise e with
// variance σ²_e): Var(D_q) = σ²_q + σ²_e·(1/g_qa + 1/g_qb), where σ²_q =
// Var(u_qa − u_qb) is the between-question variance of the difference and
// g the graders per response. σ²_e is half the pooled within-question
// variance of the per-grader differences y_qaj − y_qbj over the questions
// where at least two graders graded both models (var_grader); when no
// question has such graders, the pooled within-response variance of the
// rubric means (responses with ≥ 2 graders) is used instead, which also
// holds the leniency. σ²_q = max(0, Var(D_q) − mean_q σ²_e·(1/g_qa +
// 1/g_qb)) (method of moments, truncated at 0).
//
// For a design with g graders on every response, Var(D) = σ²_q + 2σ²_e/g
// and the number of questions is PairedSampleSize(|d|/√Var(D), Alpha,
// Power) — the exact noncentral-t power of a paired two-sided t-test.
// n_questions_pilot uses the pilot's own Var(D_q) directly (no
// decomposition needed). d = 0 gives empty sample sizes and the note
// "cannot be separated"; so does a pair without any difference variance.
//
// Plan returns one Pair per adjacent pair, higher model first, and an
// error for invalid options, a study without rubric or without two models
// with main-round human rubric gradings.
func Plan(s *study.Study, opt PlanOptions) ([]Pair, error) {
	if err := checkPlan(s, opt); err != nil {
		return nil, err
	}
	p := loadPilot(s, opt.Scores, opt.Graded)
	if len(p.models) < 2 {
		return nil, fmt.Errorf("planning: plan: %d model(s) with main-round human rubric gradings; need 2", len(p.models))
	}
	var pairs []Pair
	for i := 0; i+1 < len(p.models); i++ {
		pairs = append(pairs, p.pair(i, i+1, opt))
	}
	return pairs, nil
}

// checkPlan returns Plan's error for a nil study, invalid options or a
// study without rubric.
func checkPlan(s *study.Study, opt PlanOptions) error {
	if s == nil {
		return errors.New("planning: plan: the study is nil")
	}
	if !(opt.Alpha > 0 && opt.Alpha < 1) {
		return fmt.Errorf("planning: plan: alpha %v is not in (0, 1)", opt.Alpha)
	}
	if !(opt.Power > opt.Alpha && opt.Power < 1) {
		return fmt.Errorf("planning: plan: power %v is not in (alpha, 1)", opt.Power)
	}
	for _, g := range opt.GradersPerQuestion {
		if g < 1 {
			return fmt.Errorf("planning: plan: graders per question %d is below 1", g)
		}
	}
	if len(s.Attributes) == 0 {
		return errors.New("planning: plan: the study has no rubric")
	}
	return nil
}

// loadPilot collects the main-round human rubric means per model and
// question, with the models ordered by mean rubric over gradings. A grader
// graded a response once; were it listed twice, the later grading counts.
func loadPilot(s *study.Study, so scores.Options, graded []scores.Grading) *pilot {
	round := s.MainRound
	if round == "" {
		round = "main"
	}
	qPos := map[string]int{}
	for i, q := range s.Questions {
		qPos[q.ID] = i
	}
	gs := scores.OrCompute(graded, s, so)
	use := func(g *scores.Grading) (int, bool) {
		if g.Kind != study.Human || g.Round != round || g.Model == s.HumanLabel || math.IsNaN(g.RubricMean) {
			return 0, false
		}
		qi, ok := qPos[g.QuestionID]
		return qi, ok
	}
	accs := map[string]*study.RatSum{} // per model: the exact mean rubric over gradings
	count := map[string]int{}
	grader := map[string]int32{}
	for i := range gs {
		g := &gs[i]
		if _, ok := use(g); !ok {
			continue
		}
		a := accs[g.Model]
		if a == nil {
			a = &study.RatSum{}
			accs[g.Model] = a
		}
		a.Add(g.RubricRat, g.RubricMean)
		count[g.Model]++
		grader[g.Evaluator] = 0
	}
	names := make([]string, 0, len(grader))
	for e := range grader {
		names = append(names, e)
	}
	sort.Strings(names)
	for i, e := range names {
		grader[e] = int32(i)
	}
	p := &pilot{nQ: len(s.Questions)}
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
	mPos := map[string]int{}
	p.by = make([]modelGradings, len(p.models))
	for i, m := range p.models {
		mPos[m] = i
		p.by[i].s = make([]entry, 0, count[m])
	}
	for i := range gs {
		g := &gs[i]
		qi, ok := use(g)
		if !ok {
			continue
		}
		b := &p.by[mPos[g.Model]]
		b.s = append(b.s, entry{q: int32(qi), e: grader[g.Evaluator], score: score{g.RubricMean, g.RubricRat}})
	}
	for i := range p.by {
		b := &p.by[i]
		sort.SliceStable(b.s, func(x, y int) bool {
			if b.s[x].q != b.s[y].q {
				return b.s[x].q < b.s[y].q
			}
			return b.s[x].e < b.s[y].e
		})
		// one entry per (question, grader): the last
		k := 0
		for j := range b.s {
			if j+1 < len(b.s) && b.s[j+1].q == b.s[j].q && b.s[j+1].e == b.s[j].e {
				continue
			}
			b.s[k] = b.s[j]
			k++
		}
		b.s = b.s[:k]
		b.start = make([]int32, p.nQ+1)
		j := 0
		for q := 0; q <= p.nQ; q++ {
			for j < len(b.s) && int(b.s[j].q) < q {
				j++
			}
			b.start[q] = int32(j)
		}
	}
	return p
}

// cmpMean compares two means exactly when both are exact, else as floats.
func cmpMean(a, b *study.RatSum) int {
	ra, rb := a.Rat(), b.Rat()
	if ra.OK() && rb.OK() {
		return ra.Cmp(rb)
	}
	x, y := a.Mean(), b.Mean()
	switch {
	case x > y:
		return 1
	case x < y:
		return -1
	}
	return 0
}

// gradersMean returns the mean of one response's gradings (in grader-name
// order): exact (a RatSum) when every grader's mean is; its N is 0 when
// there are none.
func gradersMean(g []entry) study.RatSum {
	var m study.RatSum
	for _, x := range g {
		m.Add(x.r, x.x)
	}
	return m
}

// pair computes one row for models i (higher) and j.
func (p *pilot) pair(i, j int, opt PlanOptions) Pair {
	ps := Pair{ModelA: p.models[i], ModelB: p.models[j], QuestionsByGraders: make([]int64, len(opt.GradersPerQuestion))}
	var diff, inv []float64
	var meanA, meanB, meanD study.RatSum // exact means over the questions
	var gSum float64
	// Paired per-grader differences (leniency cancels) and the unpaired
	// fallback: within-response deviations.
	var ssPaired, ssResp float64
	var dfPaired, dfResp, qPaired, qResp int
	var dj, v []float64 // scratch
	for q := 0; q < p.nQ; q++ {
		ga, gb := p.by[i].at(q), p.by[j].at(q)
		if len(ga) == 0 || len(gb) == 0 {
			continue
		}
		sa, sb := gradersMean(ga), gradersMean(gb)
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
		dj = dj[:0]
		for a, b := 0, 0; a < len(ga) && b < len(gb); { // the graders of both, in name order
			switch {
			case ga[a].e < gb[b].e:
				a++
			case ga[a].e > gb[b].e:
				b++
			default:
				dj = append(dj, ga[a].x-gb[b].x)
				a++
				b++
			}
		}
		if len(dj) >= 2 {
			ssPaired += float64(stats.Variance(dj) * float64(len(dj)-1))
			dfPaired += len(dj) - 1
			qPaired++
		}
		resp := false
		for _, g := range [][]entry{ga, gb} {
			if len(g) >= 2 {
				v = v[:0]
				for _, x := range g {
					v = append(v, x.x)
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
	ps.PowerPilot, ps.MDEPilot = math.NaN(), math.NaN()
	if n >= 2 {
		ps.PowerPilot = PairedPower(float64(n), ps.EffectSize, opt.Alpha)
		ps.MDEPilot = stats.MDE(math.Sqrt(ps.VarDiff/float64(n)), float64(n-1), opt.Alpha, opt.Power)
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

func joinUnique(s []string) string {
	seen := map[string]bool{}
	out := ""
	for _, x := range s {
		if seen[x] {
			continue
		}
		seen[x] = true
		if out != "" {
			out += "; "
		}
		out += x
	}
	return out
}
