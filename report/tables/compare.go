package tables

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/metrics/compare"
	"github.com/euroexec/euroexec/report"
)

// Compare presents r: the tables compare_models, compare_questions,
// judge_drift, compare_rankings, compare_matching, compare_trend (three
// runs or more), compare_pairwise and pairwise_judge_drift (when the runs
// share pairwise judgments), the OLD → NEW figure of every metric and the
// trend figures, with r's notes and warnings, ready for report.Report.Add.
func Compare(r compare.Result) report.Part {
	var p report.Part
	p.Tables = append(p.Tables, compareModelsTable(r), compareQuestionsTable(r), compareDriftTable(r), compareRankingsTable(r), compareMatchingTable(r))
	if len(r.Labels) >= 3 {
		p.Tables = append(p.Tables, compareTrendTable(r))
	}
	p.Tables = append(p.Tables, comparePairwiseTables(r.Pairwise, r.PairwiseDrift)...)
	p.Figures = append(p.Figures, compareDumbbells(r)...)
	p.Figures = append(p.Figures, compareTrendFigures(r)...)
	p.Warnings = r.Warnings
	for _, n := range r.Notes {
		p.Notes = append(p.Notes, report.Note{Table: n.Table, Reason: n.Reason})
	}
	return p
}

// CompareOverview is the report's "at a glance" block of a comparison
// from the runs' union counts.
func CompareOverview(c compare.Counts) report.Overview {
	return report.Overview{Questions: c.Questions, Models: c.Models, HumanGraders: c.HumanGraders, Judges: c.Judges,
		Gradings: c.Gradings, HumanGradings: c.HumanGradings, JudgeGradings: c.JudgeGradings}
}

// compareCol is a column.
func compareCol(name string, kind report.ColumnKind, doc string) report.Column {
	return report.Column{Name: name, Kind: kind, Doc: doc}
}

