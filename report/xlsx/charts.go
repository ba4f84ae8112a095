package xlsx

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"regexp"
	"strings"

	"github.com/euroexec/euroexec/report"
	"github.com/xuri/excelize/v2"
)

// chartable says whether a figure kind has a native Excel chart here.
func chartable(f *report.Figure) bool {
	if f == nil {
		return false
	}
	switch f.Kind {
	case report.Bar, report.Histogram, report.Line, report.Scatter:
		return true
	}
	return false
}

// headline says whether a figure is one of the headline figures drawn first:
// on the summary table, a Solve Rate figure, or a comparison's delta dot
// plot.
func headline(f *report.Figure) bool {
	return f.Table == "summary" || strings.Contains(strings.ToLower(f.ID), "solve_rate") || strings.HasPrefix(f.ID, deltaPrefix)
}

// chartFigures picks the figures to chart: headline figures first, then the
// others in report order, at most max (none when max < 0).
func chartFigures(figs []*report.Figure, max int) []*report.Figure {
	if max < 0 {
		return nil
	}
	var first, rest []*report.Figure
	for _, f := range figs {
		if !chartable(f) {
			continue
		}
		if headline(f) {
			first = append(first, f)
		} else {
			rest = append(rest, f)
		}
	}
	out := append(first, rest...)
	if len(out) > max {
		out = out[:max]
	}
	return out
}

const (
	chartWidth  = 760
	chartHeight = 340
	// chartRows is the rows of 15 pt (20 px) from one chart's anchor to
	// the next: the chart covers about 19 (LibreOffice), then a gap row,
	// where a page break falls.
	chartRows  = 20
	chartRowPt = 15 // the height of a chart sheet's rows, in points
)

// ChartsPerSheet is how many charts one chart sheet holds: two printed
// pages of ChartsPerPage.
const ChartsPerSheet = 6

// ChartsPerPage is how many charts one printed page of a chart sheet
// holds (portrait A4).
const ChartsPerPage = 3

// The printed page of a chart sheet: A4 portrait (595.3 × 841.9 pt) with
// margins of chartMarginIn inches, and the scale (percent) at which
// ChartsPerPage charts and the sheet's two top rows fit its height and a
// chart its width: the page breaks between charts then never fall inside
// one (a page fitted by the application could).
const (
	a4WidthPt, a4HeightPt = 595.3, 841.9
	chartMarginIn         = 0.4
	chartHeaderIn         = 0.2
	printSlack            = 0.03
	widthSlack            = 0.35
)

// chartPrintScale is the print scale (percent) of a chart sheet: the
// largest whole percent at which a page holds its two top rows and
// ChartsPerPage charts, and a chart's width, with printSlack to spare
// in height (applications round row heights and margins differently) and
// widthSlack in width (a chart is anchored to columns, whose width in
// pixels follows the default font: LibreOffice without Calibri draws the
// columns about 30 % wider: DejaVu Sans for Calibri).
func chartPrintScale() uint {
	usableH := a4HeightPt - 2*72*chartMarginIn
	usableW := a4WidthPt - 2*72*chartMarginIn
	needH := float64((2+ChartsPerPage*chartRows)*chartRowPt) * (1 + printSlack)
	needW := chartWidth * 0.75 * (1 + widthSlack) // px to pt
	return uint(math.Floor(100 * min(1, usableH/needH, usableW/needW)))
}

// chartAnchorRow is the row the k-th chart of a sheet (from 0) is
// anchored at.
func chartAnchorRow(k int) int { return 3 + k*chartRows }

// chartSheet is the name of the i-th chart sheet (from 1): "Charts",
// "Charts 2", ….
func chartSheet(i int) string {
	if i <= 1 {
		return SheetCharts
	}
	return fmt.Sprintf("%s %d", SheetCharts, i)
}

