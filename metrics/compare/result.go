package compare

import (
	"fmt"
	"math"
	"sort"
)

// Result is what Analyze produced, as typed values; report/tables.Compare
// presents it (the compare_* tables, judge_drift, pairwise_judge_drift
// and the OLD → NEW and trend figures). Undefined numbers are NaN.
type Result struct {
	// Labels are the runs' labels in command-line order: Labels[0] is OLD,
	// the last NEW.
	Labels []string
	// Populations are the grader populations of OLD and NEW (humans first,
	// then judge:<id>); the figures draw the first.
	Populations []string
	// Alpha is the family-wise error rate behind the flags.
	Alpha float64
	// Margins are the non-inferiority margins (Options.Margins); none: the
	// models' rows have no non-inferiority columns.
	Margins map[string]float64
	// Models are the rows of compare_models.
	Models []ModelRow
	// Questions are the rows of compare_questions, biggest regressions
	// first.
	Questions []QuestionRow
	// Drift are the rows of judge_drift, one per judge of both runs.
	Drift []DriftRow
	// Rankings are the rows of compare_rankings.
	Rankings []RankRow
	// Matching are the rows of compare_matching.
	Matching []MatchRow
	// Trend are the rows of compare_trend (three runs or more).
	Trend []TrendRow
	// Pairwise are the rows of compare_pairwise, PairwiseDrift those of
	// pairwise_judge_drift; none when no population judged pairs in both
	// runs.
	Pairwise      []PairwiseRow
	PairwiseDrift []PairwiseDriftRow
	// Notes say what a table lacks and why.
	Notes []Note
	// Warnings name what exists in one run only, solve rules that differ,
	// judges that drifted and rows that fail non-inferiority.
	Warnings []string
}

// Old and New are the labels of the compared runs.
func (r Result) Old() string { return r.Labels[0] }

// New is the label of the last run (NEW).
func (r Result) New() string { return r.Labels[len(r.Labels)-1] }

// Note says why a table is empty or partial.
type Note struct {
	// Table is the table concerned.
	Table string
	// Reason is the explanation shown with it.
	Reason string
}

// ModelRow is one row of compare_models: a model's metric for one grader
// population in OLD and NEW and the change.
type ModelRow struct {
	Model, Metric, Graders string
	// Old and New are the metric in each run (NaN without gradings there),
	// OldLo … NewHi their own bootstrap intervals.
	Old, New                   float64
	OldLo, OldHi, NewLo, NewHi float64
	// Delta is New − Old with its cluster-robust t interval [Lo, Hi].
	Delta, Lo, Hi float64
	// Paired says the model has gradings of this population on questions
	// of both runs; SharedQuestions counts them, and SameResponses those
	// of them whose response text is the same in both runs (the same
	// response graded again, not a new one to the same question).
	Paired          bool
	SharedQuestions int64
	SameResponses   int64
	// P is the change's two-sided p-value, PHolm its Holm adjustment
	// across the table; Flagged is PHolm < Alpha (Holm's step-down).
	P, PHolm float64
	Flagged  bool
	// Margin is the metric's non-inferiority margin (NaN: none),
	// ImprovementLo the one-sided lower bound of the improvement and
	// PNonInferior its p-value; NonInferior and Equivalent are the
	// verdicts, defined when ImprovementLo is not NaN.
	Margin, ImprovementLo, PNonInferior float64
	NonInferior, Equivalent             bool
}

// QuestionRow is one row of compare_questions: a question and model's
// share of solving gradings in each run.
type QuestionRow struct {
	QuestionID, Model, Graders string
	// OldShare and NewShare are the shares (NaN when not graded in that
	// run); Delta is NewShare − OldShare.
	OldShare, NewShare, Delta float64
	// Change is regressed, improved, same, only_old or only_new.
	Change string
	// OldChars and NewChars are the responses' lengths in code points, −1
	// when absent.
	OldChars, NewChars int64
	// TextKnown says both runs have the response text; SameText that the
	// texts are equal (SHA-256).
	TextKnown, SameText bool
	// OldPage and NewPage are the question's pages in the runs' sites
	// ("" when not given or not graded there).
	OldPage, NewPage string
}

// DriftRow is one row of judge_drift: a judge's scores of the same
// responses in OLD and NEW.
type DriftRow struct {
	Judge string
	// Responses are the responses with the same text graded in both runs,
	// Questions their questions, TextChanged those left out.
	Responses, Questions, TextChanged int64
	// OldRubric and NewRubric are the judge's mean rubric scores, Diff the
	// mean change with its t interval [Lo, Hi].
	OldRubric, NewRubric, Diff, Lo, Hi float64
	// Kappa is Cohen's κ of the solved verdicts between the runs,
	// FlippedShare the share whose verdict differs.
	Kappa, FlippedShare float64
	// P is Diff's p-value, PHolm its Holm adjustment across the judges,
	// Flagged that the judge drifted.
	P, PHolm float64
	Flagged  bool
}

