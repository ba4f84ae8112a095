package xlsx

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/euroexec/euroexec/internal/realdata"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/internal/reporttest"
)

// TestRenderChartPages prints two chart sheets (twelve charts, each with
// its own title "Chart NN" and x-axis title "axis NN") with LibreOffice
// headless and reads every page's text: each chart's title and its x-axis
// title (the top and the bottom of its frame) are on the same page, the
// k-th chart on page ⌈k/ChartsPerPage⌉, and the sheets print on exactly
// ⌈12/ChartsPerPage⌉ pages, so no chart is cut by a page break, down or
// across (the cut-off right part of a chart would be a page of its own).
func TestRenderChartPages(t *testing.T) {
	if testing.Short() {
		t.Skip("LibreOffice rendering skipped in -short mode")
	}
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		realdata.Unavailable(t, "LibreOffice rendering: soffice not found (apt-get install libreoffice-calc)")
	}
	for _, tool := range []string{"pdftotext", "pdfinfo"} {
		if _, err := exec.LookPath(tool); err != nil {
			realdata.Unavailable(t, "LibreOffice rendering: "+tool+" not found (apt-get install poppler-utils)")
		}
	}
	const n = 2 * ChartsPerSheet
	r := reporttest.Small()
	var base []*report.Figure
	for _, f := range r.Figures {
		if chartable(f) {
			base = append(base, f)
		}
	}
	if len(base) == 0 {
		t.Fatal("reporttest.Small has no chartable figure")
	}
	var figs []*report.Figure
	for k := 1; k <= n; k++ {
		f := *base[(k-1)%len(base)]
		f.ID = fmt.Sprintf("chart_%02d", k)
		f.Title = fmt.Sprintf("Chart %02d", k)
		f.XName = fmt.Sprintf("axis %02d", k)
		f.Table = "" // not a headline figure: keep the order
		f.LogX = false
		figs = append(figs, &f)
	}
	r.Figures = figs
	dir := t.TempDir()
	p := filepath.Join(dir, "charts.xlsx")
	if err := Write(context.Background(), p, r, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	if sheets := onlyChartSheets(t, p); sheets != 2 {
		t.Fatalf("%d chart sheets, want 2", sheets)
	}
	cmd := exec.Command(soffice, "--headless", "--norestore", "-env:UserInstallation=file://"+filepath.ToSlash(filepath.Join(dir, "profile")),
		"--convert-to", "pdf", "--outdir", dir, p)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	pdf := filepath.Join(dir, "charts.pdf")
	pages := pdfPages(t, pdf)
	wantPages := (n + ChartsPerPage - 1) / ChartsPerPage
	if pages != wantPages {
		t.Errorf("%d pages, want %d (%d charts, %d a page)", pages, wantPages, n, ChartsPerPage)
	}
	titleRe, axisRe := regexp.MustCompile(`Chart (\d\d)`), regexp.MustCompile(`axis (\d\d)`)
	titleOn, axisOn := map[string][]int{}, map[string][]int{}
	for pg := 1; pg <= pages; pg++ {
		text, err := exec.Command("pdftotext", "-f", fmt.Sprint(pg), "-l", fmt.Sprint(pg), "-layout", pdf, "-").Output()
		if err != nil {
			t.Fatalf("pdftotext page %d: %v", pg, err)
		}
		for _, m := range titleRe.FindAllStringSubmatch(string(text), -1) {
			titleOn[m[1]] = append(titleOn[m[1]], pg)
		}
		for _, m := range axisRe.FindAllStringSubmatch(string(text), -1) {
			axisOn[m[1]] = append(axisOn[m[1]], pg)
		}
	}
	for k := 1; k <= n; k++ {
		id := fmt.Sprintf("%02d", k)
		want := (k-1)/ChartsPerPage + 1
		if ti, ax := titleOn[id], axisOn[id]; len(ti) != 1 || len(ax) != 1 || ti[0] != want || ax[0] != want {
			t.Errorf("chart %s: title on pages %v, x-axis title on pages %v; want both on page %d alone", id, ti, ax, want)
		}
	}
	if art := os.Getenv("EUROEXEC_ARTIFACTS"); art != "" {
		os.MkdirAll(art, 0o755)
		if out, err := exec.Command("pdftoppm", "-r", "50", "-png", pdf, filepath.Join(art, "xlsx-chart-pages")).CombinedOutput(); err != nil {
			t.Logf("pdftoppm: %v\n%s", err, out)
		}
	}
}
