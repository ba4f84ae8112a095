// Package rateradjust estimates model effects adjusted for who graded: when
// graders do not grade every model equally often, a model's raw mean score
// mixes its quality with the leniency of the graders it happened to get.
// The adjusted effects come from the linear model
//
//	score = question + model + grader + error
//
// (fixed effects, least squares), whose model effects compare models as if
// every model had been graded by the same graders on the same questions.
// Question effects are absorbed by centring within questions
// (Frisch–Waugh–Lovell), so only the model and grader columns remain, and
// the normal equations are sums of per-question sufficient statistics. The
// intervals come from the cluster-robust (CR1) sandwich variance with the
// questions as clusters and a t reference on Q − 1 degrees of freedom: one
// more pass over the gradings, where a cluster bootstrap would have to
// re-sum every question's statistics for each replicate.
//
// The package computes and returns typed values; it does no I/O and builds
// no tables.
package rateradjust

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/euroexec/euroexec/metrics/stats"
)

// Obs is one grading: the question, the model, the grader and the score.
type Obs struct {
	Question, Model, Grader string
	Score                   float64
}

// Options control the estimation.
type Options struct {
	// Level is the coverage of the intervals, in (0, 1); 0 leaves them NaN.
	Level float64
}

// DefaultOptions are 95 % intervals.
func DefaultOptions() Options { return Options{Level: 0.95} }

// Effect is one model's raw and adjusted mean score.
type Effect struct {
	Model string
	// N is the model's gradings used (finite score).
	N int
	// Raw is the mean of the model's scores.
	Raw float64
	// Adjusted is the grand mean of all scores plus the model's effect
	// centred over the models: the mean the model would get from the
	// average grader on the average question. Lo and Hi are its t interval
	// from the cluster-robust standard error SE of the centred effect (the
	// grand mean held fixed).
	Adjusted, SE, Lo, Hi float64
	// Shift is Adjusted − Raw.
	Shift float64
}

// Result is the estimation.
type Result struct {
	// Effects per model, in name order.
	Effects []Effect
	// Graders and Questions count those used.
	Graders, Questions int
	// Identified is false when the design does not separate models from
	// graders (some model or grader is not linked to the others through
	// shared questions and graders): the adjusted values are then NaN.
	Identified bool
	// Balanced is true when, on every question, every grader of the
	// question graded every model equally often, so adjustment cannot
	// change anything.
	Balanced bool
	// Unused counts observations left out (NaN or infinite score).
	Unused int
}

// qstat is one question's sufficient statistics in the reduced design:
// centred cross-products of the model and grader indicator columns
// (sparse, entries of the upper triangle including the diagonal) and the
// centred cross-products with the score.
type qstat struct {
	xx []entry
	xy []entry
}

type entry struct {
	i, j int
	v    float64
}

