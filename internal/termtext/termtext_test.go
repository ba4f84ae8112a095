package termtext

import (
	"fmt"
	"testing"
)

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain model-a", "plain model-a"},
		{"émoji 🙂 and 中文", "émoji 🙂 and 中文"},
		{"two\nlines\tand a tab", "two\nlines\tand a tab"},
		{"\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},             // window title
		{"\x1b]52;c;ZXZpbA==\x07", `\x1b]52;c;ZXZpbA==\x07`}, // clipboard write
		{"red\x1b[31m", `red\x1b[31m`},                       // colour
		{"cr\rover", `cr\x0dover`},                           // carriage return overwrites the line
		{"c1 \u009b31m", `c1 \u009b31m`},                     // 8-bit CSI
		{"del\x7f", `del\x7f`},                               // DEL
		{"evil\u202etxt.exe", `evil\u202etxt.exe`},           // right-to-left override
		{"bad \xff byte", `bad \xff byte`},                   // not UTF-8
	}
	for _, tc := range tests {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func ExampleEscape() {
	name := "model-\x1b]0;owned\x07a"
	fmt.Println(Escape(name))
	// Output: model-\x1b]0;owned\x07a
}

func TestLine(t *testing.T) {
	if got, want := Line("a\tb\nc\x1b"), `a\tb\nc\x1b`; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
}
