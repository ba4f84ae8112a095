package tables

import (
	"fmt"
	"slices"
	"strings"

	"github.com/euroexec/euroexec/metrics/rateradjust"
	"github.com/euroexec/euroexec/report"
)

// RaterAdjustedTable is the name of the table of rater-adjusted model means.
const RaterAdjustedTable = "rater_adjusted"

// RaterAdjusted builds the rater_adjusted table from r: one row per model,
// ordered by the adjusted mean (highest first when higherBetter, else
// lowest first), with a note when the design does not identify the effects
// or is balanced, and a warning when adjusting changes the order.
func RaterAdjusted(r rateradjust.Result, higherBetter bool) report.Part {
	var p report.Part
	if len(r.Effects) < 2 || r.Graders < 2 {
		return p
	}
	t := &report.Table{
		Name:    RaterAdjustedTable,
		Title:   "Model means adjusted for who graded",
		Section: report.SectionBeyond,
		Doc: "Per model (human gradings, main round): the mean rubric score and the mean adjusted for the graders' leniency and the questions' difficulty " +
			"(least squares with question, model and grader effects), with a 95 % interval from the cluster-robust standard error (questions as clusters). " +
			"When graders did not grade every model equally often, the raw mean mixes the model's quality with the leniency of the graders it got.",
		Columns: []report.Column{
			{Name: "model", Kind: report.Text, Doc: "model name"},
			{Name: "n_gradings", Kind: report.Int, Doc: "human gradings of the model with a rubric score"},
			{Name: "rubric", Kind: report.Float, Doc: "mean rubric score of those gradings (as in summary.csv)"},
			{Name: "rubric_adjusted", Kind: report.Float, Doc: "grand mean plus the model's effect centred over the models: the mean from the average grader on the average question"},
			{Name: "rubric_adjusted_lo", Kind: report.Float, Doc: "lower end of the 95 % t interval (cluster-robust standard error of the centred effect, the grand mean held fixed)"},
			{Name: "rubric_adjusted_hi", Kind: report.Float, Doc: "upper end of that interval"},
			{Name: "shift", Kind: report.Float, Doc: "rubric_adjusted − rubric"},
		},
	}
	es := slices.Clone(r.Effects)
	better := func(a, b rateradjust.Effect) bool {
		if a.Adjusted != b.Adjusted {
			return (a.Adjusted > b.Adjusted) == higherBetter
		}
		return a.Model < b.Model
	}
	if r.Identified {
		slices.SortStableFunc(es, func(a, b rateradjust.Effect) int {
			if better(a, b) {
				return -1
			}
			if better(b, a) {
				return 1
			}
			return 0
		})
	}
	for _, e := range es {
		t.Rows = append(t.Rows, []any{e.Model, int64(e.N), e.Raw, e.Adjusted, e.Lo, e.Hi, e.Shift})
	}
	p.Tables = []*report.Table{t}
	switch {
	case !r.Identified:
		p.Notes = append(p.Notes, report.Note{Table: RaterAdjustedTable,
			Reason: "the graders and questions do not link every model to the others (a model graded only by graders who graded nothing else): the adjusted means cannot be estimated"})
	case r.Balanced:
		p.Notes = append(p.Notes, report.Note{Table: RaterAdjustedTable,
			Reason: "every grader graded every model of each question they graded equally often: adjusting for the graders changes nothing"})
	case r.OrderChanged(higherBetter):
		var names []string
		for _, e := range es {
			names = append(names, e.Model)
		}
		p.Warnings = append(p.Warnings, fmt.Sprintf("adjusting for who graded changes the order of the models (rater_adjusted.csv): adjusted, %s; "+
			"the graders did not grade every model equally often, so raw means mix quality with leniency", strings.Join(names, " > ")))
	}
	return p
}
