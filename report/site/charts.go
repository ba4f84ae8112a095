package site

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/format"
)

// The chart options are built with go-echarts' typed option structs
// (charts.NewBar, NewLine, NewScatter, NewHeatMap). Its Render* methods are
// never called: they write the options into a <script> with HTML escaping
// turned off, so a series named "</script>" would end the script. Instead
// chart.JSON() (a map of the option structs) is marshalled here with
// encoding/json, which escapes <, > and &, into a
// <script type="application/json"> element read with JSON.parse. Fields
// go-echarts lacks (z order of a series, a log y axis, the y axis name's
// placement) are added by a charts.ConfigurationVisitor. The option is data
// only; the page's own script (static/site.js) adds the functions: an
// escaping tooltip formatter, percent axis labels and the error-bar renderer.

// chartSpec is what a page embeds for one figure: the ECharts option and the
// hints site.js needs to add its functions.
type chartSpec struct {
	Option map[string]any `json:"option"`
	Meta   chartMeta      `json:"meta"`
}

type chartMeta struct {
	Kind     string `json:"kind"`
	Percent  bool   `json:"percent"`  // y values are fractions, shown as percent
	XPercent bool   `json:"xPercent"` // x values too (scatter with XUnit "%")
	// ErrorBars lists, per custom series index, the bar it belongs to.
	ErrorBars map[string]errorBar `json:"errorBars,omitempty"`
	// Dropped counts points that a log axis cannot show (x or y ≤ 0).
	Dropped int `json:"dropped,omitempty"`
	// LogY says the y axis is logarithmic (labels in exponent form).
	LogY bool `json:"logY,omitempty"`
	// Flip says the chart is a category chart (bars or dots) that turns
	// into horizontal bars on a narrow screen, so every name is readable.
	Flip bool `json:"flip,omitempty"`
	// Title, Subtitle and Footnote are what an exported image carries:
	// the figure's title, its axes and the study, n, interval method and
	// date.
	Title    string `json:"title"`
	Subtitle string `json:"subtitle,omitempty"`
	Footnote string `json:"footnote,omitempty"`
}

type errorBar struct {
	Slot  int  `json:"slot"`         // the bar's place in its category group
	Slots int  `json:"slots"`        // bars per category
	SD    bool `json:"sd,omitempty"` // mean ± 1 SD: dashed, no caps
}

// specInfo is what a figure's page shows beside its chart.
type specInfo struct {
	Dropped int // points a log axis cannot show
	// Whiskers says what the whiskers are ("" when there are none).
	Whiskers string
	// Suppressed counts the intervals not drawn because they rest on
	// fewer than 2 observations or have zero width.
	Suppressed int
	// Desc is the chart's text description, from its data (aria).
	Desc string
}

// num is a float that marshals NaN and ±Inf as null (ECharts draws a gap).
type num float64

func (n num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

func axisName(name, unit string) string {
	if unit != "" {
		return name + " (" + unit + ")"
	}
	return name
}

// neutral colours for series that are not models (e.g. "humans", "share").
var neutral = format.Neutral

// chartStyle is what all charts of a site share: one colour per model and the
// models' display names (format.ModelsOf).
type chartStyle struct {
	color   map[string]string // model id or display name → colour
	display map[string]string // model id → display name
	models  format.Models
	// footnote is the study part of an exported chart's footnote: the
	// study's title, its questions and the run's date.
	footnote string
}

func newChartStyle(r *report.Report) *chartStyle {
	m := format.ModelsOf(r)
	st := &chartStyle{color: m.Color, display: m.Display, models: m}
	if r != nil {
		parts := []string{r.Title}
		if r.Overview.Questions > 0 {
			parts = append(parts, fmt.Sprintf("n = %d questions", r.Overview.Questions))
		}
		if !r.GeneratedAt.IsZero() {
			parts = append(parts, r.GeneratedAt.UTC().Format("2006-01-02"))
		}
		st.footnote = strings.Join(nonEmpty(parts), " · ")
	}
	return st
}

// symbol is the model's marker symbol (format.Symbols), "circle" for
// other series.
func (st *chartStyle) symbol(s string) string {
	if st != nil {
		if x := st.models.Symbol[s]; x != "" {
			return x
		}
	}
	return "circle"
}

// dash is the line dash of a model's line, "solid" for other series.
func (st *chartStyle) dash(s string) string {
	if st != nil {
		if x := st.models.Dash[s]; x != "" {
			return x
		}
	}
	return "solid"
}

// name is the display name of a model id, or s itself.
func (st *chartStyle) name(s string) string {
	if st != nil {
		if d, ok := st.display[s]; ok {
			return d
		}
	}
	return s
}

func (st *chartStyle) names(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = st.name(x)
	}
	return out
}

