package xlsx

import (
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/internal/realdata"
	"github.com/euroexec/euroexec/report/internal/reporttest"
)

// TestRenderFindingsSheet renders the workbook's first sheet with
// LibreOffice headless: its first printed page shows the leaderboard (its
// heading, every model in rank order with its Solve Rate) and, beside it,
// the headline chart (its title, and its bars as coloured pixels in the
// right half of the page). A workbook without figures is rendered too:
// there the right half has no coloured pixels, so the count is the chart's.
func TestRenderFindingsSheet(t *testing.T) {
	if testing.Short() {
		t.Skip("LibreOffice rendering skipped in -short mode")
	}
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		realdata.Unavailable(t, "LibreOffice rendering: soffice not found (apt-get install libreoffice-calc)")
	}
	for _, tool := range []string{"pdftoppm", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			realdata.Unavailable(t, "LibreOffice rendering: "+tool+" not found (apt-get install poppler-utils)")
		}
	}
	dir := t.TempDir()
	with := reporttest.Small()
	without := reporttest.Small()
	without.Figures = nil
	paths := make([]string, 2)
	for i, r := range []struct {
		name string
		fig  bool
	}{{"with", true}, {"without", false}} {
		rep := with
		if !r.fig {
			rep = without
		}
		paths[i] = filepath.Join(dir, r.name+".xlsx")
		if err := Write(context.Background(), paths[i], rep, DefaultOptions); err != nil {
			t.Fatal(err)
		}
		onlySheets(t, paths[i], func(s string) bool { return s == SheetFindings })
	}
	args := append([]string{"--headless", "--norestore", "-env:UserInstallation=file://" + filepath.ToSlash(filepath.Join(dir, "profile")),
		"--convert-to", "pdf", "--outdir", dir}, paths...)
	cmd := exec.Command(soffice, args...)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	chartPixels := map[string]int{}
	for _, name := range []string{"with", "without"} {
		pdf := filepath.Join(dir, name+".pdf")
		text, err := exec.Command("pdftotext", "-f", "1", "-l", "1", "-layout", pdf, "-").Output()
		if err != nil {
			t.Fatalf("pdftotext %s: %v", pdf, err)
		}
		page := string(text)
		// the leaderboard: heading, then the models in rank order
		pos := strings.Index(page, "Leaderboard — human graders, all questions, by Solve Rate")
		if pos < 0 {
			t.Errorf("%s: page 1 lacks the leaderboard heading:\n%s", name, page)
			continue
		}
		for _, want := range []string{"alpha", "<img src=x onerror=alert(1)>", "gamma & co"} {
			p := strings.Index(page[pos:], want)
			if p < 0 {
				t.Errorf("%s: page 1 lacks %q after the leaderboard heading (or not in rank order):\n%s", name, want, page)
				break
			}
			pos += p
		}
		for _, want := range []string{"75.0%", "[50.0 %, 100.0 %]", "Findings"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: page 1 lacks %q", name, want)
			}
		}
		if hasTitle := strings.Contains(page, "Solve Rate by model"); hasTitle != (name == "with") {
			t.Errorf("%s: chart title on page 1: %v", name, hasTitle)
		}
		prefix := filepath.Join(dir, name)
		if out, err := exec.Command("pdftoppm", "-r", "60", "-f", "1", "-l", "1", "-png", pdf, prefix).CombinedOutput(); err != nil {
			t.Fatalf("pdftoppm: %v\n%s", err, out)
		}
		pngs, _ := filepath.Glob(prefix + "-*.png")
		if len(pngs) != 1 {
			t.Fatalf("%s: %d PNG pages, want 1", name, len(pngs))
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
		b := img.Bounds()
		right := img.(interface {
			SubImage(r image.Rectangle) image.Image
		}).SubImage(image.Rect(b.Min.X+b.Dx()/2, b.Min.Y, b.Max.X, b.Min.Y+b.Dy()/2))
		chartPixels[name] = colouredPixels(right)
	}
	t.Logf("coloured pixels in the top right quarter of page 1: %v", chartPixels)
	if chartPixels["with"] < 200 {
		t.Errorf("with the headline figure: %d coloured pixels beside the leaderboard, want ≥ 200 (the chart's bars)", chartPixels["with"])
	}
	if chartPixels["without"] > 20 {
		t.Errorf("without figures: %d coloured pixels beside the leaderboard, want none", chartPixels["without"])
	}
}
