package xlsx

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	pathpkg "path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/internal/reporttest"
)

// TestPrintLayout: what each table sheet prints, by its size. Up to
// OnePageRows (60) rows, all of it; above, nothing (a print area of one
// empty cell right of the table) while the sheet keeps every row, and the
// About sheet says so; the Summary its first 60 rows. Up to FitColumns
// (21) columns one page across, above ceil(ncol/14) pages with column A
// repeated.
func TestPrintLayout(t *testing.T) {
	table := func(name string, ncol, nrow int) *report.Table {
		tb := &report.Table{Name: name}
		for j := 0; j < ncol; j++ {
			tb.Columns = append(tb.Columns, report.Column{Name: fmt.Sprintf("c%d", j+1), Kind: report.Int})
		}
		for i := 0; i < nrow; i++ {
			row := make([]any, ncol)
			for j := range row {
				row[j] = int64(i)
			}
			tb.Rows = append(tb.Rows, row)
		}
		return tb
	}
	tests := []struct {
		name       string
		ncol, nrow int
		area       string // the print area, "" for none
		across     int    // pages across
		titles     string // the print titles
		printed    string // About's Printed column
	}{
		{"short", 5, 10, "", 1, "'short'!$1:$2", "yes"},
		{"edge", 5, 60, "", 1, "'edge'!$1:$2", "yes"},
		{"long", 5, 61, "'long'!$G$1", 1, "'long'!$1:$2", "no: 61 rows (all on the sheet and in tables/long.csv)"},
		{"wide21", 21, 3, "", 1, "'wide21'!$1:$2", "yes"},
		{"wide22", 22, 3, "", 2, "'wide22'!$A:$A,'wide22'!$1:$2", "yes"},
		{"wide43", 43, 3, "", 4, "'wide43'!$A:$A,'wide43'!$1:$2", "yes"},
		{"summary", 3, 70, "'Summary'!$A$1:$C$62", 1, "'Summary'!$1:$2", "first 60 of 70 rows (all on the sheet and in tables/summary.csv)"},
	}
	r := &report.Report{}
	for _, tc := range tests {
		r.Tables = append(r.Tables, table(tc.name, tc.ncol, tc.nrow))
	}
	p := filepath.Join(t.TempDir(), "print.xlsx")
	if err := Write(context.Background(), p, r, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names := map[string]string{}
	for _, n := range f.GetDefinedName() {
		names[n.Scope+" "+n.Name] = n.RefersTo
	}
	about, err := f.GetRows(SheetAbout)
	if err != nil {
		t.Fatal(err)
	}
	printed := map[string]string{}
	for _, row := range about {
		if len(row) == 5 && strings.HasPrefix(row[1], "tables/") {
			printed[row[0]] = row[4]
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sheet := tc.name
			if sheet == "summary" {
				sheet = SheetSummary
			}
			if got := names[sheet+" _xlnm.Print_Area"]; got != tc.area {
				t.Errorf("print area %q, want %q", got, tc.area)
			}
			if got := names[sheet+" _xlnm.Print_Titles"]; got != tc.titles {
				t.Errorf("print titles %q, want %q", got, tc.titles)
			}
			lay, err := f.GetPageLayout(sheet)
			if err != nil {
				t.Fatal(err)
			}
			if lay.FitToWidth == nil || *lay.FitToWidth != tc.across || lay.Orientation == nil || *lay.Orientation != "landscape" {
				t.Errorf("page layout %+v, want landscape, %d pages across", lay, tc.across)
			}
			if got := printed[sheet]; got != tc.printed {
				t.Errorf("About says printed %q, want %q", got, tc.printed)
			}
			// the sheet keeps every row; the cell a bulk sheet prints is empty
			last, _ := excelize.CoordinatesToCellName(1, tc.nrow+headRows)
			checkCell(t, f, sheet, last, fmt.Sprint(tc.nrow-1))
			if tc.area != "" && !strings.Contains(tc.area, ":") {
				checkCell(t, f, sheet, strings.ReplaceAll(strings.TrimPrefix(tc.area, "'"+sheet+"'!"), "$", ""), "")
			}
		})
	}
}

