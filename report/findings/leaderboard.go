package findings

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/format"
)

// Board is the leaderboard: the models of one grader population ranked by
// one metric, the table a reader sees first on the site's index, the
// workbook's first sheet and the terminal. It is read from the report's
// tables, never computed: the primary metric of the human graders
// (PrimaryOf) when the study has it, else what its instruments allow —
// the first judge's Solve Rate for a judge-only study, the Bradley–Terry
// ratings of a pairwise-only one, the clipped PRBench scores of a
// criteria-only one. A study that defines no score per model has a Board
// without rows.
type Board struct {
	// Metric names the ordering metric in text ("Solve Rate").
	Metric string
	// Key is the metric's key: a Primary.Key (solve_rate, rubric,
	// checklist, pairwise, prbench).
	Key string
	// Who are the graders ("human graders", "judge gpt").
	Who string
	// Scope says what the values are over ("all questions", "pairwise
	// judgments").
	Scope string
	// Lower says lower values are better.
	Lower bool
	// Table is the table the values come from (summary, pairwise_models,
	// prbench_scores).
	Table string
	// NUnit names what N counts ("gradings", "judgments", "responses").
	NUnit string
	// Rows are the models, best first.
	Rows []Leader
	// HasRankInterval, HasGroup, HasCost and HasPBest say some row has one.
	HasRankInterval, HasGroup, HasCost, HasPBest bool
}

// Leader is one row of the Board. Undefined numbers are NaN.
type Leader struct {
	// Rank is the place by Value (1 = best; equal values share it).
	Rank int
	// RankLo and RankHi bound the 95 % bootstrap interval of the rank
	// (rankings.csv, pairwise_models.csv).
	RankLo, RankHi float64
	ID, Name       string
	// Value is the metric, Lo and Hi its 95 % interval.
	Value, Lo, Hi float64
	// Group is the compact letter display of the metric's paired tests
	// ("" when the metric has none).
	Group string
	// N counts the units behind Value (Board.NUnit).
	N int64
	// Cost is the model's total cost in USD when every response has one
	// (cost_vs_solve.csv); NaN otherwise.
	Cost float64
	// PBest is the share of bootstrap replicates in which the model is
	// best by the metric (rankings.csv p_best, p_best_solve_rate).
	PBest float64
}

// Caption is the Board's heading: "human graders, all questions, by Solve
// Rate".
func (b Board) Caption() string {
	return b.Who + ", " + b.Scope + ", by " + b.Metric
}

// Format writes a value of the Board's metric as the report shows it.
func (b Board) Format(v float64) string {
	return Primary{Key: b.Key}.FormatPrimary(v)
}

// ValueText is a row's value with its interval: "64.3 % [52.8 %, 75.4 %]".
func (b Board) ValueText(l Leader) string {
	s := b.Format(l.Value)
	if math.IsNaN(l.Lo) || math.IsNaN(l.Hi) {
		return s
	}
	switch b.Key {
	case "solve_rate", "checklist", "prbench":
		return s + " " + format.RateInterval(l.Lo, l.Hi)
	case "pairwise":
		return s + " [" + format.Number(l.Lo) + ", " + format.Number(l.Hi) + "]"
	}
	return s + " " + format.PointsInterval(l.Lo, l.Hi)
}

// RankText is a row's rank with its interval in whole places: "2 (2–3)",
// or "2" when the interval is undefined. The interval's ends may be mid-ranks
// of ties (2.5): the places shown are the whole ones that cover them, the
// lower end rounded down and the upper end up.
func (l Leader) RankText() string {
	s := fmt.Sprint(l.Rank)
	if math.IsNaN(l.RankLo) || math.IsNaN(l.RankHi) {
		return s
	}
	lo, hi := rankEnd(math.Floor(l.RankLo)), rankEnd(math.Ceil(l.RankHi))
	if lo == hi {
		return s + " (" + lo + ")"
	}
	return s + " (" + lo + "–" + hi + ")"
}

func rankEnd(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprint(int64(v))
	}
	return fmt.Sprintf("%.1f", v)
}

// CostText is a row's cost in USD, "" when unknown.
func (l Leader) CostText() string {
	if math.IsNaN(l.Cost) {
		return ""
	}
	return fmt.Sprintf("$%.2f", l.Cost)
}

