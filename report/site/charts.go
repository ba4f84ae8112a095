package site

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/euroexec/euroexec/report"
)

// The chart options are built here as plain Go values and marshalled with
// encoding/json, not with go-echarts: go-echarts renders its options into a
// <script> with HTML escaping turned off (a series named "</script>" would
// end the script) and passes JavaScript functions as strings. Here the
// option is data only, json.Marshal escapes <, > and & (so the JSON cannot
// leave its <script type="application/json"> element), and the page's own
// script (assets/site.js) adds the functions: an escaping tooltip formatter,
// percent axis labels and the error-bar renderer.

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
	// Dropped counts points that a log axis cannot show (x ≤ 0).
	Dropped int `json:"dropped,omitempty"`
}

type errorBar struct {
	Slot  int `json:"slot"`  // the bar's place in its category group
	Slots int `json:"slots"` // bars per category
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

// buildSpec turns a Figure into the JSON a page embeds and counts the points
// a log axis cannot show. It does not fail on odd data: short value slices
// leave gaps, NaN and ±Inf are null.
func buildSpec(f *report.Figure) ([]byte, int, error) {
	spec := chartSpec{Meta: chartMeta{Kind: string(f.Kind), Percent: f.Percent, XPercent: f.Percent && f.XUnit == "%"}}
	opt := map[string]any{
		"animation": false,
		"title":     map[string]any{"text": f.Title, "left": "center", "textStyle": map[string]any{"fontSize": 14}},
		"legend":    map[string]any{"type": "scroll", "bottom": 0},
		"grid":      map[string]any{"left": 70, "right": 40, "top": 50, "bottom": 80, "containLabel": true},
		"tooltip":   map[string]any{"confine": true},
	}
	xAxis := map[string]any{"name": axisName(f.XName, f.XUnit), "nameLocation": "middle", "nameGap": 30}
	yAxis := map[string]any{"name": axisName(f.YName, f.YUnit), "nameLocation": "middle", "nameGap": 50}
	var series []any
	var legend []string

	numericX := f.Kind == report.Scatter
	if f.Kind == report.Line {
		for _, s := range f.Series {
			if len(s.Points) > 0 {
				numericX = true
			}
		}
	}

	switch {
	case f.Kind == report.Heatmap:
		xAxis["type"] = "category"
		xAxis["data"] = nonNil(f.Categories)
		xAxis["splitArea"] = map[string]any{"show": true}
		yAxis["type"] = "category"
		yAxis["data"] = nonNil(f.YCategories)
		yAxis["splitArea"] = map[string]any{"show": true}
		opt["tooltip"] = map[string]any{"trigger": "item", "confine": true}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, s := range f.Series {
			data := [][3]any{}
			for _, c := range s.Cells {
				data = append(data, [3]any{c.X, c.Y, num(c.Value)})
				if !math.IsNaN(c.Value) && !math.IsInf(c.Value, 0) {
					lo, hi = math.Min(lo, c.Value), math.Max(hi, c.Value)
				}
			}
			series = append(series, map[string]any{"type": "heatmap", "name": s.Name, "data": data,
				"label": map[string]any{"show": len(s.Cells) <= 200}})
			legend = append(legend, s.Name)
		}
		if f.Percent {
			lo, hi = 0, 1
		}
		if math.IsInf(lo, 0) {
			lo, hi = 0, 1
		}
		if lo == hi {
			hi = lo + 1
		}
		opt["visualMap"] = map[string]any{"min": num(lo), "max": num(hi), "calculable": true,
			"orient": "horizontal", "left": "center", "bottom": 0}
		opt["legend"] = map[string]any{"show": false}
		opt["grid"] = map[string]any{"left": 70, "right": 40, "top": 50, "bottom": 90, "containLabel": true}

	case numericX:
		xAxis["type"] = "value"
		xAxis["scale"] = true
		if f.LogX {
			xAxis["type"] = "log"
			xAxis["logBase"] = 10
		}
		yAxis["type"] = "value"
		yAxis["scale"] = f.Kind == report.Scatter
		opt["tooltip"] = map[string]any{"trigger": "item", "confine": true}
		typ := "scatter"
		if f.Kind == report.Line {
			typ = "line"
		}
		for _, s := range f.Series {
			data := [][3]any{}
			for _, p := range s.Points {
				if f.LogX && !(p.X > 0) {
					spec.Meta.Dropped++
					continue
				}
				data = append(data, [3]any{num(p.X), num(p.Y), p.Label})
			}
			ser := map[string]any{"type": typ, "name": s.Name, "data": data, "symbolSize": 8}
			if typ == "line" {
				ser["symbolSize"] = 5
				ser["showSymbol"] = true
			}
			series = append(series, ser)
			legend = append(legend, s.Name)
		}
		series, legend = addRefLines(f, series, legend, &spec.Meta)

	default: // Bar, Histogram, categorical Line
		xAxis["type"] = "category"
		xAxis["data"] = nonNil(f.Categories)
		xAxis["axisLabel"] = map[string]any{"interval": 0, "hideOverlap": true, "rotate": rotation(f.Categories)}
		yAxis["type"] = "value"
		opt["tooltip"] = map[string]any{"trigger": "axis", "confine": true, "axisPointer": map[string]any{"type": "shadow"}}
		n := len(f.Categories)
		typ := "bar"
		if f.Kind == report.Line {
			typ = "line"
		}
		bars := len(f.Series)
		for si, s := range f.Series {
			data := make([]num, n)
			for i := range data {
				data[i] = num(math.NaN())
				if i < len(s.Values) {
					data[i] = num(s.Values[i])
				}
			}
			ser := map[string]any{"type": typ, "name": s.Name, "data": data}
			if typ == "bar" {
				ser["barGap"] = "30%"
				ser["barCategoryGap"] = "20%"
				if f.Kind == report.Histogram {
					ser["barCategoryGap"] = "2%"
				}
			} else {
				ser["connectNulls"] = false
			}
			series = append(series, ser)
			legend = append(legend, s.Name)
			if len(s.Lo) == n && len(s.Hi) == n && n > 0 {
				eb := [][3]any{}
				for i := 0; i < n; i++ {
					eb = append(eb, [3]any{i, num(s.Lo[i]), num(s.Hi[i])})
				}
				if spec.Meta.ErrorBars == nil {
					spec.Meta.ErrorBars = map[string]errorBar{}
				}
				slot, slots := si, bars
				if typ == "line" {
					slot, slots = -1, bars // on the point itself
				}
				spec.Meta.ErrorBars[fmt.Sprint(len(series))] = errorBar{Slot: slot, Slots: slots}
				series = append(series, map[string]any{"type": "custom", "name": s.Name, "data": eb,
					"encode": map[string]any{"x": 0, "y": []int{1, 2}}, "z": 10})
			}
		}
	}
	opt["xAxis"] = xAxis
	opt["yAxis"] = yAxis
	if series == nil {
		series = []any{}
	}
	opt["series"] = series
	if lg, ok := opt["legend"].(map[string]any); ok && lg["show"] == nil {
		lg["data"] = dedupe(legend)
	}
	spec.Option = opt
	b, err := json.Marshal(spec)
	if err != nil {
		return nil, 0, fmt.Errorf("figure %s: %w", f.ID, err)
	}
	return b, spec.Meta.Dropped, nil
}

// addRefLines adds the figure's reference lines as dashed two-point lines.
func addRefLines(f *report.Figure, series []any, legend []string, meta *chartMeta) ([]any, []string) {
	for _, l := range f.Lines {
		pts := [][2]num{{num(l.X1), num(l.Y1)}, {num(l.X2), num(l.Y2)}}
		if f.LogX && !(l.X1 > 0 && l.X2 > 0) {
			meta.Dropped++
			continue
		}
		series = append(series, map[string]any{"type": "line", "name": l.Name, "data": pts,
			"showSymbol": false, "lineStyle": map[string]any{"type": "dashed", "width": 1.5}, "z": 1})
		legend = append(legend, l.Name)
	}
	return series, legend
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
