package tables

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/euroexec/euroexec/internal/tabletest"
	"github.com/euroexec/euroexec/metrics/prbench"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

// prbenchCellChecker reads a table's rows in order and checks every column by name.
type prbenchCellChecker struct {
	t    *testing.T
	tab  *report.Table
	next int
}

func (c *prbenchCellChecker) row(want map[string]any) {
	c.t.Helper()
	if c.next >= len(c.tab.Rows) {
		c.t.Fatalf("%s: more typed rows than table rows", c.tab.Name)
	}
	r := c.tab.Rows[c.next]
	c.next++
	for name, w := range want {
		if c.tab.Index(name) < 0 {
			c.t.Fatalf("table %s has no column %q", c.tab.Name, name)
		}
		if got := c.tab.Get(r, name); !tabletest.SameCell(got, w) {
			c.t.Errorf("%s row %d %s = %v (%T), want %v (%T)", c.tab.Name, c.next-1, name, got, got, w, w)
		}
	}
	if len(want) != len(c.tab.Columns) {
		c.t.Errorf("%s: checked %d of %d columns", c.tab.Name, len(want), len(c.tab.Columns))
	}
}

func (c *prbenchCellChecker) done() {
	c.t.Helper()
	if c.next != len(c.tab.Rows) {
		c.t.Errorf("%s: %d table rows, %d typed rows", c.tab.Name, len(c.tab.Rows), c.next)
	}
}

// prbenchScoreCells adds the score cells of r to m.
func prbenchScoreCells(m map[string]any, r prbench.ScoreRow) map[string]any {
	m["model"], m["graders"], m["n_questions"], m["n"] = r.Model, r.Graders, r.Questions, r.N
	for name, s := range map[string]prbench.Score{"clipped": r.Clipped, "normalized": r.Normalized} {
		m[name+"_mean"], m[name+"_sd"], m[name+"_lo"], m[name+"_hi"] = s.Mean, s.SD, s.Lo, s.Hi
	}
	return m
}

