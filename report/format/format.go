// Package format is the one display convention per quantity that the site,
// the workbook and the terminal summary share: rates as percent with one
// decimal ("64.3 %"), rate intervals clamped into [0 %, 100 %], scores in
// rubric points with two decimals ("3.56"), p-values with three decimals
// from 0.001 up and in scientific notation below ("8.2e-07"), other numbers
// with three significant decimals. The CSV tables keep full precision and
// are not formatted here. Nothing here computes a statistic.
package format

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/report"
)

// Missing is how every undefined value (NaN, nil) is shown.
const Missing = "—"

// Percent shows a fraction as a percent with one decimal: 0.569 → "56.9 %".
// NaN is Missing.
func Percent(x float64) string {
	if math.IsNaN(x) {
		return Missing
	}
	if math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x*100, 'f', 1, 64) + " %"
}

// ClampRate puts a rate's interval end into [0, 1]; NaN stays NaN.
func ClampRate(x float64) float64 {
	if math.IsNaN(x) {
		return x
	}
	return math.Min(1, math.Max(0, x))
}

// RateInterval shows a rate's interval as "[52.8 %, 75.4 %]", each end
// clamped into [0, 1] (a rate cannot leave it; a normal-approximation
// interval can).
func RateInterval(lo, hi float64) string {
	return "[" + Percent(ClampRate(lo)) + ", " + Percent(ClampRate(hi)) + "]"
}

// PercentPoints shows a difference of two rates in percentage points with
// one decimal and a sign: 0.057 → "+5.7 pp".
func PercentPoints(x float64) string {
	if math.IsNaN(x) {
		return Missing
	}
	s := strconv.FormatFloat(x*100, 'f', 1, 64)
	if s == "-0.0" { // a negative that rounds to zero, or −0
		s = "0.0"
	}
	if s[0] != '-' {
		s = "+" + s
	}
	return s + " pp"
}

