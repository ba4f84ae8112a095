package jsontext

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Unquote decodes a JSON string literal exactly as encoding/json does
// (invalid UTF-8 bytes and unpaired surrogate escapes become U+FFFD). It
// expects a literal already validated as JSON and reports ok = false for
// anything it does not recognise, so that the caller can fall back to
// encoding/json.
func Unquote(b []byte) (string, bool) {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return "", false
	}
	s := b[1 : len(b)-1]
	// Fast path: nothing to decode.
	i := 0
	for i < len(s) {
		c := s[i]
		if c == '\\' || c == '"' || c < ' ' {
			break
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	if i == len(s) {
		return string(s), true
	}
	buf := make([]byte, i, len(s)+2*utf8.UTFMax)
	copy(buf, s[:i])
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 >= len(s) {
				return "", false
			}
			switch e := s[i+1]; e {
			case '"', '\\', '/':
				buf = append(buf, e)
				i += 2
			case 'b':
				buf = append(buf, '\b')
				i += 2
			case 'f':
				buf = append(buf, '\f')
				i += 2
			case 'n':
				buf = append(buf, '\n')
				i += 2
			case 'r':
				buf = append(buf, '\r')
				i += 2
			case 't':
				buf = append(buf, '\t')
				i += 2
			case 'u':
				r := hex4(s[i+2:])
				if r < 0 {
					return "", false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
						r2 = hex4(s[i+2:])
					}
					if d := utf16.DecodeRune(r, r2); d != unicode.ReplacementChar {
						buf = utf8.AppendRune(buf, d)
						i += 6
						continue
					}
					r = unicode.ReplacementChar
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return "", false
			}
		case c == '"' || c < ' ':
			return "", false
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				buf = utf8.AppendRune(buf, unicode.ReplacementChar)
			} else {
				buf = append(buf, s[i:i+size]...)
			}
			i += size
		}
	}
	return string(buf), true
}

// hex4 reads the four hex digits of a \u escape, or returns -1.
func hex4(s []byte) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}