// chartPrintSetup prints a chart sheet portrait on A4 at chartPrintScale,
// ChartsPerPage charts a page: a manual page break before every
// ChartsPerPage-th chart (before the gap row above it), so that no chart
// is cut by a page boundary.
// (Fitting a sheet to a number of pages would let the application put the
// breaks anywhere, and Excel ignores manual breaks when fitting.)
func (w *writer) chartPrintSetup(sh string) error {
	portrait, size, scale := "portrait", 9, chartPrintScale()
	if err := w.f.SetPageLayout(sh, &excelize.PageLayoutOptions{Orientation: &portrait, Size: &size, AdjustTo: &scale}); err != nil {
		return fmt.Errorf("xlsx: sheet %q: page layout: %w", sh, err)
	}
	fit := false
	if err := w.f.SetSheetProps(sh, &excelize.SheetPropsOptions{FitToPage: &fit}); err != nil {
		return fmt.Errorf("xlsx: sheet %q: fit to page: %w", sh, err)
	}
	m, hf := chartMarginIn, chartHeaderIn
	if err := w.f.SetPageMargins(sh, &excelize.PageLayoutMarginsOptions{Top: &m, Bottom: &m, Left: &m, Right: &m, Header: &hf, Footer: &hf}); err != nil {
		return fmt.Errorf("xlsx: sheet %q: margins: %w", sh, err)
	}
	// Rows of 15 pt whatever the application's default, so that the
	// charts, anchored every chartRows rows, never overlap and the pages
	// hold what chartPrintScale counts.
	for r := 1; r < chartAnchorRow(ChartsPerSheet); r++ {
		if err := w.f.SetRowHeight(sh, r, chartRowPt); err != nil {
			return fmt.Errorf("xlsx: sheet %q: row height: %w", sh, err)
		}
	}
	for k := ChartsPerPage; k < ChartsPerSheet; k += ChartsPerPage {
		// before the gap row above the chart: a chart whose frame
		// touches a page's edge is printed (clipped) on both pages
		cell, _ := excelize.CoordinatesToCellName(1, chartAnchorRow(k)-1)
		if err := w.f.InsertPageBreak(sh, cell); err != nil {
			return fmt.Errorf("xlsx: sheet %q: page break: %w", sh, err)
		}
	}
	return nil
}

// solid is a solid fill of a "#RRGGBB" colour.
func solid(c string) excelize.Fill {
	return excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{strings.TrimPrefix(c, "#")}}
}

// seriesColor is a series' colour: its model's (format.ModelsOf), else a
// neutral one.
func (w *writer) seriesColor(name string, i int) string {
	return w.models.SeriesColor(name, i)
}

// xlsxSymbol is the Excel marker nearest an ECharts symbol (format.Symbols).
func xlsxSymbol(s string) string {
	switch s {
	case "rect", "roundRect":
		return "square"
	case "triangle", "arrow":
		return "triangle"
	case "diamond":
		return "diamond"
	case "pin":
		return "x"
	}
	return "circle"
}

// allWithin says every finite value, interval end, point (x and y) and
// reference line end of f lies in [lo, hi]: then a rate axis stops at
// 100 %.
func allWithin(f *report.Figure, lo, hi float64) bool {
	for _, s := range f.Series {
		for _, list := range [][]float64{s.Values, s.Lo, s.Hi} {
			for _, v := range list {
				if !math.IsNaN(v) && !math.IsInf(v, 0) && (v < lo || v > hi) {
					return false
				}
			}
		}
		for _, p := range s.Points {
			if (!math.IsNaN(p.Y) && (p.Y < lo || p.Y > hi)) || (!math.IsNaN(p.X) && (p.X < lo || p.X > hi)) {
				return false
			}
		}
	}
	for _, l := range f.Lines {
		for _, v := range []float64{l.Y1, l.Y2} {
			if !math.IsNaN(v) && (v < lo || v > hi) {
				return false
			}
		}
	}
	return true
}

