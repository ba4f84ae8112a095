package findings

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/format"
)

// CompareModelsTable is the table of `euroexec compare` that Changes
// reads (metrics/compare.ModelsTable; report imports no metrics).
const CompareModelsTable = "compare_models"

// Change is one flagged row of compare_models: a model's metric that
// changed significantly between the runs (after Holm across the table).
type Change struct {
	Model, Name string // model id and display name
	// Metric is solve_rate, rubric, checklist_rate, avg_rank or win_rate.
	Metric  string
	Graders string // humans or judge:<id>
	// Old and New are the metric in each run, Delta = New − Old, Lo and Hi
	// its 95 % paired bootstrap interval, PHolm its Holm-adjusted p-value.
	Old, New, Delta, Lo, Hi, PHolm float64
	Shared                         int64 // questions shared by the runs
	// Better says the change is an improvement: up for rates and rubric
	// (down for a lower-is-better rubric), down for the average rank.
	Better bool
}

// Changes is the "what changed" summary of a comparison: the flagged
// rows of compare_models, the terminal, the workbook's first sheet and the
// site's index show the same rows.
type Changes struct {
	// Found says the report is a comparison (it has compare_models).
	Found bool
	// Old and New are the labels of the runs compared.
	Old, New string
	// Tests counts the rows of compare_models with a p-value: the changes
	// Holm's adjustment ran over.
	Tests int
	// Flagged are the flagged rows, by metric (in MetricOrder), then
	// worsening first and by size.
	Flagged []Change
}

// MetricOrder is the order of compare_models' metrics in the summary.
var MetricOrder = []string{"solve_rate", "rubric", "checklist_rate", "win_rate", "avg_rank"}

// MetricLabel names a compare_models metric in text.
func MetricLabel(metric string) string {
	switch metric {
	case "solve_rate":
		return "Solve Rate"
	case "rubric":
		return "mean rubric score"
	case "checklist_rate":
		return "checklist rate"
	case "win_rate":
		return "win rate"
	case "avg_rank":
		return "average rank"
	}
	return metric
}

// IsRate says the metric is a rate (its changes are in percentage points).
func IsRate(metric string) bool {
	return metric == "solve_rate" || metric == "checklist_rate" || metric == "win_rate"
}

// DeltaText is the change with its interval: "−12.3 pp [−20.1, −4.5 pp]"
// for a rate, "+0.25 [+0.10, +0.40] points" for the rubric, "+0.42
// [+0.10, +0.70] places" for the average rank.
func (c Change) DeltaText() string {
	if IsRate(c.Metric) {
		iv := ""
		if !math.IsNaN(c.Lo) && !math.IsNaN(c.Hi) {
			iv = " [" + strings.TrimSuffix(format.PercentPoints(c.Lo), " pp") + ", " + format.PercentPoints(c.Hi) + "]"
		}
		return format.PercentPoints(c.Delta) + iv
	}
	unit := " points"
	if c.Metric == "avg_rank" {
		unit = " places"
	}
	s := fmt.Sprintf("%+.2f", c.Delta)
	if !math.IsNaN(c.Lo) && !math.IsNaN(c.Hi) {
		s += fmt.Sprintf(" [%+.2f, %+.2f]", c.Lo, c.Hi)
	}
	return s + unit
}

// ValueText writes a value of the change's metric (old or new).
func (c Change) ValueText(v float64) string {
	if IsRate(c.Metric) {
		return format.Percent(v)
	}
	return format.Points(v)
}

// Who names the grader population of the change.
func (c Change) Who() string { return who(c.Graders) }

