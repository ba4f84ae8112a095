package xlsx

import (
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Printing: a workbook printed whole stays short. Every table sheet prints
// landscape on A4, fitted to the width of its pages with its header rows
// (and, when it spans several pages across, its first column) on every
// page; a sheet of at most OnePageRows rows is fitted to one page down; a
// longer (bulk) sheet prints its first BulkPrintRows rows only (its print
// area), the rest being in the sheet, the CSV and the database. The About
// sheet prints on one page, Notes on one page across,
// Chart data on one page.
const (
	// BulkPrintRows is how many data rows of a long sheet its print area
	// holds.
	BulkPrintRows = 30
	// OnePageRows is the most data rows a sheet may have to be fitted to
	// one page down.
	OnePageRows = 60
	// printColumns is about how many columns one landscape page holds
	// readably; a wider sheet prints on several pages across.
	printColumns = 14
)

// quoteSheet is a sheet name quoted for a reference ('It”s').
func quoteSheet(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// tablePrintSetup sets the page layout of a table sheet of ncol columns:
// landscape, ceil(ncol/printColumns) pages across, one page down (a sheet
// has at most OnePageRows rows, or a print area of BulkPrintRows). It must
// run before the sheet's StreamWriter is made.
func (w *writer) tablePrintSetup(sheet string, ncol int) error {
	if err := w.printSetup(sheet, 1); err != nil {
		return err
	}
	across := max(1, (ncol+printColumns-1)/printColumns)
	if across == 1 {
		return nil
	}
	land, high, size := "landscape", 1, 9
	if err := w.f.SetPageLayout(sheet, &excelize.PageLayoutOptions{Orientation: &land, FitToWidth: &across, FitToHeight: &high, Size: &size}); err != nil {
		return fmt.Errorf("xlsx: sheet %q: page layout: %w", sheet, err)
	}
	return nil
}

// tablePrintArea sets, after a table sheet is written, what prints on every
// page (the header rows; the first column too when the sheet is wider than
// a page) and, for a sheet of more than BulkPrintRows data rows, the print
// area: the header and the first BulkPrintRows rows.
func (w *writer) tablePrintArea(sheet string, ncol, nrows int) error {
	if ncol == 0 {
		return nil
	}
	q := quoteSheet(sheet)
	if ncol > printColumns {
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
	if nrows <= OnePageRows {
		return nil
	}
	return w.printArea(sheet, ncol, headRows+BulkPrintRows)
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
