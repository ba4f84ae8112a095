package tabular

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/xuri/excelize/v2"
)

// ErrNoSheet is wrapped by the *Error returned by Open when no worksheet of
// a workbook passes Options.SheetInclude / SheetExclude.
var ErrNoSheet = errors.New("no sheet selected")

// xlsxReader streams the selected worksheets of a workbook in workbook order
// with excelize's Rows iterator (one row in memory at a time; worksheet
// parts above 16 MB unzipped are streamed from a temporary file).
//
// Cell values: excelize's RawCellValue option skips number formats but then
// returns the stored text of number cells ("101.0" from some writers,
// "4.0000000000000009" from Excel) and nothing in the Rows API tells a
// number cell from a text cell with the same characters ("007", "4.0"), so
// the number could not be normalised without corrupting text. Instead the
// reader drops the workbook's cell formats from the in-memory style sheet
// right after opening (the file is never written) and reads with
// RawCellValue false: text cells come back untouched, and number cells go
// through excelize's "General" rendering, which prints the value with at
// most 15 significant digits ("101", "0.5", "4"), as Excel shows it. The one
// format kept is a date's: a cell formatted as a date comes back as an ISO
// date ("2024-12-15", or "2024-12-15 14:30" when the format shows a
// time) instead of Excel's serial number (45641).
type xlsxReader struct {
	file   *excelize.File
	digest string
	loc    Loc
	sheets []string // selected sheets, workbook order
	si     int      // index in sheets of the current sheet

	rows   *excelize.Rows
	rowNum int // sheet row number of the last row read
	header []string
	lim    Limits
	probe  func([]string) bool // Options.HeaderProbe
	hdrRow int                 // Options.HeaderRow
	atRow  int                 // sheet row number of the header
	skip   []int               // non-blank rows above the header
	hidden bool                // the sheet is hidden in Excel
	replay [][]string          // rows read while looking for the header, not yet returned
	blanks blankRun
	pend   *pending
	final  error // per sheet: io.EOF or a final error
}

func newXLSXReader(f *os.File, name string, opt Options) (*xlsxReader, error) {
	x := &xlsxReader{loc: Loc{File: name, Format: FormatXLSX, Offset: -1}, lim: opt.Limits, probe: opt.HeaderProbe, hdrRow: opt.HeaderRow}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, ioErr(x.loc, "stat", err)
	}
	if fi.Size() > opt.Limits.XLSXBytes {
		return nil, &Error{Loc: x.loc, Limit: LimitXLSXBytes,
			Msg:      fmt.Sprintf("workbook of %d bytes, larger than the limit of %d", fi.Size(), opt.Limits.XLSXBytes),
			Expected: "a smaller workbook"}
	}
	// The whole (compressed) file is read into memory once, hashed on the
	// way, and checked as a zip archive before excelize sees it.
	hr := newHashingReader(f)
	data, err := io.ReadAll(hr)
	if err != nil {
		return nil, ioErr(x.loc, "read", err)
	}
	if x.digest, err = hr.finish(); err != nil {
		return nil, fmt.Errorf("hash %s: %w", name, err)
	}
	unzipped, err := checkZip(data, x.loc, opt.Limits)
	if err != nil {
		return nil, err
	}
	file, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{
		UnzipSizeLimit:   unzipped + 1, // checkZip enforced the limits on the same bytes
		ShortDatePattern: isoDate,
	})
	if err != nil {
		return nil, &Error{Loc: x.loc, Msg: "cannot read workbook: " + err.Error(), Err: err,
			Expected: "an .xlsx workbook (Excel 2007 or later, not password-protected)"}
	}
	x.file = file
	isoDates(file)
	all := file.GetSheetList()
	for _, s := range all {
		if sheetSelected(s, opt) {
			x.sheets = append(x.sheets, s)
		}
	}
	if len(x.sheets) == 0 {
		file.Close()
		inc := opt.SheetInclude
		if len(inc) == 0 {
			inc = []string{"*"}
		}
		return nil, &Error{Loc: x.loc, Err: ErrNoSheet,
			Msg:      fmt.Sprintf("no sheet selected (include %q, exclude %q)", inc, opt.SheetExclude),
			Value:    strings.Join(all, ", "),
			Expected: "at least one sheet matching the include patterns and none of the exclude patterns"}
	}
	x.openSheet(0) // a problem with its header is returned by Next
	return x, nil
}

// at returns a location on the current sheet.
func (x *xlsxReader) at(row int, col string) Loc {
	l := x.loc
	l.Row, l.Column = row, col
	return l
}

