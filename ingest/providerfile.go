package ingest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/euroexec/euroexec/ingest/providers"
	"github.com/euroexec/euroexec/ingest/tabular"
)

// requestMapSpec is the side file that maps batch request ids to questions
// and models when no id template fits.
var requestMapSpec = tableSpec{required: []string{"request_id", "question_id", "model"}}

// failure is a batch request that produced no answer.
type failure struct {
	model, err string
	loc        tabular.Loc
}

// detectFormat reads the first non-blank line of a responses file and tells
// its format. Lines are read whole, of any length.
// A first line over maxLine bytes is taken as a plain dump, whose reader
// reports it.
func detectFormat(path string, maxLine int64) (providers.Format, error) {
	f, err := tabular.OpenRegular(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	skipBOM(br)
	for {
		line, n, err := readLineMax(br, maxLine)
		if n > maxLine {
			return providers.FormatPlain, nil
		}
		if len(bytes.TrimSpace(line)) > 0 {
			return providers.Detect(line), nil
		}
		if err == io.EOF {
			return providers.FormatPlain, nil
		}
		if err != nil {
			return "", err
		}
	}
}

// readRequestMap reads request_map.{csv,jsonl,xlsx} when present.
func (st *state) readRequestMap() {
	rel := st.findTable("request_map", "csv", "tsv", "jsonl", "xlsx")
	if rel == "" {
		return
	}
	st.requestMap = map[string][2]string{}
	st.readTable(rel, requestMapSpec, nil, func(r row) {
		id, ok := st.id(r, "request_id", "a request id")
		q, _, ok2 := st.question(r, "question_id")
		m, ok3 := st.id(r, "model", "a model name")
		if !ok || !ok2 || !ok3 || !st.checkModel(r, "model", m) {
			return
		}
		if _, dup := st.requestMap[id]; dup {
			st.ps.add(Problem{Loc: r.at("request_id"), Value: id, Expected: "each request id once"})
			return
		}
		st.requestMap[id] = [2]string{q, m}
	})
}

// readProviderFile streams one provider batch output file (OpenAI, Anthropic
// or Gemini) into responses and failed_requests.
func (st *state) readProviderFile(rel string, format providers.Format) {
	path := filepath.Join(st.dir, filepath.FromSlash(rel))
	f, err := tabular.OpenRegular(path)
	if err != nil {
		st.ps.add(Problem{Loc: loc0(rel), Expected: err.Error()})
		return
	}
	defer f.Close()
	h := sha256.New()
	br := bufio.NewReaderSize(io.TeeReader(f, h), 1<<16)
	maxLine := st.optFor(rel).Limits.LineBytes
	off := skipBOM(br)
	var rows int64
	base := loc0(rel)
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
			rows++
			st.ps.add(Problem{Loc: loc, Value: fmt.Sprintf("a line of %d bytes", n),
				Expected: fmt.Sprintf("a line of at most %d bytes: one response of at most %d bytes and %d bytes for the rest ([limits] response_bytes in study.toml raises the limit)", maxLine, st.cfg.Limits.ResponseBytes, respSlack)})
		} else if len(bytes.TrimSpace(line)) > 0 {
			rows++
			if i := tabular.ValidUTF8Offset(line); i >= 0 {
				loc.Offset = start + int64(i)
				st.ps.add(Problem{Loc: loc, Expected: "text encoded as UTF-8 (invalid byte)"})
			} else if rec, err := providers.Parse(format, line); err != nil {
				exp := strings.TrimPrefix(err.Error(), "providers: ")
				if rerr == io.EOF && !bytes.HasSuffix(bytes.TrimSpace(line), []byte("}")) {
					exp = "a complete JSON line (the last line is cut off): " + exp
				}
				st.ps.add(Problem{Loc: loc, Expected: fmt.Sprintf("a %s batch output line: %s", format, exp)})
			} else if st.textFits(loc, rec.Text, "response") {
				st.providerRecord(rel, loc, rec)
			}
		}
		if rerr == io.EOF {
			break
		}
	}
	st.fileRead(fileRec{path: rel, sha: hex.EncodeToString(h.Sum(nil)), rows: rows})
}

// providerRecord maps one parsed line to its question and model and writes it.
func (st *state) providerRecord(rel string, loc tabular.Loc, rec providers.Record) {
	q, m, ok := "", "", false
	if st.requestMap != nil {
		var qm [2]string
		if qm, ok = st.requestMap[rec.RequestID]; ok {
			q, m = qm[0], qm[1]
		}
	}
	if !ok {
		q, m, ok = st.idTemplate.Match(rec.RequestID)
		if !ok {
			st.ps.add(Problem{Loc: loc, Value: rec.RequestID, Expected: fmt.Sprintf("a request id of the form %s (study.toml responses.id_template) or one listed in request_map.csv", st.idTemplate.String())})
			return
		}
		if m == "" {
			m = rec.Model
		}
	}
	q, m = st.intern(q), st.intern(m)
	qi := st.questions[q]
	if qi == nil {
		st.ps.add(Problem{Loc: loc, Value: q, Expected: "a question id of the questions file (from the request id " + rec.RequestID + ")"})
		return
	}
	if m == "" {
		st.ps.add(Problem{Loc: loc, Value: rec.RequestID, Expected: "a model: the request id template has no {model} and the line names none"})
		return
	}
	if st.models != nil && !st.models[m] && m != st.cfg.HumanLabel {
		st.ps.add(Problem{Loc: loc, Value: m, Expected: "a model listed in the models file"})
		return
	}
	k := newRespKey(qi.num, st.sid(m))
	if rec.Failed {
		if st.failed == nil {
			st.failed = map[respKey]failure{}
		}
		st.failed[k] = failure{m, rec.Error, loc}
		t := st.out.failed
		t.str(0, q)
		t.str(1, m)
		t.str(2, rec.RequestID)
		msg := rec.Error
		if msg == "" {
			msg = rec.ErrorCode
		}
		t.str(3, msg)
		t.str(4, rel)
		t.i64(5, int64(loc.Row))
		st.emit(t)
		return
	}
	if ri, dup := st.responses[k]; dup {
		st.ps.add(Problem{Loc: loc, Value: q + " / " + m, Expected: fmt.Sprintf("one answer per question and model (another is at %s)", st.loc(ri.at).String())})
		return
	}
	st.addResponse(k, 0, loc)
	cost := math.NaN()
	if p, ok := st.prices[m]; ok {
		cost = providers.Cost(rec.InputTokens, rec.OutputTokens, p[0], p[1], st.cfg.Responses.BatchDiscount)
	}
	t := st.out.responses
	t.str(0, q)
	t.str(1, m)
	t.i64(2, 0)
	t.boolean(3, true)
	t.str(4, rec.Text)
	t.i64(5, chars(rec.Text))
	t.i64(6, words(rec.Text))
	t.f64(7, cost)
	optInt(t, 8, rec.InputTokens)
	optInt(t, 9, rec.OutputTokens)
	t.str(10, rel)
	t.i64(11, int64(loc.Row))
	st.emit(t)
}

// skipBOM skips a UTF-8 byte order mark and returns its length.
func skipBOM(br *bufio.Reader) int64 {
	if b, _ := br.Peek(3); bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
		br.Discard(3)
		return 3
	}
	return 0
}

// readLineMax reads one line (its line end included) and its length n. A
// line over max bytes is read to its end without being kept: line is nil
// and n > max.
func readLineMax(br *bufio.Reader, max int64) (line []byte, n int64, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		n += int64(len(chunk))
		if n <= max {
			line = append(line, chunk...)
		} else {
			line = nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, n, err
	}
}
