package providers

import (
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that no line makes Parse or Detect panic and that every
// record Parse accepts is consistent.
func FuzzParse(f *testing.F) {
	for name := range fixtureFormat {
		for _, l := range fixtureLines(f, name) {
			f.Add(l)
		}
	}
	f.Add([]byte(`{"custom_id":"a","response":{"status_code":200,"body":{"choices":[{"message":{"content":[{"type":"text","text":"x"}]}}]}},"error":null}`))
	f.Add([]byte(`{"key":"a","status":"boom"}`))
	f.Add([]byte(`{"custom_id":"a","result":{"type":"errored","error":{"error":{"error":{}}}}}`))
	f.Add([]byte("\xef\xbb\xbf{}"))
	f.Fuzz(func(t *testing.T, line []byte) {
		d := Detect(line)
		switch d {
		case FormatOpenAI, FormatAnthropic, FormatGemini, FormatPlain:
		default:
			t.Fatalf("Detect gave %q", d)
		}
		for _, fm := range []Format{FormatOpenAI, FormatAnthropic, FormatGemini} {
			r, err := Parse(fm, line)
			if err != nil {
				continue
			}
			if r.InputTokens < -1 || r.OutputTokens < -1 {
				t.Fatalf("%s: negative token counts %d %d", fm, r.InputTokens, r.OutputTokens)
			}
			if r.Failed && r.Text != "" {
				t.Fatalf("%s: failed record with text %q", fm, r.Text)
			}
			if r.Failed && r.Error == "" {
				t.Fatalf("%s: failed record with no error text", fm)
			}
			if !r.Failed && (r.Error != "" || r.ErrorCode != "") {
				t.Fatalf("%s: successful record with error %q %q", fm, r.Error, r.ErrorCode)
			}
			// encoding/json replaces invalid UTF-8 with U+FFFD.
			if !utf8.ValidString(r.Text) {
				t.Fatalf("%s: text is not valid UTF-8", fm)
			}
		}
	})
}

// FuzzIDTemplate checks that a parsed template never panics and that a
// match rebuilds the id.
func FuzzIDTemplate(f *testing.F) {
	f.Add(DefaultIDTemplate, "q1::gpt-4o")
	f.Add("{model}/{question_id}", "openai/gpt-4o/q7")
	f.Add("q-{question_id}", "q-101")
	f.Add("a{question_id}a", "aa")
	f.Fuzz(func(t *testing.T, tmpl, id string) {
		tm, err := ParseIDTemplate(tmpl)
		if err != nil {
			return
		}
		q, m, ok := tm.Match(id)
		if !ok {
			return
		}
		if q == "" || (tm.HasModel() && m == "") || (!tm.HasModel() && m != "") {
			t.Fatalf("Match(%q) with %q = %q, %q", id, tmpl, q, m)
		}
		// Substituting the values back must give the id.
		var rebuilt string
		for i, s := range tm.slots {
			rebuilt += tm.lits[i]
			if s == slotQuestion {
				rebuilt += q
			} else {
				rebuilt += m
			}
		}
		rebuilt += tm.lits[len(tm.slots)]
		if rebuilt != id {
			t.Fatalf("Match(%q) with %q = %q, %q, which rebuilds %q", id, tmpl, q, m, rebuilt)
		}
	})
}