// errBar is the custom error bars of one series: references to the
// distances above and below each value; sd draws them dashed without caps
// (mean ± 1 SD), else solid with caps (a confidence interval).
type errBar struct {
	plus, minus string
	sd          bool
}

// errBarXML is the c:errBars element of a category chart series.
func errBarXML(e errBar) []byte {
	var b bytes.Buffer
	noCap, dash := "0", "solid"
	if e.sd {
		noCap, dash = "1", "dash"
	}
	esc := func(s string) string {
		var x bytes.Buffer
		xml.EscapeText(&x, []byte(s))
		return x.String()
	}
	fmt.Fprintf(&b, `<errBars><errBarType val="both"></errBarType><errValType val="cust"></errValType><noEndCap val="%s"></noEndCap>`+
		`<plus><numRef><f>%s</f></numRef></plus><minus><numRef><f>%s</f></numRef></minus>`+
		`<spPr><a:ln w="15875"><a:solidFill><a:srgbClr val="222222"></a:srgbClr></a:solidFill><a:prstDash val="%s"></a:prstDash></a:ln></spPr></errBars>`,
		noCap, esc(e.plus), esc(e.minus), dash)
	return b.Bytes()
}

// addErrBars puts each series' c:errBars before its c:cat (their place in
// CT_BarSer and CT_LineSer).
func addErrBars(b []byte, bars map[string]errBar) []byte {
	for ref, e := range bars {
		var esc bytes.Buffer
		xml.EscapeText(&esc, []byte(ref))
		start := bytes.Index(b, []byte("<tx><strRef><f>"+esc.String()+"</f>"))
		if start < 0 {
			continue
		}
		end := bytes.Index(b[start:], []byte("</ser>"))
		at := bytes.Index(b[start:], []byte("<cat>"))
		if at < 0 || (end >= 0 && at > end) {
			continue
		}
		at += start
		b = append(b[:at:at], append(errBarXML(e), b[at:]...)...)
	}
	return b
}

// categoryColors are the colours of categories that are all models (nil
// when one is not).
func (w *writer) categoryColors(cats []string) []string {
	var out []string
	for _, c := range cats {
		col := w.models.Color[c]
		if col == "" {
			return nil
		}
		out = append(out, col)
	}
	return out
}

// modelName is a model's display name (charts show it), else s.
func (w *writer) modelName(s string) string {
	if d := w.models.Display[s]; d != "" {
		return d
	}
	return s
}

// tickFont is the font of axis tick labels: dark, readable on print.
var tickFont = excelize.Font{Color: "222222", Size: 9}

// dataSheet accumulates the Chart data sheet.
type dataSheet struct {
	w      *writer
	row    int
	maxCol int // the rightmost column written
	err    error
}

func (d *dataSheet) put(col, row int, v any, style int) {
	if d.err != nil {
		return
	}
	d.maxCol = max(d.maxCol, col)
	if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		v = nil
	}
	d.err = d.w.put(SheetChartData, col, row, v, style)
}

// ref is an absolute reference into the Chart data sheet.
func ref(col1, row1, col2, row2 int) string {
	a, _ := excelize.CoordinatesToCellName(col1, row1, true)
	b, _ := excelize.CoordinatesToCellName(col2, row2, true)
	return "'" + SheetChartData + "'!" + a + ":" + b
}

func cellRef(col, row int) string {
	a, _ := excelize.CoordinatesToCellName(col, row, true)
	return "'" + SheetChartData + "'!" + a
}

func axisTitle(name, unit string) string {
	if unit != "" && unit != "%" {
		return name + " (" + unit + ")"
	}
	return name
}

func richTitle(s string) excelize.ChartTitle {
	if s == "" {
		return excelize.ChartTitle{}
	}
	return excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: cutRunes(s, 255)}}}
}

