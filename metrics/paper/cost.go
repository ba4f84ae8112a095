package paper

import (
	"math"

	"github.com/euroexec/euroexec/study"

	"github.com/euroexec/euroexec/metrics/stats"
)

// Cost is Appendices B and C: each model's cost and response length
// against its Solve Rate (humans, set all). A nil slice is a table left
// out (the notes say why).
type Cost struct {
	// Solve are the rows of cost_vs_solve (Figure 8), one per model.
	Solve []CostRow
	// Fit is the least-squares line of Solve Rate on total cost over the
	// models with a full cost and a Solve Rate, drawn between the smallest
	// and largest such cost; nil when fewer than 2 models or the slope is
	// undefined.
	Fit *CostLine
	// Length are the rows of length_vs_scores (Figure 9), one per model.
	Length []LengthRow
	// LengthCorrelations are the rows of length_correlations.
	LengthCorrelations []LengthCorrelation
}

// CostRow is one model's cost against its Solve Rate.
type CostRow struct {
	Model string
	// Responses counts the model's responses to the set's questions,
	// WithCost those with a known cost (cost_usd, else tokens × prices).
	Responses, WithCost int64
	// TotalUSD is the total cost, NaN when some response has no cost;
	// KnownUSD the sum of the known costs.
	TotalUSD, KnownUSD float64
	// SolveRate is the humans' Solve Rate (set all); FitSolveRate the fit
	// at the model's total cost (NaN without one).
	SolveRate, FitSolveRate float64
}

// CostLine is a fitted line between two points.
type CostLine struct{ X1, Y1, X2, Y2 float64 }

// LengthRow is one model's mean response length against its Solve Rate.
type LengthRow struct {
	Model string
	// Responses counts the model's responses with text.
	Responses int64
	// MeanChars and MeanWords are the mean lengths in code points and in
	// whitespace-separated words; NaN without a response.
	MeanChars, MeanWords float64
	// SolveRate is the humans' Solve Rate (set all).
	SolveRate float64
}

// LengthCorrelation is the response-level Pearson r of a length with a
// score.
type LengthCorrelation struct {
	// Length is "chars" or "words"; Score "rubric" or "checklist_rate".
	Length, Score string
	// N counts the responses.
	N int64
	// R is Pearson r, P its two-sided p-value, Lo and Hi the 95 %
	// Fisher-z interval.
	R, P, Lo, Hi float64
}

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
	rows := []CostRow{}
	var xs, ys []float64
	for _, o := range st {
		r := CostRow{Model: p.s.Models[o.model].Name, SolveRate: o.solve}
		for _, q := range v.questions {
			rr := p.respOf(q, o.model)
			if rr == nil {
				continue
			}
			r.Responses++
			if c := p.responseCost(rr, o.model); !math.IsNaN(c) {
				r.WithCost++
				r.KnownUSD += c
			}
		}
		r.TotalUSD = math.NaN()
		if r.Responses > 0 && r.WithCost == r.Responses {
			r.TotalUSD = r.KnownUSD
			if !math.IsNaN(r.SolveRate) {
				xs = append(xs, r.TotalUSD)
				ys = append(ys, r.SolveRate)
			}
		} else {
			p.note("cost_vs_solve", "model %s left out of the fit: %d of its %d responses have no cost", r.Model, r.Responses-r.WithCost, r.Responses)
		}
		rows = append(rows, r)
	}
	lr := stats.LinRegress(xs, ys)
	for i := range rows {
		rows[i].FitSolveRate = math.NaN()
		if !math.IsNaN(rows[i].TotalUSD) {
			rows[i].FitSolveRate = float64(lr.Slope*rows[i].TotalUSD) + lr.Intercept
		}
	}
	a.res.Cost.Solve = rows
	if len(xs) >= 2 && !math.IsNaN(lr.Slope) {
		x1, x2 := minOf(xs), maxOf(xs)
		a.res.Cost.Fit = &CostLine{X1: x1, Y1: float64(lr.Slope*x1) + lr.Intercept, X2: x2, Y2: float64(lr.Slope*x2) + lr.Intercept}
	}
}

// lengthVsScores: mean response length per model against Solve Rate, and
// the response-level Pearson r of length with the response's mean human
// rubric mean and checklist rate.
func (a *run) lengthVsScores(v *view) {
	p := a.p
	st := a.stats(setAll, -1)
	rows := []LengthRow{}
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
		rows = append(rows, LengthRow{Model: p.s.Models[o.model].Name, Responses: n, MeanChars: frac(c, n), MeanWords: frac(w, n), SolveRate: o.solve})
		if n > 0 {
			any = true
		}
	}
	if !any {
		a.leaveOut("length_vs_scores", "the response dumps hold no text for the graded responses")
		a.leaveOut("length_correlations", "the response dumps hold no text for the graded responses")
		return
	}
	a.res.Cost.Length = rows
	a.lengthCorrelations(v)
}

func (a *run) lengthCorrelations(v *view) {
	p := a.p
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
	out := []LengthCorrelation{}
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
			out = append(out, LengthCorrelation{Length: unit, Score: score, N: int64(len(x)), R: r, P: pv, Lo: lo, Hi: hi})
		}
	}
	a.res.Cost.LengthCorrelations = out
}
