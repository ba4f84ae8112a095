package prbench

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/internal/tabletest"
	"github.com/euroexec/euroexec/report"
)

// cellChecker reads a table's rows in order and checks every column by name.
type cellChecker struct {
	t    *testing.T
	tab  *report.Table
	next int
}

func (c *cellChecker) row(want map[string]any) {
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

func (c *cellChecker) done() {
	c.t.Helper()
	if c.next != len(c.tab.Rows) {
		c.t.Errorf("%s: %d table rows, %d typed rows", c.tab.Name, len(c.tab.Rows), c.next)
	}
}

func scoreCells(m map[string]any, r ScoreRow) map[string]any {
	m["model"], m["graders"], m["n_questions"], m["n"] = r.Model, r.Graders, r.Questions, r.N
	for name, s := range map[string]Score{"clipped": r.Clipped, "normalized": r.Normalized} {
		m[name+"_mean"], m[name+"_sd"], m[name+"_lo"], m[name+"_hi"] = s.Mean, s.SD, s.Lo, s.Hi
	}
	return m
}

// TestPartFromTyped: every cell of the nine PRBench tables, read by column
// name, is the typed value of the Result.
func TestPartFromTyped(t *testing.T) {
	opt := DefaultOptions()
	opt.Bootstrap = 50
	seen := map[string]int{}
	for _, res := range []Result{analyze(synthStudy(40, 3, 6, 0.5, 9), opt), analyze(scoreStudy(), opt), analyze(agreeStudy(), opt)} {
		p := res.Part()
		tabs := map[string]*cellChecker{}
		for _, tb := range p.Tables {
			tabs[tb.Name] = &cellChecker{t: t, tab: tb}
			seen[tb.Name]++
		}
		check := func(name string, n int, each func(c *cellChecker, i int)) {
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
		check("prbench_scores", len(res.Scores), func(c *cellChecker, i int) {
			c.row(scoreCells(map[string]any{"set": res.Scores[i].Set}, res.Scores[i]))
		})
		check("prbench_by_domain", len(res.ByDomain), func(c *cellChecker, i int) {
			r := res.ByDomain[i]
			c.row(scoreCells(map[string]any{"set": r.Set, "domain": r.Domain}, r))
		})
		check("prbench_by_tag", len(res.ByTag), func(c *cellChecker, i int) {
			r := res.ByTag[i]
			c.row(scoreCells(map[string]any{"tag": r.Tag, "value": r.Value}, r))
		})
		check("prbench_hard_questions", len(res.Hard), func(c *cellChecker, i int) {
			h := res.Hard[i]
			c.row(map[string]any{"domain": h.Domain, "rank": h.Rank, "question_id": h.QuestionID, "mean_clipped": h.MeanClipped,
				"n_models": h.Models, "source": h.Source, "n_domain": h.DomainQuestions})
		})
		check("prbench_categories", len(res.ByCategory), func(c *cellChecker, i int) {
			r := res.ByCategory[i]
			c.row(map[string]any{"graders": r.Graders, "category": r.Category, "model": r.Model, "n_questions": r.Questions, "n": r.N,
				"normalized_mean": r.Normalized.Mean, "normalized_sd": r.Normalized.SD, "normalized_lo": r.Normalized.Lo, "normalized_hi": r.Normalized.Hi})
		})
		check("criterion_agreement", len(res.Agreement), func(c *cellChecker, i int) {
			r := res.Agreement[i]
			c.row(map[string]any{"grader_a": r.GraderA, "grader_b": r.GraderB, "pair_kind": r.PairKind, "breakdown": r.Breakdown,
				"n_questions": r.Questions, "n": r.N, "n_both_met": r.BothMet, "n_a_only": r.AOnly, "n_b_only": r.BOnly, "n_neither": r.Neither,
				"agreement": r.Agreement.Value, "agreement_lo": r.Agreement.Lo, "agreement_hi": r.Agreement.Hi,
				"kappa": r.Kappa.Value, "kappa_lo": r.Kappa.Lo, "kappa_hi": r.Kappa.Hi,
				"macro_f1": r.MacroF1.Value, "macro_f1_lo": r.MacroF1.Lo, "macro_f1_hi": r.MacroF1.Hi})
		})
		check("judge_parity", len(res.Parity), func(c *cellChecker, i int) {
			r := res.Parity[i]
			var within any
			if !math.IsNaN(r.DifferenceLo) {
				within = r.DifferenceLo > -r.ParityMargin
			}
			c.row(map[string]any{"judge": r.Judge, "n_expert_pairs": r.ExpertPairs, "n_questions": r.Questions, "n": r.N,
				"judge_expert_agreement": r.JudgeExpert, "expert_expert_agreement": r.ExpertExpert, "difference": r.Difference,
				"difference_lo": r.DifferenceLo, "difference_hi": r.DifferenceHi, "parity_margin": r.ParityMargin, "within_expert_range": within})
		})
		check("prbench_length", len(res.Length), func(c *cellChecker, i int) {
			r := res.Length[i]
			c.row(map[string]any{"graders": r.Graders, "model": r.Model, "n": r.N, "mean_chars": r.MeanChars, "mean_clipped": r.MeanClipped,
				"pearson_r": r.PearsonR, "p_value": r.PValue, "slope": r.Slope, "intercept": r.Intercept})
		})
		check("prbench_ungraded_criteria", len(res.Ungraded), func(c *cellChecker, i int) {
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
		"criterion_agreement", "judge_parity", "prbench_length"} {
		if seen[name] == 0 {
			t.Errorf("no study made %s: its check proves nothing", name)
		}
	}
}