// modelColor is the model's colour, "" when s is not a model.
func (st *chartStyle) modelColor(s string) string {
	if st == nil {
		return ""
	}
	return st.color[s]
}

// seriesColor is the colour of a series: its model's, else the one its
// name has in every chart (format.Models.Other).
func (st *chartStyle) seriesColor(s string, i int) string {
	if st == nil {
		return neutral[i%len(neutral)]
	}
	return st.models.SeriesColor(s, i)
}

// visitor adds the options go-echarts has no field for.
type visitor struct {
	charts.BaseConfigurationVisitor
	z map[int]int // series index → z
	// endLabel lists the series that name themselves at their end.
	endLabel map[int]bool
	logY     bool
	yAxisX   map[string]any // extra y-axis fields
	xAxisX   map[string]any // extra x-axis fields
}

// seriesZ is one series with its z order, which SingleSeries lacks.
type seriesZ struct {
	charts.SingleSeries
	Z        int            `json:"z,omitempty"`
	EndLabel map[string]any `json:"endLabel,omitempty"`
}

func (v visitor) VisitSeriesOpt(series charts.MultiSeries) any {
	out := make([]seriesZ, len(series))
	for i, s := range series {
		out[i] = seriesZ{SingleSeries: s, Z: v.z[i]}
		if v.endLabel[i] {
			out[i].EndLabel = map[string]any{"show": true, "formatter": "{a}", "color": "#595959"}
		}
	}
	return out
}

// axisWith is an option (an axis, the tooltip) with extra fields.
type axisWith[T any] struct {
	Axis  T
	Extra map[string]any
}

// VisitTooltipOpt keeps the tooltip inside the chart (confine).
func (v visitor) VisitTooltipOpt(t opts.Tooltip) any {
	return axisWith[opts.Tooltip]{t, map[string]any{"confine": true}}
}

func (a axisWith[T]) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(a.Axis)
	if err != nil {
		return nil, err
	}
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, x := range a.Extra {
		m[k] = x
	}
	return json.Marshal(m)
}

func (v visitor) VisitXAxis(x []opts.XAxis) any {
	out := make([]axisWith[opts.XAxis], len(x))
	for i := range x {
		out[i] = axisWith[opts.XAxis]{x[i], v.xAxisX}
	}
	return out
}

func (v visitor) VisitYAxis(y []opts.YAxis) any {
	out := make([]axisWith[opts.YAxis], len(y))
	for i := range y {
		out[i] = axisWith[opts.YAxis]{y[i], v.yAxisX}
	}
	return out
}

// Chart layout, in pixels: the title on top, the legend under it, the plot
// below; the y axis name stands above the axis (never beside the tick
// labels); the x axis name stands under the tick labels at a gap that clears
// rotated labels.
const (
	titleTop  = 4
	legendTop = 28
	gridTop   = 78
	fontPx    = 12 // ECharts' default label size
)

// longestPx is the estimated width in pixels of the longest label.
func longestPx(cats []string) float64 {
	long := 0
	for _, c := range cats {
		long = max(long, len([]rune(c)))
	}
	return float64(long) * fontPx * 0.62
}

// xNameGap is the gap between the x axis and its name that clears the tick
// labels: one line, or the height of the longest label turned by rot degrees.
func xNameGap(cats []string, rot int) int {
	if rot == 0 {
		return 30
	}
	long := 0
	for _, c := range cats {
		long = max(long, len([]rune(c)))
	}
	w := float64(long) * fontPx * 0.62 // average glyph width
	h := w*math.Sin(float64(rot)*math.Pi/180) + fontPx
	return int(math.Ceil(h)) + 22
}

// legendEntry is one series a legend could name.
type legendEntry struct {
	name string
	// drawn says the series has at least one point on the chart, and
	// drawn in the legend's colour (not point by point in other colours).
	drawn bool
}

