// Package findings writes a report's headline findings as plain sentences
// and a Methods paragraph ready to paste into a paper. Every number in them
// is read from the report's tables (summary, pairwise_significance,
// reliability, judge_audit, models) and the study settings; nothing is
// computed here beyond choosing and ordering rows. The site's index and the
// workbook's first sheet open with them.
//
// The sentences, in order:
//
//   - the winner by Solve Rate (human gradings, all questions) with its 95 %
//     interval, and the models it is ahead of after Holm's adjustment
//     (pairwise_significance, test paired_solve_rate, column significant);
//   - the tie groups: models that share a letter of the compact letter
//     display (summary column group_solve_rate) cannot be told apart;
//   - the leader by mean rubric score, in rubric points with its interval;
//   - the reliability verdict: Krippendorff's α (interval) of the human mean
//     rubric score with its band — ≥ .800 reliable, .667 to .800 tentative,
//     below .667 not reliable (Krippendorff 2004);
//   - the judge audit verdict per judge when a judge_audit table exists;
//   - small-sample warnings (fewer than 30 questions, one human grader).
package findings

import (
	"fmt"
	"math"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/format"
)

// Reliability bands of Krippendorff's α (Krippendorff 2004, §11.4).
const (
	// Reliable is the lowest α from which data count as reliable.
	Reliable = 0.800
	// Tentative is the lowest α from which tentative conclusions are
	// acceptable.
	Tentative = 0.667
)

// SmallQuestions is the number of questions below which a small-sample
// warning is given.
const SmallQuestions = 30

// Finding is one headline sentence.
type Finding struct {
	// Topic is one of "primary" (the leader by a primary metric other than
	// Solve Rate and rubric), "leader" (the leader of a leaderboard of
	// judges or pairwise judgments, with its gap), "winner", "ties",
	// "rubric", "reliability", "judges", "sample", "pairwise" (style
	// control changes the order).
	Topic string
	// Text is the sentence, plain text (the writers escape it).
	Text string
}

// Findings are the headline sentences and the Methods paragraph.
type Findings struct {
	Headlines []Finding
	// Methods is one paragraph describing design, sample sizes, rubric and
	// thresholds, interval method, replicates, seed and software versions.
	Methods string
}

// Model is one row of the headline ranking: the human Solve Rate of a model
// on all questions, in the order the report shows it.
type Model struct {
	ID, Name  string // model id and display name (the id when none)
	Rank      int    // 1 = highest Solve Rate; equal rates share a rank
	SolveRate float64
	Lo, Hi    float64 // the Solve Rate's 95 % interval
	Rubric    float64 // mean rubric score, points
	RubricLo  float64
	RubricHi  float64
	Questions int64
	Gradings  int64
	Group     string // compact letter display (Solve Rate)
	// Value is the model's value of the metric it is ordered by (the
	// Solve Rate in Ranking, the primary metric in RankingBy).
	Value float64
}

