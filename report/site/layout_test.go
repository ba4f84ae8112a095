package site

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/internal/reporttest"
)

// layoutJS lists, per chart, the pairs of visible text boxes that overlap
// (axis names, tick labels, legend, title, point labels) and the scatter
// points whose label is not drawn. Text boxes come from the chart's zrender
// display list, in page pixels.
const layoutJS = `(() => {
  const out = {overlaps: [], unlabelled: [], texts: 0};
  for (const el of document.querySelectorAll('.echart')) {
    const inst = echarts.getInstanceByDom(el);
    if (!inst) continue;
    const id = el.getAttribute('data-spec');
    const boxes = [];
    inst.getZr().storage.getDisplayList(true).forEach(d => {
      if ((d.type !== 'text' && d.type !== 'tspan') || d.invisible || d.ignore) return;
      const t = d.style && d.style.text;
      if (!t || (d.style.opacity === 0)) return;
      let p = d; let hidden = false;
      while (p) { if (p.ignore || p.invisible) { hidden = true; break; } p = p.parent; }
      if (hidden) return;
      const r = d.getBoundingRect();
      if (r.width <= 0 || r.height <= 0) return;
      const m = d.getComputedTransform() || [1, 0, 0, 1, 0, 0];
      // The text's box as a quadrilateral (rotated labels stay rotated),
      // shrunk by 1 px so touching boxes do not count.
      const pt = (x, y) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
      const x0 = r.x + 1, y0 = r.y + 1, x1 = r.x + r.width - 1, y1 = r.y + r.height - 1;
      boxes.push({t: String(t), q: [pt(x0, y0), pt(x1, y0), pt(x1, y1), pt(x0, y1)]});
    });
    out.texts += boxes.length;
    // Separating-axis test of two convex quadrilaterals.
    const sep = (p, q) => {
      for (const poly of [p, q]) for (let i = 0; i < 4; i++) {
        const a = poly[i], b = poly[(i + 1) % 4];
        const nx = a[1] - b[1], ny = b[0] - a[0];
        const proj = s => s.map(v => v[0] * nx + v[1] * ny);
        const pp = proj(p), qq = proj(q);
        if (Math.max(...pp) < Math.min(...qq) || Math.max(...qq) < Math.min(...pp)) return true;
      }
      return false;
    };
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (!sep(a.q, b.q)) out.overlaps.push(id + ': "' + a.t + '" overlaps "' + b.t + '"');
    }
    const texts = new Set(boxes.map(b => b.t));
    inst.getOption().series.forEach(s => {
      if (s.type !== 'scatter') return;
      (s.data || []).forEach(d => {
        const name = d && d.name;
        if (name && !texts.has(name)) out.unlabelled.push(id + ': point "' + name + '" has no visible label');
      });
    });
  }
  return out;
})()`

// printJS lists the blocks of a page (charts, tables, captions) whose boxes
// overlap once the page is laid out for print.
const printJS = `(() => {
  window.dispatchEvent(new Event('resize'));
  const els = [...document.querySelectorAll('figure.chart, section.table, figcaption, .echart, section.findings, section.methods, section.howto')];
  const out = [];
  const rect = e => e.getBoundingClientRect();
  for (let i = 0; i < els.length; i++) for (let j = i + 1; j < els.length; j++) {
    const a = els[i], b = els[j];
    if (a.contains(b) || b.contains(a)) continue;
    const r = rect(a), s = rect(b);
    const ox = Math.min(r.right, s.right) - Math.max(r.left, s.left);
    const oy = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
    if (ox > 1 && oy > 1) out.push((a.id || a.className) + ' overlaps ' + (b.id || b.className));
  }
  return out;
})()`

type layoutState struct {
	Overlaps   []string `json:"overlaps"`
	Unlabelled []string `json:"unlabelled"`
	Texts      int      `json:"texts"`
}

// layoutReport is the test report with long model names (rotated ticks) and
// a models table with display names.
func layoutReport() *report.Report {
	r := reporttest.Small()
	r.Tables = append(r.Tables, &report.Table{Name: "models", Section: report.SectionDataset,
		Columns: []report.Column{{Name: "model"}, {Name: "display_name"}},
		Rows:    [][]any{{"alpha", "Alpha Model"}, {reporttest.XSSModel, nil}, {"gamma & co", "Gamma & Co"}}})
	var cats []string
	var vals []float64
	for i := 0; i < 12; i++ {
		cats = append(cats, "a rather long category name number "+string(rune('A'+i)))
		vals = append(vals, float64(i)/12)
	}
	r.Figures = append(r.Figures, &report.Figure{ID: "fig_long", Section: report.SectionRubric, Title: "Long categories",
		Kind: report.Bar, XName: "Category with a long axis name", YName: "Solve Rate", Percent: true,
		Categories: cats, Series: []report.Series{{Name: "humans", Values: vals}}})
	return r
}

// TestBrowserLayout opens every page in Chromium: no two text boxes of a
// chart overlap (axis names, rotated tick labels, legend, title, point
// labels), every scatter point shows its label, and in print layout no chart,
// caption or table overlaps another.
func TestBrowserLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	b := startBrowser(t)
	dir := filepath.Join(t.TempDir(), "site")
	if _, err := Write(context.Background(), dir, layoutReport(), DefaultOptions); err != nil {
		t.Fatal(err)
	}
	var pages []string
	for _, p := range []string{"index.html", "rubric.html", "judges.html", "consistency.html", "dataset.html"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			pages = append(pages, p)
		}
	}
	texts := 0
	for _, p := range pages {
		t.Run(p, func(t *testing.T) {
			b.open(t, filepath.Join(dir, p), "")
			st, err := chromedp.Run(b.ctx, chromedp.Evaluate[layoutState](layoutJS))
			if err != nil {
				t.Fatal(err)
			}
			texts += st.Texts
			for _, o := range st.Overlaps {
				t.Errorf("screen: %s", o)
			}
			for _, u := range st.Unlabelled {
				t.Error(u)
			}
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
			if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: ""}); err != nil {
				t.Fatal(err)
			}
		})
	}
	if texts < 50 {
		t.Errorf("only %d text boxes found in the charts: the check sees nothing", texts)
	}
	// The scatter's points carry display names.
	src, _ := os.ReadFile(filepath.Join(dir, "judges.html"))
	if !strings.Contains(string(src), `"name":"Alpha Model"`) {
		t.Error("judges.html: the scatter point of alpha is not named by its display name")
	}
}