// buildSpec turns a Figure into the JSON a page embeds and what the page
// says beside it. It does not fail on odd data: short value slices leave
// gaps, NaN and ±Inf are null.
//
// Encodings: a legend only when it names two or more series that are
// drawn in its colours; values with no zero (Figure.Dots) as dots with
// intervals; mean ± SD whiskers dashed without caps, confidence intervals
// solid with caps; no interval from fewer than 2 observations or of zero
// width (n is written instead); a percent axis never past 100 %; each
// model its colour and symbol.
func buildSpec(f *report.Figure, st *chartStyle) ([]byte, specInfo, error) {
	var info specInfo
	meta := chartMeta{Kind: string(f.Kind), Percent: f.Percent, XPercent: f.Percent && f.XUnit == "%", LogY: f.LogY, Title: f.Title}
	vis := visitor{z: map[int]int{}, endLabel: map[int]bool{}, logY: f.LogY, xAxisX: map[string]any{}, yAxisX: map[string]any{}}
	yName := axisName(f.YName, f.YUnit)
	xName := axisName(f.XName, f.XUnit)
	// The y name above the axis, left-aligned: it cannot touch tick labels.
	vis.yAxisX["nameLocation"] = "end"
	vis.yAxisX["nameGap"] = 14
	vis.yAxisX["nameTextStyle"] = map[string]any{"align": "left", "fontWeight": "bold"}
	vis.xAxisX["nameTextStyle"] = map[string]any{"fontWeight": "bold"}
	if f.LogY {
		vis.yAxisX["type"] = "log"
		vis.yAxisX["logBase"] = 10
	}
	if f.InverseY {
		// Inverted, the axis' start is its top: the name stays above it.
		vis.yAxisX["inverse"] = true
		vis.yAxisX["nameLocation"] = "start"
	}
	dark := &opts.AxisLabel{Color: "#222"}

	global := []charts.GlobalOpts{
		charts.WithAnimation(false),
		charts.WithTitleOpts(opts.Title{Title: f.Title, Left: "center", Top: fmt.Sprint(titleTop),
			TitleStyle: &opts.TextStyle{FontSize: 14}}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Type: "scroll", Top: fmt.Sprint(legendTop), Left: "center"}),
	}

	numericX := f.Kind == report.Scatter
	if f.Kind == report.Line {
		for _, s := range f.Series {
			if len(s.Points) > 0 {
				numericX = true
			}
		}
	}

	var base *charts.RectChart
	var legend []legendEntry
	switch {
	case f.Kind == report.Heatmap:
		c := charts.NewHeatMap()
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, s := range f.Series {
			data := make([]opts.HeatMapData, 0, len(s.Cells))
			for _, cell := range s.Cells {
				data = append(data, opts.HeatMapData{Value: [3]any{cell.X, cell.Y, num(cell.Value)}})
				if !math.IsNaN(cell.Value) && !math.IsInf(cell.Value, 0) {
					lo, hi = math.Min(lo, cell.Value), math.Max(hi, cell.Value)
				}
			}
			c.AddSeries(s.Name, data, charts.WithLabelOpts(opts.Label{Show: opts.Bool(len(s.Cells) <= 200)}))
		}
		if f.Percent || math.IsInf(lo, 0) {
			lo, hi = 0, 1
		}
		if lo == hi {
			hi = lo + 1
		}
		c.SetXAxis(st.names(nonNil(f.Categories)))
		rot := rotation(f.Categories)
		c.SetGlobalOptions(append(global,
			charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
			charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
			charts.WithVisualMapOpts(opts.VisualMap{Calculable: opts.Bool(true), Orient: "horizontal", Left: "center", Bottom: "0",
				Min: float32(lo), Max: float32(hi)}),
			charts.WithGridOpts(opts.Grid{Left: "16", Right: "24", Top: fmt.Sprint(gridTop - 30),
				Bottom: fmt.Sprint(xNameGap(f.Categories, rot) + 60), ContainLabel: opts.Bool(true)}),
			charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: xName, NameLocation: "middle", NameGap: xNameGap(f.Categories, rot),
				SplitArea: &opts.SplitArea{Show: opts.Bool(true)},
				AxisLabel: &opts.AxisLabel{Color: "#222", Interval: "0", Rotate: float64(rot), HideOverlap: opts.Bool(true)}}),
			charts.WithYAxisOpts(opts.YAxis{Type: "category", Name: yName, Data: st.names(nonNil(f.YCategories)),
				SplitArea: &opts.SplitArea{Show: opts.Bool(true)}, AxisLabel: dark}),
		)...)
		base = &c.RectChart

	case numericX:
		xType := "value"
		if f.LogX {
			xType = "log"
			vis.xAxisX["logBase"] = 10
		}
		var rc *charts.RectChart
		add := func(name, typ string, data any, so ...charts.SeriesOpts) {
			s := charts.SingleSeries{Name: name, Type: typ, Data: data}
			s.ConfigureSeriesOpts(so...)
			rc.MultiSeries = append(rc.MultiSeries, s)
		}
		if f.Kind == report.Scatter {
			rc = &charts.NewScatter().RectChart
		} else {
			rc = &charts.NewLine().RectChart
		}
		for si, s := range f.Series {
			col := st.seriesColor(s.Name, si)
			e := legendEntry{name: st.name(s.Name)}
			if f.Kind == report.Scatter {
				data := []opts.ScatterData{}
				for _, p := range s.Points {
					if dropLog(f, p.X, p.Y) {
						info.Dropped++
						continue
					}
					lab := st.name(p.Label)
					d := opts.ScatterData{Name: lab, Value: [3]any{num(p.X), num(p.Y), lab}, SymbolSize: 10}
					data = append(data, d)
				}
				items, own := pointStyle(data, st, col)
				e.drawn = len(data) > 0 && !own
				add(st.name(s.Name), "scatter", items,
					charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Position: "right", Formatter: "{b}", Color: "#222"}),
					charts.WithLabelLayoutOpts(opts.LabelLayout{HideOverlap: opts.Bool(false), MoveOverlap: "shiftY"}),
					charts.WithItemStyleOpts(opts.ItemStyle{Color: col}))
			} else {
				data := []opts.LineData{}
				for _, p := range s.Points {
					if dropLog(f, p.X, p.Y) {
						info.Dropped++
						continue
					}
					data = append(data, opts.LineData{Name: st.name(p.Label), Value: [3]any{num(p.X), num(p.Y), st.name(p.Label)}, SymbolSize: 6})
				}
				e.drawn = len(data) > 0
				ss := charts.SingleSeries{Name: st.name(s.Name), Type: "line", Data: data, Symbol: st.symbol(s.Name)}
				ss.ConfigureSeriesOpts(charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true)}),
					charts.WithItemStyleOpts(opts.ItemStyle{Color: col}),
					charts.WithLineStyleOpts(opts.LineStyle{Color: col, Width: 2, Type: st.dash(s.Name)}))
				rc.MultiSeries = append(rc.MultiSeries, ss)
			}
			legend = append(legend, e)
		}
		for _, l := range f.Lines {
			if dropLog(f, l.X1, l.Y1) || dropLog(f, l.X2, l.Y2) {
				info.Dropped++
				continue
			}
			vis.z[len(rc.MultiSeries)] = 1
			// The line says its name at its end: no legend is needed for it.
			add(l.Name, "line", [][2]num{{num(l.X1), num(l.Y1)}, {num(l.X2), num(l.Y2)}},
				charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}),
				charts.WithItemStyleOpts(opts.ItemStyle{Color: "#595959"}),
				charts.WithLineStyleOpts(opts.LineStyle{Type: "dashed", Width: 1.5, Color: "#595959"}),
				charts.WithSeriesAnimation(false))
			vis.endLabel[len(rc.MultiSeries)-1] = true
			legend = append(legend, legendEntry{name: l.Name, drawn: true})
		}
		xAxis := opts.XAxis{Type: xType, Name: xName, NameLocation: "middle", NameGap: 30, Scale: opts.Bool(true), AxisLabel: dark}
		yAxis := opts.YAxis{Type: "value", Name: yName, Scale: opts.Bool(f.Kind == report.Scatter), AxisLabel: dark}
		if f.Percent && !f.LogY && allWithin(f, 0, 1, true) {
			yAxis.Min, yAxis.Max = 0, 1
		}
		if meta.XPercent && !f.LogX && allWithin(f, 0, 1, false) {
			xAxis.Min, xAxis.Max = 0, 1
		}
		rc.SetGlobalOptions(append(global,
			charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
			charts.WithGridOpts(opts.Grid{Left: "16", Right: "90", Top: fmt.Sprint(gridTop), Bottom: "48", ContainLabel: opts.Bool(true)}),
			charts.WithXAxisOpts(xAxis),
			charts.WithYAxisOpts(yAxis),
		)...)
		base = rc

	default: // Bar, Histogram, categorical Line
		n := len(f.Categories)
		typ := "bar"
		if f.Kind == report.Line {
			typ = "line"
		}
		dots := f.Dots && f.Kind == report.Bar
		var rc *charts.RectChart
		if typ == "bar" {
			b := charts.NewBar()
			b.SetXAxis(st.names(nonNil(f.Categories)))
			rc = &b.RectChart
		} else {
			l := charts.NewLine()
			l.SetXAxis(st.names(nonNil(f.Categories)))
			rc = &l.RectChart
		}
		// One series over model categories: each bar in its model's colour.
		perItem := typ == "bar" && len(f.Series) == 1
		meta.Flip = typ == "bar" && f.Kind == report.Bar
		bars := len(f.Series)
		sdNames, ciNames := 0, 0
		for si, s := range f.Series {
			col := st.seriesColor(s.Name, si)
			e := legendEntry{name: st.name(s.Name)}
			var data any
			switch {
			case dots:
				d := make([]scatterItem, n)
				for i := range d {
					v := math.NaN()
					if i < len(s.Values) {
						v = s.Values[i]
					}
					e.drawn = e.drawn || finite(v)
					d[i] = scatterItem{ScatterData: opts.ScatterData{Value: num(v), SymbolSize: 12, Symbol: st.symbol(f.Categories[i])}}
					if mc := st.modelColor(f.Categories[i]); mc != "" && perItem {
						d[i].ItemStyle = &opts.ItemStyle{Color: mc}
					}
				}
				data = d
			case typ == "bar":
				d := make([]opts.BarData, n)
				for i := range d {
					v := math.NaN()
					if i < len(s.Values) {
						v = s.Values[i]
					}
					e.drawn = e.drawn || finite(v)
					d[i] = opts.BarData{Value: num(v)}
					if perItem {
						if mc := st.modelColor(f.Categories[i]); mc != "" {
							d[i].ItemStyle = &opts.ItemStyle{Color: mc}
						}
					}
				}
				data = d
			default:
				d := make([]opts.LineData, n)
				for i := range d {
					v := math.NaN()
					if i < len(s.Values) {
						v = s.Values[i]
					}
					e.drawn = e.drawn || finite(v)
					d[i] = opts.LineData{Value: num(v)}
				}
				data = d
			}
			stype := typ
			if dots {
				stype = "scatter"
			}
			ss := charts.SingleSeries{Name: st.name(s.Name), Type: stype, Data: data}
			ss.ConfigureSeriesOpts(charts.WithItemStyleOpts(opts.ItemStyle{Color: col}))
			switch {
			case dots:
				vis.z[len(rc.MultiSeries)] = 12
			case typ == "bar":
				ss.BarGap = "30%"
				ss.BarCategoryGap = "20%"
				if f.Kind == report.Histogram {
					ss.BarCategoryGap = "2%"
				}
			default:
				ss.ConnectNulls = opts.Bool(false)
				ss.Symbol = st.symbol(s.Name)
				ss.ConfigureSeriesOpts(charts.WithLineStyleOpts(opts.LineStyle{Color: col, Width: 2, Type: st.dash(s.Name)}))
			}
			rc.MultiSeries = append(rc.MultiSeries, ss)
			legend = append(legend, e)
			if len(s.Lo) == n && len(s.Hi) == n && n > 0 {
				eb := make([][5]any, 0, n)
				for i := 0; i < n; i++ {
					lo, hi := s.Lo[i], s.Hi[i]
					v := math.NaN()
					if i < len(s.Values) {
						v = s.Values[i]
					}
					var nn any
					if i < len(s.N) {
						nn = s.N[i]
					}
					// An interval from fewer than 2 observations, or of
					// zero width, claims a certainty the data lack: not
					// drawn, n is written at the value instead.
					if finite(lo) && finite(hi) && ((i < len(s.N) && s.N[i] < 2) || lo == hi) {
						lo, hi = math.NaN(), math.NaN()
						info.Suppressed++
						if nn == nil {
							nn = "<2"
						}
					} else {
						nn = nil
					}
					eb = append(eb, [5]any{i, num(lo), num(hi), nn, num(v)})
				}
				if meta.ErrorBars == nil {
					meta.ErrorBars = map[string]errorBar{}
				}
				slot, slots := si, bars
				if typ == "line" || dots {
					slot, slots = -1, bars // on the point itself
				}
				meta.ErrorBars[fmt.Sprint(len(rc.MultiSeries))] = errorBar{Slot: slot, Slots: slots, SD: s.SD}
				if s.SD {
					sdNames++
				} else {
					ciNames++
				}
				vis.z[len(rc.MultiSeries)] = 10
				cs := charts.SingleSeries{Name: st.name(s.Name), Type: "custom", Data: eb}
				cs.Encode = &opts.Encode{X: 0, Y: []int{1, 2}}
				rc.MultiSeries = append(rc.MultiSeries, cs)
			}
		}
		switch {
		case sdNames > 0 && ciNames > 0:
			info.Whiskers = "Dashed whiskers without caps: mean ± 1 SD (the spread of the data); solid whiskers with caps: 95 % intervals."
		case sdNames > 0:
			info.Whiskers = "Whiskers (dashed, no caps): mean ± 1 SD, the spread of the data — not a confidence interval."
		case ciNames > 0:
			info.Whiskers = "Whiskers (solid, with caps): 95 % intervals."
		}
		rot := rotation(f.Categories)
		gap := xNameGap(st.names(f.Categories), rot)
		yAxis := opts.YAxis{Type: "value", Name: yName, AxisLabel: dark, Scale: opts.Bool(dots)}
		if f.Percent && !f.LogY && allWithin(f, 0, 1, true) {
			yAxis.Min, yAxis.Max = 0, 1
		}
		if f.InverseY && allWithin(f, 1, math.Inf(1), true) {
			yAxis.Min = 1 // ranks start at 1
		}
		// The grid holds the tick labels (containLabel): below it only the
		// axis name's line; a turned first label needs room on the left.
		bottom, left := gap+18, 16
		if rot != 0 {
			w := longestPx(st.names(f.Categories))
			bottom = 64
			left = max(16, int(w*math.Cos(float64(rot)*math.Pi/180))-40)
		}
		rc.SetGlobalOptions(append(global,
			charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis",
				AxisPointer: &opts.AxisPointer{Type: "shadow"}}),
			charts.WithGridOpts(opts.Grid{Left: fmt.Sprint(left), Right: "24", Top: fmt.Sprint(gridTop), Bottom: fmt.Sprint(bottom),
				ContainLabel: opts.Bool(true)}),
			charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: xName, NameLocation: "middle", NameGap: gap,
				AxisLabel: &opts.AxisLabel{Color: "#222", Interval: "0", Rotate: float64(rot), HideOverlap: opts.Bool(true)}}),
			charts.WithYAxisOpts(yAxis),
		)...)
		base = rc
	}
	// A legend names two or more series drawn in its colours; else none.
	var names []string
	for _, e := range legend {
		if e.drawn {
			names = append(names, e.name)
		}
	}
	names = dedupe(names)
	if len(names) >= 2 {
		base.Legend.Data = names
	} else {
		base.Legend.Show = opts.Bool(false)
		base.Legend.Data = []string{}
	}
	base.Accept(vis)
	base.Validate()
	spec := chartSpec{Option: base.JSON(), Meta: meta}
	// go-echarts adds its default palette ("color") only for its white theme,
	// and an empty dataset-free option otherwise; drop what ECharts need not see.
	delete(spec.Option, "color")
	info.Desc = describe(f, st, info)
	spec.Option["aria"] = map[string]any{"enabled": true, "label": map[string]any{"description": info.Desc}}
	var sub []string
	if xName != "" && f.Kind != report.Heatmap {
		sub = append(sub, "x: "+xName)
	}
	if yName != "" {
		sub = append(sub, "y: "+yName)
	}
	spec.Meta.Subtitle = strings.Join(sub, " · ")
	foot := []string{}
	if st != nil && st.footnote != "" {
		foot = append(foot, st.footnote)
	}
	if info.Whiskers != "" {
		foot = append(foot, info.Whiskers)
	}
	spec.Meta.Footnote = strings.Join(foot, " · ")
	b, err := json.Marshal(spec)
	if err != nil {
		return nil, info, fmt.Errorf("figure %s: %w", f.ID, err)
	}
	return b, info, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// allWithin says every finite y value (or x value when y is false) of f,
