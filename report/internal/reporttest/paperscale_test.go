package reporttest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/euroexec/euroexec/report/csvout"
	"github.com/euroexec/euroexec/report/internal/reporttest"
	"github.com/euroexec/euroexec/report/site"
	"github.com/euroexec/euroexec/report/xlsx"
)

// writeAll writes the three outputs of a paper-scale report and returns the
// time the site and the workbook took.
func writeAll(tb testing.TB, out string) (siteTime, xlsxTime time.Duration) {
	tb.Helper()
	r := reporttest.PaperScale(44000)
	t0 := time.Now()
	if _, err := site.Write(context.Background(), filepath.Join(out, "site"), r, site.DefaultOptions); err != nil {
		tb.Fatal(err)
	}
	siteTime = time.Since(t0)
	t0 = time.Now()
	if err := xlsx.Write(context.Background(), filepath.Join(out, "report.xlsx"), r, xlsx.DefaultOptions); err != nil {
		tb.Fatal(err)
	}
	xlsxTime = time.Since(t0)
	if err := csvout.Write(context.Background(), out, r, csvout.DefaultOptions); err != nil {
		tb.Fatal(err)
	}
	return siteTime, xlsxTime
}

// TestPaperScale writes the EuroExec-sized report (413 questions, 6 models,
// 44,000-character answers, 2 gradings each) and checks its size: no
// question page over 1 MB. The time budget is BenchmarkPaperScale's.
func TestPaperScale(t *testing.T) {
	if testing.Short() {
		t.Skip("paper-scale report skipped in -short mode")
	}
	out := t.TempDir()
	writeAll(t, out)
	ents, err := os.ReadDir(filepath.Join(out, "site", "questions"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 414 {
		t.Errorf("%d question files, want 413 pages and the index", len(ents))
	}
	var largest int64
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		largest = max(largest, fi.Size())
		if fi.Size() > 1<<20 {
			t.Errorf("%s is %d bytes, over 1 MB", e.Name(), fi.Size())
		}
	}
	t.Logf("largest question page %d bytes", largest)
}

// paperScaleBudget is the time budget of the site and the workbook
// together for the paper-scale report.
const paperScaleBudget = 5 * time.Second

// BenchmarkPaperScale times the site and the workbook of the paper-scale
// report and fails when together they take more than paperScaleBudget per
// write (run with -benchtime 1x for one write).
func BenchmarkPaperScale(b *testing.B) {
	out := b.TempDir()
	var st, xt time.Duration
	for b.Loop() {
		s, x := writeAll(b, out)
		st += s
		xt += x
	}
	b.ReportMetric(float64(st.Milliseconds())/float64(b.N), "site-ms/op")
	b.ReportMetric(float64(xt.Milliseconds())/float64(b.N), "xlsx-ms/op")
	if per := (st + xt) / time.Duration(b.N); per > paperScaleBudget {
		b.Errorf("site + workbook took %v per write, budget %v", per, paperScaleBudget)
	}
}
