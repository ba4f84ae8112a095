package ingest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/ingest/judgeparse"
	"github.com/euroexec/euroexec/ingest/providers"
	"github.com/euroexec/euroexec/ingest/tabular"
)

// judgeTally counts one judge's outputs and those that did not parse.
type judgeTally struct {
	outputs, failed int
	files           map[string]bool
}

// judgeReader holds what reading judge outputs needs, built on first use.
type judgeReader struct {
	parser *judgeparse.Parser
	tpl    providers.IDTemplate
	hdr    *header
	nItems int
	tally  map[string]*judgeTally
}

// judges returns the judge-output reader, building it on first use.
func (st *state) judges() *judgeReader {
	if st.jr != nil {
		return st.jr
	}
	jr := &judgeReader{tally: map[string]*judgeTally{}}
	p, err := judgeparse.New(st.cfg.JudgeSpec(), st.cfg.Rubric.Attributes)
	if err != nil { // config validation reports it; read with the defaults
		p, _ = judgeparse.New(judgeparse.Spec{}, st.cfg.Rubric.Attributes)
	}
	jr.parser = p
	jr.tpl, err = providers.ParseIDTemplate(st.cfg.JudgeIDTemplate())
	if err != nil {
		jr.tpl, _ = providers.ParseIDTemplate(providers.DefaultIDTemplate)
	}
	for _, q := range st.questions {
		jr.nItems = max(jr.nItems, q.items)
	}
	names := []string{"evaluator", "question_id", "model", "label", "run", "position", "comment"}
	names = append(names, st.cfg.Rubric.Attributes...)
	for i := 1; i <= jr.nItems; i++ {
		names = append(names, "C"+strconv.Itoa(i))
	}
	names = append(names, "rank")
	jr.hdr = &header{names: names, idx: map[string]int{}}
	for i, n := range names {
		jr.hdr.idx[config.ColumnKey(n)] = i
	}
	st.jr = jr
	return jr
}

// readJudgeOutputs reads a judge JSONL file that is a provider batch output
// (the verdict is in the answer text) or, with [judges.parse] pointers, a
// plain JSONL file whose lines hold nested verdict objects. It reports
// whether it read the file (false: read it as an ordinary grading sheet).
func (st *state) readJudgeOutputs(rel, round string) bool {
	format, err := detectFormat(filepath.Join(st.dir, filepath.FromSlash(rel)), st.optFor(rel).Limits.LineBytes)
	if err != nil {
		st.ps.add(Problem{Loc: loc0(rel), Expected: err.Error()})
		return true
	}
	if format == providers.FormatPlain && !st.cfg.Judges.Parse.Pointers() {
		return false
	}
	jr := st.judges()
	stem := strings.TrimSuffix(path.Base(rel), path.Ext(rel))
	st.eachLine(rel, func(loc tabular.Loc, line []byte, last bool) {
		if format != providers.FormatPlain {
			rec, err := providers.Parse(format, line)
			if err != nil {
				exp := strings.TrimPrefix(err.Error(), "providers: ")
				if last && !bytes.HasSuffix(bytes.TrimSpace(line), []byte("}")) {
					exp = "a complete JSON line (the last line is cut off): " + exp
				}
				st.ps.add(Problem{Loc: loc, Expected: fmt.Sprintf("a %s batch output line: %s", format, exp)})
				return
			}
			st.judgeBatchRecord(jr, loc, stem, round, rec)
			return
		}
		st.judgePlainLine(jr, loc, stem, round, line)
	})
	return true
}

