package paper

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// rubricOnly is the mini study without checklist verdicts, ranks and judge.
func rubricOnly(t *testing.T) *study.Study {
	s := miniStudy(t)
	var gs []study.Grading
	for _, g := range s.Gradings {
		if g.Kind == study.Judge {
			continue
		}
		g.Verdicts, g.Rank = nil, 0
		gs = append(gs, g)
	}
	s.Gradings = gs
	var evs []study.Evaluator
	for _, e := range s.Evaluators {
		if e.Kind == study.Human {
			evs = append(evs, e)
		}
	}
	s.Evaluators = evs
	for i := range s.Questions {
		s.Questions[i].Checklist = nil
	}
	return s
}

func TestRubricOnlyStudy(t *testing.T) {
	r := analyze(t, rubricOnly(t), nil)
	// Solve Rate with the rubric rule alone (A+B ≥ 6):
	// M1 sums 7,6,7,8,10,8 → 6/6; M2 5,8,3,8,6,9 → 8,8,6,9 pass → 4/6.
	m1 := rowWhere(t, r, "summary", "set", "all", "graders", "humans", "model", "M1")
	checkExact(t, "M1 solve", m1["solve_rate"], 1)
	checkFloat(t, "M1 rank", m1["avg_rank"], math.NaN())
	checkFloat(t, "M1 checklist", m1["checklist_rate"], math.NaN())
	m2 := rowWhere(t, r, "summary", "set", "all", "graders", "humans", "model", "M2")
	checkExact(t, "M2 solve", m2["solve_rate"], 4.0/6)
	checkExact(t, "M2 rubric", m2["rubric"], 39.0/12)
	if !hasNote(r, "summary", "no checklist: Solve Rate uses the rubric rule alone") {
		t.Errorf("missing rubric-rule note; notes: %v", r.Notes)
	}
	for _, name := range []string{"checklist_distribution", "verdict_pairs", "judge_consistency", "text_metrics"} {
		if r.Table(name) != nil {
			t.Errorf("table %s should be left out", name)
		}
		if !hasNote(r, name, "left out") {
			t.Errorf("no left-out note for %s", name)
		}
	}
	// Table 6 keeps what the rubric allows: cross_rubric (−1, undef, −1)
	// and the Pearson row; no explicit or checklist comparisons.
	row := rowWhere(t, r, "consistency", "comparison", "cross_rubric")
	checkFloat(t, "cross rubric", row["value"], -1)
	rowWhere(t, r, "consistency", "comparison", "pearson_rubric")
	tb := r.Table("consistency")
	if len(tb.Rows) != 2 {
		t.Errorf("consistency has %d rows, want 2 (cross_rubric, pearson_rubric)", len(tb.Rows))
	}
	// Table 5 without the Checklist row.
	if len(r.Table("attribute_correlations").Rows) != 2 {
		t.Errorf("attribute_correlations rows = %d, want 2", len(r.Table("attribute_correlations").Rows))
	}
	for _, in := range r.Overview.Missing {
		if in == "rubric" {
			t.Error("rubric reported missing")
		}
	}
}

// checklistOnly is the mini study without rubric scores.
func checklistOnly(t *testing.T) *study.Study {
	s := miniStudy(t)
	s.Attributes = nil
	for i := range s.Gradings {
		s.Gradings[i].Rubric = nil
	}
	return s
}

