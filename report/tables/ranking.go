package tables

import (
	"math"

	"github.com/euroexec/euroexec/metrics/ranking"
	"github.com/euroexec/euroexec/report"
)

// Ranking presents r: the rankings and pairwise_significance tables, the
// Plackett–Luce figure when the study has preference ranks and the rank
// intervals when it has a rubric; with r's notes and warnings it is ready
// for report.Report.Add. It has no tables when r ranked no models.
func Ranking(r ranking.Result) report.Part {
	p := report.Part{Warnings: r.Warnings}
	for _, n := range r.Notes {
		p.Notes = append(p.Notes, report.Note{Table: ranking.RankingsTable, Reason: n})
	}
	if len(r.Models) == 0 {
		return p
	}
	pt := &report.Table{
		Name:    ranking.PairwiseTable,
		Title:   "Pairwise significance of model differences",
		Section: report.SectionBeyond,
		Doc: "Every pair of models (a ranked before b by rubric): paired t test of the per-question mean human rubric, and the paired test of the Solve Rate difference with the questions as clusters " +
			"(cluster-robust t, or McNemar's mid-p when every response has one solved flag); p_holm adjusts all tests of the table together (Holm).",
		Columns: []report.Column{
			{Name: "model_a", Kind: report.Text, Doc: "the model ranked higher by rubric"},
			{Name: "model_b", Kind: report.Text, Doc: "the model ranked lower"},
			{Name: "test", Kind: report.Text, Doc: "paired_t_rubric or paired_solve_rate"},
			{Name: "method", Kind: report.Text, Doc: "paired t, cluster-robust t (questions as clusters) or McNemar mid-p (one solved flag per response)"},
			{Name: "estimate", Kind: report.Float, Doc: "mean per-question rubric difference a − b, or Solve Rate a − b over the questions both models have"},
			{Name: "estimate_lo", Kind: report.Float, Doc: "lower end of the 95 % t interval of the estimate"},
			{Name: "estimate_hi", Kind: report.Float, Doc: "upper end of the 95 % t interval of the estimate"},
			{Name: "n", Kind: report.Int, Doc: "questions both models have (the clusters of the test)"},
			{Name: "mde", Kind: report.Float, Doc: "minimum detectable effect: the smallest difference this test detects with 80 % power at α before Holm, (t_{1−α/2} + t_{0.8})·SE; a smaller true difference is likely to go unseen at this study's size"},
			{Name: "p", Kind: report.Float, Doc: "two-sided p-value"},
			{Name: "p_holm", Kind: report.Float, Doc: "Holm-adjusted p-value over all tests of the table"},
			{Name: "significant", Kind: report.Text, Doc: "true when rejected after Holm at the chosen α (default 0.05); empty when p is undefined"},
		},
	}
	for _, t := range r.Tests {
		var sv any = t.Significant
		if math.IsNaN(t.P) {
			sv = nil
		}
		pt.Rows = append(pt.Rows, []any{t.A, t.B, t.Name, t.Method, t.Estimate, t.Lo, t.Hi, t.N, t.MDE, t.P, t.PHolm, sv})
	}
	rt := &report.Table{
		Name:    ranking.RankingsTable,
		Title:   "Model rankings with uncertainty",
		Section: report.SectionBeyond,
		Doc: "Per model (human gradings): rubric and Solve Rate, rank by rubric with its 95 % bootstrap rank interval, compact letter displays " +
			"(models sharing a letter do not differ significantly after Holm), and Plackett–Luce strengths of the explicit preference rankings (mean 1) with bootstrap intervals.",
		Columns: []report.Column{
			{Name: "model", Kind: report.Text, Doc: "model name"},
			{Name: "n_gradings", Kind: report.Int, Doc: "human gradings of the model"},
			{Name: "rubric", Kind: report.Float, Doc: "mean rubric_mean over the human gradings"},
			{Name: "solve_rate", Kind: report.Fraction, Doc: "share of the human gradings that solve the question"},
			{Name: "rank", Kind: report.Float, Doc: "rank by rubric, 1 = best (ties share the mean rank)"},
			{Name: "rank_lo", Kind: report.Float, Doc: "lower end of the bootstrap rank interval"},
			{Name: "rank_hi", Kind: report.Float, Doc: "upper end of the bootstrap rank interval"},
			{Name: "group", Kind: report.Text, Doc: "compact letter display of the paired rubric t tests"},
			{Name: "group_solve_rate", Kind: report.Text, Doc: "compact letter display of the paired Solve Rate tests"},
			{Name: "n_rankings", Kind: report.Int, Doc: "preference rankings the model appears in"},
			{Name: "pl_strength", Kind: report.Float, Doc: "Plackett–Luce strength (posterior mode, strengths average 1)"},
			{Name: "pl_lo", Kind: report.Float, Doc: "lower end of the bootstrap interval of the strength"},
			{Name: "pl_hi", Kind: report.Float, Doc: "upper end of the bootstrap interval of the strength"},
			{Name: "rank_solve_rate", Kind: report.Float, Doc: "rank by Solve Rate, 1 = best (ties share the mean rank)"},
			{Name: "rank_solve_rate_lo", Kind: report.Float, Doc: "lower end of the bootstrap interval of the Solve Rate rank"},
			{Name: "rank_solve_rate_hi", Kind: report.Float, Doc: "upper end of the bootstrap interval of the Solve Rate rank"},
			{Name: "p_best", Kind: report.Fraction, Doc: "share of the bootstrap replicates in which the model has the best rubric mean (ties split)"},
			{Name: "p_best_solve_rate", Kind: report.Fraction, Doc: "share of the bootstrap replicates in which the model has the highest Solve Rate (ties split)"},
		},
	}
	figPL := &report.Figure{ID: "ranking_pl_strength", Section: report.SectionBeyond, Title: "Plackett–Luce strengths of the preference rankings",
		Kind: report.Bar, XName: "model", YName: "strength (mean 1)", Table: ranking.RankingsTable}
	figRank := &report.Figure{ID: "ranking_rank_intervals", Section: report.SectionBeyond, Title: "Rank by rubric with 95 % bootstrap rank intervals",
		Kind: report.Bar, XName: "model", YName: "rank (1 = best)", Table: ranking.RankingsTable}
	figRank.Dots, figRank.InverseY = true, true
	sPL := report.Series{Name: "Plackett–Luce strength"}
	sRank := report.Series{Name: "rank"}
	for _, m := range r.Models {
		rt.Rows = append(rt.Rows, []any{m.Model, m.Gradings, m.Rubric, m.SolveRate, m.Rank, m.RankLo, m.RankHi,
			rankingLetters(m.Group), rankingLetters(m.GroupSolveRate), m.Rankings, m.PL, m.PLLo, m.PLHi,
			m.RankSolveRate, m.RankSolveRateLo, m.RankSolveRateHi, m.PBest, m.PBestSolveRate})
		figPL.Categories = append(figPL.Categories, m.Model)
		figRank.Categories = append(figRank.Categories, m.Model)
		sPL.Values, sPL.Lo, sPL.Hi = append(sPL.Values, m.PL), append(sPL.Lo, m.PLLo), append(sPL.Hi, m.PLHi)
		sRank.Values, sRank.Lo, sRank.Hi = append(sRank.Values, m.Rank), append(sRank.Lo, m.RankLo), append(sRank.Hi, m.RankHi)
	}
	figPL.Series = []report.Series{sPL}
	figRank.Series = []report.Series{sRank}
	p.Tables = []*report.Table{rt, pt}
	if r.HasRanks {
		p.Figures = append(p.Figures, figPL)
	}
	if r.HasRubric {
		p.Figures = append(p.Figures, figRank)
	}
	return p
}

