package judgeaudit

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// Options control Analyze.
type Options struct {
	// Seed seeds the cluster bootstrap (replicate r draws from
	// stats.NewRand(Seed, r)); default 1.
	Seed uint64
	// Bootstrap is the number of replicates; default 2000; 0 leaves the
	// intervals (and so the flags) empty.
	Bootstrap int
	// Level is the interval's confidence level; default 0.95. Accepted: (0, 1).
	Level float64
	// Round is the grading round audited; default "" = the study's main round.
	Round string
	// Scores is the Solve Rate rule behind κ and macro-F1; default
	// scores.DefaultOptions().
	Scores scores.Options
	// Graded, when not nil, is scores.Compute(s, Scores), computed once by
	// the caller and shared read-only with other analyses; default nil:
	// computed here.
	Graded []scores.Grading
	// RerunAlpha flags rerun when the upper end of α's interval is below
	// it; default 0.8. Accepted: (0, 1].
	RerunAlpha float64
	// Thresholds say when a flagged bias is large enough to change the
	// verdict; default DefaultThresholds().
	Thresholds Thresholds
}

// Thresholds are the verdict's materiality thresholds. A flagged bias
// counts against a judge only when its estimate is at least this far from
// the no-bias value.
type Thresholds struct {
	// Tau is the least Table 8 τ (rubric, against the mean-human ranking)
	// for "usable for ranking"; default 0.5.
	Tau float64
	// Kappa is the least Cohen's κ on solved/unsolved for "usable for
	// absolute scores"; default 0.4.
	Kappa float64
	// Points applies to leniency, self_preference and position, in rubric
	// points; default 0.25.
	Points float64
	// Length is the least |slope| per doubling; default 0.1.
	Length float64
	// ScaleLow and ScaleHigh bound an acceptable scale ratio; defaults 0.8
	// and 1.25.
	ScaleLow, ScaleHigh float64
	// Rate applies to checklist_leniency; default 0.05.
	Rate float64
}

// DefaultThresholds returns τ 0.5, κ 0.4, 0.25 points, 0.1 per doubling,
// scale within [0.8, 1.25] and 0.05 of checklist rate.
func DefaultThresholds() Thresholds {
	return Thresholds{Tau: 0.5, Kappa: 0.4, Points: 0.25, Length: 0.1, ScaleLow: 0.8, ScaleHigh: 1.25, Rate: 0.05}
}

// DefaultOptions returns Seed 1, Bootstrap 2000, Level 0.95, the main
// round, the EuroExec Solve Rate rule, RerunAlpha 0.8 and
// DefaultThresholds().
func DefaultOptions() Options {
	return Options{Seed: 1, Bootstrap: 2000, Level: 0.95, Scores: scores.DefaultOptions(), RerunAlpha: 0.8,
		Thresholds: DefaultThresholds()}
}

// Result is what Analyze produced, as typed values; report/tables.JudgeAudit
// presents it (the judge_bias, judge_bias_by_attribute and judge_audit
// tables and the forest plots of every judge).
type Result struct {
	// Judges are the audited judges of the round, in evaluator-id order;
	// empty when the round has none (see Notes).
	Judges []Judge
	// Attributes are the rubric attributes (the rows of
	// judge_bias_by_attribute per judge); none: no such table.
	Attributes []string
	// Thresholds are the verdict thresholds used (stated in the
	// judge_audit table's description).
	Thresholds Thresholds
	// Notes say which tables were left out and why.
	Notes []Note
	// Warnings are non-fatal problems (options replaced, no humans).
	Warnings []string
}

