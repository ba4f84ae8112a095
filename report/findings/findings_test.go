package findings

import (
	"math"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/report"
)

// study builds a report by hand: three models with the given Solve Rates
// (intervals ±0.1, the first one's lower end at lo0), compact letters, and
// the Holm verdicts of the pairs (a,b), (a,c), (b,c).
func study(rates [3]float64, lo0 float64, groups [3]string, sig [3]string) *report.Report {
	ids := []string{"m-a", "m-b", "m-c"}
	sum := &report.Table{Name: "summary", Columns: []report.Column{
		{Name: "set"}, {Name: "graders"}, {Name: "model"}, {Name: "n_questions", Kind: report.Int}, {Name: "n_gradings", Kind: report.Int},
		{Name: "solve_rate", Kind: report.Fraction}, {Name: "solve_rate_lo", Kind: report.Fraction}, {Name: "solve_rate_hi", Kind: report.Fraction},
		{Name: "rubric", Kind: report.Float}, {Name: "rubric_lo", Kind: report.Float}, {Name: "rubric_hi", Kind: report.Float},
		{Name: "group_solve_rate"},
	}}
	// Rows in id order, not rate order: the ranking must sort them.
	for i, id := range ids {
		lo := rates[i] - 0.1
		if i == 0 {
			lo = lo0
		}
		sum.Rows = append(sum.Rows, []any{"all", "humans", id, int64(40), int64(80), rates[i], lo, rates[i] + 0.1,
			3 + rates[i], 2.9 + rates[i], 3.1 + rates[i], groups[i]})
	}
	// A judge row that must be ignored.
	sum.Rows = append(sum.Rows, []any{"all", "judge:j", "m-c", int64(40), int64(40), 0.99, 0.9, 1.0, 4.9, 4.8, 5.0, ""})
	pw := &report.Table{Name: "pairwise_significance", Columns: []report.Column{
		{Name: "model_a"}, {Name: "model_b"}, {Name: "test"}, {Name: "p_holm", Kind: report.Float}, {Name: "significant"}}}
	pairs := [][2]string{{"m-a", "m-b"}, {"m-a", "m-c"}, {"m-b", "m-c"}}
	for i, p := range pairs {
		pw.Rows = append(pw.Rows, []any{p[0], p[1], "paired_t_rubric", 0.001, "true"})
		pw.Rows = append(pw.Rows, []any{p[0], p[1], "paired_solve_rate", 0.01, sig[i]})
	}
	models := &report.Table{Name: "models", Columns: []report.Column{{Name: "model"}, {Name: "display_name"}},
		Rows: [][]any{{"m-a", "Alpha"}, {"m-b", "Beta"}, {"m-c", nil}}}
	return &report.Report{Tables: []*report.Table{models, sum, pw},
		Overview: report.Overview{Questions: 40, Models: 3, Domains: 2, HumanGraders: 4, Gradings: 240},
		Settings: []report.KV{{Key: "rubric.min", Value: "1"}, {Key: "rubric.max", Value: "5"},
			{Key: "rubric.attributes", Value: "Domain, Reasoning"},
			{Key: "solve.rubric_threshold", Value: "3"}, {Key: "solve.checklist_threshold", Value: "0.6"},
			{Key: "solve.partial_credit", Value: "0.5"},
			{Key: "analysis.bootstrap", Value: "2000"}, {Key: "analysis.seed", Value: "7"}}}
}

func headline(t *testing.T, f Findings, topic string) string {
	t.Helper()
	for _, h := range f.Headlines {
		if h.Topic == topic {
			return h.Text
		}
	}
	t.Fatalf("no %q finding in %q", topic, f.Headlines)
	return ""
}

