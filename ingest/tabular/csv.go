package tabular

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// csvReader reads a CSV file with encoding/csv (RFC 4180: quoted fields may
// hold commas, quotes and newlines; LazyQuotes off; any number of fields per
// record). A UTF-8 byte order mark is skipped; CRLF line ends are accepted.
// Empty lines are not records (encoding/csv skips them); a record whose
// fields are all empty (",,,") is a blank row.
type csvReader struct {
	f      *os.File
	hr     *hashingReader
	win    *window
	cr     *csv.Reader
	bom    int64 // bytes of byte order mark before what cr reads
	loc    Loc   // template: File, Format
	header []string
	lim    Limits

	rec    int // records read so far
	atRow  int // record number of the header
	skip   []int
	replay []csvRec // records read while looking for the header, not yet returned
	blanks blankRun
	pend   *pending
	final  error
}

// csvRec is a record (or a recoverable error) read ahead.
type csvRec struct {
	rec []string
	loc Loc
	err error
}

// pending is a row held back while the blank rows before it are returned.
type pending struct {
	row []Cell
	loc Loc
	err error
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

func newCSVReader(f *os.File, name string, tsv bool, opt Options) (*csvReader, error) {
	lim := opt.Limits
	c := &csvReader{f: f, loc: Loc{File: name, Format: FormatCSV, Offset: -1}, lim: lim}
	if tsv {
		c.loc.Format = FormatTSV
	}
	c.hr = newHashingReader(f)
	c.win = &window{r: c.hr, max: lim.LineBytes}
	br := bufio.NewReaderSize(c.win, 64<<10)
	if b, _ := br.Peek(3); len(b) == 3 && b[0] == utf8BOM[0] && b[1] == utf8BOM[1] && b[2] == utf8BOM[2] {
		br.Discard(3)
		c.bom = 3
	}
	c.cr = csv.NewReader(br)
	if tsv {
		c.cr.Comma = '\t'
	}
	c.cr.FieldsPerRecord = -1
	c.cr.LazyQuotes = false
	if err := c.findHeader(opt); err != nil {
		return nil, err
	}
	return c, nil
}

// findHeader reads the header as the XLSX reader does: record
// Options.HeaderRow when set (blank or missing: a nil header, HeaderRow
// set), else the first non-blank record among the first HeaderScan that
// Options.HeaderProbe accepts, else the first non-blank record. Records
// read past the header while looking are kept for Next.
func (c *csvReader) findHeader(opt Options) error {
	var buf []csvRec // non-blank records and errors from the first non-blank one on
	chosen := -1
	for chosen < 0 {
		rec, loc, err := c.readRecord()
		if err == io.EOF {
			break
		}
		if err != nil && !isRecoverable(err) {
			return err
		}
		if err != nil {
			// A malformed record before the header is final, as it was
			// when the header was the first record; after a first
			// non-blank record it is kept for Next.
			if len(buf) == 0 {
				var te *Error
				if errors.As(err, &te) {
					te.Recoverable = false
				}
				return err
			}
			buf = append(buf, csvRec{nil, loc, err})
			continue
		}
		blank := !nonBlank(rec)
		if opt.HeaderRow > 0 {
			if c.rec == opt.HeaderRow {
				if blank {
					c.atRow = opt.HeaderRow
					return nil // nil header: the header row is blank
				}
				buf, chosen = append(buf[:0], csvRec{rec, loc, nil}), 0
				break
			}
			if !blank {
				c.skip = append(c.skip, c.rec)
			}
			continue
		}
		if len(buf) > 0 && c.rec > HeaderScan {
			// no record the probe accepts: the first non-blank one
			buf = append(buf, csvRec{rec, loc, nil})
			break
		}
		if blank {
			if len(buf) > 0 {
				buf = append(buf, csvRec{rec, loc, nil})
			}
			continue
		}
		buf = append(buf, csvRec{rec, loc, nil})
		if opt.HeaderProbe == nil || c.rec > HeaderScan || opt.HeaderProbe(rec) {
			chosen = len(buf) - 1
		}
	}
	if chosen < 0 {
		if opt.HeaderRow > 0 {
			c.atRow = opt.HeaderRow // the file ends before the header row
			if c.rec == 0 {
				return &Error{Loc: c.at(0, "", -1), Msg: "empty file", Expected: "a header row", Err: ErrEmptyFile}
			}
			return nil
		}
		if len(buf) == 0 {
			return &Error{Loc: c.at(0, "", -1), Msg: "empty file", Expected: "a header row", Err: ErrEmptyFile}
		}
		chosen = 0
	}
	for _, r := range buf[:chosen] {
		if r.err == nil && nonBlank(r.rec) {
			c.skip = append(c.skip, r.loc.Row)
		}
	}
	h := buf[chosen]
	if len(h.rec) > c.lim.Columns {
		return &Error{Loc: h.loc, Msg: fmt.Sprintf("header of %d columns, more than the limit of %d", len(h.rec), c.lim.Columns),
			Expected: "fewer columns", Limit: LimitColumns}
	}
	c.header, c.atRow = h.rec, h.loc.Row
	c.replay = buf[chosen+1:]
	return nil
}

// at returns a location in this file.
func (c *csvReader) at(row int, col string, off int64) Loc {
	l := c.loc
	l.Row, l.Column, l.Offset = row, col, off
	return l
}

// colName names column i for messages: the header name, or its position when
// the header has no column there.
func (c *csvReader) colName(i int) string {
	if i < len(c.header) && c.header[i] != "" {
		return c.header[i]
	}
	return fmt.Sprintf("#%d", i+1)
}

// readRecord reads one record and checks its encoding. Errors are *Error
// (recoverable for problems of that record) or io.EOF.
func (c *csvReader) readRecord() ([]string, Loc, error) {
	start := c.bom + c.cr.InputOffset()
	c.win.start = start
	rec, err := c.cr.Read()
	if err == io.EOF {
		return nil, Loc{}, io.EOF
	}
	c.rec++
	loc := c.at(c.rec, "", start)
	if err != nil {
		var pe *csv.ParseError
		if errors.Is(err, errRecordTooLong) {
			return nil, loc, &Error{Loc: loc, Err: err, Limit: LimitLine,
				Msg:      fmt.Sprintf("record longer than the limit of %d bytes", c.lim.LineBytes),
				Expected: "shorter records (a quote left open makes the rest of the file one field)"}
		}
		if errors.As(err, &pe) {
			return nil, loc, &Error{Loc: loc, Recoverable: true, Err: err,
				Msg:      fmt.Sprintf("malformed CSV at line %d, column %d: %v", pe.Line, pe.Column, pe.Err),
				Expected: `fields separated by commas, with quotes only around whole fields and doubled ("") inside them`}
		}
		return nil, loc, ioErr(loc, "read", err)
	}
	end := c.bom + c.cr.InputOffset()
	if end-start > c.lim.LineBytes {
		return nil, loc, &Error{Loc: loc, Limit: LimitLine,
			Msg:      fmt.Sprintf("record of %d bytes, longer than the limit of %d", end-start, c.lim.LineBytes),
			Expected: "shorter records (a quote left open makes the rest of the file one field)"}
	}
	for i, s := range rec {
		if int64(len(s)) > c.lim.CellBytes {
			c.win.release(end)
			return nil, loc, &Error{Loc: c.at(c.rec, c.colName(i), -1), Recoverable: true, Limit: LimitCell,
				Msg: fmt.Sprintf("cell of %d bytes, longer than the limit of %d", len(s), c.lim.CellBytes), Value: s[:min(len(s), 40)],
				Expected: "a shorter value"}
		}
		if !utf8.ValidString(s) {
			off := int64(-1)
			if raw := c.win.bytes(start, end); raw != nil {
				if k := ValidUTF8Offset(raw); k >= 0 {
					off = start + int64(k)
				}
			}
			return nil, loc, &Error{Loc: c.at(c.rec, c.colName(i), off), Recoverable: true,
				Msg: "invalid UTF-8", Value: s, Expected: "text encoded as UTF-8 (save the file as CSV UTF-8)"}
		}
	}
	c.win.release(end)
	return rec, loc, nil
}

func (c *csvReader) Sheet() Sheet {
	return Sheet{Header: c.header, HeaderRow: c.atRow, Skipped: c.skip}
}

// nextRecord returns the records read ahead while looking for the header,
// then reads on.
func (c *csvReader) nextRecord() ([]string, Loc, error) {
	if len(c.replay) > 0 {
		r := c.replay[0]
		c.replay = c.replay[1:]
		return r.rec, r.loc, r.err
	}
	return c.readRecord()
}

func (c *csvReader) Next() ([]Cell, Loc, error) {
	if c.final != nil {
		return nil, Loc{}, c.final
	}
	if c.header == nil {
		c.final = io.EOF // the header row (Options.HeaderRow) is blank: no table
		return nil, Loc{}, io.EOF
	}
	if c.blanks.n > 0 {
		return make([]Cell, len(c.header)), c.blanks.pop(c.loc), nil
	}
	if p := c.pend; p != nil {
		c.pend = nil
		return p.row, p.loc, p.err
	}
	for {
		rec, loc, err := c.nextRecord()
		var row []Cell
		if err == io.EOF {
			c.final = io.EOF // held-back blank rows were trailing: dropped
			return nil, Loc{}, io.EOF
		}
		if err != nil && !isRecoverable(err) {
			c.final = err
			return nil, Loc{}, err
		}
		if err == nil {
			row, err = c.cells(rec, loc)
			if err == nil && rowIsBlank(row) {
				c.blanks.add(loc.Row, loc.Offset)
				continue
			}
		}
		if c.blanks.n > 0 {
			c.pend = &pending{row, loc, err}
			return make([]Cell, len(c.header)), c.blanks.pop(c.loc), nil
		}
		return row, loc, err
	}
}

// cells aligns a record with the header. A non-empty field beyond the last
// header column is a recoverable error (its value could not be named).
func (c *csvReader) cells(rec []string, loc Loc) ([]Cell, error) {
	row := make([]Cell, len(c.header))
	for i, s := range rec {
		if i < len(row) {
			row[i].Text = s
		} else if s != "" {
			l := loc
			l.Column = c.colName(i)
			return nil, &Error{Loc: l, Recoverable: true, Value: s,
				Msg:      fmt.Sprintf("value in column %d, beyond the %d columns of the header", i+1, len(c.header)),
				Expected: "a header name for every column that holds values"}
		}
	}
	return row, nil
}

func (c *csvReader) NextSheet() bool { return false }

func (c *csvReader) Digest() (string, error) {
	d, err := c.hr.finish()
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", c.loc.File, err)
	}
	if c.final == nil {
		c.final = fmt.Errorf("read %s: %w", c.loc.File, errReaderDone)
	}
	return d, nil
}

