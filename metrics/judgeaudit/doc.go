// Package judgeaudit checks an LLM judge for the biases an analyst looks at
// before letting it stand in for human experts: leniency, length
// (verbosity) bias, self-preference, position bias, scale compression,
// rerun instability and checklist leniency, each with a 95 % cluster-
// bootstrap interval over questions, and sums them up per judge with its
// agreement with the humans and a verdict in plain words. It reads an
// study.Study (no I/O, no database) and returns typed results, which
// report/tables.JudgeAudit presents as tables and figures:
//
//   - judge_bias: one row per judge × bias (judge, bias, estimate, lo, hi,
//     n, unit, flagged, note);
//   - judge_bias_by_attribute: leniency per rubric attribute;
//   - judge_audit: one row per judge with Table 8's τ, Cohen's κ and
//     macro-F1 on solved/unsolved, the flagged biases and the verdict;
//   - one forest-plot figure per judge (estimate − no-bias value with its
//     interval, per bias).
//
// Data. The gradings of one round (Options.Round, default the study's main
// round) of every model but the human label. Judge runs are averaged per
// response first (package scores). A response enters when the judge and at
// least one human graded it; its residual is the judge's rubric mean minus
// the mean of the human rubric means on that response.
//
// Biases (no-bias value in brackets):
//
//   - leniency [0]: mean residual, rubric points;
//   - leniency_std [0]: leniency / SD (n − 1) of the human gradings' rubric
//     means on the same responses, in SD;
//   - length [0]: least-squares slope of the residual on log2(response
//     characters), points per doubling (responses with text only);
//   - self_preference [0]: mean residual on models whose provider
//     (models.provider) equals the judge's (evaluators.provider, compared
//     case-insensitively) − mean residual on the other models with a
//     provider;
//   - position [0]: mean residual of the judge's run gradings shown first
//     (position 1) − mean residual of those shown later; the unit here is
//     a run grading (its rubric mean minus the human mean of the response),
//     so that a judge run twice with the order swapped is measured;
//   - scale [1]: SD (n − 1) of the judge's response rubric means / SD of the
//     human response means (mean over humans), over the same responses;
//   - rerun [α = 1]: Krippendorff's α (interval) between the judge's runs,
//     responses with two or more runs as units; flagged when the interval's
//     upper end is below Options.RerunAlpha (default 0.8), since any
//     sampling makes α < 1; rerun_mad beside it is the mean over those
//     responses of the mean absolute difference between two runs' rubric
//     means (descriptive, never flagged);
//   - checklist_leniency [0]: mean over responses of (judge checklist rate −
//     mean human checklist rate).
//
// Intervals. One cluster bootstrap over questions for every judge and bias
// (paired: replicate r resamples the same questions for all of them, drawn
// with stats.ResampleIndices from stats.NewRand(Seed, r)); expanded
// percentile interval (ExpandedLevel; numpy type-7 percentiles), since the
// plain percentile interval is too narrow for a few dozen questions. Each
// replicate sums per-question sufficient statistics, so a replicate costs
// one pass over the questions. A bias is
// flagged ("yes") when its interval excludes the no-bias value, "no" when
// it does not, "" when there is no interval.
//
// Verdict. A judge is usable for ranking when Table 8's τ (rubric-derived,
// against the mean-human ranking, averaged over questions) reaches
// Thresholds.Tau and neither self_preference nor length is flagged beyond
// its materiality threshold; usable for absolute scores when κ on
// solved/unsolved reaches Thresholds.Kappa and none of leniency, position,
// scale and checklist_leniency is flagged beyond its threshold. The
// thresholds are in Thresholds and docs/METHODS.md.
package judgeaudit
