package site

import (
	"context"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/euroexec/euroexec/report/internal/reporttest"
)

// BenchmarkLargestPageLoad writes the paper-scale site (413 questions, 6
// models, ~44,000-character answers), opens its largest page from disk in
// headless Chromium and reports the navigation's load time (ms/load, from
// the page's own Navigation Timing) and the page's size.
//
//	go test -run X -bench LargestPageLoad -benchtime 5x ./report/site
func BenchmarkLargestPageLoad(b *testing.B) {
	br := startBrowser(b)
	dir := b.TempDir()
	if _, err := Write(context.Background(), dir, reporttest.PaperScale(44000), DefaultOptions); err != nil {
		b.Fatal(err)
	}
	largest, size := "", int64(0)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".html" {
			if fi, err := d.Info(); err == nil && fi.Size() > size {
				largest, size = p, fi.Size()
			}
		}
		return nil
	})
	if largest == "" {
		b.Fatal("no page written")
	}
	var total float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := chromedp.Do(br.ctx, chromedp.Navigate("file://"+largest)); err != nil {
			b.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond) // let loadEventEnd be recorded
		ms, err := chromedp.Run(br.ctx, chromedp.Evaluate[float64](`(() => { const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime; })()`))
		if err != nil {
			b.Fatal(err)
		}
		total += ms
	}
	b.ReportMetric(total/float64(b.N), "ms/load")
	b.ReportMetric(float64(size), "page-bytes")
	if errs, _, _ := br.take(); len(errs) > 0 {
		b.Errorf("console errors on %s: %v", largest, errs)
	}
}