// judgeBatchRecord turns one batch line into a grading of judge stem.
func (st *state) judgeBatchRecord(jr *judgeReader, loc tabular.Loc, judge, round string, rec providers.Record) {
	q, m, ok := "", "", false
	if st.requestMap != nil {
		var qm [2]string
		if qm, ok = st.requestMap[rec.RequestID]; ok {
			q, m = qm[0], qm[1]
		}
	}
	if !ok {
		if q, m, ok = jr.tpl.Match(rec.RequestID); !ok {
			st.ps.add(Problem{Loc: loc, Value: rec.RequestID, Expected: fmt.Sprintf("a request id of the form %s (study.toml judges.parse.id_template, else responses.id_template) or one listed in request_map.csv", jr.tpl.String())})
			return
		}
	}
	if m == "" {
		st.ps.add(Problem{Loc: loc, Value: rec.RequestID, Expected: "a model in the request id (the judge's own model is not the graded one): a template with {model} or request_map.csv"})
		return
	}
	t := st.tallyOf(jr, judge, loc.File)
	t.outputs++
	if rec.Failed {
		t.failed++
		msg := rec.Error
		if msg == "" {
			msg = rec.ErrorCode
		}
		st.ps.warn("%s, line %d, request %s: judge %s: the request failed, no verdict: %s", loc.File, loc.Row, rec.RequestID, judge, judgeparse.Excerpt(msg, 80))
		return
	}
	items := 0
	if qi := st.questions[q]; qi != nil {
		items = qi.items
	}
	v, err := jr.parser.Parse(rec.Text, items)
	if err != nil {
		t.failed++
		st.ps.warn("%s, line %d, request %s: judge %s: the output does not parse (%s): %q", loc.File, loc.Row, rec.RequestID, judge,
			strings.TrimPrefix(err.Error(), judgeparse.ErrNoVerdict.Error()+": "), judgeparse.Excerpt(rec.Text, 80))
		return
	}
	st.verdictRow(jr, loc, map[string]string{"evaluator": judge, "question_id": q, "model": m}, v, round)
}

// judgePlainLine reads one plain JSONL judge line through the pointers: the
// ids from its top-level fields, the verdict from the object itself or,
// when that has none of the fields, from its "text" field. A top-level
// comment is kept; other top-level keys that are not fields are not tags.
func (st *state) judgePlainLine(jr *judgeReader, loc tabular.Loc, stem, round string, line []byte) {
	if st.duplicateName(loc, line) {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		st.ps.add(Problem{Loc: loc, Expected: "a JSON object on one line: " + err.Error()})
		return
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		st.ps.add(Problem{Loc: loc, Expected: "a JSON object on one line"})
		return
	}
	ids := map[string]string{}
	for k, v := range obj {
		c := st.columnName(k)
		switch c {
		case "evaluator", "question_id", "model", "label", "run", "position", "round", "comment":
			if s, ok := judgeparse.Lookup(map[string]any{"v": v}, "/v"); ok {
				ids[c] = s
			}
		}
	}
	if ids["evaluator"] == "" {
		ids["evaluator"] = stem
	}
	if r := strings.TrimSpace(ids["round"]); r != "" {
		round = r
	}
	t := st.tallyOf(jr, ids["evaluator"], loc.File)
	t.outputs++
	q := strings.TrimSpace(ids["question_id"])
	items := 0
	if qi := st.questions[q]; qi != nil {
		items = qi.items
	}
	v, err := jr.parser.FromJSON(doc, items)
	if st.cfg.Judges.Parse.Regex != "" {
		err = judgeparse.ErrNoVerdict
	}
	if err != nil {
		text, _ := obj["text"].(string)
		if text == "" {
			t.failed++
			st.ps.warn("%s, line %d: judge %s: the line has none of the [judges.parse] fields and no text: %q", loc.File, loc.Row, ids["evaluator"], judgeparse.Excerpt(string(line), 80))
			return
		}
		if v, err = jr.parser.Parse(text, items); err != nil {
			t.failed++
			st.ps.warn("%s, line %d: judge %s: the output does not parse (%s): %q", loc.File, loc.Row, ids["evaluator"],
				strings.TrimPrefix(err.Error(), judgeparse.ErrNoVerdict.Error()+": "), judgeparse.Excerpt(text, 80))
			return
		}
	}
	st.verdictRow(jr, loc, ids, v, round)
}

func (st *state) tallyOf(jr *judgeReader, judge, file string) *judgeTally {
	t := jr.tally[judge]
	if t == nil {
		t = &judgeTally{files: map[string]bool{}}
		jr.tally[judge] = t
	}
	t.files[file] = true
	return t
}