// charts writes the data of figs to the Chart data sheet and a native chart of
// each to the Charts sheet.
func (w *writer) charts(figs []*report.Figure) error {
	if _, err := w.f.NewSheet(SheetChartData); err != nil {
		return fmt.Errorf("xlsx: chart data sheet: %w", err)
	}
	for i := 0; i*ChartsPerSheet < len(figs); i++ {
		sh := chartSheet(i + 1)
		if err := w.put(sh, 1, 1, "Values on \"Chart data\". Capped bars: 95 % intervals; dashed: mean ± 1 SD; none if n < 2.", w.st.bold); err != nil {
			return fmt.Errorf("xlsx: charts sheet: %w", err)
		}
		if err := w.chartPrintSetup(sh); err != nil {
			return err
		}
	}
	d := &dataSheet{w: w, row: 1}
	for k, fig := range figs {
		ch, combo, err := w.figureChart(d, fig)
		if err != nil {
			return fmt.Errorf("xlsx: figure %s: %w", fig.ID, err)
		}
		if ch == nil {
			continue
		}
		if fig == w.headFig {
			// copied before AddChart, which fills in the chart's defaults
			c := *ch
			w.head = &headChart{chart: &c}
			if combo != nil {
				cc := *combo
				w.head.combo = &cc
			}
		}
		anchor, _ := excelize.CoordinatesToCellName(1, chartAnchorRow(k%ChartsPerSheet))
		var combos []*excelize.Chart
		if combo != nil {
			combos = append(combos, combo)
		}
		if err := w.f.AddChart(chartSheet(k/ChartsPerSheet+1), anchor, ch, combos...); err != nil {
			return fmt.Errorf("xlsx: figure %s: chart: %w", fig.ID, err)
		}
	}
	if d.err != nil {
		return fmt.Errorf("xlsx: chart data: %w", d.err)
	}
	if err := w.f.SetColWidth(SheetChartData, "A", "A", 30); err != nil {
		return fmt.Errorf("xlsx: chart data: %w", err)
	}
	// The charts' values are for the record and for the charts, which
	// print them: printed on one page, or not at all when longer.
	if err := w.printSetup(SheetChartData, 1); err != nil {
		return err
	}
	if bulk(d.row - 1) {
		return w.noPrint(SheetChartData, d.maxCol+2)
	}
	return nil
}

