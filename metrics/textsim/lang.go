package textsim

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TokenizeUnicode splits text into the ROUGE tokens used for languages
// other than English (RougeOptions.Unicode): text is lower-cased rune by
// rune (Unicode simple case mapping); a run of letters, combining marks and
// numbers is a word; every Han, Hiragana or Katakana character (and the
// prolonged sound mark ー) is a token of its own, since Chinese and
// Japanese do not separate words; everything else separates. "Größe für
// Maß" gives größe, für, maß; "人工智能" gives 人, 工, 智, 能.
func TokenizeUnicode(text string) []string {
	var out []string
	forEachUnicodeToken(text, nil, func(tok []byte) { out = append(out, string(tok)) })
	return out
}

// isCJKChar reports whether r is a token by itself for TokenizeUnicode.
func isCJKChar(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || r == 0x30FC)
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

// forEachUnicodeToken calls fn with each TokenizeUnicode token of text,
// building them in buf's memory; it returns the buffer for reuse.
func forEachUnicodeToken(text string, buf []byte, fn func(tok []byte)) []byte {
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
		switch {
		case isCJKChar(r):
			flush()
			tok = utf8.AppendRune(tok, r)
			flush()
		case isWordRune(r):
			tok = utf8.AppendRune(tok, unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return tok
}

// ASCIIDropped counts the letters and numbers of text (unicode.IsLetter,
// unicode.IsNumber) and how many of them rouge-score's tokenizer drops
// (every one outside [A-Za-z0-9], except İ and the Kelvin sign, which
// lower-case to ASCII): "für" has 3 letters of which 1 is dropped, Chinese
// text loses all of them.
func ASCIIDropped(text string) (dropped, letters int) {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
				letters++
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			letters++
			if r != '\u0130' && r != '\u212A' {
				dropped++
			}
		}
	}
	return dropped, letters
}

// Language is the language of a study's texts as the text metrics use it.
type Language struct {
	Code   string // BCP 47 primary language subtag, e.g. "en", "de", "zh"; "und" when unknown
	Reason string // how it was found, for the report's notes
}

// English reports whether ROUGE keeps rouge-score's tokenizer and stemmer
// for l: English, and "und" (nothing recognisable, e.g. no letters).
func (l Language) English() bool { return l.Code == "en" || l.Code == "und" }

// BLEUTokenizer returns the sacrebleu tokenizer used for l: TokZh for
// Chinese; TokChr for Japanese, Thai, Lao, Khmer and Burmese (sacrebleu
// uses MeCab for Japanese, which needs a dictionary; characters are the
// dictionary-free choice); TokIntl for Korean (sacrebleu's ko-mecab also
// needs a dictionary); Tok13a, sacrebleu's default, for every other
// language.
func (l Language) BLEUTokenizer() string {
	switch l.Code {
	case "zh":
		return TokZh
	case "ja", "th", "lo", "km", "my":
		return TokChr
	case "ko":
		return TokIntl
	}
	return Tok13a
}

// ParseLanguage reads a [text] language setting: a BCP 47 tag whose
// primary subtag (2–3 letters, any case) is kept, lower-cased.
func ParseLanguage(tag string) (Language, error) {
	p, _, _ := strings.Cut(strings.TrimSpace(tag), "-")
	p, _, _ = strings.Cut(p, "_")
	ok := len(p) >= 2 && len(p) <= 3
	for _, c := range p {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			ok = false
		}
	}
	if !ok {
		return Language{}, fmt.Errorf("language %q: want a BCP 47 language tag such as \"en\", \"de\" or \"zh-Hans\"", tag)
	}
	return Language{Code: strings.ToLower(p), Reason: "set in study.toml"}, nil
}