// Legend says how to read the Board's columns, in one sentence.
func (b Board) Legend() string {
	var parts []string
	if b.HasRankInterval {
		parts = append(parts, "rank (95 % bootstrap interval of the rank)")
	}
	iv := "95 % interval of a cluster bootstrap over questions"
	if b.Key == "solve_rate" || b.Key == "checklist" || b.Key == "prbench" || b.Key == "pairwise" || b.Key == "rubric" {
		parts = append(parts, b.Metric+" ["+iv+"]")
	}
	if b.HasGroup {
		parts = append(parts, "group: models sharing a letter do not differ significantly (paired tests with questions as clusters, Holm-adjusted)")
	}
	parts = append(parts, "n: "+b.NUnit)
	if b.HasCost {
		parts = append(parts, "cost: total USD of the model's responses, when every response has one")
	}
	return strings.Join(parts, "; ") + "."
}

// Leaderboard returns the report's leaderboard (see Board).
func Leaderboard(r *report.Report) Board {
	p := PrimaryOf(r)
	var b Board
	switch p.Key {
	case "pairwise":
		b = pairwiseBoard(r, "humans")
	case "prbench":
		b = prbenchBoard(r, "humans")
	default:
		b = summaryBoard(r, p, "humans")
	}
	if len(b.Rows) == 0 {
		// what the study's instruments allow: a judge population's
		// summary, else pairwise ratings, else PRBench scores
		for _, g := range populations(r.Table("summary"), "judge") {
			if b = summaryBoard(r, Primary{Key: "solve_rate", Label: "Solve Rate", Column: "solve_rate"}, g); len(b.Rows) > 0 {
				break
			}
			if b = summaryBoard(r, Primary{Key: "rubric", Label: "mean " + measure(r), Column: "rubric", Lower: setting(r, "rubric.direction") == "lower"}, g); len(b.Rows) > 0 {
				break
			}
		}
	}
	for _, f := range []func() Board{
		func() Board { return pairwiseBoard(r, "humans") },
		func() Board { return prbenchBoard(r, "humans") },
	} {
		if len(b.Rows) == 0 {
			b = f()
		}
	}
	if len(b.Rows) == 0 {
		for _, g := range populations(r.Table("pairwise_models"), "judge") {
			if b = pairwiseBoard(r, g); len(b.Rows) > 0 {
				break
			}
		}
	}
	if len(b.Rows) == 0 {
		for _, g := range populations(r.Table("prbench_scores"), "judge") {
			if b = prbenchBoard(r, g); len(b.Rows) > 0 {
				break
			}
		}
	}
	if len(b.Rows) > 0 {
		addCost(r, &b)
	}
	return b
}