// interval ends included, lies in [lo, hi]: then a percent axis stops at
// 100 % rather than ECharts' rounded 120 %.
func allWithin(f *report.Figure, lo, hi float64, y bool) bool {
	ok := func(v float64) bool { return !finite(v) || (v >= lo && v <= hi) }
	for _, s := range f.Series {
		for _, list := range [][]float64{s.Values, s.Lo, s.Hi} {
			if !y {
				break
			}
			for _, v := range list {
				if !ok(v) {
					return false
				}
			}
		}
		for _, p := range s.Points {
			if (y && !ok(p.Y)) || (!y && !ok(p.X)) {
				return false
			}
		}
	}
	return true
}

// maxDescribed is the most values a chart's text description lists.
const maxDescribed = 30

// describe is a chart's text description for screen readers, from its data:
// the kind, the axes and, per series, the values (with their intervals) of
// the first maxDescribed categories or points.
func describe(f *report.Figure, st *chartStyle, info specInfo) string {
	val := func(v float64, pct bool) string {
		if pct {
			return format.Percent(v)
		}
		return format.Number(v)
	}
	var b strings.Builder
	kind := string(f.Kind)
	if f.Dots {
		kind = "dot"
	}
	fmt.Fprintf(&b, "%s chart: %s.", kind, f.Title)
	if f.YName != "" {
		fmt.Fprintf(&b, " %s", axisName(f.YName, f.YUnit))
		if f.XName != "" {
			fmt.Fprintf(&b, " by %s", axisName(f.XName, f.XUnit))
		}
		b.WriteString(".")
	}
	listed := 0
	for _, s := range f.Series {
		if listed >= maxDescribed {
			break
		}
		var items []string
		switch {
		case len(s.Cells) > 0:
			fmt.Fprintf(&b, " %d cells.", len(s.Cells))
			continue
		case len(s.Points) > 0:
			for _, p := range s.Points {
				if listed >= maxDescribed {
					break
				}
				items = append(items, fmt.Sprintf("%s (%s, %s)", st.name(p.Label), val(p.X, f.Percent && f.XUnit == "%"), val(p.Y, f.Percent)))
				listed++
			}
		default:
			for i, c := range f.Categories {
				if listed >= maxDescribed || i >= len(s.Values) {
					break
				}
				it := st.name(c) + " " + val(s.Values[i], f.Percent)
				if i < len(s.Lo) && i < len(s.Hi) && finite(s.Lo[i]) && finite(s.Hi[i]) && s.Lo[i] != s.Hi[i] {
					it += " [" + val(s.Lo[i], f.Percent) + ", " + val(s.Hi[i], f.Percent) + "]"
				}
				items = append(items, it)
				listed++
			}
		}
		if len(items) > 0 {
			name := st.name(s.Name)
			if name != "" && len(f.Series) > 1 {
				name += ": "
			} else {
				name = ""
			}
			fmt.Fprintf(&b, " %s%s.", name, strings.Join(items, "; "))
		}
	}
	if listed >= maxDescribed {
		b.WriteString(" More values are in the figure data table.")
	}
	if info.Whiskers != "" {
		b.WriteString(" " + info.Whiskers)
	}
	return b.String()
}