// Points shows a score in rubric points with two decimals: "3.56".
func Points(x float64) string {
	if math.IsNaN(x) {
		return Missing
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// PointsInterval shows a score interval as "[3.34, 3.77]".
func PointsInterval(lo, hi float64) string {
	return "[" + Points(lo) + ", " + Points(hi) + "]"
}

// PValue shows a p-value: three decimals from 0.001 up ("0.014"), scientific
// notation with two significant digits below ("8.2e-07"); 0 is "0"; NaN is
// Missing.
func PValue(p float64) string {
	switch {
	case math.IsNaN(p):
		return Missing
	case p == 0:
		return "0"
	case math.Abs(p) < 1e-3:
		return strconv.FormatFloat(p, 'e', 1, 64)
	default:
		return strconv.FormatFloat(p, 'f', 3, 64)
	}
}

// Number shows any other float: three decimals below 1000, one decimal from
// 1000, exponent form with two decimals below 0.001 or from 1e6 up
// (4.00e-05); 0 is "0"; NaN is Missing.
func Number(x float64) string {
	switch a := math.Abs(x); {
	case math.IsNaN(x):
		return Missing
	case x == 0:
		return "0"
	case math.IsInf(x, 0):
		return strconv.FormatFloat(x, 'f', -1, 64)
	case a < 1e-3 || a >= 1e6:
		return strconv.FormatFloat(x, 'e', 2, 64)
	case a >= 1000:
		return strconv.FormatFloat(x, 'f', 1, 64)
	default:
		return strconv.FormatFloat(x, 'f', 3, 64)
	}
}

// IsPValue says a column holds p-values, by its name: "p", "p_value",
// "p_holm", "p_…" or "…_p".
func IsPValue(column string) bool {
	c := strings.ToLower(column)
	return c == "p" || strings.HasPrefix(c, "p_") || strings.HasSuffix(c, "_p") || c == "pvalue" || c == "median_p"
}

// IsDifference says a fraction column holds a difference of rates (which
// may be negative and is not clamped), by its name: it mentions bias, diff,
// delta, gap, change or effect.
func IsDifference(column string) bool {
	c := strings.ToLower(column)
	for _, w := range []string{"bias", "diff", "delta", "gap", "change", "effect", "estimate"} {
		if strings.Contains(c, w) {
			return true
		}
	}
	return false
}

// Header turns a snake_case column name into a header for people:
// "solve_rate_lo" → "Solve rate lo"; known words are spelled out
// ("n_gradings" → "Gradings (n)", "p_holm" → "p (Holm)").
func Header(column string) string {
	if h, ok := headers[column]; ok {
		return h
	}
	c := column
	suffix := ""
	switch {
	case strings.HasPrefix(c, "n_"):
		c, suffix = c[2:], " (n)"
	case strings.HasSuffix(c, "_lo"):
		c, suffix = c[:len(c)-3], ", lower end"
	case strings.HasSuffix(c, "_hi"):
		c, suffix = c[:len(c)-3], ", upper end"
	}
	words := strings.Split(c, "_")
	for i, w := range words {
		if r, ok := wordMap[w]; ok {
			words[i] = r
		}
	}
	s := strings.ReplaceAll(strings.Join(words, " "), "solve rate", "Solve Rate")
	if s == "" {
		return column
	}
	if s[0] >= 'a' && s[0] <= 'z' {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	return s + suffix
}

// Headers gives the columns of one table (CSV names, in order) their
// headers for people, distinct within the table: Header of each, except
// that beside a display_name column ("Display name") the model column is
// "Model id" (it then shows the ids as written); a header that would still
// repeat another is followed by its CSV name, "Header (csv_name)".
func Headers(columns []string) []string {
	out := make([]string, len(columns))
	withDisplay := slices.Contains(columns, "display_name")
	count := map[string]int{}
	for i, c := range columns {
		out[i] = Header(c)
		if c == "model" && withDisplay {
			out[i] = "Model id"
		}
		count[strings.ToLower(out[i])]++
	}
	for i, c := range columns {
		if count[strings.ToLower(out[i])] > 1 && out[i] != c {
			out[i] += " (" + c + ")"
		}
	}
	return out
}

// ShowsIDs reports whether a table with these columns shows its model
// column's ids as written rather than as display names: when a
// display_name column stands beside it (see Headers).
func ShowsIDs(columns []string) bool {
	return slices.Contains(columns, "display_name")
}

var headers = map[string]string{
	"solve_rate":             "Solve Rate",
	"p":                      "p",
	"p_holm":                 "p (Holm)",
	"avg_rank":               "Average rank",
	"win_rate":               "Win rate",
	"rubric":                 "Rubric (points)",
	"rubric_mean":            "Rubric mean (points)",
	"checklist_rate":         "Checklist fulfilment",
	"rubric_rank":            "Rank (rubric)",
	"group_rubric":           "Group (rubric)",
	"group_solve_rate":       "Group (Solve Rate)",
	"display_name":           "Display name",
	"sd":                     "SD",
	"df":                     "df",
	"t":                      "t",
	"icc1_1":                 "ICC(1,1)",
	"icc1_k":                 "ICC(1,k)",
	"n_shared":               "Shared gradings (n)",
	"rubric_abs_diff_others": "Mean |Δ| from the others (points)",
	"spearman_others":        "Spearman ρ with the others",
	"solve_agreement":        "Solve agreement with the others",
	"n_solve_pairs":          "Solve pairs (n)",
	// text metrics: corpus (per system) and sentence figures kept apart
	"bleu":               "Sentence BLEU",
	"chrf":               "Sentence chrF",
	"mean_sentence_bleu": "Mean sentence BLEU",
	"mean_sentence_chrf": "Mean sentence chrF",
	"corpus_bleu":        "Corpus BLEU",
	"corpus_chrf":        "Corpus chrF",
	"bleu_signature":     "BLEU signature",
	"chrf_signature":     "chrF signature",
	"chrf_pp_signature":  "chrF++ signature",
}

var wordMap = map[string]string{
	"pl": "Plackett–Luce", "sd": "SD", "ci": "CI", "usd": "USD", "id": "id",
	"avg": "average", "pct": "percent", "ppi": "PPI", "llm": "LLM", "kappa": "κ", "alpha": "α",
}

// Palette is the colour of each model in every chart of the site and the
// workbook: the models in the order of the report's models table take these
// colours in turn. Every colour has a contrast of at least 3:1 against
// white (WCAG 2.1 non-text contrast, Contrast), and the first eight keep a
// CIELAB distance of at least 14 from each other for normal vision and under
// simulated deuteranopia, protanopia and tritanopia (Machado et al. 2009);
// beyond that colours come closer, so each model also has a symbol
// (Symbols) and, on lines, a dash (Dashes): the pair (colour, symbol)
// differs for the first 84 models.
var Palette = []string{
	"#0072B2", "#D55E00", "#009E73", "#AA3377", "#000000", "#332288",
	"#8C564B", "#D62728", "#882255", "#5D3A9B", "#A05195", "#228833",
}

// Neutral are the colours of series that are not models (the humans, each
// judge, each run of a comparison): each name keeps its colour in every
// chart (Models.Other). All have a contrast of at least 3:1 against white.
var Neutral = []string{"#4C72B0", "#B85A1E", "#3A8A4E", "#C44E52", "#8172B3", "#937860", "#5A5A5A", "#2E8B8B"}

// Symbols are the ECharts marker symbols of the models, in turn: the second
// channel beside colour. Its length (7) is prime to len(Palette) (12).
var Symbols = []string{"circle", "rect", "triangle", "diamond", "roundRect", "pin", "arrow"}

// Dashes are the line dashes of the models' lines, in turn (ECharts names).
var Dashes = []string{"solid", "dashed", "dotted"}

// Contrast is the WCAG 2.1 contrast ratio of two "#RRGGBB" colours (1 to
// 21); NaN when one does not parse.
func Contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	if math.IsNaN(la) || math.IsNaN(lb) {
		return math.NaN()
	}
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// luminance is the WCAG relative luminance of "#RRGGBB".
func luminance(hex string) float64 {
	h := strings.TrimPrefix(hex, "#")
	if len(h) != 6 {
		return math.NaN()
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return math.NaN()
	}
	lin := func(c uint64) float64 {
		x := float64(c) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(v>>16&0xff) + 0.7152*lin(v>>8&0xff) + 0.0722*lin(v&0xff)
}

// Models are the models of a report: display names, colours and symbols,
// and the colours of the other series names its figures use.
type Models struct {
	Display map[string]string // model id → display name
	Color   map[string]string // model id or display name → "#RRGGBB"
	Symbol  map[string]string // model id or display name → Symbols entry
	Dash    map[string]string // model id or display name → Dashes entry
	// Other maps every series name of the report's figures that is not a
	// model (humans, judges, runs) to a Neutral colour, in the order the
	// names first appear in r.Figures: the same name has the same colour
	// in every chart of the site and the workbook.
	Other map[string]string
}

// ModelsOf reads the report's models table (columns model and
// display_name) and gives each model, in row order, the next Palette
// colour and Symbols symbol; then each other series name of the figures a
// Neutral colour (Models.Other).
func ModelsOf(r *report.Report) Models {
	m := Models{Display: map[string]string{}, Color: map[string]string{}, Symbol: map[string]string{},
		Dash: map[string]string{}, Other: map[string]string{}}
	defer m.others(r)
	t := r.Table("models")
	if t == nil {
		return m
	}
	mi, di := -1, -1
	for i, c := range t.Columns {
		switch c.Name {
		case "model":
			mi = i
		case "display_name":
			di = i
		}
	}
	if mi < 0 {
		return m
	}
	n := 0
	for _, row := range t.Rows {
		id, _ := cell(row, mi).(string)
		if id == "" {
			continue
		}
		if _, dup := m.Color[id]; dup {
			continue
		}
		c, sym, dash := Palette[n%len(Palette)], Symbols[n%len(Symbols)], Dashes[(n/len(Palette))%len(Dashes)]
		n++
		m.Color[id], m.Symbol[id], m.Dash[id] = c, sym, dash
		if d, _ := cell(row, di).(string); d != "" {
			m.Display[id] = d
			m.Color[d], m.Symbol[d], m.Dash[d] = c, sym, dash
		}
	}
	return m
}

// others fills m.Other from the series names of r's figures.
func (m *Models) others(r *report.Report) {
	if r == nil {
		return
	}
	n := 0
	for _, f := range r.Figures {
		if f == nil {
			continue
		}
		for _, s := range f.Series {
			if s.Name == "" || m.Color[s.Name] != "" || m.Other[s.Name] != "" {
				continue
			}
			m.Other[s.Name] = Neutral[n%len(Neutral)]
			n++
		}
	}
}

// SeriesColor is the colour of a series name: its model's, else its
// Other colour, else Neutral[i].
func (m Models) SeriesColor(name string, i int) string {
	if c := m.Color[name]; c != "" {
		return c
	}
	if c := m.Other[name]; c != "" {
		return c
	}
	return Neutral[i%len(Neutral)]
}

func cell(row []any, i int) any {
	if i >= 0 && i < len(row) {
		return row[i]
	}
	return nil
}

// Order is how the terminal summary and the site's tables order the models:
// OrderRank (the default, also for "") or its synonym OrderPrimary, by the
// primary metric ([report] primary; Solve Rate, highest first, unless the
// study sets another), or OrderAlpha, by display name. The place (#) by
// the primary metric is shown either way. *Order is a command-line flag
// value (`euroexec run --order`).
type Order string

// Orders accepted by Order.Set.
const (
	OrderRank    Order = "rank"
	OrderPrimary Order = "primary"
	OrderAlpha   Order = "alpha"
)

// Set parses a flag value: "rank", "primary" or "alpha".
func (o *Order) Set(s string) error {
	switch Order(s) {
	case OrderRank, OrderPrimary, OrderAlpha:
		*o = Order(s)
		return nil
	}
	return fmt.Errorf("order %q: expected rank or primary (by the primary metric, Solve Rate unless [report] primary says otherwise) or alpha (by model name)", s)
}

// String is the order's flag value; "rank" for the zero Order.
func (o Order) String() string {
	if o == "" {
		return string(OrderRank)
	}
	return string(o)
}

// Type names the flag's values in --help.
func (o *Order) Type() string { return "rank|primary|alpha" }