func (c *csvReader) Close() error {
	if c.f == nil {
		return nil
	}
	err := c.f.Close()
	c.f = nil
	if c.final == nil {
		c.final = fmt.Errorf("read %s: %w", c.loc.File, errClosed)
	}
	return err
}

// window passes reads through (failing once the record being read is far
// over the limit, so that one endless record cannot exhaust memory) and keeps the bytes from the start of the
// record being parsed, so that the exact offset of a bad byte can be found.
type window struct {
	r     io.Reader
	buf   []byte
	base  int64 // file offset of buf[0]
	start int64 // file offset where the record being read starts
	max   int64 // longest record; reading far past it is errRecordTooLong
}

// errRecordTooLong stops encoding/csv once a record is over the limit.
var errRecordTooLong = errors.New("record too long")

func (w *window) Read(p []byte) (int, error) {
	if w.max > 0 && w.base+int64(len(w.buf))-w.start > w.max+256<<10 {
		return 0, errRecordTooLong
	}
	n, err := w.r.Read(p)
	w.buf = append(w.buf, p[:n]...)
	return n, err
}

// release forgets the bytes before file offset off (lazily, to keep the
// cost of moving bytes linear).
func (w *window) release(off int64) {
	k := off - w.base
	if k <= 0 || k > int64(len(w.buf)) {
		return
	}
	if k < 1<<20 && k*2 < int64(len(w.buf)) {
		return
	}
	n := copy(w.buf, w.buf[k:])
	w.buf = w.buf[:n]
	w.base = off
}

// bytes returns the bytes in [from, to) of the file if still held.
func (w *window) bytes(from, to int64) []byte {
	if from < w.base || to > w.base+int64(len(w.buf)) || from > to {
		return nil
	}
	return w.buf[from-w.base : to-w.base]
}
