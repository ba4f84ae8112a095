// Package xlsx writes a report.Report as an Excel workbook (report.xlsx), the
// file analysts hand to people.
//
// The workbook holds, in order:
//   - Findings: the leaderboard (findings.Leaderboard: rank and rank
//     interval, model, the metric with its interval, group, n, cost) with
//     the headline chart beside it (the figure the site's index shows, as
//     on the Charts sheet), then the headline findings (report/findings:
//     the winner by Solve Rate with its interval, its gap to the
//     runner-up and the Holm-adjusted tests, tie groups, the reliability
//     and judge audit verdicts, small-sample warnings), the Methods
//     paragraph ready to paste, and how to read the workbook;
//   - About: the study title, tool version, run time, the study at a glance,
//     the settings, every input file with its sha256 and row count, and a list
//     of the sheets;
//   - Summary: the table named "summary", when the report has one;
//   - Charts, Charts 2, …: native Excel charts of the Bar, Histogram, Line and
//     Scatter figures (headline figures first: those on the summary table or
//     whose id names the Solve Rate; a comparison's delta dot plots first of
//     all), up to Options.MaxCharts, ChartsPerSheet a sheet, printed
//     ChartsPerPage a page with no chart cut by a page break; intervals are
//     the series' error bars
//     (capped: 95 % intervals; dashed, uncapped: mean ± SD); scatter x
//     values are numbers; p-values
//     (Figure.LogY) are on a log axis; a log-scale x axis (Fig. 3) is
//     drawn linear here and says so in its title, because excelize writes a
//     log base on the value axis only; a delta dot plot (new − old per
//     flagged change) has its axis across zero, the zero line dark, a
//     rate's change in percentage points;
//   - Heat maps: every Heatmap figure (such as the pairwise win-rate matrix
//     of each grader population), in report order, as a block: its title
//     and id, then a grid with the y categories (YCategories) down column
//     A, the x categories (Categories) across the top and the cell values
//     in between, empty where the figure has no cell, in percent when
//     Figure.Percent says the values are fractions; a 3-colour scale
//     (conditional format, red–yellow–green, 0 %–100 % for fractions,
//     else the grid's minimum to maximum) colours the grid. Not capped by
//     Options.MaxCharts: the grids are cells, not charts;
//   - one sheet per other table, in report order;
//   - Notes: tables/notes.csv and the run's warnings;
//   - Chart data: the values the charts draw.
//
// Every sheet but the chart sheets prints landscape on A4, fitted to the page
// width; table sheets repeat their header rows on every printed page; a
// bulk sheet (more than OnePageRows rows) is not printed, the About sheet
// says which (print.go has the rules).
//
// Every table sheet has two header rows, frozen and repeated on every
// printed page: row 1 the column headers for people (report/format.Header,
// e.g. "Solve Rate"), row 2 the CSV column names ("solve_rate"), which head
// an Excel table with filter buttons over the rows below (read a sheet with
// the CSV names by skipping row 1, e.g. pandas.read_excel(..., header=1)); Fraction columns have a percent format,
// p-value columns PValueFormat, rubric scores PointsFormat, other Float
// columns a decimal format, Int columns an integer format; column widths follow
// the content up to Options.MaxColumnWidth characters, wider text wraps. Sheet
// names are cut to Excel's 31 characters, cleaned of the characters Excel
// forbids and made unique.
//
// Text is always written as a text cell, never as a formula, so an answer
// such as =HYPERLINK("…") stays text (the text cellsafe.Formula finds gets
// an apostrophe only in the CSV tables, which have no cell types). Text longer than Excel's limit of
// 32,767 characters per cell is cut and ends with a visible marker such as
// "… [cut: 7,233 more characters; full text in the site]" (the site and the
// database keep it whole). Table sheets are written with excelize's
// StreamWriter, so tables of 100,000+ rows are fine. A value of NaN or nil is
// an empty cell; ±Inf, which Excel cannot store, is the text "+Inf"/"-Inf".
package xlsx

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/findings"
	"github.com/euroexec/euroexec/report/format"
	"github.com/xuri/excelize/v2"
)

