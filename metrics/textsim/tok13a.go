package textsim

import (
	"strings"
	"unicode/utf8"
)

// Tokenize13a splits text into BLEU tokens exactly as sacrebleu 2.6.0 does
// with its default "13a" tokenizer (mteval-v13a), including the rstrip()
// sacrebleu applies first:
//
//   - trailing Python whitespace is removed;
//   - "<skipped>" and "-\n" are removed and "\n" becomes a space;
//   - &quot; &amp; &lt; &gt; are decoded in that order (so "&amp;lt;" gives
//     "<"); &#39; and &apos; are not;
//   - the ASCII symbols {|}~ [\]^_` space!"#$%& ()*+ :;<=>?@ and / are split
//     off; "." and "," are split off unless between digits; "-" is split
//     off only after a digit; the apostrophe is not split;
//   - the result is split on Python whitespace (str.split()).
//
// Unicode punctuation is never split. The result is nil when text has no
// token.
func Tokenize13a(text string) []string {
	var out []string
	forEach13aToken(text, func(tok []byte) { out = append(out, string(tok)) })
	return out
}

// forEach13aToken calls fn with each 13a token of text (see Tokenize13a);
// the slice is only valid during the call.
func forEach13aToken(text string, fn func(tok []byte)) {
	line := pyRstrip(text)
	if strings.Contains(line, "<skipped>") {
		line = strings.ReplaceAll(line, "<skipped>", "")
	}
	if strings.Contains(line, "\n") {
		line = strings.ReplaceAll(line, "-\n", "")
		line = strings.ReplaceAll(line, "\n", " ")
	}
	if strings.Contains(line, "&") {
		line = strings.ReplaceAll(line, "&quot;", "\"")
		line = strings.ReplaceAll(line, "&amp;", "&")
		line = strings.ReplaceAll(line, "&lt;", "<")
		line = strings.ReplaceAll(line, "&gt;", ">")
	}
	forEachField(regexp13a(line), fn)
}

// asciiPySpace marks the ASCII bytes that are Python whitespace.
var asciiPySpace = [128]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true,
	0x1c: true, 0x1d: true, 0x1e: true, 0x1f: true}

// forEachField is Python's str.split() over UTF-8 bytes, calling fn with
// each field.
func forEachField(s []byte, fn func(tok []byte)) {
	start := -1
	for i := 0; i < len(s); {
		c := s[i]
		size := 1
		var space bool
		if c < utf8.RuneSelf {
			space = asciiPySpace[c]
		} else {
			var r rune
			r, size = utf8.DecodeRune(s[i:])
			space = isPySpace(r)
		}
		if space {
			if start >= 0 {
				fn(s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += size
	}
	if start >= 0 {
		fn(s[start:])
	}
}

// symbol13a marks the class [\{-\~\[-\` -\&\(-\+\:-\@\/] of
// tokenizer_re.py.
var symbol13a = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c >= '{' && c <= '~' || c >= '[' && c <= '`' || c >= ' ' && c <= '&' ||
			c >= '(' && c <= '+' || c >= ':' && c <= '@' || c == '/'
	}
	return t
}()

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// regexp13a applies the four substitutions of sacrebleu's TokenizerRegexp
// to " " + line + " ", each a single left-to-right non-overlapping pass.
// Working on UTF-8 bytes is exact: every pattern matches ASCII characters
// only, except [^0-9], and a non-ASCII character matched by [^0-9] is
// copied through unchanged with the same spaces around it.
func regexp13a(line string) []byte {
	// Pass 1: ([\{-\~\[-\` -\&\(-\+\:-\@\/]) -> " \1 ".
	a := make([]byte, 0, len(line)*2+8)
	a = append(a, ' ', ' ', ' ') // the leading pad " " is itself a symbol
	for i := 0; i < len(line); i++ {
		c := line[i]
		if symbol13a[c] {
			a = append(a, ' ', c, ' ')
		} else {
			a = append(a, c)
		}
	}
	a = append(a, ' ', ' ', ' ')
	hasDot := strings.ContainsAny(line, ".,")
	if !hasDot && strings.IndexByte(line, '-') < 0 {
		return a
	}
	if !hasDot {
		return pass4(a, make([]byte, 0, len(a)+len(a)/4+8))
	}
	// Pass 2: ([^0-9])([\.,]) -> "\1 \2 ".
	b := make([]byte, 0, len(a)+len(a)/4+8)
	for i := 0; i < len(a); {
		if i+1 < len(a) && !isDigit(a[i]) && (a[i+1] == '.' || a[i+1] == ',') {
			b = append(b, a[i], ' ', a[i+1], ' ')
			i += 2
			continue
		}
		b = append(b, a[i])
		i++
	}
	// Pass 3: ([\.,])([^0-9]) -> " \1 \2".
	a = a[:0]
	for i := 0; i < len(b); {
		if i+1 < len(b) && (b[i] == '.' || b[i] == ',') && !isDigit(b[i+1]) {
			a = append(a, ' ', b[i], ' ', b[i+1])
			i += 2
			continue
		}
		a = append(a, b[i])
		i++
	}
	return pass4(a, b[:0])
}

// pass4 applies ([0-9])(-) -> "\1 \2 " to a, appending to b.
func pass4(a, b []byte) []byte {
	for i := 0; i < len(a); {
		if i+1 < len(a) && isDigit(a[i]) && a[i+1] == '-' {
			b = append(b, a[i], ' ', '-', ' ')
			i += 2
			continue
		}
		b = append(b, a[i])
		i++
	}
	return b
}
