package site

import (
	"html"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/internal/reporttest"
)

// A Link column's relative address becomes a link; an address with a
// scheme or a host stays text, and the text is escaped.
func TestLinkColumn(t *testing.T) {
	r := &report.Report{Title: "links", Tables: []*report.Table{{
		Name: "pages", Title: "Pages", Section: report.SectionCompare,
		Columns: []report.Column{{Name: "id", Kind: report.Text}, {Name: "page", Kind: report.Link}},
		Rows: [][]any{
			{"a", "../../old/site/questions/q1.html"},
			{"b", "javascript:alert(1)"},
			{"c", "//evil.example/x"},
			{"d", ""},
			{"e", `x"><script>alert(2)</script>.html`},
		},
	}}}
	dir := writeSite(t, r, Options{})
	page := string(files(t, dir)["compare.html"])
	for _, want := range []string{
		`<a href="../../old/site/questions/q1.html">open</a>`,
		`<td>javascript:alert(1)</td>`,
		`<td>//evil.example/x</td>`,
		`<a href="x%22%3e%3cscript%3ealert%282%29%3c/script%3e.html">open</a>`,
		"<h1>Comparison</h1>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("compare.html lacks %s", want)
		}
	}
	if strings.Contains(page, "<script>alert(2)") || strings.Contains(page, `href="javascript`) {
		t.Error("link text reached the page unescaped")
	}
}

var linkRe = regexp.MustCompile(`(?i)\b(?:href|src)="([^"]*)"`)

// checkInside fails for every link of a page of dir that leaves dir or
// points at a file that is not there: the folder works copied alone.
func checkInside(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	for name, b := range files(t, dir) {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		for _, m := range linkRe.FindAllStringSubmatch(string(b), -1) {
			u := html.UnescapeString(m[1])
			if u == "" || strings.HasPrefix(u, "#") {
				continue
			}
			n++
			if strings.Contains(u, "://") || strings.HasPrefix(u, "//") || strings.HasPrefix(u, "/") {
				t.Errorf("%s: link %q leaves the site", name, u)
				continue
			}
			p, err := url.PathUnescape(strings.SplitN(strings.SplitN(u, "#", 2)[0], "?", 2)[0])
			if err != nil {
				t.Errorf("%s: link %q: %v", name, u, err)
				continue
			}
			target := path.Join(path.Dir(name), p)
			if target == ".." || strings.HasPrefix(target, "../") {
				t.Errorf("%s: link %q leaves the site folder", name, u)
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(target))); err != nil {
				t.Errorf("%s: link %q points at a missing file %s", name, u, target)
			}
		}
	}
	return n
}

// TestLinksStayInside: copied alone, site/ keeps every link — the CSVs
// the pages link to are in site/tables/.
func TestLinksStayInside(t *testing.T) {
	for name, r := range map[string]*report.Report{"small": reporttest.Small(), "13 models": manyModels()} {
		t.Run(name, func(t *testing.T) {
			dir := writeSite(t, r, DefaultOptions)
			// Copied alone: nothing beside it.
			alone := filepath.Join(t.TempDir(), "copy")
			if err := os.CopyFS(alone, os.DirFS(dir)); err != nil {
				t.Fatal(err)
			}
			if n := checkInside(t, alone); n < 20 {
				t.Errorf("only %d links checked", n)
			}
		})
	}
}
