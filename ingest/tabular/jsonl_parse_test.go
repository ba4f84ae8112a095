package tabular

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// oldParse, oldWalkObject and oldDecodeObject are the JSONL line parser
// before the keys were looked up without a string made of each (the
// oracle of TestParseSameAsBefore and the "old" side of BenchmarkParse).

func oldParse(j *jsonlReader, line []byte, loc Loc) ([]Cell, error) {
	// The row grows with the columns the line sets, so that a line
	// rejected early (too many keys) costs what it holds.
	row := make([]Cell, 0, min(j.width, 64))
	j.gen++
	if j.gen == 0 { // wrapped: forget every mark
		clear(j.seen)
		j.gen = 1
	}
	keys := 0
	add := func(key string, raw []byte) error {
		keys++
		if keys > j.lim.Columns {
			return &Error{Loc: loc, Recoverable: true, Limit: LimitColumns,
				Msg: fmt.Sprintf("JSON object with more keys than the limit of %d", j.lim.Columns), Expected: "fewer keys"}
		}
		if int64(len(raw)) > j.lim.CellBytes {
			l := loc
			l.Column = key
			return &Error{Loc: l, Recoverable: true, Limit: LimitCell,
				Msg: fmt.Sprintf("value of %d bytes, longer than the limit of %d", len(raw), j.lim.CellBytes), Value: string(raw[:min(len(raw), 40)]),
				Expected: "a shorter value"}
		}
		cell, err := jsonCell(raw)
		if err != nil {
			l := loc
			l.Column = key
			return &Error{Loc: l, Recoverable: true, Msg: "invalid JSON value", Err: err,
				Value: string(raw[:min(len(raw), 60)]), Expected: "a JSON value"}
		}
		i, ok := j.index[key]
		if !ok {
			if len(j.header) >= j.lim.Columns {
				l := loc
				l.Column = key
				return &Error{Loc: l, Recoverable: true, Limit: LimitColumns,
					Msg: fmt.Sprintf("key %s makes more distinct keys in the file than the limit of %d", strconv.Quote(key[:min(len(key), 40)]), j.lim.Columns), Expected: "fewer distinct keys"}
			}
			i = len(j.header)
			j.header = append(j.header, key)
			j.index[key] = i
		}
		for len(row) <= i {
			row = append(row, Cell{})
		}
		for len(j.seen) <= i {
			j.seen = append(j.seen, 0)
		}
		if j.seen[i] == j.gen {
			l := loc
			l.Column = key
			return &Error{Loc: l, Recoverable: true, Msg: "key appears twice in one object",
				Value: key, Expected: "each key once per line"}
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
		err = oldWalkObject(line, k, add)
	} else {
		err = oldDecodeObject(line, loc, add)
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

func oldWalkObject(line []byte, k int, add func(key string, raw []byte) error) error {
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
		var key string
		if bytes.IndexByte(rawKey, '\\') >= 0 {
			if err := json.Unmarshal(rawKey, &key); err != nil {
				return err
			}
		} else {
			key = string(rawKey[1 : len(rawKey)-1])
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

func oldDecodeObject(line []byte, loc Loc, add func(key string, raw []byte) error) error {
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
		if err := add(key, raw); err != nil {
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

// parseLines are JSONL lines of every kind: judge and response lines,
// keys escaped, new keys on later lines, keys repeated, nulls, nested
// values, too many keys, values too long, invalid JSON.
func parseLines() []string {
	lines := []string{
		`{"evaluator":"critic-mini","question_id":"100001","model":"atlas-5","Domain":4.25,"Localization":4.5,"C1":"hit","rank":1,"comment":"Covers 4 of 4."}`,
		`{"evaluator":"critic-mini","question_id":"100002","model":"atlas-5","Domain":4,"Localization":null,"C1":"miss","rank":2,"comment":"x"}`,
		`{"question_id":"q","model":"m","text":"line one\nline two \"quoted\" \u00e9"}`,
		`{"new_key":1,"evaluator":"e"}`,
		`{"k\u00e9y":"escaped key","evaluator":"e"}`,
		`{"a\"b":1}`,
		`{"evaluator":"e","evaluator":"twice"}`,
		`{"nested":{"a":[1,2,{"b":null}]},"list":[1, 2]}`,
		`{"evaluator":"e","Domain":1e3,"Reasoning":0.10,"big":123456789012345678901234567890}`,
		`{}`,
		`  { "spaced" : "yes" , "evaluator" : "e" }  `,
		`{"evaluator":"e",}`,
		`{"evaluator":"e"`,
		`{"evaluator":"e"} {"x":1}`,
		`[1,2]`,
		`{"long":"` + strings.Repeat("y", 300) + `"}`,
		`{"a1":1,"a2":2,"a3":3,"a4":4,"a5":5,"a6":6,"a7":7,"a8":8,"a9":9,"a10":10,"a11":11,"a12":12}`,
		`{"a13":1,"a14":2}`,
		`{"evaluator":"e","bad":tru}`,
		`{"evaluator":"e","question_id":"q","model":"m","Domain":true,"x":false}`,
	}
	for i := 0; i < 30; i++ {
		lines = append(lines, fmt.Sprintf(`{"evaluator":"j%d","question_id":"%d","model":"m%d","Domain":%d.5,"C%d":"hit"}`, i%3, 100000+i, i%6, i%5, i%7))
	}
	return lines
}

// parseBoth parses lines with a reader whose parse is fn, and returns
// each line's row, error and the header after it.
func parseBoth(lines []string, fn func(j *jsonlReader, line []byte, loc Loc) ([]Cell, error)) []string {
	j := &jsonlReader{index: map[string]int{}, lim: Limits{Columns: 40, CellBytes: 200}, loc: Loc{File: "f.jsonl", Format: FormatJSONL}}
	var out []string
	for n, l := range lines {
		row, err := fn(j, []byte(l), j.at(n+1, "", int64(n*100)))
		out = append(out, fmt.Sprintf("%#v | %v | %q", row, err, j.header))
		if err != nil {
			var te *Error
			if errors.As(err, &te) {
				out = append(out, fmt.Sprintf("%+v", *te))
			}
		}
	}
	return out
}

// TestParseSameAsBefore checks jsonlReader.parse against the parser it
// replaced: the same rows, errors (located alike) and header, line after
// line.
func TestParseSameAsBefore(t *testing.T) {
	lines := parseLines()
	got := parseBoth(lines, (*jsonlReader).parse)
	want := parseBoth(lines, oldParse)
	if !reflect.DeepEqual(got, want) {
		for i := range want {
			if i >= len(got) || got[i] != want[i] {
				t.Fatalf("entry %d: got\n%s\nwant\n%s", i, got[min(i, len(got)-1)], want[i])
			}
		}
		t.Fatalf("got %d entries, want %d", len(got), len(want))
	}
}

// BenchmarkParse parses judge lines (14 keys each) with the parser
// before (old) and now (new), in one run; compare ns/op.
//
//	go test -run X -bench 'BenchmarkParse$' ./ingest/tabular
func BenchmarkParse(b *testing.B) {
	var lines [][]byte
	for i := 0; i < 2000; i++ {
		lines = append(lines, []byte(fmt.Sprintf(`{"evaluator":"critic-mini","question_id":"%d","model":"m%d","Domain":4.25,"Localization":4.5,"Reasoning":3.75,"Communication":4.5,"Actionability":4.25,"C1":"hit","C2":"hit","C3":"partial","C4":"hit","rank":%d,"comment":"Covers 4 of 4 checklist items."}`, 100000+i/6, i%6, i%6+1)))
	}
	for _, f := range []struct {
		name string
		fn   func(j *jsonlReader, line []byte, loc Loc) ([]Cell, error)
	}{{"old", oldParse}, {"new", (*jsonlReader).parse}} {
		b.Run(f.name, func(b *testing.B) {
			j := &jsonlReader{index: map[string]int{}, lim: Limits{Columns: 1000, CellBytes: 1 << 20}}
			for i := 0; i < b.N; i++ {
				for _, l := range lines {
					if _, err := f.fn(j, l, Loc{}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
