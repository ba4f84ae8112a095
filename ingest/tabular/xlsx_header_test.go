package tabular

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// titledWorkbook writes a sheet with a merged title in row 1, a note in
// row 2, the header in row 4 and two data rows, plus a sheet whose
// header is past row 20.
func titledWorkbook(t *testing.T) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	set := func(sheet, cell string, v any) {
		t.Helper()
		if err := f.SetCellValue(sheet, cell, v); err != nil {
			t.Fatal(err)
		}
	}
	f.SetSheetName("Sheet1", "Finance")
	set("Finance", "A1", "Expert grading — Finance")
	if err := f.MergeCell("Finance", "A1", "D1"); err != nil {
		t.Fatal(err)
	}
	set("Finance", "A2", "graded by Alice")
	for i, h := range []string{"Question ID", "Model", "Score", "Notes"} {
		c, _ := excelize.CoordinatesToCellName(i+1, 4)
		set("Finance", c, h)
	}
	for r, row := range [][]any{{"q1", "m1", 4, "ok"}, {"q2", "m2", 3, ""}} {
		for i, v := range row {
			c, _ := excelize.CoordinatesToCellName(i+1, r+5)
			set("Finance", c, v)
		}
	}
	if _, err := f.NewSheet("Late"); err != nil {
		t.Fatal(err)
	}
	set("Late", "A3", "a title")
	set("Late", "A25", "Question ID")
	set("Late", "A26", "q9")
	p := filepath.Join(t.TempDir(), "alice.xlsx")
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestXLSXHeaderProbe(t *testing.T) {
	p := titledWorkbook(t)
	probe := func(cells []string) bool { return slices.Contains(cells, "Question ID") }
	for _, tc := range []struct {
		name       string
		opt        Options
		wantHdr    []string
		wantAt     int
		wantSkip   []int
		wantRows   []int
		wantFirst  string
		lateHeader string
		lateAt     int
	}{
		{"probe", Options{HeaderProbe: probe}, []string{"Question ID", "Model", "Score", "Notes"}, 4, []int{1, 2}, []int{5, 6}, "q1", "a title", 3},
		{"no probe: first non-blank row", Options{}, []string{"Expert grading — Finance"}, 1, nil, []int{2, 3, 4, 5, 6}, "graded by Alice", "a title", 3},
		// Late's row 4 is blank: no header, HeaderRow 4 (a mistake to report)
		{"header_row", Options{HeaderRow: 4}, []string{"Question ID", "Model", "Score", "Notes"}, 4, []int{1, 2}, []int{5, 6}, "q1", "", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Open(p, "alice.xlsx", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			sh := r.Sheet()
			if !slices.Equal(sh.Header, tc.wantHdr) || sh.HeaderRow != tc.wantAt || !slices.Equal(sh.Skipped, tc.wantSkip) {
				t.Errorf("header %q at row %d, skipped %v; want %q at %d, skipped %v", sh.Header, sh.HeaderRow, sh.Skipped, tc.wantHdr, tc.wantAt, tc.wantSkip)
			}
			var rows []int
			first := ""
			for {
				cells, loc, err := r.Next()
				if te, ok := err.(*Error); ok && te.Recoverable {
					loc = te.Loc // a value right of a one-column header
				} else if err != nil {
					break
				}
				if len(cells) > 0 && first == "" {
					first = cells[0].Text
				}
				rows = append(rows, loc.Row)
			}
			if !slices.Equal(rows, tc.wantRows) || first != tc.wantFirst {
				t.Errorf("rows %v, first cell %q; want %v, %q", rows, first, tc.wantRows, tc.wantFirst)
			}
			if !r.NextSheet() {
				t.Fatal("no second sheet")
			}
			late := r.Sheet()
			got := ""
			if len(late.Header) > 0 {
				got = late.Header[0]
			}
			if got != tc.lateHeader || late.HeaderRow != tc.lateAt {
				t.Errorf("sheet Late: header %q at row %d; want %q at %d", got, late.HeaderRow, tc.lateHeader, tc.lateAt)
			}
		})
	}
}

