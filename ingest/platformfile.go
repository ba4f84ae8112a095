package ingest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/ingest/internal/jsontext"
	"github.com/euroexec/euroexec/ingest/internal/suggest"
	"github.com/euroexec/euroexec/ingest/platforms"
	"github.com/euroexec/euroexec/ingest/tabular"
)

// Annotation-platform exports under grades/humans and grades/judges (Label
// Studio, Argilla; see package platforms): detected per file from the
// first record or the header, and read into the same gradings and pairwise
// judgments as long-form sheet rows, through the same checks.

// platformFormat tells whether a grading file is an annotation-platform
// export, from its first record (.json, .jsonl) or its header (.csv,
// .tsv). Any failure to tell is None: the file then takes its ordinary
// path, whose reader reports what is wrong with it.
func (st *state) platformFormat(rel string) platforms.Format {
	f, err := tabular.OpenRegular(filepath.Join(st.dir, filepath.FromSlash(rel)))
	if err != nil {
		return platforms.None
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	skipBOM(br)
	maxLine := st.optFor(rel).Limits.LineBytes
	switch strings.ToLower(path.Ext(rel)) {
	case ".json":
		dec := json.NewDecoder(&capReader{r: br, left: maxLine + capSlack})
		dec.UseNumber()
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') || !dec.More() {
			return platforms.None
		}
		var rec map[string]any
		if err := dec.Decode(&rec); err != nil {
			// a JSON array under grades/ whose first record does not
			// decode: most likely a broken export, read to say where
			return brokenJSON
		}
		return platforms.DetectRecord(rec)
	case ".jsonl", ".csv", ".tsv":
		for {
			line, n, err := readLineMax(br, maxLine)
			if n > maxLine {
				return platforms.None
			}
			if len(bytes.TrimSpace(line)) > 0 {
				if strings.HasSuffix(strings.ToLower(rel), ".jsonl") {
					var rec map[string]any
					if json.Unmarshal(line, &rec) != nil {
						return platforms.None
					}
					return platforms.DetectRecord(rec)
				}
				cr := csv.NewReader(bytes.NewReader(line))
				cr.LazyQuotes = true
				if strings.HasSuffix(strings.ToLower(rel), ".tsv") {
					cr.Comma = '\t'
				}
				cols, err := cr.Read()
				if err != nil {
					return platforms.None
				}
				return platforms.DetectHeader(cols)
			}
			if err != nil {
				return platforms.None
			}
		}
	}
	return platforms.None
}