// PValueFormat is the number format of p-value columns (p, p_holm, p_…):
// three decimals from 0.001 up, scientific notation below.
const PValueFormat = `[<0.001]0.0E+00;0.000`

// PointsFormat is the number format of rubric scores (Float columns whose
// name mentions rubric): points with two decimals.
const PointsFormat = "0.00"

// CellLimit is Excel's limit on the characters (UTF-16 code units) of one
// cell.
const CellLimit = 32767

// maxRows is Excel's row limit.
const maxRows = 1048576

// headRows are the header rows of a table sheet: the headers for people
// (report/format.Header), then the CSV column names, which head the Excel
// table (its filter buttons and column names).
const headRows = 2

// Options control Write. A zero field takes its default.
type Options struct {
	// MaxCharts caps the native charts on the Charts sheet. Default 12;
	// a negative value writes no charts.
	MaxCharts int
	// MaxColumnWidth caps a column's width in characters; text columns
	// wider than it wrap. Default 80.
	MaxColumnWidth float64
	// FloatFormat is the Excel number format of Float columns. Default
	// "0.000".
	FloatFormat string
	// FractionFormat is the Excel number format of Fraction columns.
	// Default "0.0%".
	FractionFormat string
	// WidthSampleRows is how many rows per table are read to size the columns.
	// Default 5000.
	WidthSampleRows int
}

// DefaultOptions are the options `euroexec run` uses.
var DefaultOptions = Options{
	MaxCharts:       12,
	MaxColumnWidth:  80,
	FloatFormat:     "0.000",
	FractionFormat:  "0.0%",
	WidthSampleRows: 5000,
}

func (o Options) withDefaults() Options {
	d := DefaultOptions
	if o.MaxCharts == 0 {
		o.MaxCharts = d.MaxCharts
	}
	if o.MaxColumnWidth <= 0 {
		o.MaxColumnWidth = d.MaxColumnWidth
	}
	if o.FloatFormat == "" {
		o.FloatFormat = d.FloatFormat
	}
	if o.FractionFormat == "" {
		o.FractionFormat = d.FractionFormat
	}
	if o.WidthSampleRows <= 0 {
		o.WidthSampleRows = d.WidthSampleRows
	}
	return o
}

// Fixed sheet names.
const (
	SheetAbout     = "About"
	SheetSummary   = "Summary"
	SheetCharts    = "Charts"
	SheetNotes     = "Notes"
	SheetChartData = "Chart data"
)

// styles are the style ids of one workbook.
type styles struct {
	header, title, bold, text, wrap, integer, float, fraction int
	pvalue, points, cost                                      int
	pp, signed                                                int // a change: percentage points, signed points
	csvName                                                   int // row 2 of a table sheet
}

type writer struct {
	f      *excelize.File
	opt    Options
	st     styles
	used   map[string]bool // sheet names, lower case
	sheets []sheetInfo
	models format.Models // display names and one colour per model
	// pointColors are the per-bar colours of one-series bar charts over
	// models, by the series' name cell (patchParts writes them).
	pointColors map[string][]string
	// headFig is the figure drawn beside the leaderboard on the Findings
	// sheet, head its chart once charts has written it.
	headFig *report.Figure
	head    *headChart
	// errBars are the error bars of category chart series, by the series'
	// name cell (patchParts writes them).
	errBars map[string]errBar
	// zeroLines are the delta dot plots, by their first series' name
	// cell: their category axis (at zero) is drawn dark (patchParts).
	zeroLines map[string]bool
}

type sheetInfo struct {
	sheet, table, title, doc string
	rows                     int // data rows written
}

