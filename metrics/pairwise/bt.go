package pairwise

import (
	"math"
)

// EloScale is 400·log10(e): a Bradley–Terry strength β maps to the rating
// 1000 + EloScale·β, so that a rating difference d means the odds 10^(d/400).
const EloScale = 400 * math.Log10E

// Rating returns the Elo-scale rating 1000 + EloScale·β of a strength β.
func Rating(beta float64) float64 { return 1000 + EloScale*beta }

// Fit is a Bradley–Terry fit.
type Fit struct {
	// Beta are the strengths, mean 0: model i beats model j with
	// probability 1/(1 + exp(Beta[j] − Beta[i])).
	Beta []float64
	// Regularised reports that the maximum-likelihood estimate does not
	// exist (the win graph is not strongly connected) and the prior was added.
	Regularised bool
	// Iterations counts the Newton steps taken.
	Iterations int
}

// FitBradleyTerry returns the maximum-likelihood Bradley–Terry strengths of
// k models from wins, a k×k row-major matrix where wins[i*k+j] is the
// (possibly fractional: a tie counts half for each side) number of times
// model i beat model j. The diagonal is ignored. The MLE maximises
// Σ wins[i][j]·log σ(β_i − β_j) with Σ β = 0 and exists exactly when the
// graph with an edge i → j for wins[i][j] > 0 is strongly connected; when it
// is not, prior virtual ties (prior/2 wins each way) are added between every
// two models and Regularised is set. prior ≤ 0 is taken as 0.01. It is
// solved by Newton's method with step halving on the concave
// log-likelihood (full steps when no strength moves by more than 1), until
// no strength moves by more than 1e-13. k < 1 gives an empty fit; k = 1 gives
// β = 0.
func FitBradleyTerry(wins []float64, k int, prior float64) Fit {
	var s btScratch
	return s.fit(wins, k, prior, nil)
}

// btScratch holds the solver's work arrays, reused across bootstrap
// replicates of one goroutine.
type btScratch struct {
	w, a     []float64
	g, d, bt []float64
	seen     []bool
	stack    []int
}

func grow(x []float64, n int) []float64 {
	if cap(x) < n {
		return make([]float64, n)
	}
	return x[:n]
}

// fit is FitBradleyTerry starting from init (nil: all 0). With a starting
// point (bootstrap replicates, started from the point estimate) it stops
// when no strength moves by more than 1e-10, which is far below the
// precision of an interval's end.
func (s *btScratch) fit(wins []float64, k int, prior float64, init []float64) Fit {
	if k < 1 {
		return Fit{}
	}
	beta := make([]float64, k)
	if k == 1 {
		return Fit{Beta: beta}
	}
	if !(prior > 0) {
		prior = 0.01
	}
	s.w = grow(s.w, k*k)
	copy(s.w, wins[:k*k])
	w := s.w
	for i := 0; i < k; i++ {
		w[i*k+i] = 0
	}
	copy(beta, init)
	tol := 1e-13
	if init != nil {
		tol = 1e-10
	}
	f := Fit{Beta: beta}
	if !s.stronglyConnected(w, k) {
		f.Regularised = true
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				if i != j {
					w[i*k+j] += prior / 2
				}
			}
		}
	}
	s.a, s.g, s.d, s.bt = grow(s.a, k*k), grow(s.g, k), grow(s.d, k), grow(s.bt, k)
	ll := loglik(w, k, beta)
	for it := 0; it < 200; it++ {
		f.Iterations = it + 1
		// Gradient g and Hessian of −log L plus 11ᵀ (which makes it positive
		// definite on a connected graph and keeps Σ Δ = 0, as Σ g = 0).
		a, g := s.a, s.g
		for i := range g {
			g[i] = 0
		}
		for i := 0; i < k*k; i++ {
			a[i] = 1
		}
		for i := 0; i < k; i++ {
			for j := i + 1; j < k; j++ {
				n := w[i*k+j] + w[j*k+i]
				if n == 0 {
					continue
				}
				pij := 1 / (1 + math.Exp(beta[j]-beta[i]))
				gi := w[i*k+j] - n*pij
				g[i] += gi
				g[j] -= gi
				h := n * pij * (1 - pij)
				a[i*k+i] += h
				a[j*k+j] += h
				a[i*k+j] -= h
				a[j*k+i] -= h
			}
		}
		if !cholSolve(a, g, s.d, k) {
			break
		}
		step := 1.0
		improved := false
		// A full step of at most 1 in every strength is taken as it is (near
		// the optimum, the common case from a warm start, Newton converges
		// quadratically); a longer one is halved until the likelihood rises.
		small := true
		for _, d := range s.d[:k] {
			if math.Abs(d) > 1 {
				small = false
				break
			}
		}
		if small {
			for i := range beta {
				s.bt[i] = beta[i] + s.d[i]
			}
			improved = true
		}
		for h := 0; h < 60 && !improved; h++ {
			for i := range beta {
				s.bt[i] = beta[i] + step*s.d[i]
			}
			if l := loglik(w, k, s.bt); l >= ll {
				ll = l
				improved = true
				break
			}
			step /= 2
		}
		if !improved {
			break
		}
		maxd := 0.0
		for i := range beta {
			maxd = math.Max(maxd, math.Abs(s.bt[i]-beta[i]))
			beta[i] = s.bt[i]
		}
		if maxd < tol {
			break
		}
	}
	// Centre exactly.
	m := 0.0
	for _, b := range beta {
		m += b
	}
	m /= float64(k)
	for i := range beta {
		beta[i] -= m
	}
	return f
}

