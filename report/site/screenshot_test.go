package site

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/euroexec/euroexec/report/internal/reporttest"
)

// screenshotTolerance is the share of pixels that may differ from a golden
// screenshot (a pixel differs when a channel moves by more than
// pixelTolerance of 255): room for anti-aliasing and font hinting, not for
// a moved chart or a lost table.
const (
	screenshotTolerance = 0.01
	pixelTolerance      = 40
	// maxShotHeight cuts a long page (the question page's 40,000-character
	// response) so that the goldens stay small.
	maxShotHeight = 3000
)

// cropPNG keeps the top maxH pixel rows of a PNG image.
func cropPNG(b []byte, maxH int) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	r := img.Bounds()
	if r.Dy() <= maxH {
		return b, nil
	}
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), maxH))
	for y := 0; y < maxH; y++ {
		for x := 0; x < r.Dx(); x++ {
			out.Set(x, y, img.At(r.Min.X+x, r.Min.Y+y))
		}
	}
	var buf bytes.Buffer
	err = png.Encode(&buf, out)
	return buf.Bytes(), err
}

// TestScreenshotGoldens opens the index, a question page and an evaluator
// page of the test report in headless Chromium, 1280 px wide, and compares
// the whole page (its first maxShotHeight pixels) with the reviewed screenshots in
// testdata/screenshots (perceptually: the share of differing pixels). It
// is skipped without Chromium; -update rewrites the goldens, to be looked
// at before committing. On a failure the new screenshot and a difference
// image (differing pixels in red) are written to the artifacts folder
// ($EUROEXEC_ARTIFACTS, else a temporary folder).
func TestScreenshotGoldens(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	b := startBrowser(t)
	dir := filepath.Join(t.TempDir(), "site")
	if _, err := Write(context.Background(), dir, reporttest.Small(), DefaultOptions); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "screenshots")
	art := artifactsDir(t)
	for _, pg := range []struct{ page, golden string }{
		{"index.html", "index.png"},
		{"questions/q1.html", "question-q1.png"},
		{"evaluators/human_a.html", "evaluator-human_a.png"},
	} {
		t.Run(pg.golden, func(t *testing.T) {
			b.open(t, filepath.Join(dir, filepath.FromSlash(pg.page)), "")
			full, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatalf("screenshot: %v", err)
			}
			shot, err := cropPNG(full, maxShotHeight)
			if err != nil {
				t.Fatal(err)
			}
			gp := filepath.Join(golden, pg.golden)
			if *update {
				if err := os.MkdirAll(golden, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(gp, shot, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("wrote %s: look at it before committing", gp)
				return
			}
			want, err := os.ReadFile(gp)
			if err != nil {
				t.Fatalf("no golden screenshot %s (run go test -run TestScreenshotGoldens -update and look at it)", gp)
			}
			frac, diff, err := pixelDiff(want, shot)
			if err != nil {
				t.Fatalf("%s: %v", gp, err)
			}
			if frac > screenshotTolerance {
				got := filepath.Join(art, "got-"+pg.golden)
				dp := filepath.Join(art, "diff-"+pg.golden)
				os.WriteFile(got, shot, 0o644)
				var buf bytes.Buffer
				if png.Encode(&buf, diff) == nil {
					os.WriteFile(dp, buf.Bytes(), 0o644)
				}
				t.Errorf("%s: %.2f %% of the pixels differ from %s (tolerance %.2f %%); see %s and %s",
					pg.page, 100*frac, gp, 100*screenshotTolerance, got, dp)
			}
		})
	}
}

// pixelDiff compares two PNG images of the same size and returns the share
// of pixels that differ (some channel by more than pixelTolerance) and an
// image of the golden with those pixels in red.
func pixelDiff(a, b []byte) (float64, image.Image, error) {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return 0, nil, fmt.Errorf("golden: %w", err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return 0, nil, fmt.Errorf("screenshot: %w", err)
	}
	ra, rb := ia.Bounds(), ib.Bounds()
	if ra.Dx() != rb.Dx() || ra.Dy() != rb.Dy() {
		return 1, ia, fmt.Errorf("size %dx%d, golden %dx%d", rb.Dx(), rb.Dy(), ra.Dx(), ra.Dy())
	}
	out := image.NewRGBA(ra)
	n := 0
	for y := 0; y < ra.Dy(); y++ {
		for x := 0; x < ra.Dx(); x++ {
			ca := color.RGBAModel.Convert(ia.At(ra.Min.X+x, ra.Min.Y+y)).(color.RGBA)
			cb := color.RGBAModel.Convert(ib.At(rb.Min.X+x, rb.Min.Y+y)).(color.RGBA)
			if far(ca.R, cb.R) || far(ca.G, cb.G) || far(ca.B, cb.B) || far(ca.A, cb.A) {
				n++
				out.Set(x, y, color.RGBA{R: 255, A: 255})
			} else {
				out.Set(x, y, ca)
			}
		}
	}
	return float64(n) / float64(ra.Dx()*ra.Dy()), out, nil
}

func far(a, b uint8) bool {
	d := int(a) - int(b)
	return d > pixelTolerance || d < -pixelTolerance
}

// pixelDiff itself: identical images do not differ, a changed block does
// by its share of the image, and a size change is an error.
func TestPixelDiff(t *testing.T) {
	enc := func(img image.Image) []byte {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	base := image.NewRGBA(image.Rect(0, 0, 10, 10))
	for i := range base.Pix {
		base.Pix[i] = 255
	}
	other := image.NewRGBA(base.Rect)
	copy(other.Pix, base.Pix)
	for y := 0; y < 2; y++ { // 2×5 of 100 pixels turn black
		for x := 0; x < 5; x++ {
			other.Set(x, y, color.RGBA{A: 255})
		}
	}
	other.Set(9, 9, color.RGBA{R: 230, G: 230, B: 230, A: 255}) // within tolerance
	for _, c := range []struct {
		name string
		b    image.Image
		want float64
	}{{"same", base, 0}, {"block", other, 0.10}} {
		got, _, err := pixelDiff(enc(base), enc(c.b))
		if err != nil || got != c.want {
			t.Errorf("%s: got %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	if _, _, err := pixelDiff(enc(base), enc(image.NewRGBA(image.Rect(0, 0, 10, 11)))); err == nil {
		t.Error("no error for images of different sizes")
	}
}
