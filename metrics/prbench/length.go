package prbench

import (
	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// lengthRows are the rows of prbench_length: per population, each model's
// responses, then all models pooled.
func (p *prep) lengthRows() []LengthRow {
	if len(p.s.Responses) == 0 {
		p.note("prbench_length", "the study has no response dumps; length against score is left out")
		return nil
	}
	type key struct{ q, m string }
	resp := make(map[key]*study.Response, len(p.s.Responses))
	for i := range p.s.Responses {
		r := &p.s.Responses[i]
		resp[key{r.QuestionID, r.Model}] = r
	}
	var out []LengthRow
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
				if p.graders[u.g].pop == pop && u.clip.OK() {
					sum += u.clip.Float64()
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
		row := func(name string, pooled bool, x, y []float64) {
			lr := stats.LinRegress(x, y)
			r, pv := stats.Pearson(x, y)
			out = append(out, LengthRow{Graders: p.pops[pop], Model: name, Pooled: pooled, N: int64(len(x)),
				MeanChars: stats.Mean(x), MeanClipped: stats.Mean(y), PearsonR: r, PValue: pv, Slope: lr.Slope, Intercept: lr.Intercept})
		}
		for m := range p.models {
			if len(xs[m]) == 0 {
				continue
			}
			row(p.models[m], false, xs[m], ys[m])
			allX = append(allX, xs[m]...)
			allY = append(allY, ys[m]...)
		}
		if len(allX) == 0 {
			continue
		}
		row("(all)", true, allX, allY)
	}
	if missing > 0 {
		p.note("prbench_length", "%d graded responses (counted once per grader population) are missing from the response dumps and left out", missing)
	}
	return out
}