// RankRow is one row of compare_rankings.
type RankRow struct {
	Graders, Model        string
	OldRank, OldLo, OldHi float64
	NewRank, NewLo, NewHi float64
	// Flipped are the models whose order relative to this one is reversed
	// in NEW; Significant those whose gap change is significant.
	Flipped, Significant []string
}

// MatchRow is one row of compare_matching: what is in one run only, or a
// rename.
type MatchRow struct {
	// Kind is model, question, human evaluator or judge.
	Kind, ID string
	// OnlyIn is old or new ("" for a rename).
	OnlyIn, Note string
}

// TrendRow is one row of compare_trend: a metric in one run.
type TrendRow struct {
	Graders, Model, Metric string
	// Run is the run's position (0 = first), Label its label.
	Run   int
	Label string
	// Value with its bootstrap interval [Lo, Hi].
	Value, Lo, Hi float64
}

// PairwiseRow is one row of compare_pairwise.
type PairwiseRow struct {
	Graders, Model, Metric string
	// NOld and NNew are the model's judgments in each run.
	NOld, NNew int64
	// Old, New and Delta with the paired bootstrap interval [Lo, Hi] of
	// Delta and its normal-approximation p-value P; Significant after
	// Holm over every row.
	Old, New, Delta, Lo, Hi, P float64
	Significant                bool
}

// PairwiseDriftRow is one row of pairwise_judge_drift.
type PairwiseDriftRow struct {
	Judge          string
	Items, Changed int64
	// Agreement and Kappa of the judge with itself, with bootstrap
	// intervals; F1 is the symmetric macro F1.
	Agreement, AgreementLo, AgreementHi float64
	Kappa, KappaLo, KappaHi             float64
	F1                                  float64
}

// result gathers the typed rows, notes and warnings.
func (c *comparison) result() Result {
	r := Result{Populations: c.pops, Alpha: c.opt.Alpha, Margins: c.opt.Margins}
	for _, d := range c.rd {
		r.Labels = append(r.Labels, d.run.Label)
	}
	p := make([]float64, len(c.modelRows))
	for i, m := range c.modelRows {
		p[i] = m.p
	}
	adj := holmAdjusted(p)
	for i, m := range c.modelRows {
		r.Models = append(r.Models, ModelRow{Model: m.model, Metric: m.metric, Graders: m.pop, Old: m.old, New: m.new,
			OldLo: m.oldLo, OldHi: m.oldHi, NewLo: m.newLo, NewHi: m.newHi, Delta: m.delta, Lo: m.lo, Hi: m.hi,
			Paired: m.paired, SharedQuestions: int64(m.shared), SameResponses: int64(m.sameResp), P: m.p, PHolm: adj[i], Flagged: m.flagged,
			Margin: m.margin, ImprovementLo: m.niLo, PNonInferior: m.niP, NonInferior: m.nonInferior, Equivalent: m.equivalent})
	}
	r.Questions = c.questions()
	p = make([]float64, len(c.drift))
	for i, d := range c.drift {
		p[i] = d.p
	}
	adj = holmAdjusted(p)
	for i, d := range c.drift {
		r.Drift = append(r.Drift, DriftRow{Judge: d.judge, Responses: int64(d.n), Questions: int64(d.nQ), TextChanged: int64(d.nChanged),
			OldRubric: d.oldMean, NewRubric: d.newMean, Diff: d.diff, Lo: d.lo, Hi: d.hi, Kappa: d.kappa, FlippedShare: d.flipped,
			P: d.p, PHolm: adj[i], Flagged: d.flagged})
	}
	for _, k := range c.rankRows {
		r.Rankings = append(r.Rankings, RankRow{Graders: k.pop, Model: k.model, OldRank: k.oldRank, OldLo: k.oldLo, OldHi: k.oldHi,
			NewRank: k.newRank, NewLo: k.newLo, NewHi: k.newHi, Flipped: k.flipped, Significant: k.significant})
	}
	for _, m := range c.matching() {
		r.Matching = append(r.Matching, MatchRow{Kind: m.kind, ID: m.id, OnlyIn: m.onlyIn, Note: m.note})
	}
	for _, t := range c.trend {
		r.Trend = append(r.Trend, TrendRow{Graders: t.pop, Model: t.model, Metric: t.metric, Run: t.run, Label: c.rd[t.run].run.Label,
			Value: t.value, Lo: t.lo, Hi: t.hi})
	}
	for _, w := range c.pwRows {
		r.Pairwise = append(r.Pairwise, PairwiseRow{Graders: w.pop, Model: w.model, Metric: w.metric, NOld: w.n[0], NNew: w.n[1],
			Old: w.old, New: w.new, Delta: w.delta, Lo: w.lo, Hi: w.hi, P: w.p, Significant: w.significant})
	}
	for _, d := range c.pwDrift {
		r.PairwiseDrift = append(r.PairwiseDrift, PairwiseDriftRow{Judge: d.judge, Items: d.items, Changed: d.changed,
			Agreement: d.agree, AgreementLo: d.agreeLo, AgreementHi: d.agreeHi, Kappa: d.kappa, KappaLo: d.kappaLo, KappaHi: d.kappaHi, F1: d.f1})
	}
	r.Warnings = append(c.warnings, c.marginWarnings()...)
	if len(c.drift) == 0 {
		r.Notes = append(r.Notes, Note{Table: DriftTable, Reason: "no judge graded the main round of both runs"})
	}
	if len(c.rd) >= 3 {
		r.Notes = append(r.Notes, Note{Table: ModelsTable, Reason: fmt.Sprintf(
			"%d runs: compare_models, compare_questions, judge_drift and compare_rankings compare the first (%s) with the last (%s); compare_trend has every run",
			len(c.rd), c.old.run.Label, c.new.run.Label)})
	}
	if c.opt.Bootstrap == 0 {
		r.Notes = append(r.Notes, Note{Table: ModelsTable, Reason: "bootstrap = 0: no rank intervals and no per-run intervals (the changes are tested without replicates)"})
	}
	return r
}