// stopwords are frequent function words of the Latin-script languages
// DetectLanguage tells apart.
var stopwords = map[string][]string{
	"en": {"the", "and", "of", "to", "is", "in", "that", "it", "for", "with"},
	"de": {"der", "die", "und", "das", "ist", "nicht", "ein", "eine", "mit", "für"},
	"fr": {"le", "la", "les", "et", "des", "est", "une", "pour", "dans", "que"},
	"es": {"el", "los", "las", "y", "del", "es", "una", "para", "por", "que"},
	"it": {"il", "di", "che", "è", "della", "per", "una", "sono", "gli", "non"},
	"nl": {"de", "het", "een", "en", "van", "is", "niet", "op", "voor", "dat"},
	"pt": {"o", "os", "e", "do", "da", "não", "uma", "para", "com", "que"},
}

var stopLangs = []string{"en", "de", "fr", "es", "it", "nl", "pt"}

// DetectLanguage guesses the language of texts from their letters' scripts
// and, for Latin script, from the commonest function words of seven
// languages (en, de, fr, es, it, nl, pt). Han with kana is Japanese, Han
// alone Chinese; Hangul Korean; Thai, Cyrillic (ru), Greek (el), Arabic
// (ar), Hebrew (he) by script. Latin text without any of the function words
// counts as English; text without letters is "und". Deterministic: ties go
// to the earlier language in these lists.
func DetectLanguage(texts []string) Language {
	scripts := map[string]int{}
	words := map[string]int{}
	letters := 0
	order := []struct {
		name  string
		table *unicode.RangeTable
	}{{"Latin", unicode.Latin}, {"Han", unicode.Han}, {"Kana", unicode.Hiragana}, {"Kana", unicode.Katakana},
		{"Hangul", unicode.Hangul}, {"Thai", unicode.Thai}, {"Cyrillic", unicode.Cyrillic},
		{"Greek", unicode.Greek}, {"Arabic", unicode.Arabic}, {"Hebrew", unicode.Hebrew}}
	for _, t := range texts {
		for _, r := range t {
			if !unicode.IsLetter(r) {
				continue
			}
			letters++
			for _, o := range order {
				if unicode.Is(o.table, r) {
					scripts[o.name]++
					break
				}
			}
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) }) {
			words[w]++
		}
	}
	if letters == 0 {
		return Language{Code: "und", Reason: "detected: the texts have no letters"}
	}
	share := func(n int) string { return fmt.Sprintf("%.0f %%", 100*float64(n)/float64(letters)) }
	cjk := scripts["Han"] + scripts["Kana"]
	switch {
	case cjk*5 >= letters && scripts["Kana"]*20 >= cjk:
		return Language{Code: "ja", Reason: "detected: " + share(cjk) + " of the letters are Han or kana, with kana"}
	case cjk*5 >= letters:
		return Language{Code: "zh", Reason: "detected: " + share(cjk) + " of the letters are Han characters"}
	}
	best, bestN := "", 0
	for _, name := range []string{"Hangul", "Thai", "Cyrillic", "Greek", "Arabic", "Hebrew", "Latin"} {
		if scripts[name] > bestN {
			best, bestN = name, scripts[name]
		}
	}
	code := map[string]string{"Hangul": "ko", "Thai": "th", "Cyrillic": "ru", "Greek": "el", "Arabic": "ar", "Hebrew": "he"}[best]
	if code != "" {
		return Language{Code: code, Reason: "detected: " + share(bestN) + " of the letters are " + best}
	}
	if best == "" {
		return Language{Code: "und", Reason: "detected: no script recognised"}
	}
	lang, n := "en", 0
	for _, l := range stopLangs {
		c := 0
		for _, w := range stopwords[l] {
			c += words[w]
		}
		if c > n {
			lang, n = l, c
		}
	}
	if n == 0 {
		return Language{Code: "en", Reason: "detected: Latin script without common function words; English assumed"}
	}
	return Language{Code: lang, Reason: fmt.Sprintf("detected: Latin script; the commonest function words are %s (%d occurrences)", lang, n)}
}
