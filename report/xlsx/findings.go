package xlsx

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/findings"
	"github.com/xuri/excelize/v2"
)

// SheetFindings is the workbook's first sheet: the leaderboard with the
// headline chart beside it, the headline findings, the Methods paragraph
// and how to read the numbers.
const SheetFindings = "Findings"

// The Findings sheet's layout: the leaderboard in columns A–H, the
// headline chart from column J, the text below both merged over A–H
// (about textChars characters a line).
const (
	boardCols       = 8
	textChars       = 90
	headChartWidth  = 600
	headChartHeight = 340
	headChartRows   = 18 // rows of 20 px the chart covers
)

// headlineFigure is the figure the Findings sheet shows beside the
// leaderboard, as on the site's index: the Bradley–Terry ratings or the
// clipped PRBench scores when the leaderboard is by them, else the first
// bar chart on the summary table, else the first bar chart of a Solve
// Rate. nil when figs (the charted figures) has none.
func headlineFigure(figs []*report.Figure, b findings.Board) *report.Figure {
	for _, f := range figs {
		if strings.HasPrefix(f.ID, deltaPrefix) {
			return f // a comparison: its first delta dot plot
		}
	}
	if id := map[string]string{"pairwise_models": "pairwise_bt_ratings", "prbench_scores": "prbench_clipped_humans"}[b.Table]; id != "" {
		for _, f := range figs {
			if f.ID == id {
				return f
			}
		}
	}
	for _, f := range figs {
		if f.Table == "summary" && (f.Kind == report.Bar || f.Kind == report.Histogram) {
			return f
		}
	}
	for _, f := range figs {
		if f.Kind == report.Bar && strings.Contains(strings.ToLower(f.ID), "solve_rate") {
			return f
		}
	}
	return nil
}

// deltaPrefix starts the ids of a comparison's delta dot plots
// (findings.DeltaFigures), charted first.
const deltaPrefix = "compare_delta_"

// changes writes a comparison's flagged changes (findings.WhatChanged,
// the rows the terminal and the site show) from row on the Findings sheet
// and returns the next free row (row itself for a report that is no
// comparison).
func (w *writer) changes(cs findings.Changes, row int) (int, error) {
	s := SheetFindings
	if !cs.Found {
		return row, nil
	}
	var err error
	put := func(col, row int, v any, st int) {
		if err == nil {
			err = w.put(s, col, row, v, st)
		}
	}
	put(1, row, fmt.Sprintf("What changed — %s → %s: %d of %d changes significant after Holm's adjustment across the table", cs.Old, cs.New, len(cs.Flagged), cs.Tests), w.st.bold)
	row++
	if len(cs.Flagged) == 0 {
		put(1, row, "No change of a model's metric is significant (compare_models has every change with its interval).", w.st.text)
		return row + 1, err
	}
	for i, h := range []string{"model", "metric", "graders", cs.Old, cs.New, "change", "95 % interval", "direction"} {
		put(i+1, row, h, w.st.header)
	}
	if err == nil {
		err = w.f.SetRowHeight(s, row, 32)
	}
	row++
	for _, c := range cs.Flagged {
		// a rate's change in percentage points (the cell holds them),
		// another's in its own unit, signed; the interval as the
		// terminal writes it, without the change before it
		st, dst, delta := w.st.points, w.st.signed, c.Delta
		if findings.IsRate(c.Metric) {
			st, dst, delta = w.st.fraction, w.st.pp, c.Delta*100
		}
		dir := "better"
		if !c.Better {
			dir = "worse"
		}
		iv := c.DeltaText()
		if i := strings.Index(iv, "["); i >= 0 {
			iv = iv[i:]
		} else {
			iv = ""
		}
		for i, v := range []any{c.Name, findings.MetricLabel(c.Metric), c.Who(), c.Old, c.New, delta, iv, dir} {
			cst := w.st.text
			switch i {
			case 3, 4:
				cst = st
			case 5:
				cst = dst
			}
			put(i+1, row, v, cst)
		}
		row++
	}
	return row, err
}