// openSheet positions the reader on sheet i and reads its header: row
// Options.HeaderRow when set, else the first non-blank row among the first
// HeaderScan rows that Options.HeaderProbe accepts, else the first non-blank
// row. A sheet without any non-blank row has a nil header. Rows read past
// the header while looking for it are kept and returned by Next.
func (x *xlsxReader) openSheet(i int) {
	if x.rows != nil {
		x.rows.Close()
		x.rows = nil
	}
	x.si, x.rowNum, x.header, x.blanks, x.pend, x.final = i, 0, nil, blankRun{}, nil, nil
	x.atRow, x.skip, x.replay = 0, nil, nil
	x.loc.Sheet = x.sheets[i]
	vis, err := x.file.GetSheetVisible(x.sheets[i])
	x.hidden = err == nil && !vis
	rows, err := x.file.Rows(x.sheets[i])
	if err != nil {
		x.final = &Error{Loc: x.at(0, ""), Msg: "cannot read sheet: " + err.Error(), Err: err}
		return
	}
	x.rows = rows
	var buf [][]string // rows 1 … len(buf), kept while looking
	first, chosen := -1, -1
	for chosen < 0 {
		cols, err := x.readRow()
		if err == io.EOF {
			break
		}
		if err != nil {
			x.final = err
			return
		}
		n := x.rowNum
		if x.hdrRow > 0 {
			if n == x.hdrRow {
				if nonBlank(cols) {
					buf, chosen = append(buf, cols), len(buf)
				} else {
					x.atRow = x.hdrRow // a blank header row: nil header
				}
				break
			}
			if nonBlank(cols) {
				x.skip = append(x.skip, n)
			}
			continue
		}
		if first >= 0 && n > HeaderScan {
			chosen = first // no row the probe accepts: the first non-blank row
			x.replay = append(x.replay, cols)
			break
		}
		if !nonBlank(cols) {
			if first >= 0 || n <= HeaderScan {
				buf = append(buf, cols)
			}
			continue
		}
		if first < 0 && n > HeaderScan {
			buf, chosen = append(buf[:0], cols), 0
			x.atRow = n
			break
		}
		buf = append(buf, cols)
		if first < 0 {
			first = len(buf) - 1
		}
		if x.probe == nil || x.probe(cols) {
			chosen = len(buf) - 1
		}
	}
	if chosen < 0 {
		if x.hdrRow > 0 && len(x.skip) > 0 {
			x.atRow = x.hdrRow // the sheet ends above its header row
		}
		if first < 0 {
			x.replay = nil
			return
		}
		chosen = first
	}
	if x.atRow == 0 {
		x.atRow = chosen + 1
		if x.hdrRow > 0 {
			x.atRow = x.hdrRow
		} else {
			for r := first; r < chosen; r++ {
				if nonBlank(buf[r]) {
					x.skip = append(x.skip, r+1)
				}
			}
		}
	}
	cols := buf[chosen]
	if len(cols) > x.lim.Columns {
		x.final = &Error{Loc: x.at(x.atRow, ""), Limit: LimitColumns,
			Msg: fmt.Sprintf("header of %d columns, more than the limit of %d", len(cols), x.lim.Columns), Expected: "fewer columns"}
		x.header = []string{} // not nil: the sheet has a header, and Next returns the error
		return
	}
	x.header = cols
	x.replay = append(buf[chosen+1:len(buf):len(buf)], x.replay...)
	x.rowNum = x.atRow
}

func nonBlank(cols []string) bool {
	for _, s := range cols {
		if s != "" {
			return true
		}
	}
	return false
}

// readRow returns the cells of the next sheet row (every row number in
// turn, including rows absent from the file, which are empty), io.EOF, or a
// final *Error.
func (x *xlsxReader) readRow() ([]string, error) {
	if len(x.replay) > 0 {
		cols := x.replay[0]
		x.replay = x.replay[1:]
		x.rowNum++
		return cols, nil
	}
	if !x.rows.Next() {
		if err := x.rows.Error(); err != nil {
			return nil, &Error{Loc: x.at(x.rowNum+1, ""), Msg: "cannot read row: " + err.Error(), Err: err}
		}
		return nil, io.EOF
	}
	x.rowNum++
	cols, err := x.rows.Columns(excelize.Options{RawCellValue: false})
	if err != nil {
		return nil, &Error{Loc: x.at(x.rowNum, ""), Msg: "cannot read row: " + err.Error(), Err: err}
	}
	return cols, nil
}

func (x *xlsxReader) Sheet() Sheet {
	return Sheet{Name: x.loc.Sheet, Header: x.header, HeaderRow: x.atRow, Skipped: x.skip, Hidden: x.hidden}
}