func TestHeadlines(t *testing.T) {
	const holm = "(Holm-adjusted paired tests with questions as clusters, α = 0.05)"
	cases := []struct {
		name       string
		r          *report.Report
		winner     string
		ties       string
		rubricLead string
	}{
		{
			name:       "clear winner",
			r:          study([3]float64{0.8, 0.5, 0.3}, 0.7, [3]string{"a", "b", "c"}, [3]string{"true", "true", "true"}),
			winner:     "Alpha has the highest Solve Rate, 80.0 % [70.0 %, 90.0 %]; it is ahead of every other model " + holm + ".",
			ties:       "Every model's Solve Rate differs significantly from every other's (no tie groups).",
			rubricLead: "By mean rubric score, Alpha leads with 3.80 points [3.70, 3.90] on the 1–5 scale.",
		},
		{
			// The winner is the second row of the table.
			name:   "tie group",
			r:      study([3]float64{0.55, 0.6, 0.05}, 0.45, [3]string{"a", "a", "b"}, [3]string{"false", "true", "true"}),
			winner: "Beta has the highest Solve Rate, 60.0 % [50.0 %, 70.0 %]; it is ahead of every model except Alpha " + holm + ".",
			ties:   "Models that cannot be told apart by Solve Rate (tie groups; they share a letter): {Beta, Alpha}.",
		},
		{
			name:   "no significant difference",
			r:      study([3]float64{0.1, 0.4, 0.3}, -0.015, [3]string{"a", "a", "a"}, [3]string{"false", "false", "false"}),
			winner: "Beta has the highest Solve Rate, 40.0 % [30.0 %, 50.0 %], but it is not significantly ahead of any other model " + holm + ": the study does not separate the models.",
			ties:   "All 3 models share one group: no two differ significantly in Solve Rate.",
		},
		{
			// A lower end below 0 (a normal-approximation interval) is shown
			// clamped to 0 %.
			name:   "interval clamped",
			r:      study([3]float64{0.05, 0.01, 0.02}, -0.015, [3]string{"a", "a", "a"}, [3]string{"false", "false", "false"}),
			winner: "Alpha has the highest Solve Rate, 5.0 % [0.0 %, 15.0 %], but it is not significantly ahead of any other model " + holm + ": the study does not separate the models.",
			ties:   "All 3 models share one group: no two differ significantly in Solve Rate.",
		},
		{
			name:   "ahead of a minority",
			r:      study([3]float64{0.7, 0.6, 0.5}, 0.6, [3]string{"a", "ab", "b"}, [3]string{"false", "true", "false"}),
			winner: "Alpha has the highest Solve Rate, 70.0 % [60.0 %, 80.0 %]; it is ahead of every model except Beta " + holm + ".",
			ties:   "Models that cannot be told apart by Solve Rate (tie groups; they share a letter): {Alpha, Beta}; {Beta, m-c}.",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Make(c.r)
			// the winner's sentence, then its gap to the runner-up (TestGap)
			if got := headline(t, f, "winner"); !strings.HasPrefix(got, c.winner) {
				t.Errorf("winner:\n got %q\nwant %q", got, c.winner)
			}
			if got := headline(t, f, "ties"); got != c.ties {
				t.Errorf("ties:\n got %q\nwant %q", got, c.ties)
			}
			if c.rubricLead != "" {
				if got := headline(t, f, "rubric"); got != c.rubricLead {
					t.Errorf("rubric:\n got %q\nwant %q", got, c.rubricLead)
				}
			}
		})
	}
}

func TestRankingOrderAndClamp(t *testing.T) {
	r := study([3]float64{0.1, 0.4, 0.4}, -0.015, [3]string{"a", "a", "a"}, [3]string{"false", "false", "false"})
	got := Ranking(r)
	want := []struct {
		id   string
		rank int
	}{{"m-b", 1}, {"m-c", 1}, {"m-a", 3}}
	if len(got) != len(want) {
		t.Fatalf("%d models, want %d (the judge row must be left out)", len(got), len(want))
	}
	for i, w := range want {
		if got[i].ID != w.id || got[i].Rank != w.rank {
			t.Errorf("row %d: got %s rank %d, want %s rank %d", i, got[i].ID, got[i].Rank, w.id, w.rank)
		}
	}
	if got[2].Name != "Alpha" || got[1].Name != "m-c" {
		t.Errorf("display names: got %q, %q", got[2].Name, got[1].Name)
	}
}

func TestWinnerBeatsOnlySome(t *testing.T) {
	// Four models, the winner ahead of one of three: "ahead of X only".
	r := study([3]float64{0.7, 0.65, 0.6}, 0.6, [3]string{"a", "a", "a"}, [3]string{"false", "true", "false"})
	sum := r.Table("summary")
	sum.Rows = append(sum.Rows, []any{"all", "humans", "m-d", int64(40), int64(80), 0.62, 0.5, 0.7, 3.1, 3, 3.2, "a"})
	pw := r.Table("pairwise_significance")
	pw.Rows = append(pw.Rows, []any{"m-a", "m-d", "paired_solve_rate", 0.2, "false"})
	got := headline(t, Make(r), "winner")
	want := "Alpha has the highest Solve Rate, 70.0 % [60.0 %, 80.0 %]; it is significantly ahead of m-c only (Holm-adjusted paired tests with questions as clusters, α = 0.05)."
	if !strings.HasPrefix(got, want) {
		t.Errorf("\n got %q\nwant %q", got, want)
	}
}

