package sample

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/xuri/excelize/v2"
)

// Summary counts what Write wrote.
type Summary struct {
	Questions          int      // questions written
	Models             int      // models
	HumanEvaluators    int      // human graders in the pool
	Judges             int      // LLM judges
	Responses          int      // responses in the dumps (a retried response counts once)
	SkippedResponses   int      // graded responses absent from the dumps
	References         int      // expert-written reference answers
	ReferenceQuestions int      // questions with at least one reference
	HumanGradings      int      // human gradings, both rounds
	JudgeGradings      int      // judge gradings, every run counted
	MissingJudgeScores int      // judge rubric scores left empty
	CriterionGradings  int      // (grader, question, model) criterion gradings
	Files              []string // relative paths of the files written, sorted
}

// Write generates a synthetic study with opt into dir (created if needed;
// files already there are overwritten, others are left alone) and returns
// what it wrote. It streams question by question: memory does not grow with
// opt.Questions.
func Write(dir string, opt Options) (Summary, error) {
	return WriteContext(context.Background(), dir, opt)
}

// WriteContext is Write that stops between questions once ctx is cancelled
// and returns ctx's error (the files written so far stay; write into a
// temporary folder to keep them out of sight).
func WriteContext(ctx context.Context, dir string, opt Options) (Summary, error) {
	if err := opt.validate(); err != nil {
		return Summary{}, err
	}
	w := &writer{ctx: ctx, dir: dir, s: newStudy(opt), csvs: map[string]*csvFile{}, books: map[string]*book{},
		jsonl: map[string]*jsonlFile{}}
	sum, err := w.run()
	if cerr := w.closeAll(); err == nil {
		err = cerr
	}
	if err != nil {
		return Summary{}, err
	}
	for f := range w.csvs {
		sum.Files = append(sum.Files, f)
	}
	for f := range w.books {
		sum.Files = append(sum.Files, f)
	}
	for f := range w.jsonl {
		sum.Files = append(sum.Files, f)
	}
	sum.Files = append(sum.Files, "study.toml")
	slices.Sort(sum.Files)
	return sum, nil
}

type writer struct {
	ctx   context.Context
	dir   string
	s     *study
	csvs  map[string]*csvFile
	books map[string]*book
	jsonl map[string]*jsonlFile
}

type csvFile struct {
	f  *os.File
	bw *bufio.Writer
	cw *csv.Writer
}

type jsonlFile struct {
	f   *os.File
	bw  *bufio.Writer
	buf []byte
}

// book is one streamed .xlsx workbook.
type book struct {
	path    string
	f       *excelize.File
	streams map[string]*excelize.StreamWriter
	order   []string
	header  []any
}

func (w *writer) create(rel string) (*os.File, error) {
	p := filepath.Join(w.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("data: write %s: %w", rel, err)
	}
	f, err := os.Create(p)
	if err != nil {
		return nil, fmt.Errorf("data: write %s: %w", rel, err)
	}
	return f, nil
}

// csvRow appends a record to the CSV file rel, creating it with header.
func (w *writer) csvRow(rel string, header []string, rec []string) error {
	c, ok := w.csvs[rel]
	if !ok {
		f, err := w.create(rel)
		if err != nil {
			return err
		}
		bw := bufio.NewWriterSize(f, 1<<16)
		c = &csvFile{f: f, bw: bw, cw: csv.NewWriter(bw)}
		w.csvs[rel] = c
		if err := c.cw.Write(header); err != nil {
			return fmt.Errorf("data: write %s: %w", rel, err)
		}
	}
	if err := c.cw.Write(rec); err != nil {
		return fmt.Errorf("data: write %s: %w", rel, err)
	}
	return nil
}

// jsonFile returns the JSONL file rel (created on first use) with an empty
// line buffer; the caller builds one object in j.buf and calls flushLine.
func (w *writer) jsonFile(rel string) (*jsonlFile, error) {
	j, ok := w.jsonl[rel]
	if !ok {
		f, err := w.create(rel)
		if err != nil {
			return nil, err
		}
		j = &jsonlFile{f: f, bw: bufio.NewWriterSize(f, 1<<16)}
		w.jsonl[rel] = j
	}
	j.buf = j.buf[:0]
	return j, nil
}

