package tabular

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// gotRow is one result of Next, flattened for comparison.
type gotRow struct {
	Row    int
	Offset int64
	Cells  []Cell
}

// texts builds cells from text values.
func texts(s ...string) []Cell {
	c := make([]Cell, len(s))
	for i, v := range s {
		c[i].Text = v
	}
	return c
}

// openT opens a fixture or fails the test.
func openT(t *testing.T, path string, opt Options) Reader {
	t.Helper()
	r, err := Open(path, filepath.Base(path), opt)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// readAll reads the current table to io.EOF; it fails on any error.
func readAll(t *testing.T, r Reader) []gotRow {
	t.Helper()
	var out []gotRow
	for i := 0; i < 1000; i++ {
		row, loc, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		out = append(out, gotRow{loc.Row, loc.Offset, row})
	}
	t.Fatal("Next never returned io.EOF")
	return nil
}

// checkRows compares rows with got/want output.
func checkRows(t *testing.T, got, want []gotRow) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d rows, want %d:\ngot  %+v\nwant %+v", len(got), len(want), got, want)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("row %d:\ngot  %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

// checkErr checks that err is a *Error at the given location whose message
// contains msg and whose recoverability is as expected.
func checkErr(t *testing.T, err error, loc, msg string, recoverable bool) *Error {
	t.Helper()
	var te *Error
	if !errors.As(err, &te) {
		t.Fatalf("got error %v (%T), want *Error at %s", err, err, loc)
	}
	if got := te.Loc.String(); got != loc {
		t.Errorf("error location: got %q, want %q", got, loc)
	}
	if !strings.Contains(te.Error(), msg) {
		t.Errorf("error message %q does not contain %q", te.Error(), msg)
	}
	if !strings.HasPrefix(te.Error(), loc+": ") {
		t.Errorf("error message %q does not start with its location", te.Error())
	}
	if te.Recoverable != recoverable {
		t.Errorf("%v: Recoverable = %v, want %v", te, te.Recoverable, recoverable)
	}
	return te
}

func TestLocString(t *testing.T) {
	tests := []struct {
		loc  Loc
		want string
	}{
		{Loc{File: "grades/humans/alice.xlsx", Format: FormatXLSX, Sheet: "Round 1", Row: 14, Column: "Reasoning", Offset: -1},
			`grades/humans/alice.xlsx, sheet "Round 1", row 14, column "Reasoning"`},
		{Loc{File: "q.csv", Format: FormatCSV, Row: 3, Offset: 120}, `q.csv, row 3, byte 120`},
		{Loc{File: "r.jsonl", Format: FormatJSONL, Row: 7, Column: "text", Offset: 0}, `r.jsonl, line 7, column "text", byte 0`},
		{Loc{File: "e.csv", Format: FormatCSV, Offset: -1}, `e.csv`},
	}
	for _, tt := range tests {
		if got := tt.loc.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

func TestErrorMessage(t *testing.T) {
	e := &Error{Loc: Loc{File: "a.xlsx", Sheet: "S", Row: 4, Column: "Reasoning", Offset: -1},
		Msg: "not an integer", Value: "4.5", Expected: "an integer from 1 to 5"}
	want := `a.xlsx, sheet "S", row 4, column "Reasoning": not an integer: found "4.5", expected an integer from 1 to 5`
	if got := e.Error(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	long := &Error{Loc: Loc{File: "a.csv", Offset: -1}, Msg: "bad", Value: strings.Repeat("x", 100)}
	if got, want := long.Error(), `a.csv: bad: found "`+strings.Repeat("x", 80)+`"…`; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestOpenUnsupported(t *testing.T) {
	_, err := Open("testdata/make_fixtures.txt", "x.txt", Options{})
	if err == nil || !strings.Contains(err.Error(), "unsupported file type") {
		t.Errorf("got %v, want unsupported file type", err)
	}
	_, err = Open("testdata/csv/nope.CSV", "nope.CSV", Options{})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("got %v, want not-exist error", err)
	}
	_, err = Open("testdata/xlsx/excel_like.xlsx", "x.xlsx", Options{SheetInclude: []string{"["}})
	if err == nil || !strings.Contains(err.Error(), "sheet pattern") {
		t.Errorf("got %v, want bad pattern error", err)
	}
}
