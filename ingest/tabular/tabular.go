// Package tabular is the lowest layer of ingest: streaming row readers for
// .csv, .jsonl and .xlsx files that present every file as a header plus rows
// of text cells with exact positions, so that the layer above can map columns
// to the study format and report errors that say where.
//
// Every format is read the same way:
//
//	r, err := tabular.Open("study/questions.csv", "questions.csv", tabular.DefaultOptions())
//	if err != nil { … }          // *Error for located problems (empty file, bad header line)
//	defer r.Close()
//	for {                        // one table; for .xlsx, one table per sheet
//		hdr := r.Sheet().Header
//		for {
//			row, loc, err := r.Next()
//			if err == io.EOF { break }
//			var te *tabular.Error
//			if errors.As(err, &te) && te.Recoverable { report(te); continue }
//			if err != nil { return err }
//			… row[i] belongs to column hdr[i] …
//		}
//		if !r.NextSheet() { break }
//	}
//
// What the readers guarantee:
//
//   - Text is kept byte for byte (never trimmed, never re-encoded); the input
//     must be UTF-8 and a bad byte is an *Error with the file's byte offset.
//     One exception comes from encoding/csv: a CRLF inside a quoted CSV
//     field becomes LF.
//   - Numbers come as text in their shortest plain form: JSON 101 → "101",
//     4.0 → "4", 1e3 → "1000", 0.1 → "0.1"; spreadsheet ids stored as the
//     number 101 → "101"; text cells that look like numbers ("007", "4.0")
//     stay exactly as typed. Spreadsheet numbers carry at most 15
//     significant digits, as Excel displays them (see Cell).
//   - The header of a sheet or CSV/TSV file is the first row that is not
//     blank, or the first of its first HeaderScan rows that
//     Options.HeaderProbe accepts, or row Options.HeaderRow (rows above it
//     are skipped, see Sheet.Skipped); blank rows at the end of a table are dropped, a blank row
//     between data rows is returned as all-empty cells. (Empty CSV lines
//     and blank JSONL lines are not rows at all; ",,," and {} are.)
//   - JSONL has no header line: the header is the keys of the first object,
//     extended by keys first seen later (see Sheet.Header).
//   - Row numbers are the ones a user sees: the record number counting the
//     header record as row 1 (CSV), the sheet's row number (XLSX), the line
//     number (JSONL).
//   - Only regular files are read, opened without blocking (a named pipe
//     is an error, not a hang). A UTF-8 byte order mark is skipped in CSV,
//     TSV and JSONL.
//   - Time and memory are bounded by Options.Limits: line and cell length,
//     columns (JSONL keys), and a workbook's unzipped size and ratio, which
//     are checked on the zip directory before anything is inflated. Every
//     part of a workbook is inflated and checked (checksum, XML complete)
//     before excelize reads it, so a sheet cut off at a row boundary is an
//     error rather than a silently short table. Reading a JSONL file is
//     linear in its size whatever the order in which keys appear.
//
// Column names are returned as written; matching them (case-insensitively,
// after trimming spaces, through aliases) is the caller's job.
package tabular

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// Format names used in Loc.Format.
const (
	FormatCSV   = "csv"
	FormatJSONL = "jsonl"
	FormatXLSX  = "xlsx"
	FormatTSV   = "tsv"
	// FormatJSON is a JSON array of records (annotation-platform exports);
	// Row is the record's position in the array, from 1.
	FormatJSON = "json"
)

// Loc is a position in an input file, for error messages.
type Loc struct {
	// File is the display name given to Open (for example "grades/humans/alice.xlsx").
	File string
	// Format is FormatCSV, FormatTSV, FormatJSONL, FormatXLSX or FormatJSON;
	// it decides whether Row is printed as "row", "line" (JSONL) or
	// "record" (JSON).
	Format string
	// Sheet is the worksheet name (XLSX only, else "").
	Sheet string
	// Row is 1-based as a user sees it: CSV, the record number counting the
	// header record as row 1; XLSX, the sheet's row number; JSONL, the line
	// number. 0 means the whole file or sheet.
	Row int
	// Column is the column name as written in the header ("" when the
	// location is a whole row).
	Column string
	// Offset is a byte offset in the file: for rows returned by Next, where
	// the row starts (CSV: the first byte after the previous record; JSONL:
	// the first byte of the line); for encoding and JSON syntax errors, the
	// offending byte; -1 when unknown (always for XLSX, which is
	// compressed).
	Offset int64
}

