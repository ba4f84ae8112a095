package site

import (
	"html/template"
	"strconv"
	"strings"
)

// htmlText escapes text for HTML element content and quoted attribute
// values exactly as html/template's escaper does for a plain string (its
// htmlReplacementTable): NUL becomes U+FFFD and " & ' + < > become the
// numeric or named references html/template writes, every other byte
// (invalid UTF-8 included) is copied. The response sections of the
// question pages are written with it so that they need no reflection; the
// differential test in respwrite_test.go checks it against html/template.
var htmlText = strings.NewReplacer(
	"\x00", "\uFFFD",
	`"`, "&#34;",
	"&", "&amp;",
	"'", "&#39;",
	"+", "&#43;",
	"<", "&lt;",
	">", "&gt;",
)

// responseSections returns the sections of a question page that show each
// response with its gradings side by side (one <section class="response">
// per response), as html/template would render them from rs: every piece
// of user text goes through htmlText. The page template inserts the
// result as template.HTML. It is the bulk of a question page (a line per
// attribute, score and checklist item times a column per grader), which
// html/template's reflection walk made the site's largest CPU cost.
func responseSections(rs []respView) template.HTML {
	n := 0
	for i := range rs {
		n += 256 + len(rs[i].Text)
		for _, l := range rs[i].Lines {
			n += 64 + 48*len(l.Cells)
		}
	}
	var w strings.Builder
	w.Grow(n)
	for i := range rs {
		writeResponse(&w, &rs[i])
	}
	return template.HTML(w.String())
}

// writeResponse writes one response's section; the template it replaces is
// kept in respwrite_test.go (responseSectionTmpl) and the bytes must match
// it.
func writeResponse(w *strings.Builder, r *respView) {
	w.WriteString("\n<section class=\"response\" id=\"")
	htmlText.WriteString(w, r.Anchor)
	w.WriteString("\">\n<h3>")
	htmlText.WriteString(w, r.Model)
	if r.Labels != "" {
		w.WriteString(` <span class="blind" title="the label the graders saw instead of the model's name">shown as `)
		htmlText.WriteString(w, r.Labels)
		w.WriteString("</span>")
	}
	w.WriteString("</h3>")
	if r.HasText {
		w.WriteString("\n<details><summary>Response text (")
		w.WriteString(strconv.Itoa(r.Chars))
		w.WriteString(" characters, ")
		w.WriteString(strconv.Itoa(r.Words))
		w.WriteString(" words)</summary><div class=\"text\">")
		htmlText.WriteString(w, r.Text)
		w.WriteString("</div></details>")
	} else {
		w.WriteString("\n<p class=\"missing\">The response dumps hold no text for this response.</p>")
	}
	if len(r.Graders) > 0 {
		w.WriteString("\n<div class=\"scroll\"><table class=\"grades\">\n<thead><tr><th></th>")
		for _, g := range r.Graders {
			w.WriteString("<th>")
			htmlText.WriteString(w, g.Evaluator)
			w.WriteString("<br><small>")
			htmlText.WriteString(w, g.Kind)
			if g.Round != "" {
				w.WriteString(" · ")
				htmlText.WriteString(w, g.Round)
			}
			w.WriteString("</small></th>")
		}
		w.WriteString("</tr></thead>\n<tbody>")
		for _, l := range r.Lines {
			w.WriteString("\n<tr class=\"")
			htmlText.WriteString(w, l.Class)
			w.WriteString("\"><th scope=\"row\"")
			if l.Doc != "" {
				w.WriteString(" title=\"")
				htmlText.WriteString(w, l.Doc)
				w.WriteString("\"")
			}
			w.WriteString(">")
			htmlText.WriteString(w, l.Label)
			w.WriteString("</th>")
			for _, c := range l.Cells {
				w.WriteString("<td class=\"")
				htmlText.WriteString(w, c.Class)
				w.WriteString("\">")
				htmlText.WriteString(w, c.Text)
				w.WriteString("</td>")
			}
			w.WriteString("</tr>")
		}
		w.WriteString("\n</tbody></table></div>")
	}
	w.WriteString("\n</section>")
}
