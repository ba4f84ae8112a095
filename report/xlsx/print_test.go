package xlsx

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/euroexec/euroexec/report"
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