// populations are the distinct values of t's graders column that start
// with prefix, in table order.
func populations(t *report.Table, prefix string) []string {
	if t == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, row := range t.Rows {
		g, _ := t.Get(row, "graders").(string)
		if strings.HasPrefix(g, prefix) && !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out
}

// who names a grader population as the terminal does.
func who(g string) string {
	if j, ok := strings.CutPrefix(g, "judge:"); ok {
		return "judge " + j
	}
	switch g {
	case "judge":
		return "LLM judges"
	case "humans", "":
		return "human graders"
	}
	return g
}

// rankingCols reads, per model, the named columns of the rankings table.
func rankingCols(r *report.Report, names ...string) map[string][]float64 {
	out := map[string][]float64{}
	t := r.Table("rankings")
	if t == nil {
		return out
	}
	c := cols(t)
	for _, row := range t.Rows {
		vs := make([]float64, len(names))
		for i, n := range names {
			vs[i] = num(row, c, n)
		}
		out[str(row, c.i("model"))] = vs
	}
	return out
}

// summaryBoard is the Board of the summary table's rows of population g on
// all questions by the metric p (Solve Rate, rubric or checklist).
func summaryBoard(r *report.Report, p Primary, g string) Board {
	b := Board{Metric: p.Label, Key: p.Key, Who: who(g), Scope: "all questions", Lower: p.Lower, Table: "summary", NUnit: "gradings"}
	if b.Key == "" || p.Column == "" {
		b.Key, b.Metric, p.Column = "solve_rate", "Solve Rate", "solve_rate"
	}
	t := r.Table("summary")
	if t == nil {
		return b
	}
	c := cols(t)
	if !c.has(p.Column) {
		return b
	}
	names := DisplayNames(r)
	var extra map[string][]float64
	group := ""
	if g == "humans" {
		switch p.Key {
		case "solve_rate":
			extra, group = rankingCols(r, "rank_solve_rate_lo", "rank_solve_rate_hi", "p_best_solve_rate"), "group_solve_rate"
		case "rubric":
			extra, group = rankingCols(r, "rank_lo", "rank_hi", "p_best"), "group_rubric"
		}
	}
	for _, row := range t.Rows {
		if c.has("set") && str(row, c.i("set")) != "all" {
			continue
		}
		if c.has("graders") && str(row, c.i("graders")) != g {
			continue
		}
		v := num(row, c, p.Column)
		if math.IsNaN(v) {
			continue
		}
		id := str(row, c.i("model"))
		l := Leader{ID: id, Name: names.Name(id), Value: v, Lo: num(row, c, p.Column+"_lo"), Hi: num(row, c, p.Column+"_hi"),
			N: integer(row, c, "n_gradings"), RankLo: math.NaN(), RankHi: math.NaN(), Cost: math.NaN(), PBest: math.NaN()}
		if group != "" {
			l.Group = str(row, c.i(group))
		}
		if x, ok := extra[id]; ok {
			l.RankLo, l.RankHi, l.PBest = x[0], x[1], x[2]
		}
		b.Rows = append(b.Rows, l)
	}
	rank(&b)
	return b
}

// pairwiseBoard is the Board of pairwise_models' rows of population g by
// Bradley–Terry rating, with its rank interval.
func pairwiseBoard(r *report.Report, g string) Board {
	b := Board{Metric: "Bradley–Terry rating", Key: "pairwise", Who: who(g), Scope: "pairwise judgments", Table: "pairwise_models", NUnit: "judgments"}
	t := r.Table("pairwise_models")
	if t == nil {
		return b
	}
	c := cols(t)
	names := DisplayNames(r)
	for _, row := range t.Rows {
		if str(row, c.i("graders")) != g {
			continue
		}
		v := num(row, c, "bt_rating")
		if math.IsNaN(v) {
			continue
		}
		id := str(row, c.i("model"))
		b.Rows = append(b.Rows, Leader{ID: id, Name: names.Name(id), Value: v, Lo: num(row, c, "bt_rating_lo"), Hi: num(row, c, "bt_rating_hi"),
			N: integer(row, c, "n"), RankLo: num(row, c, "rank_lo"), RankHi: num(row, c, "rank_hi"), Cost: math.NaN(), PBest: math.NaN()})
	}
	rank(&b)
	return b
}

// prbenchBoard is the Board of prbench_scores' rows of population g on all
// questions by the clipped score.
func prbenchBoard(r *report.Report, g string) Board {
	b := Board{Metric: "PRBench score", Key: "prbench", Who: who(g), Scope: "PRBench criteria, all questions", Table: "prbench_scores", NUnit: "responses"}
	t := r.Table("prbench_scores")
	if t == nil {
		return b
	}
	c := cols(t)
	names := DisplayNames(r)
	for _, row := range t.Rows {
		if str(row, c.i("graders")) != g || (c.has("set") && str(row, c.i("set")) != "all") {
			continue
		}
		v := num(row, c, "clipped_mean")
		if math.IsNaN(v) {
			continue
		}
		id := str(row, c.i("model"))
		b.Rows = append(b.Rows, Leader{ID: id, Name: names.Name(id), Value: v, Lo: num(row, c, "clipped_lo"), Hi: num(row, c, "clipped_hi"),
			N: integer(row, c, "n"), RankLo: math.NaN(), RankHi: math.NaN(), Cost: math.NaN(), PBest: math.NaN()})
	}
	rank(&b)
	return b
}

// rank orders the Board's rows best first (then by id), gives equal values
// one place, and sets the Has flags.
func rank(b *Board) {
	sort.SliceStable(b.Rows, func(i, j int) bool {
		x, y := b.Rows[i].Value, b.Rows[j].Value
		if x != y {
			return x > y != b.Lower
		}
		return b.Rows[i].ID < b.Rows[j].ID
	})
	for i := range b.Rows {
		l := &b.Rows[i]
		l.Rank = i + 1
		if i > 0 && l.Value == b.Rows[i-1].Value {
			l.Rank = b.Rows[i-1].Rank
		}
		b.HasRankInterval = b.HasRankInterval || !math.IsNaN(l.RankLo)
		b.HasGroup = b.HasGroup || l.Group != ""
		b.HasPBest = b.HasPBest || !math.IsNaN(l.PBest)
	}
}

// addCost fills each row's cost from cost_vs_solve (total_cost_usd, when
// every response of the model has a cost).
func addCost(r *report.Report, b *Board) {
	t := r.Table("cost_vs_solve")
	if t == nil {
		return
	}
	c := cols(t)
	cost := map[string]float64{}
	for _, row := range t.Rows {
		if c.has("responses") && c.has("responses_with_cost") && integer(row, c, "responses") != integer(row, c, "responses_with_cost") {
			continue
		}
		if v := num(row, c, "total_cost_usd"); !math.IsNaN(v) {
			cost[str(row, c.i("model"))] = v
		}
	}
	for i := range b.Rows {
		if v, ok := cost[b.Rows[i].ID]; ok {
			b.Rows[i].Cost = v
			b.HasCost = true
		}
	}
}
