package site

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/format"
)

// manyModels is a report of 13 models with long, hyphenated display names:
// the headline figure (one series, intervals), ranks as dots, mean ± SD
// bars of two groups with one n = 1 cell, a judge scatter coloured point
// by point with two reference lines, and a one-series curve.
func manyModels() *report.Report {
	names := []string{
		"claude-3-5-sonnet-20241022", "gpt-4o-2024-08-06", "gemini-1.5-pro-002", "meta-llama-3.1-405b-instruct",
		"mistral-large-2407", "qwen2.5-72b-instruct", "deepseek-v2.5", "command-r-plus-08-2024",
		"yi-large", "jamba-1.5-large", "phi-3.5-moe-instruct", "gemma-2-27b-it", "nemotron-4-340b-instruct",
	}
	models := &report.Table{Name: "models", Section: report.SectionDataset,
		Columns: []report.Column{{Name: "model", Kind: report.Text}, {Name: "display_name", Kind: report.Text}}}
	summary := &report.Table{Name: "summary", Title: "Summary", Section: report.SectionOverview,
		Columns: []report.Column{{Name: "model", Kind: report.Text}, {Name: "solve_rate", Kind: report.Fraction},
			{Name: "solve_rate_lo", Kind: report.Fraction}, {Name: "solve_rate_hi", Kind: report.Fraction}}}
	ids := make([]string, len(names))
	head := report.Series{Name: "Solve Rate"}
	rank := report.Series{Name: "rank"}
	var pts []report.Point
	for i, n := range names {
		ids[i] = fmt.Sprintf("m%02d", i)
		models.Rows = append(models.Rows, []any{ids[i], n})
		v := 0.9 - 0.06*float64(i)
		summary.Rows = append(summary.Rows, []any{ids[i], v, v - 0.08, math.Min(1, v+0.08)})
		head.Values = append(head.Values, v)
		head.Lo = append(head.Lo, math.Max(0, v-0.08))
		head.Hi = append(head.Hi, math.Min(1, v+0.12))
		rank.Values = append(rank.Values, float64(i+1))
		rank.Lo = append(rank.Lo, math.Max(1, float64(i)-1))
		rank.Hi = append(rank.Hi, math.Min(13, float64(i+3)))
		pts = append(pts, report.Point{X: v, Y: v + 0.05, Label: ids[i]})
	}
	sd := []report.Series{
		{Name: "Finance", SD: true, Values: []float64{3.1, 2.4, 3.6}, Lo: []float64{2.1, 2.4, 2.6}, Hi: []float64{4.1, 2.4, 4.6}, N: []int{8, 1, 7}},
		{Name: "Law", SD: true, Values: []float64{2.8, 3.3, 3.0}, Lo: []float64{1.8, 2.3, 2.0}, Hi: []float64{3.8, 4.3, 4.0}, N: []int{9, 6, 5}},
	}
	return &report.Report{
		Title: "Thirteen models", Version: "test", Overview: report.Overview{Questions: 40, Models: 13},
		Tables: []*report.Table{models, summary},
		Figures: []*report.Figure{
			{ID: "solve_rate_by_model", Section: report.SectionOverview, Title: "Solve Rate by model (95 % interval)", Kind: report.Bar,
				XName: "model", YName: "Solve Rate", YUnit: "%", Percent: true, Table: "summary", Categories: ids, Series: []report.Series{head}},
			{ID: "ranks", Section: report.SectionBeyond, Title: "Rank with 95 % rank intervals", Kind: report.Bar, Dots: true, InverseY: true,
				XName: "model", YName: "rank (1 = best)", Categories: ids, Series: []report.Series{rank}},
			{ID: "rubric_sd", Section: report.SectionRubric, Title: "Rubric score (mean ± SD)", Kind: report.Bar,
				XName: "model", YName: "rubric score", Categories: ids[:3], Series: sd},
			{ID: "judge_scatter", Section: report.SectionJudges, Title: "Judge vs human", Kind: report.Scatter,
				XName: "human", YName: "judge", XUnit: "%", YUnit: "%", Percent: true,
				Series: []report.Series{{Name: "models", Points: pts}},
				Lines:  []report.RefLine{{Name: "y = x", X1: 0, Y1: 0, X2: 1, Y2: 1}, {Name: "least squares", X1: 0, Y1: 0.05, X2: 1, Y2: 1.05}}},
			{ID: "curve", Section: report.SectionCost, Title: "Length by model", Kind: report.Line, XName: "chars", YName: "score",
				Series: []report.Series{{Name: "humans", Points: []report.Point{{X: 1, Y: 2}, {X: 2, Y: 3}, {X: 3, Y: 2.5}}}}},
		},
	}
}