// Ranking returns the models of the summary table's human rows on all
// questions, ordered by Solve Rate (highest first, then by id). It is empty
// when the report has no summary table.
func Ranking(r *report.Report) []Model {
	t := r.Table("summary")
	if t == nil {
		return nil
	}
	c := cols(t)
	names := DisplayNames(r)
	var out []Model
	for _, row := range t.Rows {
		if c.has("set") && str(row, c.i("set")) != "all" {
			continue
		}
		if c.has("graders") && str(row, c.i("graders")) != "humans" {
			continue
		}
		id := str(row, c.i("model"))
		m := Model{ID: id, Name: names.Name(id),
			SolveRate: num(row, c, "solve_rate"), Lo: num(row, c, "solve_rate_lo"), Hi: num(row, c, "solve_rate_hi"),
			Rubric: num(row, c, "rubric"), RubricLo: num(row, c, "rubric_lo"), RubricHi: num(row, c, "rubric_hi"),
			Questions: integer(row, c, "n_questions"), Gradings: integer(row, c, "n_gradings"),
			Group: str(row, c.i("group_solve_rate"))}
		m.Value = m.SolveRate
		out = append(out, m)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].SolveRate, out[j].SolveRate
		if math.IsNaN(a) != math.IsNaN(b) {
			return !math.IsNaN(a)
		}
		if a != b {
			return a > b
		}
		return out[i].ID < out[j].ID
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].SolveRate == out[i-1].SolveRate {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

// Names maps model ids to display names.
type Names map[string]string

// Name is the display name of id, or id.
func (n Names) Name(id string) string {
	if d := n[id]; d != "" {
		return d
	}
	return id
}

// DisplayNames reads the models table's display_name column.
func DisplayNames(r *report.Report) Names {
	out := Names{}
	t := r.Table("models")
	if t == nil {
		return out
	}
	c := cols(t)
	if !c.has("model") || !c.has("display_name") {
		return out
	}
	for _, row := range t.Rows {
		if d := str(row, c.i("display_name")); d != "" {
			out[str(row, c.i("model"))] = d
		}
	}
	return out
}

// Make writes the findings of r.
func Make(r *report.Report) Findings {
	var f Findings
	add := func(topic, format string, a ...any) {
		f.Headlines = append(f.Headlines, Finding{Topic: topic, Text: fmt.Sprintf(format, a...)})
	}
	if cs := WhatChanged(r); cs.Found {
		add("changes", "%s", cs.Sentence())
	}
	models := Ranking(r)
	if c := ConstantSolveRate(r); c != "" && len(models) > 1 {
		// a Solve Rate equal for every model separates nothing: no test,
		// no leader, one sentence that says why
		why := "no response meets the Solve rule"
		if c == "100 %" {
			why = "every response meets the Solve rule"
		}
		see := "the mean rubric score"
		switch {
		case Has(r, "rubric") && Has(r, "checklist"):
			see = "the mean rubric score and the checklist rate"
		case Has(r, "checklist"):
			see = "the checklist rate"
		}
		add("winner", "Every model's Solve Rate is %s: %s (%s), so the Solve Rate does not separate the models; see %s.", c, why, solveRuleWords(r), see)
	} else if len(models) > 0 && !math.IsNaN(models[0].SolveRate) {
		w := models[0]
		head := fmt.Sprintf("%s has the highest Solve Rate, %s", w.Name, format.Percent(w.SolveRate))
		if !math.IsNaN(w.Lo) && !math.IsNaN(w.Hi) {
			head += " " + format.RateInterval(w.Lo, w.Hi)
		}
		ahead, notAhead, mde, tested := against(r, w, models)
		power := ""
		if mde > 0 {
			power = fmt.Sprintf(" At this study's size the tests detect Solve Rate differences of about %s or more (80 %% power; median over the pairs not separated).", strings.TrimPrefix(format.PercentPoints(mde), "+"))
		}
		switch {
		case len(models) == 1:
			add("winner", "%s; it is the only model graded.", head)
		case !tested:
			add("winner", "%s; no pairwise tests were run, so its lead is not tested.", head)
		case len(notAhead) == 0:
			add("winner", "%s; it is ahead of every other model (Holm-adjusted paired tests with questions as clusters, α = 0.05).", head)
		case len(ahead) == 0:
			add("winner", "%s, but it is not significantly ahead of any other model (Holm-adjusted paired tests with questions as clusters, α = 0.05): the study does not separate the models.%s", head, power)
		case len(notAhead) <= len(ahead):
			add("winner", "%s; it is ahead of every model except %s (Holm-adjusted paired tests with questions as clusters, α = 0.05).%s", head, list(notAhead), power)
		default:
			add("winner", "%s; it is significantly ahead of %s only (Holm-adjusted paired tests with questions as clusters, α = 0.05).%s", head, list(ahead), power)
		}
		if s := ties(models); s != "" {
			add("ties", "%s", s)
		}
	}
	if len(models) > 0 {
		lower := setting(r, "rubric.direction") == "lower"
		best := -1
		for i, m := range models {
			if !math.IsNaN(m.Rubric) && (best < 0 || m.Rubric > models[best].Rubric != lower && m.Rubric != models[best].Rubric) {
				best = i
			}
		}
		if best >= 0 {
			m := models[best]
			iv := ""
			if !math.IsNaN(m.RubricLo) && !math.IsNaN(m.RubricHi) {
				iv = " " + format.PointsInterval(m.RubricLo, m.RubricHi)
			}
			if lower {
				add("rubric", "By mean %s, %s leads with the lowest, %s points%s%s (fewer penalty points are better).", measure(r), m.Name, format.Points(m.Rubric), iv, scale(r))
			} else {
				add("rubric", "By mean rubric score, %s leads with %s points%s%s.", m.Name, format.Points(m.Rubric), iv, scale(r))
			}
		}
	}
	if s := raterAdjusted(r); s != "" {
		add("graders", "%s", s)
	}
	for _, s := range styleControl(r) {
		add("pairwise", "%s", s)
	}
	if s := reliability(r); s != "" {
		add("reliability", "%s", s)
	} else if r.Overview.HumanGraders > 1 && alphaUndefined(r) {
		add("reliability", "%s", notMeasured(r))
	}
	for _, s := range judgeAudit(r) {
		add("judges", "%s", s)
	}
	for _, s := range small(r, models) {
		add("sample", "%s", s)
	}
	f.Headlines = primaryFirst(r, f.Headlines, models)
	f.Headlines = withGap(r, f.Headlines)
	f.Methods = methods(r)
	return f
}

// primaryFirst puts the finding on the primary metric first, when it is
// not the Solve Rate: the rubric finding, or for the checklist, pairwise
// judgments and PRBench a finding naming the leader by that metric.
func primaryFirst(r *report.Report, hs []Finding, models []Model) []Finding {
	p := PrimaryOf(r)
	switch p.Key {
	case "solve_rate":
		return hs
	case "rubric":
		for i, h := range hs {
			if h.Topic == "rubric" {
				return append([]Finding{h}, append(hs[:i:i], hs[i+1:]...)...)
			}
		}
		return hs
	}
	if len(models) == 0 {
		return hs
	}
	by := RankingBy(r, p)
	if math.IsNaN(by[0].Value) {
		return hs
	}
	lead := Finding{Topic: "primary", Text: fmt.Sprintf("By %s, %s leads with %s.", p.Label, by[0].Name, p.FormatPrimary(by[0].Value))}
	return append([]Finding{lead}, hs...)
}

// withGap makes the first finding state the leader's gap to the
// runner-up (LeaderGap) on the leaderboard's metric: appended to the
// leader's finding when the first finding is it, else as a finding of its
// own ahead of the others (a study whose leaderboard is a judge's or a
// pairwise population's).
func withGap(r *report.Report, hs []Finding) []Finding {
	b := Leaderboard(r)
	g, ok := LeaderGap(r, b)
	if !ok {
		return hs
	}
	if len(hs) > 0 && strings.Contains(hs[0].Text, "the tests detect") {
		g.SkipMDE = true
	}
	s := g.Sentence(b)
	if len(hs) > 0 && b.Who == "human graders" && b.Key == PrimaryOf(r).Key &&
		(hs[0].Topic == "winner" || hs[0].Topic == "primary" || hs[0].Topic == "rubric") && strings.Contains(hs[0].Text, g.Leader.Name) {
		hs[0].Text += " " + s
		return hs
	}
	lead := Finding{Topic: "leader", Text: fmt.Sprintf("By %s (%s, %s), %s leads with %s. %s", b.Metric, b.Who, b.Scope, g.Leader.Name, b.ValueText(g.Leader), s)}
	return append([]Finding{lead}, hs...)
}

// against splits the other models into those the winner is significantly
// ahead of and the rest, from pairwise_significance (paired_solve_rate),
// with the median minimum detectable effect (column mde) of the tests the
// winner is not ahead in (NaN when none has one).
func against(r *report.Report, w Model, models []Model) (ahead, notAhead []string, mde float64, tested bool) {
	mde = math.NaN()
	t := r.Table("pairwise_significance")
	if t == nil {
		return nil, nil, mde, false
	}
	c := cols(t)
	sig := map[string]string{}
	mdes := map[string]float64{}
	for _, row := range t.Rows {
		if c.has("test") && str(row, c.i("test")) != "paired_solve_rate" {
			continue
		}
		a, b := str(row, c.i("model_a")), str(row, c.i("model_b"))
		s := strings.ToLower(fmt.Sprint(at(row, c.i("significant"))))
		other := ""
		switch w.ID {
		case a:
			other = b
		case b:
			other = a
		default:
			continue
		}
		sig[other] = s
		if c.has("mde") {
			mdes[other] = num(row, c, "mde")
		}
	}
	if len(sig) == 0 {
		return nil, nil, mde, false
	}
	var ms []float64
	for _, m := range models[1:] {
		if sig[m.ID] == "true" {
			ahead = append(ahead, m.Name)
		} else {
			notAhead = append(notAhead, m.Name)
			if v, ok := mdes[m.ID]; ok && !math.IsNaN(v) {
				ms = append(ms, v)
			}
		}
	}
	if len(ms) > 0 {
		sort.Float64s(ms)
		mde = ms[len(ms)/2]
		if len(ms)%2 == 0 {
			mde = (ms[len(ms)/2-1] + ms[len(ms)/2]) / 2
		}
	}
	return ahead, notAhead, mde, true
}

// ties describes the groups of the compact letter display.
func ties(models []Model) string {
	groups := map[rune][]string{}
	var letters []rune
	for _, m := range models {
		for _, l := range m.Group {
			if groups[l] == nil {
				letters = append(letters, l)
			}
			groups[l] = append(groups[l], m.Name)
		}
	}
	if len(letters) == 0 {
		return ""
	}
	sort.Slice(letters, func(i, j int) bool { return letters[i] < letters[j] })
	if len(letters) == 1 && len(groups[letters[0]]) == len(models) {
		return fmt.Sprintf("All %d models share one group: no two differ significantly in Solve Rate.", len(models))
	}
	var parts []string
	for _, l := range letters {
		if len(groups[l]) > 1 {
			parts = append(parts, fmt.Sprintf("{%s}", strings.Join(groups[l], ", ")))
		}
	}
	if len(parts) == 0 {
		return "Every model's Solve Rate differs significantly from every other's (no tie groups)."
	}
	return "Models that cannot be told apart by Solve Rate (tie groups; they share a letter): " + strings.Join(parts, "; ") + "."
}

// Band names the reliability band of an α.
func Band(alpha float64) string {
	switch {
	case math.IsNaN(alpha):
		return "undefined"
	case alpha >= Reliable:
		return "reliable (α ≥ .800)"
	case alpha >= Tentative:
		return "tentative (.667 ≤ α < .800)"
	default:
		return "not reliable (α < .667)"
	}
}

// reliability reads the human α of the mean rubric score (else the
// checklist's).
func reliability(r *report.Report) string {
	t := r.Table("reliability")
	if t == nil {
		return ""
	}
	c := cols(t)
	for _, want := range []struct{ inst, stat, what string }{
		{"rubric_mean", "alpha_interval", "the mean rubric score"},
		{"checklist", "alpha_nominal", "checklist verdicts"},
	} {
		for _, row := range t.Rows {
			if str(row, c.i("instrument")) != want.inst || str(row, c.i("population")) != "humans" || str(row, c.i("statistic")) != want.stat {
				continue
			}
			v := num(row, c, "value")
			if math.IsNaN(v) {
				continue
			}
			return fmt.Sprintf("Human graders' agreement on %s is %s: Krippendorff's α = %s [%s, %s] over %d units and %d graders.",
				want.what, Band(v), strconv.FormatFloat(v, 'f', 3, 64),
				strconv.FormatFloat(num(row, c, "lo"), 'f', 3, 64), strconv.FormatFloat(num(row, c, "hi"), 'f', 3, 64),
				integer(row, c, "n_units"), integer(row, c, "n_graders"))
		}
	}
	return ""
}

// judgeAudit reads one verdict per judge from the judge_audit table.
func judgeAudit(r *report.Report) []string {
	t := r.Table("judge_audit")
	if t == nil {
		return nil
	}
	c := cols(t)
	if !c.has("verdict") {
		return nil
	}
	var out []string
	for _, row := range t.Rows {
		v := str(row, c.i("verdict"))
		if v == "" {
			continue
		}
		j := str(row, c.i("judge"))
		if j == "" {
			out = append(out, "Judge audit: "+v)
		} else {
			out = append(out, "Judge audit, "+j+": "+v)
		}
	}
	return out
}

func small(r *report.Report, models []Model) []string {
	var out []string
	q := r.Overview.Questions
	if len(models) > 0 && models[0].Questions > 0 {
		q = int(models[0].Questions)
	}
	if q > 0 && q < SmallQuestions {
		out = append(out, fmt.Sprintf("Small sample: only %d questions, so intervals are wide and differences of a few points are not meaningful.", q))
	}
	if r.Overview.HumanGraders == 1 {
		out = append(out, "One human grader only: agreement between graders cannot be measured and every score rests on one person.")
	}
	return out
}

func setting(r *report.Report, key string) string {
	for _, kv := range r.Settings {
		if kv.Key == key {
			return kv.Value
		}
	}
	return ""
}

// scale says the rubric scale from the settings: " on the 1–5 scale",
// " on the 0–25 scale in steps of 0.1, lower is better".
func scale(r *report.Report) string {
	lo, hi := setting(r, "rubric.min"), setting(r, "rubric.max")
	if lo == "" || hi == "" {
		return ""
	}
	s := " on the " + lo + "–" + hi + " scale"
	if st := setting(r, "rubric.step"); st != "" {
		s += " in steps of " + st
	}
	if setting(r, "rubric.direction") == "lower" {
		s += ", lower is better"
	}
	return s
}

// measure names the rubric mean: the attribute when the rubric has one
// ("MQM"), else "rubric score".
func measure(r *report.Report) string {
	if a := setting(r, "rubric.attributes"); a != "" && !strings.Contains(a, ", ") {
		return a
	}
	return "rubric score"
}

// methods writes the Methods paragraph.
func methods(r *report.Report) string {
	o := r.Overview
	var b strings.Builder
	fmt.Fprintf(&b, "We evaluated %d models on %d questions", o.Models, o.Questions)
	if o.Domains > 0 {
		fmt.Fprintf(&b, " from %d domains", o.Domains)
	}
	if o.HumanLabel != "" {
		fmt.Fprintf(&b, ", with expert-written answers graded alongside them as “%s”", o.HumanLabel)
	}
	switch {
	case o.HumanGraders == 0 && o.Judges > 0 && instrumentsKnown(r):
		fmt.Fprintf(&b, ". %s graded the responses, and no human grader", plural(o.Judges, "LLM judge", "LLM judges"))
	case o.HumanGraders == 0 && o.Judges == 0 && instrumentsKnown(r):
		b.WriteString(".") // graded only by pairwise judgments or criterion grades, said below
	default:
		fmt.Fprintf(&b, ". %s graded the responses", plural(o.HumanGraders, "human expert", "human experts"))
		if o.Judges > 0 {
			fmt.Fprintf(&b, ", and %s graded them too", plural(o.Judges, "LLM judge", "LLM judges"))
		}
	}
	switch {
	case o.HumanGraders == 0 && o.Judges == 0 && instrumentsKnown(r):
	case o.HumanGraders == 0 && instrumentsKnown(r):
		fmt.Fprintf(&b, " (%d judge gradings).", o.JudgeGradings)
	case o.HumanGradings+o.JudgeGradings != o.Gradings:
		fmt.Fprintf(&b, " (%d gradings in all).", o.Gradings) // a report without the split (compare)
	case o.Judges > 0:
		fmt.Fprintf(&b, " (%d human and %d judge gradings).", o.HumanGradings, o.JudgeGradings)
	default:
		fmt.Fprintf(&b, " (%d gradings).", o.HumanGradings)
	}
	rubric, checklist := Has(r, "rubric"), Has(r, "checklist")
	attrs := setting(r, "rubric.attributes")
	switch {
	case rubric && checklist && attrs != "":
		fmt.Fprintf(&b, " Each response was scored on a rubric of %s%s", attrs, scale(r))
		b.WriteString(" and checked against a per-question checklist.")
	case rubric && attrs != "":
		fmt.Fprintf(&b, " Each response was scored on a rubric of %s%s.", attrs, scale(r))
	case checklist:
		b.WriteString(" Each response was checked against a per-question checklist.")
	}
	rt, ct := setting(r, "solve.rubric_threshold"), setting(r, "solve.checklist_threshold")
	cp := ct
	if v, err := strconv.ParseFloat(ct, 64); err == nil {
		cp = strconv.FormatFloat(v*100, 'f', -1, 64) + " %"
	}
	pc := ""
	if p := setting(r, "solve.partial_credit"); p != "" {
		pc = fmt.Sprintf(" (a partial verdict counts %s)", p)
	}
	least := "at least"
	if setting(r, "rubric.direction") == "lower" {
		least = "at most"
	}
	solve, rule := true, true
	switch {
	case rubric && checklist && rt != "" && ct != "":
		fmt.Fprintf(&b, " A response counts as solved when its mean rubric score is %s %s and at least %s of its checklist is fulfilled%s", least, rt, cp, pc)
	case rubric && !checklist && rt != "":
		fmt.Fprintf(&b, " A response counts as solved when its mean rubric score is %s %s", least, rt)
	case checklist && !rubric && ct != "":
		fmt.Fprintf(&b, " A response counts as solved when at least %s of its checklist is fulfilled%s", cp, pc)
	default:
		solve, rule = rubric || checklist, false
	}
	if rule {
		b.WriteString("; the Solve Rate of a model is the share of its gradings that count as solved.")
	}
	if Has(r, "pairwise") && instrumentsKnown(r) {
		b.WriteString(" Pairwise judgments (which of two answers is better) give each model a win rate, ties counting half, and a Bradley–Terry rating.")
	}
	if Has(r, "criteria") && instrumentsKnown(r) {
		b.WriteString(" Responses were graded against weighted per-question criteria (PRBench): a response's clipped score is the weight of the criteria it meets over the weight of the positive criteria, at least 0.")
	}
	boot, seed := setting(r, "analysis.bootstrap"), setting(r, "analysis.seed")
	b.WriteString(" Intervals are 95 % percentile intervals of a cluster bootstrap over questions")
	if boot != "" {
		fmt.Fprintf(&b, " (%s replicates", boot)
		if seed != "" {
			fmt.Fprintf(&b, ", seed %s", seed)
		}
		b.WriteString(")")
	}
	b.WriteString("; a rate's interval lies inside [0 %, 100 %] by construction.")
	switch {
	case rubric && solve:
		b.WriteString(" Models are compared pairwise with paired t tests on rubric scores and paired tests on Solve Rate with questions as clusters (cluster-robust t, or McNemar's mid-p when every response has one grading), with Holm's adjustment at α = 0.05; models sharing a group letter do not differ significantly.")
	case solve:
		b.WriteString(" Models are compared pairwise with paired tests on Solve Rate with questions as clusters (cluster-robust t, or McNemar's mid-p when every response has one grading), with Holm's adjustment at α = 0.05; models sharing a group letter do not differ significantly.")
	}
	if alphaUndefined(r) {
		if s := notMeasured(r); s != "" {
			b.WriteString(" " + s)
		}
	} else {
		b.WriteString(" Agreement between graders is Krippendorff's α (≥ .800 reliable, .667–.800 tentative).")
	}
	fmt.Fprintf(&b, " Analysis by euroexec %s", orDefault(r.Version, "(development build)"))
	if v := versions(); v != "" {
		b.WriteString(" (" + v + ")")
	}
	b.WriteString(".")
	return b.String()
}

// versions lists the Go toolchain and the DuckDB and excelize modules of the
// running binary.
func versions() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	parts := []string{bi.GoVersion}
	for _, d := range bi.Deps {
		switch d.Path {
		case "github.com/duckdb/duckdb-go/v2":
			parts = append(parts, "duckdb-go "+d.Version)
		case "github.com/xuri/excelize/v2":
			parts = append(parts, "excelize "+d.Version)
		}
	}
	return strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func list(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	default:
		return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
}

// --- table access -----------------------------------------------------------

type colIndex map[string]int

func cols(t *report.Table) colIndex {
	c := colIndex{}
	for i, col := range t.Columns {
		c[col.Name] = i
	}
	return c
}

func (c colIndex) has(name string) bool { _, ok := c[name]; return ok }

// i is the column's index, -1 when the table lacks it.
func (c colIndex) i(name string) int {
	if i, ok := c[name]; ok {
		return i
	}
	return -1
}

func at(row []any, i int) any {
	if i >= 0 && i < len(row) {
		return row[i]
	}
	return nil
}

func str(row []any, i int) string {
	switch v := at(row, i).(type) {
	case string:
		return v
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

func num(row []any, c colIndex, name string) float64 {
	i, ok := c[name]
	if !ok {
		return math.NaN()
	}
	switch v := at(row, i).(type) {
	case float64:
		return v
	case int64:
		return float64(v)
	case int:
		return float64(v)
	}
	return math.NaN()
}

func integer(row []any, c colIndex, name string) int64 {
	i, ok := c[name]
	if !ok {
		return 0
	}
	switch v := at(row, i).(type) {
	case int64:
		return v
	case int:
		return int64(v)
	case float64:
		if !math.IsNaN(v) {
			return int64(v)
		}
	}
	return 0
}

// raterAdjusted says when adjusting for who graded changes the order of
// the models (table rater_adjusted, rows in adjusted order, columns
// rubric and rubric_adjusted); empty otherwise.
func raterAdjusted(r *report.Report) string {
	t := r.Table("rater_adjusted")
	if t == nil {
		return ""
	}
	c := cols(t)
	if !c.has("model") || !c.has("rubric") || !c.has("rubric_adjusted") || len(t.Rows) < 2 {
		return ""
	}
	type row struct {
		name     string
		raw, adj float64
	}
	var rows []row
	for _, x := range t.Rows {
		raw, adj := num(x, c, "rubric"), num(x, c, "rubric_adjusted")
		if math.IsNaN(adj) {
			return ""
		}
		rows = append(rows, row{str(x, c.i("model")), raw, adj})
	}
	// rows come in adjusted order; is the raw order the same?
	higher := rows[0].adj >= rows[len(rows)-1].adj
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1].raw, rows[i].raw
		if (higher && a < b) || (!higher && a > b) {
			names := make([]string, len(rows))
			for j, x := range rows {
				names[j] = x.name
			}
			return fmt.Sprintf("The graders did not grade every model equally often, and adjusting for their leniency changes the order: %s (rater_adjusted.csv); "+
				"%s's raw mean %s becomes %s.", strings.Join(names, " > "), rows[i].name, format.Points(b), format.Points(rows[i].adj))
		}
	}
	return ""
}

// solveRuleWords states the Solve rule in a few words ("mean rubric score
// at least 3 and at least 60 % of the checklist fulfilled").
func solveRuleWords(r *report.Report) string {
	rubric, checklist := Has(r, "rubric"), Has(r, "checklist")
	rt, ct := setting(r, "solve.rubric_threshold"), setting(r, "solve.checklist_threshold")
	if rt == "" {
		rt = "3"
	}
	if ct == "" {
		ct = "0.6"
	}
	cp := ct
	if v, err := strconv.ParseFloat(ct, 64); err == nil {
		cp = strconv.FormatFloat(v*100, 'f', -1, 64) + " %"
	}
	least := "at least"
	if setting(r, "rubric.direction") == "lower" {
		least = "at most"
	}
	switch {
	case rubric && checklist:
		return fmt.Sprintf("mean rubric score %s %s and at least %s of the checklist fulfilled", least, rt, cp)
	case checklist:
		return fmt.Sprintf("at least %s of the checklist fulfilled", cp)
	}
	return fmt.Sprintf("mean rubric score %s %s", least, rt)
}