// Judge is the audit of one judge: a row of judge_audit, its rows of
// judge_bias and judge_bias_by_attribute. Undefined numbers are NaN.
type Judge struct {
	// Judge is the evaluator id, Provider its provider ("" when not given).
	Judge, Provider string
	// Responses are the responses graded by the judge and humans,
	// Questions the questions with such responses.
	Responses, Questions int64
	// Tau is Table 8's τ-b (judge rubric vs mean-human rubric ranking)
	// averaged over the TauN questions where it is defined.
	Tau  float64
	TauN int64
	// Kappa is Cohen's κ and MacroF1 the macro-F1 of the judge's
	// solved/unsolved against the humans', over Pairs (judge grading,
	// human grading) pairs of a response.
	Kappa, MacroF1 float64
	Pairs          int64
	// Flagged are the names of the flagged biases, in Biases order.
	Flagged []string
	// Verdict is the audit in plain words (see Verdict).
	Verdict string
	// Biases are the judge's rows of judge_bias, one per bias in table
	// order (Leniency … ChecklistLeniency).
	Biases []Bias
	// ByAttribute are the judge's leniency per rubric attribute (rows of
	// judge_bias_by_attribute), in Result.Attributes order.
	ByAttribute []Bias
}

// Bias is one bias estimate of a judge with its interval. Undefined
// numbers are NaN.
type Bias struct {
	// Name is the bias (Leniency … ChecklistLeniency).
	Name string
	// Attribute is the rubric attribute of a by-attribute row; "" in
	// Judge.Biases.
	Attribute string
	// Estimate is the bias estimate in Unit; Lo and Hi bound its cluster
	// bootstrap interval (NaN without one).
	Estimate, Lo, Hi float64
	// N are the units behind the estimate: responses (run gradings for
	// position).
	N int64
	// Unit is the unit of the estimate ("rubric points", "SD", "ratio", …).
	Unit string
	// Null is the no-bias value (0; 1 for scale and rerun; NaN for
	// rerun_mad, which is descriptive).
	Null float64
	// Flagged says the interval excludes the no-bias value (rerun: its
	// upper end is below Options.RerunAlpha); false when it cannot be
	// decided (see Decided).
	Flagged bool
	// Note says why the row is empty, or a remark.
	Note string
}

// Decided says the flag is defined: the estimate and both ends of its
// interval are numbers. The flagged cell is empty otherwise.
func (b Bias) Decided() bool {
	return !math.IsNaN(b.Estimate) && !math.IsNaN(b.Lo) && !math.IsNaN(b.Hi)
}

// Table names: the tables report/tables.JudgeAudit builds, which Notes
// name.
const (
	TableBias        = "judge_bias"
	TableByAttribute = "judge_bias_by_attribute"
	TableAudit       = "judge_audit"
)

// Note says why a table was left out.
type Note struct {
	// Table is the table concerned (TableBias, TableByAttribute or
	// TableAudit).
	Table string
	// Reason is the explanation shown under the table's place.
	Reason string
}

// Bias names, in table order.
const (
	Leniency          = "leniency"
	LeniencyStd       = "leniency_std"
	Length            = "length"
	SelfPreference    = "self_preference"
	Position          = "position"
	Scale             = "scale"
	Rerun             = "rerun"
	RerunMAD          = "rerun_mad"
	ChecklistLeniency = "checklist_leniency"
)

// bias describes one row of judge_bias.
type bias struct {
	name, unit string
	null       float64
	// nStat is the statistic that counts its units.
	nStat int
}

var biases = []bias{
	{Leniency, "rubric points", 0, sN},
	{LeniencyStd, "SD", 0, sN},
	{Length, "points per doubling", 0, sLn},
	{SelfPreference, "rubric points", 0, -1},
	{Position, "rubric points", 0, -2},
	{Scale, "ratio", 1, sN},
	{Rerun, "alpha", 1, sVu},
	{RerunMAD, "rubric points", math.NaN(), sVu},
	{ChecklistLeniency, "rate", 0, sCn},
}

