package stats

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"

	"gonum.org/v1/gonum/mathext"
)

// KappaResult is Cohen's κ under the three weightings with the confusion
// matrix it was computed from.
type KappaResult struct {
	Kappa, Linear, Quadratic float64
	// Labels are the labels used, in matrix order.
	Labels []int
	// Confusion[i][j] counts items rater a labelled Labels[i] and rater b
	// labelled Labels[j].
	Confusion [][]int64
}

// Kappa weightings accepted by CohenKappa.
const (
	KappaUnweighted = ""
	KappaLinear     = "linear"
	KappaQuadratic  = "quadratic"
)

// CohenKappa returns Cohen's κ between raters a and b (a[i], b[i] are the
// two labels of item i), as sklearn.metrics.cohen_kappa_score(a, b,
// labels=labels, weights=weights). weights is "" (unweighted), "linear" or
// "quadratic"; weights use label positions in labels (or in the sorted union
// of observed labels when labels is nil), not label values. Items with a
// label outside labels are dropped. It returns NaN when CohenKappaDetail
// reports an error, for an unknown weights string, and when the expected
// disagreement is 0 (both raters constant on the same label).
func CohenKappa(a, b []int, labels []int, weights string) float64 {
	k, err := CohenKappaDetail(a, b, labels)
	if err != nil {
		return math.NaN()
	}
	switch weights {
	case KappaUnweighted:
		return k.Kappa
	case KappaLinear:
		return k.Linear
	case KappaQuadratic:
		return k.Quadratic
	}
	return math.NaN()
}

// CohenKappaDetail returns κ under all three weightings and the confusion
// matrix. It is an error when a and b differ in length, are empty, or no
// label of a is in labels (sklearn's "at least one label specified must be
// in y_true").
func CohenKappaDetail(a, b []int, labels []int) (KappaResult, error) {
	if len(a) != len(b) {
		return KappaResult{}, fmt.Errorf("stats: cohen kappa: rater a has %d labels, rater b %d", len(a), len(b))
	}
	if len(a) == 0 {
		return KappaResult{}, errors.New("stats: cohen kappa: no items")
	}
	if labels == nil {
		labels = unionSorted(a, b)
	}
	pos := make(map[int]int, len(labels))
	for i, l := range labels {
		if _, dup := pos[l]; !dup {
			pos[l] = i
		}
	}
	anyA := false
	for _, v := range a {
		if _, ok := pos[v]; ok {
			anyA = true
			break
		}
	}
	if !anyA {
		return KappaResult{}, errors.New("stats: cohen kappa: at least one label specified must be in rater a's labels")
	}
	L := len(labels)
	conf := make([][]int64, L)
	for i := range conf {
		conf[i] = make([]int64, L)
	}
	for i := range a {
		pa, okA := pos[a[i]]
		pb, okB := pos[b[i]]
		if okA && okB {
			conf[pa][pb]++
		}
	}
	rows := make([]int64, L) // rater a
	cols := make([]int64, L) // rater b
	var N int64
	for i := range conf {
		for j, c := range conf[i] {
			rows[i] += c
			cols[j] += c
			N += c
		}
	}
	// expected[i][j] = cols[i]·rows[j]/N (sklearn's np.outer(sum0, sum1)/N).
	exp := make([]float64, L*L)
	for i := 0; i < L; i++ {
		for j := 0; j < L; j++ {
			exp[i*L+j] = float64(cols[i]*rows[j]) / float64(N)
		}
	}
	kappa := func(w func(i, j int) int64) float64 {
		var num int64
		terms := make([]float64, L*L)
		for i := 0; i < L; i++ {
			for j := 0; j < L; j++ {
				wij := w(i, j)
				num += wij * conf[i][j]
				terms[i*L+j] = float64(wij) * exp[i*L+j]
			}
		}
		return 1 - float64(num)/Sum(terms)
	}
	res := KappaResult{Labels: slices.Clone(labels), Confusion: conf}
	res.Kappa = kappa(func(i, j int) int64 {
		if i != j {
			return 1
		}
		return 0
	})
	res.Linear = kappa(func(i, j int) int64 {
		d := int64(i - j)
		if d < 0 {
			d = -d
		}
		return d
	})
	res.Quadratic = kappa(func(i, j int) int64 {
		d := int64(i - j)
		return d * d
	})
	return res, nil
}

