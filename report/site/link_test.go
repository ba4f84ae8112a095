package site

import (
	"strings"
	"testing"

	"github.com/euroexec/euroexec/report"
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
