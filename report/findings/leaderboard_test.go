package findings

import (
	"math"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/report"
)

// boardIDs lists the board's model ids and ranks in order.
func boardIDs(b Board) string {
	var s []string
	for _, l := range b.Rows {
		s = append(s, l.ID+":"+l.RankText())
	}
	return strings.Join(s, " ")
}

// TestLeaderboard checks the leaderboard of every kind of study against
// hand-built tables: the order by the primary metric (lower is better for
// penalties), rank intervals and P(best) from rankings, cost only when
// every response has one, and a board for judge-only and pairwise-only
// studies instead of an empty one.
func TestLeaderboard(t *testing.T) {
	rankings := &report.Table{Name: "rankings", Columns: []report.Column{{Name: "model"}, {Name: "rank_lo"}, {Name: "rank_hi"}, {Name: "p_best"},
		{Name: "rank_solve_rate_lo"}, {Name: "rank_solve_rate_hi"}, {Name: "p_best_solve_rate"}},
		Rows: [][]any{{"m-a", 3.0, 3.0, 0.0, 2.0, 3.0, 0.1}, {"m-b", 1.0, 2.0, 0.7, 1.0, 2.0, 0.6}, {"m-c", 1.0, 2.5, 0.3, 1.0, 3.0, 0.3}}}
	cost := &report.Table{Name: "cost_vs_solve", Columns: []report.Column{{Name: "model"}, {Name: "responses"}, {Name: "responses_with_cost"}, {Name: "total_cost_usd"}},
		Rows: [][]any{{"m-a", int64(40), int64(40), 1.5}, {"m-b", int64(40), int64(39), 2.0}}}
	base := func() *report.Report {
		r := study([3]float64{0.5, 0.7, 0.6}, 0.4, [3]string{"b", "a", "ab"}, [3]string{"true", "false", "false"})
		r.Tables = append(r.Tables, rankings, cost)
		return r
	}
	t.Run("Solve Rate", func(t *testing.T) {
		b := Leaderboard(base())
		if got, want := boardIDs(b), "m-b:1 (1–2) m-c:2 (1–3) m-a:3 (2–3)"; got != want {
			t.Errorf("order %q, want %q", got, want)
		}
		if b.Caption() != "human graders, all questions, by Solve Rate" || !b.HasGroup || !b.HasCost || !b.HasRankInterval {
			t.Errorf("caption %q, group %v, cost %v, rank interval %v", b.Caption(), b.HasGroup, b.HasCost, b.HasRankInterval)
		}
		if l := b.Rows[0]; l.Group != "a" || l.PBest != 0.6 || !math.IsNaN(l.Cost) || b.ValueText(l) != "70.0 % [60.0 %, 80.0 %]" || l.N != 80 {
			t.Errorf("leader %+v (%s): want group a, P(best) 0.6, no cost (one response without), 70.0 %% [60.0 %%, 80.0 %%], n 80", l, b.ValueText(l))
		}
		if l := b.Rows[2]; l.CostText() != "$1.50" {
			t.Errorf("m-a cost %q, want $1.50", l.CostText())
		}
	})
	t.Run("rubric lower is better", func(t *testing.T) {
		r := withSettings(base(), "report.primary", "rubric", "rubric.direction", "lower")
		b := Leaderboard(r)
		// rubric 3 + rate: a 3.5, b 3.7, c 3.6; fewer penalty points first;
		// a mid-rank end (2.5) shows as the whole place that covers it (3)
		if got, want := boardIDs(b), "m-a:1 (3) m-c:2 (1–3) m-b:3 (1–2)"; got != want {
			t.Errorf("order %q, want %q", got, want)
		}
		if b.Metric != "mean rubric score" || !b.Lower || b.ValueText(b.Rows[0]) != "3.50 [3.40, 3.60]" {
			t.Errorf("metric %q, lower %v, value %q", b.Metric, b.Lower, b.ValueText(b.Rows[0]))
		}
	})
	t.Run("judge only", func(t *testing.T) {
		r := &report.Report{Tables: []*report.Table{{Name: "summary", Columns: []report.Column{{Name: "set"}, {Name: "graders"}, {Name: "model"}, {Name: "n_gradings"}, {Name: "solve_rate"}, {Name: "solve_rate_lo"}, {Name: "solve_rate_hi"}},
			Rows: [][]any{{"all", "judge:gpt", "m1", int64(3), 2.0 / 3, 0.3, 1.0}, {"all", "judge:gpt", "m2", int64(3), 1.0 / 3, 0.0, 0.7}}}}}
		b := Leaderboard(r)
		if b.Caption() != "judge gpt, all questions, by Solve Rate" || boardIDs(b) != "m1:1 m2:2" {
			t.Errorf("caption %q, order %q", b.Caption(), boardIDs(b))
		}
		f := Make(r)
		if len(f.Headlines) == 0 || f.Headlines[0].Topic != "leader" || !strings.Contains(f.Headlines[0].Text, "By Solve Rate (judge gpt, all questions), m1 leads with 66.7 %") {
			t.Errorf("first finding %+v", f.Headlines)
		}
	})
	t.Run("pairwise only", func(t *testing.T) {
		r := &report.Report{Tables: []*report.Table{{Name: "pairwise_models", Columns: []report.Column{{Name: "graders"}, {Name: "model"}, {Name: "n"}, {Name: "bt_rating"}, {Name: "bt_rating_lo"}, {Name: "bt_rating_hi"}, {Name: "rank_lo"}, {Name: "rank_hi"}},
			Rows: [][]any{{"humans", "m2", int64(3), 900.0, 800.0, 1000.0, int64(1), int64(2)}, {"humans", "m1", int64(3), 1100.0, 1000.0, 1200.0, int64(1), int64(2)}}},
			{Name: "pairwise_matrix", Columns: []report.Column{{Name: "graders"}, {Name: "model_a"}, {Name: "model_b"}, {Name: "n"}, {Name: "win_rate_a"}, {Name: "win_rate_a_lo"}, {Name: "win_rate_a_hi"}},
				Rows: [][]any{{"humans", "m1", "m2", int64(3), 2.0 / 3, 0.4, 1.0}}}}}
		b := Leaderboard(r)
		if b.Metric != "Bradley–Terry rating" || boardIDs(b) != "m1:1 (1–2) m2:2 (1–2)" {
			t.Errorf("metric %q, order %q", b.Metric, boardIDs(b))
		}
		want := "Against the runner-up, m2, m1 wins 66.7 % [40.0 %, 100.0 %] of their 3 head-to-head judgments (ties count half; 50 % is no difference): the interval includes 50 %, so the order of the two is not established."
		if g, ok := LeaderGap(r, b); !ok || g.Sentence(b) != want {
			t.Errorf("gap %q\nwant %q", g.Sentence(b), want)
		}
	})
	t.Run("nothing to rank", func(t *testing.T) {
		if b := Leaderboard(&report.Report{}); len(b.Rows) != 0 {
			t.Errorf("rows %v", b.Rows)
		}
	})
}