// importMapper resolves platform names: [import] (as written, else
// compared as config.ColumnKey), else the name's canonical column (the
// [columns] aliases and config.ColumnKey) when that is a rubric attribute,
// C<n>, rank, winner or pairwise, comment, or an id column (question_id,
// model, label, model_a, model_b, label_a, label_b).
func (st *state) importMapper() platforms.Mapper {
	if st.imports == nil {
		st.imports = &importUse{used: map[string]bool{}, unmapped: map[string]bool{}}
	}
	use := st.imports
	exact := st.cfg.Imports()
	keys := make([]string, 0, len(exact))
	for k := range exact {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	byKey := map[string]string{} // ColumnKey → the first [import] key of that form
	for _, k := range keys {
		if _, dup := byKey[config.ColumnKey(k)]; !dup {
			byKey[config.ColumnKey(k)] = k
		}
	}
	type target struct {
		t  config.ImportTarget
		ok bool
	}
	memo := map[string]target{} // names repeat on every record
	resolve := func(name string) (config.ImportTarget, bool) {
		k, ok := name, false
		if _, ok = exact[name]; !ok {
			k, ok = byKey[config.ColumnKey(name)]
		}
		if ok {
			use.used[k] = true
			return exact[k], true
		}
		c := st.columnName(name)
		if ai, ok := st.attrIndex[c]; ok {
			return config.ImportTarget{Kind: config.TargetRubric, Attribute: st.cfg.Rubric.Attributes[ai]}, true
		}
		if n, ok := checklistColumn(c); ok {
			return config.ImportTarget{Kind: config.TargetChecklist, Item: n}, true
		}
		switch c {
		case "winner", "pairwise":
			return config.ImportTarget{Kind: config.TargetPairwise}, true
		case "rank", "comment", "question_id", "model", "label", "model_a", "model_b", "label_a", "label_b":
			return config.ImportTarget{Kind: c}, true
		}
		return config.ImportTarget{}, false
	}
	return func(name string) (config.ImportTarget, bool) {
		if r, ok := memo[name]; ok {
			return r.t, r.ok
		}
		t, ok := resolve(name)
		if len(memo) < 100_000 {
			memo[strings.Clone(name)] = target{t, ok}
		}
		return t, ok
	}
}

// brokenJSON is the format of a .json file under grades/ that opens an
// array whose first record does not decode: it is read as an export so
// that the syntax error is a located problem.
const brokenJSON platforms.Format = "JSON export"

// platformColsArr are the canonical columns of the rows an export's items
// become (platformCols as a slice).
var platformColsArr = [...]string{"evaluator", "question_id", "model", "label", "model_a", "model_b", "label_a", "label_b", "instrument", "key", "value"}

var platformCols = platformColsArr[:]

// platformFile is one export being read.
type platformFile struct {
	rel, kind, round string
	format           platforms.Format
	locFormat        string
	evField          string // what the export calls the grader, for problems
	byKey            map[gradingKey]*grading
	local            []*grading
	headers          map[[len(platformColsArr)]string]*header
	values, pairs    int
	ids              map[idKey]resolved // ids of a record already checked (each problem once)
}

// idKey identifies the ids of one record's item.
type idKey struct {
	rec             int
	ev, q, m, label string
}

// resolved is the outcome of checking one record's ids.
type resolved struct {
	q  string
	qi *question
	m  string
	ok bool
}

// readPlatformFile reads one export under grades/ into gradings and
// pairwise judgments.
func (st *state) readPlatformFile(rel, kind, round string, format platforms.Format) {
	pf := &platformFile{rel: rel, kind: kind, round: round, format: format, locFormat: formatOf(rel),
		byKey: map[gradingKey]*grading{}, headers: map[[len(platformColsArr)]string]*header{}, ids: map[idKey]resolved{}}
	switch format {
	case platforms.LabelStudio:
		pf.evField = "completed_by"
	case platforms.LabelStudioFlat:
		pf.evField = "annotator"
	}
	rd := platforms.NewReader(format, st.importMapper())
	switch strings.ToLower(path.Ext(rel)) {
	case ".jsonl":
		rd.Unit = "line"
	case ".csv", ".tsv":
		rd.Unit = "row"
	}
	drain := func(n int) {
		for _, p := range rd.Problems {
			l := tabular.Loc{File: rel, Row: p.Record, Column: p.Field, Offset: -1, Format: pf.locFormat}
			st.ps.add(Problem{Loc: l, Value: p.Value, Expected: p.Expected})
		}
		for _, it := range rd.Items {
			st.platformItem(pf, it)
		}
		rd.Problems, rd.Items = rd.Problems[:0], rd.Items[:0]
	}
	switch strings.ToLower(path.Ext(rel)) {
	case ".json":
		st.eachJSONRecord(rel, func(n int, rec map[string]any) {
			rd.Record(n, rec)
			drain(n)
		})
	case ".jsonl":
		st.eachLine(rel, func(loc tabular.Loc, line []byte, last bool) {
			if st.duplicateName(loc, line) {
				return
			}
			dec := json.NewDecoder(bytes.NewReader(line))
			dec.UseNumber()
			var rec map[string]any
			if err := dec.Decode(&rec); err != nil {
				st.ps.add(Problem{Loc: loc, Expected: fmt.Sprintf("a %s record: a JSON object on one line (%v)", format, err)})
				return
			}
			rd.Record(loc.Row, rec)
			drain(loc.Row)
		})
	default: // .csv, .tsv
		spec := tableSpec{known: func(string) bool { return true }}
		st.readTable(rel, spec, nil, func(r row) {
			cells := make(map[string]string, len(r.h.names))
			for i, n := range r.h.names {
				if i < len(r.cells) && strings.TrimSpace(n) != "" {
					if _, dup := cells[n]; !dup {
						cells[n] = r.cells[i].Text
					}
				}
			}
			rd.Row(r.loc.Row, cells)
			drain(r.loc.Row)
		})
	}
	for _, g := range pf.local {
		st.accept(g)
	}
	st.ps.warn("%s: read as an annotation-platform export (%s): %d values, %d gradings, %d pairwise judgments", rel, format, pf.values, len(pf.local), pf.pairs)
	if rd.Cancelled > 0 {
		st.ps.warn("%s: %d cancelled annotations (was_cancelled) skipped", rel, rd.Cancelled)
	}
	if rd.Empty > 0 {
		st.ps.warn("%s: %d annotations without a result skipped", rel, rd.Empty)
	}
	if len(rd.NotSubmitted) > 0 {
		var parts []string
		total := 0
		for _, s := range sortedCounts(rd.NotSubmitted) {
			parts = append(parts, fmt.Sprintf("%d %s", rd.NotSubmitted[s], s))
			total += rd.NotSubmitted[s]
		}
		st.ps.warn("%s: %d responses not submitted left out (%s); only submitted responses are counted", rel, total, strings.Join(parts, ", "))
	}
	if rd.Unstated > 0 {
		st.ps.warn("%s: %d responses without a status counted as submitted (Argilla's records.to_json writes none; export with to_list(flatten=True) to keep drafts out)", rel, rd.Unstated)
	}
	if len(rd.Unmapped) > 0 {
		var names []string
		for n := range rd.Unmapped {
			names = append(names, n)
			if len(st.imports.unmapped) < 10_000 {
				st.imports.unmapped[n] = true
			}
		}
		sort.Strings(names)
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = strconv.Quote(n)
		}
		st.ps.warn("%s: questions that map to no instrument field, left out: %s (map them in study.toml, e.g. [import] %s = %q; the targets are %s)",
			rel, strings.Join(quoted, ", "), quoted[0], platforms.SuggestTarget(rd.Unmapped[names[0]], st.cfg.Rubric.Attributes[0]), strings.Join(st.cfg.ImportTargets(), ", "))
	}
}