func TestReliabilityBands(t *testing.T) {
	for _, c := range []struct {
		alpha float64
		band  string
	}{{0.85, "reliable"}, {0.800, "reliable"}, {0.7999, "tentative"}, {0.707, "tentative"}, {0.667, "tentative"}, {0.6669, "not reliable"}, {0.2, "not reliable"}} {
		r := &report.Report{Tables: []*report.Table{{Name: "reliability", Columns: []report.Column{
			{Name: "instrument"}, {Name: "population"}, {Name: "statistic"}, {Name: "value", Kind: report.Float},
			{Name: "n_units", Kind: report.Int}, {Name: "n_graders", Kind: report.Int}, {Name: "lo", Kind: report.Float}, {Name: "hi", Kind: report.Float}},
			Rows: [][]any{
				{"rubric_mean", "humans+judge:x", "alpha_interval", 0.99, int64(1), int64(1), 0.9, 1.0},
				{"rubric_mean", "humans", "alpha_interval", c.alpha, int64(360), int64(12), c.alpha - 0.05, c.alpha + 0.05},
			}}}}
		got := headline(t, Make(r), "reliability")
		if !strings.HasPrefix(got, "Human graders' agreement on the mean rubric score is "+c.band+" ") {
			t.Errorf("α = %v: %q, want band %q", c.alpha, got, c.band)
		}
		if !strings.Contains(got, "over 360 units and 12 graders") {
			t.Errorf("α = %v: %q lacks the counts", c.alpha, got)
		}
	}
	want := "Human graders' agreement on the mean rubric score is tentative (.667 ≤ α < .800): Krippendorff's α = 0.707 [0.657, 0.757] over 360 units and 12 graders."
	r := &report.Report{Tables: []*report.Table{{Name: "reliability", Columns: []report.Column{
		{Name: "instrument"}, {Name: "population"}, {Name: "statistic"}, {Name: "value"}, {Name: "n_units"}, {Name: "n_graders"}, {Name: "lo"}, {Name: "hi"}},
		Rows: [][]any{{"rubric_mean", "humans", "alpha_interval", 0.707, int64(360), int64(12), 0.657, 0.757}}}}}
	if got := headline(t, Make(r), "reliability"); got != want {
		t.Errorf("\n got %q\nwant %q", got, want)
	}
}

func TestJudgeAuditAndSmallSample(t *testing.T) {
	r := study([3]float64{0.8, 0.5, 0.3}, 0.7, [3]string{"a", "b", "c"}, [3]string{"true", "true", "true"})
	r.Tables = append(r.Tables, &report.Table{Name: "judge_audit", Columns: []report.Column{{Name: "judge"}, {Name: "verdict"}},
		Rows: [][]any{{"arbiter", "usable: no flagged bias"}}})
	r.Table("summary").Rows[0][3] = int64(12)
	r.Overview.HumanGraders = 1
	f := Make(r)
	if got, want := headline(t, f, "judges"), "Judge audit, arbiter: usable: no flagged bias"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	var sample []string
	for _, h := range f.Headlines {
		if h.Topic == "sample" {
			sample = append(sample, h.Text)
		}
	}
	if len(sample) != 2 || !strings.Contains(sample[0], "only 12 questions") || !strings.Contains(sample[1], "One human grader") {
		t.Errorf("small-sample warnings: %q", sample)
	}
}

func TestMethods(t *testing.T) {
	r := study([3]float64{0.8, 0.5, 0.3}, 0.7, [3]string{"a", "b", "c"}, [3]string{"true", "true", "true"})
	r.Version = "v1.2.3"
	m := Make(r).Methods
	for _, want := range []string{
		"We evaluated 3 models on 40 questions from 2 domains. 4 human experts graded the responses (240 gradings in all).",
		"rubric of Domain, Reasoning on the 1–5 scale",
		"mean rubric score is at least 3 and at least 60 % of its checklist is fulfilled (a partial verdict counts 0.5)",
		"cluster bootstrap over questions (2000 replicates, seed 7)",
		"Holm's adjustment at α = 0.05",
		"euroexec v1.2.3 (go1.",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("Methods lacks %q:\n%s", want, m)
		}
	}
}