// figureChart writes fig's data at d.row and returns its chart (nil when the
// figure has nothing to draw); a combo chart to draw over it is no longer
// made (always nil): intervals are the series' own error bars (errBars).
func (w *writer) figureChart(d *dataSheet, fig *report.Figure) (*excelize.Chart, *excelize.Chart, error) {
	top := d.row
	d.put(1, top, fig.Title+" ["+fig.ID+"]", w.st.bold)
	ch := &excelize.Chart{
		Dimension: excelize.ChartDimension{Width: chartWidth, Height: chartHeight},
		Legend:    excelize.ChartLegend{Position: "bottom"},
		XAxis:     excelize.ChartAxis{Title: richTitle(axisTitle(fig.XName, fig.XUnit)), Font: tickFont},
		YAxis:     excelize.ChartAxis{Title: richTitle(axisTitle(fig.YName, fig.YUnit)), MajorGridLines: true, Font: tickFont},
	}
	ch.Title = richTitle(fig.Title)
	vary := false
	ch.VaryColors = &vary
	// A comparison's delta dot plot: a rate's change in percentage points
	// (values × 100), never "%" (a change of a rate is no rate).
	delta := strings.HasPrefix(fig.ID, deltaPrefix) && fig.Kind != report.Scatter
	scale := 1.0
	switch {
	case delta && fig.Percent:
		scale = 100
		ch.YAxis.Title = richTitle(fig.YName + " (percentage points)")
		ch.YAxis.NumFmt = excelize.ChartNumFmt{CustomNumFmt: "+0;-0;0"}
	case delta:
		ch.YAxis.NumFmt = excelize.ChartNumFmt{CustomNumFmt: "+0.0#;-0.0#;0"}
	case fig.Percent:
		ch.YAxis.NumFmt = excelize.ChartNumFmt{CustomNumFmt: "0%"}
	}
	numericX := fig.Kind == report.Scatter
	if fig.Kind == report.Line {
		for _, s := range fig.Series {
			if len(s.Points) > 0 {
				numericX = true
			}
		}
	}
	if !numericX {
		// Category chart: column A the categories, then one column per
		// series, then the error-bar ends (not drawn in Excel).
		n := len(fig.Categories)
		if n == 0 || len(fig.Series) == 0 {
			d.row = top + 2
			return nil, nil, d.err
		}
		h := top + 1
		d.put(1, h, fig.XName, w.st.header)
		col := 2
		for si, s := range fig.Series {
			d.put(col+si, h, w.modelName(s.Name), w.st.header)
		}
		// Per series with intervals: the distances to the upper and lower
		// ends (Excel's custom error bars), blank where the interval is
		// left out (fewer than 2 observations, zero width, undefined).
		extra := col + len(fig.Series)
		plusCol := map[int]int{}
		for si, s := range fig.Series {
			if len(s.Lo) != n || len(s.Hi) != n {
				continue
			}
			plusCol[si] = extra
			d.put(extra, h, w.modelName(s.Name)+" +", w.st.header)
			d.put(extra+1, h, w.modelName(s.Name)+" −", w.st.header)
			for i := 0; i < n; i++ {
				v, lo, hi := math.NaN(), s.Lo[i], s.Hi[i]
				if i < len(s.Values) {
					v = s.Values[i]
				}
				if lo == hi || (i < len(s.N) && s.N[i] < 2) {
					lo, hi = math.NaN(), math.NaN()
				}
				d.put(extra, h+1+i, (hi-v)*scale, w.st.text)
				d.put(extra+1, h+1+i, (v-lo)*scale, w.st.text)
			}
			extra += 2
		}
		for i, c := range fig.Categories {
			d.put(1, h+1+i, w.modelName(c), w.st.text)
			for si, s := range fig.Series {
				v := math.NaN()
				if i < len(s.Values) {
					v = s.Values[i]
				}
				d.put(col+si, h+1+i, v*scale, w.st.text)
			}
		}
		ch.Type = excelize.Col
		dots := fig.Dots && fig.Kind == report.Bar
		if fig.Kind == report.Line || dots {
			ch.Type = excelize.Line
		}
		if fig.Kind == report.Histogram {
			gap := uint(5)
			ch.GapWidth = &gap
		}
		if fig.InverseY {
			ch.YAxis.ReverseOrder = true
		}
		if fig.Percent && !delta && allWithin(fig, 0, 1) {
			zero, one := 0.0, 1.0
			ch.YAxis.Minimum, ch.YAxis.Maximum = &zero, &one
		}
		if delta {
			// Zero in sight: the value axis spans zero and every interval,
			// the category axis crosses it at zero (the line of no
			// change, drawn dark at save: zeroLines) with the model names
			// below the plot; the categories name the models, so no
			// legend.
			lo, hi, step := deltaAxis(fig, scale)
			ch.YAxis.Minimum, ch.YAxis.Maximum, ch.YAxis.MajorUnit = &lo, &hi, step
			ch.XAxis.TickLabelPosition = excelize.ChartTickLabelLow
			ch.Legend = excelize.ChartLegend{Position: "none"}
		}
		for si, s := range fig.Series {
			cs := excelize.ChartSeries{
				Name:       cellRef(col+si, h),
				Categories: ref(1, h+1, 1, h+n),
				Values:     ref(col+si, h+1, col+si, h+n),
			}
			col := w.seriesColor(s.Name, si)
			cs.Fill = solid(col)
			switch {
			case dots:
				// A value with no zero (a rank, a rating): a dot, no bar
				// from zero, no line between models.
				cs.Marker = excelize.ChartMarker{Symbol: "circle", Size: 9, Fill: solid(col), Border: excelize.LineOptions{Type: excelize.LineSolid, Fill: solid(col)}}
				cs.Line = excelize.LineOptions{Type: excelize.LineNone}
			case delta:
				cs.Marker = excelize.ChartMarker{Symbol: xlsxSymbol(w.models.Symbol[s.Name]), Size: 9, Fill: solid(col), Border: excelize.LineOptions{Type: excelize.LineSolid, Fill: solid(col)}}
				cs.Line = excelize.LineOptions{Type: excelize.LineNone}
			case fig.Kind == report.Line:
				cs.Marker = excelize.ChartMarker{Symbol: xlsxSymbol(w.models.Symbol[s.Name]), Size: 6, Fill: solid(col)}
				cs.Line = excelize.LineOptions{Type: excelize.LineSolid, Width: 1.75, Fill: solid(col)}
			}
			if pc, ok := plusCol[si]; ok {
				w.errBars[cs.Name] = errBar{plus: ref(pc, h+1, pc, h+n), minus: ref(pc+1, h+1, pc+1, h+n), sd: s.SD}
			}
			// excelize writes per-point colours (c:dPt) for pie charts
			// only: a one-series bar chart over models gets its models'
			// colours per bar when the workbook is saved (patchParts).
			if fig.Kind == report.Bar && !dots && len(fig.Series) == 1 {
				if cols := w.categoryColors(fig.Categories); cols != nil {
					w.pointColors[cs.Name] = cols
				}
			}
			ch.Series = append(ch.Series, cs)
		}
		if delta && len(ch.Series) > 0 {
			w.zeroLines[ch.Series[0].Name] = true
		}
		// One series: the axis and the title name it, a legend would only
		// repeat it (or show a swatch matching none of the model colours).
		if len(fig.Series) == 1 {
			ch.Legend = excelize.ChartLegend{Position: "none"}
		}
		d.row = h + n + 2
		return ch, nil, d.err
	}

	// Numeric x: two columns (x, y) per series and per reference line.
	h := top + 1
	col := 1
	longest := 0
	ch.Type = excelize.Scatter
	if fig.LogX {
		// excelize v2.11 writes a log base on the value (y) axis only, so
		// the x axis stays linear here and says so.
		ch.XAxis.Title = richTitle(axisTitle(fig.XName, fig.XUnit) + " — linear here, log scale on the site")
	}
	if fig.Percent && fig.XUnit == "%" {
		ch.XAxis.NumFmt = excelize.ChartNumFmt{CustomNumFmt: "0%"}
	}
	if fig.Percent && !fig.LogY && allWithin(fig, 0, 1) {
		zero, one := 0.0, 1.0
		ch.YAxis.Minimum, ch.YAxis.Maximum = &zero, &one
		if fig.XUnit == "%" && !fig.LogX {
			ch.XAxis.Minimum, ch.XAxis.Maximum = &zero, &one
		}
	}
	if fig.LogY {
		ch.YAxis.LogBase = 10
		ch.YAxis.NumFmt = excelize.ChartNumFmt{CustomNumFmt: "0.0E+00"}
	}
	yOK := func(y float64) float64 { // a log axis cannot show y ≤ 0
		if fig.LogY && !(y > 0) {
			return math.NaN()
		}
		return y
	}
	for si, s := range fig.Series {
		if len(s.Points) == 0 {
			continue
		}
		scol := w.seriesColor(s.Name, si)
		d.put(col, h, w.modelName(s.Name), w.st.header)
		d.put(col+1, h, s.Name+" ("+fig.YName+")", w.st.header)
		for i, p := range s.Points {
			d.put(col, h+1+i, p.X, w.st.text)
			d.put(col+1, h+1+i, yOK(p.Y), w.st.text)
		}
		cs := excelize.ChartSeries{
			Name:       cellRef(col, h),
			Categories: ref(col, h+1, col, h+len(s.Points)),
			Values:     ref(col+1, h+1, col+1, h+len(s.Points)),
			Marker:     excelize.ChartMarker{Symbol: "circle", Size: 7, Fill: solid(scol), Border: excelize.LineOptions{Type: excelize.LineSolid, Fill: solid(scol)}},
		}
		cs.Fill = solid(scol) // excelize draws a series' line in its fill colour
		if fig.Kind == report.Scatter {
			cs.Line = excelize.LineOptions{Type: excelize.LineNone}
		} else {
			cs.Line = excelize.LineOptions{Type: excelize.LineSolid, Width: 1.5, Fill: solid(scol)}
		}
		ch.Series = append(ch.Series, cs)
		longest = max(longest, len(s.Points))
		col += 2
	}
	for _, l := range fig.Lines {
		d.put(col, h, l.Name, w.st.header)
		d.put(col+1, h, l.Name+" (y)", w.st.header)
		d.put(col, h+1, l.X1, w.st.text)
		d.put(col+1, h+1, yOK(l.Y1), w.st.text)
		d.put(col, h+2, l.X2, w.st.text)
		d.put(col+1, h+2, yOK(l.Y2), w.st.text)
		ch.Series = append(ch.Series, excelize.ChartSeries{
			Name:       cellRef(col, h),
			Categories: ref(col, h+1, col, h+2),
			Values:     ref(col+1, h+1, col+1, h+2),
			Marker:     excelize.ChartMarker{Symbol: "none"},
			Fill:       solid("#666666"),
			Line:       excelize.LineOptions{Type: excelize.LineSolid, Dash: excelize.LineDashDash, Width: 1},
		})
		longest = max(longest, 2)
		col += 2
	}
	d.row = h + longest + 2
	if len(ch.Series) == 0 {
		return nil, nil, d.err
	}
	return ch, nil, d.err
}