// Write writes r as an Excel workbook to path (overwriting it). It returns an
// error naming the sheet or table on failure; an unsupported value type in a
// table is an error. A cancelled ctx stops it between sheets and returns
// ctx's error; nothing is saved then. The file is written with mode 0644
// (less the umask), never executable.
func Write(ctx context.Context, path string, r *report.Report, opt Options) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	if r == nil {
		return fmt.Errorf("xlsx: nil report")
	}
	w := &writer{f: excelize.NewFile(), opt: opt.withDefaults(), used: map[string]bool{}, models: format.ModelsOf(r), pointColors: map[string][]string{}, errBars: map[string]errBar{}, zeroLines: map[string]bool{}}
	defer func() {
		if cerr := w.f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("xlsx: close: %w", cerr)
		}
	}()
	if err := w.makeStyles(); err != nil {
		return err
	}
	// Findings first (the default sheet, renamed), then About.
	if err := w.f.SetSheetName("Sheet1", SheetFindings); err != nil {
		return fmt.Errorf("xlsx: findings sheet: %w", err)
	}
	if _, err := w.f.NewSheet(SheetAbout); err != nil {
		return fmt.Errorf("xlsx: about sheet: %w", err)
	}
	for _, n := range []string{SheetFindings, SheetAbout, SheetSummary, SheetCharts, SheetHeatmaps, SheetNotes, SheetChartData, "History"} {
		w.used[strings.ToLower(n)] = true
	}
	for i := 2; i <= 1+(w.opt.MaxCharts+ChartsPerSheet-1)/ChartsPerSheet; i++ {
		w.used[strings.ToLower(chartSheet(i))] = true
	}

	// Summary, Charts, Heat maps, tables, Notes, Chart data: create the
	// sheets in order.
	summary := r.Table("summary")
	if summary != nil {
		if err := w.tableSheet(SheetSummary, byPrimary(summary, findings.PrimaryOf(r))); err != nil {
			return err
		}
	}
	figs := chartFigures(r.Figures, w.opt.MaxCharts)
	board := findings.Leaderboard(r)
	w.headFig = headlineFigure(figs, board)
	for i := 0; i*ChartsPerSheet < len(figs); i++ {
		if _, err := w.f.NewSheet(chartSheet(i + 1)); err != nil {
			return fmt.Errorf("xlsx: charts sheet: %w", err)
		}
	}
	if heat := heatmapFigures(r.Figures); len(heat) > 0 {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("xlsx: %w", err)
		}
		if err := w.heatmaps(ctx, heat); err != nil {
			return err
		}
	}
	for i, t := range r.Tables {
		if t == nil {
			return fmt.Errorf("xlsx: table %d is nil", i)
		}
		if t == summary {
			continue
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("xlsx: %w", err)
		}
		if err := w.tableSheet(SheetName(t.Name, w.used), t); err != nil {
			return err
		}
	}
	if err := w.notesSheet(r); err != nil {
		return err
	}
	if len(figs) > 0 {
		if err := w.charts(figs); err != nil {
			return err
		}
	}
	if err := w.aboutSheet(r); err != nil {
		return err
	}
	if err := w.findingsSheet(r, board, w.head); err != nil {
		return err
	}
	// No SetActiveSheet: the renamed default sheet (Findings) is already the
	// active, only selected tab, and SetActiveSheet would make excelize parse
	// every streamed sheet back and marshal it again (half the workbook's time).
	if err := w.f.SetDocProps(&excelize.DocProperties{
		Title:          cut(r.Title),
		Creator:        "euroexec " + r.Version,
		Created:        r.GeneratedAt.UTC().Format("2006-01-02T15:04:05Z"),
		Modified:       r.GeneratedAt.UTC().Format("2006-01-02T15:04:05Z"),
		LastModifiedBy: "euroexec",
	}); err != nil {
		return fmt.Errorf("xlsx: document properties: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("xlsx: %w", err)
	}
	buf, err := w.f.WriteToBuffer()
	if err != nil {
		return fmt.Errorf("xlsx: save %s: %w", path, err)
	}
	b := buf.Bytes()
	if b, err = patchParts(b, w.pointColors, w.errBars, w.zeroLines); err != nil {
		return fmt.Errorf("xlsx: save %s: %w", path, err)
	}
	// Not SaveAs: it creates the file with mode 0777 (executable).
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("xlsx: save %s: %w", path, err)
	}
	return nil
}

