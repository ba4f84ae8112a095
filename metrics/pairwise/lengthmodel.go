package pairwise

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/euroexec/euroexec/metrics/stats"
)

// Covariates of the length and style model: the log2 ratio of the two
// answers' lengths and of (1 + count) of their markdown headers, list
// items and bold spans, first model of the pair over the second.
const (
	cLength = iota
	cHeaders
	cLists
	cBold
	nCov
)

// CovariateNames name the covariates of the length and style model, in the
// order of LengthModel.Effects.
var CovariateNames = [nCov]string{"length", "headers", "list_items", "bold"}

// lmData are a population's rows for the length and style model: its
// deduplicated judgments of two responses that both have texts, in
// question order.
type lmData struct {
	q      []int32
	lo, hi []int32   // global model indices, lo < hi
	y      []float64 // 1: lo won, ½: tie, 0: hi won
	w      []float64 // identical judgments
	x      []float64 // nCov per row
	has    [nCov]bool
	n      int64
}

// lmRows builds a population's model rows from its deduplicated judgments;
// nil when no judgment compared two responses with texts.
func lmRows(pp *population, m int32, nQ int, chars map[int64]int, styles map[int64][3]int32) *lmData {
	d := &lmData{}
	for q := 0; q < nQ; q++ {
		for e := pp.qStart[q]; e < pp.qStart[q+1]; e++ {
			c := pp.cells[e]
			pair, v := c/3, c%3
			lo, hi := pair/m, pair%m
			kl, kh := int64(q)*int64(m)+int64(lo), int64(q)*int64(m)+int64(hi)
			cl, ch := chars[kl], chars[kh]
			if cl <= 0 || ch <= 0 {
				continue
			}
			var x [nCov]float64
			x[cLength] = math.Log2(float64(cl) / float64(ch))
			if sl, ok := styles[kl]; ok {
				if sh, ok := styles[kh]; ok {
					for i := 0; i < 3; i++ {
						x[cHeaders+i] = math.Log2(float64(1+sl[i]) / float64(1+sh[i]))
					}
				}
			}
			for i, v := range x {
				d.has[i] = d.has[i] || v != 0
			}
			d.q = append(d.q, int32(q))
			d.lo, d.hi = append(d.lo, lo), append(d.hi, hi)
			d.y = append(d.y, [3]float64{1, 0.5, 0}[v])
			d.w = append(d.w, float64(pp.counts[e]))
			d.x = append(d.x, x[:]...)
			d.n += int64(pp.counts[e])
		}
	}
	if len(d.q) == 0 {
		return nil
	}
	return d
}

// LengthModel is a population's Bradley–Terry model with length and style
// covariates: logit P(a beats b) = θ_a − θ_b + Σ_c γ_c·x_c, with x_c the
// covariates of a over b (CovariateNames), fitted by maximum likelihood
// (a tie counts half a win for each side, as in the ratings) over the
// judgments of two responses with texts; standard errors are sandwich
// (cluster-robust) with questions as clusters.
type LengthModel struct {
	// N are the judgments in the model, Questions its clusters.
	N         int64
	Questions int
	// Effects are the covariates' γ (logit per doubling of the ratio),
	// in CovariateNames order; Used says the covariate varies in the data
	// and was in the model (else its effect is NaN).
	Effects [nCov]Effect
	// Regularised says the model's win graph was not strongly connected
	// and Options.Prior virtual ties at equal length and style were added.
	Regularised bool
	// Failed says the fit did not converge or its information matrix was
	// singular (say, every longer answer won): every number is NaN.
	Failed bool
}

// Effect is one covariate's estimate with its t interval (Questions − 1
// degrees of freedom) and two-sided p-value.
type Effect struct {
	Used       bool
	Estimate   Estimate
	SE, PValue float64
	Name       string
}

// lmFit is the fitted model's parameters and their sandwich covariance.
type lmFit struct {
	models []int32   // global indices of the models in the model, ascending
	theta  []float64 // per model, centred (mean 0)
	gamma  [nCov]float64
	cidx   [nCov]int // parameter index of each covariate, −1 when unused
	idx    []int     // parameter index of each model (−1: the reference)
	v      *mat.SymDense
	nij    []float64 // ka×ka judgments between the models in the model
	g      int       // clusters
	reg    bool
	ok     bool
}