// loglik is Σ_{i≠j} w_ij·log σ(β_i − β_j), one logarithm per pair
// (log σ(−x) = log σ(x) − x).
func loglik(w []float64, k int, beta []float64) float64 {
	l := 0.0
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			wij, wji := w[i*k+j], w[j*k+i]
			if wij == 0 && wji == 0 {
				continue
			}
			x := beta[i] - beta[j]
			// log σ(x) = −log(1 + e^(−x)), stably.
			var ls float64
			if x > 0 {
				ls = -math.Log1p(math.Exp(-x))
			} else {
				ls = x - math.Log1p(math.Exp(x))
			}
			l += wij*ls + wji*(ls-x)
		}
	}
	return l
}

// cholSolve solves a·x = b for a symmetric positive definite k×k a
// (overwritten by its Cholesky factor); false when a is not positive definite.
func cholSolve(a, b, x []float64, k int) bool {
	for j := 0; j < k; j++ {
		d := a[j*k+j]
		for t := 0; t < j; t++ {
			d -= a[j*k+t] * a[j*k+t]
		}
		if !(d > 0) {
			return false
		}
		d = math.Sqrt(d)
		a[j*k+j] = d
		for i := j + 1; i < k; i++ {
			v := a[i*k+j]
			for t := 0; t < j; t++ {
				v -= a[i*k+t] * a[j*k+t]
			}
			a[i*k+j] = v / d
		}
	}
	for i := 0; i < k; i++ {
		v := b[i]
		for t := 0; t < i; t++ {
			v -= a[i*k+t] * x[t]
		}
		x[i] = v / a[i*k+i]
	}
	for i := k - 1; i >= 0; i-- {
		v := x[i]
		for t := i + 1; t < k; t++ {
			v -= a[t*k+i] * x[t]
		}
		x[i] = v / a[i*k+i]
	}
	return true
}

// stronglyConnected reports whether every model reaches every other along
// edges i → j with w[i][j] > 0 (and so along the reversed edges too).
func (s *btScratch) stronglyConnected(w []float64, k int) bool {
	for _, rev := range []bool{false, true} {
		if cap(s.seen) < k {
			s.seen = make([]bool, k)
		}
		seen := s.seen[:k]
		for i := range seen {
			seen[i] = false
		}
		seen[0] = true
		st := append(s.stack[:0], 0)
		n := 1
		for len(st) > 0 {
			i := st[len(st)-1]
			st = st[:len(st)-1]
			for j := 0; j < k; j++ {
				e := w[i*k+j]
				if rev {
					e = w[j*k+i]
				}
				if !seen[j] && j != i && e > 0 {
					seen[j] = true
					n++
					st = append(st, j)
				}
			}
		}
		s.stack = st
		if n < k {
			return false
		}
	}
	return true
}

// logSigmoid is log σ(x), stably.
func logSigmoid(x float64) float64 {
	if x > 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

// SweepBound is the one-sided confidence bound on the strength of a model
// that won every one of its n[j] judgments against models of strengths
// beta[j] (a tie is not a win): the strength b at which that sweep has
// probability alpha, Σ n_j·log σ(b − β_j) = log α. Every strength below b
// makes the observed sweep less likely than α, so [b, ∞) is an exact
// 1 − α confidence set for the model's strength with the others' held at
// beta — the Bradley–Terry analogue of the Clopper–Pearson bound for a
// binomial with no failures. For a model that lost every judgment, the
// upper bound is −SweepBound(n, −beta, alpha). NaN when no n[j] is
// positive or alpha is not in (0, 1).
func SweepBound(n, beta []float64, alpha float64) float64 {
	if !(alpha > 0 && alpha < 1) {
		return math.NaN()
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	tot := 0.0
	for j, c := range n {
		if c > 0 {
			lo, hi = math.Min(lo, beta[j]), math.Max(hi, beta[j])
			tot += c
		}
	}
	if tot == 0 {
		return math.NaN()
	}
	target := math.Log(alpha)
	f := func(b float64) float64 {
		s := 0.0
		for j, c := range n {
			if c > 0 {
				s += c * logSigmoid(b-beta[j])
			}
		}
		return s - target
	}
	// f rises from −∞ to −log α > 0; bracket the root, then bisect.
	lo -= 1
	for f(lo) > 0 {
		lo -= 2 * (hi - lo + 1)
	}
	hi += 1
	for f(hi) < 0 {
		hi += 2 * (hi - lo + 1)
	}
	for range 200 {
		mid := (lo + hi) / 2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// SymmetricAgreement returns raw agreement, Cohen's κ and macro F1 of a
// 3×3 confusion matrix of verdicts on model pairs (conf[3·ref + other];
// classes: the pair's first model better, tie, second better), each item
// counted in both orientations as pairwise_agreement counts them, so that
// the numbers do not depend on the models' names. NaN when conf is empty.
func SymmetricAgreement(conf [9]int64) (agreement, kappa, macroF1 float64) {
	var sym [9]int64
	for i, c := range conf {
		sym[i] += c
		sym[8-i] += c
	}
	st := agreementStats(sym)
	return st[aAgree], st[aKappa], st[aF1]
}
