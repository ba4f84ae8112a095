package jsontext

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// checkUnquote compares Unquote with encoding/json on one literal.
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
	got, ok := Unquote(lit)
	if !ok {
		t.Fatalf("Unquote(%q) refused a valid literal", lit)
	}
	if got != want {
		t.Fatalf("Unquote(%q) = %q, encoding/json gives %q", lit, got, want)
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
		if _, ok := Unquote([]byte(bad)); ok {
			t.Errorf("Unquote(%q) accepted an invalid literal", bad)
		}
	}
}

// FuzzUnquote compares Unquote with encoding/json on every valid literal.
func FuzzUnquote(f *testing.F) {
	f.Add([]byte(`a\u00e9\ud83d\ude00\n`))
	f.Add([]byte(`\ud800\u0041`))
	f.Add([]byte("\xff\xc3"))
	f.Fuzz(func(t *testing.T, body []byte) {
		checkUnquote(t, append(append([]byte{'"'}, body...), '"'))
		checkUnquote(t, body)
	})
}

// FuzzValidString checks ValidString against encoding/json on the same
// literal.
func FuzzValidString(f *testing.F) {
	for _, s := range []string{`"a"`, `"a\nb"`, `"\u00e9"`, `"\u12"`, `"\x"`, "\"a\tb\"", `"unterminated`, `"a"b`, `"\\"`, `"\/"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != '"' || !utf8.Valid(b) {
			return
		}
		end, ok := ValidString(b, 0)
		var s string
		if ok {
			if err := json.Unmarshal(b[:end], &s); err != nil {
				t.Fatalf("ValidString accepted %q, encoding/json: %v", b[:end], err)
			}
			return
		}
		// Rejected: no prefix of b may be a valid JSON string literal.
		for e := 2; e <= len(b); e++ {
			if b[e-1] == '"' && json.Valid(b[:e]) {
				t.Fatalf("ValidString rejected %q, but %q is valid", b, b[:e])
			}
		}
	})
}
