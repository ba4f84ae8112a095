package compare

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/report"
)

func col(name string, kind report.ColumnKind, doc string) report.Column {
	return report.Column{Name: name, Kind: kind, Doc: doc}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// part assembles the tables, figures, notes and warnings.
func (c *comparison) part() report.Part {
	var p report.Part
	p.Tables = append(p.Tables, c.modelsTable(), c.questionsTable(), c.driftTable(), c.rankingsTable(), c.matchingTable())
	if len(c.rd) >= 3 {
		p.Tables = append(p.Tables, c.trendTable())
	}
	p.Tables = append(p.Tables, pairwiseTables(c.pwRows, c.pwDrift)...)
	p.Figures = append(p.Figures, c.dumbbells()...)
	p.Figures = append(p.Figures, c.trendFigures()...)
	p.Warnings = append(c.warnings, c.marginWarnings()...)
	if len(c.drift) == 0 {
		p.Notes = append(p.Notes, report.Note{Table: DriftTable, Reason: "no judge graded the main round of both runs"})
	}
	if len(c.rd) >= 3 {
		p.Notes = append(p.Notes, report.Note{Table: ModelsTable, Reason: fmt.Sprintf(
			"%d runs: compare_models, compare_questions, judge_drift and compare_rankings compare the first (%s) with the last (%s); compare_trend has every run",
			len(c.rd), c.old.run.Label, c.new.run.Label)})
	}
	if c.opt.Bootstrap == 0 {
		p.Notes = append(p.Notes, report.Note{Table: ModelsTable, Reason: "bootstrap = 0: no rank intervals and no per-run intervals (the changes are tested without replicates)"})
	}
	return p
}

func (c *comparison) modelsTable() *report.Table {
	t := &report.Table{Name: ModelsTable, Title: "Compare runs: change per model and metric", Section: Section,
		Doc: "Each model's Solve Rate, rubric, checklist rate, average rank and win rate in OLD and NEW, per grader population, " +
			"with a 95 % cluster-robust t interval of the change (questions as clusters, paired where both runs graded them); flagged rows change significantly after Holm's correction across the table.",
		Columns: []report.Column{
			col("model", report.Text, "model name (after --map renames)"),
			col("metric", report.Text, "solve_rate, rubric, checklist_rate, avg_rank or win_rate, as in summary.csv (main round, human label left out)"),
			col("graders", report.Text, "humans (all human gradings pooled) or judge:<id>"),
			col("old", report.Float, "the metric in OLD; empty when the model has no gradings there"),
			col("new", report.Float, "the metric in NEW; empty when the model has no gradings there"),
			col("delta", report.Float, "new − old"),
			col("delta_lo", report.Float, "95 % cluster-robust t interval of the change, lower end"),
			col("delta_hi", report.Float, "95 % cluster-robust t interval of the change, upper end"),
			col("paired", report.Text, "yes: the model has gradings of this population on questions of both runs, resampled together (paired); no: none, each run resampled alone"),
			col("n_shared_questions", report.Int, "questions on which the model has gradings of this population in both runs"),
			col("p_holm", report.Float, "Holm-adjusted two-sided p-value of the change (cluster-robust t; McNemar mid-p for one 0/1 grading a side on shared questions)"),
			col("flagged", report.Text, "yes when p_holm < alpha (0.05): the change is significant after Holm across the table"),
		}}
	p := make([]float64, len(c.modelRows))
	for i, r := range c.modelRows {
		p[i] = r.p
	}
	adj := holmAdjusted(p)
	ni := len(c.opt.Margins) > 0
	if ni {
		t.Columns = append(t.Columns,
			col("margin", report.Float, "non-inferiority margin of the metric (--margin), in its units; empty when the metric has none"),
			col("improvement_lo", report.Float, fmt.Sprintf("one-sided %g %% lower bound of the improvement (new − old; old − new for avg_rank and for a lower-is-better rubric): improvement − t·SE of the change's test", 100*(1-c.opt.Alpha))),
			col("p_noninferior", report.Float, "one-sided t p-value of 'NEW is worse by at least the margin', P(T ≥ (improvement + margin)/SE); not adjusted for multiplicity"),
			col("noninferior", report.Text, "yes when improvement_lo > −margin: NEW is not worse than OLD by more than the margin (one-sided test at alpha)"),
			col("equivalent", report.Text, "yes when NEW is within ±margin of OLD (two one-sided tests at alpha, TOST)"),
		)
	}
	for i, r := range c.modelRows {
		row := []any{r.model, r.metric, r.pop, r.old, r.new, r.delta, r.lo, r.hi, yesNo(r.paired), int64(r.shared), adj[i], yesNo(r.flagged)}
		if ni {
			var nonInf, equiv any
			if !math.IsNaN(r.niLo) {
				nonInf, equiv = yesNo(r.nonInferior), yesNo(r.equivalent)
			}
			row = append(row, r.margin, r.niLo, r.niP, nonInf, equiv)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
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

func (c *comparison) questionsTable() *report.Table {
	t := &report.Table{Name: QuestionsTable, Title: "Compare runs: questions that changed", Section: Section,
		Doc: "Per question and model, the share of human gradings (main round) that solve it in each run and the change; biggest regressions first.",
		Columns: []report.Column{
			col("question_id", report.Text, "question id"),
			col("model", report.Text, "model name (after --map renames)"),
			col("graders", report.Text, "humans, or the first judge when the runs have no human gradings"),
			col("old_share", report.Fraction, "share of OLD's gradings of the response that solve it; empty when not graded in OLD"),
			col("new_share", report.Fraction, "share of NEW's gradings that solve it; empty when not graded in NEW"),
			col("delta", report.Float, "new_share − old_share"),
			col("change", report.Text, "regressed, improved or same; only_old / only_new when graded in one run only"),
			col("old_chars", report.Int, "length of OLD's response in characters (Unicode code points); empty when absent"),
			col("new_chars", report.Int, "length of NEW's response; empty when absent"),
			col("same_text", report.Text, "yes when both runs have the same response text (SHA-256), no when it differs, empty when a text is missing"),
			col("old_page", report.Link, "OLD's question page, relative to this site (when OLD was given as a report folder)"),
			col("new_page", report.Link, "NEW's question page, relative to this site (when NEW was given as a report folder)"),
		}}
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
	type row struct {
		q, m    string
		o, n, d float64
		cells   []any
	}
	var rows []row
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
			chars := func(d *runData) any {
				if v, ok := d.respChars[k]; ok {
					return int64(v)
				}
				return nil
			}
			same := ""
			ha, okA := c.old.respHash[k]
			hb, okB := c.new.respHash[k]
			if okA && okB {
				same = yesNo(ha == hb)
			}
			page := func(r Run, v float64) string {
				if r.Pages == nil || math.IsNaN(v) {
					return ""
				}
				return r.Pages(q)
			}
			d := n - o
			rows = append(rows, row{q, m, o, n, d, []any{q, m, pn, o, n, d, change, chars(c.old), chars(c.new), same,
				page(c.old.run, o), page(c.new.run, n)}})
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		x, y := rows[i], rows[j]
		xn, yn := math.IsNaN(x.d), math.IsNaN(y.d)
		if xn != yn {
			return !xn
		}
		if !xn && x.d != y.d {
			return x.d < y.d
		}
		if x.q != y.q {
			return x.q < y.q
		}
		return x.m < y.m
	})
	for _, r := range rows {
		t.Rows = append(t.Rows, r.cells)
	}
	return t
}

func (c *comparison) driftTable() *report.Table {
	t := &report.Table{Name: DriftTable, Title: "Compare runs: judge drift", Section: Section,
		Doc: "For each judge in both runs, its scores of the same responses (same question, model and response text) in OLD and NEW: " +
			"a change here is the judge changing, not the models.",
		Columns: []report.Column{
			col("judge", report.Text, "judge id"),
			col("n_responses", report.Int, "responses the judge graded in the main round of both runs with the same text (SHA-256)"),
			col("n_questions", report.Int, "questions of those responses (the test's clusters)"),
			col("n_text_changed", report.Int, "responses graded in both runs whose text differs or is missing (left out)"),
			col("old_rubric", report.Float, "mean rubric score of the judge on those responses in OLD (judge runs averaged; exact mean divided once)"),
			col("new_rubric", report.Float, "the same in NEW"),
			col("rubric_diff", report.Float, "mean of new − old over the responses"),
			col("rubric_diff_lo", report.Float, "95 % cluster-robust t interval over questions, lower end"),
			col("rubric_diff_hi", report.Float, "95 % interval, upper end"),
			col("kappa_solved", report.Float, "Cohen's κ between the judge's solved verdicts in OLD and NEW, over the responses whose verdict is defined in both (an undefined verdict, e.g. an all-na checklist, is left out); empty when undefined (a constant verdict, or no such response)"),
			col("flipped_share", report.Fraction, "share of the responses with a verdict defined in both runs whose solved verdict differs"),
			col("p_holm", report.Float, "Holm-adjusted p-value of rubric_diff across the judges (cluster-robust t over questions)"),
			col("flagged", report.Text, "yes when p_holm < alpha: the judge drifted"),
		}}
	p := make([]float64, len(c.drift))
	for i, r := range c.drift {
		p[i] = r.p
	}
	adj := holmAdjusted(p)
	for i, r := range c.drift {
		t.Rows = append(t.Rows, []any{r.judge, int64(r.n), int64(r.nQ), int64(r.nChanged), r.oldMean, r.newMean, r.diff, r.lo, r.hi,
			r.kappa, r.flipped, adj[i], yesNo(r.flagged)})
	}
	return t
}

func (c *comparison) rankingsTable() *report.Table {
	t := &report.Table{Name: RankingsTable, Title: "Compare runs: rankings", Section: Section,
		Doc: "Each model's rank by Solve Rate in OLD and NEW with 95 % bootstrap rank intervals, and the models it swapped places with.",
		Columns: []report.Column{
			col("graders", report.Text, "humans or judge:<id>"),
			col("model", report.Text, "model name (after --map renames)"),
			col("old_rank", report.Float, "rank by Solve Rate in OLD (1 = best; ties share the better rank)"),
			col("old_rank_lo", report.Float, "95 % bootstrap interval of the rank, lower end"),
			col("old_rank_hi", report.Float, "95 % bootstrap interval of the rank, upper end"),
			col("new_rank", report.Float, "rank by Solve Rate in NEW"),
			col("new_rank_lo", report.Float, "95 % interval, lower end"),
			col("new_rank_hi", report.Float, "95 % interval, upper end"),
			col("flipped_with", report.Text, "models whose order relative to this one is reversed in NEW (\"; \"-separated)"),
			col("significant_flips", report.Text, "those of them whose change of Solve Rate gap is significant after Holm across all pairs"),
		}}
	for _, r := range c.rankRows {
		t.Rows = append(t.Rows, []any{r.pop, r.model, r.oldRank, r.oldLo, r.oldHi, r.newRank, r.newLo, r.newHi,
			strings.Join(r.flipped, "; "), strings.Join(r.significant, "; ")})
	}
	return t
}

func (c *comparison) matchingTable() *report.Table {
	t := &report.Table{Name: MatchingTable, Title: "Compare runs: what is in one run only", Section: Section,
		Doc: "Models, questions, human evaluators and judges present in one run only (they stay in the other tables with an empty side), and the renames of --map.",
		Columns: []report.Column{
			col("kind", report.Text, "model, question, human evaluator or judge"),
			col("id", report.Text, "name or id (for a rename: old → new)"),
			col("only_in", report.Text, "old or new; empty for a rename"),
			col("note", report.Text, "what happened"),
		}}
	for _, m := range c.matching() {
		t.Rows = append(t.Rows, []any{m.kind, m.id, m.onlyIn, m.note})
	}
	return t
}

func (c *comparison) trendTable() *report.Table {
	t := &report.Table{Name: TrendTable, Title: "Compare runs: trend", Section: Section,
		Doc: "Every run's value of each metric per model and grader population, with its 95 % cluster-bootstrap interval over the run's questions.",
		Columns: []report.Column{
			col("graders", report.Text, "humans or judge:<id>"),
			col("model", report.Text, "model name (after --map renames)"),
			col("metric", report.Text, "solve_rate, rubric, checklist_rate, avg_rank or win_rate"),
			col("run_index", report.Int, "position of the run on the command line (1 = first)"),
			col("run", report.Text, "the run's label (its folder name)"),
			col("value", report.Float, "the metric in that run"),
			col("value_lo", report.Float, "95 % cluster-bootstrap interval, lower end"),
			col("value_hi", report.Float, "95 % interval, upper end"),
		}}
	for _, r := range c.trend {
		t.Rows = append(t.Rows, []any{r.pop, r.model, r.metric, int64(r.run + 1), c.rd[r.run].run.Label, r.value, r.lo, r.hi})
	}
	return t
}

var metricTitles = map[string]string{"solve_rate": "Solve Rate", "rubric": "rubric", "checklist_rate": "checklist rate",
	"avg_rank": "average rank", "win_rate": "win rate"}

func percentMetric(m string) bool {
	return m == "solve_rate" || m == "checklist_rate" || m == "win_rate"
}

// dumbbells draws, per metric, OLD and NEW side by side per model with
// their intervals (human graders, else the first population).
func (c *comparison) dumbbells() []*report.Figure {
	if len(c.pops) == 0 {
		return nil
	}
	pop := c.pops[0]
	var out []*report.Figure
	for _, metric := range Metrics {
		f := &report.Figure{ID: "compare_" + metric, Section: Section, Kind: report.Bar, Table: ModelsTable,
			Title: fmt.Sprintf("%s: %s → %s (%s, 95 %% intervals)", metricTitles[metric], c.old.run.Label, c.new.run.Label, pop),
			XName: "model", YName: metricTitles[metric], Percent: percentMetric(metric)}
		if f.Percent {
			f.YUnit = "%"
		}
		so := report.Series{Name: c.old.run.Label}
		sn := report.Series{Name: c.new.run.Label}
		any := false
		for _, r := range c.modelRows {
			if r.pop != pop || r.metric != metric {
				continue
			}
			if !math.IsNaN(r.old) || !math.IsNaN(r.new) {
				any = true
			}
			f.Categories = append(f.Categories, r.model)
			so.Values, so.Lo, so.Hi = append(so.Values, r.old), append(so.Lo, r.oldLo), append(so.Hi, r.oldHi)
			sn.Values, sn.Lo, sn.Hi = append(sn.Values, r.new), append(sn.Lo, r.newLo), append(sn.Hi, r.newHi)
		}
		if !any {
			continue
		}
		f.Series = []report.Series{so, sn}
		out = append(out, f)
	}
	return out
}

// trendFigures draws one line chart per metric over the runs (human
// graders, else the first population), one line per model.
func (c *comparison) trendFigures() []*report.Figure {
	if len(c.rd) < 3 || len(c.pops) == 0 {
		return nil
	}
	pop := c.pops[0]
	var labels []string
	for _, d := range c.rd {
		labels = append(labels, d.run.Label)
	}
	var out []*report.Figure
	for _, metric := range Metrics {
		f := &report.Figure{ID: "compare_trend_" + metric, Section: Section, Kind: report.Line, Table: TrendTable,
			Title: fmt.Sprintf("%s over the runs (%s, 95 %% intervals)", metricTitles[metric], pop),
			XName: "run", YName: metricTitles[metric], Percent: percentMetric(metric), Categories: labels}
		if f.Percent {
			f.YUnit = "%"
		}
		byModel := map[string]*report.Series{}
		var order []string
		for _, r := range c.trend {
			if r.pop != pop || r.metric != metric || math.IsNaN(r.value) {
				continue
			}
			s := byModel[r.model]
			if s == nil {
				s = &report.Series{Name: r.model}
				for range labels {
					s.Values, s.Lo, s.Hi = append(s.Values, math.NaN()), append(s.Lo, math.NaN()), append(s.Hi, math.NaN())
				}
				byModel[r.model] = s
				order = append(order, r.model)
			}
			s.Values[r.run], s.Lo[r.run], s.Hi[r.run] = r.value, r.lo, r.hi
		}
		if len(order) == 0 {
			continue
		}
		sort.Strings(order)
		for _, m := range order {
			f.Series = append(f.Series, *byModel[m])
		}
		out = append(out, f)
	}
	return out
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
