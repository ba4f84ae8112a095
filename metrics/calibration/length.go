package calibration

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// lengthSeedMix separates the bootstrap streams of length_controlled from
// the fold streams: the bootstrap uses seed Options.Seed XOR this constant.
const lengthSeedMix = 0x9e3779b97f4a7c15

// lengthObs is one response in the length regression.
type lengthObs struct {
	m, q  int
	y, z  float64
	yR    study.Rat // y exactly (zero Rat: not exact), for raw_mean
	chars int
}

// lengthFit holds, per question, the sufficient statistics of the least
// squares on its demeaned rows (the within transformation that absorbs the
// question fixed effects): the p×p cross-products XᵀX (p = nM: the dummies
// of models 1…M−1, then z), Xᵀy and the number of rows, packed in flat
// arrays by question.
type lengthFit struct {
	nM   int
	xtx  []float64 // per question, p×p, row-major
	xty  []float64 // per question, p
	rows []int32   // per question
}

// newLengthFit accumulates the cross-products of every question's rows.
func newLengthFit(clusters [][]lengthRow, p int) *lengthFit {
	lf := emptyLengthFit(len(clusters), p)
	for c, rs := range clusters {
		lf.add(c, rs)
	}
	return lf
}

// emptyLengthFit returns the fit of nClusters questions with no rows yet,
// to be filled by add.
func emptyLengthFit(nClusters, p int) *lengthFit {
	return &lengthFit{nM: p, xtx: make([]float64, nClusters*p*p), xty: make([]float64, nClusters*p), rows: make([]int32, nClusters)}
}

// add accumulates the cross-products of question c's rows rs (once per c).
func (lf *lengthFit) add(c int, rs []lengthRow) {
	p := lf.nM
	a, b := lf.xtx[c*p*p:(c+1)*p*p], lf.xty[c*p:(c+1)*p]
	for _, r := range rs {
		for i, xi := range r.x {
			b[i] += xi * r.y
			for j := i; j < p; j++ {
				a[i*p+j] += xi * r.x[j]
			}
		}
	}
	for i := 0; i < p; i++ {
		for j := 0; j < i; j++ {
			a[i*p+j] = a[j*p+i]
		}
	}
	lf.rows[c] = int32(len(rs))
}

// lengthWork is one bootstrap worker's space for lengthFit.fit.
type lengthWork struct {
	a, b, beta []float64
}

func newLengthWork(p int) *lengthWork {
	return &lengthWork{a: make([]float64, p*p), b: make([]float64, p), beta: make([]float64, p)}
}

type lengthRow struct {
	y float64
	x []float64 // demeaned dummies of models 1…M−1, then demeaned z
}