// verdictRow checks and writes one parsed verdict as a wide grading row.
func (st *state) verdictRow(jr *judgeReader, loc tabular.Loc, ids map[string]string, v judgeparse.Verdict, round string) {
	cells := make([]tabular.Cell, len(jr.hdr.names))
	for c, s := range ids {
		if i, ok := jr.hdr.idx[c]; ok {
			cells[i] = tabular.Cell{Text: s}
		}
	}
	for c, s := range v {
		if i, ok := jr.hdr.idx[c]; ok {
			cells[i] = tabular.Cell{Text: s}
		}
	}
	loc.Offset = -1
	r := row{h: jr.hdr, cells: cells, loc: loc}
	q, qi, ok := st.question(r, "question_id")
	if !ok {
		return
	}
	ev := st.intern(strings.TrimSpace(ids["evaluator"]))
	m, ok := st.resolveModel(r, q, ev)
	if !ok {
		return
	}
	g := &grading{gradingKey: gradingKey{ev, st.intern(round), st.intern(strings.TrimSpace(ids["run"])), q, m}, kind: "judge", loc: loc, hdr: jr.hdr}
	g.label = strings.TrimSpace(ids["label"])
	g.scores = st.nanScores()
	st.setPosition(r, g)
	st.wideRow(r, g, qi)
	st.accept(g)
}

// checkJudgeOutputs ends the reading of judge outputs: a warning per judge
// with failures, and a problem when a judge's share of failures is above
// judges.parse.max_failed_share.
func (st *state) checkJudgeOutputs() {
	if st.jr == nil {
		return
	}
	var judges []string
	for j := range st.jr.tally {
		judges = append(judges, j)
	}
	sort.Strings(judges)
	share := st.cfg.Judges.Parse.MaxFailedShare
	for _, j := range judges {
		t := st.jr.tally[j]
		if t.failed == 0 {
			continue
		}
		var files []string
		for f := range t.files {
			files = append(files, f)
		}
		sort.Strings(files)
		msg := fmt.Sprintf("judge %s: %d of %d outputs (%.1f %%) gave no verdict (%s)", j, t.failed, t.outputs,
			100*float64(t.failed)/float64(t.outputs), strings.Join(files, ", "))
		if float64(t.failed) > share*float64(t.outputs) {
			l := loc0(files[0])
			st.ps.add(Problem{Loc: l, Expected: fmt.Sprintf("at most %g %% of a judge's outputs without a verdict (study.toml judges.parse.max_failed_share = %g); %s — each is listed in the warnings", 100*share, share, msg)})
			continue
		}
		st.ps.warn("%s; they are left out", msg)
	}
}

// eachLine streams the non-blank lines of a JSONL file with their location
// (line numbers from 1), checks UTF-8, and records the file as read.
func (st *state) eachLine(rel string, fn func(loc tabular.Loc, line []byte, last bool)) {
	p := filepath.Join(st.dir, filepath.FromSlash(rel))
	f, err := tabular.OpenRegular(p)
	if err != nil {
		st.ps.add(Problem{Loc: loc0(rel), Expected: err.Error()})
		return
	}
	defer f.Close()
	h := sha256.New()
	br := bufio.NewReaderSize(io.TeeReader(f, h), 1<<16)
	var rows int64
	off := skipBOM(br)
	base := loc0(rel)
	maxLine := st.optFor(rel).Limits.LineBytes
	for lineNo := 1; ; lineNo++ {
		line, n, rerr := readLineMax(br, maxLine)
		if rerr != nil && rerr != io.EOF {
			st.ps.add(Problem{Loc: base, Expected: rerr.Error()})
			return
		}
		loc := base
		loc.Row = lineNo
		start := off
		off += n
		if n > maxLine {
			loc.Offset = start
			st.ps.add(Problem{Loc: loc, Value: fmt.Sprintf("a line of %d bytes", n),
				Expected: fmt.Sprintf("a line of at most %d bytes (raise [limits] line_bytes, or response_bytes for judge outputs, in study.toml)", maxLine)})
		} else if len(bytes.TrimSpace(line)) > 0 {
			rows++
			if i := tabular.ValidUTF8Offset(line); i >= 0 {
				loc.Offset = start + int64(i)
				st.ps.add(Problem{Loc: loc, Expected: "text encoded as UTF-8 (invalid byte)"})
			} else {
				fn(loc, line, rerr == io.EOF)
			}
		}
		if rerr == io.EOF {
			break
		}
	}
	st.fileRead(fileRec{path: rel, sha: hex.EncodeToString(h.Sum(nil)), rows: rows})
}
