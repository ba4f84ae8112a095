package xlsx

import (
	"archive/zip"
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/euroexec/euroexec/internal/realdata"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/format"
	"github.com/euroexec/euroexec/report/internal/reporttest"
)

// onlyChartSheets hides every sheet of a workbook but its chart sheets, so
// that a PDF of it holds the charts alone, and returns how many chart sheets
// it has.
func onlyChartSheets(t *testing.T, path string) int {
	t.Helper()
	return onlySheets(t, path, func(s string) bool { return s == SheetCharts || strings.HasPrefix(s, SheetCharts+" ") })
}

// onlySheets hides every sheet of a workbook but those keep says, and returns
// how many it kept.
func onlySheets(t *testing.T, path string, keep func(string) bool) int {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	first := -1
	for i, s := range f.GetSheetList() {
		if keep(s) {
			n++
			if first < 0 {
				first = i
			}
		}
	}
	if first < 0 {
		t.Fatalf("%s has no sheet to keep", path)
	}
	f.SetActiveSheet(first)
	for _, s := range f.GetSheetList() {
		if !keep(s) {
			if err := f.SetSheetVisible(s, false); err != nil {
				t.Fatal(err)
			}
			// LibreOffice prints a hidden sheet's print area: drop it.
			f.DeleteDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Area", Scope: s})
		}
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	return n
}

// colouredPixels counts the pixels of an image whose colour is saturated
// (bars, points and lines of data series; axes, grid lines, text, interval
// dashes and reference lines are grey or black).
func colouredPixels(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			hi, lo := max(r, g, bl)>>8, min(r, g, bl)>>8
			if hi-lo > 60 {
				n++
			}
		}
	}
	return n
}

// pixelsNear counts the pixels of img within 16 of the colour "#RRGGBB" in
// every channel.
func pixelsNear(img image.Image, hex string) int {
	v, _ := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	want := [3]int{int(v >> 16 & 0xff), int(v >> 8 & 0xff), int(v & 0xff)}
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			got := [3]int{int(r >> 8), int(g >> 8), int(bl >> 8)}
			near := true
			for i := range got {
				if d := got[i] - want[i]; d > 16 || d < -16 {
					near = false
				}
			}
			if near {
				n++
			}
		}
	}
	return n
}