// Estimate fits the model to obs. The first model and the first grader in
// name order are the reference levels; the effects reported are centred
// over the models, so the choice does not matter.
func Estimate(ctx context.Context, obs []Obs, opt Options) (Result, error) {
	var res Result
	mIdx, gIdx, qIdx := map[string]int{}, map[string]int{}, map[string]int{}
	var models, graders, qs []string
	for _, o := range obs {
		if math.IsNaN(o.Score) || math.IsInf(o.Score, 0) {
			res.Unused++
			continue
		}
		for _, p := range []struct {
			m   map[string]int
			l   *[]string
			key string
		}{{mIdx, &models, o.Model}, {gIdx, &graders, o.Grader}, {qIdx, &qs, o.Question}} {
			if _, ok := p.m[p.key]; !ok {
				p.m[p.key] = 0
				*p.l = append(*p.l, p.key)
			}
		}
	}
	sort.Strings(models)
	sort.Strings(graders)
	sort.Strings(qs)
	for i, m := range models {
		mIdx[m] = i
	}
	for i, g := range graders {
		gIdx[g] = i
	}
	for i, q := range qs {
		qIdx[q] = i
	}
	K, R, Q := len(models), len(graders), len(qs)
	res.Graders, res.Questions = R, Q
	if K == 0 {
		return res, nil
	}
	// columns: models 1..K−1 (0 is the reference), graders 1..R−1
	p := (K - 1) + (R - 1)
	col := func(kind, i int) int { // kind 0 model, 1 grader; −1 for a reference level
		if i == 0 {
			return -1
		}
		if kind == 0 {
			return i - 1
		}
		return K - 1 + i - 1
	}
	byQ := make([][]Obs, Q)
	sumM, nM := make([]float64, K), make([]int, K)
	var sumAll float64
	var nAll int
	for _, o := range obs {
		if math.IsNaN(o.Score) || math.IsInf(o.Score, 0) {
			continue
		}
		q := qIdx[o.Question]
		byQ[q] = append(byQ[q], o)
		m := mIdx[o.Model]
		sumM[m] += o.Score
		nM[m]++
		sumAll += o.Score
		nAll++
	}
	grand := sumAll / float64(nAll)
	// per question: centred cross-products. For indicator columns a, b:
	// Σ (x_a − x̄_a)(x_b − x̄_b) = c_ab − c_a·c_b/n, and with the score
	// Σ (x_a − x̄_a)(y − ȳ) = s_a − c_a·Σy/n.
	st := make([]qstat, Q)
	res.Balanced = true
	for q, os := range byQ {
		n := float64(len(os))
		cnt := map[int]float64{}   // column → count
		co := map[[2]int]float64{} // (a ≤ b) → co-occurrence in a grading
		sy := map[int]float64{}    // column → Σ score where the column is 1
		pairs := map[[2]int]int{}  // (model, grader) → gradings, for Balanced
		var sumY float64
		for _, o := range os {
			cols := []int{col(0, mIdx[o.Model]), col(1, gIdx[o.Grader])}
			pairs[[2]int{mIdx[o.Model], gIdx[o.Grader]}]++
			sumY += o.Score
			for _, a := range cols {
				if a < 0 {
					continue
				}
				cnt[a]++
				sy[a] += o.Score
				for _, b := range cols {
					if b >= a {
						co[[2]int{a, b}]++
					}
				}
			}
		}
		if res.Balanced {
			res.Balanced = balancedQuestion(pairs, K)
		}
		var s qstat
		keys := make([]int, 0, len(cnt))
		for a := range cnt {
			keys = append(keys, a)
		}
		slices.Sort(keys)
		for ai, a := range keys {
			for _, b := range keys[ai:] {
				v := co[[2]int{a, b}] - cnt[a]*cnt[b]/n
				if v != 0 {
					s.xx = append(s.xx, entry{a, b, v})
				}
			}
			if v := sy[a] - cnt[a]*sumY/n; v != 0 {
				s.xy = append(s.xy, entry{a, 0, v})
			}
		}
		st[q] = s
	}
	for m := range models {
		res.Effects = append(res.Effects, Effect{Model: models[m], N: nM[m], Raw: sumM[m] / float64(nM[m]),
			Adjusted: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Shift: math.NaN()})
	}
	if K == 1 {
		res.Identified = true
		res.Effects[0].Adjusted, res.Effects[0].Shift = grand, grand-res.Effects[0].Raw
		return res, ctx.Err()
	}
	// XᵀX (p×p, from its upper triangle) and Xᵀy over the questions
	xx, xy := make([]float64, p*p), make([]float64, p)
	for q := range st {
		for _, e := range st[q].xx {
			xx[e.i*p+e.j] += e.v
			if e.i != e.j {
				xx[e.j*p+e.i] += e.v
			}
		}
		for _, e := range st[q].xy {
			xy[e.i] += e.v
		}
	}
	var ch mat.Cholesky
	// a singular or nearly singular design does not separate models from graders
	if !ch.Factorize(mat.NewSymDense(p, xx)) || !(ch.Cond() < 1e12) {
		return res, ctx.Err()
	}
	var beta mat.VecDense
	if err := ch.SolveVecTo(&beta, mat.NewVecDense(p, xy)); err != nil {
		return res, ctx.Err()
	}
	res.Identified = true
	eff := make([]float64, K) // model effects, the reference 0
	for m := 1; m < K; m++ {
		eff[m] = beta.AtVec(m - 1)
	}
	var mean float64
	for _, v := range eff {
		mean += v
	}
	mean /= float64(K)
	for m := range res.Effects {
		e := &res.Effects[m]
		e.Adjusted = grand + eff[m] - mean
		if res.Balanced {
			// in a balanced design the estimates are the raw means exactly;
			// keep them free of rounding noise
			e.Adjusted = e.Raw
		}
		e.Shift = e.Adjusted - e.Raw
	}
	if opt.Level == 0 {
		return res, ctx.Err()
	}
	if !(opt.Level > 0 && opt.Level < 1) {
		return res, fmt.Errorf("rateradjust: level %v is not in (0, 1)", opt.Level)
	}
	// The cluster-robust variance: meat Σ_q s_q s_qᵀ with s_q = Σ_i x̃_i e_i,
	// which is Σ of the residuals of the gradings where a column is 1 (the
	// residuals of a question sum to 0, so the centring drops out).
	meat := mat.NewSymDense(p, nil)
	sq := make([]float64, p)
	var cols [2]int
	for _, os := range byQ {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		if len(os) == 0 {
			continue
		}
		n := float64(len(os))
		var sumY, fitBar float64 // Σ score and x̄_qᵀβ, in the gradings' order
		for _, o := range os {
			sumY += o.Score
			cols = [2]int{col(0, mIdx[o.Model]), col(1, gIdx[o.Grader])}
			for _, a := range cols {
				if a >= 0 {
					fitBar += beta.AtVec(a) / n
				}
			}
		}
		clear(sq)
		for _, o := range os {
			cols = [2]int{col(0, mIdx[o.Model]), col(1, gIdx[o.Grader])}
			fit := 0.0
			for _, a := range cols {
				if a >= 0 {
					fit += beta.AtVec(a)
				}
			}
			e := (o.Score - sumY/n) - (fit - fitBar)
			for _, a := range cols {
				if a >= 0 {
					sq[a] += e
				}
			}
		}
		meat.SymRankOne(meat, 1, mat.NewVecDense(p, sq))
	}
	var bread mat.Dense
	inv := new(mat.SymDense)
	if err := ch.InverseTo(inv); err != nil {
		return res, nil
	}
	bread.Mul(inv, meat)
	var v mat.Dense
	v.Mul(&bread, inv)
	g := float64(Q)
	v.Scale(g/(g-1), &v)
	// the centred effect of model m: a_mᵀβ with a_m = e_m − mean of the e_k
	a := mat.NewVecDense(p, nil)
	var va mat.VecDense
	for m := range res.Effects {
		for k := 1; k < K; k++ {
			w := -1 / float64(K)
			if k == m {
				w += 1
			}
			a.SetVec(k-1, w)
		}
		va.MulVec(&v, a)
		se := math.Sqrt(mat.Dot(a, &va))
		e := &res.Effects[m]
		e.SE = se
		e.Lo, e.Hi = stats.TInterval(e.Adjusted, se, g-1, opt.Level)
	}
	return res, nil
}

