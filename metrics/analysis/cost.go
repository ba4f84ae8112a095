package analysis

import (
	"math"

	"github.com/euroexec/euroexec/study"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
)

// costTables builds Appendix B (cost_vs_solve, Figure 8) and Appendix C
// (length_vs_scores, length_correlations, Figure 9).
func (a *run) costTables() {
	v := a.view(setAll, -1)
	if len(v.g) == 0 {
		for _, n := range []string{"cost_vs_solve", "length_vs_scores", "length_correlations"} {
			a.leaveOut(n, "no human gradings in the main round")
		}
		return
	}
	a.costVsSolve(v)
	a.lengthVsScores(v)
}

// responseCost is a response's cost: cost_usd, else tokens × the model's
// prices; NaN when neither is known.
func (p *prep) responseCost(r *study.Response, m int) float64 {
	if !math.IsNaN(r.CostUSD) {
		return r.CostUSD
	}
	mm := &p.s.Models[m]
	if r.InputTokens < 0 || r.OutputTokens < 0 || math.IsNaN(mm.USDPer1kInput) || math.IsNaN(mm.USDPer1kOutput) {
		return math.NaN()
	}
	return float64(float64(r.InputTokens)*mm.USDPer1kInput)/1000 + float64(float64(r.OutputTokens)*mm.USDPer1kOutput)/1000
}

// costVsSolve: total cost per model over the set's questions against the
// Solve Rate, with a least-squares line over the models with a cost.
func (a *run) costVsSolve(v *view) {
	p := a.p
	if !p.hasCost {
		a.leaveOut("cost_vs_solve", "no response has cost_usd or token counts with model prices")
		return
	}
	st := a.stats(setAll, -1)
	t := newTable("cost_vs_solve", "Figure 8: Cost against Solve Rate", report.SectionCost,
		"Total cost of each model's responses to the questions of set all (cost_usd, else tokens × the prices in models) against its Solve Rate (human graders).",
		col("model", report.Text, "model"),
		col("responses", report.Int, "responses to the set's questions"),
		col("responses_with_cost", report.Int, "responses with a known cost"),
		col("total_cost_usd", report.Float, "total cost in USD; empty when some response has no cost"),
		col("known_cost_usd", report.Float, "sum of the known costs"),
		col("solve_rate", report.Fraction, "Solve Rate (humans, set all)"),
		col("fit_solve_rate", report.Fraction, "least-squares line at the model's cost"))
	type row struct {
		m         int
		n, nc     int64
		total, kn float64
		solve     float64
	}
	var rows []row
	var xs, ys []float64
	for _, o := range st {
		r := row{m: o.model, solve: o.solve}
		for _, q := range v.questions {
			rr := p.respOf(q, o.model)
			if rr == nil {
				continue
			}
			r.n++
			if c := p.responseCost(rr, o.model); !math.IsNaN(c) {
				r.nc++
				r.kn += c
			}
		}
		r.total = math.NaN()
		if r.n > 0 && r.nc == r.n {
			r.total = r.kn
			if !math.IsNaN(r.solve) {
				xs = append(xs, r.total)
				ys = append(ys, r.solve)
			}
		} else {
			p.note(t.Name, "model %s left out of the fit: %d of its %d responses have no cost", p.s.Models[o.model].Name, r.n-r.nc, r.n)
		}
		rows = append(rows, r)
	}
	lr := stats.LinRegress(xs, ys)
	f := &report.Figure{ID: "fig8_cost_vs_solve", Section: report.SectionCost,
		Title: "Figure 8: Cost of all responses against Solve Rate", Kind: report.Scatter,
		XName: "total cost", XUnit: "USD", YName: "Solve Rate", YUnit: "%", Percent: true, Table: t.Name}
	s := report.Series{Name: "models"}
	for _, r := range rows {
		fit := math.NaN()
		if !math.IsNaN(r.total) {
			fit = float64(lr.Slope*r.total) + lr.Intercept
			s.Points = append(s.Points, report.Point{X: r.total, Y: r.solve, Label: p.s.Models[r.m].Name})
		}
		addRow(t, p.s.Models[r.m].Name, r.n, r.nc, r.total, r.kn, r.solve, fit)
	}
	f.Series = []report.Series{s}
	if len(xs) >= 2 && !math.IsNaN(lr.Slope) {
		x1, x2 := minOf(xs), maxOf(xs)
		f.Lines = []report.RefLine{{Name: "least squares", X1: x1, Y1: float64(lr.Slope*x1) + lr.Intercept,
			X2: x2, Y2: float64(lr.Slope*x2) + lr.Intercept}}
	}
	a.addTable(t)
	a.addFigure(f)
}