func pdfPages(t *testing.T, pdf string) int {
	t.Helper()
	out, err := exec.Command("pdfinfo", pdf).Output()
	if err != nil {
		t.Fatalf("pdfinfo %s: %v", pdf, err)
	}
	m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("pdfinfo %s: no page count in %q", pdf, out)
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// TestRenderLibreOffice renders the workbook's charts with LibreOffice
// headless: every chart draws its points or bars (coloured pixels on its
// page), a chart sheet prints on at most two pages, and the heat map grids
// are coloured by their conditional format.
func TestRenderLibreOffice(t *testing.T) {
	if testing.Short() {
		t.Skip("LibreOffice rendering skipped in -short mode")
	}
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		realdata.Unavailable(t, "LibreOffice rendering: soffice not found (apt-get install libreoffice-calc)")
	}
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		realdata.Unavailable(t, "LibreOffice rendering: pdftoppm not found (apt-get install poppler-utils)")
	}
	dir := t.TempDir()
	// One workbook per chartable figure, and one with them all.
	type book struct {
		name   string
		sheets int
		// colours drawn on the page (the models' bars) and colours that
		// must not be (the legend swatch of a series coloured per model)
		drawn, hidden []string
	}
	var books []book
	full := reporttest.Small()
	models := &report.Table{Name: "models", Section: report.SectionDataset,
		Columns: []report.Column{{Name: "model"}, {Name: "display_name"}},
		Rows:    [][]any{{"gamma & co", "Gamma"}, {"alpha", "Alpha"}, {reporttest.XSSModel, ""}}}
	for _, fig := range full.Figures {
		if !chartable(fig) {
			continue
		}
		r := reporttest.Small()
		r.Figures = []*report.Figure{fig}
		r.Tables = append(r.Tables, models)
		name := "fig_" + fig.ID
		p := filepath.Join(dir, name+".xlsx")
		if err := Write(context.Background(), p, r, DefaultOptions); err != nil {
			t.Fatal(err)
		}
		b := book{name: name, sheets: onlyChartSheets(t, p)}
		// A one-series bar chart over the models: bars in the models'
		// colours, no legend (its swatch would be the series' neutral blue).
		if fig.Kind == report.Bar && len(fig.Series) == 1 {
			mc := format.ModelsOf(r)
			for _, c := range fig.Categories {
				if col := mc.Color[c]; col != "" {
					b.drawn = append(b.drawn, col)
				}
			}
			if len(b.drawn) == len(fig.Categories) {
				b.hidden = []string{format.Neutral[0]}
			} else {
				b.drawn = nil
			}
		}
		books = append(books, b)
	}
	perModel := 0
	for _, b := range books {
		if len(b.hidden) > 0 {
			perModel++
		}
	}
	if perModel == 0 {
		t.Fatal("no one-series bar chart over the models to render")
	}
	// The heat maps sheet alone: its grid is coloured by the 3-colour scale.
	{
		r := reporttest.Small()
		r.Figures = heatmapFigures(full.Figures)
		if len(r.Figures) == 0 {
			t.Fatal("reporttest.Small has no heat map")
		}
		p := filepath.Join(dir, "heatmaps.xlsx")
		if err := Write(context.Background(), p, r, DefaultOptions); err != nil {
			t.Fatal(err)
		}
		books = append(books, book{name: "heatmaps", sheets: onlySheets(t, p, func(s string) bool { return s == SheetHeatmaps })})
	}
	// Enough figures for two chart sheets: three copies of the four charts.
	many := reporttest.Small()
	var figs []*report.Figure
	for i := 0; i < 3; i++ {
		figs = append(figs, full.Figures...)
	}
	many.Figures = figs
	if err := Write(context.Background(), filepath.Join(dir, "all.xlsx"), many, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	books = append(books, book{name: "all", sheets: onlyChartSheets(t, filepath.Join(dir, "all.xlsx"))})
	if books[len(books)-1].sheets < 2 {
		t.Fatalf("all.xlsx has %d chart sheets, want 2", books[len(books)-1].sheets)
	}

	args := []string{"--headless", "--norestore", "-env:UserInstallation=file://" + filepath.ToSlash(filepath.Join(dir, "profile")),
		"--convert-to", "pdf", "--outdir", dir}
	for _, b := range books {
		args = append(args, filepath.Join(dir, b.name+".xlsx"))
	}
	cmd := exec.Command(soffice, args...)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	art := os.Getenv("EUROEXEC_ARTIFACTS")
	for _, b := range books {
		pdf := filepath.Join(dir, b.name+".pdf")
		pages := pdfPages(t, pdf)
		if pages > 2*b.sheets {
			t.Errorf("%s: %d PDF pages for %d chart sheets, want at most 2 a sheet", b.name, pages, b.sheets)
		}
		if b.name == "all" {
			continue
		}
		prefix := filepath.Join(dir, b.name)
		if out, err := exec.Command("pdftoppm", "-r", "60", "-f", "1", "-l", "1", "-png", pdf, prefix).CombinedOutput(); err != nil {
			t.Fatalf("pdftoppm %s: %v\n%s", pdf, err, out)
		}
		pngs, _ := filepath.Glob(prefix + "-*.png")
		if len(pngs) != 1 {
			t.Fatalf("%s: %d PNG pages, want 1", b.name, len(pngs))
		}
		fh, err := os.Open(pngs[0])
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(fh)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		n := colouredPixels(img)
		t.Logf("%s: %d pages, %d coloured pixels", b.name, pages, n)
		if n < 40 {
			t.Errorf("%s: %d coloured pixels on its page: the chart draws no points or bars (or the grid no colours)", b.name, n)
		}
		for _, c := range b.drawn {
			if k := pixelsNear(img, c); k < 40 {
				t.Errorf("%s: %d pixels of the model colour %s: a bar is not in its model's colour", b.name, k, c)
			}
		}
		for _, c := range b.hidden {
			if k := pixelsNear(img, c); k > 0 {
				t.Errorf("%s: %d pixels of the series colour %s: the legend of bars coloured per model is drawn", b.name, k, c)
			}
		}
		if art != "" {
			if data, err := os.ReadFile(pngs[0]); err == nil {
				os.MkdirAll(art, 0o755)
				os.WriteFile(filepath.Join(art, fmt.Sprintf("xlsx-%s.png", b.name)), data, 0o644)
			}
		}
	}
}