// balancedQuestion reports whether every grader of the question graded
// each of the K models equally often (then, question by question, the
// grader columns are orthogonal to the model columns and the adjusted
// means equal the raw means).
func balancedQuestion(pairs map[[2]int]int, K int) bool {
	ms, gs := map[int]bool{}, map[int]bool{}
	first := -1
	for k, n := range pairs {
		ms[k[0]], gs[k[1]] = true, true
		if first < 0 {
			first = n
		} else if n != first {
			return false
		}
	}
	return len(ms) == K && len(pairs) == len(ms)*len(gs)
}

// OrderChanged reports whether ordering the models by Adjusted gives
// another order than by Raw (higher first when higherBetter, else lower
// first; ties by name).
func (r Result) OrderChanged(higherBetter bool) bool {
	if !r.Identified {
		return false
	}
	order := func(v func(Effect) float64) []string {
		e := slices.Clone(r.Effects)
		sort.SliceStable(e, func(i, j int) bool {
			a, b := v(e[i]), v(e[j])
			if a != b {
				if higherBetter {
					return a > b
				}
				return a < b
			}
			return e[i].Model < e[j].Model
		})
		out := make([]string, len(e))
		for i := range e {
			out[i] = e[i].Model
		}
		return out
	}
	return !slices.Equal(order(func(e Effect) float64 { return e.Raw }), order(func(e Effect) float64 { return e.Adjusted }))
}