// Analyze audits every judge of the round. It checks ctx between bootstrap
// replicates and returns ctx's error when cancelled. Invalid options are
// replaced by their defaults with a warning.
func Analyze(ctx context.Context, s *study.Study, opt Options) (Result, error) {
	var res Result
	def := DefaultOptions()
	if !(opt.Level > 0 && opt.Level < 1) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("judge audit: level %v not in (0, 1); using %v", opt.Level, def.Level))
		opt.Level = def.Level
	}
	if !(opt.RerunAlpha > 0 && opt.RerunAlpha <= 1) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("judge audit: rerun alpha %v not in (0, 1]; using %v", opt.RerunAlpha, def.RerunAlpha))
		opt.RerunAlpha = def.RerunAlpha
	}
	if opt.Thresholds == (Thresholds{}) {
		opt.Thresholds = def.Thresholds
	}
	opt.Bootstrap = max(opt.Bootstrap, 0)
	if s == nil {
		return res, nil
	}
	p := prepare(s, opt)
	if len(p.judges) == 0 {
		why := fmt.Sprintf("the study has no judge gradings in round %s", p.round)
		for _, c := range s.Comparisons {
			if c.Kind == study.Judge && c.Round == p.round {
				why += "; its judges' pairwise judgments are audited in pairwise_judge_audit (position, length, self-preference, agreement with the humans)"
				break
			}
		}
		for _, n := range []string{TableBias, TableByAttribute, TableAudit} {
			res.Notes = append(res.Notes, Note{Table: n, Reason: why})
		}
		return res, nil
	}
	nA := len(p.attrs)
	nQ := len(p.questions)
	perJudge := len(biases) + nA
	nOut := len(p.judges) * perJudge
	est := make([]float64, nOut)
	all := make([]float64, nQ)
	for i := range all {
		all[i] = 1
	}
	estimate(p, all, perJudge, est, nil)
	var reps [][]float64
	// Without any estimate (no response graded by both a judge and
	// humans: a judge-only study) every interval is empty whatever the
	// replicates: none are drawn.
	if opt.Bootstrap > 0 && slices.ContainsFunc(est, func(v float64) bool { return !math.IsNaN(v) }) {
		var err error
		reps, err = stats.ClusterBootstrapCounts(ctx, nQ, opt.Bootstrap, opt.Seed, nOut, func() stats.CountStat {
			// per worker: the weights and the sums, reused
			w := make([]float64, nQ)
			var t []float64
			return func(cnt []int32, out []float64) {
				// Weights (draw counts), not the index list: the statistics
				// are then read in order, which keeps 40,000 questions in
				// cache.
				for q, c := range cnt {
					w[q] = float64(c)
				}
				t = estimate(p, w, perJudge, out, t)
			}
		})
		if err != nil {
			return Result{}, fmt.Errorf("judge audit: %w", err)
		}
	}
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("judge audit: %w", err)
	}
	iv := func(k int) (float64, float64) {
		if reps == nil || math.IsNaN(est[k]) {
			return math.NaN(), math.NaN()
		}
		jd := p.judges[k/perJudge]
		return stats.PercentileInterval(reps, k, ExpandedLevel(opt.Level, jd.nQuestions))
	}

	res.Attributes = append([]string(nil), p.attrs...)
	for ji, jd := range p.judges {
		base := ji * perJudge
		j := Judge{Judge: jd.id, Provider: jd.provider, Responses: int64(jd.responses), Questions: int64(jd.nQuestions)}
		rows := map[string]Bias{}
		for bi, b := range biases {
			e := est[base+bi]
			lo, hi := iv(base + bi)
			br := Bias{Name: b.name, Estimate: e, Lo: lo, Hi: hi, N: int64(count(jd, b.nStat)), Unit: b.unit, Null: b.null,
				Flagged: flagOf(b, lo, hi, e, opt) == "yes", Note: noteOf(p, jd, b.name, e, reps != nil)}
			rows[b.name] = br
			j.Biases = append(j.Biases, br)
		}
		for a, name := range p.attrs {
			k := base + len(biases) + a
			e := est[k]
			lo, hi := iv(k)
			note := ""
			if math.IsNaN(e) {
				note = "no response with this attribute scored by both the judge and humans"
			} else if reps == nil {
				note = "no interval: bootstrap = 0"
			}
			j.ByAttribute = append(j.ByAttribute, Bias{Name: Leniency, Attribute: name, Estimate: e, Lo: lo, Hi: hi,
				N: int64(count(jd, nFixed+2*a)), Unit: "rubric points", Null: 0, Flagged: flagOf(biases[0], lo, hi, e, opt) == "yes", Note: note})
		}
		j.Kappa = stats.CohenKappa(jd.solvedH, jd.solvedJ, []int{0, 1}, stats.KappaUnweighted)
		j.MacroF1 = math.NaN()
		if len(jd.solvedH) > 0 {
			j.MacroF1 = stats.MacroF1(jd.solvedH, jd.solvedJ, []int{0, 1})
		}
		j.Pairs = int64(len(jd.solvedH))
		j.Tau, j.TauN = div(jd.tauSum, jd.tauN), int64(jd.tauN)
		for _, b := range j.Biases {
			if b.Flagged {
				j.Flagged = append(j.Flagged, b.Name)
			}
		}
		j.Verdict = VerdictScale(jd.responses, j.Tau, j.Kappa, rows, opt.Thresholds, s.LowerIsBetter)
		res.Judges = append(res.Judges, j)
	}
	res.Thresholds = opt.Thresholds
	if nA == 0 {
		res.Notes = append(res.Notes, Note{Table: TableByAttribute, Reason: "the study has no rubric"})
	}
	if !p.humans {
		res.Warnings = append(res.Warnings, fmt.Sprintf("judge audit: no human gradings in round %s; the judges cannot be audited", p.round))
	}
	return res, nil
}

