package stats

import "math"

// TTest is the result of a t test: the statistic T, its degrees of freedom
// DF, the two-sided p-value P, the estimate Mean (the mean difference for
// TTestRel, mean(x) for TTest1Samp, mean_a − mean_b for TTestWelch) and its
// standard error SE, so T = Mean/SE (T = (Mean − mu)/SE for TTest1Samp).
type TTest struct {
	T, DF, P float64
	Mean, SE float64
}

// WelchTTest is TTestWelch's result with the group means and variances.
type WelchTTest struct {
	TTest
	MeanA, MeanB float64
	// VarA and VarB are sample variances in scipy's form: the population
	// variance times n/(n−1).
	VarA, VarB float64
}

// TTestRel is the paired two-sided t test of mean(x − y) = 0, as
// scipy.stats.ttest_rel. DF = n − 1. All differences equal and nonzero give
// SE = 0, T = ±Inf and P = 0; all differences zero give T = NaN, P = NaN.
// Every field is NaN when n < 2, the lengths differ or the data hold a NaN.
func TTestRel(x, y []float64) TTest {
	if len(x) != len(y) {
		return nanTTest()
	}
	d := make([]float64, len(x))
	for i := range x {
		d[i] = x[i] - y[i]
	}
	return TTest1Samp(d, 0)
}

// TTest1Samp is the one-sample two-sided t test of mean(x) = mu, as
// scipy.stats.ttest_1samp: T = (mean − mu)/SE with SE = √(var/n) and the
// variance in scipy's form (population variance × n/(n−1)); DF = n − 1. A
// constant x gives T = ±Inf and P = 0, or NaN when it equals mu. Every field
// is NaN when n < 2 or the data hold a NaN. The returned Mean is mean(x)
// (not mean − mu).
func TTest1Samp(x []float64, mu float64) TTest {
	n := len(x)
	if n < 2 || hasNaN(x) || math.IsNaN(mu) {
		return nanTTest()
	}
	m := Mean(x)
	v := scipyVar(x, m)
	se := math.Sqrt(v / float64(n))
	t := (m - mu) / se
	df := float64(n - 1)
	return TTest{T: t, DF: df, P: StudentTTwoSided(t, df), Mean: m, SE: se}
}

// TTestWelch is Welch's unequal-variance two-sided t test of
// mean(x) = mean(y), as scipy.stats.ttest_ind(equal_var=False), with the
// Welch–Satterthwaite DF (set to 1 when both variances are 0, as scipy).
// A group of size 1 has a NaN variance, so T, SE and P are NaN and DF = 1.
// Every field is NaN when a group is empty or the data hold a NaN.
func TTestWelch(x, y []float64) TTest {
	return TTestWelchDetail(x, y).TTest
}

// TTestWelchDetail is TTestWelch with the group means and variances.
func TTestWelchDetail(a, b []float64) WelchTTest {
	n1, n2 := len(a), len(b)
	if n1 == 0 || n2 == 0 || hasNaN(a) || hasNaN(b) {
		nan := math.NaN()
		return WelchTTest{TTest: nanTTest(), MeanA: nan, MeanB: nan, VarA: nan, VarB: nan}
	}
	ma, mb := Mean(a), Mean(b)
	va, vb := scipyVar(a, ma), scipyVar(b, mb)
	vn1 := va / float64(n1)
	vn2 := vb / float64(n2)
	s := vn1 + vn2
	df := float64(s*s) / (float64(vn1*vn1)/float64(n1-1) + float64(vn2*vn2)/float64(n2-1))
	if math.IsNaN(df) {
		df = 1
	}
	se := math.Sqrt(s)
	d := ma - mb
	t := d / se
	return WelchTTest{
		TTest: TTest{T: t, DF: df, P: StudentTTwoSided(t, df), Mean: d, SE: se},
		MeanA: ma, MeanB: mb, VarA: va, VarB: vb,
	}
}

func nanTTest() TTest {
	nan := math.NaN()
	return TTest{nan, nan, nan, nan, nan}
}
