package ranking

import (
	"math"
)

// Ordering is one preference ranking: model indexes from best to worst.
type Ordering []int

// PLFit is a Plackett–Luce fit.
type PLFit struct {
	// Strength holds one strength per model; NaN for all when the fit is
	// undefined (maximum likelihood without a prior on data whose
	// comparison graph is not strongly connected).
	Strength []float64
	// Iterations is the number of MM steps taken; Converged says whether
	// the largest relative change fell below the tolerance.
	Iterations int
	Converged  bool
}

// plMaxIter and plTol bound the MM iteration.
const (
	plMaxIter = 10000
	plTol     = 1e-10
)

// FitPlackettLuce fits Plackett–Luce strengths γ to weighted orderings of
// nModels models with Hunter's (2004) MM algorithm. weights[i] is the
// multiplicity of obs[i] (nil = all 1); an ordering of m models is m − 1
// successive choices, the model at position j chosen from positions j…m−1.
//
// prior c ≥ 0 is the number of pseudo-wins: each γ_t gets an independent
// Gamma(shape 1 + c, rate c) prior and the fit is its posterior mode (the MM
// step of Caron & Doucet 2012), γ_t ← (W_t + c) / (D_t + c) with W_t the
// (weighted) number of choices won by t and D_t = Σ over the choice sets
// containing t of 1 / (their total strength). Summing the stationary
// equations γ_t·(D_t + c) = W_t + c over t gives Σ_t γ_t = nModels exactly:
// the strengths are normalised to arithmetic mean 1 by the prior itself,
// and they stay finite and positive even for a model that always wins or
// always loses. For two models with W_a and W_b wins of n = W_a + W_b
// paired rankings, γ_a / γ_b = (W_a + c) / (W_b + c) and
// γ_a = 2·(W_a + c) / (n + 2c). A model in no ordering keeps the prior mode 1.
//
// c = 0 is plain maximum likelihood (γ_a / γ_b = W_a / W_b for two models),
// normalised to arithmetic mean 1 after every step over the models that
// appear; it exists only when every model that appears has won and lost
// against the others in a strongly connected way (Hunter's condition), and
// otherwise every strength is NaN. Models in no ordering are NaN.
//
// Invalid input — an index outside [0, nModels), a model twice in one
// ordering, weights of another length than obs or negative, a negative or
// infinite prior — gives NaN for every strength.
//
// Every MM step is followed by rescaling the strengths of the models that
// appear to mean 1 (for c > 0 this leaves the fixed point unchanged, as the
// mode has mean 1, and speeds up convergence).
//
// start, when of length nModels with positive entries, is the initial value
// (a warm start); otherwise all ones. The iteration stops when the largest
// relative change is below 1e-10, or after 10,000 steps.
func FitPlackettLuce(obs []Ordering, weights []float64, nModels int, prior float64, start []float64) PLFit {
	nan := math.NaN()
	fit := PLFit{Strength: make([]float64, nModels)}
	if nModels == 0 {
		return fit
	}
	if prior < 0 || math.IsNaN(prior) || math.IsInf(prior, 0) || !validObs(obs, weights, nModels) {
		for i := range fit.Strength {
			fit.Strength[i] = nan
		}
		return fit
	}
	var ws plWork
	f := ws.fit(obs, weights, nModels, prior, start)
	copy(fit.Strength, f.Strength)
	fit.Iterations, fit.Converged = f.Iterations, f.Converged
	return fit
}

// plWork is the reusable space of Plackett–Luce fits on valid input: a
// bootstrap worker fits every replicate in the same plWork without
// allocating once its buffers have grown.
type plWork struct {
	W, D, g, inv []float64
	present      []bool
}

// grow returns b with length n, reallocating only when too short.
func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}