func (j *jsonlFile) flushLine(rel string) error {
	j.buf = append(j.buf, '}', '\n')
	if _, err := j.bw.Write(j.buf); err != nil {
		return fmt.Errorf("data: write %s: %w", rel, err)
	}
	return nil
}

func (w *writer) closeAll() error {
	var errs []error
	for rel, c := range w.csvs {
		c.cw.Flush()
		if err := c.cw.Error(); err != nil {
			errs = append(errs, fmt.Errorf("data: write %s: %w", rel, err))
		}
		if err := c.bw.Flush(); err != nil {
			errs = append(errs, fmt.Errorf("data: write %s: %w", rel, err))
		}
		if err := c.f.Close(); err != nil {
			errs = append(errs, fmt.Errorf("data: write %s: %w", rel, err))
		}
	}
	for rel, j := range w.jsonl {
		if err := j.bw.Flush(); err != nil {
			errs = append(errs, fmt.Errorf("data: write %s: %w", rel, err))
		}
		if err := j.f.Close(); err != nil {
			errs = append(errs, fmt.Errorf("data: write %s: %w", rel, err))
		}
	}
	for rel, b := range w.books {
		if err := b.close(); err != nil {
			errs = append(errs, fmt.Errorf("data: write %s: %w", rel, err))
		}
	}
	return errors.Join(errs...)
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// appendJSONString appends s as a JSON string (UTF-8 kept as is).
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// jkv appends `,"key":` (or `{"key":` for the first pair) to b.
func jkv(b []byte, key string) []byte {
	if len(b) == 0 {
		b = append(b, '{')
	} else {
		b = append(b, ',')
	}
	b = appendJSONString(b, key)
	return append(b, ':')
}

func (w *writer) run() (Summary, error) {
	s := w.s
	sum := Summary{Questions: s.opt.Questions, Models: len(s.models), HumanEvaluators: len(s.humans), Judges: len(s.judges)}
	if err := w.writeStatic(); err != nil {
		return sum, err
	}
	lay := &layout{next: map[string]int{}}
	for qi := range s.opt.Questions {
		if err := w.ctx.Err(); err != nil {
			return sum, fmt.Errorf("data: %w", err)
		}
		q := s.gen(qi, lay)
		if err := w.writeQuestion(q, &sum); err != nil {
			return sum, err
		}
	}
	return sum, nil
}

// writeStatic writes study.toml, models.csv and evaluators.csv.
func (w *writer) writeStatic() error {
	s := w.s
	toml := "# Synthetic EuroExec-style study written by euroexec's sample package.\n" +
		"title = " + strconv.Quote(fmt.Sprintf("Synthetic study (seed %d, %d questions)", s.opt.Seed, s.opt.Questions)) + "\n" +
		"human_label = " + strconv.Quote(HumanLabel) + "\n" +
		"main_round = " + strconv.Quote(MainRound) + "\n\n" +
		"[columns]\n\"Loc.\" = \"Localization\"\n"
	if len(s.humans) == 0 {
		// Judge-only: no human rounds for main_round to name, no reference
		// answers for human_label, no per-domain sheets with "Loc.".
		toml = "# Synthetic judge-only study written by euroexec's sample package.\n" +
			"title = " + strconv.Quote(fmt.Sprintf("Synthetic judge-only study (seed %d, %d questions)", s.opt.Seed, s.opt.Questions)) + "\n"
	}
	f, err := w.create("study.toml")
	if err != nil {
		return err
	}
	if _, err := f.WriteString(toml); err != nil {
		f.Close()
		return fmt.Errorf("data: write study.toml: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("data: write study.toml: %w", err)
	}
	for _, m := range s.models {
		if err := w.csvRow("models.csv", []string{"model", "provider", "display_name", "usd_per_1k_input", "usd_per_1k_output"},
			[]string{m.name, m.provider, m.display, ftoa(m.priceIn), ftoa(m.priceOut)}); err != nil {
			return err
		}
	}
	hdr := []string{"evaluator", "domain"}
	for _, h := range s.humans {
		if err := w.csvRow("evaluators.csv", hdr, []string{h.id, domainNames[h.domain]}); err != nil {
			return err
		}
	}
	for _, j := range s.judges {
		if err := w.csvRow("evaluators.csv", hdr, []string{j.name, ""}); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) writeQuestion(q *question, sum *Summary) error {
	s := w.s
	n := len(q.items)
	cells := gateRuns * n
	if err := w.csvRow("questions.csv", []string{"question_id", "domain", "prompt", "author", "gate_score", "decision_type"},
		[]string{q.id, domainNames[q.domain], q.prompt, q.author, ftoa(float64(q.gatePassed) / float64(cells)), q.decision}); err != nil {
		return err
	}
	for i, t := range q.items {
		if err := w.csvRow("checklist.csv", []string{"question_id", "item", "text"}, []string{q.id, strconv.Itoa(i + 1), t}); err != nil {
			return err
		}
	}
	for run := range q.gate {
		for i, p := range q.gate[run] {
			v := "0"
			if p {
				v = "1"
			}
			if err := w.csvRow("gate.csv", []string{"question_id", "run", "item", "passed"},
				[]string{q.id, strconv.Itoa(run + 1), strconv.Itoa(i + 1), v}); err != nil {
				return err
			}
		}
	}
	for m, l := range q.labels {
		if err := w.csvRow("blinding.csv", []string{"question_id", "label", "model"}, []string{q.id, l, s.models[m].name}); err != nil {
			return err
		}
	}
	for _, resp := range q.responses {
		if resp.skipped {
			sum.SkippedResponses++
			continue
		}
		mi := s.models[resp.model]
		rel := responseFile(mi)
		if mi.tokensOnly {
			// This model's answers come as an OpenAI Batch API output file;
			// on the first question its first request expired and was retried.
			if q.idx == 0 {
				if err := w.batchLine(rel, q.id, mi.name, "", resp, true); err != nil {
					return err
				}
			}
			if err := w.batchLine(rel, q.id, mi.name, resp.text, resp, false); err != nil {
				return err
			}
			sum.Responses++
			continue
		}
		line := func(text string, attempt int) error {
			j, err := w.jsonFile(rel)
			if err != nil {
				return err
			}
			b := jkv(j.buf, "question_id")
			b = appendJSONString(b, q.id)
			b = jkv(b, "model")
			b = appendJSONString(b, mi.name)
			b = jkv(b, "text")
			b = appendJSONString(b, text)
			b = jkv(b, "cost_usd")
			b = strconv.AppendFloat(b, resp.cost, 'g', -1, 64)
			b = jkv(b, "input_tokens")
			b = strconv.AppendInt(b, int64(resp.inTok), 10)
			b = jkv(b, "output_tokens")
			b = strconv.AppendInt(b, int64(len(text)/4), 10)
			if attempt > 0 {
				b = jkv(b, "attempt")
				b = strconv.AppendInt(b, int64(attempt), 10)
			}
			j.buf = b
			return j.flushLine(rel)
		}
		if resp.retryText != "" {
			if err := line(resp.retryText, 1); err != nil {
				return err
			}
			if err := line(resp.text, 2); err != nil {
				return err
			}
		} else if err := line(resp.text, 0); err != nil {
			return err
		}
		sum.Responses++
	}
	if len(q.refs) > 0 {
		sum.ReferenceQuestions++
	}
	for _, ref := range q.refs {
		j, err := w.jsonFile("references.jsonl")
		if err != nil {
			return err
		}
		b := jkv(j.buf, "question_id")
		b = appendJSONString(b, q.id)
		b = jkv(b, "reference_id")
		b = appendJSONString(b, ref.id)
		b = jkv(b, "author")
		b = appendJSONString(b, ref.author)
		b = jkv(b, "text")
		b = appendJSONString(b, ref.text)
		b = jkv(b, "graded")
		b = strconv.AppendBool(b, ref.graded)
		j.buf = b
		if err := j.flushLine("references.jsonl"); err != nil {
			return err
		}
		sum.References++
	}
	for i := range q.gradings {
		g := &q.gradings[i]
		var err error
		if g.judge {
			sum.JudgeGradings++
			err = w.writeJudge(q, g, sum)
		} else {
			sum.HumanGradings++
			err = w.writeHuman(q, g)
		}
		if err != nil {
			return err
		}
	}
	for _, cr := range q.criteria {
		j, err := w.jsonFile("criteria.jsonl")
		if err != nil {
			return err
		}
		b := jkv(j.buf, "question_id")
		b = appendJSONString(b, q.id)
		b = jkv(b, "criterion_id")
		b = appendJSONString(b, cr.id)
		b = jkv(b, "text")
		b = appendJSONString(b, cr.text)
		b = jkv(b, "weight")
		b = strconv.AppendInt(b, int64(cr.weight), 10)
		b = jkv(b, "category")
		b = appendJSONString(b, cr.category)
		j.buf = b
		if err := j.flushLine("criteria.jsonl"); err != nil {
			return err
		}
	}
	for _, cg := range q.critGrades {
		sum.CriterionGradings++
		model := s.modelName(cg.model)
		for c, met := range cg.met {
			if cg.judge {
				j, err := w.jsonFile(cg.at.file)
				if err != nil {
					return err
				}
				b := jkv(j.buf, "evaluator")
				b = appendJSONString(b, cg.evaluator)
				b = jkv(b, "question_id")
				b = appendJSONString(b, q.id)
				b = jkv(b, "model")
				b = appendJSONString(b, model)
				b = jkv(b, "criterion_id")
				b = appendJSONString(b, q.criteria[c].id)
				b = jkv(b, "met")
				b = strconv.AppendBool(b, met)
				j.buf = b
				if err := j.flushLine(cg.at.file); err != nil {
					return err
				}
				continue
			}
			v := "no"
			if met {
				v = "yes"
			}
			if err := w.csvRow(cg.at.file, []string{"evaluator", "question_id", "model", "criterion_id", "met"},
				[]string{cg.evaluator, q.id, model, q.criteria[c].id, v}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *study) modelName(m int) string {
	if m == len(s.models) {
		return HumanLabel
	}
	return s.models[m].name
}

// fileStyle is the layout of grader e's file in round.
func (s *study) fileStyle(e int, round string) style {
	st := s.humans[e].style
	if round != MainRound && st != styleLong {
		return styleSingle
	}
	return st
}

// wideHeader returns the wide-form header of a human file.
func wideHeader(st style) []string {
	h := []string{"evaluator", "question_id", "model"}
	if st == styleLabel {
		h[2] = "label"
	}
	for _, a := range Attributes {
		if st == styleDomains && a == "Localization" {
			a = "Loc."
		}
		h = append(h, a)
	}
	for i := 1; i <= maxItems; i++ {
		h = append(h, "C"+strconv.Itoa(i))
	}
	return append(h, "rank", "comment")
}

var longHeader = []string{"evaluator", "question_id", "model", "instrument", "key", "value"}

// verdictWord is how grader h spells verdict v.
func verdictWord(h humanInfo, v int) string { return h.spelling[v] }

// canonicalVerdicts are the verdict words Walk reports.
var canonicalVerdicts = [4]string{"hit", "partial", "miss", "na"}

// responseFile is where a model's answers are dumped: a plain dump, or for
// the tokens-only model an OpenAI Batch API output file.
func responseFile(m modelInfo) string {
	if m.tokensOnly {
		return "responses/" + m.name + ".batch.jsonl"
	}
	return "responses/" + m.name + ".jsonl"
}

// batchLine writes one line of an OpenAI Batch API output file: a chat
// completion with usage, or (failed) an expired request with no response.
func (w *writer) batchLine(rel, qid, model, text string, resp response, failed bool) error {
	j, err := w.jsonFile(rel)
	if err != nil {
		return err
	}
	b := j.buf[:0]
	b = append(b, `{"id":"batch_req_`...)
	b = append(b, qid...)
	if failed {
		b = append(b, `_1","custom_id":`...)
		b = appendJSONString(b, qid+"::"+model)
		b = append(b, `,"response":null,"error":{"code":"batch_expired","message":"This request could not be executed before the completion window expired."}}`...)
	} else {
		b = append(b, `","custom_id":`...)
		b = appendJSONString(b, qid+"::"+model)
		b = append(b, `,"response":{"status_code":200,"request_id":"req_`...)
		b = append(b, qid...)
		b = append(b, `","body":{"object":"chat.completion","model":`...)
		b = appendJSONString(b, model)
		b = append(b, `,"choices":[{"index":0,"message":{"role":"assistant","content":`...)
		b = appendJSONString(b, text)
		b = append(b, `},"finish_reason":"stop"}],"usage":{"prompt_tokens":`...)
		b = strconv.AppendInt(b, int64(resp.inTok), 10)
		b = append(b, `,"completion_tokens":`...)
		b = strconv.AppendInt(b, int64(len(text)/4), 10)
		b = append(b, `}}},"error":null}`...)
	}
	j.buf = append(b, '\n')
	if _, err := j.bw.Write(j.buf); err != nil {
		return fmt.Errorf("data: write %s: %w", rel, err)
	}
	j.buf = j.buf[:0]
	return nil
}

func (w *writer) writeHuman(q *question, g *grading) error {
	s := w.s
	h := s.humans[g.ev]
	st := s.fileStyle(g.ev, g.round)
	model := s.modelName(g.model)
	if st == styleLong {
		rows := make([][]string, 0, len(Attributes)+len(g.verdicts)+1)
		for a, name := range Attributes {
			rows = append(rows, []string{h.id, q.id, model, "rubric", name, ftoa(g.scores[a])})
		}
		for i, v := range g.verdicts {
			rows = append(rows, []string{h.id, q.id, model, "checklist", strconv.Itoa(i + 1), verdictWord(h, v)})
		}
		rows = append(rows, []string{h.id, q.id, model, "rank", "", strconv.Itoa(g.rank)})
		if !s.xlsx {
			for _, rec := range rows {
				if err := w.csvRow(g.at.file, longHeader, rec); err != nil {
					return err
				}
			}
			return nil
		}
		b, err := w.book(g.at.file, st, longHeader)
		if err != nil {
			return err
		}
		for k, rec := range rows {
			vals := []any{rec[0], qidCell(q.id), rec[2], rec[3], rec[4], rec[5]}
			if rec[4] != "" && rec[3] == "checklist" {
				vals[4] = i64(rec[4])
			}
			if rec[3] != "checklist" {
				vals[5] = f64(rec[5])
			}
			if rec[3] == "rank" {
				vals[4] = nil
			}
			if err := b.row(g.at.sheet, g.at.row+k, vals); err != nil {
				return fmt.Errorf("data: write %s: %w", g.at.file, err)
			}
		}
		return nil
	}
	hdr := wideHeader(st)
	ident := model
	if st == styleLabel {
		ident = g.label
	}
	if !s.xlsx {
		rec := []string{h.id, q.id, ident}
		for _, x := range g.scores {
			rec = append(rec, ftoa(x))
		}
		for i := range maxItems {
			v := ""
			if i < len(g.verdicts) {
				v = verdictWord(h, g.verdicts[i])
			}
			rec = append(rec, v)
		}
		rec = append(rec, strconv.Itoa(g.rank), g.comment)
		return w.csvRow(g.at.file, hdr, rec)
	}
	b, err := w.book(g.at.file, st, hdr)
	if err != nil {
		return err
	}
	vals := []any{h.id, qidCell(q.id), ident}
	for _, x := range g.scores {
		vals = append(vals, int(x))
	}
	if g.textCell {
		vals[1] = q.id
		vals[3] = strconv.Itoa(int(g.scores[0]))
	}
	for i := range maxItems {
		if i < len(g.verdicts) {
			vals = append(vals, verdictWord(h, g.verdicts[i]))
		} else {
			vals = append(vals, nil)
		}
	}
	vals = append(vals, g.rank)
	if g.comment != "" {
		vals = append(vals, g.comment)
	} else {
		vals = append(vals, nil)
	}
	if err := b.row(g.at.sheet, g.at.row, vals); err != nil {
		return fmt.Errorf("data: write %s: %w", g.at.file, err)
	}
	return nil
}

// qidCell is a question id as a numeric cell (ids are all digits).
func qidCell(id string) any { return i64(id) }

func i64(s string) any {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return s
	}
	return v
}

func f64(s string) any {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return v
}

func (w *writer) writeJudge(q *question, g *grading, sum *Summary) error {
	ji := w.s.judges[g.ev]
	j, err := w.jsonFile(g.at.file)
	if err != nil {
		return err
	}
	b := jkv(j.buf, "evaluator")
	b = appendJSONString(b, ji.name)
	b = jkv(b, "question_id")
	b = appendJSONString(b, q.id)
	b = jkv(b, "model")
	b = appendJSONString(b, w.s.modelName(g.model))
	if g.run > 0 {
		b = jkv(b, "run")
		b = strconv.AppendInt(b, int64(g.run), 10)
	}
	for a, name := range Attributes {
		b = jkv(b, name)
		if math.IsNaN(g.scores[a]) {
			b = append(b, "null"...)
			sum.MissingJudgeScores++
		} else {
			b = strconv.AppendFloat(b, g.scores[a], 'g', -1, 64)
		}
	}
	for i, v := range g.verdicts {
		b = jkv(b, "C"+strconv.Itoa(i+1))
		b = appendJSONString(b, canonicalVerdicts[v])
	}
	b = jkv(b, "rank")
	b = strconv.AppendInt(b, int64(g.rank), 10)
	b = jkv(b, "comment")
	b = appendJSONString(b, g.comment)
	j.buf = b
	return j.flushLine(g.at.file)
}

// instructions is the text of the "Instructions" sheet in per-domain workbooks.
var instructions = []string{
	"Grading instructions",
	"Score each response on the five rubric attributes from 1 (poor) to 5 (excellent).",
	"Mark each checklist item as hit, partial, miss or na (not applicable).",
	"Rank the responses of a question from 1 (best) without ties.",
	"Use one sheet per domain; do not edit the header row.",
}

// book returns the workbook rel, creating it with header on first use; a
// styleDomains workbook gets the Instructions sheet first.
func (w *writer) book(rel string, st style, header []string) (*book, error) {
	b, ok := w.books[rel]
	if ok {
		return b, nil
	}
	p := filepath.Join(w.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("data: write %s: %w", rel, err)
	}
	b = &book{path: p, f: excelize.NewFile(), streams: map[string]*excelize.StreamWriter{}}
	for _, h := range header {
		b.header = append(b.header, h)
	}
	w.books[rel] = b
	if st == styleDomains {
		// Per-domain workbooks start with an Instructions sheet.
		if err := b.f.SetSheetName("Sheet1", "Instructions"); err != nil {
			return nil, fmt.Errorf("data: write %s: %w", rel, err)
		}
		sw, err := b.f.NewStreamWriter("Instructions")
		if err != nil {
			return nil, fmt.Errorf("data: write %s: %w", rel, err)
		}
		for i, t := range instructions {
			if err := sw.SetRow("A"+strconv.Itoa(i+1), []any{t}); err != nil {
				return nil, fmt.Errorf("data: write %s: %w", rel, err)
			}
		}
		b.streams["Instructions"] = sw
		b.order = append(b.order, "Instructions")
	}
	return b, nil
}

// row writes vals at row of sheet, creating the sheet (with the header) on first use.
func (b *book) row(sheet string, row int, vals []any) error {
	sw, ok := b.streams[sheet]
	if !ok {
		if len(b.order) == 0 {
			if err := b.f.SetSheetName("Sheet1", sheet); err != nil {
				return err
			}
		} else if _, err := b.f.NewSheet(sheet); err != nil {
			return err
		}
		var err error
		sw, err = b.f.NewStreamWriter(sheet)
		if err != nil {
			return err
		}
		if err := sw.SetRow("A1", b.header); err != nil {
			return err
		}
		b.streams[sheet] = sw
		b.order = append(b.order, sheet)
	}
	cell, err := excelize.CoordinatesToCellName(1, row)
	if err != nil {
		return err
	}
	return sw.SetRow(cell, vals)
}

func (b *book) close() error {
	var errs []error
	for _, name := range b.order {
		if err := b.streams[name].Flush(); err != nil {
			errs = append(errs, err)
		}
	}
	if len(b.order) > 0 {
		idx, err := b.f.GetSheetIndex(b.order[0])
		if err == nil {
			b.f.SetActiveSheet(idx)
		}
	}
	if len(errs) == 0 {
		// Not SaveAs: it creates the file with mode 0777 (executable).
		if f, err := os.OpenFile(b.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644); err != nil {
			errs = append(errs, err)
		} else {
			if _, err := b.f.WriteTo(f); err != nil {
				errs = append(errs, err)
			}
			if err := f.Close(); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if err := b.f.Close(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
