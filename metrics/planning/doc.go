// Package planning sizes a follow-up human evaluation from a pilot study:
// how many questions, and how many human graders per response, a paired
// two-sided t-test needs to separate each pair of models adjacent in the
// rubric ranking at a given level and power. It returns typed results
// only; report/tables presents them (table study_plan and its figure).
//
// The statistical model (see Plan) splits the variance of a question's
// difference between two models into a between-question part σ²_q and a
// grader part σ²_e, so that with g graders per response
//
//	Var(D_q) = σ²_q + 2σ²_e/g,
//
// and the number of questions solves the exact power equation of the paired
// t-test, with noncentral-t probabilities integrated numerically
// (NoncentralTSurvival, PairedPower, PairedSampleSize). These reproduce R's
// pwr.t.test(type = "paired") and G*Power: d_z = 0.5 at α = 0.05 and power
// 0.8 needs 33.37 → 34 pairs.
//
// Relation to the paper's Figure 3. Figure 3 (table pvalue_curve of package
// analysis) plots, for each subsample size n, the median p-value of the
// same paired t-test over subsamples of the pilot's questions. The median p
// is below α exactly when more than half of the studies of size n reject at
// α, that is when their power at α exceeds 50 %. So the n at which a
// Figure 3 curve crosses α is, up to subsampling noise and the finite-pilot
// effect of drawing without replacement, the sample size Plan returns with
// Power = 0.5 and the pilot's graders per response (column
// n_questions_pilot). Plan generalises the figure in two directions: it
// asks for a chosen power (default 0.8, so its n is larger than the
// crossing), and it varies the number of graders per response, which the
// figure cannot because it only resamples the pilot's design.
// TestFigure3Relation checks this on a simulated 3000-question pilot: Plan
// with Power 0.5 gives 49 questions, the median-p curve crosses 0.01 at 50.
//
// Degenerate input: a pair with mean difference 0 "cannot be separated"
// (empty sample sizes and a note); a pair with fewer than two common
// questions, or a study where no question has two graders, gives empty
// (NaN) cells and a note in the row. Plan never panics on user input.
package planning