func TestXLSXDates(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	dateStyle, _ := f.NewStyle(&excelize.Style{NumFmt: 14})
	custom := "dd/mm/yyyy"
	customStyle, _ := f.NewStyle(&excelize.Style{CustomNumFmt: &custom})
	timeCustom := `d mmm yyyy "at" hh:mm`
	dtStyle, _ := f.NewStyle(&excelize.Style{CustomNumFmt: &timeCustom})
	pct, _ := f.NewStyle(&excelize.Style{NumFmt: 10})
	money := `"$"#,##0.00`
	moneyStyle, _ := f.NewStyle(&excelize.Style{CustomNumFmt: &money})
	textStyle, _ := f.NewStyle(&excelize.Style{NumFmt: 14})
	cells := []struct {
		v     any
		style int
		want  string
	}{
		{45641, dateStyle, "2024-12-15"},
		{45641, customStyle, "2024-12-15"},
		{45641.5, dtStyle, "2024-12-15 12:00"},
		{0.25, pct, "0.25"},
		{1234.5, moneyStyle, "1234.5"},
		{"15/12/2024 typed", textStyle, "15/12/2024 typed"},
		{45641, 0, "45641"},
	}
	hdr := make([]string, len(cells))
	for i, c := range cells {
		hdr[i] = fmt.Sprintf("c%d", i)
		a, _ := excelize.CoordinatesToCellName(i+1, 1)
		b, _ := excelize.CoordinatesToCellName(i+1, 2)
		f.SetCellValue("Sheet1", a, hdr[i])
		f.SetCellValue("Sheet1", b, c.v)
		if c.style != 0 {
			f.SetCellStyle("Sheet1", b, b, c.style)
		}
	}
	p := filepath.Join(t.TempDir(), "d.xlsx")
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	r, err := Open(p, "d.xlsx", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	row, _, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cells {
		if got := row[i].Text; got != c.want {
			t.Errorf("%v with style %d: got %q, want %q", c.v, c.style, got, c.want)
		}
	}
}

// TestCSVHeader: a CSV or TSV file's header is found like a sheet's: the
// first of the first HeaderScan records the probe accepts (records above
// it skipped), else the first non-blank one; Options.HeaderRow names it;
// a blank header row gives no header and its row number.
func TestCSVHeader(t *testing.T) {
	probe := func(cells []string) bool { return slices.Contains(cells, "question_id") }
	titled := "Grades of Alice\n,,\nquestion_id,score\nq1,4\n,\nq2,3\n"
	late := strings.Repeat("note\n", 21) + "question_id,score\nq1,4\n"
	for _, tc := range []struct {
		name, content string
		tsv           bool
		opt           Options
		wantHdr       []string
		wantAt        int
		wantSkip      []int
		wantRows      []int // row numbers of the non-blank data rows
		wantFirst     string
	}{
		{"probe", titled, false, Options{HeaderProbe: probe}, []string{"question_id", "score"}, 3, []int{1}, []int{4, 6}, "q1"},
		{"tsv probe", strings.ReplaceAll(titled, ",", "\t"), true, Options{HeaderProbe: probe}, []string{"question_id", "score"}, 3, []int{1}, []int{4, 6}, "q1"},
		{"no probe: first non-blank record", titled, false, Options{}, []string{"Grades of Alice"}, 1, nil, nil, "-"},
		{"probe accepts none: first non-blank record", "\ntitle,x\nq1,4\n", false, Options{HeaderProbe: probe}, []string{"title", "x"}, 1, nil, []int{2}, "q1"},
		{"header past the first 20 records: first non-blank", late, false, Options{HeaderProbe: probe}, []string{"note"}, 1, nil, nil, "-"},
		{"header_row", titled, false, Options{HeaderRow: 3}, []string{"question_id", "score"}, 3, []int{1}, []int{4, 6}, "q1"},
		{"header_row blank", titled, false, Options{HeaderRow: 2}, nil, 2, []int{1}, nil, ""},
		{"header_row past the end", titled, false, Options{HeaderRow: 40}, nil, 40, []int{1, 3, 4, 6}, nil, ""},
		{"header at the top", "question_id,score\nq1,4\n", false, Options{HeaderProbe: probe}, []string{"question_id", "score"}, 1, nil, []int{2}, "q1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := "g.csv"
			if tc.tsv {
				name = "g.tsv"
			}
			p := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(p, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := Open(p, name, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			sh := r.Sheet()
			if !slices.Equal(sh.Header, tc.wantHdr) || sh.HeaderRow != tc.wantAt || !slices.Equal(sh.Skipped, tc.wantSkip) {
				t.Errorf("header %q at row %d, skipped %v; want %q at %d, skipped %v", sh.Header, sh.HeaderRow, sh.Skipped, tc.wantHdr, tc.wantAt, tc.wantSkip)
			}
			if sh.Header == nil || tc.wantFirst == "-" {
				return
			}
			var rows []int
			first := ""
			for {
				row, loc, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if rowIsBlank(row) {
					continue
				}
				if first == "" {
					first = row[0].Text
				}
				rows = append(rows, loc.Row)
			}
			if !slices.Equal(rows, tc.wantRows) || first != tc.wantFirst {
				t.Errorf("data rows %v, first %q; want %v, %q", rows, first, tc.wantRows, tc.wantFirst)
			}
		})
	}
}