// Charts name models by their display names, from the models table.
func TestChartDisplayNames(t *testing.T) {
	r := reporttest.Small()
	r.Tables = append(r.Tables, &report.Table{Name: "models", Columns: []report.Column{{Name: "model"}, {Name: "display_name"}},
		Rows: [][]any{{"alpha", "Alpha Model"}, {"gamma & co", "Gamma & Co"}}})
	p := filepath.Join(t.TempDir(), "r.xlsx")
	if err := Write(context.Background(), p, r, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for cell, want := range map[string]string{"A3": "Alpha Model", "A4": reporttest.XSSModel, "A5": "Gamma & Co"} {
		if got, _ := f.GetCellValue(SheetChartData, cell); got != want {
			t.Errorf("Chart data!%s = %q, want %q", cell, got, want)
		}
	}
}

// The Findings sheet comes first with the leaderboard, the headline sentences, the Methods
// paragraph and how to read the workbook; tables print with their header
// row repeated.
func TestFindingsSheet(t *testing.T) {
	path, f := writeSmall(t)
	_ = path
	if got := f.GetSheetList()[0]; got != SheetFindings {
		t.Fatalf("first sheet %q, want %q", got, SheetFindings)
	}
	cols, err := f.GetCols(SheetFindings)
	if err != nil || len(cols) == 0 {
		t.Fatalf("findings sheet: %v", err)
	}
	text := strings.Join(cols[0], "\n")
	for _, want := range []string{
		"Test study <b>bold</b>\n\nLeaderboard — human graders, all questions, by Solve Rate\nrank\n1\n2\n3\n",
		"\nFindings\nalpha has the highest Solve Rate, 75.0 % [50.0 %, 100.0 %]",
		"Methods (ready to paste)\nWe evaluated 3 models on 2 questions",
		"How to read this workbook\nSolve Rate: the share",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("Findings sheet lacks %q:\n%s", want, text)
		}
	}
	names, err := f.GetDefinedName(), error(nil)
	found := false
	for _, n := range names {
		if n.Name == "_xlnm.Print_Titles" && n.Scope == "Summary" && n.RefersTo == "'Summary'!$1:$2" {
			found = true
		}
	}
	if !found {
		t.Errorf("no print titles for Summary in %+v", names)
	}
	lay, err := f.GetPageLayout("Summary")
	if err != nil {
		t.Fatal(err)
	}
	if lay.Orientation == nil || *lay.Orientation != "landscape" || lay.FitToWidth == nil || *lay.FitToWidth != 1 {
		t.Errorf("Summary page layout %+v, want landscape fitted to the width", lay)
	}
}

// Every series draws its own error bars (two series here): mean ± SD
// dashed without caps, a confidence interval solid with caps, and none
// where the interval rests on one observation.
func TestErrorBarsPerSeries(t *testing.T) {
	r := reporttest.Small()
	r.Figures = []*report.Figure{{ID: "two", Title: "Two series (mean ± SD)", Kind: report.Bar, Categories: []string{"x", "y"},
		Series: []report.Series{
			{Name: "a", Values: []float64{1, 2}, Lo: []float64{0.5, 1.5}, Hi: []float64{1.5, 2.5}, SD: true, N: []int{5, 1}},
			{Name: "b", Values: []float64{2, 1}, Lo: []float64{1.5, 0.5}, Hi: []float64{2.5, 1.5}},
		}}}
	p := filepath.Join(t.TempDir(), "r.xlsx")
	if err := Write(context.Background(), p, r, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(p)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	all := ""
	for _, zf := range zr.File {
		if strings.HasPrefix(zf.Name, "xl/charts/chart") {
			rc, _ := zf.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			all += string(b)
		}
	}
	if n := strings.Count(all, "<errBars>"); n != 2 {
		t.Errorf("%d series with error bars, want 2", n)
	}
	for _, w := range []string{`<noEndCap val="1"></noEndCap>`, `<a:prstDash val="dash">`, `<noEndCap val="0"></noEndCap>`, `<a:prstDash val="solid">`} {
		if !strings.Contains(all, w) {
			t.Errorf("charts lack %s", w)
		}
	}
	if strings.Contains(all, "interval bars on the site only") {
		t.Error("the title still says the intervals are not drawn")
	}
	f, err := excelize.OpenFile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// series a: + and − in D and E; the n = 1 interval is left out
	checkCell(t, f, "Chart data", "D3", "0.5")
	checkCell(t, f, "Chart data", "D4", "")
}