// lengthControlled builds length_controlled: the per-response mean human
// rubric_mean regressed on standardised log length with question and model
// fixed effects.
//
// Model: y_qm = α_q + β_m + γ·z_qm + ε, z = (ln chars − mean)/SD (SD with
// n − 1, over the responses in the fit, fixed once so γ is in rubric points
// per SD of log length). Fitted by least squares after the within-question
// transformation (each variable minus its question mean: Frisch–Waugh–
// Lovell), with model dummies for every model but the first (gonum mat QR).
// adjusted_effect is β_m minus the mean β over models, comparable to
// raw_effect = raw mean − mean of the raw means: in a balanced study the
// two differ exactly by γ times the model's centred mean z. Intervals are
// percentile intervals of a cluster bootstrap over questions (a replicate
// where the fit is singular, e.g. a model drawn on no question, is left
// out). Responses without text (chars = 0) or without human rubric
// gradings are left out.
func lengthControlled(ctx context.Context, s *study.Study, d *data, opt Options, r *Result) error {
	note := func(reason string) {
		r.Notes = append(r.Notes, Note{Table: TableLength, Reason: reason})
	}
	if !d.hasRubric {
		note("the study has no rubric")
		return nil
	}
	mPos := map[string]int{}
	for i, m := range d.models {
		mPos[m] = i
	}
	qPos := map[string]int{}
	for i, q := range d.questions {
		qPos[q] = i
	}
	var obs []lengthObs
	var logs []float64
	for _, resp := range s.Responses {
		m, okM := mPos[resp.Model]
		q, okQ := qPos[resp.QuestionID]
		if !okM || !okQ || resp.Chars <= 0 || math.IsNaN(d.hRub[m][q]) {
			continue
		}
		l := math.Log(float64(resp.Chars))
		obs = append(obs, lengthObs{m: m, q: q, y: d.hRub[m][q], yR: d.hRubR[m][q], z: l, chars: resp.Chars})
		logs = append(logs, l)
	}
	if len(obs) == 0 {
		note("no response with text and human rubric gradings")
		return nil
	}
	mu, sd := stats.Mean(logs), stats.SD(logs)
	if !(sd > 0) {
		note("every response has the same length: the length effect is not identified")
		return nil
	}
	for i := range obs {
		obs[i].z = (obs[i].z - mu) / sd
	}
	// Compact model indices to the models present.
	present := make([]int, len(d.models))
	for i := range present {
		present[i] = -1
	}
	var models []string
	for _, o := range obs {
		if present[o.m] < 0 {
			present[o.m] = 0
		}
	}
	for m, p := range present {
		if p == 0 {
			present[m] = len(models)
			models = append(models, d.models[m])
		}
	}
	nM := len(models)
	if nM < 2 {
		note("fewer than two models have responses with text and human gradings")
		return nil
	}
	// The questions' rows, question by question (in response order within
	// a question): each question is demeaned and its cross-products
	// accumulated in turn, so that only one question's rows exist at a
	// time.
	for i := range obs {
		obs[i].m = present[obs[i].m]
	}
	sort.SliceStable(obs, func(a, b int) bool { return obs[a].q < obs[b].q })
	var qs []int
	var groups []int // obs[groups[c]:groups[c+1]] are question qs[c]'s
	for i, o := range obs {
		if i == 0 || o.q != obs[i-1].q {
			qs = append(qs, o.q)
			groups = append(groups, i)
		}
	}
	groups = append(groups, len(obs))
	lf := emptyLengthFit(len(qs), nM)
	for c := range qs {
		lf.add(c, demean(obs[groups[c]:groups[c+1]], nM))
	}
	all := make([]int32, len(qs))
	for i := range all {
		all[i] = 1
	}
	est := make([]float64, nM+1)
	for i := range est {
		est[i] = math.NaN()
	}
	lf.fit(all, est, newLengthWork(nM))

	// Raw means and lengths per model.
	sumY, sumC := make([]float64, nM), make([]float64, nM)
	cnt := make([]int, nM)
	ys := make([]study.RatSum, nM) // raw_mean: the exact mean of the responses' human means
	for _, o := range obs {
		ys[o.m].Add(o.yR, o.y)
		sumC[o.m] += float64(o.chars)
		cnt[o.m]++
	}
	for m := range ys {
		sumY[m] = ys[m].Mean()
	}
	grand := stats.Mean(sumY)

	lo, hi := make([]float64, nM+1), make([]float64, nM+1)
	for i := range lo {
		lo[i], hi[i] = math.NaN(), math.NaN()
	}
	if opt.Bootstrap > 0 {
		reps, err := stats.ClusterBootstrapCounts(ctx, len(qs), opt.Bootstrap, opt.Seed^lengthSeedMix, nM+1, func() stats.CountStat {
			ws := newLengthWork(nM)
			return func(cnt []int32, out []float64) { lf.fit(cnt, out, ws) }
		})
		if err != nil {
			return fmt.Errorf("calibration: %w", err)
		}
		for k := range lo {
			lo[k], hi[k] = stats.PercentileInterval(reps, k, opt.Level)
		}
	}
	r.Length = Length{Coef: est[nM], CoefLo: lo[nM], CoefHi: hi[nM]}
	for m, name := range models {
		r.Length.Rows = append(r.Length.Rows, LengthRow{Model: name, Responses: int64(cnt[m]), MeanChars: sumC[m] / float64(cnt[m]),
			RawMean: sumY[m], RawMeanExact: ys[m].Rat(), RawEffect: sumY[m] - grand,
			AdjustedEffect: est[m], AdjustedLo: lo[m], AdjustedHi: hi[m]})
	}
	if math.IsNaN(est[nM]) {
		r.Warnings = append(r.Warnings, fmt.Sprintf("calibration: %s: the fixed-effects fit is singular (length is collinear with the models or questions)", TableLength))
	}
	return nil
}