func sortedCounts(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// platformRow builds the long-form row of one item: its cells under the
// canonical columns, each column named as the export names it (so that a
// problem points at the export's field).
func (st *state) platformRow(pf *platformFile, it platforms.Item) row {
	var written [len(platformColsArr)]string
	cells := make([]tabular.Cell, len(platformCols))
	evField := pf.evField
	if evField == "" {
		evField = it.Field + ".responses.users"
	}
	if f, ok := it.IDs[config.TargetEvaluator]; ok {
		evField = f.Name
	}
	for i, c := range platformCols {
		written[i] = c
		switch c {
		case "evaluator":
			written[i], cells[i].Text = evField, it.Evaluator
		case "instrument":
			cells[i].Text = it.Instrument
		case "key":
			cells[i].Text = it.Key
		case "value":
			written[i], cells[i].Text = it.Field, it.Value
		default:
			if f, ok := it.IDs[c]; ok {
				written[i], cells[i].Text = f.Name, f.Value
			}
		}
	}
	h := pf.headers[written]
	if h == nil {
		if len(pf.headers) > 1000 {
			clear(pf.headers)
		}
		h = &header{names: append([]string(nil), written[:]...), idx: make(map[string]int, len(platformCols))}
		for i, c := range platformCols {
			h.idx[c] = i
		}
		pf.headers[written] = h
	}
	return row{h: h, cells: cells, loc: tabular.Loc{File: pf.rel, Row: it.Record, Offset: -1, Format: pf.locFormat}}
}

// platformItem checks one item and adds it to its grading (or writes its
// pairwise judgment).
func (st *state) platformItem(pf *platformFile, it platforms.Item) {
	pf.values++
	if it.Ranked {
		st.rankedID(&it)
	}
	r := st.platformRow(pf, it)
	ev, ok := st.cleanID(r, "evaluator", "an evaluator name")
	if !ok {
		return
	}
	if ev == "" {
		st.ps.add(Problem{Loc: r.at("evaluator"), Expected: "an evaluator name (the cell is empty)"})
		return
	}
	ev = st.intern(ev)
	if pf.kind == "human" {
		st.rounds[pf.round] = true
	}
	if it.Instrument == platforms.Pairwise {
		if p := st.pairwiseRow(r, pf.kind, pf.round, true); p != nil {
			p.ev = ev // the export names the grader, whatever [sheets] evaluator_from says
			st.acceptPair(p)
			pf.pairs++
		}
		return
	}
	ik := idKey{it.Record, ev, r.get("question_id"), r.get("model"), r.get("label")}
	res, seen := pf.ids[ik]
	if !seen {
		res.q, res.qi, res.ok = st.question(r, "question_id")
		if res.ok {
			res.m, res.ok = st.resolveModel(r, res.q, ev)
		}
		if len(pf.ids) > 10_000 {
			clear(pf.ids)
		}
		pf.ids[ik] = res
	}
	if !res.ok {
		return
	}
	q, qi, m := res.q, res.qi, res.m
	key := gradingKey{ev, pf.round, "", q, m}
	g := pf.byKey[key]
	if g == nil {
		g = &grading{gradingKey: key, kind: pf.kind, loc: r.loc, hdr: r.h, long: true, platform: true}
		g.label = strings.TrimSpace(r.get("label"))
		g.scores = st.nanScores()
		pf.byKey[key] = g
		pf.local = append(pf.local, g)
	}
	st.longRow(r, g, qi)
}

// rankedID moves a ranked response's id to the label column when it is a
// blinded label of the question rather than a model.
func (st *state) rankedID(it *platforms.Item) {
	id := strings.TrimSpace(it.IDs[config.TargetModel].Value)
	if id == st.cfg.HumanLabel || (st.models != nil && st.models[id]) {
		return
	}
	q := strings.TrimSpace(it.IDs[config.TargetQuestionID].Value)
	ev := strings.TrimSpace(it.Evaluator)
	if st.isLabel(q, id, ev) {
		it.IDs[config.TargetLabel] = it.IDs[config.TargetModel]
		delete(it.IDs, config.TargetModel)
	}
}

// capSlack is what a JSON record may pull beyond [limits] line_bytes
// (the decoder reads ahead).
const capSlack = 64 << 10

// errRecordTooLong is the capReader's error once a record is over its
// budget.
var errRecordTooLong = errors.New("record too long")

// capReader bounds how many bytes one JSON record may pull, so that a
// huge record fails fast instead of filling memory.
type capReader struct {
	r    io.Reader
	left int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errRecordTooLong
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// utf8Check finds the first invalid UTF-8 byte of a stream written to it.
type utf8Check struct {
	off   int64
	carry []byte
	bad   int64 // −1 while valid
}

func (u *utf8Check) Write(p []byte) (int, error) {
	n := len(p)
	if u.bad >= 0 {
		return n, nil
	}
	b := append(u.carry, p...)
	base := u.off - int64(len(u.carry))
	// keep an incomplete sequence at the end for the next write
	cut := len(b)
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		if b[i]&0xC0 != 0x80 { // a lead byte or ASCII
			if !utf8.FullRune(b[i:]) {
				cut = i
			}
			break
		}
	}
	if i := tabular.ValidUTF8Offset(b[:cut]); i >= 0 {
		u.bad = base + int64(i)
	}
	u.carry = append(u.carry[:0], b[cut:]...)
	u.off += int64(n)
	return n, nil
}

// duplicateName reports (as a problem at loc) and returns true when the
// JSON value b has a member name twice in one object: which of the two
// values the platform meant cannot be told, and encoding/json would keep
// the last silently.
func (st *state) duplicateName(loc tabular.Loc, b []byte) bool {
	d, ok := jsontext.DuplicateName(b)
	if !ok {
		return false
	}
	loc.Column = d.Path
	st.ps.add(Problem{Loc: loc, Value: d.Name, Expected: "each key once in a JSON object (this object has it twice, so which value is meant cannot be told)"})
	return true
}

// eachJSONRecord streams the records of a JSON array file ([{…}, …]) with
// their 1-based position, each bounded by [limits] line_bytes, checks
// UTF-8 and records the file as read. A record that is not an object is a
// problem; a syntax error stops the file.
func (st *state) eachJSONRecord(rel string, fn func(n int, rec map[string]any)) {
	p := filepath.Join(st.dir, filepath.FromSlash(rel))
	f, err := tabular.OpenRegular(p)
	if err != nil {
		st.ps.add(Problem{Loc: loc0(rel), Expected: err.Error()})
		return
	}
	defer f.Close()
	h := sha256.New()
	u := &utf8Check{bad: -1}
	br := bufio.NewReaderSize(io.TeeReader(f, io.MultiWriter(h, u)), 1<<16)
	bom := skipBOM(br)
	maxLine := st.optFor(rel).Limits.LineBytes
	cr := &capReader{r: br, left: maxLine + capSlack}
	dec := json.NewDecoder(cr)
	dec.UseNumber()
	at := func(n int) tabular.Loc {
		return tabular.Loc{File: rel, Row: n, Offset: -1, Format: tabular.FormatJSON}
	}
	fail := func(n int, err error) {
		l := at(n)
		if errors.Is(err, errRecordTooLong) {
			st.ps.add(Problem{Loc: l, Expected: fmt.Sprintf("a record of at most %d bytes ([limits] line_bytes in study.toml raises the limit)", maxLine)})
			return
		}
		l.Offset = bom + dec.InputOffset()
		var se *json.SyntaxError
		if errors.As(err, &se) {
			l.Offset = bom + se.Offset // the offending byte (from 0)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			st.ps.add(Problem{Loc: l, Expected: "a complete record: the file ends inside the record starting here (cut off?)"})
			return
		}
		st.ps.add(Problem{Loc: l, Expected: "valid JSON: " + err.Error()})
	}
	n := 0
	ok := func() bool {
		tok, err := dec.Token()
		if err != nil {
			fail(0, err)
			return false
		}
		if tok != json.Delim('[') {
			st.ps.add(Problem{Loc: at(0), Expected: "a JSON array of records ([{…}, …])"})
			return false
		}
		for dec.More() {
			if st.ctxErr() != nil {
				return false
			}
			n++
			cr.left = maxLine + capSlack
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				fail(n, err)
				return false
			}
			if st.duplicateName(at(n), raw) {
				continue
			}
			rd := json.NewDecoder(bytes.NewReader(raw))
			rd.UseNumber()
			var rec any
			if err := rd.Decode(&rec); err != nil {
				fail(n, err)
				return false
			}
			obj, isObj := rec.(map[string]any)
			if !isObj {
				st.ps.add(Problem{Loc: at(n), Value: excerpt(rec), Expected: "a JSON object (a task or record)"})
				continue
			}
			fn(n, obj)
		}
		cr.left = maxLine + capSlack
		if _, err := dec.Token(); err != nil { // the closing ]
			fail(n, err)
			return false
		}
		if _, err := dec.Token(); err != io.EOF {
			st.ps.add(Problem{Loc: at(n), Expected: "nothing after the closing ] of the array"})
			return false
		}
		return true
	}()
	if !ok {
		return
	}
	if _, err := io.Copy(io.Discard, br); err != nil {
		st.ps.add(Problem{Loc: loc0(rel), Expected: err.Error()})
		return
	}
	u.Write(nil)
	if u.bad >= 0 || len(u.carry) > 0 {
		l := loc0(rel)
		l.Offset = u.bad
		if u.bad < 0 {
			l.Offset = u.off - int64(len(u.carry))
		}
		st.ps.add(Problem{Loc: l, Expected: "text encoded as UTF-8 (invalid byte)"})
		return
	}
	st.fileRead(fileRec{path: rel, sha: hex.EncodeToString(h.Sum(nil)), rows: int64(n)})
}