// deltaAxis is the value axis of a delta dot plot, values times scale:
// from below the lowest value or interval end to above the highest, zero
// always inside, in round steps of about a fifth of the span.
func deltaAxis(fig *report.Figure, scale float64) (lo, hi, step float64) {
	for _, s := range fig.Series {
		for _, list := range [][]float64{s.Values, s.Lo, s.Hi} {
			for _, v := range list {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					lo, hi = min(lo, v*scale), max(hi, v*scale)
				}
			}
		}
	}
	if hi-lo <= 0 {
		return -1, 1, 0.5
	}
	raw := (hi - lo) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step = 10 * mag
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	lo = math.Floor(lo/step) * step
	hi = math.Ceil(hi/step) * step
	// a point on the frame would hide its whisker's cap
	if v := minAbsEnd(fig, scale, lo); v < step/4 {
		lo -= step
	}
	if v := minAbsEnd(fig, scale, hi); v < step/4 {
		hi += step
	}
	return lo, hi, step
}

// minAbsEnd is the least distance of a value or interval end of fig (times
// scale) to edge, an axis end other than zero (+Inf for edge 0).
func minAbsEnd(fig *report.Figure, scale, edge float64) float64 {
	d := math.Inf(1)
	if edge == 0 {
		return d
	}
	for _, s := range fig.Series {
		for _, list := range [][]float64{s.Values, s.Lo, s.Hi} {
			for _, v := range list {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					d = min(d, math.Abs(v*scale-edge))
				}
			}
		}
	}
	return d
}

