package xlsx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/findings"
	"github.com/xuri/excelize/v2"
)

// SheetFindings is the workbook's first sheet: the headline findings, the
// Methods paragraph and how to read the numbers.
const SheetFindings = "Findings"

// findingsSheet writes the Findings sheet (the default sheet, renamed).
func (w *writer) findingsSheet(r *report.Report) error {
	s := SheetFindings
	f := findings.Make(r)
	row := 1
	var err error
	put := func(col int, v any, st int) {
		if err == nil {
			err = w.put(s, col, row, v, st)
		}
		// Excel and LibreOffice do not grow a wrapped row when the file is
		// opened: give long text its lines (about 100 characters a line in
		// a column 100 wide).
		if text, ok := v.(string); ok && st == w.st.wrap && err == nil {
			lines := (len([]rune(text)) + 99) / 100
			if lines > 1 {
				err = w.f.SetRowHeight(s, row, float64(15*lines+2))
			}
		}
	}
	title := r.Title
	if title == "" {
		title = "EuroExec"
	}
	put(1, title, w.st.title)
	row += 2
	put(1, "Findings", w.st.header)
	row++
	if len(f.Headlines) == 0 {
		put(1, "(no summary table: nothing to report)", w.st.wrap)
		row++
	}
	for _, h := range f.Headlines {
		put(1, h.Text, w.st.wrap)
		row++
	}
	row++
	put(1, "Methods (ready to paste)", w.st.header)
	row++
	put(1, f.Methods, w.st.wrap)
	row += 2
	put(1, "How to read this workbook", w.st.header)
	row++
	for _, kv := range howToRead(r) {
		put(1, kv.Key+": "+kv.Value, w.st.wrap)
		row++
	}
	if err != nil {
		return fmt.Errorf("xlsx: findings sheet: %w", err)
	}
	if err := w.f.SetColWidth(s, "A", "A", 100); err != nil {
		return fmt.Errorf("xlsx: findings sheet: %w", err)
	}
	return w.printSetup(s, 0)
}

func setting(r *report.Report, key string) string {
	for _, kv := range r.Settings {
		if kv.Key == key {
			return kv.Value
		}
	}
	return ""
}

// howToRead explains the workbook's numbers, with the study's thresholds.
func howToRead(r *report.Report) []report.KV {
	rule := "mean rubric score and checklist fulfilment at or above the study's thresholds"
	if rt, ct := setting(r, "solve.rubric_threshold"), setting(r, "solve.checklist_threshold"); rt != "" && ct != "" {
		if v, err := strconv.ParseFloat(ct, 64); err == nil {
			ct = strconv.FormatFloat(v*100, 'f', -1, 64) + " %"
		}
		rule = "mean rubric score ≥ " + rt + " points and checklist fulfilment ≥ " + ct
		switch rubric, checklist := findings.Has(r, "rubric"), findings.Has(r, "checklist"); {
		case rubric && !checklist:
			rule = "mean rubric score ≥ " + rt + " points"
		case checklist && !rubric:
			rule = "checklist fulfilment ≥ " + ct
		}
	}
	reliability := "Krippendorff's α ≥ .800 reliable, .667–.800 tentative, below .667 not reliable."
	if s := findings.AgreementNote(r); s != "" {
		reliability = s
	}
	var kv []report.KV
	if findings.Has(r, "rubric") || findings.Has(r, "checklist") {
		kv = append(kv, report.KV{Key: "Solve Rate", Value: "the share of a model's gradings in which its response is solved (" + rule + "), shown as a percent."})
	}
	return append(kv, []report.KV{
		{Key: "Rubric scores", Value: "in rubric points (two decimals); p-values with three decimals, in scientific notation below 0.001."},
		{Key: "Intervals", Value: "columns ending _lo and _hi are the ends of the 95 % interval (cluster bootstrap over questions); a rate's interval lies inside [0 %, 100 %]. On the charts, dashes mark the interval ends."},
		{Key: "Group letters", Value: "models sharing a letter do not differ significantly after Holm's adjustment (α = 0.05)."},
		{Key: "Reliability", Value: reliability},
		{Key: "Sheets", Value: "each table sheet is tables/<name>.csv: row 1 the column headers in words, row 2 the CSV column names (full precision in the CSV); the About sheet lists the sheets, the settings and the input files."},
	}...)
}

// printSetup makes a sheet print landscape, fitted to the page width
// (and, when pagesHigh > 0, to that many pages high); table sheets repeat
// their header rows on every page (repeatRows).
func (w *writer) printSetup(sheet string, pagesHigh int) error {
	land := "landscape"
	one := 1
	high := pagesHigh
	size := 9 // A4
	if err := w.f.SetPageLayout(sheet, &excelize.PageLayoutOptions{Orientation: &land, FitToWidth: &one, FitToHeight: &high, Size: &size}); err != nil {
		return fmt.Errorf("xlsx: sheet %q: page layout: %w", sheet, err)
	}
	fit := true
	if err := w.f.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &fit}); err != nil {
		return fmt.Errorf("xlsx: sheet %q: fit to page: %w", sheet, err)
	}
	return nil
}

// repeatRows prints the first n rows of a sheet (its header) on every page.
func (w *writer) repeatRows(sheet string, n int) error {
	err := w.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", RefersTo: fmt.Sprintf("'%s'!$1:$%d", strings.ReplaceAll(sheet, "'", "''"), n), Scope: sheet})
	if err != nil {
		return fmt.Errorf("xlsx: sheet %q: print titles: %w", sheet, err)
	}
	return nil
}
