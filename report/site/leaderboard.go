package site

import (
	"fmt"
	"math"
	"strconv"

	"github.com/euroexec/euroexec/report/findings"
)

// boardView is the index page's leaderboard (findings.Leaderboard), shown
// first: its heading, the ranked grid and how to read it.
type boardView struct {
	Caption, Legend string
	Grid            grid
}

// leaderboardView lays the report's leaderboard out; nil when the study
// defines no score per model.
func (b *builder) leaderboardView() *boardView {
	lb := findings.Leaderboard(b.r)
	if len(lb.Rows) == 0 {
		return nil
	}
	v := &boardView{Caption: lb.Caption(), Legend: lb.Legend()}
	head := []headCell{{Name: "rank", Doc: "place by " + lb.Metric + " (95 % bootstrap interval of the rank)", Num: true},
		{Name: "model"}, {Name: lb.Metric, Doc: lb.Metric + " with its 95 % interval", Num: true}}
	if lb.HasGroup {
		head = append(head, headCell{Name: "group", Doc: "models sharing a letter do not differ significantly"})
	}
	head = append(head, headCell{Name: "n", Doc: lb.NUnit, Num: true})
	if lb.HasCost {
		head = append(head, headCell{Name: "cost", Doc: "total USD of the model's responses", Num: true})
	}
	v.Grid.Head = head
	for _, l := range lb.Rows {
		row := []dataCell{{Text: l.RankText(), Sort: strconv.Itoa(l.Rank), Class: "num"}, {Text: l.Name, Title: l.ID},
			{Text: lb.ValueText(l), Sort: sortKey(l.Value), Class: "num"}}
		if lb.HasGroup {
			row = append(row, dataCell{Text: l.Group})
		}
		row = append(row, dataCell{Text: strconv.FormatInt(l.N, 10), Sort: strconv.FormatInt(l.N, 10), Class: "num"})
		if lb.HasCost {
			row = append(row, dataCell{Text: l.CostText(), Sort: sortKey(l.Cost), Class: "num", Undefined: math.IsNaN(l.Cost)})
		}
		v.Grid.Rows = append(v.Grid.Rows, row)
	}
	return v
}

// sortKey is a number's data-sort value ("" for NaN).
func sortKey(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return fmt.Sprint(x)
}

// changesView is a comparison's "what changed" section on the index: the
// flagged changes (findings.WhatChanged), the rows the terminal and the
// workbook show.
type changesView struct {
	Caption string
	Grid    grid
	None    string // the sentence when nothing is flagged
}

// changesSection lays a comparison's flagged changes out; nil for a
// report that is no comparison.
func (b *builder) changesSection() *changesView {
	cs := findings.WhatChanged(b.r)
	if !cs.Found {
		return nil
	}
	v := &changesView{Caption: fmt.Sprintf("%s → %s: %d of %d changes significant after Holm's adjustment across the table", cs.Old, cs.New, len(cs.Flagged), cs.Tests)}
	if len(cs.Flagged) == 0 {
		v.None = "No change of a model's metric is significant."
		return v
	}
	v.Grid.Head = []headCell{{Name: "model"}, {Name: "metric"}, {Name: "graders"}, {Name: cs.Old, Num: true}, {Name: cs.New, Num: true},
		{Name: "change [95 % interval]", Doc: "new − old with its 95 % paired cluster-bootstrap interval over the shared questions", Num: true}, {Name: "direction"}}
	for _, c := range cs.Flagged {
		dir := "better"
		if !c.Better {
			dir = "worse"
		}
		v.Grid.Rows = append(v.Grid.Rows, []dataCell{{Text: c.Name, Title: c.Model}, {Text: findings.MetricLabel(c.Metric)}, {Text: c.Who()},
			{Text: c.ValueText(c.Old), Sort: sortKey(c.Old), Class: "num"}, {Text: c.ValueText(c.New), Sort: sortKey(c.New), Class: "num"},
			{Text: c.DeltaText(), Sort: sortKey(c.Delta), Class: "num"}, {Text: dir}})
	}
	return v
}
