package prbench

import (
	"math"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
)

// lengthTable builds prbench_length and the length-vs-score scatter.
func (p *prep) lengthTable() (*report.Table, *report.Figure) {
	if len(p.s.Responses) == 0 {
		p.note("prbench_length", "the study has no response dumps; length against score is left out")
		return nil, nil
	}
	type key struct{ q, m string }
	resp := make(map[key]*analysis.Response, len(p.s.Responses))
	for i := range p.s.Responses {
		r := &p.s.Responses[i]
		resp[key{r.QuestionID, r.Model}] = r
	}
	t := &report.Table{Name: "prbench_length", Title: "PRBench score against response length", Section: report.SectionPRBench,
		Doc: "Per grader population and model (and all models pooled, model = (all)): response length in Unicode code points against the response's mean clipped score over the population's gradings; Pearson r and the least-squares line.",
		Columns: []report.Column{colGraders, colModel,
			col("n", report.Int, "responses with a length and a defined clipped score"),
			col("mean_chars", report.Float, "mean response length in Unicode code points"),
			col("mean_clipped", report.Fraction, "mean over responses of the response's mean clipped score"),
			col("pearson_r", report.Float, "Pearson r of length and clipped score over responses"),
			col("p_value", report.Float, "two-sided p-value of r (t test, n − 2 degrees of freedom)"),
			col("slope", report.Float, "least-squares slope: clipped score per character"),
			col("intercept", report.Float, "least-squares intercept"),
		}}
	fig := &report.Figure{ID: "prbench_length_vs_score", Section: report.SectionPRBench,
		Title: "Mean clipped score against mean response length per model", Kind: report.Scatter,
		XName: "mean response length", XUnit: "characters", YName: "clipped score", Percent: true, Table: t.Name}
	missing := 0
	for pop := range p.pops {
		xs := make([][]float64, len(p.models))
		ys := make([][]float64, len(p.models))
		for start := 0; start < len(p.units); {
			u0 := &p.units[start]
			end := start
			var sum float64
			n := 0
			for end < len(p.units) && p.units[end].q == u0.q && p.units[end].m == u0.m {
				u := &p.units[end]
				if p.graders[u.g].pop == pop && u.clip.ok() {
					sum += u.clip.float()
					n++
				}
				end++
			}
			start = end
			if n == 0 {
				continue
			}
			r := resp[key{p.qs[u0.q].id, p.models[u0.m]}]
			if r == nil {
				missing++
				continue
			}
			xs[u0.m] = append(xs[u0.m], float64(r.Chars))
			ys[u0.m] = append(ys[u0.m], sum/float64(n))
		}
		var allX, allY []float64
		var pts []report.Point
		row := func(name string, x, y []float64) {
			lr := stats.LinRegress(x, y)
			r, pv := stats.Pearson(x, y)
			addRow(t, p.pops[pop], name, int64(len(x)), stats.Mean(x), stats.Mean(y), r, pv, lr.Slope, lr.Intercept)
		}
		for m := range p.models {
			if len(xs[m]) == 0 {
				continue
			}
			row(p.models[m], xs[m], ys[m])
			allX = append(allX, xs[m]...)
			allY = append(allY, ys[m]...)
			pts = append(pts, report.Point{X: stats.Mean(xs[m]), Y: stats.Mean(ys[m]), Label: p.models[m]})
		}
		if len(allX) == 0 {
			continue
		}
		row("(all)", allX, allY)
		fig.Series = append(fig.Series, report.Series{Name: p.pops[pop], Points: pts})
	}
	if missing > 0 {
		p.note("prbench_length", "%d graded responses (counted once per grader population) are missing from the response dumps and left out", missing)
	}
	if len(t.Rows) == 0 {
		return nil, nil
	}
	for _, se := range fig.Series {
		if len(se.Points) < 2 {
			continue
		}
		var x, y []float64
		for _, pt := range se.Points {
			x = append(x, pt.X)
			y = append(y, pt.Y)
		}
		if lr := stats.LinRegress(x, y); !math.IsNaN(lr.Slope) {
			x1, x2 := minMax(x)
			fig.Lines = append(fig.Lines, report.RefLine{Name: "least squares (" + se.Name + ")",
				X1: x1, Y1: lr.Intercept + float64(lr.Slope*x1), X2: x2, Y2: lr.Intercept + float64(lr.Slope*x2)})
		}
	}
	return t, fig
}

func minMax(x []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range x {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo, hi
}
