// Package termtext makes user text safe to print on a terminal: control
// characters and bidirectional overrides in model, evaluator or file names
// could otherwise move the cursor, retitle the window, write the clipboard
// (OSC 52) or reorder what the user reads.
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every character a terminal would act on written
// as a visible escape: C0 controls but newline and tab (ESC becomes
// `\x1b`), DEL, C1 controls (`\u009b`), bidirectional embeddings,
// overrides and isolates (`\u202e`), and bytes that are not UTF-8
// (`\xff`). Other text, including all printable Unicode, is unchanged,
// and s is returned as is when there is nothing to escape.
func Escape(s string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafe(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x80 && unsafe(r, n):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafe(r, n):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unsafe reports whether the rune r (n bytes long in the input) must be
// escaped.
func unsafe(r rune, n int) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return true
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e || r == 0x200f || r == 0x061c:
		return true
	}
	return false
}

// Line is Escape for text that must stay on one line and in one column of
// a table (a model name in the summary table): newlines and tabs are
// escaped too (`\n`, `\t`).
func Line(s string) string {
	s = Escape(s)
	if strings.ContainsAny(s, "\n\t") {
		s = strings.NewReplacer("\n", `\n`, "\t", `\t`).Replace(s)
	}
	return s
}
