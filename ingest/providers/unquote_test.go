package providers

import (
	"bytes"
	"encoding/json"
	"testing"
)

// checkUnquote compares unquote with encoding/json on one literal.
func checkUnquote(t *testing.T, lit []byte) {
	t.Helper()
	// encoding/json hands UnmarshalJSON the literal without white space.
	lit = bytes.Trim(lit, " \t\r\n")
	if !json.Valid(lit) || len(lit) == 0 || lit[0] != '"' {
		return
	}
	var want string
	if err := json.Unmarshal(lit, &want); err != nil {
		t.Fatalf("json.Unmarshal(%q): %v", lit, err)
	}
	got, ok := unquote(lit)
	if !ok {
		t.Fatalf("unquote(%q) refused a valid literal", lit)
	}
	if got != want {
		t.Fatalf("unquote(%q) = %q, encoding/json gives %q", lit, got, want)
	}
}

func TestUnquote(t *testing.T) {
	for _, lit := range []string{
		`""`, `"plain ascii"`, `"caf\u00e9 \ud83d\ude00"`, `"tab\there\nnew \"q\" \\ \/ \b\f\r"`,
		// Unpaired surrogates become U+FFFD, the next escape is read on
		// its own.
		`"\ud800"`, `"\udc00x"`, `"\ud800\u0041"`, `"\ud800\ud800\udc00"`, `"\uD83D\uDE00"`,
		"\"raw \xff invalid \xc3 utf8 \xe2\x82\"", "\"é € 😀 raw\"",
	} {
		checkUnquote(t, []byte(lit))
	}
	for _, bad := range []string{``, `"`, `x`, `"\x"`, `"\u12"`, `"\u12zz"`, "\"\x01\"", `"a"b"`} {
		if _, ok := unquote([]byte(bad)); ok {
			t.Errorf("unquote(%q) accepted an invalid literal", bad)
		}
	}
}

// FuzzUnquote compares unquote with encoding/json on every valid literal.
func FuzzUnquote(f *testing.F) {
	f.Add([]byte(`a\u00e9\ud83d\ude00\n`))
	f.Add([]byte(`\ud800\u0041`))
	f.Add([]byte("\xff\xc3"))
	f.Fuzz(func(t *testing.T, body []byte) {
		checkUnquote(t, append(append([]byte{'"'}, body...), '"'))
		checkUnquote(t, body)
	})
}
