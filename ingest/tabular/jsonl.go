package tabular

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/euroexec/euroexec/ingest/internal/jsontext"
	"io"
	"os"
	"strconv"
)

// jsonlReader reads JSON Lines: one JSON object per line, lines of any
// length, blank lines skipped, LF or CRLF line ends.
//
// The header is the keys of the first object in the order written; a key
// first seen on a later line is appended to the header (Sheet().Header
// grows), so column indices never change and every row is aligned with the
// header as it is after that row was read. Keys are compared byte for byte;
// a key repeated within one object is an error.
type jsonlReader struct {
	f      *os.File
	hr     *hashingReader
	br     *bufio.Reader
	loc    Loc
	header []string
	index  map[string]int
	lim    Limits
	seen   []uint32 // seen[i] == gen: column i was set on the current line
	gen    uint32
	width  int // length of the last row, the capacity guessed for the next

	line    int   // line number of the last line read
	off     int64 // file offset of the next line
	lineBuf []byte
	lineLen int64    // length of the last over-long line
	first   *pending // the first object, read at Open for the header
	blanks  blankRun
	pend    *pending
	final   error
}

func newJSONLReader(f *os.File, name string, lim Limits) (*jsonlReader, error) {
	j := &jsonlReader{f: f, loc: Loc{File: name, Format: FormatJSONL, Offset: -1}, index: map[string]int{}, lim: lim}
	j.hr = newHashingReader(f)
	j.br = bufio.NewReaderSize(j.hr, 256<<10)
	if b, _ := j.br.Peek(3); bytes.Equal(b, utf8BOM) {
		j.br.Discard(3) // a byte order mark, as Windows tools write it
		j.off = 3
	}
	row, loc, err := j.readObject()
	if err == io.EOF {
		return nil, &Error{Loc: j.at(0, "", -1), Msg: "empty file", Expected: "JSON objects, one per line", Err: ErrEmptyFile}
	}
	if err != nil {
		// The first object defines the columns: a bad first line makes
		// the file unreadable.
		var te *Error
		if errors.As(err, &te) {
			te.Recoverable = false
			te.Msg += " (the first line defines the columns)"
		}
		return nil, err
	}
	j.first = &pending{row, loc, nil}
	return j, nil
}

func (j *jsonlReader) at(row int, col string, off int64) Loc {
	l := j.loc
	l.Row, l.Column, l.Offset = row, col, off
	return l
}

// errLineTooLong is returned by readLine for a line over Limits.LineBytes,
// after the rest of the line was skipped.
var errLineTooLong = errors.New("line too long")

// readLine returns the next line without its line end, its number and file
// offset, or io.EOF. A line longer than Limits.LineBytes is skipped without
// being held in memory and returned as errLineTooLong (with its number,
// offset and length in bytes as the line's len is not available: the
// returned slice is nil).
func (j *jsonlReader) readLine() ([]byte, int, int64, error) {
	start := j.off
	j.lineBuf = j.lineBuf[:0]
	var line []byte
	for {
		chunk, err := j.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if int64(len(j.lineBuf)+len(chunk)) > j.lim.LineBytes {
				return j.skipLine(start, int64(len(j.lineBuf)+len(chunk)))
			}
			j.lineBuf = append(j.lineBuf, chunk...)
			continue
		}
		if len(j.lineBuf) > 0 {
			j.lineBuf = append(j.lineBuf, chunk...)
			line = j.lineBuf
		} else {
			line = chunk
		}
		if err == io.EOF {
			if len(line) == 0 {
				return nil, 0, 0, io.EOF
			}
		} else if err != nil {
			return nil, 0, 0, err
		}
		break
	}
	j.off += int64(len(line))
	j.line++
	line = bytes.TrimSuffix(line, []byte{'\n'})
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if int64(len(line)) > j.lim.LineBytes {
		j.lineLen = int64(len(line))
		return nil, j.line, start, errLineTooLong
	}
	return line, j.line, start, nil
}

// skipLine discards the rest of an over-long line whose first n bytes were
// read, and returns errLineTooLong.
func (j *jsonlReader) skipLine(start, n int64) ([]byte, int, int64, error) {
	j.lineBuf = j.lineBuf[:0]
	for {
		chunk, err := j.br.ReadSlice('\n')
		n += int64(len(chunk))
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && err != io.EOF {
			return nil, 0, 0, err
		}
		break
	}
	j.off = start + n
	j.line++
	j.lineLen = n
	return nil, j.line, start, errLineTooLong
}

// isJSONSpace reports whether b is JSON white space.
func isJSONSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

