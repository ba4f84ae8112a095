package site

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/euroexec/euroexec/internal/realdata"
	"github.com/euroexec/euroexec/report/internal/reporttest"
)

const chromiumPath = "/usr/bin/chromium"

// browser is one headless Chromium with one tab, recording what the pages do.
type browser struct {
	ctx    context.Context
	mu     sync.Mutex
	errs   []string // console errors, exceptions, error log entries
	reqs   []string // every request URL
	dialog []string // JS dialogs opened
}

func (b *browser) take() (errs, reqs, dialogs []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	errs, reqs, dialogs = b.errs, b.reqs, b.dialog
	b.errs, b.reqs, b.dialog = nil, nil, nil
	return
}

func startBrowser(t testing.TB) *browser {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		realdata.Unavailable(t, fmt.Sprintf("browser test: %s not found (apt-get install chromium)", chromiumPath))
	}
	if !HasECharts() {
		realdata.Unavailable(t, "browser test: report/site/assets/echarts.min.js not fetched; run `make assets` first")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("allow-file-access-from-files", false),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	t.Cleanup(acancel)
	tctx, tcancel := chromedp.NewContext(actx)
	t.Cleanup(tcancel)
	b := &browser{ctx: tctx}
	// Start the browser and the tab before listening.
	if err := chromedp.Do(tctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	err := chromedp.Listen(tctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == "error" || ev.Type == "assert" {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				b.errs = append(b.errs, "console."+string(ev.Type)+": "+strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			msg := ev.ExceptionDetails.Text
			if ev.ExceptionDetails.Exception != nil {
				msg += " " + ev.ExceptionDetails.Exception.Description
			}
			b.errs = append(b.errs, "exception: "+msg)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				b.errs = append(b.errs, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		case *network.EventRequestWillBeSent:
			b.reqs = append(b.reqs, ev.Request.URL)
		case *page.EventJavascriptDialogOpening:
			b.dialog = append(b.dialog, string(ev.Type)+": "+ev.Message)
			go chromedp.Call(tctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pageState is what a page reports after loading.
type pageState struct {
	Charts    int      `json:"charts"`
	Drawn     int      `json:"drawn"`
	Undrawn   []string `json:"undrawn"`
	Images    int      `json:"images"`
	Text      string   `json:"text"`
	Banner    bool     `json:"banner"`
	TipText   string   `json:"tipText"`
	OpenFigs  int      `json:"openFigs"`
	FigDetail int      `json:"figDetails"`
}

// stateJS counts the chart containers whose canvas has painted pixels, the
// <img> elements (an injected payload would make one) and returns the text.
const stateJS = `(() => {
  const els = [...document.querySelectorAll('.echart')];
  const undrawn = [];
  let drawn = 0;
  for (const el of els) {
    const c = el.querySelector('canvas');
    let painted = 0;
    if (c && c.width > 0 && c.height > 0) {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let i = 3; i < d.length; i += 4 * 7) { if (d[i] !== 0) { painted++; if (painted > 50) break; } }
    }
    if (painted > 50) drawn++; else undrawn.push(el.getAttribute('data-spec'));
  }
  const openFigs = document.querySelectorAll('details.figdata[open]').length;
  document.querySelectorAll('details').forEach(d => { d.open = true; }); // collapsed text counts too
  return {charts: els.length, drawn, undrawn, images: document.querySelectorAll('img').length,
    text: document.body.innerText, banner: !!document.querySelector('.banner'),
    openFigs, figDetails: document.querySelectorAll('details.figdata').length};
})()`

// tipJS shows the tooltip of the second data item of every chart (the XSS
// model in the bar charts of the test report) and returns the tooltip text.
const tipJS = `(() => {
  let text = '';
  for (const el of document.querySelectorAll('.echart')) {
    const inst = echarts.getInstanceByDom(el);
    if (!inst) continue;
    inst.dispatchAction({type: 'showTip', seriesIndex: 0, dataIndex: 1});
    text += el.innerText + '\n';
  }
  return text;
})()`

func (b *browser) open(t *testing.T, path, screenshot string) pageState {
	t.Helper()
	url := "file://" + filepath.ToSlash(path)
	if err := chromedp.Do(b.ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	if screenshot != "" { // as a reader first sees the page
		png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		if err := os.WriteFile(screenshot, png, 0o644); err != nil {
			t.Error(err)
		}
		t.Logf("screenshot %s", screenshot)
	}
	st, err := chromedp.Run(b.ctx, chromedp.Evaluate[pageState](stateJS))
	if err != nil {
		t.Fatalf("%s: evaluate: %v", path, err)
	}
	return st
}

func artifactsDir(t *testing.T) string {
	if d := os.Getenv("EUROEXEC_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err == nil {
			return d
		}
	}
	return t.TempDir()
}

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	b := startBrowser(t)
	dir := filepath.Join(t.TempDir(), "site")
	r := reporttest.Small()
	if _, err := Write(context.Background(), dir, r, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	var pages []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".html") {
			pages = append(pages, p)
		}
		return nil
	})
	if len(pages) < 8 {
		t.Fatalf("only %d pages written", len(pages))
	}
	allowed := "file://" + filepath.ToSlash(dir) + "/"
	art := artifactsDir(t)
	for _, p := range pages {
		rel, _ := filepath.Rel(dir, p)
		t.Run(rel, func(t *testing.T) {
			b.take()
			shot := ""
			if rel == "index.html" || rel == filepath.Join("questions", "q1.html") {
				shot = filepath.Join(art, "site-"+strings.NewReplacer("/", "-", ".html", ".png").Replace(filepath.ToSlash(rel)))
			}
			st := b.open(t, p, shot)
			src, _ := os.ReadFile(p)
			if st.Charts != strings.Count(string(src), `class="echart"`) {
				t.Errorf("%d chart containers in the DOM, %d in the file", st.Charts, strings.Count(string(src), `class="echart"`))
			}
			if st.Drawn != st.Charts {
				t.Errorf("%d of %d charts drawn; not drawn: %v", st.Drawn, st.Charts, st.Undrawn)
			}
			if st.Images != 0 {
				t.Errorf("%d <img> elements: user text became HTML", st.Images)
			}
			if st.Banner {
				t.Error("the missing-ECharts banner is shown although the asset is there")
			}
			// User text that the file holds escaped shows as text.
			for _, payload := range []string{reporttest.XSSModel, "</script><script>alert('prompt')</script>", reporttest.FormulaAnswer} {
				esc := strings.NewReplacer("<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(payload)
				if strings.Contains(string(src), esc) && !strings.Contains(st.Text, payload) {
					t.Errorf("payload %q is in the file but not in the page text", payload)
				}
			}
			if st.Charts > 0 {
				tip, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](tipJS))
				if err != nil {
					t.Fatalf("tooltips: %v", err)
				}
				time.Sleep(300 * time.Millisecond) // let an injected image fail and fire onerror
				st2, err := chromedp.Run(b.ctx, chromedp.Evaluate[pageState](stateJS))
				if err != nil {
					t.Fatal(err)
				}
				if st2.Images != 0 {
					t.Errorf("tooltip made %d <img> elements", st2.Images)
				}
				if rel == "index.html" && !strings.Contains(tip, reporttest.XSSModel) {
					t.Errorf("the Solve Rate tooltip does not show the XSS model name as text; tooltip text: %q", tip)
				}
			}
			errs, reqs, dialogs := b.take()
			for _, e := range errs {
				t.Errorf("console: %s", e)
			}
			for _, d := range dialogs {
				t.Errorf("a JavaScript dialog opened: %s", d)
			}
			for _, u := range reqs {
				if !strings.HasPrefix(u, allowed) {
					t.Errorf("request outside the site folder: %s", u)
				}
			}
		})
	}

	t.Run("without echarts", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "site")
		warn, err := Write(context.Background(), dir, r, Options{Assets: fstest.MapFS{}})
		if err != nil {
			t.Fatal(err)
		}
		if len(warn) != 1 {
			t.Errorf("warnings = %q, want one", warn)
		}
		for _, p := range []string{"index.html", "consistency.html", filepath.Join("questions", "q1.html")} {
			b.take()
			st := b.open(t, filepath.Join(dir, p), "")
			errs, reqs, dialogs := b.take()
			if !st.Banner {
				t.Errorf("%s: no banner", p)
			}
			if st.OpenFigs != st.FigDetail {
				t.Errorf("%s: %d of %d figure data tables open, want all", p, st.OpenFigs, st.FigDetail)
			}
			if len(errs) > 0 || len(dialogs) > 0 {
				t.Errorf("%s: console %q, dialogs %q", p, errs, dialogs)
			}
			for _, u := range reqs {
				if strings.HasSuffix(u, EChartsFile) {
					t.Errorf("%s requests %s", p, u)
				}
			}
		}
	})
	if testing.Verbose() {
		fmt.Println("browser test artifacts:", art)
	}
}

// TestBrowserExport presses (Enter, no mouse) the SVG export button on the
// index of the test report and checks that Chromium downloads an SVG
// document named after the chart, drawn offline by the page itself; the
// PNG button is still there beside it.
func TestBrowserExport(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	b := startBrowser(t)
	dir := filepath.Join(t.TempDir(), "site")
	if _, err := Write(context.Background(), dir, reporttest.Small(), DefaultOptions); err != nil {
		t.Fatal(err)
	}
	dl := t.TempDir()
	if _, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dl}); err != nil {
		t.Fatalf("download behaviour: %v", err)
	}
	b.open(t, filepath.Join(dir, "index.html"), "")
	// The export controls are buttons: reached with Tab and pressed with
	// Enter, no mouse.
	id, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(() => {
	  const btn = document.querySelector('button[data-export="svg"]'); btn.focus();
	  return document.activeElement === btn ? btn.getAttribute('data-for') : '';
	})()`))
	if err != nil || id == "" {
		t.Fatalf("the SVG export button takes no focus (%v)", err)
	}
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent("\r")); err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(strings.TrimSuffix(id, "-spec"), "fig-")
	want := filepath.Join(dl, name+".svg")
	var got []byte
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if b, err := os.ReadFile(want); err == nil && len(b) > 0 && strings.HasSuffix(strings.TrimSpace(string(b)), "</svg>") {
			got = b
			break
		}
	}
	if got == nil {
		ents, _ := os.ReadDir(dl)
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("no %s downloaded after pressing Enter on the SVG button (folder holds %q)", filepath.Base(want), names)
	}
	// The slide PNG: 16:9 at 2× (1920×1080).
	type dims struct {
		W int `json:"w"`
		H int `json:"h"`
	}
	d, err := chromedp.Run(b.ctx, chromedp.Evaluate[dims](`new Promise(res => {
	  const im = new Image(); im.onload = () => res({w: im.naturalWidth, h: im.naturalHeight});
	  im.src = window.euroexecExport(document.querySelector('button[data-export="png"]').getAttribute('data-for'), 'png');
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if d.W != 1920 || d.H != 1080 {
		t.Errorf("exported PNG is %d×%d, want 1920×1080 (16:9 at 2×)", d.W, d.H)
	}
	s := string(got)
	if !strings.HasPrefix(strings.TrimSpace(s), "<svg") || !strings.Contains(s, `xmlns="http://www.w3.org/2000/svg"`) {
		t.Errorf("download is not an SVG document: %.200q", s)
	}
	// The drawing is there (bars as paths, axis and title as text) and
	// the model names are escaped text, not markup.
	if strings.Count(s, "<path") < 5 || !strings.Contains(s, "<text") {
		t.Errorf("SVG holds %d paths and no text: not the chart", strings.Count(s, "<path"))
	}
	// Title, subtitle (the axes) and footnote (study, n, interval, date).
	r := reporttest.Small()
	for _, w := range []string{"y: Solve Rate", "n = ", "95 % intervals", r.GeneratedAt.UTC().Format("2006-01-02")} {
		if !strings.Contains(s, w) {
			t.Errorf("exported SVG lacks %q", w)
		}
	}
	if strings.Contains(s, reporttest.XSSModel) {
		t.Error("the SVG holds the XSS model name unescaped")
	}
	errs, reqs, _ := b.take()
	for _, e := range errs {
		t.Errorf("console: %s", e)
	}
	for _, u := range reqs {
		if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "blob:") && !strings.HasPrefix(u, "data:") {
			t.Errorf("request outside the site: %s", u)
		}
	}
}