func unionSorted(a, b []int) []int {
	u := make([]int, 0, len(a)+len(b))
	u = append(u, a...)
	u = append(u, b...)
	slices.Sort(u)
	return slices.Compact(u)
}

// ClassScore is one label's row of a classification report.
type ClassScore struct {
	Label                 int
	Precision, Recall, F1 float64
	// Support is the number of items whose true label is Label.
	Support int
}

// F1Result is MacroF1Detail's classification report.
type F1Result struct {
	MacroF1, Accuracy float64
	Labels            []int
	PerClass          []ClassScore
}

// MacroF1 returns the unweighted mean over labels of the per-label F1, as
// sklearn.metrics.f1_score(yTrue, yPred, labels=labels, average='macro')
// with sklearn's zero_division behaviour (a precision or recall with a zero
// denominator counts as 0, and F1 = 0 when precision + recall = 0). labels
// nil means the sorted union of both columns; a label that occurs only in
// yPred counts with F1 = 0. NaN when the lengths differ or are 0, or labels
// is non-nil but empty.
func MacroF1(yTrue, yPred []int, labels []int) float64 {
	return MacroF1Detail(yTrue, yPred, labels).MacroF1
}

// MacroF1Detail is MacroF1 with accuracy and per-label precision, recall,
// F1 and support. F1 = (2·p)·r/(p + r) from the rounded p and r, as sklearn;
// MacroF1 is the numpy mean of the per-label F1; Accuracy is the share of
// items with yTrue = yPred (over all items, whatever labels says).
func MacroF1Detail(yTrue, yPred []int, labels []int) F1Result {
	nan := math.NaN()
	if len(yTrue) != len(yPred) || len(yTrue) == 0 || (labels != nil && len(labels) == 0) {
		return F1Result{MacroF1: nan, Accuracy: nan}
	}
	if labels == nil {
		labels = unionSorted(yTrue, yPred)
	}
	matches := 0
	for i := range yTrue {
		if yTrue[i] == yPred[i] {
			matches++
		}
	}
	res := F1Result{Labels: slices.Clone(labels), Accuracy: float64(matches) / float64(len(yTrue))}
	f1s := make([]float64, len(labels))
	for li, l := range labels {
		var tp, fp, fn int
		for i := range yTrue {
			t, p := yTrue[i] == l, yPred[i] == l
			switch {
			case t && p:
				tp++
			case p:
				fp++
			case t:
				fn++
			}
		}
		var prec, rec, f1 float64
		if tp+fp > 0 {
			prec = float64(tp) / float64(tp+fp)
		}
		if tp+fn > 0 {
			rec = float64(tp) / float64(tp+fn)
		}
		if den := prec + rec; den != 0 {
			f1 = float64(2*prec*rec) / den
		}
		f1s[li] = f1
		res.PerClass = append(res.PerClass, ClassScore{Label: l, Precision: prec, Recall: rec, F1: f1, Support: tp + fn})
	}
	res.MacroF1 = Mean(f1s)
	return res
}

// Krippendorff measurement levels.
const (
	Nominal  = "nominal"
	Ordinal  = "ordinal"
	Interval = "interval"
	Ratio    = "ratio"
)

// AlphaResult holds Krippendorff's α at the four measurement levels.
type AlphaResult struct {
	Nominal, Ordinal, Interval, Ratio float64
	// PairableUnits counts units with at least two ratings; PairableValues
	// counts the ratings in them.
	PairableUnits, PairableValues int
}

// KrippendorffAlpha returns Krippendorff's α of data[rater][unit] (NaN =
// missing) at level "nominal", "ordinal", "interval" or "ratio", as
// fast-krippendorff's alpha(reliability_data=data,
// level_of_measurement=level). The value domain is the sorted distinct
// ratings. NaN for an unknown level and whenever KrippendorffAlphaDetail
// reports an error (fewer than two distinct values, no unit rated twice,
// ragged rows); also NaN (0/0) when the pairable units hold one value only.
func KrippendorffAlpha(data [][]float64, level string) float64 {
	a, err := KrippendorffAlphaDetail(data, nil)
	if err != nil {
		return math.NaN()
	}
	switch level {
	case Nominal:
		return a.Nominal
	case Ordinal:
		return a.Ordinal
	case Interval:
		return a.Interval
	case Ratio:
		return a.Ratio
	}
	return math.NaN()
}