// readObject reads the next non-blank line as a row. Errors are *Error
// (recoverable: the next line can still be read) or io.EOF.
func (j *jsonlReader) readObject() ([]Cell, Loc, error) {
	for {
		line, n, start, err := j.readLine()
		if err == io.EOF {
			return nil, Loc{}, io.EOF
		}
		if err == errLineTooLong {
			return nil, j.at(n, "", start), &Error{Loc: j.at(n, "", start), Recoverable: true, Limit: LimitLine, Err: err,
				Msg:      fmt.Sprintf("line of %d bytes, longer than the limit of %d", j.lineLen, j.lim.LineBytes),
				Expected: "a shorter line"}
		}
		if err != nil {
			return nil, Loc{}, ioErr(j.at(j.line+1, "", j.off), "read", err)
		}
		blank := true
		for _, b := range line {
			if !isJSONSpace(b) {
				blank = false
				break
			}
		}
		if blank {
			continue
		}
		loc := j.at(n, "", start)
		if k := ValidUTF8Offset(line); k >= 0 {
			return nil, loc, &Error{Loc: j.at(n, "", start+int64(k)), Recoverable: true,
				Msg: "invalid UTF-8", Value: string(line[max(0, k-20):min(len(line), k+20)]),
				Expected: "text encoded as UTF-8"}
		}
		row, err := j.parse(line, loc)
		return row, loc, err
	}
}

// parse decodes one line holding one JSON object into a row aligned with
// the header, extending the header with new keys. A valid line is walked
// by a small scanner after json.Valid (one validating pass plus one cheap
// pass); an invalid one goes through json.Decoder for a precise message.
func (j *jsonlReader) parse(line []byte, loc Loc) ([]Cell, error) {
	// The row grows with the columns the line sets, so that a line
	// rejected early (too many keys) costs what it holds.
	row := make([]Cell, 0, min(j.width, 64))
	j.gen++
	if j.gen == 0 { // wrapped: forget every mark
		clear(j.seen)
		j.gen = 1
	}
	keys := 0
	// key is the key's text (unescaped), valid until add returns: a string
	// is made of it only for a new column or an error, the look-up of a
	// column seen before allocates nothing.
	add := func(key []byte, raw []byte) error {
		keys++
		if keys > j.lim.Columns {
			return &Error{Loc: loc, Recoverable: true, Limit: LimitColumns,
				Msg: fmt.Sprintf("JSON object with more keys than the limit of %d", j.lim.Columns), Expected: "fewer keys"}
		}
		if int64(len(raw)) > j.lim.CellBytes {
			l := loc
			l.Column = string(key)
			return &Error{Loc: l, Recoverable: true, Limit: LimitCell,
				Msg: fmt.Sprintf("value of %d bytes, longer than the limit of %d", len(raw), j.lim.CellBytes), Value: string(raw[:min(len(raw), 40)]),
				Expected: "a shorter value"}
		}
		cell, err := jsonCell(raw)
		if err != nil {
			l := loc
			l.Column = string(key)
			return &Error{Loc: l, Recoverable: true, Msg: "invalid JSON value", Err: err,
				Value: string(raw[:min(len(raw), 60)]), Expected: "a JSON value"}
		}
		i, ok := j.index[string(key)]
		if !ok {
			if len(j.header) >= j.lim.Columns {
				l := loc
				l.Column = string(key)
				return &Error{Loc: l, Recoverable: true, Limit: LimitColumns,
					Msg: fmt.Sprintf("key %s makes more distinct keys in the file than the limit of %d", strconv.Quote(string(key[:min(len(key), 40)])), j.lim.Columns), Expected: "fewer distinct keys"}
			}
			i = len(j.header)
			k := string(key)
			j.header = append(j.header, k)
			j.index[k] = i
		}
		for len(row) <= i {
			row = append(row, Cell{})
		}
		for len(j.seen) <= i {
			j.seen = append(j.seen, 0)
		}
		if j.seen[i] == j.gen {
			l := loc
			l.Column = string(key)
			return &Error{Loc: l, Recoverable: true, Msg: "key appears twice in one object",
				Value: l.Column, Expected: "each key once per line"}
		}
		j.seen[i] = j.gen
		row[i] = cell
		return nil
	}
	k := 0
	for k < len(line) && isJSONSpace(line[k]) {
		k++
	}
	if k == len(line) || line[k] != '{' {
		return nil, &Error{Loc: loc, Recoverable: true, Msg: "line is not a JSON object",
			Value: string(line[:min(len(line), 60)]), Expected: "a JSON object ({…}) on each line"}
	}
	n0 := len(j.header)
	var err error
	if validObject(line, k) {
		err = walkObject(line, k, add)
	} else {
		err = decodeObject(line, loc, add)
	}
	if err != nil {
		// Keys of a rejected line do not become columns.
		for _, key := range j.header[n0:] {
			delete(j.index, key)
		}
		j.header = j.header[:n0:n0]
		return nil, err
	}
	// Aligned with the header as it is now (bounded by Limits.Columns).
	for len(row) < len(j.header) {
		row = append(row, Cell{})
	}
	j.width = len(row)
	return row, nil
}