// legendJS lists, per drawn chart, legends that name fewer than two series
// or a name with no drawn series in the legend's colour, and counts the
// legends shown.
const legendJS = `(() => {
  const out = {bad: [], shown: 0, charts: 0};
  for (const el of document.querySelectorAll('.echart')) {
    const inst = echarts.getInstanceByDom(el);
    if (!inst) continue;
    out.charts++;
    const o = inst.getOption();
    const lg = (o.legend || [])[0];
    if (!lg || lg.show === false || !(lg.data || []).length) continue;
    out.shown++;
    const id = el.getAttribute('data-spec');
    if (lg.data.length < 2) out.bad.push(id + ': legend with ' + lg.data.length + ' entry');
    for (const d of lg.data) {
      const name = typeof d === 'string' ? d : d.name;
      const s = o.series.find(s => s.type !== 'custom' && s.name === name);
      const val = x => Array.isArray(x) ? x[1] : (x && typeof x === 'object' ? val(x.value) : x);
      const drawn = s && (s.data || []).some(x => typeof val(x) === 'number' && isFinite(val(x)));
      if (!drawn) { out.bad.push(id + ': legend names "' + name + '", which draws nothing'); continue; }
      const own = (s.data || []).some(x => x && x.itemStyle && x.itemStyle.color && s.itemStyle &&
        x.itemStyle.color.toLowerCase() !== String(s.itemStyle.color).toLowerCase());
      if (own && s.type !== 'bar') out.bad.push(id + ': legend colour of "' + name + '" matches no point');
    }
  }
  return out;
})()`

// namesJS reports the headline chart's mode and which of the given names
// are not drawn whole inside the chart (labels wrapped at separators count
// when their lines, read in order, give the name).
const namesJS = `((names) => {
  const el = document.querySelector('.echart');
  const inst = echarts.getInstanceByDom(el);
  const w = el.clientWidth;
  const texts = [];
  const clipped = [];
  inst.getZr().storage.getDisplayList(true).forEach(d => {
    if ((d.type !== 'text' && d.type !== 'tspan') || d.invisible || d.ignore) return;
    const t = d.style && d.style.text;
    if (!t) return;
    const r = d.getBoundingRect();
    const m = d.getComputedTransform() || [1, 0, 0, 1, 0, 0];
    const x0 = m[0] * r.x + m[2] * r.y + m[4], x1 = m[0] * (r.x + r.width) + m[2] * (r.y + r.height) + m[4];
    if (Math.min(x0, x1) < -1 || Math.max(x0, x1) > w + 1) clipped.push(String(t));
    texts.push(String(t));
  });
  const all = texts.join('').replace(/\s+/g, '');
  return {mode: el.getAttribute('data-mode'), width: w,
    missing: names.filter(n => all.indexOf(n.replace(/\s+/g, '')) < 0), clipped: clipped};
})`