// leaderboard writes the leaderboard from row on the Findings sheet and
// returns the next free row (row itself when the study defines no score
// per model).
func (w *writer) leaderboard(b findings.Board, row int) (int, error) {
	s := SheetFindings
	if len(b.Rows) == 0 {
		return row, nil
	}
	var err error
	put := func(col, row int, v any, st int) {
		if err == nil {
			err = w.put(s, col, row, v, st)
		}
	}
	put(1, row, "Leaderboard — "+b.Caption(), w.st.bold)
	row++
	vst := w.st.points
	switch b.Key {
	case "solve_rate", "checklist", "prbench":
		vst = w.st.fraction
	case "pairwise":
		vst = w.st.float
	}
	for i, h := range []string{"rank", "rank interval", "model", b.Metric, "95 % interval", "group", "n (" + b.NUnit + ")", "cost (USD)"} {
		put(i+1, row, h, w.st.header)
	}
	if err == nil {
		err = w.f.SetRowHeight(s, row, 32) // two lines: "rank interval", "n (gradings)"
	}
	row++
	for _, l := range b.Rows {
		ri := ""
		if t := l.RankText(); strings.Contains(t, "(") {
			ri = strings.TrimSuffix(t[strings.Index(t, "(")+1:], ")")
		}
		iv := strings.TrimPrefix(b.ValueText(l), b.Format(l.Value))
		var cost any
		if !math.IsNaN(l.Cost) {
			cost = l.Cost
		}
		for i, v := range []any{int64(l.Rank), ri, l.Name, l.Value, strings.TrimSpace(iv), l.Group, l.N, cost} {
			st := w.st.text
			switch i {
			case 0, 6:
				st = w.st.integer
			case 3:
				st = vst
			case 7:
				st = w.st.cost
			}
			put(i+1, row, v, st)
		}
		row++
	}
	put(1, row, b.Legend(), w.st.wrap)
	if err == nil {
		err = w.mergeText(row, b.Legend())
	}
	return row + 1, err
}

// mergeText merges columns A–H of row for a long text and gives the row
// the lines the text needs (Excel and LibreOffice do not grow a wrapped
// row when the file is opened).
func (w *writer) mergeText(row int, text string) error {
	a, _ := excelize.CoordinatesToCellName(1, row)
	h, _ := excelize.CoordinatesToCellName(boardCols, row)
	if err := w.f.MergeCell(SheetFindings, a, h); err != nil {
		return err
	}
	if lines := (len([]rune(text)) + textChars - 1) / textChars; lines > 1 {
		return w.f.SetRowHeight(SheetFindings, row, float64(15*lines+2))
	}
	return nil
}

// findingsSheet writes the Findings sheet (the default sheet, renamed):
// the leaderboard with the headline chart beside it (head, when charted:
// its chart and the interval markers drawn over it), then the findings.
func (w *writer) findingsSheet(r *report.Report, b findings.Board, head *headChart) error {
	s := SheetFindings
	f := findings.Make(r)
	row := 1
	var err error
	put := func(col int, v any, st int) {
		if err == nil {
			err = w.put(s, col, row, v, st)
		}
		if text, ok := v.(string); ok && (st == w.st.wrap || st == w.st.header) && err == nil {
			err = w.mergeText(row, text)
		}
	}
	title := r.Title
	if title == "" {
		title = "EuroExec"
	}
	put(1, title, w.st.title)
	row += 2
	cs := findings.WhatChanged(r)
	end, lerr := w.changes(cs, row)
	if lerr != nil {
		return fmt.Errorf("xlsx: findings sheet: what changed: %w", lerr)
	}
	if end, lerr = w.leaderboard(b, end); lerr != nil {
		return fmt.Errorf("xlsx: findings sheet: leaderboard: %w", lerr)
	}
	if head != nil {
		anchor, _ := excelize.CoordinatesToCellName(boardCols+2, row)
		ch := *head.chart
		ch.Dimension = excelize.ChartDimension{Width: headChartWidth, Height: headChartHeight}
		var combos []*excelize.Chart
		if head.combo != nil {
			combos = append(combos, head.combo)
		}
		if err := w.f.AddChart(s, anchor, &ch, combos...); err != nil {
			return fmt.Errorf("xlsx: findings sheet: headline chart: %w", err)
		}
		end = max(end, row+headChartRows)
	}
	row = end + 1
	put(1, "Findings", w.st.header)
	row++
	if len(f.Headlines) == 0 {
		put(1, "(no table of models: nothing to report)", w.st.wrap)
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
	widths := []float64{6, 11, 24, 11, 20, 7, 11, 10}
	if cs.Found {
		widths = []float64{20, 17, 20, 9, 9, 9, 17, 9}
	}
	for i, wd := range widths {
		c, _ := excelize.ColumnNumberToName(i + 1)
		if err := w.f.SetColWidth(s, c, c, wd); err != nil {
			return fmt.Errorf("xlsx: findings sheet: %w", err)
		}
	}
	return w.printSetup(s, 0)
}

// headChart is the headline figure's chart as written on its Charts sheet,
// drawn again on the Findings sheet.
type headChart struct {
	chart, combo *excelize.Chart
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
		{Key: "Intervals", Value: "columns ending _lo and _hi are the ends of the 95 % interval (cluster bootstrap over questions); a rate's interval lies inside [0 %, 100 %]. On the charts, capped error bars are 95 % intervals and dashed bars without caps mean ± 1 SD."},
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