// walkObject calls add for each member of the JSON object starting at
// line[k]; line must be valid JSON (json.Valid).
func walkObject(line []byte, k int, add func(key []byte, raw []byte) error) error {
	ws := func(i int) int {
		for i < len(line) && isJSONSpace(line[i]) {
			i++
		}
		return i
	}
	// strEnd returns the index after the string starting at line[i] == '"'.
	strEnd := func(i int) int {
		for i++; i < len(line); i++ {
			switch line[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return len(line)
	}
	// valEnd returns the index after the value starting at line[i].
	valEnd := func(i int) int {
		switch line[i] {
		case '"':
			return strEnd(i)
		case '{', '[':
			depth := 0
			for i < len(line) {
				switch line[i] {
				case '"':
					i = strEnd(i)
					continue
				case '{', '[':
					depth++
				case '}', ']':
					depth--
					if depth == 0 {
						return i + 1
					}
				}
				i++
			}
			return len(line)
		default:
			for i < len(line) {
				switch line[i] {
				case ',', '}', ']', ' ', '\t', '\r', '\n':
					return i
				}
				i++
			}
			return i
		}
	}
	i := ws(k + 1)
	if line[i] == '}' {
		return nil
	}
	for {
		e := strEnd(i)
		rawKey := line[i:e]
		var key []byte
		if bytes.IndexByte(rawKey, '\\') >= 0 {
			var s string
			if err := json.Unmarshal(rawKey, &s); err != nil {
				return err
			}
			key = []byte(s)
		} else {
			key = rawKey[1 : len(rawKey)-1]
		}
		i = ws(ws(e) + 1) // past the colon
		e = valEnd(i)
		if err := add(key, line[i:e]); err != nil {
			return err
		}
		i = ws(e)
		if line[i] == '}' {
			return nil
		}
		i = ws(i + 1) // past the comma
	}
}

// decodeObject walks an invalid line with json.Decoder until it meets the
// problem, and returns it as a located *Error.
func decodeObject(line []byte, loc Loc, add func(key []byte, raw []byte) error) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	bad := func(err error, expected string) error {
		l := loc
		l.Offset = loc.Offset + dec.InputOffset()
		msg := "invalid JSON"
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			l.Offset = loc.Offset + se.Offset
			msg = "invalid JSON: " + se.Error()
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			l.Offset = loc.Offset + int64(len(line))
			msg = "truncated JSON object (the line ends before the object is closed)"
		}
		return &Error{Loc: l, Recoverable: true, Msg: msg, Expected: expected, Err: err,
			Value: string(line[:min(len(line), 60)])}
	}
	if _, err := dec.Token(); err != nil { // the opening brace
		return bad(err, "a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return bad(err, "a JSON object")
		}
		key, ok := tok.(string)
		if !ok {
			return bad(nil, "a string key")
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return bad(err, "a value for key "+strconv.Quote(key))
		}
		if err := add([]byte(key), raw); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return bad(err, "a closing }")
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		l := loc
		l.Offset = loc.Offset + end
		return &Error{Loc: l, Recoverable: true, Msg: "more than one JSON value on the line",
			Value: string(line[end:min(len(line), int(end)+60)]), Expected: "one JSON object per line"}
	}
	// Not reached for a line json.Valid rejects; kept as a safety net.
	return bad(errors.New("invalid JSON"), "a JSON object")
}

// validObject reports whether line[k:] is one valid JSON object and
// nothing but white space after it. It accepts exactly what json.Valid
// accepts for an object (FuzzValidObject), but checks string values, the
// bulk of a response line, with jsontext.ValidString's tight loop; other
// values are checked with json.Valid.
func validObject(line []byte, k int) bool {
	ws := func(i int) int {
		for i < len(line) && isJSONSpace(line[i]) {
			i++
		}
		return i
	}
	i := ws(k)
	if i >= len(line) || line[i] != '{' {
		return false
	}
	i = ws(i + 1)
	if i < len(line) && line[i] == '}' {
		return ws(i+1) == len(line)
	}
	for {
		e, ok := jsontext.ValidString(line, i) // the key
		if !ok {
			return false
		}
		i = ws(e)
		if i >= len(line) || line[i] != ':' {
			return false
		}
		i = ws(i + 1)
		if i >= len(line) {
			return false
		}
		if line[i] == '"' {
			if e, ok = jsontext.ValidString(line, i); !ok {
				return false
			}
		} else {
			e = plainValueEnd(line, i)
			if e <= i || !json.Valid(line[i:e]) {
				return false
			}
		}
		i = ws(e)
		if i >= len(line) {
			return false
		}
		if line[i] == '}' {
			return ws(i+1) == len(line)
		}
		if line[i] != ',' {
			return false
		}
		i = ws(i + 1)
	}
}