// String formats the location for people, e.g.
// `grades/humans/alice.xlsx, sheet "Round 1", row 14, column "Reasoning"`.
// Parts that are unknown (no sheet, row 0, no column, offset -1) are left out.
func (l Loc) String() string {
	var b strings.Builder
	b.WriteString(l.File)
	if l.Sheet != "" {
		fmt.Fprintf(&b, ", sheet %q", l.Sheet)
	}
	if l.Row > 0 {
		if l.Format == FormatJSONL {
			fmt.Fprintf(&b, ", line %d", l.Row)
		} else if l.Format == FormatJSON {
			fmt.Fprintf(&b, ", record %d", l.Row)
		} else {
			fmt.Fprintf(&b, ", row %d", l.Row)
		}
	}
	if l.Column != "" {
		fmt.Fprintf(&b, ", column %q", l.Column)
	}
	if l.Offset >= 0 {
		fmt.Fprintf(&b, ", byte %d", l.Offset)
	}
	return b.String()
}

// Cell is one value as text.
//
// JSONL values are converted to text: numbers in their shortest plain form
// (see FormatNumber; integer literals are kept exactly as written), true and
// false as "true" and "false", strings byte for byte, arrays and objects as
// their compact JSON text, and null as Null = true with Text "".
// A key that a JSONL object does not have is an empty cell (Text "", Null
// false), like an empty CSV field.
//
// XLSX cells give the raw value, not the formatted text: text cells byte for
// byte (shared and inline strings, rich text concatenated), number cells in
// Excel's "General" form ("101", "0.5", "4" for 4.0000000000000009: at most
// 15 significant digits, as Excel displays them) whatever number format the
// cell has, booleans as "TRUE"/"FALSE", formula cells their cached value
// ("" when the workbook holds none), error cells their code ("#N/A").
// CSV and XLSX never set Null.
type Cell struct {
	// Text is the value as text ("" for an empty cell).
	Text string
	// Null is true for a JSON null (JSONL only).
	Null bool
}

// Blank reports whether the cell holds no value (empty text or null). Text
// made of spaces is not blank.
func (c Cell) Blank() bool { return c.Text == "" }

// Sheet describes the table a Reader is positioned on.
type Sheet struct {
	// Name is the worksheet name for XLSX, "" for CSV and JSONL.
	Name string
	// Header holds the column names as written (not trimmed; a name may be
	// empty, e.g. for an XLSX table that starts in column B). It is nil for
	// an XLSX sheet without any non-blank row (HeaderRow 0), and for a
	// sheet or CSV/TSV file whose row Options.HeaderRow is blank or beyond
	// its end (HeaderRow set: a mistake to report, not an empty sheet). It
	// is empty but not nil for an XLSX sheet whose header row has more
	// cells than Limits.Columns: Next returns that error. For JSONL it grows while
	// reading: it starts with the keys of the first object in their order
	// and every key first seen on a later line is appended; existing
	// indices never change.
	Header []string
	// HeaderRow is the row number of the header (XLSX: the sheet row;
	// CSV/TSV: the record number; 0 for JSONL).
	HeaderRow int
	// Skipped are the row numbers of the non-blank rows above the header
	// (a title row, notes), which are not read.
	Skipped []int
	// Hidden is true for a worksheet hidden in Excel (it is read all the
	// same); XLSX only.
	Hidden bool
}

// HeaderScan is how many rows of a sheet Options.HeaderProbe looks at.
const HeaderScan = 20

