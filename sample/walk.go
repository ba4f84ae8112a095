package sample

// RecordKind says what a Record describes.
type RecordKind int

// The kinds of records Walk yields.
const (
	// KindQuestion: a question (QuestionID, Domain, Text = prompt, Items, GateScore).
	KindQuestion RecordKind = iota
	// KindReference: an expert-written reference answer (QuestionID, ReferenceID, Text, Graded, Evaluator = author).
	KindReference
	// KindResponse: a model response as used by the study (QuestionID, Model, Text); for a
	// response dumped twice with attempts 1 and 2, the attempt-2 text.
	KindResponse
	// KindGrading: one grading row (or one long-form block) of a human or judge.
	KindGrading
	// KindCriterionGrades: one grader's criterion grades of one response (criteria mode).
	KindCriterionGrades
)

// CriterionGrade is one met/not-met grade of a weighted criterion.
type CriterionGrade struct {
	CriterionID string // e.g. "c03"
	Weight      int    // −10..10, never 0
	Met         bool
}

// Record is one fact of the ground truth behind a generated study, as Walk
// yields it. Fields a kind does not use are zero.
type Record struct {
	Kind        RecordKind
	QuestionID  string // question id, e.g. "101"
	Domain      string // KindQuestion: the question's domain
	Items       int    // KindQuestion: checklist size
	GateScore   float64
	Text        string // prompt, response or reference text, byte for byte
	ReferenceID string // KindReference
	Graded      bool   // KindReference: the reference graded as the human label
	Model       string // resolved model name (HumanLabel for the expert answer), never a blinded label
	Label       string // KindGrading: the blinded label written instead of Model, if any

	Evaluator     string // grader id (KindReference: the author)
	EvaluatorKind string // "human" or "judge"
	Round         string // MainRound or ReferenceRound
	Run           int    // judge run 1..3, 0 when the file has no run column
	// Scores are the rubric scores in Attributes order; NaN marks a missing judge score.
	Scores []float64
	// Verdicts are the checklist verdicts for items 1..Items, canonical
	// (hit, partial, miss, na) whatever spelling the sheet uses.
	Verdicts []string
	Rank     int    // 1 = best among the responses the grader ranked for the question
	Comment  string // free text, "" when none

	Criteria []CriterionGrade // KindCriterionGrades

	// File is the path, relative to the study folder with forward slashes,
	// of the file holding the record (responses, references, gradings);
	// Sheet the workbook sheet ("" for CSV and JSONL); Row the 1-based row
	// of the record, the header being row 1 in CSV and xlsx, and the first
	// line being row 1 in JSONL; a long-form grading starts at Row.
	File  string
	Sheet string
	Row   int
}

// Walk calls fn for every record of the study that Write(dir, opt) writes,
// in this order, question by question (ascending id): the question, its
// references, its responses (model order; the skipped response left out),
// the main-round human gradings (grader id order, then model order), the
// reference-round human gradings (grader, then models followed by the
// HumanLabel), the judge gradings (judge order, run, model) and, with
// Options.Criteria, the criterion grades (judges, then humans). Walk and
// Write run the same generator, so they cannot disagree. An error from fn
// stops the walk and is returned.
func Walk(opt Options, fn func(Record) error) error {
	if err := opt.validate(); err != nil {
		return err
	}
	s := newStudy(opt)
	lay := &layout{next: map[string]int{}}
	for qi := range opt.Questions {
		q := s.gen(qi, lay)
		for _, rec := range s.records(q) {
			if err := fn(rec); err != nil {
				return err
			}
		}
	}
	return nil
}

// records turns a generated question into Walk records.
func (s *study) records(q *question) []Record {
	n := len(q.items)
	out := []Record{{Kind: KindQuestion, QuestionID: q.id, Domain: domainNames[q.domain], Items: n,
		GateScore: float64(q.gatePassed) / float64(gateRuns*n), Text: q.prompt, File: "questions.csv"}}
	for _, ref := range q.refs {
		out = append(out, Record{Kind: KindReference, QuestionID: q.id, ReferenceID: ref.id, Text: ref.text,
			Graded: ref.graded, Evaluator: ref.author, Model: HumanLabel, File: "references.jsonl"})
	}
	for _, resp := range q.responses {
		if resp.skipped {
			continue
		}
		out = append(out, Record{Kind: KindResponse, QuestionID: q.id, Model: s.models[resp.model].name,
			Text: resp.text, File: responseFile(s.models[resp.model])})
	}
	for _, g := range q.gradings {
		rec := Record{Kind: KindGrading, QuestionID: q.id, Model: s.modelName(g.model), Label: g.label,
			Round: g.round, Run: g.run, Rank: g.rank, Comment: g.comment,
			Scores: append([]float64(nil), g.scores...), File: g.at.file, Sheet: g.at.sheet, Row: g.at.row}
		if g.judge {
			rec.Evaluator, rec.EvaluatorKind = s.judges[g.ev].name, "judge"
		} else {
			rec.Evaluator, rec.EvaluatorKind = s.humans[g.ev].id, "human"
		}
		rec.Verdicts = make([]string, n)
		for i, v := range g.verdicts {
			rec.Verdicts[i] = canonicalVerdicts[v]
		}
		out = append(out, rec)
	}
	for _, cg := range q.critGrades {
		rec := Record{Kind: KindCriterionGrades, QuestionID: q.id, Model: s.modelName(cg.model),
			Evaluator: cg.evaluator, EvaluatorKind: "human", File: cg.at.file, Row: cg.at.row}
		if cg.judge {
			rec.EvaluatorKind = "judge"
		}
		for c, met := range cg.met {
			rec.Criteria = append(rec.Criteria, CriterionGrade{CriterionID: q.criteria[c].id, Weight: q.criteria[c].weight, Met: met})
		}
		out = append(out, rec)
	}
	return out
}
