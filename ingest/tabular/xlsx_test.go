package tabular

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/xuri/excelize/v2"
)

// sheetRows reads every selected sheet: name → header and rows.
type sheetRows struct {
	Name   string
	Header []string
	Rows   []gotRow
}

func readSheets(t *testing.T, r Reader) []sheetRows {
	t.Helper()
	var out []sheetRows
	for {
		sh := r.Sheet()
		out = append(out, sheetRows{sh.Name, sh.Header, readAll(t, r)})
		if !r.NextSheet() {
			return out
		}
	}
}

func checkSheets(t *testing.T, got, want []sheetRows) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d sheets, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].Name != want[i].Name || !equalStrings(got[i].Header, want[i].Header) {
			t.Errorf("sheet %d: got %q %q, want %q %q", i, got[i].Name, got[i].Header, want[i].Name, want[i].Header)
		}
		checkRows(t, got[i].Rows, want[i].Rows)
	}
}

func TestXLSXExcelLike(t *testing.T) {
	// excel_like.xlsx is written by testdata/xlsx/make_fixtures.py as the XML
	// Excel writes; the expected values are read off that XML.
	r := openT(t, "testdata/xlsx/excel_like.xlsx", Options{})
	checkSheets(t, readSheets(t, r), []sheetRows{
		{"Alice", []string{"question_id", "label", "Reasoning", "comment", "met"}, []gotRow{
			// <v>101</v>; shared "007"; <v>4.0000000000000009</v> shown as 4;
			// shared " Good, " untouched; boolean 1.
			{2, -1, texts("101", "007", "4", " Good, ", "TRUE")},
			// text-formatted shared "007"; shared "4.0" stays text; formula
			// 2+3 with cached <v>5</v>; rich text runs joined; error cell.
			{3, -1, texts("007", "4.0", "5", "bold part", "#N/A")},
			// row 4 is absent from the XML: a blank row between data rows.
			{4, -1, []Cell{}},
			// 3.5 with format "0.00" and 0.25 with "0%" give the raw numbers;
			// inline string; <v>1E-3</v>. Rows 6-7 are styled but empty:
			// trailing, dropped.
			{5, -1, texts("3.5", "0.25", "inline text", "0.001", "")},
		}},
		// Header in row 3 starting at column B; <v>102.0</v>; formula without
		// a cached value is empty.
		{"Bob", []string{"", "question_id", "Reasoning"}, []gotRow{
			{4, -1, texts("", "102", "")},
		}},
	})
	checkDigest(t, r, "testdata/xlsx/excel_like.xlsx")
}

func TestXLSXOpenpyxl(t *testing.T) {
	// openpyxl.xlsx is written by openpyxl 3.0.9 (make_fixtures.py).
	r := openT(t, "testdata/xlsx/openpyxl.xlsx", Options{})
	checkSheets(t, readSheets(t, r), []sheetRows{
		{"Round 1", []string{"question_id", "model", "Reasoning", "comment", "code"}, []gotRow{
			{2, -1, texts("101", "A", "4", "  kept as is  ", "007")},
			{3, -1, texts("102", "B", "4", "line1\nline2", "4.0")},
			{4, -1, texts("103", "C", "0.5", "", "")},
		}},
		{"Notes", []string{"note"}, []gotRow{{2, -1, texts("hello")}}},
	})
	checkDigest(t, r, "testdata/xlsx/openpyxl.xlsx")
}

// writeWorkbook builds a workbook with excelize and saves it under dir.
func writeWorkbook(t *testing.T, dir string) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.SetSheetName("Sheet1", "Round 1"))
	_, err := f.NewSheet("Round 2")
	must(err)
	_, err = f.NewSheet("Notes")
	must(err)
	_, err = f.NewSheet("Empty")
	must(err)
	set := func(sheet, cell string, v any) { t.Helper(); must(f.SetCellValue(sheet, cell, v)) }
	for i, h := range []string{"question_id", "model", "Reasoning"} {
		c, _ := excelize.CoordinatesToCellName(i+1, 1)
		set("Round 1", c, h)
		set("Round 2", c, h)
	}
	set("Round 1", "A2", 101)
	set("Round 1", "B2", "  m1 ")
	set("Round 1", "C2", 4.0)
	set("Round 1", "A3", "007")
	set("Round 1", "B3", true)
	// 11/3 with all 17 digits (SetCellValue would truncate it to 15 on
	// writing; precision 16 after the point writes "3.6666666666666665").
	must(f.SetCellFloat("Round 1", "C3", 11.0/3, 16, 64))
	// row 4 left empty: a blank row between data rows
	set("Round 1", "A5", 0.1)
	set("Round 1", "C5", "4")
	set("Round 1", "E5", "stray") // right of the header
	set("Round 1", "A6", 3.5)
	set("Round 1", "B6", 0.25)
	must(f.SetCellFormula("Round 1", "C6", "=1+2"))
	fixed, err := f.NewStyle(&excelize.Style{NumFmt: 2}) // 0.00
	must(err)
	pct, err := f.NewStyle(&excelize.Style{CustomNumFmt: ptr("0.0%")})
	must(err)
	must(f.SetCellStyle("Round 1", "A6", "A6", fixed))
	must(f.SetCellStyle("Round 1", "B6", "B6", pct))
	must(f.SetCellStyle("Round 1", "A9", "C9", fixed)) // styled, empty: trailing
	set("Round 2", "A2", 102)
	set("Notes", "A1", "note")
	p := filepath.Join(dir, "gen.xlsx")
	must(f.SaveAs(p))
	return p
}