// prbenchAnalyze runs prbench.Analyze and fails the test on an error.
func prbenchAnalyze(t *testing.T, s *study.Study, opt prbench.Options) prbench.Result {
	t.Helper()
	res, err := prbench.Analyze(context.Background(), s, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestPRBenchFromTyped: every cell of the nine PRBench tables, read by
// column name, is the typed value of the Result (studies: a synthetic one
// with every table, one with an ungraded criterion and no bootstrap, and
// the hand-worked score fixture); the clipped-score bars are the typed
// means; the hand-worked fixture's cells are its hand values.
func TestPRBenchFromTyped(t *testing.T) {
	opt := prbench.DefaultOptions()
	opt.Bootstrap = 50
	noBoot := opt
	noBoot.Bootstrap = 0
	ungraded := prbenchSynthStudy(20, 2, 4, 1, 5)
	ungraded.Criteria = append(ungraded.Criteria, study.Criterion{QuestionID: ungraded.Questions[0].ID, ID: "zz", Weight: 3, Category: "Accuracy"})
	seen := map[string]int{}
	for _, res := range []prbench.Result{prbenchAnalyze(t, prbenchSynthStudy(40, 3, 6, 0.5, 9), opt), prbenchAnalyze(t, ungraded, noBoot),
		prbenchAnalyze(t, prbenchScoreStudy(), opt)} {
		p := PRBench(res)
		tabs := map[string]*prbenchCellChecker{}
		for _, tb := range p.Tables {
			tabs[tb.Name] = &prbenchCellChecker{t: t, tab: tb}
			seen[tb.Name]++
		}
		check := func(name string, n int, each func(c *prbenchCellChecker, i int)) {
			c := tabs[name]
			if c == nil {
				if n > 0 {
					t.Errorf("%d typed rows but no table %s", n, name)
				}
				return
			}
			for i := 0; i < n; i++ {
				each(c, i)
			}
			c.done()
		}
		check("prbench_scores", len(res.Scores), func(c *prbenchCellChecker, i int) {
			c.row(prbenchScoreCells(map[string]any{"set": res.Scores[i].Set}, res.Scores[i]))
		})
		check("prbench_by_domain", len(res.ByDomain), func(c *prbenchCellChecker, i int) {
			r := res.ByDomain[i]
			c.row(prbenchScoreCells(map[string]any{"set": r.Set, "domain": r.Domain}, r))
		})
		check("prbench_by_tag", len(res.ByTag), func(c *prbenchCellChecker, i int) {
			r := res.ByTag[i]
			c.row(prbenchScoreCells(map[string]any{"tag": r.Tag, "value": r.Value}, r))
		})
		check("prbench_hard_questions", len(res.Hard), func(c *prbenchCellChecker, i int) {
			h := res.Hard[i]
			c.row(map[string]any{"domain": h.Domain, "rank": h.Rank, "question_id": h.QuestionID, "mean_clipped": h.MeanClipped,
				"n_models": h.Models, "source": h.Source, "n_domain": h.DomainQuestions})
		})
		check("prbench_categories", len(res.ByCategory), func(c *prbenchCellChecker, i int) {
			r := res.ByCategory[i]
			c.row(map[string]any{"graders": r.Graders, "category": r.Category, "model": r.Model, "n_questions": r.Questions, "n": r.N,
				"normalized_mean": r.Normalized.Mean, "normalized_sd": r.Normalized.SD, "normalized_lo": r.Normalized.Lo, "normalized_hi": r.Normalized.Hi})
		})
		check("criterion_agreement", len(res.Agreement), func(c *prbenchCellChecker, i int) {
			r := res.Agreement[i]
			c.row(map[string]any{"grader_a": r.GraderA, "grader_b": r.GraderB, "pair_kind": r.PairKind, "breakdown": r.Breakdown,
				"n_questions": r.Questions, "n": r.N, "n_both_met": r.BothMet, "n_a_only": r.AOnly, "n_b_only": r.BOnly, "n_neither": r.Neither,
				"agreement": r.Agreement.Value, "agreement_lo": r.Agreement.Lo, "agreement_hi": r.Agreement.Hi,
				"kappa": r.Kappa.Value, "kappa_lo": r.Kappa.Lo, "kappa_hi": r.Kappa.Hi,
				"macro_f1": r.MacroF1.Value, "macro_f1_lo": r.MacroF1.Lo, "macro_f1_hi": r.MacroF1.Hi})
		})
		check("judge_parity", len(res.Parity), func(c *prbenchCellChecker, i int) {
			r := res.Parity[i]
			var within any
			if !math.IsNaN(r.DifferenceLo) {
				within = r.DifferenceLo > -r.ParityMargin
			}
			c.row(map[string]any{"judge": r.Judge, "n_expert_pairs": r.ExpertPairs, "n_questions": r.Questions, "n": r.N,
				"judge_expert_agreement": r.JudgeExpert, "expert_expert_agreement": r.ExpertExpert, "difference": r.Difference,
				"difference_lo": r.DifferenceLo, "difference_hi": r.DifferenceHi, "parity_margin": r.ParityMargin, "within_expert_range": within})
		})
		check("prbench_length", len(res.Length), func(c *prbenchCellChecker, i int) {
			r := res.Length[i]
			c.row(map[string]any{"graders": r.Graders, "model": r.Model, "n": r.N, "mean_chars": r.MeanChars, "mean_clipped": r.MeanClipped,
				"pearson_r": r.PearsonR, "p_value": r.PValue, "slope": r.Slope, "intercept": r.Intercept})
		})
		check("prbench_ungraded_criteria", len(res.Ungraded), func(c *prbenchCellChecker, i int) {
			r := res.Ungraded[i]
			c.row(map[string]any{"question_id": r.QuestionID, "criterion_id": r.CriterionID, "weight": r.Weight, "category": r.Category})
		})
		// The clipped-score chart of each population shows its "all" rows.
		for _, f := range p.Figures {
			if f.Table != "prbench_scores" {
				continue
			}
			for i, m := range f.Categories {
				found := false
				for _, r := range res.Scores {
					if r.Set == "all" && r.Model == m && f.Title == "Clipped score per model ("+r.Graders+")" {
						found = tabletest.SameCell(f.Series[0].Values[i], r.Clipped.Mean) && tabletest.SameCell(f.Series[0].Lo[i], r.Clipped.Lo)
					}
				}
				if !found {
					t.Errorf("%s: bar %s is not the typed clipped mean", f.ID, m)
				}
			}
		}
	}
	for _, name := range []string{"prbench_scores", "prbench_by_domain", "prbench_by_tag", "prbench_hard_questions", "prbench_categories",
		"criterion_agreement", "judge_parity", "prbench_length", "prbench_ungraded_criteria"} {
		if seen[name] == 0 {
			t.Errorf("no study made %s: its check proves nothing", name)
		}
	}
}

// TestPRBenchHandCells: prbench_scores cells of the hand-worked fixture
// (see prbenchScoreStudy): M1 clipped (1 + 1)/2 = 1, M4 clipped (1/8 +
// 0)/2 = 1/16 and normalised (1/2 + 0)/2 = 1/4, M3 normalised (5/14 +
// 1/2)/2 = 3/7; the notes keep their tables and count undefined cells.
func TestPRBenchHandCells(t *testing.T) {
	opt := prbench.DefaultOptions()
	opt.Bootstrap = 0
	p := PRBench(prbenchAnalyze(t, prbenchScoreStudy(), opt))
	var tb *report.Table
	for _, x := range p.Tables {
		if x.Name == "prbench_scores" {
			tb = x
		}
	}
	if tb == nil || tb.Section != report.SectionPRBench {
		t.Fatalf("no prbench_scores table in the PRBench section: %v", p.Tables)
	}
	want := map[string]map[string]float64{"M1": {"clipped_mean": 1}, "M4": {"clipped_mean": 1.0 / 16, "normalized_mean": 0.25}, "M3": {"normalized_mean": 3.0 / 7}}
	checked := 0
	for _, r := range tb.Rows {
		if tb.Get(r, "set") != "all" {
			continue
		}
		for name, w := range want[tb.Get(r, "model").(string)] {
			if got := tb.Get(r, name).(float64); math.Abs(got-w) > 1e-15 {
				t.Errorf("%v %s = %v, want %v", tb.Get(r, "model"), name, got, w)
			}
			checked++
		}
	}
	if checked != 4 {
		t.Errorf("checked %d hand values, want 4", checked)
	}
	heat := 0
	for _, f := range p.Figures {
		if f.Kind == report.Heatmap {
			heat++
			if len(f.Categories) != 2 || len(f.YCategories) != 4 || len(f.Series[0].Cells) != 8 {
				t.Errorf("heat map: %d categories, %d models, %d cells; want 2, 4, 8", len(f.Categories), len(f.YCategories), len(f.Series[0].Cells))
			}
		}
	}
	if heat != 1 {
		t.Errorf("%d category heat maps, want 1 (one judge)", heat)
	}
	undefined := false
	for _, n := range p.Notes {
		undefined = undefined || n.Table == "prbench_scores" && len(n.Reason) > 0 && n.Reason[0] >= '1' && n.Reason[0] <= '9'
	}
	if !undefined {
		t.Errorf("no note on the undefined cells of prbench_scores (no bootstrap): %v", p.Notes)
	}
	n := prbench.Note{Table: "prbench_categories", Reason: "r"}
	if q := PRBench(prbench.Result{Notes: []prbench.Note{n}}); len(q.Tables) != 0 || len(q.Notes) != 1 || q.Notes[0] != (report.Note{Table: n.Table, Reason: n.Reason}) {
		t.Errorf("notes only: tables %d notes %v", len(q.Tables), q.Notes)
	}
}

// prbenchSynthStudy builds (as metrics/prbench's synthStudy) a PRBench-shaped synthetic study: nQ questions (55 %
// Finance, 45 % Legal, a decision-type tag), nCrit criteria per question
// with weights in −10..10 (about 70 % positive, never 0) in 7 categories,
// nM models, judge J on every cell and experts H1, H2 on humanShare of the
// questions. Grades depend on a model's ability and agree with a latent
// truth about 85 % of the time.
func prbenchSynthStudy(nQ, nM, nCrit int, humanShare float64, seed uint64) *study.Study {
	r := rand.New(rand.NewPCG(seed, 0))
	s := &study.Study{}
	cats := []string{"Accuracy", "Process Transparency", "Handling Uncertainty", "Practical Utility", "Risk & Ethics", "Supplemental Insight", "Instruction Following"}
	decisions := []string{"Informational", "Transaction", "Planning", "Compliance"}
	for m := 0; m < nM; m++ {
		s.Models = append(s.Models, study.Model{Name: fmt.Sprintf("model-%02d", m)})
	}
	for q := 0; q < nQ; q++ {
		id := fmt.Sprintf("q%04d", q)
		dom := "Finance"
		if q%20 >= 11 {
			dom = "Legal"
		}
		s.Questions = append(s.Questions, study.Question{ID: id, Domain: dom,
			Tags: []study.Tag{{Key: "decision_type", Value: decisions[r.IntN(len(decisions))]}}})
		for c := 0; c < nCrit; c++ {
			w := 1 + r.IntN(10)
			if c > 0 && r.Float64() < 0.3 {
				w = -w
			}
			s.Criteria = append(s.Criteria, study.Criterion{QuestionID: id, ID: fmt.Sprintf("c%02d", c),
				Weight: w, Category: cats[r.IntN(len(cats))]})
		}
	}
	crits := map[string][]study.Criterion{}
	for _, c := range s.Criteria {
		crits[c.QuestionID] = append(crits[c.QuestionID], c)
	}
	for qi, q := range s.Questions {
		human := float64(qi%100) < humanShare*100
		hard := r.Float64() * 0.4
		for mi, m := range s.Models {
			ability := 0.3 + 0.5*float64(mi)/float64(nM) - hard
			s.Responses = append(s.Responses, study.Response{QuestionID: q.ID, Model: m.Name, Text: "x",
				Chars: 500 + r.IntN(4000) + 100*mi})
			for _, c := range crits[q.ID] {
				p := ability
				if c.Weight < 0 {
					p = 0.25 - ability/4
				}
				truth := r.Float64() < p
				g := func(ev, kind string, acc float64) {
					met := truth
					if r.Float64() > acc {
						met = !met
					}
					s.CriterionGrades = append(s.CriterionGrades, study.CriterionGrade{Evaluator: ev, Kind: kind,
						QuestionID: q.ID, Model: m.Name, CriterionID: c.ID, Met: met})
				}
				if human {
					g("H1", study.Human, 0.92)
					g("H2", study.Human, 0.92)
				}
				g("J", study.Judge, 0.9)
			}
		}
	}
	return s
}

// prbenchScoreStudy is the hand-worked fixture of metrics/prbench's score
// tests. One judge J
// grades four models on two Finance questions.
//
// Q1: c1 +5 (A), c2 +3 (A), c3 −2 (B), c4 −4 (B); max = 8, min = −6, max − min = 14.
//
//	M1 1100: raw  8 → clipped 8/8 = 1 (a perfect response), normalised 14/14 = 1
//	M2 0011: raw −6 → clipped max(−6/8, 0) = 0 (all negatives met), normalised 0/14 = 0
//	M3 1011: raw −1 → clipped 0 (clipping at 0), normalised 5/14
//	M4 0110: raw  1 → clipped 1/8, normalised 7/14 = 1/2
//
// Q2: d1 +10 (A), d2 −10 (B); max = 10, min = −10.
//
//	M1 10: raw 10 → clipped 1, normalised 1
//	M2 11: raw  0 → clipped 0, normalised 10/20 = 1/2
//	M3 00: raw  0 → clipped 0, normalised 1/2
//	M4 01: raw −10 → clipped 0, normalised 0
func prbenchScoreStudy() *study.Study {
	s := &study.Study{
		Questions: []study.Question{
			{ID: "Q1", Domain: "Finance", Tags: []study.Tag{{Key: "decision", Value: "Transaction"}}},
			{ID: "Q2", Domain: "Finance", Tags: []study.Tag{{Key: "decision", Value: "Planning"}}},
		},
		Models: []study.Model{{Name: "M1"}, {Name: "M2"}, {Name: "M3"}, {Name: "M4"}},
		Criteria: []study.Criterion{
			{QuestionID: "Q1", ID: "c1", Weight: 5, Category: "A"},
			{QuestionID: "Q1", ID: "c2", Weight: 3, Category: "A"},
			{QuestionID: "Q1", ID: "c3", Weight: -2, Category: "B"},
			{QuestionID: "Q1", ID: "c4", Weight: -4, Category: "B"},
			{QuestionID: "Q2", ID: "d1", Weight: 10, Category: "A"},
			{QuestionID: "Q2", ID: "d2", Weight: -10, Category: "B"},
		},
	}
	q1 := []string{"c1", "c2", "c3", "c4"}
	q2 := []string{"d1", "d2"}
	for m, g := range map[string][2]string{"M1": {"1100", "10"}, "M2": {"0011", "11"}, "M3": {"1011", "00"}, "M4": {"0110", "01"}} {
		prbenchGrade(s, "J", study.Judge, "Q1", m, q1, g[0])
		prbenchGrade(s, "J", study.Judge, "Q2", m, q2, g[1])
	}
	// Lengths for the length table.
	for _, r := range []struct {
		q, m  string
		chars int
	}{{"Q1", "M1", 400}, {"Q2", "M1", 400}, {"Q1", "M2", 100}, {"Q2", "M2", 100},
		{"Q1", "M3", 200}, {"Q2", "M3", 200}, {"Q1", "M4", 300}, {"Q2", "M4", 100}} {
		s.Responses = append(s.Responses, study.Response{QuestionID: r.q, Model: r.m, Text: "x", Chars: r.chars})
	}
	return s
}

// prbenchGrade appends one grader's grades of one response: mets[i] is '1' (met),
// '0' (not met) or '-' (not graded) for criterion ids[i].
func prbenchGrade(s *study.Study, ev, kind, q, m string, ids []string, mets string) {
	for i, id := range ids {
		if mets[i] == '-' {
			continue
		}
		s.CriterionGrades = append(s.CriterionGrades, study.CriterionGrade{
			Evaluator: ev, Kind: kind, QuestionID: q, Model: m, CriterionID: id, Met: mets[i] == '1'})
	}
}
