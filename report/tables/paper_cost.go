package tables

import (
	"math"

	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report"
)

// paperCost presents Appendices B and C: cost_vs_solve with Figure 8,
// length_vs_scores with Figure 9, and length_correlations; a table the
// analysis left out (nil rows) is absent.
func paperCost(c paper.Cost) report.Part {
	var p report.Part
	if c.Solve != nil {
		t := &report.Table{Name: "cost_vs_solve", Title: "Figure 8: Cost against Solve Rate", Section: report.SectionCost,
			Doc: "Total cost of each model's responses to the questions of set all (cost_usd, else tokens × the prices in models) against its Solve Rate (human graders).",
			Columns: []report.Column{
				paperCol("model", report.Text, "model"),
				paperCol("responses", report.Int, "responses to the set's questions"),
				paperCol("responses_with_cost", report.Int, "responses with a known cost"),
				paperCol("total_cost_usd", report.Float, "total cost in USD; empty when some response has no cost"),
				paperCol("known_cost_usd", report.Float, "sum of the known costs"),
				paperCol("solve_rate", report.Fraction, "Solve Rate (humans, set all)"),
				paperCol("fit_solve_rate", report.Fraction, "least-squares line at the model's cost"),
			}}
		f := &report.Figure{ID: "fig8_cost_vs_solve", Section: report.SectionCost,
			Title: "Figure 8: Cost of all responses against Solve Rate", Kind: report.Scatter,
			XName: "total cost", XUnit: "USD", YName: "Solve Rate", YUnit: "%", Percent: true, Table: t.Name}
		s := report.Series{Name: "models"}
		for _, r := range c.Solve {
			if !math.IsNaN(r.TotalUSD) {
				s.Points = append(s.Points, report.Point{X: r.TotalUSD, Y: r.SolveRate, Label: r.Model})
			}
			t.Rows = append(t.Rows, []any{r.Model, r.Responses, r.WithCost, r.TotalUSD, r.KnownUSD, r.SolveRate, r.FitSolveRate})
		}
		f.Series = []report.Series{s}
		if l := c.Fit; l != nil {
			f.Lines = []report.RefLine{{Name: "least squares", X1: l.X1, Y1: l.Y1, X2: l.X2, Y2: l.Y2}}
		}
		p.Tables = append(p.Tables, t)
		p.Figures = append(p.Figures, f)
	}
	if c.Length != nil {
		t := &report.Table{Name: "length_vs_scores", Title: "Figure 9: Response length against Solve Rate", Section: report.SectionCost,
			Doc: "Mean response length per model over the questions of set all against its Solve Rate (human graders).",
			Columns: []report.Column{
				paperCol("model", report.Text, "model"),
				paperCol("responses", report.Int, "responses with text"),
				paperCol("mean_chars", report.Float, "mean length in Unicode code points"),
				paperCol("mean_words", report.Float, "mean length in whitespace-separated words"),
				paperCol("solve_rate", report.Fraction, "Solve Rate (humans, set all)"),
			}}
		f := &report.Figure{ID: "fig9_length_vs_solve", Section: report.SectionCost,
			Title: "Figure 9: Response length against Solve Rate", Kind: report.Scatter,
			XName: "mean response length", XUnit: "characters", YName: "Solve Rate", YUnit: "%", Percent: true, Table: t.Name}
		s := report.Series{Name: "models"}
		for _, r := range c.Length {
			t.Rows = append(t.Rows, []any{r.Model, r.Responses, r.MeanChars, r.MeanWords, r.SolveRate})
			if r.Responses > 0 {
				s.Points = append(s.Points, report.Point{X: r.MeanChars, Y: r.SolveRate, Label: r.Model})
			}
		}
		f.Series = []report.Series{s}
		p.Tables = append(p.Tables, t)
		p.Figures = append(p.Figures, f)
	}
	if c.LengthCorrelations != nil {
		t := &report.Table{Name: "length_correlations", Title: "Appendix C: Response length against scores", Section: report.SectionCost,
			Doc: "Response-level Pearson r of the response length with the response's mean human rubric mean and mean human checklist rate (set all).",
			Columns: []report.Column{
				paperCol("length", report.Text, "chars or words"),
				paperCol("score", report.Text, "rubric or checklist_rate"),
				paperCol("n", report.Int, "responses"),
				paperCol("r", report.Float, "Pearson r"),
				paperCol("p", report.Float, "two-sided p-value"),
				paperCol("r_lo", report.Float, "95 % Fisher-z interval, lower end"),
				paperCol("r_hi", report.Float, "95 % Fisher-z interval, upper end"),
			}}
		for _, r := range c.LengthCorrelations {
			t.Rows = append(t.Rows, []any{r.Length, r.Score, r.N, r.R, r.P, r.Lo, r.Hi})
		}
		p.Tables = append(p.Tables, t)
	}
	return p
}