// compareYesNo is the yes/no cell of b.
func compareYesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// compareModelsTable is the modelsTable table.
func compareModelsTable(res compare.Result) *report.Table {
	t := &report.Table{Name: compare.ModelsTable, Title: "Compare runs: change per model and metric", Section: report.SectionCompare,
		Doc: "Each model's Solve Rate, rubric, checklist rate, average rank and win rate in OLD and NEW, per grader population, " +
			"with a 95 % cluster-robust t interval of the change (questions as clusters, paired where both runs graded them); flagged rows change significantly after Holm's correction across the table.",
		Columns: []report.Column{
			compareCol("model", report.Text, "model name (after --map renames)"),
			compareCol("metric", report.Text, "solve_rate, rubric, checklist_rate, avg_rank or win_rate, as in summary.csv (main round, human label left out)"),
			compareCol("graders", report.Text, "humans (all human gradings pooled) or judge:<id>"),
			compareCol("old", report.Float, "the metric in OLD; empty when the model has no gradings there"),
			compareCol("new", report.Float, "the metric in NEW; empty when the model has no gradings there"),
			compareCol("delta", report.Float, "new − old"),
			compareCol("delta_lo", report.Float, "95 % cluster-robust t interval of the change, lower end"),
			compareCol("delta_hi", report.Float, "95 % cluster-robust t interval of the change, upper end"),
			compareCol("paired", report.Text, "yes: the model has gradings of this population on questions of both runs, resampled together (paired); no: none, each run resampled alone"),
			compareCol("n_shared_questions", report.Int, "questions on which the model has gradings of this population in both runs"),
			compareCol("n_same_responses", report.Int, "of those, questions whose response text is the same in both runs (the same response graded again); the others pair a new response with the old one on the same question"),
			compareCol("p_holm", report.Float, "Holm-adjusted two-sided p-value of the change (cluster-robust t; McNemar mid-p for one 0/1 grading a side on shared questions)"),
			compareCol("flagged", report.Text, "yes when p_holm < alpha (0.05): the change is significant after Holm across the table"),
		}}
	ni := len(res.Margins) > 0
	if ni {
		t.Columns = append(t.Columns,
			compareCol("margin", report.Float, "non-inferiority margin of the metric (--margin), in its units; empty when the metric has none"),
			compareCol("improvement_lo", report.Float, fmt.Sprintf("one-sided %g %% lower bound of the improvement (new − old; old − new for avg_rank and for a lower-is-better rubric): improvement − t·SE of the change's test", 100*(1-res.Alpha))),
			compareCol("p_noninferior", report.Float, "one-sided t p-value of 'NEW is worse by at least the margin', P(T ≥ (improvement + margin)/SE); not adjusted for multiplicity"),
			compareCol("noninferior", report.Text, "yes when improvement_lo > −margin: NEW is not worse than OLD by more than the margin (one-sided test at alpha)"),
			compareCol("equivalent", report.Text, "yes when NEW is within ±margin of OLD (two one-sided tests at alpha, TOST)"),
		)
	}
	for _, r := range res.Models {
		row := []any{r.Model, r.Metric, r.Graders, r.Old, r.New, r.Delta, r.Lo, r.Hi, compareYesNo(r.Paired), r.SharedQuestions, r.SameResponses, r.PHolm, compareYesNo(r.Flagged)}
		if ni {
			var nonInf, equiv any
			if !math.IsNaN(r.ImprovementLo) {
				nonInf, equiv = compareYesNo(r.NonInferior), compareYesNo(r.Equivalent)
			}
			row = append(row, r.Margin, r.ImprovementLo, r.PNonInferior, nonInf, equiv)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// compareQuestionsTable is the questionsTable table.
func compareQuestionsTable(res compare.Result) *report.Table {
	t := &report.Table{Name: compare.QuestionsTable, Title: "Compare runs: questions that changed", Section: report.SectionCompare,
		Doc: "Per question and model, the share of human gradings (main round) that solve it in each run and the change; biggest regressions first.",
		Columns: []report.Column{
			compareCol("question_id", report.Text, "question id"),
			compareCol("model", report.Text, "model name (after --map renames)"),
			compareCol("graders", report.Text, "humans, or the first judge when the runs have no human gradings"),
			compareCol("old_share", report.Fraction, "share of OLD's gradings of the response that solve it; empty when not graded in OLD"),
			compareCol("new_share", report.Fraction, "share of NEW's gradings that solve it; empty when not graded in NEW"),
			compareCol("delta", report.Float, "new_share − old_share"),
			compareCol("change", report.Text, "regressed, improved or same; only_old / only_new when graded in one run only"),
			compareCol("old_chars", report.Int, "length of OLD's response in characters (Unicode code points); empty when absent"),
			compareCol("new_chars", report.Int, "length of NEW's response; empty when absent"),
			compareCol("same_text", report.Text, "yes when both runs have the same response text (SHA-256), no when it differs, empty when a text is missing"),
			compareCol("old_page", report.Link, "OLD's question page, relative to this site (when OLD was given as a report folder)"),
			compareCol("new_page", report.Link, "NEW's question page, relative to this site (when NEW was given as a report folder)"),
		}}
	for _, q := range res.Questions {
		chars := func(v int64) any {
			if v < 0 {
				return nil
			}
			return v
		}
		same := ""
		if q.TextKnown {
			same = compareYesNo(q.SameText)
		}
		t.Rows = append(t.Rows, []any{q.QuestionID, q.Model, q.Graders, q.OldShare, q.NewShare, q.Delta, q.Change,
			chars(q.OldChars), chars(q.NewChars), same, q.OldPage, q.NewPage})
	}
	return t
}

// compareDriftTable is the driftTable table.
func compareDriftTable(res compare.Result) *report.Table {
	t := &report.Table{Name: compare.DriftTable, Title: "Compare runs: judge drift", Section: report.SectionCompare,
		Doc: "For each judge in both runs, its scores of the same responses (same question, model and response text) in OLD and NEW: " +
			"a change here is the judge changing, not the models.",
		Columns: []report.Column{
			compareCol("judge", report.Text, "judge id"),
			compareCol("n_responses", report.Int, "responses the judge graded in the main round of both runs with the same text (SHA-256)"),
			compareCol("n_questions", report.Int, "questions of those responses (the test's clusters)"),
			compareCol("n_text_changed", report.Int, "responses graded in both runs whose text differs or is missing (left out)"),
			compareCol("old_rubric", report.Float, "mean rubric score of the judge on those responses in OLD (judge runs averaged; exact mean divided once)"),
			compareCol("new_rubric", report.Float, "the same in NEW"),
			compareCol("rubric_diff", report.Float, "mean of new − old over the responses"),
			compareCol("rubric_diff_lo", report.Float, "95 % cluster-robust t interval over questions, lower end"),
			compareCol("rubric_diff_hi", report.Float, "95 % interval, upper end"),
			compareCol("kappa_solved", report.Float, "Cohen's κ between the judge's solved verdicts in OLD and NEW, over the responses whose verdict is defined in both (an undefined verdict, e.g. an all-na checklist, is left out); empty when undefined (a constant verdict, or no such response)"),
			compareCol("flipped_share", report.Fraction, "share of the responses with a verdict defined in both runs whose solved verdict differs"),
			compareCol("p_holm", report.Float, "Holm-adjusted p-value of rubric_diff across the judges (cluster-robust t over questions)"),
			compareCol("flagged", report.Text, "yes when p_holm < alpha: the judge drifted"),
		}}
	for _, r := range res.Drift {
		t.Rows = append(t.Rows, []any{r.Judge, r.Responses, r.Questions, r.TextChanged, r.OldRubric, r.NewRubric, r.Diff, r.Lo, r.Hi,
			r.Kappa, r.FlippedShare, r.PHolm, compareYesNo(r.Flagged)})
	}
	return t
}

// compareRankingsTable is the rankingsTable table.
func compareRankingsTable(res compare.Result) *report.Table {
	t := &report.Table{Name: compare.RankingsTable, Title: "Compare runs: rankings", Section: report.SectionCompare,
		Doc: "Each model's rank by Solve Rate in OLD and NEW with 95 % bootstrap rank intervals, and the models it swapped places with.",
		Columns: []report.Column{
			compareCol("graders", report.Text, "humans or judge:<id>"),
			compareCol("model", report.Text, "model name (after --map renames)"),
			compareCol("old_rank", report.Float, "rank by Solve Rate in OLD (1 = best; ties share the better rank)"),
			compareCol("old_rank_lo", report.Float, "95 % bootstrap interval of the rank, lower end"),
			compareCol("old_rank_hi", report.Float, "95 % bootstrap interval of the rank, upper end"),
			compareCol("new_rank", report.Float, "rank by Solve Rate in NEW"),
			compareCol("new_rank_lo", report.Float, "95 % interval, lower end"),
			compareCol("new_rank_hi", report.Float, "95 % interval, upper end"),
			compareCol("flipped_with", report.Text, "models whose order relative to this one is reversed in NEW (\"; \"-separated)"),
			compareCol("significant_flips", report.Text, "those of them whose change of Solve Rate gap is significant after Holm across all pairs"),
		}}
	for _, r := range res.Rankings {
		t.Rows = append(t.Rows, []any{r.Graders, r.Model, r.OldRank, r.OldLo, r.OldHi, r.NewRank, r.NewLo, r.NewHi,
			strings.Join(r.Flipped, "; "), strings.Join(r.Significant, "; ")})
	}
	return t
}

// compareMatchingTable is the matchingTable table.
func compareMatchingTable(res compare.Result) *report.Table {
	t := &report.Table{Name: compare.MatchingTable, Title: "Compare runs: what is in one run only", Section: report.SectionCompare,
		Doc: "Models, questions, human evaluators and judges present in one run only (they stay in the other tables with an empty side), and the renames of --map.",
		Columns: []report.Column{
			compareCol("kind", report.Text, "model, question, human evaluator or judge"),
			compareCol("id", report.Text, "name or id (for a rename: old → new)"),
			compareCol("only_in", report.Text, "old or new; empty for a rename"),
			compareCol("note", report.Text, "what happened"),
		}}
	for _, m := range res.Matching {
		t.Rows = append(t.Rows, []any{m.Kind, m.ID, m.OnlyIn, m.Note})
	}
	return t
}

// compareTrendTable is the trendTable table.
func compareTrendTable(res compare.Result) *report.Table {
	t := &report.Table{Name: compare.TrendTable, Title: "Compare runs: trend", Section: report.SectionCompare,
		Doc: "Every run's value of each metric per model and grader population, with its 95 % cluster-bootstrap interval over the run's questions.",
		Columns: []report.Column{
			compareCol("graders", report.Text, "humans or judge:<id>"),
			compareCol("model", report.Text, "model name (after --map renames)"),
			compareCol("metric", report.Text, "solve_rate, rubric, checklist_rate, avg_rank or win_rate"),
			compareCol("run_index", report.Int, "position of the run on the command line (1 = first)"),
			compareCol("run", report.Text, "the run's label (its folder name)"),
			compareCol("value", report.Float, "the metric in that run"),
			compareCol("value_lo", report.Float, "95 % cluster-bootstrap interval, lower end"),
			compareCol("value_hi", report.Float, "95 % interval, upper end"),
		}}
	for _, r := range res.Trend {
		t.Rows = append(t.Rows, []any{r.Graders, r.Model, r.Metric, int64(r.Run + 1), r.Label, r.Value, r.Lo, r.Hi})
	}
	return t
}

var compareMetricTitles = map[string]string{"solve_rate": "Solve Rate", "rubric": "rubric", "checklist_rate": "checklist rate",
	"avg_rank": "average rank", "win_rate": "win rate"}

// comparePercent says the metric is a rate, drawn in percent.
func comparePercent(m string) bool {
	return m == "solve_rate" || m == "checklist_rate" || m == "win_rate"
}

// compareDumbbells draws, per metric, OLD and NEW side by side per model with
// their intervals (human graders, else the first population).
func compareDumbbells(res compare.Result) []*report.Figure {
	if len(res.Populations) == 0 {
		return nil
	}
	pop := res.Populations[0]
	var out []*report.Figure
	for _, metric := range compare.Metrics {
		f := &report.Figure{ID: "compare_" + metric, Section: report.SectionCompare, Kind: report.Bar, Table: compare.ModelsTable,
			Title: fmt.Sprintf("%s: %s → %s (%s, 95 %% intervals)", compareMetricTitles[metric], res.Old(), res.New(), pop),
			XName: "model", YName: compareMetricTitles[metric], Percent: comparePercent(metric)}
		if f.Percent {
			f.YUnit = "%"
		}
		so := report.Series{Name: res.Old()}
		sn := report.Series{Name: res.New()}
		any := false
		for _, r := range res.Models {
			if r.Graders != pop || r.Metric != metric {
				continue
			}
			if !math.IsNaN(r.Old) || !math.IsNaN(r.New) {
				any = true
			}
			f.Categories = append(f.Categories, r.Model)
			so.Values, so.Lo, so.Hi = append(so.Values, r.Old), append(so.Lo, r.OldLo), append(so.Hi, r.OldHi)
			sn.Values, sn.Lo, sn.Hi = append(sn.Values, r.New), append(sn.Lo, r.NewLo), append(sn.Hi, r.NewHi)
		}
		if !any {
			continue
		}
		f.Series = []report.Series{so, sn}
		out = append(out, f)
	}
	return out
}

// compareTrendFigures draws one line chart per metric over the runs (human
// graders, else the first population), one line per model.
func compareTrendFigures(res compare.Result) []*report.Figure {
	if len(res.Labels) < 3 || len(res.Populations) == 0 {
		return nil
	}
	pop := res.Populations[0]
	labels := res.Labels
	var out []*report.Figure
	for _, metric := range compare.Metrics {
		f := &report.Figure{ID: "compare_trend_" + metric, Section: report.SectionCompare, Kind: report.Line, Table: compare.TrendTable,
			Title: fmt.Sprintf("%s over the runs (%s, 95 %% intervals)", compareMetricTitles[metric], pop),
			XName: "run", YName: compareMetricTitles[metric], Percent: comparePercent(metric), Categories: labels}
		if f.Percent {
			f.YUnit = "%"
		}
		byModel := map[string]*report.Series{}
		var order []string
		for _, r := range res.Trend {
			if r.Graders != pop || r.Metric != metric || math.IsNaN(r.Value) {
				continue
			}
			s := byModel[r.Model]
			if s == nil {
				s = &report.Series{Name: r.Model}
				for range labels {
					s.Values, s.Lo, s.Hi = append(s.Values, math.NaN()), append(s.Lo, math.NaN()), append(s.Hi, math.NaN())
				}
				byModel[r.Model] = s
				order = append(order, r.Model)
			}
			s.Values[r.Run], s.Lo[r.Run], s.Hi[r.Run] = r.Value, r.Lo, r.Hi
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

// comparePairwiseTables are compare_pairwise and pairwise_judge_drift; nil when
// no population judged pairs in both runs.
func comparePairwiseTables(rows []compare.PairwiseRow, drift []compare.PairwiseDriftRow) []*report.Table {
	if len(rows) == 0 {
		return nil
	}
	t := &report.Table{Name: compare.PairwiseTable, Title: "Pairwise judgments: OLD → NEW", Section: report.SectionCompare,
		Doc: "Per grader population of pairwise judgments (humans pooled, each judge) and model judged by it in both runs, over the judgments between such models (main rounds): the win rate (ties count half) and the Bradley–Terry rating (Elo scale, centred on these models) in OLD and NEW, the change with its paired 95 % cluster-bootstrap interval (the same questions drawn for both runs), the normal-approximation p-value from the replicates' SD and whether it stays below alpha after Holm's adjustment over every row.",
		Columns: []report.Column{compareCol("graders", report.Text, "humans (pooled) or a judge"), compareCol("model", report.Text, "the model"),
			compareCol("metric", report.Text, "win_rate or bt_rating"),
			compareCol("n_old", report.Int, "OLD's judgments of the model (against the models of both runs)"), compareCol("n_new", report.Int, "NEW's"),
			compareCol("old", report.Float, "OLD's value"), compareCol("new", report.Float, "NEW's value"), compareCol("delta", report.Float, "new − old"),
			compareCol("delta_lo", report.Float, "lower end of the paired 95 % cluster-bootstrap interval of delta"),
			compareCol("delta_hi", report.Float, "upper end"), compareCol("p_value", report.Float, "two-sided normal-approximation p-value of delta = 0"),
			compareCol("significant", report.Text, "yes when the Holm-adjusted p-value is below alpha")}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.Graders, r.Model, r.Metric, r.NOld, r.NNew, r.Old, r.New, r.Delta, r.Lo, r.Hi, r.P, compareYesNo(r.Significant)})
	}
	out := []*report.Table{t}
	if len(drift) > 0 {
		d := &report.Table{Name: compare.PairwiseDriftTable, Title: "Pairwise judges: drift between the runs", Section: report.SectionCompare,
			Doc: "Per judge with pairwise judgments in both runs, over the items (question, model pair) it judged in both: how often its verdict (the sign of wins minus losses of the pair's first model over its judgments of the item) changed, and its agreement with itself — raw agreement and Cohen's κ counted in both orientations as in pairwise_agreement — with 95 % cluster-bootstrap intervals over questions.",
			Columns: []report.Column{compareCol("judge", report.Text, "the judge"), compareCol("items", report.Int, "items judged in both runs"),
				compareCol("changed", report.Int, "items whose verdict changed"),
				compareCol("agreement", report.Fraction, "share of items with the same verdict"), compareCol("agreement_lo", report.Fraction, "lower end of its interval"), compareCol("agreement_hi", report.Fraction, "upper end"),
				compareCol("kappa", report.Float, "Cohen's κ between the runs' verdicts"), compareCol("kappa_lo", report.Float, "lower end of its interval"), compareCol("kappa_hi", report.Float, "upper end")}}
		for _, r := range drift {
			d.Rows = append(d.Rows, []any{r.Judge, r.Items, r.Changed, r.Agreement, r.AgreementLo, r.AgreementHi, r.Kappa, r.KappaLo, r.KappaHi})
		}
		out = append(out, d)
	}
	return out
}
