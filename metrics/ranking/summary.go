package ranking

import "github.com/euroexec/euroexec/report"

// SummaryColumns are the columns AnnotateSummary adds to the summary table.
var SummaryColumns = []report.Column{
	{Name: "rubric_rank", Kind: report.Int, Doc: "rank by mean human rubric (humans, all questions; empty for other rows)"},
	{Name: "rubric_rank_lo", Kind: report.Float, Doc: "lower end of the 95 % bootstrap rank interval (rankings.csv)"},
	{Name: "rubric_rank_hi", Kind: report.Float, Doc: "upper end of the 95 % bootstrap rank interval"},
	{Name: "group_rubric", Kind: report.Text, Doc: "compact letter display: models sharing a letter do not differ in rubric (paired t, Holm)"},
	{Name: "group_solve_rate", Kind: report.Text, Doc: "compact letter display for Solve Rate (cluster bootstrap, Holm)"},
}

// AnnotateSummary adds each model's rank, rank interval and tie groups from
// the rankings table to the summary table's rows for set "all" and graders
// "humans", which the rankings are computed from; other rows get empty
// cells. It does nothing when either table is missing.
func AnnotateSummary(summary, rankings *report.Table) {
	if summary == nil || rankings == nil {
		return
	}
	col := func(t *report.Table, name string) int {
		for i, c := range t.Columns {
			if c.Name == name {
				return i
			}
		}
		return -1
	}
	src := []int{col(rankings, "rank"), col(rankings, "rank_lo"), col(rankings, "rank_hi"), col(rankings, "group"), col(rankings, "group_solve_rate")}
	rm := col(rankings, "model")
	set, graders, model := col(summary, "set"), col(summary, "graders"), col(summary, "model")
	if rm < 0 || set < 0 || graders < 0 || model < 0 {
		return
	}
	for _, i := range src {
		if i < 0 {
			return
		}
	}
	by := map[any][]any{}
	for _, r := range rankings.Rows {
		vals := make([]any, len(src))
		for k, i := range src {
			vals[k] = r[i]
		}
		by[r[rm]] = vals
	}
	summary.Columns = append(summary.Columns, SummaryColumns...)
	for i, r := range summary.Rows {
		add := make([]any, len(SummaryColumns))
		if r[set] == "all" && r[graders] == "humans" {
			if v, ok := by[r[model]]; ok {
				add = v
			}
		}
		summary.Rows[i] = append(r, add...)
	}
}
