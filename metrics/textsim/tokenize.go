package textsim

import (
	"strings"
	"unicode/utf8"
)

// Tokenize splits text into ROUGE tokens exactly as rouge-score 0.1.2's
// default tokenizer does: Python str.lower() (full Unicode mapping, so "İ"
// becomes "i" followed by U+0307), every run of characters outside [a-z0-9]
// becomes a separator, and, when stem is true, tokens longer than three
// characters are replaced by their Porter stem (see Stem). Non-ASCII letters
// are separators: "café" gives "caf", "Müller" gives "m" and "ller", CJK
// text gives no tokens. The result is nil when text has no token.
func Tokenize(text string, stem bool) []string {
	var out []string
	forEachRougeToken(text, nil, func(tok []byte) {
		s := string(tok)
		if stem && len(s) > 3 {
			s = Stem(s)
		}
		if s != "" {
			out = append(out, s)
		}
	})
	return out
}

// forEachRougeToken calls fn with each raw (unstemmed) ROUGE token of text,
// lower-cased; the slice passed to fn is only valid during the call. The
// tokens are built in buf's memory; the (possibly grown) buffer is returned
// for reuse.
func forEachRougeToken(text string, buf []byte, fn func(tok []byte)) []byte {
	tok := buf[:0]
	flush := func() {
		if len(tok) > 0 {
			fn(tok)
			tok = tok[:0]
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
				tok = append(tok, c)
			case c >= 'A' && c <= 'Z':
				tok = append(tok, c+('a'-'A'))
			default:
				flush()
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch r {
		case '\u0130': // İ: Python lower() gives "i" + U+0307 (a separator)
			tok = append(tok, 'i')
			flush()
		case '\u212A': // Kelvin sign lower-cases to ASCII "k"
			tok = append(tok, 'k')
		default:
			flush()
		}
	}
	flush()
	return tok
}

// forEachRougeLine calls fn with each of rougeLsum's "sentences" of text:
// the lines split on "\n" only, empty lines dropped (a line of spaces stays
// and tokenises to nothing).
func forEachRougeLine(text string, fn func(line string)) {
	for text != "" {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if line != "" {
			fn(line)
		}
	}
}

// isPySpace reports whether r is whitespace for Python's str.split() and
// str.rstrip(): Go's unicode.IsSpace set plus the information separators
// U+001C–U+001F.
func isPySpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x1c, 0x1d, 0x1e, 0x1f, 0x85, 0xA0, 0x1680,
		0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// pyRstrip removes trailing Python whitespace.
func pyRstrip(s string) string {
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if r == utf8.RuneError && size <= 1 {
			return s
		}
		if !isPySpace(r) {
			return s
		}
		s = s[:len(s)-size]
	}
	return s
}