// ExpandedLevel is the percentile level that the interval of a bootstrap
// over n clusters uses for a nominal level: the expanded percentile
// interval (Hesterberg 2015), whose tail z = √(n/(n−1))·t_{n−1} replaces
// the normal quantile, since the plain percentile interval is too narrow
// for a few dozen clusters. For level 0.95 and n = 40 it gives 0.9595,
// for n = 400 0.9506. It returns level itself for n < 3.
func ExpandedLevel(level float64, n int) float64 {
	if n < 3 || !(level > 0 && level < 1) {
		return level
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile((1 + level) / 2)
	z := math.Sqrt(float64(n)/float64(n-1)) * t
	return 2*distuv.UnitNormal.CDF(z) - 1
}

// estimate fills out (length judges × perJudge) from the question weights
// w: w[q] is how often question q was drawn (1 each for the estimate
// itself). Each summed statistic is the dot product of w with that
// statistic's column over questions (gonum's floats.Dot, a fixed order of
// operations whatever the number of cores); all-zero columns are skipped.
// t is scratch space for the sums, grown when needed and returned.
func estimate(p *prepared, w []float64, perJudge int, out, t []float64) []float64 {
	for ji, jd := range p.judges {
		if cap(t) < len(jd.cols) {
			t = make([]float64, len(jd.cols))
		}
		t = t[:len(jd.cols)]
		for k, c := range jd.cols {
			t[k] = 0
			if c != nil {
				t[k] = floats.Dot(w, c)
			}
		}
		derive(t, out[ji*perJudge:(ji+1)*perJudge])
	}
	return t
}

// derive turns one judge's summed statistics t into its estimates o.
func derive(t, o []float64) {
	nan := math.NaN()
	for i := range o {
		o[i] = nan
	}
	len0 := lenientAt(t)
	o[0] = len0
	if sd := sdOf(t[sHn], t[sH1], t[sH2]); sd > 0 {
		o[1] = len0 / sd
	}
	o[2] = slope(t)
	if t[sOwnN] > 0 && t[sOthN] > 0 {
		o[3] = t[sOwn]/t[sOwnN] - t[sOth]/t[sOthN]
	}
	if t[sPfN] > 0 && t[sPoN] > 0 {
		o[4] = t[sPf]/t[sPfN] - t[sPo]/t[sPoN]
	}
	if sj, sh := sdOf(t[sN], t[sJ1], t[sJ2]), sdOf(t[sN], t[sM1], t[sM2]); sh > 0 && !math.IsNaN(sj) {
		o[5] = sj / sh
	}
	if t[sVu] > 0 {
		n := t[sVn]
		if den := n*t[sV2] - t[sV1]*t[sV1]; den > 0 {
			o[6] = 1 - (n-1)*t[sVw]/den
		}
		o[7] = t[sVmad] / t[sVu]
	}
	if t[sCn] > 0 {
		o[8] = t[sC] / t[sCn]
	}
	for a := 0; nFixed+2*a+1 < len(t); a++ {
		if n := t[nFixed+2*a]; n > 0 {
			o[len(biases)+a] = t[nFixed+2*a+1] / n
		}
	}
}

func lenientAt(t []float64) float64 {
	if t[sN] == 0 {
		return math.NaN()
	}
	return t[sR] / t[sN]
}

// sdOf is the sample SD (n − 1) from n, Σx and Σx²; NaN for n < 2.
func sdOf(n, s1, s2 float64) float64 {
	if n < 2 {
		return math.NaN()
	}
	v := (s2 - s1*s1/n) / (n - 1)
	return math.Sqrt(max(v, 0))
}

// slope is the least-squares slope of the residual on log2 length; NaN with
// fewer than 3 responses or no spread in length.
func slope(t []float64) float64 {
	n := t[sLn]
	if n < 3 {
		return math.NaN()
	}
	sxx := t[sLxx] - t[sLx]*t[sLx]/n
	if !(sxx > 1e-12*max(t[sLxx], 1)) {
		return math.NaN()
	}
	return (t[sLxy] - t[sLx]*t[sLy]/n) / sxx
}

// count is the number of units behind a bias for one judge: the sum of
// count column k (-1: self-preference's responses, -2: position's run
// gradings).
func count(jd *judgeData, k int) int {
	switch k {
	case -1:
		return jd.ownN + jd.othN
	case -2:
		return count(jd, sPfN) + count(jd, sPoN)
	}
	n := 0
	for _, v := range jd.cols[k] {
		n += int(v)
	}
	return n
}

func flagOf(b bias, lo, hi, e float64, opt Options) string {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsNaN(e) {
		return ""
	}
	switch b.name {
	case RerunMAD:
		return "no"
	case Rerun:
		if hi < opt.RerunAlpha {
			return "yes"
		}
		return "no"
	}
	if lo > b.null || hi < b.null {
		return "yes"
	}
	return "no"
}

// noteOf says why a row is empty, or what an estimate rests on.
func noteOf(p *prepared, jd *judgeData, name string, e float64, boot bool) string {
	if !math.IsNaN(e) {
		switch {
		case name == RerunMAD:
			return "descriptive: mean |difference| between two runs' rubric means; not flagged"
		case !boot:
			return "no interval: bootstrap = 0"
		}
		return ""
	}
	if jd.responses == 0 && name != ChecklistLeniency {
		if !p.humans {
			return "no human gradings in round " + p.round
		}
		return "no response graded by both the judge and humans in round " + p.round
	}
	switch name {
	case Leniency:
		return "no response graded by both the judge and humans"
	case LeniencyStd:
		return "the human rubric means do not vary (SD 0) or fewer than 2"
	case Length:
		switch {
		case jd.withText == 0:
			return "no response text in responses/ for the audited responses"
		case jd.withText < 3:
			return "fewer than 3 audited responses with text"
		case !jd.distinctLen:
			return "all audited responses have the same length"
		}
		return "response lengths do not vary"
	case SelfPreference:
		switch {
		case jd.provider == "":
			return "no provider given for the judge (provider column of evaluators)"
		case jd.modelsWithProvider == 0:
			return "no provider given for the models (provider column of models)"
		case jd.ownN == 0:
			return "no audited response from a model of the judge's provider " + jd.provider
		}
		return "no audited response from a model of another provider"
	case Position:
		if jd.withPos == 0 {
			return "no position given (position column in the judge's grading rows or in blinding)"
		}
		return "positions do not vary: every response was shown first, or none"
	case Scale:
		return "fewer than 2 audited responses, or the human response means do not vary"
	case Rerun, RerunMAD:
		if jd.withRuns == 0 {
			return "the judge has one run per response (run column)"
		}
		return "the runs' rubric means do not vary"
	case ChecklistLeniency:
		if !p.hasChk {
			return "the study has no checklist"
		}
		return "no response with checklist rates from both the judge and humans"
	}
	return ""
}

// Verdict puts a judge's audit in plain words from its Table 8 τ, its κ on
// solved/unsolved and its bias rows (by bias name), with the thresholds th.
// It is exported so that its wording can be tested and documented.
func Verdict(responses int, tau, kappa float64, rows map[string]Bias, th Thresholds) string {
	return VerdictScale(responses, tau, kappa, rows, th, false)
}

// VerdictScale is Verdict for a rubric whose better end is lower when
// lower is set ([rubric] direction = "lower", penalties): the estimates
// keep their sign (judge − human, in rubric points), and the words follow
// the scale: a judge giving lower penalties is lenient, one scoring its own
// provider lower favours it (by the points it takes off), a positive length
// slope rewards shorter responses.
func VerdictScale(responses int, tau, kappa float64, rows map[string]Bias, th Thresholds, lower bool) string {
	if responses == 0 {
		return "not audited: no response graded by both the judge and humans"
	}
	var rank, abs, small []string
	if math.IsNaN(tau) {
		rank = append(rank, "no Table 8 τ (needs 2 or more models per question)")
	} else if tau < th.Tau {
		rank = append(rank, fmt.Sprintf("orders models unlike the humans (τ %.2f < %.2f)", tau, th.Tau))
	}
	// The one rule: every flagged bias is named with its size; a material
	// one (beyond its threshold) counts against the use it affects, a
	// detectable one below its threshold is named as such and changes
	// nothing.
	for _, c := range verdictRules(th, lower) {
		r, ok := rows[c.bias]
		if !ok || !r.Flagged {
			continue
		}
		words := c.words(r.Estimate)
		switch {
		case c.material(r.Estimate) && c.ranking:
			rank = append(rank, words)
		case c.material(r.Estimate):
			abs = append(abs, words)
		default:
			small = append(small, words+", "+c.below)
		}
	}
	if math.IsNaN(kappa) {
		abs = append(abs, "no κ on solved/unsolved")
	} else if kappa < th.Kappa {
		abs = append(abs, fmt.Sprintf("agrees little with the humans on solved (κ %.2f < %.2f)", kappa, th.Kappa))
	}
	var v string
	switch {
	case len(rank) == 0 && len(abs) == 0:
		v = "usable for ranking and absolute scores"
	case len(rank) == 0:
		v = "usable for ranking, not for absolute scores: " + strings.Join(abs, "; ")
	case len(abs) == 0:
		v = "not usable for ranking: " + strings.Join(rank, "; ") + "; usable for absolute scores"
	default:
		v = "not usable for ranking or absolute scores: " + strings.Join(append(rank, abs...), "; ")
	}
	if len(small) > 0 {
		v += "; detectable but below the materiality thresholds: " + strings.Join(small, "; ")
	}
	return v
}

// verdictRule is how one bias enters the verdict: the use it affects,
// when it is material, its words with its size, and what a detectable
// but immaterial one is below.
type verdictRule struct {
	bias     string
	ranking  bool // counts against ranking (else absolute scores)
	material func(e float64) bool
	words    func(e float64) string
	below    string
}

// verdictRules are the rules of every bias the verdict speaks of, in the
// order it names them. leniency_std restates leniency in SD and rerun_mad
// is descriptive: neither has a rule of its own.
func verdictRules(th Thresholds, lower bool) []verdictRule {
	points := func(e float64) bool { return math.Abs(e) >= th.Points }
	pointsBelow := fmt.Sprintf("under %.2f points", th.Points)
	// better: e points in the direction of a better score
	better := func(e float64) bool { return e > 0 != lower }
	return []verdictRule{
		{SelfPreference, true, points, func(e float64) string {
			if lower {
				e = -e // lower scores favour
			}
			if e < 0 {
				return fmt.Sprintf("disfavours its own provider by %.2f points", -e)
			}
			return fmt.Sprintf("favours its own provider by %.2f points", e)
		}, pointsBelow},
		{Length, true, func(e float64) bool { return math.Abs(e) >= th.Length }, func(e float64) string {
			word := "longer"
			if (e < 0) != lower {
				word = "shorter"
			}
			return fmt.Sprintf("rewards %s responses (%+.2f points per doubling)", word, e)
		}, fmt.Sprintf("under %.2f per doubling", th.Length)},
		{Leniency, false, points, func(e float64) string {
			word := "lenient"
			if !better(e) {
				word = "severe"
			}
			return fmt.Sprintf("%s by %.2f points", word, math.Abs(e))
		}, pointsBelow},
		{Position, false, points, func(e float64) string {
			return fmt.Sprintf("scores the response shown first %+.2f points", e)
		}, pointsBelow},
		{Scale, false, func(e float64) bool { return e < th.ScaleLow || e > th.ScaleHigh }, func(e float64) string {
			word := "compresses"
			if e > 1 {
				word = "stretches"
			}
			return fmt.Sprintf("%s the scale (SD ratio %.2f)", word, e)
		}, fmt.Sprintf("within %.2f–%.2f", th.ScaleLow, th.ScaleHigh)},
		{Rerun, false, func(float64) bool { return true }, func(e float64) string {
			return fmt.Sprintf("its runs disagree (α between runs %.2f)", e)
		}, ""},
		{ChecklistLeniency, false, func(e float64) bool { return math.Abs(e) >= th.Rate }, func(e float64) string {
			return fmt.Sprintf("checklist rate off by %+.2f", e)
		}, fmt.Sprintf("under %.2f", th.Rate)},
	}
}

// VerdictWords are, per bias the verdict speaks of, words that every
// verdict of a judge flagged for that bias contains, material or not
// (leniency_std, leniency in SD, and rerun_mad, descriptive, have none).
// A test holds every verdict to them:
// no verdict may leave out a flagged bias or say that absolute scores
// agree with the humans.
var VerdictWords = map[string][]string{
	SelfPreference:    {"own provider"},
	Length:            {"responses ("},
	Leniency:          {"lenient by", "severe by"},
	Position:          {"shown first"},
	Scale:             {"the scale (SD ratio"},
	Rerun:             {"runs disagree"},
	ChecklistLeniency: {"checklist rate off by"},
}

// ContradictsFlags returns the ways verdict contradicts the flagged
// biases of its judge: a flagged bias it does not name (VerdictWords), a
// bias it names that is not flagged, or a claim that absolute scores agree
// with the humans. None for a consistent verdict.
func ContradictsFlags(flagged []string, verdict string) []string {
	var out []string
	is := map[string]bool{}
	for _, f := range flagged {
		is[f] = true
	}
	mentions := func(b string) bool {
		for _, w := range VerdictWords[b] {
			if strings.Contains(verdict, w) {
				return true
			}
		}
		return false
	}
	for _, f := range flagged {
		if _, ok := VerdictWords[f]; ok && !mentions(f) {
			out = append(out, fmt.Sprintf("flagged %s not named in %q", f, verdict))
		}
	}
	for b := range VerdictWords {
		if !is[b] && mentions(b) {
			out = append(out, fmt.Sprintf("%s named but not flagged in %q", b, verdict))
		}
	}
	if strings.Contains(verdict, "agree with the humans") {
		out = append(out, fmt.Sprintf("says absolute scores agree with the humans: %q", verdict))
	}
	sort.Strings(out)
	return out
}

// table8Tau averages, over questions, Kendall τ-b between the judge's
// rubric means and the mean-human rubric means across the question's
// models (Table 8's rubric llm_mean). Undefined τ (a constant side, fewer
// than 2 models) are left out and counted.
func table8Tau(us []tauUnit) (sum float64, n, undefined int) {
	sort.SliceStable(us, func(a, b int) bool {
		if us[a].q != us[b].q {
			return us[a].q < us[b].q
		}
		return us[a].model < us[b].model
	})
	for i := 0; i < len(us); {
		j := i
		for j < len(us) && us[j].q == us[i].q {
			j++
		}
		if j-i >= 2 {
			x := make([]float64, 0, j-i)
			y := make([]float64, 0, j-i)
			for _, u := range us[i:j] {
				x = append(x, u.j)
				y = append(y, u.h)
			}
			if tau := stats.KendallTau(x, y); !math.IsNaN(tau) {
				sum += tau
				n++
			} else {
				undefined++
			}
		}
		i = j
	}
	return sum, n, undefined
}