// sheetParts reads the worksheet part of sheet in the workbook at path and
// its drawing part (nil when it has none).
func sheetParts(t *testing.T, path, sheet string) (ws, drawing []byte) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	read := func(name string) []byte {
		for _, zf := range zr.File {
			if zf.Name == name {
				rc, err := zf.Open()
				if err != nil {
					t.Fatal(err)
				}
				defer rc.Close()
				b, err := io.ReadAll(rc)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
		}
		return nil
	}
	type rels struct {
		Rel []struct {
			ID     string `xml:"Id,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	var wb struct {
		Sheets []struct {
			Name string `xml:"name,attr"`
			RID  string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	var wbRels, wsRels rels
	if err := xml.Unmarshal(read("xl/workbook.xml"), &wb); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(read("xl/_rels/workbook.xml.rels"), &wbRels); err != nil {
		t.Fatal(err)
	}
	target := ""
	for _, s := range wb.Sheets {
		for _, r := range wbRels.Rel {
			if s.Name == sheet && r.ID == s.RID {
				target = "xl/" + strings.TrimPrefix(strings.TrimPrefix(r.Target, "/xl/"), "/")
			}
		}
	}
	if target == "" {
		t.Fatalf("no sheet %q", sheet)
	}
	ws = read(target)
	dir, file := pathpkg.Split(target)
	if b := read(dir + "_rels/" + file + ".rels"); b != nil {
		if err := xml.Unmarshal(b, &wsRels); err != nil {
			t.Fatal(err)
		}
		for _, r := range wsRels.Rel {
			if strings.Contains(r.Target, "drawings/") {
				drawing = read(pathpkg.Clean(dir + r.Target))
			}
		}
	}
	return ws, drawing
}

// TestChartSheetPageBreaks checks a chart sheet's print geometry from its
// parts: no chart's anchor (its first to its last row) spans a manual row
// break; each page (the rows between breaks, up to the last chart's
// bottom) fits the printable height of portrait A4 (841.9 pt less the
// margins) at the sheet's print scale, and a chart (760 px, 570 pt) its
// width; the sheet is not fitted to pages (Excel would ignore the breaks).
func TestChartSheetPageBreaks(t *testing.T) {
	r := reporttest.Small()
	var figs []*report.Figure
	for len(figs) < ChartsPerSheet {
		for _, f := range r.Figures {
			if chartable(f) {
				figs = append(figs, f)
			}
		}
	}
	r.Figures = figs[:ChartsPerSheet]
	p := filepath.Join(t.TempDir(), "charts.xlsx")
	if err := Write(context.Background(), p, r, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lay, err := f.GetPageLayout(SheetCharts)
	if err != nil {
		t.Fatal(err)
	}
	mar, err := f.GetPageMargins(SheetCharts)
	if err != nil {
		t.Fatal(err)
	}
	if lay.Orientation == nil || *lay.Orientation != "portrait" || lay.Size == nil || *lay.Size != 9 || lay.AdjustTo == nil || mar.Top == nil || mar.Bottom == nil || mar.Left == nil || mar.Right == nil {
		t.Fatalf("page layout %+v, margins %+v: want portrait A4 with a scale and margins", lay, mar)
	}
	scale := float64(*lay.AdjustTo) / 100
	ws, drawing := sheetParts(t, p, SheetCharts)
	var sheet struct {
		FitToPage []struct {
			Val string `xml:"fitToPage,attr"`
		} `xml:"sheetPr>pageSetUpPr"`
		Breaks []struct {
			ID  int  `xml:"id,attr"`
			Man bool `xml:"man,attr"`
		} `xml:"rowBreaks>brk"`
	}
	if err := xml.Unmarshal(ws, &sheet); err != nil {
		t.Fatal(err)
	}
	for _, fp := range sheet.FitToPage {
		if fp.Val == "1" || fp.Val == "true" {
			t.Error("the chart sheet is fitted to pages: Excel ignores manual breaks then")
		}
	}
	var dr struct {
		Anchors []struct {
			From struct {
				Row int `xml:"row"`
			} `xml:"from"`
			To struct {
				Row    int   `xml:"row"`
				RowOff int64 `xml:"rowOff"`
			} `xml:"to"`
		} `xml:"twoCellAnchor"`
	}
	if err := xml.Unmarshal(drawing, &dr); err != nil {
		t.Fatal(err)
	}
	if len(dr.Anchors) != ChartsPerSheet {
		t.Fatalf("%d charts on the sheet, want %d", len(dr.Anchors), ChartsPerSheet)
	}
	// page starts, as 0-based rows: a break with id b is above row b
	starts := []int{0}
	for _, b := range sheet.Breaks {
		starts = append(starts, b.ID)
	}
	if len(starts) != (ChartsPerSheet+ChartsPerPage-1)/ChartsPerPage {
		t.Errorf("page starts %v, want one page per %d charts", starts, ChartsPerPage)
	}
	rowPt := func(r0 int) float64 { // height of 0-based row r0
		h, err := f.GetRowHeight(SheetCharts, r0+1)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	usable := 841.9 - 72*(*mar.Top+*mar.Bottom)
	if w := 570 * scale; w > 595.3-72*(*mar.Left+*mar.Right) {
		t.Errorf("a chart is %.0f pt wide printed, the page holds %.0f", w, 595.3-72*(*mar.Left+*mar.Right))
	}
	for pg, start := range starts {
		end := 1 << 30
		if pg+1 < len(starts) {
			end = starts[pg+1]
		}
		bottom := 0.0 // points from the page's first row to its last chart's bottom
		for k, a := range dr.Anchors {
			last := a.To.Row
			if a.To.RowOff == 0 {
				last-- // ends at the top of row To.Row
			}
			if a.From.Row < start && last >= start || a.From.Row < end && last >= end {
				t.Errorf("chart %d (rows %d–%d) spans the page break above row %d or %d", k+1, a.From.Row, last, start, end)
			}
			if a.From.Row >= start && a.From.Row < end {
				h := float64(a.To.RowOff) / 12700 // EMU to pt
				for r0 := start; r0 < a.To.Row; r0++ {
					h += rowPt(r0)
				}
				bottom = max(bottom, h)
			}
		}
		if bottom*scale > usable {
			t.Errorf("page %d: %.0f pt printed at %.0f %%, the page holds %.0f", pg+1, bottom*scale, 100*scale, usable)
		}
	}
}
