// Package sample holds euroexec's bundled sample study and the synthetic-study
// generator behind it, plus the SummEval study builder used by tests.
//
// # Generator
//
// Write(dir, opt) writes a study folder in the format of docs/FORMAT.md; Walk(opt, fn) yields the ground truth of the same study (every
// question, response and grading, with resolved model names and canonical
// verdicts) without writing anything. Both run one generator, question by
// question: each question draws from its own math/rand/v2 PCG stream seeded
// with (Options.Seed, question index), the study-level parameters from
// (Seed, constant), so output depends only on the options, and memory does
// not grow with the number of questions.
//
// The latent model: each model has a quality (evenly spread from about 3.45
// down to 2.3, jittered) and per-attribute offsets; each question a
// difficulty; each response a latent quality (model quality − difficulty +
// noise) shared by all its graders; each human evaluator a leniency and a
// noise level. A human rubric score is the rounded, clamped sum of response
// quality, attribute offset, leniency, a per-grading shock and noise; a
// checklist verdict thresholds a per-(response, item) signal plus grader
// noise (hit > 0.3 ≥ partial > −0.5 ≥ miss; about 0.4 % `na`); ranks order a
// grader's rubric mean plus half its checklist rate plus noise. Judges are
// over-crisp: each sample is 3 + bias + 1.9·tanh(0.9·(quality − 3)) + noise,
// averaged over 2 or 4 samples and rounded to 0.5 or 0.25. Response texts
// are business prose from word lists, one sentence per line, of about
// Options.ResponseChars bytes; a response states a checklist item's key
// phrase with a probability that grows with its quality, so ROUGE and BLEU
// against the reference answers correlate with the human scores.
//
// # Files written (choices where docs/FORMAT.md leaves one)
//
//   - study.toml: title, human_label ("Human Expert"), main_round ("main") and
//     one [columns] alias, "Loc." = "Localization", used by the per-domain
//     workbooks.
//   - questions.csv (question_id, domain, prompt, author, gate_score,
//     decision_type — the last one a tag). Question ids are decimal integers
//     of equal width (101…160 for 60 questions, 100001… for 40,000), so byte
//     order is numeric order. Domains: Business, Finance, Marketing, Product.
//     The author is a human evaluator of the domain who never grades the
//     question. gate_score = passed / cells of gate.csv.
//   - checklist.csv (question_id, item, text), 3–8 items per question.
//   - models.csv (model, provider, display_name, usd_per_1k_input,
//     usd_per_1k_output); evaluators.csv (evaluator, domain), judges listed
//     with an empty domain.
//   - responses/<model>.jsonl (question_id, model, text, cost_usd,
//     input_tokens, output_tokens). The second model's answers come as an
//     OpenAI Batch API output file, responses/<model>.batch.jsonl (custom_id
//     "<question>::<model>", usage tokens only, so its cost comes from
//     models.csv prices); its first request expired and was retried, so the
//     file starts with a failed line. The first model's response to the
//     second question is dumped twice with attempt 1 (a time-out message) and
//     attempt 2 (the answer used). The last model's response to the sixth
//     question is graded but missing from the dumps.
//   - references.jsonl (question_id, reference_id, author, text, graded) on
//     the questions with floor((i+1)·share) > floor(i·share); every third of
//     them (the 2nd, 5th, …) has two references r1, r2; graded = true marks
//     the one graded as the human label (r2 on the 5th, 11th, …).
//   - gate.csv (question_id, run, item, passed), 5 runs; blinding.csv
//     (question_id, label, model) with letters A, B, … shuffled per question.
//   - grades/humans/main/<evaluator>.xlsx, one workbook per grader, wide form
//     (evaluator, question_id, model|label, Domain…Actionability, C1…C8, rank,
//     comment; blank C cells for items a question lacks). Layouts by grader:
//     expert_03 writes the long form (evaluator, question_id, model,
//     instrument, key, value); expert_04 writes blinded labels instead of
//     model names; graders 2, 6, 10, … have an "Instructions" sheet (no
//     grading columns, to be skipped with a warning) and one sheet per domain
//     with the "Loc." header; the others one sheet "Grades". expert_01's first
//     data row stores question_id and Domain as text cells (other ids and
//     integers are numeric cells); expert_05 writes HIT/PARTIAL/MISS/NA,
//     expert_06 yes/partial/no, graders 1, 4, 7, … Hit/Partial/Miss. Each
//     question has 2 graders from its domain pool (3 on questions 8, 18, …).
//   - grades/humans/reference/<evaluator>.xlsx: on the reference questions,
//     two other experts grade every model and the "Human Expert" answer
//     (sheet "Grades", model names, long form kept for expert_03).
//   - grades/judges/<judge>.jsonl: the wide columns, scores multiples of 0.5
//     or 0.25, only the question's C items, lower-case verdicts, a comment.
//     The first judge ran 3 times (a run column 1..3; with Options.SingleRun
//     every judge ran once, no run column); the last judge has a null score on
//     questions 4, 33, 62, … (i % 29 == 3).
//   - With Options.Criteria: criteria.jsonl (question_id, criterion_id c01…,
//     text, weight in −10..10 without 0, category), 10–30 per question, the
//     first always positive; criterion_grades/judges/<judge>.jsonl (met
//     true/false) on every response; criterion_grades/humans/<expert>.csv (met
//     yes/no) by the first two graders of every fifth question.
//
// A judge-only study (Options.Evaluators = 0, `euroexec sample --judge-only`)
// has no grades/humans, no references.jsonl and no human criterion grades;
// its study.toml sets only the title (no human rounds for main_round to
// name), evaluators.csv lists the judges alone, and each question's author is
// "author_<Domain>". Its judge gradings draw the same kind of scores, but
// the random stream differs from a study with humans, so its numbers are not
// those of the same seed with humans.
//
// Above XLSXQuestionLimit questions every human grading file is a .csv with
// the same columns (per-domain sheets, the Instructions sheet and text-cell
// quirks do not exist in CSV).
//
// # Sample and SummEval
//
// Sample returns the study Write(dir, DefaultOptions()) writes, embedded from
// sample/study (go test ./sample -run TestSample -update regenerates it).
// WriteSummEval and SummEvalJudgeStudy build a study from the SummEval data
// set (its expert ratings are in internal/realdata); the committed
// sample/testdata/summeval was made with WriteSummEval.
package sample