// KrippendorffAlphaDetail returns α at all four levels. domain lists the
// possible values in order (it matters for "ordinal" only through the
// order); nil means the sorted distinct non-missing ratings. Ratings outside
// a given domain are an error. On error the α fields are NaN and the counts
// are still filled when known.
//
// Coincidences o[c][k] = Σ_u n_uc·(n_uk − [c=k])/(m_u − 1) over units with
// m_u ≥ 2 ratings; α = 1 − (n−1)·Σ o·δ² / Σ n_c·n_k·δ², with δ² the level's
// metric (nominal [c≠k]; interval (c−k)²; ratio ((c−k)/(c+k))²; ordinal
// (Σ_{g=c..k} n_g − (n_c+n_k)/2)²).
func KrippendorffAlphaDetail(data [][]float64, domain []float64) (AlphaResult, error) {
	nan := math.NaN()
	res := AlphaResult{Nominal: nan, Ordinal: nan, Interval: nan, Ratio: nan}
	if len(data) == 0 {
		return res, errors.New("stats: krippendorff alpha: no raters")
	}
	nu := len(data[0])
	for r, row := range data {
		if len(row) != nu {
			return res, fmt.Errorf("stats: krippendorff alpha: rater %d rates %d units, rater 0 rates %d", r, len(row), nu)
		}
	}
	if domain == nil {
		for _, row := range data {
			for _, v := range row {
				if !math.IsNaN(v) {
					domain = append(domain, v)
				}
			}
		}
		slices.Sort(domain)
		domain = slices.Compact(domain)
	}
	// The units are the matrix's columns, in order: the same coincidence
	// sums as KrippendorffAlphaUnits takes, by the same code.
	col := make([]float64, len(data))
	columns := func(yield func([]float64) bool) {
		for u := 0; u < nu; u++ {
			for r, row := range data {
				col[r] = row[u]
			}
			if !yield(col) {
				return
			}
		}
	}
	if domain == nil {
		domain = []float64{} // every rating is missing: α is undefined
	}
	return KrippendorffAlphaUnits(columns, domain)
}

// ICCResult holds the six Shrout & Fleiss (1979) intraclass correlations
// and the two-way ANOVA they come from.
type ICCResult struct {
	// ICC1 is ICC(1,1), one-way random, single rater; ICC1k is ICC(1,k).
	ICC1, ICC1k float64
	// ICC2 is ICC(2,1), two-way random, absolute agreement, single rater;
	// ICC2k is ICC(2,k).
	ICC2, ICC2k float64
	// ICC3 is ICC(3,1), two-way mixed, consistency, single rater; ICC3k is
	// ICC(3,k).
	ICC3, ICC3k float64
	// Mean squares: between targets (rows), between raters (columns),
	// residual, and within targets.
	MSR, MSC, MSE, MSW float64
	// F = MSR/MSE on DF1 = n−1 and DF2 = (n−1)(k−1) degrees of freedom, and
	// its upper-tail p-value.
	F, DF1, DF2, P float64
	// N targets and K raters.
	N, K int
}

