// Package prbench computes the PRBench analyses of a study with weighted
// criteria (Akyürek et al., "PRBench: Large-Scale Expert Rubrics for
// Evaluating High-Stakes Professional Reasoning"), with the paper's metric
// definitions (each column defined in docs/OUTPUTS.md): clipped and min-normalised
// weighted-criteria scores per model and grader population, per domain, per
// question tag and on the Hard subset; per rubric category; agreement of
// criterion grades between graders (raw agreement, Cohen's κ, macro F1);
// whether each LLM judge agrees with the experts about as well as the
// experts agree with each other; and response length against score.
//
// The entry point is Analyze, which takes an *study.Study and returns a
// typed Result (rows of exported structs, numbers as numbers); report/tables
// presents it as the tables and figures of the report's PRBench section.
// It never panics on user input and never fails: what cannot be computed is
// left out with a Note, and a value that is undefined for the data
// at hand is NaN (an empty cell in tables/*.csv).
//
// # Scores
//
// A unit is one grader's grading of one response: the criterion grades one
// evaluator gave on one (question, model). For the criteria of the question
// that the grader graded, with integer weights wᵢ and grades metᵢ ∈ {0,1}:
//
//	raw = Σ wᵢ·metᵢ,  max = Σ_{wᵢ>0} wᵢ,  min = Σ_{wᵢ<0} wᵢ
//	clipped    = max(raw/max, 0)        (NaN when max = 0: no positive criterion graded)
//	normalized = (raw − min)/(max − min) (NaN when max = min, i.e. nothing with a weight graded)
//
// A unit with some of its question's criteria ungraded is scored over the
// criteria it has grades for (Result.Warnings counts such units and the
// missing grades); criteria that nobody graded are listed in the table
// prbench_ungraded_criteria. raw, max and min are integers and each score
// is one division. Published means are exact: the scores are summed as
// fractions (integer numerators per denominator) and divided once; SDs use
// n − 1 (stats.SD); the 95 % intervals are percentile intervals of a cluster
// bootstrap over questions with one shared resample of questions per
// replicate for all models of a table block, so differences are paired.
//
// Populations: "humans" pools every human evaluator's units (each unit
// counts once); "judge:<id>" is one LLM judge. A grade's kind is taken from
// CriterionGrade.Kind; anything other than "judge" counts as human.
//
// # Hard subset
//
// Per domain, the questions are ordered by their difficulty score, the mean
// over models of the model's mean clipped score on the question (each model
// weighs the same), from the judges' units when any judge graded criteria,
// else from the humans'; the score is compared exactly as a fraction and
// ties are broken by question id in byte order. A domain with n scored
// questions contributes HardCount questions when HardCount > 0 (at most n),
// else ⌈HardShare·n⌉ computed exactly on the decimal value of HardShare (so
// 0.1 × 30 is 3, not 4), and at least 1. Questions without a defined
// difficulty score are never Hard.
//
// # Categories
//
// For each rubric category, each unit's score is restricted to the graded
// criteria of that category and min-normalised. A category holding only
// negative criteria has max = 0 and min < 0, so normalized = (raw − min)/(−min):
// 0 when every negative criterion was met, 1 when none was; this is
// defined, whereas its clipped score (raw/0) is not, which is why the
// category table reports the min-normalised score only. A category with only
// positive criteria has min = 0 and normalized = clipped = raw/max. Units
// with no graded criterion in a category do not count for it. Criteria
// without a category are left out of the category table (noted).
//
// # Agreement
//
// For every unordered pair of graders that graded the same (response,
// criterion) cells: n cells, raw agreement (share of cells with the same
// grade), Cohen's κ (stats.CohenKappa with labels 0 = not met, 1 = met) and
// macro F1 (stats.MacroF1, the mean F1 of the two classes, grader_b taken
// as the reference). A judge–expert pair lists the judge as grader_a; other
// pairs are in evaluator id order. Rows are given for all cells
// (breakdown "all"), per question domain ("domain:<d>") and per criterion
// category ("category:<c>"). Intervals come from a cluster bootstrap over
// the pair's questions.
//
// # Judge parity
//
// For judge J and each unordered pair of experts (e₁, e₂), the cells that
// J, e₁ and e₂ all graded are pooled over every expert pair. Over these n
// cells, judge–expert agreement = (#{J = e₁} + #{J = e₂})/(2n) and
// expert–expert agreement = #{e₁ = e₂}/n; the difference d = judge–expert −
// expert–expert = (#{J = e₁} + #{J = e₂} − 2·#{e₁ = e₂})/(2n) is bootstrapped
// over questions with one resample for both terms (paired). J is "within
// expert range" when the lower end of d's 95 % interval is above
// −ParityMargin. With fewer than two experts on common cells the rule is
// undefined (empty cell, noted).
//
// # Length
//
// Per population and model, and pooled over models, Pearson r (stats.Pearson)
// and the least-squares line (stats.LinRegress) of the response's mean
// clipped score over the population's units on y against its length in
// Unicode code points (Response.Chars) on x. Responses missing from the
// dumps are left out (counted in a Note).
//
// # Determinism
//
// Every bootstrap uses stats.ClusterBootstrap seeded with Options.Seed, whose
// replicate r draws from stats.NewRand(seed, r), and writes only its own
// row, so the numbers do not depend on the number of cores.
package prbench
