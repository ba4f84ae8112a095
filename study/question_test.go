package study

import (
	"fmt"
	"strings"
	"testing"
)

// TestTextLen counts code points and words of hand-checked texts.
func TestTextLen(t *testing.T) {
	for _, c := range []struct {
		in           string
		chars, words int
	}{
		{"", 0, 0},
		{"  \t\n", 4, 0},
		{"one", 3, 1},
		{" two  words ", 12, 2},
		{"e\u0301te\u0301", 5, 1},        // combining marks are code points of their own
		{"a\u00a0b\u3000c\u0085d", 7, 4}, // NBSP, ideographic space and NEL separate words
		{"👩\u200d💻 🇪🇺", 6, 2},            // ZWJ is not a space; a flag is two code points
		{"שלום עולם", 9, 2},              // right to left
		{"bad \xff byte", 10, 3},         // an invalid byte counts as one
		{"\x01\x1b[0m", 5, 1},            // control characters are not spaces
	} {
		chars, words := TextLen(c.in)
		if chars != c.chars || words != c.words {
			t.Errorf("TextLen(%q) = %d, %d; want %d, %d", c.in, chars, words, c.chars, c.words)
		}
	}
}

// TestPromptSnippet checks the index line on hand-made prompts around the
// cut.
func TestPromptSnippet(t *testing.T) {
	long := strings.Repeat("ab ", 60) // 60 words: "ab ab … ab" is 179 code points on one line
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"  What\tis\r\n\"EBITDA\"?  ", `What is "EBITDA"?`},
		{strings.Repeat("x", 160), strings.Repeat("x", 160)},
		{strings.Repeat("x", 161), strings.Repeat("x", 160) + " … [1 more characters]"},
		{strings.Repeat("é", 161), strings.Repeat("é", 160) + " … [1 more characters]"}, // 322 bytes, cut by code points
		{long, strings.Repeat("ab ", 53) + "a … [19 more characters]"},
		{"bad \xff\xfe  bytes ", "bad \xff\xfe bytes"}, // kept as they are on a short line
		{strings.Repeat("\xff ", 161), strings.Repeat("\ufffd ", 80) + " … [161 more characters]"},
		{strings.Repeat("🇪🇺\n", 100), strings.TrimSuffix(strings.Repeat("🇪🇺 ", 53), " ") + " 🇪 … [139 more characters]"},
	} {
		if got := PromptSnippet(c.in); got != c.want {
			t.Errorf("PromptSnippet(%.40q…) =\n%q\nwant\n%q", c.in, got, c.want)
		}
	}
}

// TestQuestionCounts: PromptLen and Items fall back on the texts of a
// question built without the counts, and otherwise report the counts.
func TestQuestionCounts(t *testing.T) {
	q := Question{Prompt: "two words", Checklist: []string{"a", "b", "c"}}
	if c, w := q.PromptLen(); c != 9 || w != 2 || q.Items() != 3 {
		t.Errorf("built from texts: %d chars %d words %d items; want 9, 2, 3", c, w, q.Items())
	}
	q = Question{PromptChars: 1400, PromptWords: 210, ChecklistItems: 12}
	if c, w := q.PromptLen(); c != 1400 || w != 210 || q.Items() != 12 {
		t.Errorf("read without texts: %d chars %d words %d items; want 1400, 210, 12", c, w, q.Items())
	}
}

// TestPromptSnippetAsTheSite compares PromptSnippet with the site's
// former definition, written out here (strings.Fields, Join, cut as
// []rune), on hostile prompts of every length around the cut.
func TestPromptSnippetAsTheSite(t *testing.T) {
	site := func(s string) string {
		line := strings.Join(strings.Fields(s), " ")
		r := []rune(line)
		if len(r) <= 160 {
			return line
		}
		return string(r[:160]) + fmt.Sprintf(" … [%d more characters]", len(r)-160)
	}
	parts := []string{"a", "é", "e\u0301", " ", "\t", "\r\n", "\u00a0", "\u3000", "\u0085", "👩\u200d💻", "🇪🇺", "שלום", "\u202e", "\x01", "\xff", "\"", "<b>", "="}
	for n := 0; n < 400; n++ {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			b.WriteString(parts[(i*7+n)%len(parts)])
		}
		in := b.String()
		if got, want := PromptSnippet(in), site(in); got != want {
			t.Fatalf("PromptSnippet(%q) =\n%q\nwant\n%q", in, got, want)
		}
	}
}

// BenchmarkPromptSnippet: the one-pass PromptSnippet (new) against the
// site's former Fields/Join/[]rune definition (fields), same run, on a
// 1,400-character prompt as in the generated studies.
func BenchmarkPromptSnippet(b *testing.B) {
	prompt := strings.Repeat("The works council will need to pilot the cost of capital.\n", 24)
	b.Run("fields", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r := []rune(strings.Join(strings.Fields(prompt), " "))
			if len(r) > SnippetChars {
				_ = string(r[:SnippetChars]) + fmt.Sprintf(" … [%d more characters]", len(r)-SnippetChars)
			}
		}
	})
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			PromptSnippet(prompt)
		}
	})
}
