// Package study is the study model every analysis reads: the Study and its
// questions, models, evaluators, responses, references, gradings, gate runs
// and weighted criteria as plain Go values (package readback fills them
// from the canonical database), with their invariants:
//
//   - slices are sorted as each field documents, so every computation that
//     walks them is deterministic;
//   - strings are kept byte for byte (ids are compared as bytes);
//   - a Grading holds one score per Study.Attributes entry (NaN = missing,
//     judges only) and one verdict per checklist item of its question;
//   - judge runs are separate Grading rows (Run != ""); the per-grading
//     scores of package scores average them;
//   - the difficulty gate is read tallied per (question, checklist item)
//     (GateItems; Gate also tallies the per-run GateRuns of a study built
//     in memory), and grading tags sit beside the gradings (GradingTags),
//     which keeps the per-grading and per-cell values small.
//
// It also holds Rat, the small exact fraction in which means over graders
// and attributes are compared and ranked (see docs/METHODS.md).
package study