// demean returns one question's rows minus the question means.
func demean(os []lengthObs, nM int) []lengthRow {
	k := len(os)
	x := make([][]float64, k)
	for i, o := range os {
		x[i] = make([]float64, nM)
		if o.m > 0 {
			x[i][o.m-1] = 1
		}
		x[i][nM-1] = o.z
	}
	var my float64
	mx := make([]float64, nM)
	for i, o := range os {
		my += o.y
		for c := range mx {
			mx[c] += x[i][c]
		}
	}
	my /= float64(k)
	for c := range mx {
		mx[c] /= float64(k)
	}
	rows := make([]lengthRow, k)
	for i, o := range os {
		for c := range mx {
			x[i][c] -= mx[c]
		}
		rows[i] = lengthRow{y: o.y - my, x: x[i]}
	}
	return rows
}

// fit solves the within-transformed least squares on the resample with
// cnt[c] copies of question c, from the normal equations
// (Σ cnt·XᵀX) β = Σ cnt·Xᵀy by Cholesky, and writes the centred model
// effects (out[0:nM]) and the length coefficient (out[nM]); out is left as
// it is (NaN) when the design is singular: a pivot not above 1e-10 times
// its diagonal entry (a model drawn on no question gives an exact zero).
// Safe for concurrent use with one lengthWork per goroutine; allocates
// nothing.
func (lf *lengthFit) fit(cnt []int32, out []float64, ws *lengthWork) {
	p := lf.nM
	pp := p * p
	a, b := ws.a, ws.b
	clear(a)
	clear(b)
	n := 0
	for c, k := range cnt {
		if k == 0 {
			continue
		}
		w := float64(k)
		n += int(k) * int(lf.rows[c])
		xa, xb := lf.xtx[c*pp:(c+1)*pp], lf.xty[c*p:(c+1)*p]
		for i := range a {
			a[i] += w * xa[i]
		}
		for i := range b {
			b[i] += w * xb[i]
		}
	}
	if n < p {
		return
	}
	if !solveSPD(a, b, p) {
		return
	}
	beta := ws.beta // beta[0] = 0 (reference model)
	beta[0] = 0
	copy(beta[1:], b[:p-1])
	mean := stats.Mean(beta)
	for m := range beta {
		out[m] = beta[m] - mean
	}
	out[p] = b[p-1]
}

// solveSPD solves a·x = b in place (x in b) for the symmetric p×p matrix a
// (row-major; overwritten by its Cholesky factor L, a = L·Lᵀ). It reports
// false, leaving a and b clobbered, when a is not numerically positive
// definite: a pivot ≤ 1e-10 times its original diagonal entry.
func solveSPD(a, b []float64, p int) bool {
	for j := 0; j < p; j++ {
		diag := a[j*p+j]
		d := diag
		for k := 0; k < j; k++ {
			d -= a[j*p+k] * a[j*p+k]
		}
		if !(diag > 0) || !(d > 1e-10*diag) {
			return false
		}
		d = math.Sqrt(d)
		a[j*p+j] = d
		for i := j + 1; i < p; i++ {
			v := a[i*p+j]
			for k := 0; k < j; k++ {
				v -= a[i*p+k] * a[j*p+k]
			}
			a[i*p+j] = v / d
		}
	}
	for i := 0; i < p; i++ { // L·y = b
		v := b[i]
		for k := 0; k < i; k++ {
			v -= a[i*p+k] * b[k]
		}
		b[i] = v / a[i*p+i]
	}
	for i := p - 1; i >= 0; i-- { // Lᵀ·x = y
		v := b[i]
		for k := i + 1; k < p; k++ {
			v -= a[k*p+i] * b[k]
		}
		b[i] = v / a[i*p+i]
	}
	return true
}
