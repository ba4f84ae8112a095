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
	var bf buf13a
	bf.forEach(text, fn)
}

// buf13a holds the buffers of the 13a tokenizer for reuse.
type buf13a struct {
	a, b []byte
}

// forEach is forEach13aToken with bf's buffers.
func (bf *buf13a) forEach(text string, fn func(tok []byte)) {
	line := pyRstrip(text)
	if strings.Contains(line, "<skipped>") {
		line = strings.ReplaceAll(line, "<skipped>", "")
	}
	if strings.Contains(line, "&") {
		// The entities are decoded after the line breaks are handled (and
		// "-\n" removal can join one), so both go in that order here;
		// otherwise regexp13a handles the line breaks on the fly.
		if strings.Contains(line, "\n") {
			line = strings.ReplaceAll(line, "-\n", "")
			line = strings.ReplaceAll(line, "\n", " ")
		}
		line = strings.ReplaceAll(line, "&quot;", "\"")
		line = strings.ReplaceAll(line, "&amp;", "&")
		line = strings.ReplaceAll(line, "&lt;", "<")
		line = strings.ReplaceAll(line, "&gt;", ">")
	}
	forEachField(bf.regexp13a(line), fn)
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
// to " " + line + " ", each a single left-to-right non-overlapping pass,
// after removing "-\n" and turning "\n" into " " (one left-to-right pass,
// as strings.ReplaceAll("-\n", "") then ReplaceAll("\n", " ")). Working on
// UTF-8 bytes is exact: every pattern matches ASCII characters only, except
// [^0-9], and a non-ASCII character matched by [^0-9] is copied through
// unchanged with the same spaces around it. The result is in bf's buffers,
// valid until the next call.
func (bf *buf13a) regexp13a(line string) []byte { return bf.regexpRe(line, true) }

// regexpRe is regexp13a with pad13a false for sacrebleu's zh tokenizer,
// which applies TokenizerRegexp to the line itself: no padding spaces and
// no line-break handling.
func (bf *buf13a) regexpRe(line string, pad13a bool) []byte {
	// Pass 1: ([\{-\~\[-\` -\&\(-\+\:-\@\/]) -> " \1 ".
	a := bf.a[:0]
	if need := len(line)*3 + 6; cap(a) < need {
		a = make([]byte, 0, need)
	}
	if pad13a {
		a = append(a, ' ', ' ', ' ') // the leading pad " " is itself a symbol
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case !pad13a:
		case c == '-' && i+1 < len(line) && line[i+1] == '\n':
			i++
			continue
		case c == '\n':
			c = ' '
		}
		if symbol13a[c] {
			a = append(a, ' ', c, ' ')
		} else {
			a = append(a, c)
		}
	}
	if pad13a {
		a = append(a, ' ', ' ', ' ')
	}
	bf.a = a
	// Removing "-\n" cannot add a "-", "." or ",": these tests on line stay
	// sufficient for the passes to be identities.
	hasDot := strings.ContainsAny(line, ".,")
	if !hasDot && strings.IndexByte(line, '-') < 0 {
		return a
	}
	b := bf.b[:0]
	if need := len(a)*2 + 8; cap(b) < need {
		b = make([]byte, 0, need)
	}
	if !hasDot {
		b = pass4(a, b)
		bf.b = b
		return b
	}
	// Pass 2: ([^0-9])([\.,]) -> "\1 \2 ".
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
	b = pass4(a, b[:0])
	bf.a, bf.b = a, b
	return b
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
