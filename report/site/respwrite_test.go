package site

import (
	"bytes"
	"html/template"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/report"
)

// responseSectionTmpl is the html/template block the question pages used
// for their response sections before responseSections replaced it; it is
// the independent reference the hand-written writer must match byte for
// byte (the escaping included).
var responseSectionTmpl = template.Must(template.New("r").Parse(`{{define "responses"}}<section>
{{- range .}}
<section class="response" id="{{.Anchor}}">
<h3>{{.Model}}{{if .Labels}} <span class="blind" title="the label the graders saw instead of the model's name">shown as {{.Labels}}</span>{{end}}</h3>
{{- if .HasText}}
<details><summary>Response text ({{.Chars}} characters, {{.Words}} words)</summary><div class="text">{{.Text}}</div></details>
{{- else}}
<p class="missing">The response dumps hold no text for this response.</p>
{{- end}}
{{- if .Graders}}
<div class="scroll"><table class="grades">
<thead><tr><th></th>{{range .Graders}}<th>{{.Evaluator}}<br><small>{{.Kind}}{{if .Round}} · {{.Round}}{{end}}</small></th>{{end}}</tr></thead>
<tbody>
{{- range .Lines}}
<tr class="{{.Class}}"><th scope="row"{{if .Doc}} title="{{.Doc}}"{{end}}>{{.Label}}</th>{{range .Cells}}<td class="{{.Class}}">{{.Text}}</td>{{end}}</tr>
{{- end}}
</tbody></table></div>
{{- end}}
</section>
{{- end}}</section>{{end}}`))

// checkResponseSections renders rs with the reference template and with
// responseSections and reports the first difference.
func checkResponseSections(t *testing.T, rs []respView) {
	t.Helper()
	var want bytes.Buffer
	if err := responseSectionTmpl.ExecuteTemplate(&want, "responses", rs); err != nil {
		t.Fatal(err)
	}
	got := "<section>" + string(responseSections(rs)) + "</section>"
	if got != want.String() {
		i := 0
		for i < len(got) && i < want.Len() && got[i] == want.String()[i] {
			i++
		}
		t.Fatalf("response sections differ from html/template at byte %d:\n got …%q\nwant …%q", i,
			got[max(0, i-40):min(len(got), i+60)], want.String()[max(0, i-40):min(want.Len(), i+60)])
	}
}

// hostile are strings that html/template escapes, or could be tempted to
// treat as markup, URLs or script.
var hostile = []string{
	"", "plain", `<script>alert("x")</script>`, `" onmouseover="alert(1)`, "it's", "a+b=c", "&amp; &lt;",
	"nul\x00byte", "bad utf-8 \xff\xfe\xc3", "\ufdd0 \ufffe non-characters", "javascript:alert(1)",
	"</section><img src=x onerror=alert(1)>", "multi\nline\r\ntext\t", "ünïcödé · — ✓", "{{.Text}}",
}

func TestResponseSectionsMatchTemplate(t *testing.T) {
	h := func(i int) string { return hostile[i%len(hostile)] }
	var cases = map[string][]respView{
		"none":                 nil,
		"no text, no gradings": {{Model: "m", Anchor: "response-m"}},
		"text, no labels":      {{Model: "m", Anchor: "response-m", Text: "hello <b>", HasText: true, Chars: 9, Words: 2}},
	}
	// every hostile string in every field, one response per string
	var all []respView
	for i := range hostile {
		g := report.GradingView{Evaluator: h(i), Kind: h(i + 1), Round: h(i + 2)}
		all = append(all, respView{Model: h(i), Anchor: h(i + 3), Text: h(i + 4), Labels: h(i + 5), HasText: i%3 != 0,
			Chars: i * 1000, Words: -i, Graders: []report.GradingView{g, {Evaluator: "e2", Kind: "judge"}},
			Lines: []gradeLine{
				{Label: h(i + 6), Doc: h(i + 7), Class: h(i + 8), Cells: []gradeCell{{Text: h(i + 9), Class: h(i + 10)}, {Text: "—", Class: "num undef"}}},
				{Label: "Comment", Class: "comment", Cells: []gradeCell{{Text: h(i + 11), Class: "comment"}, {}}},
				{Label: "Empty"},
			}})
	}
	cases["hostile"] = all
	for name, rs := range cases {
		t.Run(name, func(t *testing.T) { checkResponseSections(t, rs) })
	}
}

// FuzzResponseSections checks the writer against html/template on
// arbitrary text in every field.
func FuzzResponseSections(f *testing.F) {
	for _, s := range hostile {
		f.Add(s, s, s, s, true)
	}
	f.Fuzz(func(t *testing.T, model, text, label, cell string, hasText bool) {
		rs := []respView{{Model: model, Anchor: label, Text: text, Labels: label, HasText: hasText,
			Graders: []report.GradingView{{Evaluator: model, Kind: cell, Round: label}},
			Lines:   []gradeLine{{Label: label, Doc: cell, Class: model, Cells: []gradeCell{{Text: cell, Class: text}}}}}}
		checkResponseSections(t, rs)
	})
}

// BenchmarkResponseSections compares the response sections of one
// question page (six responses, three graders each, the sample's lines)
// written by html/template (the old way, the baseline) and by
// responseSections, in the same run.
func BenchmarkResponseSections(b *testing.B) {
	var rs []respView
	for m := range 6 {
		r := respView{Model: "model-" + string(rune('a'+m)), Anchor: "response-m", HasText: true, Chars: 1800, Words: 300,
			Text: strings.Repeat("A response with <markup> & 'quotes' + sums. ", 40)}
		for g := range 3 {
			r.Graders = append(r.Graders, report.GradingView{Evaluator: "expert_0" + string(rune('1'+g)), Kind: "human", Round: "main"})
		}
		for l := range 16 {
			line := gradeLine{Label: "C" + string(rune('1'+l%9)), Doc: "a checklist item's text", Class: "verdict"}
			for range 3 {
				line.Cells = append(line.Cells, gradeCell{Text: "✓ hit", Class: "v-hit"})
			}
			r.Lines = append(r.Lines, line)
		}
		rs = append(rs, r)
	}
	b.Run("html-template", func(b *testing.B) {
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			if err := responseSectionTmpl.ExecuteTemplate(&buf, "responses", rs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("writer", func(b *testing.B) {
		for b.Loop() {
			_ = responseSections(rs)
		}
	})
}