// fit is FitPlackettLuce on input already validated (prior ≥ 0 finite,
// valid obs and weights, nModels > 0). The strengths it returns live in
// ws and are overwritten by the next fit.
func (ws *plWork) fit(obs []Ordering, weights []float64, nModels int, prior float64, start []float64) PLFit {
	nan := math.NaN()
	w := func(i int) float64 {
		if weights == nil {
			return 1
		}
		return weights[i]
	}
	ws.W, ws.D, ws.g, ws.present = grow(ws.W, nModels), grow(ws.D, nModels), grow(ws.g, nModels), grow(ws.present, nModels)
	W, present := ws.W, ws.present
	clear(W)
	clear(present)
	fit := PLFit{Strength: ws.g}
	maxLen := 0
	for i, o := range obs {
		if w(i) == 0 || len(o) < 2 {
			continue
		}
		maxLen = max(maxLen, len(o))
		for j, t := range o {
			present[t] = true
			if j < len(o)-1 {
				W[t] += w(i)
			}
		}
	}
	if prior == 0 && !stronglyConnected(obs, weights, present) {
		for i := range fit.Strength {
			fit.Strength[i] = nan
		}
		return fit
	}
	g := fit.Strength
	for t := range g {
		g[t] = 1
		if len(start) == nModels && start[t] > 0 && !math.IsInf(start[t], 0) {
			g[t] = start[t]
		}
	}
	D := ws.D
	ws.inv = grow(ws.inv, maxLen)
	inv := ws.inv
	for it := 1; it <= plMaxIter; it++ {
		clear(D)
		for i, o := range obs {
			wi := w(i)
			if wi == 0 || len(o) < 2 {
				continue
			}
			m := len(o)
			// suffix sums S_j = Σ_{l ≥ j} γ_{o_l}; inv[j] = 1/S_j for choices j = 0 … m−2
			var s float64
			for j := m - 1; j >= 0; j-- {
				s += g[o[j]]
				if j < m-1 {
					inv[j] = 1 / s
				}
			}
			// model at position p is in the choice sets j = 0 … min(p, m−2)
			var acc float64
			for p := 0; p < m; p++ {
				if p < m-1 {
					acc += inv[p]
				}
				D[o[p]] += float64(wi * acc)
			}
		}
		change := 0.0
		var sum float64
		n := 0
		for t := range g {
			if !present[t] {
				if prior == 0 {
					g[t] = nan
				} else {
					g[t] = 1
				}
				continue
			}
			nv := (W[t] + prior) / (D[t] + prior)
			change = math.Max(change, math.Abs(nv-g[t])/g[t])
			g[t] = nv
			sum += nv
			n++
		}
		// Rescale to mean 1 over the models present. For c = 0 this fixes the
		// free scale; for c > 0 the posterior mode already has mean 1 (see
		// above), so the rescaled map has the same fixed point and loses the
		// slowly converging scale direction of plain MM.
		if n > 0 {
			for t := range g {
				if present[t] {
					g[t] *= float64(n) / sum
				}
			}
		}
		fit.Iterations = it
		if change < plTol {
			fit.Converged = true
			break
		}
	}
	return fit
}

// validObs reports whether every ordering holds distinct model indexes in
// [0, nModels) and weights (when given) match obs and are finite and ≥ 0.
func validObs(obs []Ordering, weights []float64, nModels int) bool {
	if weights != nil && len(weights) != len(obs) {
		return false
	}
	for _, w := range weights {
		if !(w >= 0) || math.IsInf(w, 0) {
			return false
		}
	}
	seen := make([]int, nModels)
	for i, o := range obs {
		for _, t := range o {
			if t < 0 || t >= nModels || seen[t] == i+1 {
				return false
			}
			seen[t] = i + 1
		}
	}
	return true
}

// stronglyConnected reports whether the graph "i was ranked above j" over
// the present models is strongly connected (Hunter's condition for the
// maximum-likelihood estimate to exist).
func stronglyConnected(obs []Ordering, weights []float64, present []bool) bool {
	n := len(present)
	beat := make([][]bool, n)
	for i := range beat {
		beat[i] = make([]bool, n)
	}
	for i, o := range obs {
		if (weights != nil && weights[i] == 0) || len(o) < 2 {
			continue
		}
		for a := 0; a < len(o); a++ {
			for b := a + 1; b < len(o); b++ {
				beat[o[a]][o[b]] = true
			}
		}
	}
	first := -1
	for t, p := range present {
		if p {
			first = t
			break
		}
	}
	if first < 0 {
		return false
	}
	reach := func(forward bool) []bool {
		seen := make([]bool, n)
		stack := []int{first}
		seen[first] = true
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for y := 0; y < n; y++ {
				e := beat[x][y]
				if !forward {
					e = beat[y][x]
				}
				if e && !seen[y] {
					seen[y] = true
					stack = append(stack, y)
				}
			}
		}
		return seen
	}
	f, b := reach(true), reach(false)
	for t, p := range present {
		if p && (!f[t] || !b[t]) {
			return false
		}
	}
	return true
}