func nonEmpty(s []string) []string {
	out := s[:0:0]
	for _, x := range s {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// pointStyle colours each scatter point by its model, with its symbol, when
// its label names one; own says some point has a colour other than col
// (a legend entry in col would then match nothing drawn).
func pointStyle(data []opts.ScatterData, st *chartStyle, col string) (out []scatterItem, own bool) {
	out = make([]scatterItem, len(data))
	for i, d := range data {
		out[i] = scatterItem{ScatterData: d}
		if c := st.modelColor(d.Name); c != "" {
			out[i].ItemStyle = &opts.ItemStyle{Color: c}
			out[i].Symbol = st.symbol(d.Name)
			own = own || !strings.EqualFold(c, col)
		}
	}
	return out, own
}

// scatterItem is a scatter point with its own colour, which ScatterData
// lacks.
type scatterItem struct {
	opts.ScatterData
	ItemStyle *opts.ItemStyle `json:"itemStyle,omitempty"`
}

// dropLog says a point cannot be drawn on the figure's log axes.
func dropLog(f *report.Figure, x, y float64) bool {
	return (f.LogX && !(x > 0)) || (f.LogY && !(y > 0))
}

func rotation(cats []string) int {
	long := 0
	for _, c := range cats {
		long += len([]rune(c))
	}
	if len(cats) > 8 || long > 80 {
		return 30
	}
	return 0
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