func TestChecklistOnlyStudy(t *testing.T) {
	r := analyze(t, checklistOnly(t), nil)
	// Checklist rule alone (rate ≥ 0.6): M1 1/2, 5/6, 3/4, 1/2, 9/10, 1/2 → 3/6;
	// M2 2/3, 1/2, 0, 3/4, 3/5, 3/5 → 4/6. Ranks are unchanged.
	m1 := rowWhere(t, r, "summary", "set", "all", "graders", "humans", "model", "M1")
	checkExact(t, "M1 solve", m1["solve_rate"], 0.5)
	checkExact(t, "M1 rank", m1["avg_rank"], 8.0/6)
	checkFloat(t, "M1 rubric", m1["rubric"], math.NaN())
	m2 := rowWhere(t, r, "summary", "set", "all", "graders", "humans", "model", "M2")
	checkExact(t, "M2 solve", m2["solve_rate"], 4.0/6)
	if !hasNote(r, "summary", "no rubric: Solve Rate uses the checklist rule alone") {
		t.Errorf("missing checklist-rule note; notes: %v", r.Notes)
	}
	for _, name := range []string{"rubric_by_attribute", "attribute_correlations", "pairwise_tests", "pvalue_curve", "evaluator_leniency"} {
		if r.Table(name) != nil {
			t.Errorf("table %s should be left out", name)
		}
		if !hasNote(r, name, "left out") {
			t.Errorf("no left-out note for %s", name)
		}
	}
	// explicit vs checklist is still there (4/6, as in the full study).
	checkFloat(t, "explicit vs checklist", rowWhere(t, r, "consistency", "comparison", "explicit_vs_checklist")["value"], 4.0/6)
	rowWhere(t, r, "checklist_distribution", "model", "M1")
}

// A study with three human graders (and a judge) on one question: fractional verdict
// pair weights, human-vs-mean-of-others, and an empty reference subset.
func TestThreeGraders(t *testing.T) {
	qs := []study.Question{{ID: "q", Domain: "D", GateScore: math.NaN(), Checklist: []string{"a"}}}
	lines := []string{
		"e1 . q M1 4,4 h 1", "e1 . q M2 3,3 p 2", "e1 . q M3 2,2 m 3",
		"e2 . q M1 3,3 h 2", "e2 . q M2 4,4 h 1", "e2 . q M3 1,1 m 3",
		"e3 . q M1 5,5 p 1", "e3 . q M2 2,2 m 3", "e3 . q M3 3,3 h 2",
		"J . q M1 4,4 h 1", "J . q M2 3,3 h 2", "J . q M3 2,2 m 3",
	}
	s := buildStudy(t, []string{"A", "B"}, qs, []string{"M1", "M2", "M3"}, lines)
	r := analyze(t, s, nil)
	// Figure 5, item 1: M1 (h, h, p): pairs hh, hp, hp each 1/3 → yy 1/3,
	// yp 2/3; M2 (p, h, m): hp, pm, hm → yp, pn, yn 1/3 each; M3 (m, m, h):
	// mm, hm, hm → nn 1/3, yn 2/3. Total weight 3: yy 1/9, yp 3/9, yn 3/9,
	// pp 0, pn 1/9, nn 1/9.
	all := rowWhere(t, r, "verdict_pairs", "domain", "Overall")
	checkInt(t, "cells", all["cells"], 3)
	for c, w := range map[string]float64{"yes_yes": 1, "yes_partial": 3, "yes_no": 3, "partial_partial": 0, "partial_no": 1, "no_no": 1} {
		checkExact(t, c, all[c], w/9)
	}
	// Human vs mean of the other two, rubric: e1 (M1 4 > M2 3 > M3 2)
	// against mean(e2, e3) = M1 4, M2 3, M3 2 → τ = 1; e2 (3, 4, 1) against
	// mean(e1, e3) = (4.5, 2.5, 2.5): pairs M1M2 discordant, M1M3 concordant,
	// M2M3 tie in y: n0 = 3, n1 = 0, n2 = 1 → τ = (1 − 1)/√(3·2) = 0; e3
	// (5, 2, 3) against mean(e1, e2) = (3.5, 3.5, 1.5): M1M2 tie in y, M1M3
	// concordant, M2M3 discordant → 0. Mean 1/3.
	row := rowWhere(t, r, "judge_consistency", "graders", "humans", "instrument", "rubric", "comparison", "human_vs_mean_of_others")
	checkFloat(t, "human vs others", row["tau"], 1.0/3)
	checkInt(t, "n", row["n"], 3)
	if !hasNote(r, "summary", "set reference_subset is empty") {
		t.Errorf("missing empty-reference-subset note: %v", r.Notes)
	}
}
