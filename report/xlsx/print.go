package xlsx

import (
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Printing: a workbook printed whole stays short. Every table sheet prints
// landscape on A4, fitted to the width of its pages with its header rows
// (and, when it spans several pages across, its first column) on every
// page: one page across up to FitColumns columns, else about printColumns
// columns a page; a sheet of at most OnePageRows rows is fitted to one page
// down. A longer (bulk) sheet prints nothing: its print area is one empty
// cell, so that it adds no page (LibreOffice leaves empty pages out), and
// the About sheet's list of sheets says so, with the row count and the CSV
// holding every row; the sheet itself keeps every row. The About sheet
// prints on one page, Notes on one page across, Chart data (the values the
// printed charts draw) on one page or, above OnePageRows rows, not at all,
// and the chart sheets ChartsPerPage charts a page, none cut by a page
// break (chartPrintSetup). The Summary sheet is never left out: above
// OnePageRows rows it prints its first OnePageRows.
const (
	// OnePageRows is the most data rows a sheet may have to be fitted to
	// one page down; a longer sheet is a bulk sheet and is not printed.
	OnePageRows = 60
	// FitColumns is the most columns a sheet may have to print on one page
	// across (at about two thirds of full size); a wider sheet prints on
	// several pages across, about printColumns a page.
	FitColumns = 21
	// printColumns is about how many columns one landscape page holds at
	// full size.
	printColumns = 14
)

// bulk says a table of nrows data rows is a bulk sheet: not printed.
func bulk(nrows int) bool { return nrows > OnePageRows }

// quoteSheet is a sheet name quoted for a reference ('It”s').
func quoteSheet(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// tablePrintSetup sets the page layout of a table sheet of ncol columns:
// landscape, one page across up to FitColumns columns, else
// ceil(ncol/printColumns) pages across, one page down (a printed sheet has
// at most OnePageRows rows). It must run before the sheet's StreamWriter is
// made.
func (w *writer) tablePrintSetup(sheet string, ncol int) error {
	if err := w.printSetup(sheet, 1); err != nil {
		return err
	}
	across := pagesAcross(ncol)
	if across == 1 {
		return nil
	}
	land, high, size := "landscape", 1, 9
	if err := w.f.SetPageLayout(sheet, &excelize.PageLayoutOptions{Orientation: &land, FitToWidth: &across, FitToHeight: &high, Size: &size}); err != nil {
		return fmt.Errorf("xlsx: sheet %q: page layout: %w", sheet, err)
	}
	return nil
}

// pagesAcross is how many pages across a table sheet of ncol columns
// prints on.
func pagesAcross(ncol int) int {
	if ncol <= FitColumns {
		return 1
	}
	return (ncol + printColumns - 1) / printColumns
}

// tablePrintArea sets, after a table sheet is written, what prints on every
// page (the header rows; the first column too when the sheet prints on
// several pages across) and, for a bulk sheet (more than OnePageRows data
// rows), a print area of one empty cell right of the table: nothing
// prints.
func (w *writer) tablePrintArea(sheet string, ncol, nrows int) error {
	if ncol == 0 {
		return nil
	}
	q := quoteSheet(sheet)
	if pagesAcross(ncol) > 1 {
		err := w.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles",
			RefersTo: fmt.Sprintf("%s!$A:$A,%s!$1:$%d", q, q, headRows), Scope: sheet})
		if err != nil {
			// repeatRows set the rows alone: replace it.
			_ = w.f.DeleteDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", Scope: sheet})
			err = w.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles",
				RefersTo: fmt.Sprintf("%s!$A:$A,%s!$1:$%d", q, q, headRows), Scope: sheet})
		}
		if err != nil {
			return fmt.Errorf("xlsx: sheet %q: print titles: %w", sheet, err)
		}
	}
	switch {
	case !bulk(nrows):
		return nil
	case sheet == SheetSummary:
		return w.printArea(sheet, ncol, headRows+OnePageRows)
	}
	return w.noPrint(sheet, ncol+2)
}

// noPrint makes a sheet print nothing: its print area is the empty cell in
// row 1 of column col (LibreOffice suppresses the empty page).
func (w *writer) noPrint(sheet string, col int) error {
	c, err := excelize.ColumnNumberToName(col)
	if err != nil {
		return fmt.Errorf("xlsx: sheet %q: print area: %w", sheet, err)
	}
	err = w.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Area",
		RefersTo: fmt.Sprintf("%s!$%s$1", quoteSheet(sheet), c), Scope: sheet})
	if err != nil {
		return fmt.Errorf("xlsx: sheet %q: print area: %w", sheet, err)
	}
	return nil
}

// printArea limits what a sheet prints to its first rows and ncol columns.
func (w *writer) printArea(sheet string, ncol, rows int) error {
	last, err := excelize.ColumnNumberToName(max(ncol, 1))
	if err != nil {
		return fmt.Errorf("xlsx: sheet %q: print area: %w", sheet, err)
	}
	err = w.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Area",
		RefersTo: fmt.Sprintf("%s!$A$1:$%s$%d", quoteSheet(sheet), last, rows), Scope: sheet})
	if err != nil {
		return fmt.Errorf("xlsx: sheet %q: print area: %w", sheet, err)
	}
	return nil
}