// TestBrowserEncodings opens the 13-model site at 1400 px and at 390 px:
// no legend without two drawn series in its colours; on the phone the
// headline chart is horizontal and every model name is drawn whole inside
// it, never broken inside a word; no chart text overlaps another; and laid
// out for print, no block overlaps another and every chart fits its page.
func TestBrowserEncodings(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	b := startBrowser(t)
	r := manyModels()
	dir := filepath.Join(artifactsDir(t), "encodings-site")
	if _, err := Write(context.Background(), dir, r, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, row := range r.Table("models").Rows {
		names = append(names, row[1].(string))
	}
	pages := []string{"index.html", "rubric.html", "judges.html", "cost.html", "beyond.html"}
	for _, width := range []int64{1400, 390} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			if _, err := chromedp.Run(b.ctx, chromedp.EmulateViewport(width, 900)); err != nil {
				t.Fatal(err)
			}
			legends := 0
			for _, p := range pages {
				if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
					t.Fatalf("%s not written", p)
				}
				b.open(t, filepath.Join(dir, p), "")
				type lgState struct {
					Bad    []string `json:"bad"`
					Shown  int      `json:"shown"`
					Charts int      `json:"charts"`
				}
				lg, err := chromedp.Run(b.ctx, chromedp.Evaluate[lgState](legendJS))
				if err != nil {
					t.Fatal(err)
				}
				if lg.Charts == 0 {
					t.Errorf("%s: no chart drawn", p)
				}
				legends += lg.Shown
				for _, x := range lg.Bad {
					t.Errorf("%s: %s", p, x)
				}
				st, err := chromedp.Run(b.ctx, chromedp.Evaluate[layoutState](layoutJS))
				if err != nil {
					t.Fatal(err)
				}
				for _, o := range st.Overlaps {
					t.Errorf("%s: %s", p, o)
				}
				if p != "index.html" {
					continue
				}
				type nameState struct {
					Mode    string   `json:"mode"`
					Width   int      `json:"width"`
					Missing []string `json:"missing"`
					Clipped []string `json:"clipped"`
				}
				q := namesJS + "(" + jsList(names) + ")"
				ns, err := chromedp.Run(b.ctx, chromedp.Evaluate[nameState](q))
				if err != nil {
					t.Fatal(err)
				}
				want := "vertical"
				if width < 600 {
					want = "horizontal"
				}
				if ns.Mode != want {
					t.Errorf("headline chart at %d px is %s, want %s", width, ns.Mode, want)
				}
				if width < 600 {
					for _, m := range ns.Missing {
						t.Errorf("at %d px the headline chart does not show %q whole", width, m)
					}
					for _, c := range ns.Clipped {
						t.Errorf("at %d px the headline chart's text %q runs off the chart (%d px)", width, c, ns.Width)
					}
				}
				// Print: blocks apart, charts redrawn within the page.
				if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
					t.Fatal(err)
				}
				po, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](printJS))
				if err != nil {
					t.Fatal(err)
				}
				for _, o := range po {
					t.Errorf("print: %s", o)
				}
				wide, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.echart')].filter(e => {
				  const c = e.querySelector('canvas'); return c && c.getBoundingClientRect().width > e.closest('figure').getBoundingClientRect().width + 1;
				}).map(e => e.getAttribute('data-spec'))`))
				if err != nil {
					t.Fatal(err)
				}
				for _, w := range wide {
					t.Errorf("print: chart %s is wider than its figure", w)
				}
				if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: ""}); err != nil {
					t.Fatal(err)
				}
			}
			if legends == 0 {
				t.Error("no legend shown at all: the mean ± SD chart of two groups needs one")
			}
		})
	}
	errs, _, _ := b.take()
	for _, e := range errs {
		t.Errorf("console: %s", e)
	}
}

func jsList(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	return "[" + strings.Join(q, ",") + "]"
}

var colorRe = regexp.MustCompile(`"color":"(#[0-9A-Fa-f]{6})"`)

// TestSeriesColorsContrast: every colour a chart spec of the 13-model site
// draws with has WCAG contrast of at least 3:1 against the white page, and
// each of the 13 models has its own (colour, symbol).
func TestSeriesColorsContrast(t *testing.T) {
	r := manyModels()
	dir := writeSite(t, r, Options{})
	seen := 0
	for name, b := range files(t, dir) {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		for _, m := range colorRe.FindAllStringSubmatch(string(b), -1) {
			seen++
			if c := format.Contrast(m[1], "#FFFFFF"); c < 3 {
				t.Errorf("%s: colour %s has contrast %.2f:1 against white", name, m[1], c)
			}
		}
	}
	if seen < 13 {
		t.Errorf("only %d colours found in the chart specs: the check sees nothing", seen)
	}
	ms := format.ModelsOf(r)
	pairs := map[string]string{}
	for _, row := range r.Table("models").Rows {
		id := row[0].(string)
		k := ms.Color[id] + " " + ms.Symbol[id]
		if o, dup := pairs[k]; dup {
			t.Errorf("models %s and %s share colour and symbol %s", o, id, k)
		}
		pairs[k] = id
	}
}

// TestSpecEncodings checks the JSON a page embeds: ranks as dots on an
// inverted axis, SD whiskers marked as such and named in the caption, the
// n = 1 interval left out with its n, a percent axis capped at 100 %, and a
// data-generated aria description.
func TestSpecEncodings(t *testing.T) {
	r := manyModels()
	st := newChartStyle(r)
	get := func(id string) *report.Figure {
		for _, f := range r.Figures {
			if f.ID == id {
				return f
			}
		}
		t.Fatalf("no figure %s", id)
		return nil
	}
	for _, c := range []struct {
		fig  string
		want []string
		not  []string
	}{
		{"ranks", []string{`"type":"scatter"`, `"inverse":true`, `"symbol":"rect"`, `"description":"dot chart: Rank`}, []string{`"type":"bar"`}},
		{"rubric_sd", []string{`"sd":true`, `[1,null,null,1,2.4]`, `"data":["Finance","Law"]`}, nil},
		{"solve_rate_by_model", []string{`"max":1`, `"flip":true`, `"show":false`, `claude-3-5-sonnet-20241022 90.0 % [82.0 %, 100.0 %]`}, nil},
		{"judge_scatter", []string{`"endLabel":{"color":"#595959","formatter":"{a}","show":true}`, `"max":1`}, []string{`"data":["models"`}},
		{"curve", []string{`"show":false`}, nil},
	} {
		b, info, err := buildSpec(get(c.fig), st)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for _, w := range c.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: spec lacks %s", c.fig, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(s, w) {
				t.Errorf("%s: spec holds %s", c.fig, w)
			}
		}
		if c.fig == "rubric_sd" && (info.Suppressed != 1 || !strings.Contains(info.Whiskers, "SD")) {
			t.Errorf("rubric_sd: %d intervals left out, whiskers %q; want 1 and the SD named", info.Suppressed, info.Whiskers)
		}
	}
}

// TestSkipLinkAndDescriptions: every page opens with a skip link to its
// main content; a chart's accessible name is its description from the data
// (values and intervals), not only its title; its export controls are
// buttons (reached with the keyboard).
func TestSkipLinkAndDescriptions(t *testing.T) {
	dir := writeSite(t, manyModels(), Options{})
	fs := files(t, dir)
	for name, b := range fs {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		s := string(b)
		if !strings.Contains(s, `<a class="skip" href="#main">Skip to content</a>`) || !strings.Contains(s, `<main id="main"`) {
			t.Errorf("%s: no skip link to <main id=\"main\">", name)
		}
	}
	idx := string(fs["index.html"])
	for _, want := range []string{
		`aria-label="bar chart: Solve Rate by model (95 % interval). Solve Rate (%) by model. claude-3-5-sonnet-20241022 90.0 % [82.0 %, 100.0 %]; gpt-4o-2024-08-06 84.0 %`,
		`<button type="button" data-export="png"`, `<button type="button" data-export="svg"`,
	} {
		if !strings.Contains(idx, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
}
