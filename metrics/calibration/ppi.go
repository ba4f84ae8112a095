package calibration

import (
	"math"

	"github.com/euroexec/euroexec/metrics/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// PPI is a prediction-powered estimate of a mean with its interval, and
// the human-only estimate on the same labelled units for comparison.
type PPI struct {
	// Estimate is θ_PP = mean_all(f) + mean_labelled(y − f).
	Estimate, Lo, Hi float64
	// HumanMean is mean_labelled(y); HumanLo and HumanHi its interval
	// mean ± q·SD/√n.
	HumanMean, HumanLo, HumanHi float64
	// Lambda is the power-tuning weight λ̂ = Cov_L(y, f)/Var_all(f) (0 when
	// the predictions are constant), and Tuned, TunedLo, TunedHi the
	// power-tuned estimate mean_L(y) + λ̂·(mean_all(f) − mean_L(f)) with its
	// CLT interval (PPI++; λ = 1 is Estimate, λ = 0 the human-only mean).
	Lambda, Tuned, TunedLo, TunedHi float64
	// N is the number of units with a prediction, NLabelled those that also
	// have a label.
	N, NLabelled int
}

// PPIMean estimates the mean of y by prediction-powered inference
// (Angelopoulos, Bates, Fannjiang, Jordan and Zrnic 2023, "Prediction-powered
// inference", Science 382): f[i] is the prediction for unit i (NaN = none;
// such units are left out), y[i] the label (NaN = unlabelled). The labelled
// units are a subset of the N predicted units, so
//
//	θ_PP = mean_all(f) + mean_L(y − f)
//	     = mean_L(y − (1−ρ)f) + (1−ρ)·mean_U(f),   ρ = n/N,
//
// a sum of two independent means when units are independent and the labelled
// subset is random, whence the CLT interval θ_PP ± q·√V with
//
//	V = Var_L(y − (1−ρ)f)/n + (1−ρ)·Var_all(f)/N
//
// (sample variances with divisor n − 1). The paper uses the normal quantile
// for q; PPIMean uses the Student t quantile with n − 1 degrees of freedom
// (n labelled units) for all three intervals, which tends to the normal one
// for large n and keeps the coverage of the small labelled sets a human
// study has (15 questions: 2.14 instead of 1.96) near the nominal level.
// When n ≪ N this is the paper's σ²_rectifier/n + σ²_f/N; when every unit is
// labelled it is the human-only variance Var(y)/n. Units are whatever the
// caller passes: package calibration passes questions (one value per
// question and model, human graders averaged within the question), so the
// interval is a cluster-level one.
//
// Power tuning (Angelopoulos, Duchi and Zrnic 2023, "PPI++: Efficient
// prediction-powered inference"). Classic PPI can be wider than the
// human-only interval when the judge's scale differs from the humans' (its
// residuals vary more than the human scores). The tuned estimator
//
//	θ_λ = mean_L(y) + λ·(mean_all(f) − mean_L(f))
//	V_λ = Var_L(y − λ(1−ρ)f)/n + λ²(1−ρ)·Var_all(f)/N
//
// has, for the subset design, its variance minimised at λ = Cov(y, f)/Var(f)
// (the derivative of V_λ vanishes there since (1−ρ)/n + 1/N = 1/n);
// PPIMean plugs in λ̂ = Cov_L(y, f)/Var_all(f). Asymptotically the tuned
// interval is never wider than the human-only one. λ̂ is not clipped.
//
// Every field is NaN when fewer than two units are labelled or level is
// not in (0, 1); the counts are always set.
func PPIMean(f, y []float64, level float64) PPI {
	nan := math.NaN()
	r := PPI{Estimate: nan, Lo: nan, Hi: nan, HumanMean: nan, HumanLo: nan, HumanHi: nan,
		Lambda: nan, Tuned: nan, TunedLo: nan, TunedHi: nan}
	fAll := make([]float64, 0, len(f))
	yL, fL := make([]float64, 0, len(f)), make([]float64, 0, len(f))
	for i := range f {
		if i >= len(y) || math.IsNaN(f[i]) {
			continue
		}
		fAll = append(fAll, f[i])
		if !math.IsNaN(y[i]) {
			yL = append(yL, y[i])
			fL = append(fL, f[i])
		}
	}
	r.N, r.NLabelled = len(fAll), len(yL)
	if r.NLabelled < 2 || !(level > 0 && level < 1) {
		return r
	}
	n, N := float64(r.NLabelled), float64(r.N)
	z := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(1 - (1-level)/2)
	r.HumanMean = stats.Mean(yL)
	// the same expression as the PPI's variance below, so that with every
	// question labelled (ρ = 1) both intervals are equal bit for bit
	hh := z * math.Sqrt(stats.Variance(yL)/n)
	r.HumanLo, r.HumanHi = r.HumanMean-hh, r.HumanMean+hh

	rect := make([]float64, len(yL))
	for i := range yL {
		rect[i] = yL[i] - fL[i]
	}
	r.Estimate = stats.Mean(fAll) + stats.Mean(rect)
	rho := n / N
	varF := stats.Variance(fAll)
	// variance of θ_λ for the subset design
	vLambda := func(lambda float64) float64 {
		adj := make([]float64, len(yL))
		for i := range yL {
			adj[i] = yL[i] - float64(lambda*(1-rho)*fL[i])
		}
		return stats.Variance(adj)/n + float64(lambda*lambda)*(1-rho)*varF/N
	}
	h := z * math.Sqrt(vLambda(1))
	r.Lo, r.Hi = r.Estimate-h, r.Estimate+h

	r.Lambda = 0
	if varF > 0 {
		my, mf := stats.Mean(yL), stats.Mean(fL)
		cp := make([]float64, len(yL))
		for i := range yL {
			cp[i] = (yL[i] - my) * (fL[i] - mf)
		}
		r.Lambda = stats.Sum(cp) / (n - 1) / varF
	}
	r.Tuned = r.HumanMean + float64(r.Lambda*(stats.Mean(fAll)-stats.Mean(fL)))
	ht := z * math.Sqrt(vLambda(r.Lambda))
	r.TunedLo, r.TunedHi = r.Tuned-ht, r.Tuned+ht
	return r
}
