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
// most 15 significant digits ("101", "0.5", "4"), as Excel shows it.
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
	blanks blankRun
	pend   *pending
	final  error // per sheet: io.EOF or a final error
}

func newXLSXReader(f *os.File, name string, opt Options) (*xlsxReader, error) {
	x := &xlsxReader{loc: Loc{File: name, Format: FormatXLSX, Offset: -1}, lim: opt.Limits}
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
		UnzipSizeLimit: unzipped + 1, // checkZip enforced the limits on the same bytes
	})
	if err != nil {
		return nil, &Error{Loc: x.loc, Msg: "cannot read workbook: " + err.Error(), Err: err,
			Expected: "an .xlsx workbook (Excel 2007 or later, not password-protected)"}
	}
	x.file = file
	if file.Styles != nil {
		file.Styles.CellXfs = nil // see the type comment: no number formats
	}
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

// openSheet positions the reader on sheet i and reads its header (the first
// non-blank row). A sheet without any non-blank row has a nil header.
func (x *xlsxReader) openSheet(i int) {
	if x.rows != nil {
		x.rows.Close()
		x.rows = nil
	}
	x.si, x.rowNum, x.header, x.blanks, x.pend, x.final = i, 0, nil, blankRun{}, nil, nil
	x.loc.Sheet = x.sheets[i]
	rows, err := x.file.Rows(x.sheets[i])
	if err != nil {
		x.final = &Error{Loc: x.at(0, ""), Msg: "cannot read sheet: " + err.Error(), Err: err}
		return
	}
	x.rows = rows
	for {
		cols, err := x.readRow()
		if err != nil {
			x.final = err
			return
		}
		for _, s := range cols {
			if s != "" {
				if len(cols) > x.lim.Columns {
					x.final = &Error{Loc: x.at(x.rowNum, ""), Limit: LimitColumns,
						Msg: fmt.Sprintf("header of %d columns, more than the limit of %d", len(cols), x.lim.Columns), Expected: "fewer columns"}
					return
				}
				x.header = cols
				return
			}
		}
	}
}

// readRow returns the cells of the next sheet row (every row number in
// turn, including rows absent from the file, which are empty), io.EOF, or a
// final *Error.
func (x *xlsxReader) readRow() ([]string, error) {
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

func (x *xlsxReader) Sheet() Sheet { return Sheet{Name: x.loc.Sheet, Header: x.header} }

func (x *xlsxReader) Next() ([]Cell, Loc, error) {
	if x.final != nil {
		return nil, Loc{}, x.final
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