func (w *writer) makeStyles() error {
	var err error
	mk := func(s *excelize.Style) int {
		if err != nil {
			return 0
		}
		var id int
		id, err = w.f.NewStyle(s)
		return id
	}
	top := &excelize.Alignment{Vertical: "top"}
	w.st.header = mk(&excelize.Style{
		Font:      &excelize.Font{Bold: true},
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DDE4EE"}},
		Border:    []excelize.Border{{Type: "bottom", Color: "8096B4", Style: 1}},
		Alignment: &excelize.Alignment{Vertical: "top", WrapText: true},
	})
	w.st.csvName = mk(&excelize.Style{
		Font:      &excelize.Font{Italic: true, Size: 9, Color: "44546A"},
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"EEF2F7"}},
		Border:    []excelize.Border{{Type: "bottom", Color: "8096B4", Style: 1}},
		Alignment: &excelize.Alignment{Vertical: "top"},
	})
	w.st.title = mk(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 16}})
	w.st.bold = mk(&excelize.Style{Font: &excelize.Font{Bold: true}, Alignment: top})
	w.st.text = mk(&excelize.Style{Alignment: top})
	w.st.wrap = mk(&excelize.Style{Alignment: &excelize.Alignment{Vertical: "top", WrapText: true}})
	w.st.integer = mk(&excelize.Style{NumFmt: 1, Alignment: top})
	ff := w.opt.FloatFormat
	w.st.float = mk(&excelize.Style{CustomNumFmt: &ff, Alignment: top})
	pf := w.opt.FractionFormat
	w.st.fraction = mk(&excelize.Style{CustomNumFmt: &pf, Alignment: top})
	pv := PValueFormat
	w.st.pvalue = mk(&excelize.Style{CustomNumFmt: &pv, Alignment: top})
	pt := PointsFormat
	w.st.points = mk(&excelize.Style{CustomNumFmt: &pt, Alignment: top})
	ppf := `+0.0" pp";-0.0" pp";0.0" pp"`
	w.st.pp = mk(&excelize.Style{CustomNumFmt: &ppf, Alignment: top})
	sf := `+0.00;-0.00;0.00`
	w.st.signed = mk(&excelize.Style{CustomNumFmt: &sf, Alignment: top})
	usd := `"$"#,##0.00`
	w.st.cost = mk(&excelize.Style{CustomNumFmt: &usd, Alignment: top})
	if err != nil {
		return fmt.Errorf("xlsx: styles: %w", err)
	}
	return nil
}

// SheetName turns a table name into a valid, unique Excel sheet name: the
// characters : \ / ? * [ ] become '_', leading and trailing apostrophes are
// dropped, the name is cut to 31 characters, and a name already in used (case
// insensitive) gets a suffix "~2", "~3", …. The chosen name is added to used.
func SheetName(name string, used map[string]bool) string {
	var b strings.Builder
	for _, c := range name {
		switch {
		case strings.ContainsRune(`:\/?*[]`, c), c < 0x20:
			b.WriteByte('_')
		default:
			b.WriteRune(c)
		}
	}
	base := strings.Trim(b.String(), "'")
	if strings.TrimSpace(base) == "" {
		base = "Table"
	}
	base = cutRunes(base, 31)
	cand := base
	for i := 2; used[strings.ToLower(cand)]; i++ {
		suf := "~" + strconv.Itoa(i)
		cand = strings.TrimRight(cutRunes(base, 31-len(suf)), "'") + suf
	}
	used[strings.ToLower(cand)] = true
	return cand
}