// marginWarnings says which rows with a margin fail non-inferiority: NEW
// may be worse than OLD by more than the margin.
func (c *comparison) marginWarnings() []string {
	var out []string
	for _, r := range c.modelRows {
		if math.IsNaN(r.niLo) || r.nonInferior {
			continue
		}
		out = append(out, fmt.Sprintf("%s (%s): %s may be worse in %s than in %s by more than the margin %s (one-sided %g %% lower bound of the improvement %s)",
			r.model, r.pop, r.metric, c.new.run.Label, c.old.run.Label, marginText(r.metric, r.margin), 100*(1-c.opt.Alpha), marginText(r.metric, r.niLo)))
	}
	return out
}

// marginText writes a margin or bound in the metric's units: percentage
// points for rates, else the number.
func marginText(metric string, v float64) string {
	if metric == "rubric" || metric == "avg_rank" {
		return fmt.Sprintf("%.3g", v)
	}
	return fmt.Sprintf("%.3g pp", 100*v)
}

// questions are the rows of compare_questions: per question and model,
// the share of the population's gradings (humans, or the first population
// when neither run has human gradings) that solve it in each run, biggest
// regressions first.
func (c *comparison) questions() []QuestionRow {
	pn := Humans
	if c.old.pops[pn] == nil && c.new.pops[pn] == nil && len(c.pops) > 0 {
		pn = c.pops[0]
	}
	a, b := c.old.pops[pn], c.new.pops[pn]
	qs := map[string]bool{}
	for _, pp := range []*pop{a, b} {
		if pp != nil {
			for _, q := range pp.qIDs {
				qs[q] = true
			}
		}
	}
	share := func(d *runData, pp *pop, q, model string) float64 {
		if pp == nil {
			return math.NaN()
		}
		qi, ok := pp.qIdx[q]
		m, ok2 := d.mIdx[model]
		if !ok || !ok2 || !pp.perQM[[2]int{qi, m}] {
			return math.NaN()
		}
		acc := pp.acc[(qi*len(d.models)+m)*acLen:]
		return acc[acSolved] / acc[acSolvedN]
	}
	var rows []QuestionRow
	for q := range qs {
		for _, m := range c.models {
			o, n := share(c.old, a, q, m), share(c.new, b, q, m)
			if math.IsNaN(o) && math.IsNaN(n) {
				continue
			}
			change := "same"
			switch {
			case math.IsNaN(o):
				change = "only_new"
			case math.IsNaN(n):
				change = "only_old"
			case n < o:
				change = "regressed"
			case n > o:
				change = "improved"
			}
			k := [2]string{q, m}
			chars := func(d *runData) int64 {
				if v, ok := d.respChars[k]; ok {
					return int64(v)
				}
				return -1
			}
			ha, okA := c.old.respHash[k]
			hb, okB := c.new.respHash[k]
			page := func(r Run, v float64) string {
				if r.Pages == nil || math.IsNaN(v) {
					return ""
				}
				return r.Pages(q)
			}
			rows = append(rows, QuestionRow{QuestionID: q, Model: m, Graders: pn, OldShare: o, NewShare: n, Delta: n - o, Change: change,
				OldChars: chars(c.old), NewChars: chars(c.new), TextKnown: okA && okB, SameText: okA && okB && ha == hb,
				OldPage: page(c.old.run, o), NewPage: page(c.new.run, n)})
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		x, y := rows[i], rows[j]
		xn, yn := math.IsNaN(x.Delta), math.IsNaN(y.Delta)
		if xn != yn {
			return !xn
		}
		if !xn && x.Delta != y.Delta {
			return x.Delta < y.Delta
		}
		if x.QuestionID != y.QuestionID {
			return x.QuestionID < y.QuestionID
		}
		return x.Model < y.Model
	})
	return rows
}

// holmAdjusted returns Holm-adjusted p-values (NaN stays NaN).
func holmAdjusted(p []float64) []float64 {
	out := make([]float64, len(p))
	copy(out, p)
	if len(p) == 0 {
		return out
	}
	return holm(p)
}
