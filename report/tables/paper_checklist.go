package tables

import (
	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report"
)

// paperPairCols names Figure 5's pair categories in the order of
// paper.VerdictPairRow.Shares, with their column docs.
var paperPairCols = [6][2]string{
	{"yes_yes", "share of weight on hit–hit pairs"},
	{"yes_partial", "hit–partial"},
	{"yes_no", "hit–miss"},
	{"partial_partial", "partial–partial"},
	{"partial_no", "partial–miss"},
	{"no_no", "miss–miss"},
}

// paperChecklist presents Figure 4 (checklist_distribution) and Figure 5
// (verdict_pairs), each table with its figure; a table the analysis left
// out (nil rows) is absent.
func paperChecklist(c paper.Checklist) report.Part {
	var p report.Part
	if c.Distribution != nil {
		t := &report.Table{Name: "checklist_distribution", Title: "Figure 4: Distribution of checklist fulfilment rates", Section: report.SectionChecklist,
			Doc: "Per model, the share of human gradings (main round) whose checklist rate falls in each range of width 0.2.",
			Columns: []report.Column{
				paperCol("model", report.Text, "model"),
				paperCol("bin", report.Text, "checklist-rate range"),
				paperCol("bin_index", report.Int, "0..4"),
				paperCol("gradings", report.Int, "gradings in the range"),
				paperCol("n", report.Int, "gradings of the model with a defined checklist rate"),
				paperCol("share", report.Fraction, "gradings / n"),
			}}
		f := &report.Figure{ID: "fig4_checklist_distribution", Section: report.SectionChecklist,
			Title: "Figure 4: Share of gradings per checklist fulfilment range", Kind: report.Line,
			XName: "checklist fulfilment rate", YName: "share of gradings", YUnit: "%", Percent: true,
			Table: t.Name, Categories: c.Bins}
		for i, r := range c.Distribution {
			t.Rows = append(t.Rows, []any{r.Model, r.Bin, r.BinIndex, r.Gradings, r.N, r.Share})
			if i%len(c.Bins) == 0 {
				f.Series = append(f.Series, report.Series{Name: r.Model})
			}
			s := &f.Series[len(f.Series)-1]
			s.Values = append(s.Values, r.Share)
		}
		p.Tables = append(p.Tables, t)
		p.Figures = append(p.Figures, f)
	}
	if c.VerdictPairs != nil {
		t := &report.Table{Name: "verdict_pairs", Title: "Figure 5: Verdict pairs per checklist item", Section: report.SectionChecklist,
			Doc: "Share of annotator verdict pairs per (response, checklist item), by domain and overall; each cell with k ≥ 2 human verdicts weighs 1 split evenly over its k(k−1)/2 pairs.",
			Columns: []report.Column{
				paperCol("domain", report.Text, "question domain, or Overall"),
				paperCol("cells", report.Int, "(response, item) cells with at least 2 verdicts other than na"),
				paperCol("cells_left_out", report.Int, "cells with fewer than 2 verdicts other than na"),
				paperCol("na_verdicts", report.Int, "na verdicts left out"),
			}}
		for _, pc := range paperPairCols {
			t.Columns = append(t.Columns, paperCol(pc[0], report.Fraction, pc[1]))
		}
		var names []string
		for _, r := range c.VerdictPairs {
			names = append(names, r.Domain)
		}
		f := &report.Figure{ID: "fig5_verdict_pairs", Section: report.SectionChecklist,
			Title: "Figure 5: Annotator verdict pairs per checklist item, by domain and overall", Kind: report.Bar,
			XName: "domain", YName: "share of pairs", YUnit: "%", Percent: true, Table: t.Name, Categories: names}
		series := make([]report.Series, len(paperPairCols))
		for k := range series {
			series[k].Name = paperPairCols[k][0]
		}
		for _, r := range c.VerdictPairs {
			row := []any{r.Domain, r.Cells, r.LeftOut, r.NA}
			for k, sh := range r.Shares {
				row = append(row, sh)
				series[k].Values = append(series[k].Values, sh)
			}
			t.Rows = append(t.Rows, row)
		}
		f.Series = series
		p.Tables = append(p.Tables, t)
		p.Figures = append(p.Figures, f)
	}
	return p
}