// The Methods paragraph counts the gradings by kind when the overview splits
// them, and names the human label apart from the models.
func TestMethodsCounts(t *testing.T) {
	for _, c := range []struct {
		name string
		o    report.Overview
		want string
	}{
		{"humans only", report.Overview{Questions: 40, Models: 3, HumanGraders: 4, Gradings: 240, HumanGradings: 240},
			"We evaluated 3 models on 40 questions. 4 human experts graded the responses (240 gradings)."},
		{"judges and label", report.Overview{Questions: 40, Models: 3, HumanLabel: "Human Expert", HumanGraders: 2, Judges: 1,
			Gradings: 300, HumanGradings: 180, JudgeGradings: 120},
			"We evaluated 3 models on 40 questions, with expert-written answers graded alongside them as “Human Expert”. " +
				"2 human experts graded the responses, and 1 LLM judge graded them too (180 human and 120 judge gradings)."},
		{"no split (compare)", report.Overview{Questions: 40, Models: 3, HumanGraders: 4, Gradings: 240},
			"(240 gradings in all)."},
	} {
		r := study([3]float64{0.8, 0.5, 0.3}, 0.7, [3]string{"a", "b", "c"}, [3]string{"true", "true", "true"})
		r.Overview = c.o
		if m := Make(r).Methods; !strings.Contains(m, c.want) {
			t.Errorf("%s: Methods lacks %q:\n%s", c.name, c.want, m)
		}
	}
}

