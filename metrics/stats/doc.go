// Package stats holds the plain-Go statistics of euroexec: descriptive
// statistics, correlations (Pearson, Spearman, Kendall τ-b), t tests,
// least squares, the Student t distribution, agreement measures (Cohen's κ,
// macro F1, Krippendorff's α, ICC), multiple-testing corrections (Holm,
// Benjamini–Hochberg), McNemar's and Wilcoxon's tests, percentiles, and the
// seeded cluster bootstrap and subsampling used by every interval in the
// report.
//
// The package does no I/O. Every function is checked against the reference
// vectors of scipy 1.10.1, numpy 1.24.2, scikit-learn 1.2.1, statsmodels
// 0.13.5 and fast-krippendorff 0.8.2 (testdata/stats_vectors.jsonl, described
// in testdata/README.md): the formulas follow the
// references' order of floating-point operations, so most results agree to
// the last bit; p-values agree within 1e-9 relative.
//
// # Conventions
//
//   - Degenerate input never panics. Where the reference returns NaN (a
//     constant vector for a correlation, fewer observations than the statistic
//     needs, a NaN in the data) the Go function returns NaN, and each
//     function's comment says when. Where the reference raises an error, the
//     plain function returns NaN and a companion function (…Detail, …Test)
//     returns the error.
//   - Vectors that must have equal length (x and y of a correlation, a paired
//     test) give NaN results when they do not.
//   - Sums follow numpy's pairwise summation (see [Sum]), so means and
//     variances are bit-identical to numpy's.
//   - Random draws use math/rand/v2's PCG seeded from (seed, replicate index)
//     via [NewRand], so resampling results do not depend on the number of
//     cores or on scheduling.
//   - No expression whose last bit matters is written in a form the compiler
//     may fuse into a fused multiply-add; products are wrapped in float64(…).
package stats