// zeroLine draws the category axis of a delta dot plot (the chart holding
// a series whose name cell is a key of zeroLines) as the dark line of no
// change: excelize draws it light grey.
func zeroLine(b []byte, zeroLines map[string]bool) []byte {
	for ref := range zeroLines {
		var esc bytes.Buffer
		xml.EscapeText(&esc, []byte(ref))
		if !bytes.Contains(b, []byte("<tx><strRef><f>"+esc.String()+"</f>")) {
			continue
		}
		start := bytes.Index(b, []byte("<catAx>"))
		end := bytes.Index(b, []byte("</catAx>"))
		const pos = `<tickLblPos val="low"></tickLblPos><spPr>`
		at := bytes.Index(b[max(start, 0):], []byte(pos))
		if start < 0 || end < 0 || at < 0 || start+at > end {
			continue
		}
		at += start + len(pos) - len("<spPr>")
		stop := bytes.Index(b[at:], []byte("</spPr>"))
		if stop < 0 {
			continue
		}
		line := []byte(`<spPr><a:ln w="15875"><a:solidFill><a:srgbClr val="222222"></a:srgbClr></a:solidFill></a:ln></spPr>`)
		b = append(b[:at:at], append(line, b[at+stop+len("</spPr>"):]...)...)
	}
	return b
}