// ICC returns the Shrout & Fleiss intraclass correlations of x[target][rater]
// (complete data), as psych::ICC(x, lmer=FALSE). The sums of squares, mean
// squares, ICCs and F are evaluated in exact rational arithmetic on the
// float64 inputs and rounded once, so they are the correctly rounded true
// values (no cancellation even for data like 1e6 + small differences); only
// P, the upper tail of F(DF1, DF2), comes from a special function. A
// division by zero follows IEEE rules: all values equal gives NaN, MSR = 0
// with MSW > 0 gives ICC1k = −Inf, MSE = 0 gives F = +Inf and P = 0.
// Every float field is NaN when there are fewer than 2 targets or 2 raters,
// the rows are ragged, or x holds a NaN or an infinity.
func ICC(x [][]float64) ICCResult {
	nan := math.NaN()
	bad := ICCResult{nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, len(x), 0}
	n := len(x)
	if n < 2 {
		return bad
	}
	k := len(x[0])
	bad.K = k
	if k < 2 {
		return bad
	}
	for _, row := range x {
		if len(row) != k {
			return bad
		}
		for _, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return bad
			}
		}
	}
	// Exact sums in integer units of u = 2^emin (every float64 is an integer
	// multiple of the smallest power of two among the inputs): G = Σx, R_i row
	// sums, C_j column sums, Q = Σx² (in units of u²).
	mant := make([]int64, 0, n*k)
	exps := make([]int, 0, n*k)
	emin := math.MaxInt
	for _, row := range x {
		for _, v := range row {
			m, e := dyadic(v)
			mant = append(mant, m)
			exps = append(exps, e)
			if m != 0 {
				emin = min(emin, e)
			}
		}
	}
	if emin == math.MaxInt {
		emin = 0
	}
	G, Q := new(big.Int), new(big.Int)
	C := make([]*big.Int, k)
	for j := range C {
		C[j] = new(big.Int)
	}
	sumRowSq := new(big.Int)
	R, v, sq := new(big.Int), new(big.Int), new(big.Int)
	for i := 0; i < n; i++ {
		R.SetInt64(0)
		for j := 0; j < k; j++ {
			v.SetInt64(mant[i*k+j])
			v.Lsh(v, uint(exps[i*k+j]-emin))
			R.Add(R, v)
			C[j].Add(C[j], v)
			Q.Add(Q, sq.Mul(v, v))
		}
		G.Add(G, R)
		sumRowSq.Add(sumRowSq, sq.Mul(R, R))
	}
	sumColSq := new(big.Int)
	for _, c := range C {
		sumColSq.Add(sumColSq, sq.Mul(c, c))
	}
	// scale u² = 2^(2·emin) turns unit counts back into values.
	unit2 := new(big.Rat).SetInt64(1)
	if e := 2 * emin; e >= 0 {
		unit2.SetInt(new(big.Int).Lsh(big.NewInt(1), uint(e)))
	} else {
		unit2.SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(-e)))
	}
	scaled := func(a *big.Int) *big.Rat { return new(big.Rat).Mul(new(big.Rat).SetInt(a), unit2) }
	GG := scaled(sq.Mul(G, G))
	sumRowSqR, sumColSqR, QR := scaled(sumRowSq), scaled(sumColSq), scaled(Q)
	bn, bk := big.NewRat(int64(n), 1), big.NewRat(int64(k), 1)
	one := big.NewRat(1, 1)
	nk := new(big.Rat).Mul(bn, bk)
	corr := new(big.Rat).Quo(GG, nk) // G²/(nk)
	ssr := new(big.Rat).Sub(new(big.Rat).Quo(sumRowSqR, bk), corr)
	ssc := new(big.Rat).Sub(new(big.Rat).Quo(sumColSqR, bn), corr)
	sst := new(big.Rat).Sub(QR, corr)
	sse := new(big.Rat).Sub(new(big.Rat).Sub(sst, ssr), ssc)
	n1 := new(big.Rat).Sub(bn, one) // n − 1
	k1 := new(big.Rat).Sub(bk, one) // k − 1
	df2 := new(big.Rat).Mul(n1, k1)
	msr := new(big.Rat).Quo(ssr, n1)
	msc := new(big.Rat).Quo(ssc, k1)
	mse := new(big.Rat).Quo(sse, df2)
	msw := new(big.Rat).Quo(new(big.Rat).Add(ssc, sse), new(big.Rat).Mul(bn, k1))
	add := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Add(a, b) }
	sub := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Sub(a, b) }
	mul := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }
	quo := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Quo(a, b) }
	f := func(a *big.Rat) float64 { v, _ := a.Float64(); return v }

	r := ICCResult{MSR: f(msr), MSC: f(msc), MSE: f(mse), MSW: f(msw), DF1: float64(n - 1), DF2: f(df2), N: n, K: k}
	r.ICC1 = ratio(sub(msr, msw), add(msr, mul(k1, msw)))
	r.ICC1k = ratio(sub(msr, msw), msr)
	r.ICC2 = ratio(sub(msr, mse), add(add(msr, mul(k1, mse)), quo(mul(bk, sub(msc, mse)), bn)))
	r.ICC2k = ratio(sub(msr, mse), add(msr, quo(sub(msc, mse), bn)))
	r.ICC3 = ratio(sub(msr, mse), add(msr, mul(k1, mse)))
	r.ICC3k = ratio(sub(msr, mse), msr)
	r.F = ratio(msr, mse)
	switch {
	case math.IsNaN(r.F):
		r.P = nan
	case math.IsInf(r.F, 1):
		r.P = 0
	case r.F <= 0:
		r.P = 1
	default:
		r.P = mathext.RegIncBeta(r.DF2/2, r.DF1/2, r.DF2/(r.DF2+float64(r.DF1*r.F)))
	}
	return r
}