// Reader streams one table at a time. For XLSX each selected sheet is a
// separate table: iterate with NextSheet. A Reader is not safe for
// concurrent use.
type Reader interface {
	// Sheet returns the current table's name and header. For JSONL the
	// header may have grown after a call to Next (see Sheet.Header).
	Sheet() Sheet
	// Next returns the next data row, its location (Row and, for CSV and
	// JSONL, Offset set; Column "") or io.EOF at the end of the table.
	// row[i] is the cell under Header[i]; a row may be shorter than the
	// header (missing trailing cells are empty; JSONL rows returned before
	// the header grew are shorter). Blank rows at the end of the table are
	// skipped; a blank row between data rows is returned as all-empty
	// (XLSX: as a row of no cells, so that the million rows a sheet may
	// skip cost nothing per header column).
	//
	// Errors are *Error values with a Loc. When the *Error's Recoverable is
	// true the problem concerns that row only and Next may be called again
	// to go on with the next row, so that all problems of a file can be
	// listed; any other error is final and Next keeps returning it.
	Next() (row []Cell, loc Loc, err error)
	// NextSheet moves to the next selected sheet of a workbook and reports
	// whether there is one. An error while reading the new sheet's header
	// is returned by the following Next. CSV and JSONL have one table:
	// NextSheet returns false.
	NextSheet() bool
	// Digest returns the hex SHA-256 of the whole file. The file is read
	// once: CSV and JSONL hash the bytes as they are consumed and Digest
	// reads whatever Next has not consumed yet, after which Next returns
	// an error; call it after the last Next. XLSX hashes at Open.
	Digest() (string, error)
	// Close releases the file. It is safe to call more than once.
	Close() error
}

// Options selects what to read. The zero value is valid and means
// DefaultOptions.
type Options struct {
	// SheetInclude lists glob patterns (path.Match syntax, matched
	// case-insensitively, as Excel treats sheet names) of the worksheets to
	// read; a sheet is read if it matches any of them. Empty means ["*"]
	// (every sheet). Used by XLSX only.
	SheetInclude []string
	// SheetExclude lists glob patterns of worksheets to leave out even when
	// included. Default: none. Used by XLSX only.
	SheetExclude []string
	// HeaderProbe, when not nil, tells a header row: the header of a sheet
	// (or CSV/TSV file) is the first non-blank row among its first
	// HeaderScan rows that HeaderProbe accepts (given the row's cells as
	// written), else its first non-blank row. Default nil: the first
	// non-blank row. Not used by JSONL.
	HeaderProbe func(cells []string) bool
	// HeaderRow, when above 0, is the row number of every sheet's header
	// (CSV/TSV: the record number; rows above it are skipped); default 0:
	// see HeaderProbe. Not used by JSONL.
	HeaderRow int
	// Limits bound what one file may hold; a zero field means its default
	// (DefaultLimits).
	Limits Limits
}

// Limits bound what one file may hold, so that a hostile or broken file
// fails fast with a located *Error (its Limit field names the limit)
// instead of exhausting time or memory. Sizes are in bytes; a zero field
// means the default.
type Limits struct {
	// LineBytes is the longest JSONL line or CSV/TSV record; default 64
	// MiB. A longer JSONL line is a recoverable error (the line is skipped
	// without being held in memory); a longer CSV record is a final error.
	LineBytes int64
	// CellBytes is the longest cell; default 16 MiB. A longer cell is a
	// recoverable error.
	CellBytes int64
	// Columns is the most columns of a table (header cells of a CSV/TSV
	// file or sheet; distinct keys of a JSONL file, so also keys of one
	// object); default 2,000.
	Columns int
	// XLSXBytes is the most bytes a workbook may hold unzipped; default 2
	// GiB. The file itself may not be larger either.
	XLSXBytes int64
	// XLSXRatio is the most a workbook may grow when unzipped (unzipped /
	// file size) once it is above 1 MiB unzipped; default 100.
	XLSXRatio float64
	// XLSXStylesBytes is the most bytes of a workbook's style sheet
	// (xl/styles.xml) unzipped; default 16 MiB. excelize parses the
	// whole part into memory, at about ten times its size.
	XLSXStylesBytes int64
	// XLSXStringsBytes is the most bytes of a workbook's shared strings
	// (xl/sharedStrings.xml) unzipped; default 256 MiB.
	XLSXStringsBytes int64
	// XLSXStrings is the most shared strings (si elements) of a workbook;
	// default 2,000,000. excelize holds every one in memory, with a few
	// hundred bytes of bookkeeping each.
	XLSXStrings int64
}

// Names of the limits in Error.Limit.
const (
	LimitLine      = "line_bytes"
	LimitCell      = "cell_bytes"
	LimitColumns   = "columns"
	LimitXLSXBytes = "xlsx_bytes"
	LimitXLSXRatio = "xlsx_ratio"
	LimitStyles    = "xlsx_styles_bytes"
	LimitStrings   = "xlsx_strings_bytes"
	LimitNStrings  = "xlsx_strings"
)

