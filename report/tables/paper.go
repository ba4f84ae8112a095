package tables

import (
	"fmt"
	"math"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/report"
)

// Paper presents the paper's analysis: the overview, the tables and
// figures of every concept in the order of the paper, the question pages,
// the notes (the analysis's, then one per table with empty cells) and the
// warnings. The caller sets Version, GeneratedAt, Settings and Inputs.
func Paper(r *analysis.Result) *report.Report {
	src := r.Report
	rep := &report.Report{Title: src.Title, Attributes: src.Attributes, Overview: src.Overview, Questions: src.Questions}
	for _, st := range r.Stages {
		switch st {
		case "judges":
			rep.Add(paperJudges(r.Judges))
		case "summary":
			rep.Add(paperSummary(r.Summary, r.Headline))
		case "cost":
			rep.Add(paperCost(r.Cost))
		case "dataset":
			rep.Add(paperDataset(r.Dataset))
		case "rubric":
			rep.Add(paperRubric(r.Rubric))
		case "checklist":
			rep.Add(paperChecklist(r.Checklist))
		case "significance":
			rep.Add(paperSignificance(r.Significance))
		case "consistency":
			rep.Add(paperConsistency(r.Consistency))
		case "evaluators":
			rep.Add(paperEvaluators(r.Evaluators))
		case "text metrics":
			rep.Add(paperText(r.Text))
		default:
			rep.Add(r.Legacy[st])
		}
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