func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// Cut returns s unchanged when it fits in one Excel cell (CellLimit UTF-16
// code units); otherwise its head followed by the marker
// "… [cut: N more characters; full text in the site]", N counted in Unicode
// code points, the whole within CellLimit.
func Cut(s string) string { return cut(s) }

func cut(s string) string {
	if len(s) <= CellLimit/3 || utf16Len(s) <= CellLimit {
		return s
	}
	total := utf8.RuneCountInString(s)
	room := CellLimit - utf16Len(marker(total))
	kept, units := 0, 0
	end := 0
	for i, c := range s {
		u := utf16.RuneLen(c)
		if u < 0 {
			u = 1
		}
		if units+u > room {
			break
		}
		units += u
		kept++
		end = i + utf8.RuneLen(c)
		if c == utf8.RuneError {
			end = i + 1
		}
	}
	return s[:end] + marker(total-kept)
}

func marker(n int) string {
	return "… [cut: " + thousands(n) + " more characters; full text in the site]"
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func utf16Len(s string) int {
	n := 0
	for _, c := range s {
		if c >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// numberStyle is the style of a numeric column by its quantity: p-values,
// rubric points, else 0 (the column kind's format).
func (w *writer) numberStyle(c report.Column) int {
	switch {
	case c.Kind == report.Text || c.Kind == report.Int:
		return 0
	case format.IsPValue(c.Name):
		return w.st.pvalue
	case c.Kind == report.Float && strings.Contains(c.Name, "rubric"):
		return w.st.points
	}
	return 0
}

// cellStyled is cell with a number style for the column (0: by kind).
func (w *writer) cellStyled(v any, kind report.ColumnKind, wrap bool, numOverride int) (excelize.Cell, error) {
	numStyle := func() int {
		if numOverride != 0 {
			return numOverride
		}
		switch kind {
		case report.Fraction:
			return w.st.fraction
		case report.Float:
			return w.st.float
		case report.Int:
			return w.st.integer
		}
		return w.st.text
	}
	textStyle := w.st.text
	if wrap {
		textStyle = w.st.wrap
	}
	switch x := v.(type) {
	case nil:
		return excelize.Cell{StyleID: numStyle()}, nil
	case string:
		return excelize.Cell{StyleID: textStyle, Value: cut(x)}, nil
	case float64:
		if math.IsNaN(x) {
			return excelize.Cell{StyleID: numStyle()}, nil
		}
		if math.IsInf(x, 0) {
			return excelize.Cell{StyleID: textStyle, Value: strconv.FormatFloat(x, 'g', -1, 64)}, nil
		}
		return excelize.Cell{StyleID: numStyle(), Value: x}, nil
	case float32:
		return w.cellStyled(float64(x), kind, wrap, numOverride)
	case int64:
		return excelize.Cell{StyleID: intStyle(w, kind), Value: x}, nil
	case int:
		return excelize.Cell{StyleID: intStyle(w, kind), Value: int64(x)}, nil
	case int32:
		return excelize.Cell{StyleID: intStyle(w, kind), Value: int64(x)}, nil
	case uint64:
		return excelize.Cell{StyleID: intStyle(w, kind), Value: x}, nil
	case bool:
		return excelize.Cell{StyleID: w.st.text, Value: x}, nil
	default:
		return excelize.Cell{}, fmt.Errorf("unsupported value type %T (want nil, string, int64, float64 or bool)", v)
	}
}

// intStyle: an integer in a Fraction or Float column keeps that column's
// format; otherwise the integer format.
func intStyle(w *writer, kind report.ColumnKind) int {
	switch kind {
	case report.Fraction:
		return w.st.fraction
	case report.Float:
		return w.st.float
	}
	return w.st.integer
}

// displayWidth estimates the width in characters a value needs.
func displayWidth(v any, kind report.ColumnKind) float64 {
	switch x := v.(type) {
	case nil:
		return 0
	case string:
		longest, cur := 0, 0
		for i, c := range x {
			if c == '\n' {
				cur = 0
				continue
			}
			cur++
			if cur > longest {
				longest = cur
			}
			if i > 4*CellLimit { // long enough to hit any cap
				break
			}
		}
		return float64(longest)
	case float64, float32:
		if kind == report.Fraction {
			return 7
		}
		return 10
	case bool:
		return 5
	default:
		return float64(len(fmt.Sprint(x)))
	}
}

// tableSheet writes one table to a new sheet with the StreamWriter.
func (w *writer) tableSheet(name string, t *report.Table) error {
	if _, err := w.f.NewSheet(name); err != nil {
		return fmt.Errorf("xlsx: sheet %q (table %s): %w", name, t.Name, err)
	}
	w.sheets = append(w.sheets, sheetInfo{sheet: name, table: t.Name, title: t.Title, doc: t.Doc})
	// Before the StreamWriter: it writes the sheet's properties when made
	// and its page setup when flushed, and ignores later changes.
	if err := w.tablePrintSetup(name, len(t.Columns)); err != nil {
		return err
	}
	sw, err := w.f.NewStreamWriter(name)
	if err != nil {
		return fmt.Errorf("xlsx: sheet %q (table %s): %w", name, t.Name, err)
	}
	ncol := len(t.Columns)
	if ncol == 0 {
		if err := sw.Flush(); err != nil {
			return fmt.Errorf("xlsx: sheet %q: %w", name, err)
		}
		return nil
	}
	rows := t.Rows
	truncated := 0
	if len(rows) > maxRows-headRows {
		truncated = len(rows) - (maxRows - headRows)
		rows = rows[:maxRows-headRows]
	}
	w.sheets[len(w.sheets)-1].rows = len(rows)
	// Row 1: the headers for people, distinct within the sheet (one
	// definition with the site's, format.Headers).
	names := make([]string, ncol)
	for j, c := range t.Columns {
		names[j] = c.Name
	}
	humans := format.Headers(names)
	for j, c := range t.Columns {
		if c.Header != "" {
			humans[j] = c.Header
		}
	}
	// Column widths from the header and a sample of rows.
	wrap := make([]bool, ncol)
	for j, c := range t.Columns {
		width := float64(max(utf8.RuneCountInString(c.Name)+2, utf8.RuneCountInString(humans[j]))) // +2: filter button
		for i, row := range rows {
			if i >= w.opt.WidthSampleRows {
				break
			}
			if j < len(row) {
				if dw := displayWidth(row[j], c.Kind); dw > width {
					width = dw
				}
			}
		}
		width += 1
		if width < 8 {
			width = 8
		}
		if width > w.opt.MaxColumnWidth {
			width = w.opt.MaxColumnWidth
			wrap[j] = true
		}
		if err := sw.SetColWidth(j+1, j+1, width); err != nil {
			return fmt.Errorf("xlsx: sheet %q, column %s: %w", name, c.Name, err)
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: headRows, TopLeftCell: "A3", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A3", ActiveCell: "A3", Pane: "bottomLeft"}}}); err != nil {
		return fmt.Errorf("xlsx: sheet %q: freeze header: %w", name, err)
	}
	human := make([]any, ncol)
	header := make([]any, ncol)
	seen := map[string]int{}
	for j, c := range t.Columns {
		h := c.Name
		if h == "" {
			h = "column" + strconv.Itoa(j+1)
		}
		key := strings.ToLower(h)
		if n := seen[key]; n > 0 {
			h = fmt.Sprintf("%s (%d)", h, n+1)
		}
		seen[key]++
		hh := humans[j]
		if h != c.Name {
			hh = format.Header(h) // a made-up or repeated CSV name
		}
		header[j] = excelize.Cell{StyleID: w.st.csvName, Value: cut(h)}
		human[j] = excelize.Cell{StyleID: w.st.header, Value: cut(hh)}
	}
	if err := sw.SetRow("A1", human, excelize.RowOpts{Height: 30}); err != nil {
		return fmt.Errorf("xlsx: sheet %q: header: %w", name, err)
	}
	if err := sw.SetRow("A2", header); err != nil {
		return fmt.Errorf("xlsx: sheet %q: header: %w", name, err)
	}
	vals := make([]any, ncol)
	numStyles := make([]int, ncol)
	for j, c := range t.Columns {
		numStyles[j] = w.numberStyle(c)
	}
	for i, row := range rows {
		if len(row) != ncol {
			return fmt.Errorf("xlsx: table %s: row %d has %d values, want %d (one per column)", t.Name, i+1, len(row), ncol)
		}
		for j, v := range row {
			c, err := w.cellStyled(v, t.Columns[j].Kind, wrap[j], numStyles[j])
			if err != nil {
				return fmt.Errorf("xlsx: table %s: row %d, column %s: %w", t.Name, i+1, t.Columns[j].Name, err)
			}
			vals[j] = c
		}
		ref, _ := excelize.CoordinatesToCellName(1, i+headRows+1)
		if err := sw.SetRow(ref, vals); err != nil {
			return fmt.Errorf("xlsx: table %s: row %d: %w", t.Name, i+1, err)
		}
	}
	last, _ := excelize.CoordinatesToCellName(ncol, max(len(rows)+headRows, headRows+1))
	if err := sw.AddTable(&excelize.Table{Range: "A2:" + last, StyleName: "TableStyleLight1"}); err != nil {
		return fmt.Errorf("xlsx: sheet %q: filter: %w", name, err)
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("xlsx: sheet %q: %w", name, err)
	}
	if err := w.repeatRows(name, headRows); err != nil {
		return err
	}
	if err := w.tablePrintArea(name, ncol, len(rows)); err != nil {
		return err
	}
	if truncated > 0 {
		w.sheets[len(w.sheets)-1].doc += fmt.Sprintf(" [%d rows beyond Excel's limit left out; see tables/%s.csv]", truncated, t.Name)
	}
	return nil
}

// put writes a text cell (never a formula) with a style.
func (w *writer) put(sheet string, col, row int, v any, style int) error {
	ref, err := excelize.CoordinatesToCellName(col, row)
	if err != nil {
		return err
	}
	switch x := v.(type) {
	case string:
		err = w.f.SetCellStr(sheet, ref, cut(x))
	case nil:
	default:
		err = w.f.SetCellValue(sheet, ref, x)
	}
	if err != nil {
		return err
	}
	if style != 0 {
		return w.f.SetCellStyle(sheet, ref, ref, style)
	}
	return nil
}

func (w *writer) aboutSheet(r *report.Report) error {
	s := SheetAbout
	row := 1
	var err error
	line := func(vals ...any) {
		for j, v := range vals {
			st := w.st.wrap
			if j == 0 {
				st = w.st.bold
			}
			if err == nil {
				err = w.put(s, j+1, row, v, st)
			}
		}
		row++
	}
	head := func(vals ...string) {
		for j, v := range vals {
			if err == nil {
				err = w.put(s, j+1, row, v, w.st.header)
			}
		}
		row++
	}
	title := r.Title
	if title == "" {
		title = "EuroExec"
	}
	if err = w.put(s, 1, row, title, w.st.title); err != nil {
		return fmt.Errorf("xlsx: about sheet: %w", err)
	}
	row += 2
	line("The study", findings.Make(r).Methods)
	if err == nil {
		err = w.f.SetRowHeight(s, row-1, float64(15*(len([]rune(findings.Make(r).Methods))/70+1)))
	}
	line("How to read it", "Start with the Findings sheet: the headline results in sentences, with intervals and tests, and how to read every number. Summary holds the main table; Charts draw it; Heat maps shows the heat-map figures as coloured grids; every other sheet is one table of tables/*.csv (row 1 the column headers in words, row 2 the CSV column names, which head the filterable table); Notes says what was left out and why.")
	line("Tool version", r.Version)
	line("Run time (UTC)", r.GeneratedAt.UTC().Format("2006-01-02 15:04:05"))
	row++
	head("Study at a glance", "")
	o := r.Overview
	line("Questions", int64(o.Questions))
	line("Models", int64(o.Models))
	if o.HumanLabel != "" {
		line("Expert answers graded as", o.HumanLabel)
	}
	line("Domains", int64(o.Domains))
	line("Human graders", int64(o.HumanGraders))
	line("Judges", int64(o.Judges))
	line("Gradings", int64(o.Gradings))
	line("Human gradings", int64(o.HumanGradings))
	line("Judge gradings", int64(o.JudgeGradings))
	line("Instruments present", strings.Join(o.Instruments, ", "))
	line("Instruments missing", strings.Join(o.Missing, ", "))
	if len(r.Attributes) > 0 {
		line("Rubric attributes", strings.Join(r.Attributes, ", "))
	}
	row++
	head("Setting", "Value")
	for _, kv := range r.Settings {
		line(kv.Key, kv.Value)
	}
	row++
	head("Input file", "sha256", "Rows")
	for _, in := range r.Inputs {
		line(in.Path, in.SHA256, in.Rows)
	}
	row++
	head("Sheet", "Table", "Title", "Description", "Printed")
	for _, si := range w.sheets {
		line(si.sheet, "tables/"+si.table+".csv", si.title, si.doc, printedNote(si))
	}
	if err != nil {
		return fmt.Errorf("xlsx: about sheet: %w", err)
	}
	for col, width := range map[string]float64{"A": 34, "B": 68, "C": 40, "D": 80, "E": 40} {
		if err := w.f.SetColWidth(s, col, col, width); err != nil {
			return fmt.Errorf("xlsx: about sheet: %w", err)
		}
	}
	return w.printSetup(s, 1) // landscape, one page across and down
}

// printedNote says what of a table sheet prints: all of it, its first
// OnePageRows rows (Summary), or nothing (a bulk sheet), with where every
// row is.
func printedNote(si sheetInfo) string {
	switch {
	case !bulk(si.rows):
		return "yes"
	case si.sheet == SheetSummary:
		return fmt.Sprintf("first %d of %s rows (all on the sheet and in tables/%s.csv)", OnePageRows, thousands(si.rows), si.table)
	}
	return fmt.Sprintf("no: %s rows (all on the sheet and in tables/%s.csv)", thousands(si.rows), si.table)
}

func (w *writer) notesSheet(r *report.Report) error {
	s := SheetNotes
	if _, err := w.f.NewSheet(s); err != nil {
		return fmt.Errorf("xlsx: notes sheet: %w", err)
	}
	var err error
	put := func(c, rr int, v any, st int) {
		if err == nil {
			err = w.put(s, c, rr, v, st)
		}
	}
	put(1, 1, "table", w.st.header)
	put(2, 1, "reason", w.st.header)
	row := 2
	for _, n := range r.Notes {
		put(1, row, n.Table, w.st.text)
		put(2, row, n.Reason, w.st.wrap)
		row++
	}
	row++
	put(1, row, "warnings", w.st.header)
	put(2, row, "", w.st.header)
	row++
	if len(r.Warnings) == 0 {
		put(1, row, "(none)", w.st.text)
	}
	for _, m := range r.Warnings {
		put(1, row, "warning", w.st.text)
		put(2, row, m, w.st.wrap)
		row++
	}
	if err == nil {
		err = w.f.SetColWidth(s, "A", "A", 30)
	}
	if err == nil {
		err = w.f.SetColWidth(s, "B", "B", 100)
	}
	if err == nil {
		err = w.f.SetPanes(s, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"})
	}
	if err == nil {
		err = w.printSetup(s, 0) // landscape, one page across
	}
	if err != nil {
		return fmt.Errorf("xlsx: notes sheet: %w", err)
	}
	return nil
}