// rankingLetters is a compact letter display as a cell: nil (empty) when
// undefined.
func rankingLetters(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// RankingSummaryColumns are the columns RankingAnnotateSummary adds to the
// summary table.
var RankingSummaryColumns = []report.Column{
	{Name: "rubric_rank", Kind: report.Int, Doc: "rank by mean human rubric (humans, all questions; empty for other rows)"},
	{Name: "rubric_rank_lo", Kind: report.Float, Doc: "lower end of the 95 % bootstrap rank interval (rankings.csv)"},
	{Name: "rubric_rank_hi", Kind: report.Float, Doc: "upper end of the 95 % bootstrap rank interval"},
	{Name: "group_rubric", Kind: report.Text, Doc: "compact letter display: models sharing a letter do not differ in rubric (paired t, Holm)"},
	{Name: "group_solve_rate", Kind: report.Text, Doc: "compact letter display for Solve Rate (paired tests with questions as clusters, Holm)"},
}

// RankingAnnotateSummary adds each ranked model's rank, rank interval and
// tie groups (from r.Models) to the summary table's rows for set "all" and
// graders "humans", which the rankings are computed from; other rows get
// empty cells. The summary's columns set, graders and model are found by
// name. It does nothing when summary is nil, lacks one of those columns,
// or r has no rankings.
func RankingAnnotateSummary(r ranking.Result, summary *report.Table) {
	if summary == nil || len(r.Models) == 0 {
		return
	}
	set, graders, model := summary.Index("set"), summary.Index("graders"), summary.Index("model")
	if set < 0 || graders < 0 || model < 0 {
		return
	}
	by := make(map[string]ranking.Ranked, len(r.Models))
	for _, m := range r.Models {
		by[m.Model] = m
	}
	summary.Columns = append(summary.Columns, RankingSummaryColumns...)
	for i, row := range summary.Rows {
		add := make([]any, len(RankingSummaryColumns))
		name, _ := row[model].(string)
		if m, ok := by[name]; ok && row[set] == "all" && row[graders] == "humans" {
			add = []any{m.Rank, m.RankLo, m.RankHi, rankingLetters(m.Group), rankingLetters(m.GroupSolveRate)}
		}
		summary.Rows[i] = append(row, add...)
	}
}
