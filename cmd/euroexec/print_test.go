package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/euroexec/euroexec/internal/realdata"
	"github.com/euroexec/euroexec/sample"
)

// MaxPrintedPages is the most pages the workbook of a 2,000-question,
// 12-model study may print (issue 35: it printed 1,255; 59 while its bulk
// sheets printed their first rows; 46 with them left out of print and
// sheets of up to 21 columns on one page across): room for new sheets.
const MaxPrintedPages = 60

// TestWorkbookPrintsShort runs a 2,000-question, 12-model synthetic study
// and prints its workbook to PDF with LibreOffice: under MaxPrintedPages
// pages, because bulk sheets (more than 60 rows) print nothing and every
// other sheet is fitted to a page (two across above 21 columns). Slow
// (about two minutes): skipped with -short and without soffice and
// pdfinfo.
func TestWorkbookPrintsShort(t *testing.T) {
	if testing.Short() {
		t.Skip("LibreOffice printing skipped in -short mode")
	}
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		realdata.Unavailable(t, "workbook printing: soffice not found (apt-get install libreoffice-calc)")
	}
	if _, err := exec.LookPath("pdfinfo"); err != nil {
		realdata.Unavailable(t, "workbook printing: pdfinfo not found (apt-get install poppler-utils)")
	}
	dir := t.TempDir()
	study := filepath.Join(dir, "study")
	opt := sample.DefaultOptions()
	opt.Questions, opt.Models, opt.ResponseChars = 2000, 12, 300
	if _, err := sample.Write(study, opt); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"run", "-q", study, "-o", out}); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	cmd := exec.Command(soffice, "--headless", "--norestore", "-env:UserInstallation=file://"+filepath.ToSlash(filepath.Join(dir, "profile")),
		"--convert-to", "pdf", "--outdir", dir, filepath.Join(out, "report.xlsx"))
	cmd.Env = append(os.Environ(), "HOME="+dir)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, b)
	}
	info, err := exec.Command("pdfinfo", filepath.Join(dir, "report.pdf")).Output()
	if err != nil {
		t.Fatalf("pdfinfo: %v", err)
	}
	m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)`).FindSubmatch(info)
	if m == nil {
		t.Fatalf("pdfinfo: no page count in %q", info)
	}
	pages, _ := strconv.Atoi(string(m[1]))
	t.Logf("the workbook of a 2,000-question, 12-model study prints %d pages", pages)
	if pages >= MaxPrintedPages || pages < 10 {
		t.Errorf("printed %d pages, want 10 to %d", pages, MaxPrintedPages-1)
	}
}
