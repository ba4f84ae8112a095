// Package paper computes every table and the data behind every figure of
// the EuroExec paper (Tables 1–10 and 12, Figures 1–9, the Appendix B/C
// analyses) from a Study, with the paper's metric definitions
// (docs/METHODS.md; every column in docs/OUTPUTS.md), and returns them as
// typed results (Result); report/tables presents them (tables.Paper).
//
// The input is a Study: plain Go values read from the canonical database by
// package readback. AnalyzeResult never panics on user input; a value that is
// undefined for the data at hand (a Kendall τ with one constant side, a
// Solve Rate over no gradings, …) is NaN, written as an empty cell, and the
// number of such cells is explained in the report's notes.
//
// Exactness. Per-grading scores are computed from integer numerators
// (attribute sums of human gradings are integers, checklist credit is
// counted in units of the partial credit's denominator) and divided once;
// thresholds are compared as exact fractions of their shortest decimal form,
// so 3/5 of the checklist is ≥ 0.60. Means over gradings that are published
// (Solve Rate, rubric, checklist rate) are sums of such fractions, summed
// exactly and divided once.
//
// Determinism. Every random draw comes from stats.NewRand seeded from
// Options.Seed and a replicate index, and every parallel loop writes into
// its own slot, so the same Study and Options give the same numbers on any
// number of cores.
//
// Instruments are optional: a study with only a rubric, or only a
// checklist, gets every table its instruments allow and a Note for each
// table that was left out and why.
package paper
