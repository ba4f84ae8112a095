// Package textsim computes the text-similarity metrics of the EuroExec
// analysis — ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum as Google's
// rouge-score 0.1.2 computes them, and BLEU as sacrebleu 2.6.0 computes it —
// in plain Go, agreeing with those libraries to the last bit on the
// project's reference vectors.
//
// ROUGE (ScoreRouge, ScoreRougeMulti, RougeScorer) uses rouge-score's
// tokenizer (Tokenize): Python lower-casing, every character outside
// [a-z0-9] a separator, and optionally NLTK 3.8's Porter stemmer (Stem).
// Precision is over the hypothesis tokens and recall over the reference
// tokens (rouge-score's score(target=reference, prediction=hypothesis)).
// ROUGE-L and ROUGE-Lsum use a bit-parallel longest common subsequence
// (LCS; Allison–Dix / Hyyrö, 64 DP cells per machine word); ROUGE-Lsum
// reads each line pair's LCS back with rouge-score's exact tie-break from the
// stored bit columns (a few bit operations per matched token), so the union
// of index sets is the same as rouge-score's. With several references the best reference per
// variant is taken, as rouge-score's score_multi does. A side without tokens
// scores 0, as in rouge-score; no reference at all gives NaN.
//
// BLEU (SentenceBLEU, CorpusBLEU, BLEUScorer) uses sacrebleu's 13a
// tokenizer (Tokenize13a), n-grams of order 1–4 with clipping, the brevity
// penalty with the closest reference length, and exp (default), floor or no
// smoothing; sentence BLEU uses the effective order by default
// (DefaultBLEUOptions), corpus BLEU does not (DefaultCorpusBLEUOptions).
// Scores are on sacrebleu's 0–100 scale. When built with cgo, exp and log
// come from the C library, as in CPython, so scores match sacrebleu on
// glibc bit for bit (LibmExactBLEU); without cgo Go's math package is used,
// which differs from glibc in the last bit on some inputs.
//
// BLEU's tokenizer can also be sacrebleu's zh, char or intl
// (BLEUOptions.Tokenize, TokenizeBLEU). chrF and chrF++ (SentenceCHRF,
// CorpusCHRF, CHRFScorer) are sacrebleu's CHRF with its defaults (character
// order 6, β = 2, word order 0 or 2). Corpus scores come from summed
// per-segment sufficient statistics (BLEUStats, CHRFStats; BLEUFromStats,
// CHRFFromStats), which a bootstrap resamples without tokenising again.
//
// For languages other than English, ROUGE can tokenise Unicode words (and
// Chinese/Japanese characters) without a stemmer (RougeOptions.Unicode,
// TokenizeUnicode); DetectLanguage guesses a study's language, Language
// picks the BLEU tokenizer, and ASCIIDropped measures what rouge-score's
// ASCII tokenizer would lose.
//
// RougeScorer and BLEUScorer tokenise the references once for scoring many
// hypotheses (many models against one expert answer); their Score is safe
// for concurrent use. Their Reset takes the next references and keeps the
// memory — buffers, n-gram tables and a table of the tokens seen so far,
// with their stems — so that one scorer per worker serves a whole study
// without allocating per question or stemming a word twice. Nothing here
// does I/O.
package textsim