// WhatChanged reads the "what changed" summary of a comparison report;
// Found is false for any other report.
func WhatChanged(r *report.Report) Changes {
	var cs Changes
	t := r.Table(CompareModelsTable)
	if t == nil {
		return cs
	}
	cs.Found = true
	cs.Old, cs.New = setting(r, "old_label"), setting(r, "new_label")
	if cs.Old == "" || cs.New == "" {
		if a, b, ok := strings.Cut(strings.TrimPrefix(r.Title, "Comparison: "), " → "); ok {
			cs.Old, cs.New = a, b
		} else {
			cs.Old, cs.New = "OLD", "NEW"
		}
	}
	lower := setting(r, "rubric.direction") == "lower"
	c := cols(t)
	names := DisplayNames(r)
	for _, row := range t.Rows {
		if !math.IsNaN(num(row, c, "p_holm")) {
			cs.Tests++
		}
		if str(row, c.i("flagged")) != "yes" {
			continue
		}
		ch := Change{Model: str(row, c.i("model")), Metric: str(row, c.i("metric")), Graders: str(row, c.i("graders")),
			Old: num(row, c, "old"), New: num(row, c, "new"), Delta: num(row, c, "delta"), Lo: num(row, c, "delta_lo"), Hi: num(row, c, "delta_hi"),
			PHolm: num(row, c, "p_holm"), Shared: integer(row, c, "n_shared_questions")}
		ch.Name = names.Name(ch.Model)
		ch.Better = ch.Delta > 0
		if ch.Metric == "avg_rank" || (ch.Metric == "rubric" && lower) {
			ch.Better = ch.Delta < 0
		}
		cs.Flagged = append(cs.Flagged, ch)
	}
	pos := map[string]int{}
	for i, m := range MetricOrder {
		pos[m] = i + 1
	}
	sort.SliceStable(cs.Flagged, func(i, j int) bool {
		a, b := cs.Flagged[i], cs.Flagged[j]
		if pos[a.Metric] != pos[b.Metric] {
			return pos[a.Metric] < pos[b.Metric]
		}
		if a.Better != b.Better {
			return !a.Better
		}
		return math.Abs(a.Delta) > math.Abs(b.Delta)
	})
	return cs
}

// Sentence is the "what changed" finding: how many changes are flagged,
// then each with its size, interval and direction.
func (cs Changes) Sentence() string {
	if len(cs.Flagged) == 0 {
		return fmt.Sprintf("What changed from %s to %s: no change of a model's metric is significant after Holm's adjustment across the %d changes compared (95 %% cluster-robust intervals over questions); see compare_models for the sizes.",
			cs.Old, cs.New, cs.Tests)
	}
	worse := 0
	var parts []string
	for _, c := range cs.Flagged {
		if !c.Better {
			worse++
		}
		word := "better"
		if !c.Better {
			word = "worse"
		}
		parts = append(parts, fmt.Sprintf("%s's %s (%s) changed by %s (%s)", c.Name, MetricLabel(c.Metric), c.Who(), c.DeltaText(), word))
	}
	return fmt.Sprintf("What changed from %s to %s: %d of %d changes are significant after Holm's adjustment across the table (%d worse, %d better; new − old with 95 %% cluster-robust intervals over questions, paired where both runs graded them): %s.",
		cs.Old, cs.New, len(cs.Flagged), cs.Tests, worse, len(cs.Flagged)-worse, strings.Join(parts, "; "))
}

// DeltaFigures are the delta dot plots of the flagged changes, one per
// metric (one unit per chart): each change a dot at new − old with its
// interval, coloured by its model. A change is its own series, valued at
// its category only, so that no line joins two changes. None when nothing
// is flagged.
func DeltaFigures(cs Changes) []*report.Figure {
	var out []*report.Figure
	for _, m := range MetricOrder {
		var rows []Change
		for _, c := range cs.Flagged {
			if c.Metric == m {
				rows = append(rows, c)
			}
		}
		if len(rows) == 0 {
			continue
		}
		unit := "points"
		switch {
		case IsRate(m):
			unit = ""
		case m == "avg_rank":
			unit = "places"
		}
		// one grader population: named in the title, the categories are
		// the model ids (the chart shows display names and model colours)
		same := true
		for _, c := range rows {
			same = same && c.Graders == rows[0].Graders
		}
		pop, xName := "", "model (graders)"
		if same {
			pop, xName = ", "+rows[0].Who(), "model"
		}
		f := &report.Figure{ID: "compare_delta_" + m, Section: report.SectionCompare, Kind: report.Line,
			Title: fmt.Sprintf("What changed: %s%s, %s − %s (flagged, 95 %% intervals)", MetricLabel(m), pop, cs.New, cs.Old),
			XName: xName, YName: "change of " + MetricLabel(m), YUnit: unit, Percent: IsRate(m), Table: CompareModelsTable}
		for i, c := range rows {
			cat := c.Model
			if !same {
				cat = c.Name + " (" + strings.TrimPrefix(c.Graders, "judge:") + ")"
			}
			f.Categories = append(f.Categories, cat)
			s := report.Series{Name: c.Model, Values: nanVec(len(rows)), Lo: nanVec(len(rows)), Hi: nanVec(len(rows))}
			s.Values[i], s.Lo[i], s.Hi[i] = c.Delta, c.Lo, c.Hi
			f.Series = append(f.Series, s)
		}
		out = append(out, f)
	}
	return out
}

func nanVec(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.NaN()
	}
	return v
}
