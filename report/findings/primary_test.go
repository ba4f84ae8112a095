package findings

import (
	"math"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/report"
)

// withSettings returns r with extra settings.
func withSettings(r *report.Report, kv ...string) *report.Report {
	for i := 0; i+1 < len(kv); i += 2 {
		r.Settings = append(r.Settings, report.KV{Key: kv[i], Value: kv[i+1]})
	}
	return r
}

// In study: Solve Rates a .5, b .7, c .6 and rubric 3 + rate (a 3.5, b 3.7,
// c 3.6); a has no Solve Rate interval of its own here (lo0).
func TestPrimaryOrder(t *testing.T) {
	base := func() *report.Report {
		return study([3]float64{0.5, 0.7, 0.6}, 0.4, [3]string{"a", "a", "a"}, [3]string{"false", "false", "false"})
	}
	tests := []struct {
		name    string
		r       *report.Report
		key     string
		label   string
		order   string // model ids by the primary metric
		first   string // topic of the first finding
		firstIs string // a phrase of the first finding
	}{
		{"default is Solve Rate", base(), "solve_rate", "Solve Rate", "m-b m-c m-a", "winner", "Beta has the highest Solve Rate"},
		{"rubric, higher is better", withSettings(base(), "report.primary", "rubric"), "rubric", "mean rubric score", "m-b m-c m-a", "rubric", "Beta leads with 3.70 points"},
		{"rubric, lower is better", withSettings(base(), "report.primary", "rubric", "rubric.direction", "lower"), "rubric", "mean rubric score", "m-a m-c m-b", "rubric", "Alpha leads with the lowest, 3.50 points"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Helper()
			p := PrimaryOf(tc.r)
			if p.Key != tc.key || p.Label != tc.label {
				t.Errorf("PrimaryOf = %+v, want key %s label %q", p, tc.key, tc.label)
			}
			var ids []string
			for _, m := range RankingBy(tc.r, p) {
				ids = append(ids, m.ID)
			}
			if got := strings.Join(ids, " "); got != tc.order {
				t.Errorf("RankingBy order %q, want %q", got, tc.order)
			}
			f := Make(tc.r)
			if h := f.Headlines[0]; h.Topic != tc.first || !strings.Contains(h.Text, tc.firstIs) {
				t.Errorf("first finding %+v, want topic %s with %q", h, tc.first, tc.firstIs)
			}
		})
	}
}

// TestPrimaryPairwise: a primary metric without a summary column takes
// its values from its own table (the humans' Bradley–Terry ratings), and
// the leader by it is the first finding.
func TestPrimaryPairwise(t *testing.T) {
	r := withSettings(study([3]float64{0.5, 0.7, 0.6}, 0.4, [3]string{"a", "a", "a"}, [3]string{"false", "false", "false"}),
		"report.primary", "pairwise")
	r.Tables = append(r.Tables, &report.Table{Name: "pairwise_models", Columns: []report.Column{{Name: "graders"}, {Name: "model"}, {Name: "bt_rating", Kind: report.Float}},
		Rows: [][]any{{"humans", "m-a", 1100.0}, {"humans", "m-b", 900.0}, {"judge:j", "m-c", 2000.0}, {"humans", "m-c", math.NaN()}}})
	p := PrimaryOf(r)
	by := RankingBy(r, p)
	var ids []string
	for _, m := range by {
		ids = append(ids, m.ID)
	}
	if got := strings.Join(ids, " "); got != "m-a m-b m-c" || by[0].Rank != 1 || by[1].Rank != 2 || by[0].Value != 1100 {
		t.Errorf("order %q, ranks %d %d, value %v; want m-a m-b m-c (m-c without a rating last), 1 2, 1100", got, by[0].Rank, by[1].Rank, by[0].Value)
	}
	f := Make(r)
	if h := f.Headlines[0]; h.Topic != "primary" || h.Text != "By Bradley–Terry rating, Alpha leads with 1100.00. Its lead over the runner-up, Beta, is not tested (no head-to-head judgments of the pair)." {
		t.Errorf("first finding %+v", h)
	}
}

// TestConstantSolveRate: when no response meets the Solve rule (every
// model at 0 %) or every one does (100 %), the Solve Rate separates
// nothing: the default primary metric passes on to the rubric, and the
// findings say so in one sentence instead of naming a leader, a gap or a
// detectable difference of 0 pp. An explicit primary Solve Rate is kept.
func TestConstantSolveRate(t *testing.T) {
	for _, tc := range []struct {
		rate float64
		word string
	}{{0, "0 %: no response meets the Solve rule"}, {1, "100 %: every response meets the Solve rule"}} {
		r := study([3]float64{tc.rate, tc.rate, tc.rate}, 0, [3]string{"a", "a", "a"}, [3]string{"false", "false", "false"})
		sum := r.Table("summary")
		for i, v := range []float64{2.1, 2.7, 2.4} { // rubric a, b, c
			sum.Rows[i][8] = v
		}
		if c := ConstantSolveRate(r); c == "" {
			t.Fatalf("rate %v: not seen as constant", tc.rate)
		}
		if p := PrimaryOf(r); p.Key != "rubric" {
			t.Errorf("rate %v: primary %s, want rubric", tc.rate, p.Key)
		}
		f := Make(r)
		var all []string
		for _, h := range f.Headlines {
			all = append(all, h.Text)
		}
		text := strings.Join(all, "\n")
		if !strings.Contains(f.Headlines[0].Text, "Beta leads with 2.70 points") {
			t.Errorf("rate %v: first finding %q, want the rubric's leader", tc.rate, f.Headlines[0].Text)
		}
		if !strings.Contains(text, "Every model's Solve Rate is "+tc.word+" (mean rubric score at least 3") {
			t.Errorf("rate %v: findings lack the constant Solve Rate sentence:\n%s", tc.rate, text)
		}
		for _, bad := range []string{"has the highest Solve Rate", "0.0 pp or more", "share one group"} {
			if strings.Contains(text, bad) {
				t.Errorf("rate %v: findings say %q:\n%s", tc.rate, bad, text)
			}
		}
		if p := PrimaryOf(withSettings(r, "report.primary", "solve_rate")); p.Key != "solve_rate" {
			t.Errorf("rate %v: an explicit primary Solve Rate became %s", tc.rate, p.Key)
		}
	}
	if c := ConstantSolveRate(study([3]float64{0, 0.1, 0}, 0, [3]string{"a", "a", "a"}, [3]string{"false", "false", "false"})); c != "" {
		t.Errorf("a Solve Rate that differs is seen as constant %q", c)
	}
}
