package prbench

import (
	"fmt"
	"math"
	"sort"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// grade appends one grader's grades of one response: mets[i] is '1' (met),
// '0' (not met) or '-' (not graded) for criterion ids[i].
func grade(s *study.Study, ev, kind, q, m string, ids []string, mets string) {
	for i, id := range ids {
		if mets[i] == '-' {
			continue
		}
		s.CriterionGrades = append(s.CriterionGrades, study.CriterionGrade{
			Evaluator: ev, Kind: kind, QuestionID: q, Model: m, CriterionID: id, Met: mets[i] == '1'})
	}
}

// view is the typed rows of one PRBench table, each row its values keyed
// by the table's column names, read from the Result's structs (not from
// the report table, which report/tables builds and tests).
type view struct {
	name string
	rows []map[string]any
}

// scoreCells are the score values of r by column name.
func scoreCells(r ScoreRow, keys map[string]any) map[string]any {
	keys["n_questions"], keys["n"] = r.Questions, r.N
	keys["clipped_mean"], keys["clipped_sd"], keys["clipped_lo"], keys["clipped_hi"] = r.Clipped.Mean, r.Clipped.SD, r.Clipped.Lo, r.Clipped.Hi
	keys["normalized_mean"], keys["normalized_sd"], keys["normalized_lo"], keys["normalized_hi"] = r.Normalized.Mean, r.Normalized.SD, r.Normalized.Lo, r.Normalized.Hi
	return keys
}

// views are the typed rows of every table res has rows for, by table name.
func views(res Result) map[string]*view {
	out := map[string]*view{}
	add := func(name string, row map[string]any) {
		v := out[name]
		if v == nil {
			v = &view{name: name}
			out[name] = v
		}
		v.rows = append(v.rows, row)
	}
	for _, r := range res.Scores {
		add("prbench_scores", scoreCells(r, map[string]any{"set": r.Set, "graders": r.Graders, "model": r.Model}))
	}
	for _, r := range res.ByDomain {
		add("prbench_by_domain", scoreCells(r, map[string]any{"set": r.Set, "graders": r.Graders, "domain": r.Domain, "model": r.Model}))
	}
	for _, r := range res.ByTag {
		add("prbench_by_tag", scoreCells(r, map[string]any{"graders": r.Graders, "tag": r.Tag, "value": r.Value, "model": r.Model}))
	}
	for _, h := range res.Hard {
		add("prbench_hard_questions", map[string]any{"domain": h.Domain, "rank": h.Rank, "question_id": h.QuestionID,
			"mean_clipped": h.MeanClipped, "n_models": h.Models, "source": h.Source, "n_domain": h.DomainQuestions})
	}
	for _, c := range res.ByCategory {
		add("prbench_categories", map[string]any{"graders": c.Graders, "category": c.Category, "model": c.Model, "n_questions": c.Questions,
			"n": c.N, "normalized_mean": c.Normalized.Mean, "normalized_sd": c.Normalized.SD, "normalized_lo": c.Normalized.Lo, "normalized_hi": c.Normalized.Hi})
	}
	for _, r := range res.Agreement {
		add("criterion_agreement", map[string]any{"grader_a": r.GraderA, "grader_b": r.GraderB, "pair_kind": r.PairKind, "breakdown": r.Breakdown,
			"n_questions": r.Questions, "n": r.N, "n_both_met": r.BothMet, "n_a_only": r.AOnly, "n_b_only": r.BOnly, "n_neither": r.Neither,
			"agreement": r.Agreement.Value, "agreement_lo": r.Agreement.Lo, "agreement_hi": r.Agreement.Hi,
			"kappa": r.Kappa.Value, "kappa_lo": r.Kappa.Lo, "kappa_hi": r.Kappa.Hi,
			"macro_f1": r.MacroF1.Value, "macro_f1_lo": r.MacroF1.Lo, "macro_f1_hi": r.MacroF1.Hi})
	}
	for _, r := range res.Parity {
		add("judge_parity", map[string]any{"judge": r.Judge, "n_expert_pairs": r.ExpertPairs, "n_questions": r.Questions, "n": r.N,
			"judge_expert_agreement": r.JudgeExpert, "expert_expert_agreement": r.ExpertExpert, "difference": r.Difference,
			"difference_lo": r.DifferenceLo, "difference_hi": r.DifferenceHi, "parity_margin": r.ParityMargin, "within_expert_range": r.Within})
	}
	for _, l := range res.Length {
		add("prbench_length", map[string]any{"graders": l.Graders, "model": l.Model, "n": l.N, "mean_chars": l.MeanChars,
			"mean_clipped": l.MeanClipped, "pearson_r": l.PearsonR, "p_value": l.PValue, "slope": l.Slope, "intercept": l.Intercept})
	}
	for _, c := range res.Ungraded {
		add("prbench_ungraded_criteria", map[string]any{"question_id": c.QuestionID, "criterion_id": c.CriterionID, "weight": c.Weight, "category": c.Category})
	}
	return out
}

// table returns the typed rows of the named table; it fails the test when
// res has none.
func table(t *testing.T, res Result, name string) *view {
	t.Helper()
	if v := views(res)[name]; v != nil {
		return v
	}
	t.Fatalf("table %s missing; have %v", name, tableNames(res))
	return nil
}

// tableNames are the tables res has rows for, sorted.
func tableNames(res Result) []string {
	var n []string
	for name := range views(res) {
		n = append(n, name)
	}
	sort.Strings(n)
	return n
}

// cellOf returns column name of r; it fails the test when tb has no such
// column.
func cellOf(t *testing.T, tb *view, r map[string]any, name string) any {
	t.Helper()
	v, ok := r[name]
	if !ok {
		t.Fatalf("table %s has no column %s", tb.name, name)
	}
	return v
}

// row returns the single row of tb whose text columns match key (column
// name → value).
func row(t *testing.T, tb *view, key map[string]string) map[string]any {
	t.Helper()
	var found map[string]any
	n := 0
	for _, r := range tb.rows {
		ok := true
		for c, v := range key {
			if fmt.Sprint(cellOf(t, tb, r, c)) != v {
				ok = false
				break
			}
		}
		if ok {
			found = r
			n++
		}
	}
	if n != 1 {
		t.Fatalf("table %s: %d rows match %v, want 1", tb.name, n, key)
	}
	return found
}

// checkF checks a float value; want NaN means an undefined value.
func checkF(t *testing.T, tb *view, r map[string]any, colName string, want, tol float64) {
	t.Helper()
	v := cellOf(t, tb, r, colName)
	got, ok := v.(float64)
	if !ok {
		t.Errorf("%s.%s: got %T %v, want float64 %v", tb.name, colName, v, v, want)
		return
	}
	if math.IsNaN(want) {
		if !math.IsNaN(got) {
			t.Errorf("%s.%s: got %v, want NaN", tb.name, colName, got)
		}
		return
	}
	if math.IsNaN(got) || math.Abs(got-want) > tol {
		t.Errorf("%s.%s: got %.17g, want %.17g", tb.name, colName, got, want)
	}
}

// checkV checks a non-float value by its printed form.
func checkV(t *testing.T, tb *view, r map[string]any, colName string, want any) {
	t.Helper()
	if got := cellOf(t, tb, r, colName); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s.%s: got %v, want %v", tb.name, colName, got, want)
	}
}
