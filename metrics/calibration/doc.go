// Package calibration asks how far an LLM judge can stand in for human
// graders once it is corrected with the human gradings a study already has,
// and compares models with response length held fixed. It reads the main
// round of an study.Study through the per-grading scores of package
// scores (judge runs averaged) and returns typed rows, which report/tables
// presents as these tables with their figures:
//
//   - judge_calibration (section judges): per judge × model × metric
//     (rubric | solve_rate) the human mean, the judge's raw mean, and the
//     judge's mean after a linear (least squares) and an isotonic
//     (pool-adjacent-violators, FitIsotonic) map from the judge's score to
//     the human score, each fitted on the other folds of a K-fold split of
//     the questions (Options.Folds, seeded by Options.Seed) so that every
//     calibrated value is held out; the errors against the human means; and
//     prediction-powered estimates of the human mean with their interval
//     beside the human-only interval (PPIMean), classic and power-tuned
//     (PPI++), since classic PPI is wider than the human-only interval
//     when the judge's scale differs much from the humans'.
//   - judge_calibration_summary (section judges): per judge and metric the
//     mean absolute error over models raw vs calibrated and the share of it
//     calibration removes, as a number and a sentence.
//   - length_controlled (section beyond): model effects on the human rubric
//     with question fixed effects and standardised log length as covariate,
//     beside the raw means, with cluster-bootstrap intervals.
//
// Data. The main round (Study.MainRound) of every model but the human label
// (as in set all); a judge grading and a human grading of the same response
// make a labelled pair.
//
// Units. Everything works at the question level: a model's value on a
// question is the judge's score on its response, and the human value is the
// mean over the response's human gradings. Means, folds, the PPI variance
// and the bootstrap treat questions as the independent units (clusters), so
// the several graders of a question are never counted as independent.
//
// The rubric metric maps the judge's rubric mean to the human rubric mean.
// The solve_rate metric maps the judge's rubric mean (its checklist rate in
// a study without rubric) to the share of the response's human gradings
// that solve it, i.e. to P(human solved); the linear map is clipped to
// [0, 1], the isotonic one stays there by construction; judge_raw and the
// PPI prediction are the judge's own solved indicator (the Solve Rate
// rule applied to the judge's scores). A judge score the training folds
// cannot order (all equal) gives the constant map at the training mean.
//
// What calibration cannot do. A map from the judge's score to the human
// score is shared by all models; a monotone map preserves the order of the
// models' judge-score distributions when one dominates the other, so a
// judge that ranks two models the other way round from the humans keeps
// that reversal after calibration (the tests assert this). Calibration
// fixes a judge's scale, not its per-model preferences; PPI, which adds the
// mean human-minus-judge residual per model, does correct per-model bias.
//
// Degenerate input gives NaN (an empty cell) with a warning or a note,
// never a panic: a judge with fewer than two labelled questions has no
// calibrated values, a model with fewer than two labelled questions no PPI
// interval.
package calibration