// DefaultLimits returns the default Limits.
func DefaultLimits() Limits {
	return Limits{LineBytes: 64 << 20, CellBytes: 16 << 20, Columns: 2000, XLSXBytes: 2 << 30, XLSXRatio: 100,
		XLSXStylesBytes: 16 << 20, XLSXStringsBytes: 256 << 20, XLSXStrings: 2_000_000}
}

// orDefault fills the zero fields of l with the defaults.
func (l Limits) orDefault() Limits {
	d := DefaultLimits()
	if l.LineBytes <= 0 {
		l.LineBytes = d.LineBytes
	}
	if l.CellBytes <= 0 {
		l.CellBytes = d.CellBytes
	}
	if l.Columns <= 0 {
		l.Columns = d.Columns
	}
	if l.XLSXBytes <= 0 {
		l.XLSXBytes = d.XLSXBytes
	}
	if !(l.XLSXRatio > 0) {
		l.XLSXRatio = d.XLSXRatio
	}
	if l.XLSXStylesBytes <= 0 {
		l.XLSXStylesBytes = d.XLSXStylesBytes
	}
	if l.XLSXStringsBytes <= 0 {
		l.XLSXStringsBytes = d.XLSXStringsBytes
	}
	if l.XLSXStrings <= 0 {
		l.XLSXStrings = d.XLSXStrings
	}
	return l
}

// DefaultOptions returns the default Options: every sheet included, none
// excluded, the default limits.
func DefaultOptions() Options {
	return Options{SheetInclude: []string{"*"}, Limits: DefaultLimits()}
}

// Error is a located problem in an input file. Its message names the file,
// sheet, row and column, the value found and what was expected.
type Error struct {
	// Loc says where.
	Loc Loc
	// Value is the offending value as found ("" when there is none to show).
	Value string
	// Expected says what was expected ("" when the message says it all).
	Expected string
	// Msg says what is wrong, lower-case, without location.
	Msg string
	// Recoverable is true when the problem concerns one row and reading can
	// go on with the next row.
	Recoverable bool
	// Err is the underlying error, if any (for errors.Is / errors.As).
	Err error
	// Limit names the limit exceeded (LimitLine, LimitCell, …), "" when
	// the problem is not a limit.
	Limit string
}