// lengthVsScores: mean response length per model against Solve Rate, and
// the response-level Pearson r of length with the response's mean human
// rubric mean and checklist rate.
func (a *run) lengthVsScores(v *view) {
	p := a.p
	st := a.stats(setAll, -1)
	t := newTable("length_vs_scores", "Figure 9: Response length against Solve Rate", report.SectionCost,
		"Mean response length per model over the questions of set all against its Solve Rate (human graders).",
		col("model", report.Text, "model"),
		col("responses", report.Int, "responses with text"),
		col("mean_chars", report.Float, "mean length in Unicode code points"),
		col("mean_words", report.Float, "mean length in whitespace-separated words"),
		col("solve_rate", report.Fraction, "Solve Rate (humans, set all)"))
	f := &report.Figure{ID: "fig9_length_vs_solve", Section: report.SectionCost,
		Title: "Figure 9: Response length against Solve Rate", Kind: report.Scatter,
		XName: "mean response length", XUnit: "characters", YName: "Solve Rate", YUnit: "%", Percent: true, Table: t.Name}
	s := report.Series{Name: "models"}
	any := false
	for _, o := range st {
		var n, c, w int64
		for _, q := range v.questions {
			// has a text: Chars > 0 even when the text is not loaded (TextQuestions)
			if r := p.respOf(q, o.model); r != nil && (r.Text != "" || r.Chars > 0) {
				n++
				c += int64(r.Chars)
				w += int64(r.Words)
			}
		}
		mc := frac(c, n)
		addRow(t, p.s.Models[o.model].Name, n, mc, frac(w, n), o.solve)
		if n > 0 {
			any = true
			s.Points = append(s.Points, report.Point{X: mc, Y: o.solve, Label: p.s.Models[o.model].Name})
		}
	}
	if !any {
		a.leaveOut("length_vs_scores", "the response dumps hold no text for the graded responses")
		a.leaveOut("length_correlations", "the response dumps hold no text for the graded responses")
		return
	}
	f.Series = []report.Series{s}
	a.addTable(t)
	a.addFigure(f)
	a.lengthCorrelations(v)
}

func (a *run) lengthCorrelations(v *view) {
	p := a.p
	t := newTable("length_correlations", "Appendix C: Response length against scores", report.SectionCost,
		"Response-level Pearson r of the response length with the response's mean human rubric mean and mean human checklist rate (set all).",
		col("length", report.Text, "chars or words"),
		col("score", report.Text, "rubric or checklist_rate"),
		col("n", report.Int, "responses"),
		col("r", report.Float, "Pearson r"),
		col("p", report.Float, "two-sided p-value"),
		col("r_lo", report.Float, "95 % Fisher-z interval, lower end"),
		col("r_hi", report.Float, "95 % Fisher-z interval, upper end"))
	type resp struct {
		q, m   int
		rs, cs float64
		rn, cn int
	}
	var rs []*resp
	idx := map[[2]int]*resp{}
	for _, gi := range v.g {
		g := &p.grades[gi]
		k := [2]int{g.q, g.m}
		r := idx[k]
		if r == nil {
			r = &resp{q: g.q, m: g.m}
			idx[k] = r
			rs = append(rs, r)
		}
		if !math.IsNaN(g.rubMean) {
			r.rs += g.rubMean
			r.rn++
		}
		if !math.IsNaN(g.rate) {
			r.cs += g.rate
			r.cn++
		}
	}
	for _, unit := range []string{"chars", "words"} {
		for _, score := range []string{"rubric", "checklist_rate"} {
			if score == "rubric" && !p.hasRubric || score == "checklist_rate" && !p.hasChecklist {
				continue
			}
			var x, y []float64
			for _, r := range rs {
				rr := p.respOf(r.q, r.m)
				if rr == nil || (rr.Text == "" && rr.Chars == 0) {
					continue
				}
				sc := meanOf(r.rs, r.rn)
				if score != "rubric" {
					sc = meanOf(r.cs, r.cn)
				}
				if math.IsNaN(sc) {
					continue
				}
				l := float64(rr.Chars)
				if unit == "words" {
					l = float64(rr.Words)
				}
				x = append(x, l)
				y = append(y, sc)
			}
			r, pv := stats.Pearson(x, y)
			lo, hi := stats.FisherZInterval(r, len(x), 0.95)
			addRow(t, unit, score, int64(len(x)), r, pv, lo, hi)
		}
	}
	a.addTable(t)
}
