package ingest

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// oldWords and oldWordsSlow are words before its branch-free ASCII loop
// (the oracle of TestWordsSameAsBefore and the "old" side of
// BenchmarkWords).
func oldWords(s string) int64 {
	var n int64
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return n + oldWordsSlow(s[i:], in)
		}
		if oldASCIISpace[c] {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

var oldASCIISpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

func oldWordsSlow(s string, in bool) int64 {
	var n int64
	for _, r := range s {
		if unicode.IsSpace(r) {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

// responseTexts returns n response-like texts: sentences of ASCII words
// over lines, every fifth text with a word that is not ASCII (and every
// tenth with Unicode white space).
func responseTexts(seed uint64, n int) []string {
	rng := rand.New(rand.NewPCG(seed, 3))
	vocab := []string{"the", "regional", "director", "should", "quantify", "EBITDA", "44%", "margin,", "constraint.", "In", "Rotterdam"}
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for w := 0; w < 50+rng.IntN(400); w++ {
			if w > 0 {
				b.WriteString([]string{" ", " ", " ", "\n", "  ", "\t"}[rng.IntN(6)])
			}
			b.WriteString(vocab[rng.IntN(len(vocab))])
			if w == 30 && i%5 == 0 {
				b.WriteString(" Fjörd 12 €")
			}
			if w == 40 && i%10 == 0 {
				b.WriteString("\u00a0x\u2003y\u3000 z")
			}
		}
		out[i] = b.String()
	}
	return out
}

// TestWordsSameAsBefore checks words against the code it replaced and
// against strings.Fields, on edge cases, every pair of bytes and
// response-like texts.
func TestWordsSameAsBefore(t *testing.T) {
	cases := []string{"", " ", "a", " a", "a ", "a b", "  a  b  ", "\t\n\v\f\r", "ö", " ö ", "a\u00a0b", "a\u0085b", "x\x1cy", "\xff", "a \xff b", "é é", "\u3000"}
	for c := 0; c < 256; c++ {
		for _, d := range []byte{' ', 'a', '\n', 0x80, 0xc3, 0xa9, 0x85, 0x1c} {
			cases = append(cases, string([]byte{byte(c), d}), string([]byte{'w', ' ', byte(c), d, 'x'}))
		}
	}
	cases = append(cases, responseTexts(2, 200)...)
	for _, s := range cases {
		got, want := words(s), oldWords(s)
		if got != want {
			t.Errorf("words(%q) = %d, want %d", s, got, want)
		}
		if f := int64(len(strings.Fields(s))); utf8.ValidString(s) && got != f {
			t.Errorf("words(%q) = %d, want %d (strings.Fields)", s, got, f)
		}
	}
}

// BenchmarkWords counts the words of the same response-like texts the old
// way and the new, in one run; compare ns/op (or MB/s).
//
//	go test -tags duckdb_arrow -run X -bench Words ./ingest
func BenchmarkWords(b *testing.B) {
	texts := responseTexts(1, 2000)
	size := 0
	for _, s := range texts {
		size += len(s)
	}
	for _, f := range []struct {
		name string
		fn   func(string) int64
	}{{"old", oldWords}, {"new", words}} {
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			var n int64
			for i := 0; i < b.N; i++ {
				for _, s := range texts {
					n += f.fn(s)
				}
			}
			_ = n
		})
	}
}