// plainValueEnd returns the end of the non-string value at line[i]: a
// bracketed value up to its matching bracket (strings inside skipped), or a
// literal up to the next delimiter. The caller validates the slice.
func plainValueEnd(line []byte, i int) int {
	switch line[i] {
	case '{', '[':
		depth := 0
		for j := i; j < len(line); j++ {
			switch line[j] {
			case '"':
				for j++; j < len(line) && line[j] != '"'; j++ {
					if line[j] == '\\' {
						j++
					}
				}
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(line)
	default:
		for j := i; j < len(line); j++ {
			switch line[j] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return j
			}
		}
		return len(line)
	}
}

// jsonCell converts one JSON value (already validated by the decoder) to a
// Cell.
func jsonCell(raw []byte) (Cell, error) {
	if len(raw) == 0 {
		return Cell{}, errors.New("empty value")
	}
	switch raw[0] {
	case 'n':
		return Cell{Null: true}, nil
	case 't':
		return Cell{Text: "true"}, nil
	case 'f':
		return Cell{Text: "false"}, nil
	case '"':
		if bytes.IndexByte(raw, '\\') < 0 {
			return Cell{Text: string(raw[1 : len(raw)-1])}, nil
		}
		if s, ok := jsontext.Unquote(raw); ok {
			return Cell{Text: s}, nil
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return Cell{}, err
		}
		return Cell{Text: s}, nil
	case '{', '[':
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			return Cell{}, err
		}
		return Cell{Text: b.String()}, nil
	default:
		return Cell{Text: jsonNumberText(string(raw))}, nil
	}
}

// jsonNumberText writes a JSON number literal as cell text: an integer
// literal exactly as written (so ids longer than float64 precision
// survive), any other literal through FormatNumber ("4.0" → "4",
// "1e3" → "1000", "0.10" → "0.1").
func jsonNumberText(lit string) string {
	integer := true
	for i := 0; i < len(lit); i++ {
		if c := lit[i]; c == '.' || c == 'e' || c == 'E' {
			integer = false
			break
		}
	}
	if integer {
		return lit
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil { // out of range (1e400): keep the literal
		return lit
	}
	return FormatNumber(f)
}

func (j *jsonlReader) Sheet() Sheet { return Sheet{Header: j.header} }

func (j *jsonlReader) Next() ([]Cell, Loc, error) {
	if j.final != nil {
		return nil, Loc{}, j.final
	}
	if j.blanks.n > 0 {
		return make([]Cell, len(j.header)), j.blanks.pop(j.loc), nil
	}
	if p := j.pend; p != nil {
		j.pend = nil
		return p.row, p.loc, p.err
	}
	for {
		var (
			row []Cell
			loc Loc
			err error
		)
		if j.first != nil {
			row, loc, err = j.first.row, j.first.loc, j.first.err
			j.first = nil
		} else {
			row, loc, err = j.readObject()
		}
		if err == io.EOF {
			j.final = io.EOF
			return nil, Loc{}, io.EOF
		}
		if err != nil && !isRecoverable(err) {
			j.final = err
			return nil, Loc{}, err
		}
		if err == nil && rowIsBlank(row) {
			j.blanks.add(loc.Row, loc.Offset)
			continue
		}
		if j.blanks.n > 0 {
			j.pend = &pending{row, loc, err}
			return make([]Cell, len(j.header)), j.blanks.pop(j.loc), nil
		}
		return row, loc, err
	}
}

func (j *jsonlReader) NextSheet() bool { return false }

func (j *jsonlReader) Digest() (string, error) {
	d, err := j.hr.finish()
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", j.loc.File, err)
	}
	if j.final == nil {
		j.final = fmt.Errorf("read %s: %w", j.loc.File, errReaderDone)
	}
	return d, nil
}

func (j *jsonlReader) Close() error {
	if j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	if j.final == nil {
		j.final = fmt.Errorf("read %s: %w", j.loc.File, errClosed)
	}
	return err
}