// TestGap checks the leader's gap to the runner-up: the paired test's row
// is read whichever way round the pair is stored (leader − runner-up: the
// estimate and its interval change sign when the runner-up is model_a),
// with P(best) from rankings; a significant and a non-significant gap are
// worded as such.
func TestGap(t *testing.T) {
	r := study([3]float64{0.5, 0.7, 0.6}, 0.4, [3]string{"b", "a", "ab"}, [3]string{"true", "false", "false"})
	pw := &report.Table{Name: "pairwise_significance", Columns: []report.Column{{Name: "model_a"}, {Name: "model_b"}, {Name: "test"}, {Name: "method"},
		{Name: "estimate"}, {Name: "estimate_lo"}, {Name: "estimate_hi"}, {Name: "n"}, {Name: "mde"}, {Name: "p"}, {Name: "p_holm"}, {Name: "significant"}},
		// stored in rubric order: m-c before m-b
		Rows: [][]any{{"m-c", "m-b", "paired_solve_rate", "cluster-robust t", -0.1, -0.25, 0.05, int64(40), 0.18, 0.2, 0.6, "false"}}}
	rk := &report.Table{Name: "rankings", Columns: []report.Column{{Name: "model"}, {Name: "p_best_solve_rate"}},
		Rows: [][]any{{"m-b", 0.62}, {"m-c", 0.3}, {"m-a", 0.08}}}
	for i, tb := range r.Tables {
		if tb.Name == "pairwise_significance" {
			r.Tables[i] = pw
		}
	}
	r.Tables = append(r.Tables, rk)
	b := Leaderboard(r)
	g, ok := LeaderGap(r, b)
	if !ok || g.Diff != 0.1 || g.Lo != -0.05 || g.Hi != 0.25 || g.N != 40 {
		t.Fatalf("gap %+v: want +0.1 [−0.05, +0.25] over 40 questions", g)
	}
	want := "Its gap to the runner-up, m-c, is +10.0 pp [-5.0, +25.0 pp] (leader − runner-up in percentage points; 95 % paired interval, cluster-robust t over 40 questions, not adjusted for the other pairs; p = 0.200), " +
		"but after Holm's adjustment over every pair p = 0.600, not significant at α = 0.05: the study does not separate the two (it detects gaps of about 18.0 pp or more). " +
		"Beta is best in 62.0 % of the bootstrap replicates over questions (P(best)); m-c in 30.0 %."
	if s := g.Sentence(b); s != want {
		t.Errorf("\n got %q\nwant %q", s, want)
	}
	// appended to the winner's finding, which states the study's MDE already
	g.SkipMDE = true
	if f := Make(r); !strings.HasSuffix(f.Headlines[0].Text, g.Sentence(b)) || f.Headlines[0].Topic != "winner" || strings.Count(f.Headlines[0].Text, "detect") != 1 {
		t.Errorf("first finding %+v does not end with the gap", f.Headlines[0])
	}
	pw.Rows[0][10], pw.Rows[0][11] = 0.01, "true"
	g, _ = LeaderGap(r, b)
	if s := g.Sentence(b); !strings.Contains(s, "p = 0.200): significant after Holm's adjustment over every pair (p = 0.010).") {
		t.Errorf("significant gap: %q", s)
	}
}