// ratio returns num/den rounded once to float64, with IEEE semantics for a
// zero denominator (0/0 = NaN, ±x/0 = ±Inf).
func ratio(num, den *big.Rat) float64 {
	if den.Sign() == 0 {
		if num.Sign() == 0 {
			return math.NaN()
		}
		return math.Inf(num.Sign())
	}
	v, _ := new(big.Rat).Quo(num, den).Float64()
	return v
}

// dyadic returns m and e with v = m·2^e exactly, m odd (or 0) and |m| < 2^53,
// for a finite v.
func dyadic(v float64) (m int64, e int) {
	if v == 0 {
		return 0, 0
	}
	fr, ex := math.Frexp(v) // v = fr·2^ex, 0.5 ≤ |fr| < 1
	m = int64(math.Ldexp(fr, 53))
	e = ex - 53
	for m%2 == 0 {
		m /= 2
		e++
	}
	return m, e
}

// alphaFromCoincidences completes res with α at the four levels from the
// coincidence matrix o (V×V, row-major, over the sorted domain), given
// res.PairableUnits: the one computation behind KrippendorffAlphaDetail
// and KrippendorffAlphaUnits, so that both give the same bits.
func alphaFromCoincidences(res AlphaResult, o, domain []float64) (AlphaResult, error) {
	V := len(domain)
	if V < 2 {
		return res, errors.New("stats: krippendorff alpha: there has to be more than one value in the domain")
	}
	if res.PairableUnits == 0 {
		return res, errors.New("stats: krippendorff alpha: there has to be at least one unit with values assigned by at least two raters")
	}
	nc := make([]float64, V)
	n := 0.0
	for c := 0; c < V; c++ {
		for k := 0; k < V; k++ {
			nc[c] += o[c*V+k]
		}
		n += nc[c]
	}
	alpha := func(d2 func(c, k int) float64) float64 {
		var do, de float64
		for c := 0; c < V; c++ {
			for k := 0; k < V; k++ {
				if c == k {
					continue
				}
				d := d2(c, k)
				do += float64(o[c*V+k] * d)
				de += float64(float64(nc[c]*nc[k]) * d)
			}
		}
		return 1 - float64((n-1)*do)/de
	}
	res.Nominal = alpha(func(c, k int) float64 { return 1 })
	res.Interval = alpha(func(c, k int) float64 {
		d := domain[c] - domain[k]
		return d * d
	})
	res.Ratio = alpha(func(c, k int) float64 {
		s := domain[c] + domain[k]
		if s == 0 {
			return 0
		}
		d := (domain[c] - domain[k]) / s
		return d * d
	})
	// cumulative sums of n_g for the ordinal metric.
	cum := make([]float64, V+1)
	for g := 0; g < V; g++ {
		cum[g+1] = cum[g] + nc[g]
	}
	res.Ordinal = alpha(func(c, k int) float64 {
		lo, hi := min(c, k), max(c, k)
		d := (cum[hi+1] - cum[lo]) - (nc[c]+nc[k])/2
		return d * d
	})
	return res, nil
}