// A summary without the letters or intervals gives no tie sentence and no
// empty interval.
func TestMissingColumns(t *testing.T) {
	r := &report.Report{Tables: []*report.Table{{Name: "summary",
		Columns: []report.Column{{Name: "set"}, {Name: "graders"}, {Name: "model"}, {Name: "solve_rate"}, {Name: "rubric"}},
		Rows:    [][]any{{"all", "humans", "x", 0.5, 3.25}, {"all", "humans", "y", 0.25, 3.5}}}}}
	f := Make(r)
	for _, h := range f.Headlines {
		if h.Topic == "ties" {
			t.Errorf("tie sentence without letters: %q", h.Text)
		}
		if strings.Contains(h.Text, "—") {
			t.Errorf("undefined value in %q", h.Text)
		}
	}
	if got, want := headline(t, f, "rubric"), "By mean rubric score, y leads with 3.50 points."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestNoTables(t *testing.T) {
	f := Make(&report.Report{})
	if len(f.Headlines) != 0 {
		t.Errorf("headlines from an empty report: %q", f.Headlines)
	}
	if f.Methods == "" {
		t.Error("no Methods paragraph")
	}
}

// TestRaterAdjustedFinding: a finding when the adjusted order (the table's
// row order) differs from the raw means' order, none when it does not.
func TestRaterAdjustedFinding(t *testing.T) {
	mk := func(rows ...[]any) *report.Report {
		r := &report.Report{}
		r.Add(report.Part{Tables: []*report.Table{{Name: "rater_adjusted", Columns: []report.Column{
			{Name: "model", Kind: report.Text}, {Name: "rubric", Kind: report.Float}, {Name: "rubric_adjusted", Kind: report.Float}}, Rows: rows}}})
		return r
	}
	got := raterAdjusted(mk([]any{"b", 3.8, 3.9}, []any{"a", 4.0, 3.5}))
	if want := "changes the order: b > a"; !strings.Contains(got, want) {
		t.Errorf("got %q, want it to contain %q", got, want)
	}
	if got := raterAdjusted(mk([]any{"a", 4.0, 3.9}, []any{"b", 3.8, 3.5})); got != "" {
		t.Errorf("same order: got %q", got)
	}
	if got := raterAdjusted(mk([]any{"a", 2.0, 2.1}, []any{"b", 2.5, 2.6})); got != "" {
		t.Errorf("lower is better, same order: got %q", got)
	}
}

// TestWinnerMDE: when the winner is not ahead of every model, the sentence
// states the median minimum detectable effect of the pairs not separated.
func TestWinnerMDE(t *testing.T) {
	r := &report.Report{}
	sum := &report.Table{Name: "summary", Columns: []report.Column{{Name: "set"}, {Name: "graders"}, {Name: "model"}, {Name: "solve_rate"}, {Name: "solve_rate_lo"}, {Name: "solve_rate_hi"}, {Name: "n_questions"}}}
	for i, m := range []string{"a", "b", "c", "d"} {
		sum.Rows = append(sum.Rows, []any{"all", "humans", m, 0.8 - 0.1*float64(i), 0.7 - 0.1*float64(i), 0.9 - 0.1*float64(i), int64(100)})
	}
	pw := &report.Table{Name: "pairwise_significance", Columns: []report.Column{{Name: "model_a"}, {Name: "model_b"}, {Name: "test"}, {Name: "mde"}, {Name: "significant"}}}
	pw.Rows = [][]any{
		{"a", "b", "paired_solve_rate", 0.06, false},
		{"a", "c", "paired_solve_rate", 0.08, false},
		{"a", "d", "paired_solve_rate", 0.05, true},
	}
	r.Add(report.Part{Tables: []*report.Table{sum, pw}})
	f := Make(r)
	if len(f.Headlines) == 0 {
		t.Fatal("no findings")
	}
	// not ahead of b and c: median of 6 and 8 pp
	if want := "detect Solve Rate differences of about 7.0 pp or more"; !strings.Contains(f.Headlines[0].Text, want) {
		t.Errorf("winner: %q, want it to contain %q", f.Headlines[0].Text, want)
	}
}

// The Methods paragraph and the findings describe the instruments the study
// has: no checklist sentence without a checklist, no rubric without a
// rubric, and an undefined α said in words.
func TestMethodsInstruments(t *testing.T) {
	nanAlpha := &report.Table{Name: "reliability", Columns: []report.Column{{Name: "instrument"}, {Name: "population"}, {Name: "statistic"}, {Name: "value", Kind: report.Float}},
		Rows: [][]any{{"rubric_mean", "humans", "alpha_interval", math.NaN()}, {"checklist", "humans", "alpha_nominal", nil}}}
	for _, c := range []struct {
		name        string
		instruments []string
		humans      int
		judges      int
		reliability *report.Table
		want, not   []string
	}{
		{"checklist only", []string{"checklist", "ranking"}, 4, 0, nil,
			[]string{"Each response was checked against a per-question checklist. A response counts as solved when at least 60 % of its checklist is fulfilled (a partial verdict counts 0.5); the Solve Rate",
				"paired tests on Solve Rate with questions as clusters"},
			[]string{"rubric", "t tests"}},
		{"rubric only", []string{"rubric"}, 4, 0, nil,
			[]string{"Each response was scored on a rubric of Domain, Reasoning on the 1–5 scale. A response counts as solved when its mean rubric score is at least 3; the Solve Rate"},
			[]string{"checklist"}},
		{"alpha undefined", []string{"rubric", "checklist"}, 3, 0, nanAlpha,
			[]string{"Agreement between graders could not be measured: no response was graded twice."},
			[]string{"Agreement between graders is Krippendorff's α"}},
		{"judges only", []string{"rubric", "checklist", "judges"}, 0, 2, nil,
			[]string{"2 LLM judges graded the responses, and no human grader (120 judge gradings).",
				"Agreement between human graders could not be measured: the study has none."},
			[]string{"0 human experts"}},
		{"pairwise only", []string{"pairwise"}, 0, 0, nil,
			[]string{"from 2 domains. Pairwise judgments (which of two answers is better) give each model a win rate"},
			[]string{"rubric", "checklist", "Solve Rate", "graded the responses"}},
		{"criteria only", []string{"criteria"}, 0, 0, nil,
			[]string{"weighted per-question criteria (PRBench)"},
			[]string{"rubric", "checklist", "Solve Rate"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := study([3]float64{0.8, 0.5, 0.3}, 0.7, [3]string{"a", "b", "c"}, [3]string{"true", "true", "true"})
			r.Overview.Instruments = c.instruments
			r.Overview.Missing = []string{"references"}
			r.Overview.HumanGraders, r.Overview.Judges = c.humans, c.judges
			r.Overview.JudgeGradings, r.Overview.HumanGradings = 120*min(c.judges, 1), 240*min(c.humans, 1)
			r.Overview.Gradings = r.Overview.JudgeGradings + r.Overview.HumanGradings
			if c.reliability != nil {
				r.Tables = append(r.Tables, c.reliability)
			}
			f := Make(r)
			for _, w := range c.want {
				if !strings.Contains(f.Methods, w) {
					t.Errorf("Methods lacks %q:\n%s", w, f.Methods)
				}
			}
			for _, n := range c.not {
				if strings.Contains(f.Methods, n) {
					t.Errorf("Methods has %q:\n%s", n, f.Methods)
				}
			}
			if c.reliability != nil && headline(t, f, "reliability") != "Agreement between graders could not be measured: no response was graded twice." {
				t.Errorf("reliability finding %q", headline(t, f, "reliability"))
			}
		})
	}
}

// No finding is written about an undefined Solve Rate.
func TestNoFindingOnUndefined(t *testing.T) {
	r := study([3]float64{math.NaN(), math.NaN(), math.NaN()}, math.NaN(), [3]string{"", "", ""}, [3]string{"", "", ""})
	for _, row := range r.Tables[1].Rows {
		row[8], row[9], row[10] = math.NaN(), math.NaN(), math.NaN() // rubric too
	}
	for _, h := range Make(r).Headlines {
		if h.Topic == "winner" || h.Topic == "rubric" || strings.Contains(h.Text, "—") {
			t.Errorf("finding about an undefined value: %q", h.Text)
		}
	}
}
