package suggest

import (
	"fmt"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"max", "max", 0}, {"maxx", "max", 1}, {"kitten", "sitting", 3}, {"rubrik", "rubric", 1}, {"é", "e", 1}, {"", "abc", 3}, {"gpt-4o", "gpt4o", 1}} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestHint(t *testing.T) {
	models := []string{"gpt-4o", "claude-3", "gemini-1.5"}
	for _, c := range []struct{ in, want string }{
		{"gpt4o", ` (did you mean "gpt-4o"?); the models are claude-3, gemini-1.5, gpt-4o`},
		{"llama", `; the models are claude-3, gemini-1.5, gpt-4o`},
		{"Claude-3", ` (did you mean "claude-3"?); the models are claude-3, gemini-1.5, gpt-4o`},
	} {
		if got := Hint(c.in, models, "models"); got != c.want {
			t.Errorf("Hint(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	many := make([]string, 20)
	for i := range many {
		many[i] = fmt.Sprintf("model-%02d", i)
	}
	if got, want := Hint("model-7", many, "models"), ` (did you mean "model-07"?)`; got != want {
		t.Errorf("Hint over 20 = %q, want %q", got, want)
	}
}

func ExampleHint() {
	fmt.Println("unknown model gpt4o" + Hint("gpt4o", []string{"gpt-4o", "claude-3"}, "models"))
	// Output: unknown model gpt4o (did you mean "gpt-4o"?); the models are claude-3, gpt-4o
}