// fitLM fits the length and style model to d; m is the number of models of
// the study.
func fitLM(d *lmData, m int, prior float64) lmFit {
	f := lmFit{}
	loc := make([]int, m)
	for i := range loc {
		loc[i] = -1
	}
	for i := range d.lo {
		loc[d.lo[i]], loc[d.hi[i]] = 0, 0
	}
	for g := range loc {
		if loc[g] == 0 {
			loc[g] = len(f.models)
			f.models = append(f.models, int32(g))
		}
	}
	ka := len(f.models)
	f.idx = make([]int, ka)
	f.idx[0] = -1
	for i := 1; i < ka; i++ {
		f.idx[i] = i - 1
	}
	P := ka - 1
	for c := range f.cidx {
		f.cidx[c] = -1
		if d.has[c] {
			f.cidx[c] = P
			P++
		}
	}
	f.nij = make([]float64, ka*ka)
	wins := make([]float64, ka*ka)
	for r := range d.q {
		a, b := loc[d.lo[r]], loc[d.hi[r]]
		f.nij[a*ka+b] += d.w[r]
		f.nij[b*ka+a] += d.w[r]
		wins[a*ka+b] += d.w[r] * d.y[r]
		wins[b*ka+a] += d.w[r] * (1 - d.y[r])
		if r == 0 || d.q[r] != d.q[r-1] {
			f.g++
		}
	}
	var bs btScratch
	f.reg = ka > 1 && !bs.stronglyConnected(wins, ka)
	if P == 0 {
		return f
	}
	par := make([]float64, P)
	// z lists a row's non-zero design entries.
	type nz struct {
		i int
		v float64
	}
	zrow := func(r int, z []nz) []nz {
		z = z[:0]
		if i := f.idx[loc[d.lo[r]]]; i >= 0 {
			z = append(z, nz{i, 1})
		}
		if i := f.idx[loc[d.hi[r]]]; i >= 0 {
			z = append(z, nz{i, -1})
		}
		for c, i := range f.cidx {
			if i >= 0 {
				if x := d.x[r*nCov+c]; x != 0 {
					z = append(z, nz{i, x})
				}
			}
		}
		return z
	}
	eta := func(p []float64, z []nz) float64 {
		e := 0.0
		for _, t := range z {
			e += p[t.i] * t.v
		}
		return e
	}
	thetaOf := func(p []float64, a int) float64 {
		if i := f.idx[a]; i >= 0 {
			return p[i]
		}
		return 0
	}
	var z []nz
	objective := func(p []float64) float64 {
		l := 0.0
		for r := range d.q {
			z = zrow(r, z)
			e := eta(p, z)
			l += d.w[r] * (d.y[r]*logSigmoid(e) + (1-d.y[r])*logSigmoid(-e))
		}
		if f.reg {
			for a := 0; a < ka; a++ {
				for b := a + 1; b < ka; b++ {
					e := thetaOf(p, a) - thetaOf(p, b)
					l += prior * 0.5 * (logSigmoid(e) + logSigmoid(-e))
				}
			}
		}
		return l
	}
	H := make([]float64, P*P)
	grad, step, trial := make([]float64, P), make([]float64, P), make([]float64, P)
	// hessGrad fills H (the information, positive definite) and grad at p.
	hessGrad := func(p []float64) {
		clear(H)
		clear(grad)
		add := func(z []nz, res, wv float64) {
			for _, s := range z {
				grad[s.i] += res * s.v
				for _, t := range z {
					H[s.i*P+t.i] += wv * s.v * t.v
				}
			}
		}
		for r := range d.q {
			z = zrow(r, z)
			mu := 1 / (1 + math.Exp(-eta(p, z)))
			add(z, d.w[r]*(d.y[r]-mu), d.w[r]*mu*(1-mu))
		}
		if f.reg {
			var pz []nz
			for a := 0; a < ka; a++ {
				for b := a + 1; b < ka; b++ {
					pz = pz[:0]
					if i := f.idx[a]; i >= 0 {
						pz = append(pz, nz{i, 1})
					}
					if i := f.idx[b]; i >= 0 {
						pz = append(pz, nz{i, -1})
					}
					mu := 1 / (1 + math.Exp(-(thetaOf(p, a) - thetaOf(p, b))))
					add(pz, prior*(0.5-mu), prior*mu*(1-mu))
				}
			}
		}
	}
	ll := objective(par)
	hc := make([]float64, P*P)
	converged := false
	for it := 0; it < 100 && !converged; it++ {
		hessGrad(par)
		copy(hc, H)
		if !cholSolve(hc, grad, step, P) {
			return f
		}
		improved := false
		for h, t := 0, 1.0; h < 60; h, t = h+1, t/2 {
			for i := range par {
				trial[i] = par[i] + t*step[i]
			}
			if l := objective(trial); l >= ll || math.Abs(l-ll) < 1e-12*math.Abs(ll) {
				ll = l
				improved = true
				maxd := 0.0
				for i := range par {
					maxd = math.Max(maxd, math.Abs(trial[i]-par[i]))
				}
				copy(par, trial)
				converged = maxd < 1e-10
				break
			}
		}
		if !improved {
			break
		}
	}
	if !converged {
		return f
	}
	for _, x := range par {
		if math.Abs(x) > 30 {
			return f // separation: an effect runs off to infinity
		}
	}
	// Sandwich: V = G/(G − 1) · H⁻¹ (Σ_g s_g s_gᵀ) H⁻¹ at the estimate, s_g
	// the score of question g's judgments.
	hessGrad(par)
	hs := mat.NewSymDense(P, append([]float64(nil), H...))
	var ch mat.Cholesky
	if !ch.Factorize(hs) {
		return f
	}
	var hinv mat.SymDense
	if err := ch.InverseTo(&hinv); err != nil {
		return f
	}
	meat := mat.NewSymDense(P, nil)
	sg := make([]float64, P)
	touched := make([]bool, P)
	var tl []int
	flush := func() {
		for _, i := range tl {
			for _, j := range tl {
				if i <= j {
					meat.SetSym(i, j, meat.At(i, j)+sg[i]*sg[j])
				}
			}
		}
		for _, i := range tl {
			sg[i], touched[i] = 0, false
		}
		tl = tl[:0]
	}
	for r := range d.q {
		if r > 0 && d.q[r] != d.q[r-1] {
			flush()
		}
		z = zrow(r, z)
		mu := 1 / (1 + math.Exp(-eta(par, z)))
		res := d.w[r] * (d.y[r] - mu)
		for _, s := range z {
			if !touched[s.i] {
				touched[s.i] = true
				tl = append(tl, s.i)
			}
			sg[s.i] += res * s.v
		}
	}
	flush()
	var tmp, v mat.Dense
	tmp.Mul(&hinv, meat)
	v.Mul(&tmp, &hinv)
	c := 1.0
	if f.g > 1 {
		c = float64(f.g) / float64(f.g-1)
	}
	f.v = mat.NewSymDense(P, nil)
	for i := 0; i < P; i++ {
		for j := i; j < P; j++ {
			f.v.SetSym(i, j, c*(v.At(i, j)+v.At(j, i))/2)
		}
	}
	f.theta = make([]float64, ka)
	mean := 0.0
	for a := range f.theta {
		f.theta[a] = thetaOf(par, a)
		mean += f.theta[a]
	}
	mean /= float64(ka)
	for a := range f.theta {
		f.theta[a] -= mean
	}
	for c, i := range f.cidx {
		f.gamma[c] = math.NaN()
		if i >= 0 {
			f.gamma[c] = par[i]
		}
	}
	f.ok = true
	return f
}