// excerpt renders a JSON value for a problem, at most 80 bytes.
func excerpt(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}

// readPlatform reads rel when it is an annotation-platform export and
// reports whether it did; a .json file that is none is left unread (named
// in the warnings).
func (st *state) readPlatform(rel, kind, round string) bool {
	if f := st.platformFormat(rel); f != platforms.None {
		st.readPlatformFile(rel, kind, round, f)
		return true
	}
	if strings.EqualFold(path.Ext(rel), ".json") {
		delete(st.inv.taken, rel)
		return true
	}
	return false
}

// importUse records which [import] keys matched a name of an export, and
// the questions no key or default mapped.
type importUse struct {
	used, unmapped map[string]bool
}

// checkImportUse warns of [import] keys that matched no question or field
// of any platform export read (a typo in the key), with the closest
// unmapped question.
func (st *state) checkImportUse() {
	if st.imports == nil {
		return
	}
	var keys, unmapped []string
	for k := range st.cfg.Import {
		if !st.imports.used[k] {
			keys = append(keys, k)
		}
	}
	for n := range st.imports.unmapped {
		unmapped = append(unmapped, n)
	}
	sort.Strings(keys)
	for _, k := range keys {
		hint := ""
		if c, ok := suggest.Closest(k, unmapped); ok {
			hint = fmt.Sprintf(" (did you mean %q, a question no key maps?)", c)
		}
		st.ps.warn("study.toml: [import] %q matches no question or field of the annotation-platform exports%s", k, hint)
	}
}
