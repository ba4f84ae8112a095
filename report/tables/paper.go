package tables

import (
	"fmt"
	"math"

	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report"
)

// Paper presents the paper's analysis: the overview, the tables and
// figures of every concept in the report's order (summary, dataset,
// rubric, significance, checklist, consistency, evaluators, judges, cost,
// text metrics), the question pages,
// the notes (the analysis's, then one per table with empty cells) and the
// warnings. The caller sets Version, GeneratedAt, Settings and Inputs.
func Paper(r *paper.Result) *report.Report {
	o := r.Overview
	rep := &report.Report{Title: r.Title, Attributes: r.Attributes, Questions: paperQuestions(r.Questions),
		Overview: report.Overview{Questions: o.Questions, Models: o.Models, HumanLabel: o.HumanLabel, Domains: o.Domains,
			HumanGraders: o.HumanGraders, Judges: o.Judges, Gradings: o.Gradings, HumanGradings: o.HumanGradings,
			JudgeGradings: o.JudgeGradings, Instruments: o.Instruments, Missing: o.Missing}}
	for _, p := range []report.Part{
		paperSummary(r.Summary, r.Headline),
		paperDataset(r.Dataset),
		paperRubric(r.Rubric),
		paperSignificance(r.Significance),
		paperChecklist(r.Checklist),
		paperConsistency(r.Consistency),
		paperEvaluators(r.Evaluators),
		paperJudges(r.Judges),
		paperCost(r.Cost),
		paperText(r.Text),
	} {
		rep.Add(p)
	}
	for _, n := range r.Notes {
		rep.Notes = append(rep.Notes, report.Note{Table: n.Table, Reason: n.Reason})
	}
	rep.Notes = append(rep.Notes, paperUndefinedNotes(rep.Tables)...)
	rep.Warnings = r.Warnings
	return rep
}

// paperCol builds a report.Column.
func paperCol(name string, kind report.ColumnKind, doc string) report.Column {
	return report.Column{Name: name, Kind: kind, Doc: doc}
}

// paperUndefinedNotes gives one note per table with empty (NaN) cells,
// saying why its cells can be empty.
func paperUndefinedNotes(ts []*report.Table) []report.Note {
	var out []report.Note
	for _, t := range ts {
		n := 0
		for _, r := range t.Rows {
			for _, v := range r {
				if f, ok := v.(float64); ok && math.IsNaN(f) {
					n++
				}
			}
		}
		if n > 0 {
			why, ok := paperUndefinedWhy[t.Name]
			if !ok {
				why = "the value is undefined for the data"
			}
			out = append(out, report.Note{Table: t.Name, Reason: fmt.Sprintf("%d empty cells (undefined, not zero): %s", n, why)})
		}
	}
	return out
}

// paperUndefinedWhy says, per table of the paper, why its cells can be empty.
var paperUndefinedWhy = map[string]string{
	"summary":                  "a measure without data (no ranks, no checklist or no rubric for the population) or an interval without bootstrap replicates",
	"models":                   "prices not given in models",
	"difficulty":               "gate score range of a category that is not a configured bin",
	"descriptives":             "a standard deviation needs at least 2 values",
	"solve_rate_by_difficulty": "no graded response of the model in the bin, or no bootstrap replicates",
	"rubric_by_attribute":      "a standard deviation needs at least 2 gradings",
	"rubric_by_domain":         "no grading of the model in the domain, or a standard deviation from fewer than 2 gradings",
	"rubric_overall":           "a standard deviation needs at least 2 gradings",
	"attribute_correlations":   "Pearson r needs at least 2 gradings and neither side constant (the Fisher-z interval at least 4)",
	"pairwise_tests":           "a paired t-test needs at least 2 questions with scores for both models and differences that are not all zero",
	"pvalue_curve":             "no draw at this size gave a defined p-value",
	"pvalue_crossings":         "the median p-value never stays below the threshold",
	"checklist_distribution":   "the model has no grading with a defined checklist rate",
	"verdict_pairs":            "no (response, item) cell of the domain has 2 verdicts",
	"consistency":              "every unit's τ is undefined (a constant side or fewer than 2 models), or no bootstrap replicates",
	"evaluators":               "the evaluator has no grading with a defined checklist rate or solved flag",
	"extreme_evaluators":       "the group did not grade the model, or no bootstrap replicates",
	"judge_consistency":        "every unit's τ is undefined (a constant side, tied judge ranks after averaging runs, or fewer than 2 common models), or no bootstrap replicates",
	"judge_vs_human":           "no response of the model graded by both, or no bootstrap replicates",
	"judge_crispness":          "a slope or SD ratio needs at least 2 models whose human means differ",
	"cost_vs_solve":            "some responses of the model have no cost, or the fit needs 2 models with a cost",
	"length_vs_scores":         "the model has no response with text",
	"length_correlations":      "Pearson r needs at least 2 responses and neither side constant",
	"text_metrics":             "the response has no human grading in the main round",
	"table7":                   "no human grading of the model's scored responses",
	"table7_correlations":      "Pearson r and τ need at least 2 values and neither side constant",
}