// quad is aᵀ·V·a for a over the parameters.
func (f *lmFit) quad(a []float64) float64 {
	return mat.Inner(mat.NewVecDense(len(a), a), f.v, mat.NewVecDense(len(a), a))
}

// modelGrad maps a gradient over the models' θ (ka entries) onto the
// parameters (the reference model has none: θ_ref = 0 before centring, and
// centring is a contrast, so a gradient that sums to zero loses nothing).
func (f *lmFit) modelGrad(gt []float64) []float64 {
	n, _ := f.v.Dims()
	a := make([]float64, n)
	for m, i := range f.idx {
		if i >= 0 {
			a[i] += gt[m]
		}
	}
	return a
}

// effects returns the covariates' estimates with t intervals and p-values.
func (f *lmFit) effects(level float64) [nCov]Effect {
	var out [nCov]Effect
	df := float64(f.g - 1)
	for c, i := range f.cidx {
		e := Effect{Name: CovariateNames[c], Estimate: Estimate{math.NaN(), math.NaN(), math.NaN()}, SE: math.NaN(), PValue: math.NaN()}
		if i >= 0 && f.ok {
			e.Used = true
			se := math.Sqrt(f.v.At(i, i))
			lo, hi := stats.TInterval(f.gamma[c], se, df, level)
			e.Estimate = Estimate{f.gamma[c], lo, hi}
			e.SE = se
			if df > 0 && se > 0 {
				e.PValue = stats.StudentTTwoSided(f.gamma[c]/se, df)
			}
		} else if i >= 0 {
			e.Used = true
		}
		out[c] = e
	}
	return out
}

// controlled returns, for the model at position a, the style-controlled
// rating (centred θ on the Elo scale) and the length-controlled win rate
// Σ_j n_aj·σ(θ_a − θ_j) / Σ_j n_aj, with t intervals from the sandwich
// covariance (the win rate's on the logit scale).
func (f *lmFit) controlled(a int, level float64) (rating, lc Estimate) {
	nan := Estimate{math.NaN(), math.NaN(), math.NaN()}
	rating, lc = nan, nan
	if !f.ok {
		return
	}
	ka := len(f.models)
	df := float64(f.g - 1)
	gt := make([]float64, ka)
	for j := range gt {
		gt[j] = -1 / float64(ka)
	}
	gt[a]++
	se := math.Sqrt(f.quad(f.modelGrad(gt)))
	lo, hi := stats.TInterval(f.theta[a], se, df, level)
	rating = Estimate{Rating(f.theta[a]), Rating(lo), Rating(hi)}
	clear(gt)
	num, den := 0.0, 0.0
	for j := 0; j < ka; j++ {
		n := f.nij[a*ka+j]
		if n == 0 {
			continue
		}
		s := 1 / (1 + math.Exp(f.theta[j]-f.theta[a]))
		num += n * s
		den += n
		gt[a] += n * s * (1 - s)
		gt[j] -= n * s * (1 - s)
	}
	if den == 0 {
		return
	}
	w := num / den
	for j := range gt {
		gt[j] /= den
	}
	seW := math.Sqrt(f.quad(f.modelGrad(gt)))
	l := math.Log(w / (1 - w))
	sl := seW / (w * (1 - w))
	llo, lhi := stats.TInterval(l, sl, df, level)
	lc = Estimate{w, 1 / (1 + math.Exp(-llo)), 1 / (1 + math.Exp(-lhi))}
	return
}
