// Package pairwise analyses pairwise preference judgments (A-vs-B: which of
// two answers to a question is better, or a tie) from human graders and LLM
// judges, as collected by MT-Bench, Chatbot Arena, PandaLM or alpaca_eval.
//
// Per grader population — the human graders pooled, and each judge — on the
// main round, it computes:
//
//   - per model: judgments, wins, losses, ties, the win rate (ties count
//     half) and the Bradley–Terry rating by maximum likelihood (each tie
//     counts as half a win for both sides), on the Elo scale
//     1000 + 400·log10(e)·β with mean β = 0, and the rank by rating
//     (table pairwise_models);
//   - the win-rate matrix of every ordered model pair (pairwise_matrix);
//   - Cohen's κ (three classes), raw agreement, macro precision, recall and
//     F1 between every two graders over the comparisons both judged, and of
//     each grader against the strict majority of the other human graders
//     (pairwise_agreement); each comparison counts in both orientations of
//     its pair (first model better ↔ second better), so the statistics do
//     not depend on the models' names or the order the answers were shown;
//   - position bias: the share of non-tie verdicts won by the answer shown
//     first with a p-value that treats questions as clusters, and, for comparisons
//     judged in both orders, swap consistency and conflict rate
//     (pairwise_position);
//   - length bias: the logit effect per doubling of the length ratio (and
//     of markdown headers, list items and bold spans) from a Bradley–Terry
//     model with model effects, with question-clustered sandwich standard
//     errors (LengthModel), and, descriptively, the share of non-tie
//     verdicts won by the longer answer when the two differ by more than
//     Options.LengthMargin characters (pairwise_length); from the same
//     model, each model's length-controlled win rate and style-controlled
//     rating (pairwise_models);
//   - per LLM judge, its position, length and self-preference biases and
//     its agreement with the human majority (pairwise_judge_audit);
//   - when the same responses have rubric gradings, how often the order of
//     the rubric means agrees with the pairwise verdict (pairwise_rubric).
//
// Every number has a 95 % cluster-bootstrap interval over questions: a
// replicate draws the questions with replacement (seeded PCG stream per
// replicate, so the numbers do not depend on the core count) and weighs each
// question's deduplicated judgments by how often it was drawn — identical
// judgments of a question are stored once with a count, so a replicate costs
// one pass over the distinct judgments, as in Chatbot Arena's notebook.
//
// When the maximum-likelihood ratings do not exist (a model never loses, or
// never wins, or the models split into groups never compared — the "win
// graph" is not strongly connected), the fit adds Options.Prior virtual
// ties between every two models, which keeps every rating finite, and the
// analysis says so in a note. The same rule applies in each bootstrap
// replicate. A model that never loses (or never wins) gets a one-sided
// interval from SweepBound instead of the bootstrap's, which would be
// falsely narrow.
//
// The package does no I/O, imports no database code and returns typed
// results only; report/tables.Pairwise turns a Result into the tables
// named above and their figures.
package pairwise