func ptr[T any](v T) *T { return &v }

func TestXLSXGenerated(t *testing.T) {
	p := writeWorkbook(t, t.TempDir())
	r := openT(t, p, Options{})
	sh := r.Sheet()
	if sh.Name != "Round 1" || !equalStrings(sh.Header, []string{"question_id", "model", "Reasoning"}) {
		t.Fatalf("first sheet: got %q %q", sh.Name, sh.Header)
	}
	var got []gotRow
	for {
		row, loc, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			// The stray value in E5 is the only error.
			checkErr(t, err, `gen.xlsx, sheet "Round 1", row 5, column "E"`, `found "stray"`, true)
			continue
		}
		got = append(got, gotRow{loc.Row, loc.Offset, row})
	}
	checkRows(t, got, []gotRow{
		{2, -1, texts("101", "  m1 ", "4")},
		// 3.6666666666666665 is shown with Excel's 15 significant digits,
		// rounded: 3.66666666666667.
		{3, -1, texts("007", "TRUE", "3.66666666666667")},
		{4, -1, []Cell{}},
		// number formats 0.00 and 0.0% are ignored; a formula without a
		// cached value (excelize does not calculate) is empty.
		{6, -1, texts("3.5", "0.25", "")},
	})
	if !r.NextSheet() || r.Sheet().Name != "Round 2" {
		t.Fatalf("second sheet: got %q", r.Sheet().Name)
	}
	checkRows(t, readAll(t, r), []gotRow{{2, -1, texts("102", "", "")}})
	if !r.NextSheet() || r.Sheet().Name != "Notes" {
		t.Fatalf("third sheet: got %q", r.Sheet().Name)
	}
	if rows := readAll(t, r); len(rows) != 0 || !equalStrings(r.Sheet().Header, []string{"note"}) {
		t.Errorf("Notes: header %q, rows %+v", r.Sheet().Header, rows)
	}
	if !r.NextSheet() || r.Sheet().Name != "Empty" || r.Sheet().Header != nil {
		t.Fatalf("fourth sheet: got %q %q", r.Sheet().Name, r.Sheet().Header)
	}
	if _, _, err := r.Next(); err != io.EOF {
		t.Errorf("empty sheet: got %v, want io.EOF", err)
	}
	if r.NextSheet() {
		t.Error("NextSheet after the last sheet returned true")
	}
	// The digest is the file's.
	want, _ := SHA256File(p)
	if d, _ := r.Digest(); d != want {
		t.Errorf("Digest: got %s, want %s", d, want)
	}
}

func TestXLSXSheetSelection(t *testing.T) {
	p := writeWorkbook(t, t.TempDir())
	tests := []struct {
		opt  Options
		want []string
	}{
		{Options{}, []string{"Round 1", "Round 2", "Notes", "Empty"}},
		{DefaultOptions(), []string{"Round 1", "Round 2", "Notes", "Empty"}},
		{Options{SheetInclude: []string{"round*"}}, []string{"Round 1", "Round 2"}},
		{Options{SheetInclude: []string{"Round ?"}, SheetExclude: []string{"*2"}}, []string{"Round 1"}},
		{Options{SheetExclude: []string{"Notes", "EMPTY"}}, []string{"Round 1", "Round 2"}},
	}
	for _, tt := range tests {
		r, err := Open(p, "gen.xlsx", tt.opt)
		if err != nil {
			t.Fatalf("%+v: %v", tt.opt, err)
		}
		var names []string
		for {
			names = append(names, r.Sheet().Name)
			if !r.NextSheet() {
				break
			}
		}
		r.Close()
		if !equalStrings(names, tt.want) {
			t.Errorf("%+v: got %q, want %q", tt.opt, names, tt.want)
		}
	}
	_, err := Open(p, "gen.xlsx", Options{SheetInclude: []string{"Round*"}, SheetExclude: []string{"Round*"}})
	checkErr(t, err, "gen.xlsx", `no sheet selected`, false)
	if !errors.Is(err, ErrNoSheet) {
		t.Errorf("error %v does not wrap ErrNoSheet", err)
	}
}

func TestXLSXNotAWorkbook(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.xlsx")
	if err := os.WriteFile(p, []byte("question_id,model\n1,a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(p, "grades/bad.xlsx", Options{})
	checkErr(t, err, "grades/bad.xlsx", "cannot read workbook", false)
}

func TestXLSXManyRows(t *testing.T) {
	// 100 000 rows written with excelize's StreamWriter, read back in order.
	const n = 100000
	f := excelize.NewFile()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	if err := sw.SetRow("A1", []any{"id", "score"}); err != nil {
		t.Fatal(err)
	}
	for i := 2; i <= n+1; i++ {
		c, _ := excelize.CoordinatesToCellName(1, i)
		if err := sw.SetRow(c, []any{i, float64(i) / 4}); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "many.xlsx")
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r := openT(t, p, Options{})
	count := 0
	for {
		row, loc, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		count++
		i := count + 1
		if loc.Row != i || row[0].Text != fmtInt(i) {
			t.Fatalf("row %d: got %+v at %v", i, row, loc)
		}
	}
	if count != n {
		t.Errorf("got %d rows, want %d", count, n)
	}
}

func fmtInt(i int) string { return FormatNumber(float64(i)) }
