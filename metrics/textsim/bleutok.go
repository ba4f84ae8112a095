package textsim

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// BLEU tokenizers of sacrebleu 2.6.0 that need no external dictionary.
const (
	Tok13a  = "13a"  // mteval-v13a, sacrebleu's default
	TokZh   = "zh"   // Chinese characters split, the rest as 13a's regexes
	TokChr  = "char" // every non-space character a token
	TokIntl = "intl" // mteval-v14 international: Unicode punctuation and symbols split
)

// TokenizeBLEU splits text into BLEU tokens as sacrebleu 2.6.0's tokenizer
// tok does after BLEU's rstrip(): Tok13a (see Tokenize13a), TokZh, TokChr or
// TokIntl; "" means Tok13a. TokZh strips the line, puts spaces around every
// character sacrebleu counts as Chinese (its table of ranges, read as Python
// compares strings: U+2001–U+2A6D, U+2E80–U+2FDF, U+2FF0–U+303F,
// U+3100–U+312F, U+31A0–U+31EF, U+3200–U+4DB5, U+4E00–U+9FBB,
// U+F900–U+FA2D, U+FA30–U+FA6A, U+FA70–U+FAD9, U+FE10–U+FE1F,
// U+FE30–U+FE4F, U+FF00–U+FFEF — so dashes, quotes and "…" count too) and
// applies 13a's four regexes without its padding or line-break handling.
// TokIntl separates Unicode punctuation (\p{P}) not preceded, and then
// punctuation not followed, by a number (\p{N}), and every symbol (\p{S}),
// with Go's Unicode tables (sacrebleu uses the regex module's; they differ
// only for characters assigned after Go's Unicode version). An unknown tok
// gives nil.
func TokenizeBLEU(text, tok string) []string {
	var out []string
	var bf buf13a
	if !validBLEUTok(tok) {
		return nil
	}
	bf.forEachTok(tok, text, func(t []byte) { out = append(out, string(t)) })
	return out
}

func validBLEUTok(tok string) bool {
	switch tok {
	case "", Tok13a, TokZh, TokChr, TokIntl:
		return true
	}
	return false
}

// forEachTok calls fn with each token of text under tokenizer tok (valid).
func (bf *buf13a) forEachTok(tok, text string, fn func(tok []byte)) {
	switch tok {
	case TokZh:
		bf.forEachZh(text, fn)
	case TokChr:
		line := pyRstrip(text)
		for i := 0; i < len(line); {
			r, size := utf8.DecodeRuneInString(line[i:])
			if !isPySpace(r) {
				fn([]byte(line[i : i+size]))
			}
			i += size
		}
	case TokIntl:
		forEachField(bf.intl(pyRstrip(text)), fn)
	default:
		bf.forEach(text, fn)
	}
}

// isZhChar is sacrebleu's TokenizerZh._is_chinese_char.
func isZhChar(r rune) bool {
	switch {
	case r < 0x2001:
		return false
	case r <= 0x2a6d, r >= 0x2e80 && r <= 0x2fdf, r >= 0x2ff0 && r <= 0x303f,
		r >= 0x3100 && r <= 0x312f, r >= 0x31a0 && r <= 0x31ef, r >= 0x3200 && r <= 0x4db5,
		r >= 0x4e00 && r <= 0x9fbb, r >= 0xf900 && r <= 0xfa2d, r >= 0xfa30 && r <= 0xfa6a,
		r >= 0xfa70 && r <= 0xfad9, r >= 0xfe10 && r <= 0xfe1f, r >= 0xfe30 && r <= 0xfe4f,
		r >= 0xff00 && r <= 0xffef:
		return true
	}
	return false
}

func pyStrip(s string) string {
	s = pyRstrip(s)
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		if !isPySpace(r) {
			break
		}
		s = s[size:]
	}
	return s
}

func (bf *buf13a) forEachZh(text string, fn func(tok []byte)) {
	line := pyStrip(text)
	var sb strings.Builder
	sb.Grow(len(line) + len(line)/2)
	for _, r := range line {
		if isZhChar(r) {
			sb.WriteByte(' ')
			sb.WriteRune(r)
			sb.WriteByte(' ')
		} else {
			sb.WriteRune(r)
		}
	}
	forEachField(bf.regexpRe(sb.String(), false), fn)
}

// intl applies TokenizerV14International's three substitutions, each a
// single left-to-right non-overlapping pass over the characters.
func (bf *buf13a) intl(line string) []byte {
	rs := []rune(line)
	out := make([]rune, 0, len(rs)*2)
	// (\P{N})(\p{P}) -> "\1 \2 "
	for i := 0; i < len(rs); {
		if i+1 < len(rs) && !unicode.IsNumber(rs[i]) && unicode.IsPunct(rs[i+1]) {
			out = append(out, rs[i], ' ', rs[i+1], ' ')
			i += 2
			continue
		}
		out = append(out, rs[i])
		i++
	}
	rs, out = out, make([]rune, 0, len(out)*2)
	// (\p{P})(\P{N}) -> " \1 \2"
	for i := 0; i < len(rs); {
		if i+1 < len(rs) && unicode.IsPunct(rs[i]) && !unicode.IsNumber(rs[i+1]) {
			out = append(out, ' ', rs[i], ' ', rs[i+1])
			i += 2
			continue
		}
		out = append(out, rs[i])
		i++
	}
	// (\p{S}) -> " \1 "
	b := bf.a[:0]
	for _, r := range out {
		if unicode.IsSymbol(r) {
			b = append(b, ' ')
			b = utf8.AppendRune(b, r)
			b = append(b, ' ')
		} else {
			b = utf8.AppendRune(b, r)
		}
	}
	bf.a = b
	return b
}