func (x *xlsxReader) Next() ([]Cell, Loc, error) {
	if x.final != nil {
		return nil, Loc{}, x.final
	}
	if x.header == nil {
		x.final = io.EOF // an empty sheet, or its header row (Options.HeaderRow) is blank
		return nil, Loc{}, io.EOF
	}
	if x.blanks.n > 0 {
		return []Cell{}, x.blanks.pop(x.loc), nil // blank: no cells
	}
	if p := x.pend; p != nil {
		x.pend = nil
		return p.row, p.loc, p.err
	}
	for {
		cols, err := x.readRow()
		if err != nil {
			x.final = err // io.EOF drops held-back trailing blank rows
			return nil, Loc{}, err
		}
		if len(cols) == 0 {
			// A row absent from the file (a cell at row 1,048,576 makes a
			// million of them): counted, never built.
			x.blanks.add(x.rowNum, -1)
			continue
		}
		loc := x.at(x.rowNum, "")
		row, err := x.cells(cols, loc)
		if err == nil && rowIsBlank(row) {
			x.blanks.add(loc.Row, -1)
			continue
		}
		if x.blanks.n > 0 {
			x.pend = &pending{row, loc, err}
			return []Cell{}, x.blanks.pop(x.loc), nil // blank: no cells
		}
		return row, loc, err
	}
}

// cells aligns a sheet row with the header. A non-empty cell right of the
// last header column is a recoverable error.
func (x *xlsxReader) cells(cols []string, loc Loc) ([]Cell, error) {
	row := make([]Cell, len(x.header))
	for i, s := range cols {
		if int64(len(s)) > x.lim.CellBytes {
			col, _ := excelize.ColumnNumberToName(i + 1)
			l := loc
			l.Column = col
			if i < len(x.header) && x.header[i] != "" {
				l.Column = x.header[i]
			}
			return nil, &Error{Loc: l, Recoverable: true, Limit: LimitCell, Value: s[:min(len(s), 40)],
				Msg: fmt.Sprintf("cell of %d bytes, longer than the limit of %d", len(s), x.lim.CellBytes), Expected: "a shorter value"}
		}
		if i < len(row) {
			row[i].Text = s
		} else if s != "" {
			col, _ := excelize.ColumnNumberToName(i + 1)
			l := loc
			l.Column = col
			return nil, &Error{Loc: l, Recoverable: true, Value: s,
				Msg:      fmt.Sprintf("value in column %s, right of the last header column", col),
				Expected: "a header name for every column that holds values"}
		}
	}
	return row, nil
}

func (x *xlsxReader) NextSheet() bool {
	if x.file == nil || x.si+1 >= len(x.sheets) {
		return false
	}
	x.openSheet(x.si + 1)
	return true
}

func (x *xlsxReader) Digest() (string, error) { return x.digest, nil }

func (x *xlsxReader) Close() error {
	if x.file == nil {
		return nil
	}
	var err error
	if x.rows != nil {
		err = x.rows.Close()
		x.rows = nil
	}
	if e := x.file.Close(); e != nil && err == nil {
		err = e
	}
	x.file = nil
	x.final = fmt.Errorf("read %s: %w", x.loc.File, errClosed)
	return err
}

// isoDate is the number format of date cells.
const isoDate = "yyyy-mm-dd"

// Number formats of the rewritten style sheet (see isoDates).
const (
	fmtISODate     = 14 // built-in short date, rendered as isoDate
	fmtISODateTime = 22 // built-in date and time, rendered as isoDate hh:mm
	fmtNone        = -1 // no format: the value as stored
)

// isoDates rewrites the in-memory style sheet so that every cell format is
// dropped but a date format, which becomes an ISO date (or date and time).
func isoDates(file *excelize.File) {
	st := file.Styles
	if st == nil {
		return
	}
	custom := map[int]string{}
	if st.NumFmts != nil {
		for _, f := range st.NumFmts.NumFmt {
			if f != nil {
				custom[f.NumFmtID] = f.FormatCode
			}
		}
	}
	if st.CellXfs != nil {
		for i := range st.CellXfs.Xf {
			id := fmtNone
			if p := st.CellXfs.Xf[i].NumFmtID; p != nil {
				id = dateFormat(*p, custom)
			}
			st.CellXfs.Xf[i].NumFmtID = &id
		}
	}
	st.NumFmts = nil
}

// dateFormat returns fmtISODate or fmtISODateTime for a date format id (a
// built-in one or a custom code with a year or day), else fmtNone.
func dateFormat(id int, custom map[int]string) int {
	switch {
	case id >= 14 && id <= 17, id >= 27 && id <= 31, id >= 50 && id <= 58:
		return fmtISODate
	case id == 22:
		return fmtISODateTime
	}
	code, ok := custom[id]
	if !ok {
		return fmtNone
	}
	// Letters outside quotes, brackets and escapes decide.
	var b strings.Builder
	quoted, bracket := false, false
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '[':
			bracket = true
		case c == ']':
			bracket = false
		case bracket:
		case c == '\\' || c == '_' || c == '*':
			i++
		default:
			b.WriteByte(c | 0x20)
		}
	}
	l := b.String()
	if !strings.ContainsAny(l, "yd") {
		return fmtNone
	}
	if strings.ContainsAny(l, "hs") {
		return fmtISODateTime
	}
	return fmtISODate
}