// xValRe matches the x values of a scatter series, which excelize v2.11
// writes as a string reference: LibreOffice then reads the numbers as text
// and draws no points.
var xValRe = regexp.MustCompile(`<xVal><strRef><f>([^<]*)</f>(?:<strCache>.*?</strCache>)?</strRef></xVal>`)

// pointColorXML is the c:dPt elements that colour the points of a bar
// series one by one (hex colours "#RRGGBB").
func pointColorXML(cols []string) []byte {
	var b bytes.Buffer
	for i, c := range cols {
		fmt.Fprintf(&b, `<dPt><idx val="%d"></idx><invertIfNegative val="0"></invertIfNegative><bubble3D val="0"></bubble3D>`+
			`<spPr><a:solidFill><a:srgbClr val="%s"></a:srgbClr></a:solidFill></spPr></dPt>`, i, strings.TrimPrefix(c, "#"))
	}
	return b.Bytes()
}

// colorPoints adds per-point colours to the bar series whose name cell is a
// key of pointColors: c:dPt elements after the series' invertIfNegative
// (their place in CT_BarSer).
func colorPoints(b []byte, pointColors map[string][]string) []byte {
	for ref, cols := range pointColors {
		var esc bytes.Buffer
		xml.EscapeText(&esc, []byte(ref))
		start := bytes.Index(b, []byte("<tx><strRef><f>"+esc.String()+"</f>"))
		if start < 0 {
			continue
		}
		const inv = `<invertIfNegative val="0"></invertIfNegative>`
		end := bytes.Index(b[start:], []byte("</ser>"))
		at := bytes.Index(b[start:], []byte(inv))
		if at < 0 || (end >= 0 && at > end) {
			continue
		}
		at += start + len(inv)
		b = append(b[:at:at], append(pointColorXML(cols), b[at:]...)...)
	}
	return b
}

// patchParts rewrites the chart parts of a saved workbook so that scatter x
// values are a number reference and one-series bar charts over models have
// their models' colours per bar (pointColors: series name cell → colours);
// every other part is copied still compressed.
func patchParts(in []byte, pointColors map[string][]string, bars map[string]errBar, zeroLines map[string]bool) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(in), int64(len(in)))
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, zf := range zr.File {
		if !(strings.HasPrefix(zf.Name, "xl/charts/chart") && strings.HasSuffix(zf.Name, ".xml")) {
			// Every other part is copied as it is, still compressed.
			raw, err := zf.OpenRaw()
			if err != nil {
				return nil, err
			}
			fh := zf.FileHeader
			wf, err := zw.CreateRaw(&fh)
			if err != nil {
				return nil, err
			}
			if _, err := io.Copy(wf, raw); err != nil {
				return nil, err
			}
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		b = xValRe.ReplaceAll(b, []byte(`<xVal><numRef><f>$1</f></numRef></xVal>`))
		b = colorPoints(b, pointColors)
		b = addErrBars(b, bars)
		b = zeroLine(b, zeroLines)
		wf, err := zw.CreateHeader(&zip.FileHeader{Name: zf.Name, Method: zf.Method, Modified: zf.Modified})
		if err != nil {
			return nil, err
		}
		if _, err := wf.Write(b); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