// Error formats the problem as `LOC: MSG: found "VALUE", expected EXPECTED`.
// Long values are shortened to their first 80 characters.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Loc.String())
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Value != "" {
		b.WriteString(": found ")
		b.WriteString(quoteShort(e.Value, 80))
	}
	if e.Expected != "" {
		if e.Value != "" {
			b.WriteString(", expected ")
		} else {
			b.WriteString(": expected ")
		}
		b.WriteString(e.Expected)
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// quoteShort quotes s with %q, cut to at most n runes (bytes for invalid
// UTF-8) with "…" appended when cut.
func quoteShort(s string, n int) string {
	if len(s) <= n {
		return strconv.Quote(s)
	}
	cut := 0
	for i := range s {
		if i > n {
			break
		}
		cut = i
	}
	if cut == 0 {
		cut = n
	}
	return strconv.Quote(s[:cut]) + "…"
}

// ErrEmptyFile is wrapped by the *Error returned when a file holds no header
// at all (0 bytes, or only blank lines).
var ErrEmptyFile = errors.New("empty file")

// Open opens path for reading as a table, choosing the format by extension
// (.csv, .tsv, .jsonl, .xlsx; case-insensitive; .tsv is CSV with tabs
// between fields). Only a regular file is read: anything else (a named
// pipe, a device, a socket) is an error found without blocking. displayName is what error
// locations show as the file (typically the path relative to the study
// folder). Open reads the header: for CSV the header record (see
// Options.HeaderProbe and HeaderRow), for JSONL the first object (a bad first line is an error from Open), for XLSX
// the first non-blank row of the first selected sheet (a problem there is
// returned by the first Next, as for later sheets). Located problems are
// returned as *Error: an empty file (wrapping ErrEmptyFile), a workbook
// that cannot be read, no selected sheet (wrapping ErrNoSheet).
func Open(path, displayName string, opt Options) (Reader, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".csv", ".tsv", ".jsonl", ".xlsx":
	default:
		return nil, fmt.Errorf("open %s: unsupported file type %q (want .csv, .tsv, .jsonl or .xlsx)", displayName, ext)
	}
	if err := checkPatterns(opt); err != nil {
		return nil, fmt.Errorf("open %s: %w", displayName, err)
	}
	opt.Limits = opt.Limits.orDefault()
	f, err := OpenRegular(path)
	if err != nil {
		return nil, &Error{Loc: Loc{File: displayName, Format: strings.TrimPrefix(ext, "."), Offset: -1}, Msg: err.Error(), Err: err,
			Expected: "a regular, readable file"}
	}
	var r Reader
	switch ext {
	case ".csv", ".tsv":
		r, err = newCSVReader(f, displayName, ext == ".tsv", opt)
	case ".jsonl":
		r, err = newJSONLReader(f, displayName, opt.Limits)
	default:
		r, err = newXLSXReader(f, displayName, opt)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

// checkPatterns validates the sheet patterns.
func checkPatterns(opt Options) error {
	for _, p := range append(append([]string(nil), opt.SheetInclude...), opt.SheetExclude...) {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("sheet pattern %q: %w", p, err)
		}
	}
	return nil
}

// sheetSelected reports whether a sheet name passes the include/exclude
// patterns (case-insensitive).
func sheetSelected(name string, opt Options) bool {
	lname := strings.ToLower(name)
	match := func(pats []string) bool {
		for _, p := range pats {
			if ok, _ := path.Match(strings.ToLower(p), lname); ok {
				return true
			}
		}
		return false
	}
	inc := opt.SheetInclude
	if len(inc) == 0 {
		inc = []string{"*"}
	}
	return match(inc) && !match(opt.SheetExclude)
}

// rowIsBlank reports whether every cell of a row is empty.
func rowIsBlank(row []Cell) bool {
	for _, c := range row {
		if c.Text != "" {
			return false
		}
	}
	return true
}

// blankRun is a run of consecutive blank rows held back until a non-blank
// row shows that they are not trailing. It stores a range, not the rows, so
// a sheet with a million empty rows costs nothing.
type blankRun struct {
	n        int   // rows still held back
	firstRow int   // row number of the first held-back row
	offset   int64 // file offset of the first held-back row (-1: unknown)
}

// add records one more blank row at row number row (offset of the first
// one only).
func (b *blankRun) add(row int, offset int64) {
	if b.n == 0 {
		b.firstRow, b.offset = row, offset
	}
	b.n++
}

// pop returns the location of the next held-back blank row.
func (b *blankRun) pop(base Loc) Loc {
	base.Row = b.firstRow
	base.Offset = b.offset
	b.firstRow++
	b.offset = -1
	b.n--
	return base
}

// isRecoverable reports whether err is a *Error about one row only.
func isRecoverable(err error) bool {
	var te *Error
	return errors.As(err, &te) && te.Recoverable
}

// errReaderDone is returned by Next after Digest consumed the rest of the file.
var errReaderDone = errors.New("reader already drained by Digest")

// errClosed is returned by Next after Close.
var errClosed = errors.New("reader is closed")

// ioErr makes a final *Error from an I/O failure.
func ioErr(loc Loc, what string, err error) *Error {
	return &Error{Loc: loc, Msg: what + ": " + err.Error(), Err: err}
}

// ErrNotRegular is wrapped by the error of OpenRegular for anything but a
// regular file.
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens path for reading if it is a regular file. It never
// blocks: the file is opened without waiting (O_NONBLOCK, so a named pipe
// with no writer does not hang) and its type is checked on the open file
// before anything is read.
func OpenRegular(path string) (*os.File, error) {
	f, err := openNoBlock(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%w (%s)", ErrNotRegular, fi.Mode().Type())
	}
	return f, nil
}

// Invisible reports whether r is a control character (C0, DEL, C1) or an
// invisible format character (Unicode category Cf: zero-width spaces and
// joiners, bidirectional controls, the byte order mark). Such characters
// are not accepted in ids and names: two ids that print alike would be
// different ids.
func Invisible(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}
