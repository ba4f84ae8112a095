package textsim

// This file ports NLTK 3.8's PorterStemmer in its default NLTK_EXTENSIONS
// mode (nltk/stem/porter.py), rule by rule and in the same order, so that
// ROUGE with stemming agrees with rouge-score. It works on runes, as Python
// works on code points.

// porterPool is NLTK's table of irregular forms (NLTK_EXTENSIONS only).
var porterPool = map[string]string{
	"sky": "sky", "skies": "sky",
	"dying":   "die",
	"lying":   "lie",
	"tying":   "tie",
	"news":    "news",
	"innings": "inning", "inning": "inning",
	"outings": "outing", "outing": "outing",
	"cannings": "canning", "canning": "canning",
	"howe":    "howe",
	"proceed": "proceed",
	"exceed":  "exceed",
	"succeed": "succeed",
}

// Stem returns the stem of word by NLTK 3.8's PorterStemmer() (mode
// NLTK_EXTENSIONS, the default): irregular forms first (dying → die,
// skies → sky, news → news), words of one or two characters unchanged, then
// steps 1a–5b with NLTK's departures from the 1980 paper.
//
// Like NLTK, the irregular-form table is consulted with the word as given
// and the rules run on the lower-cased word; only ASCII letters are
// lower-cased here (NLTK uses Python's full Unicode str.lower()). The
// tokens ROUGE stems are always lower-case ASCII letters and digits, where
// this function agrees with NLTK exactly.
func Stem(word string) string {
	lower := asciiLower(word)
	if s, ok := porterPool[word]; ok {
		return s
	}
	w := []rune(lower)
	if len(w) <= 2 {
		return lower
	}
	return string(stemRunes(w))
}

// asciiLower lower-cases the ASCII letters of s.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// stemRunes runs steps 1a–5b on a word of at least three characters.
func stemRunes(w []rune) []rune {
	w = step1a(w)
	w = step1b(w)
	w = step1c(w)
	w = step2(w)
	w = step3(w)
	w = step4(w)
	w = step5a(w)
	w = step5b(w)
	return w
}

func isCons(w []rune, i int) bool {
	switch w[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		if i == 0 {
			return true
		}
		return !isCons(w, i-1)
	}
	return true
}

// measure counts the "vc" transitions of the consonant/vowel pattern (m).
func measure(w []rune) int {
	n := 0
	prevVowel := false
	for i := range w {
		c := isCons(w, i)
		if c && prevVowel {
			n++
		}
		prevVowel = !c
	}
	return n
}

func containsVowel(w []rune) bool {
	for i := range w {
		if !isCons(w, i) {
			return true
		}
	}
	return false
}

func endsDoubleCons(w []rune) bool {
	n := len(w)
	return n >= 2 && w[n-1] == w[n-2] && isCons(w, n-1)
}

// endsCVC is condition *o, with NLTK's extension for two-letter stems.
func endsCVC(w []rune) bool {
	n := len(w)
	if n >= 3 && isCons(w, n-3) && !isCons(w, n-2) && isCons(w, n-1) {
		switch w[n-1] {
		case 'w', 'x', 'y':
		default:
			return true
		}
	}
	return n == 2 && !isCons(w, 0) && isCons(w, 1)
}

func hasSuffix(w []rune, s string) bool {
	if len(s) > len(w) {
		return false
	}
	off := len(w) - len(s)
	for i := 0; i < len(s); i++ {
		if w[off+i] != rune(s[i]) {
			return false
		}
	}
	return true
}

// withSuffix returns stem + repl in a new slice.
func withSuffix(stem []rune, repl string) []rune {
	out := make([]rune, len(stem), len(stem)+len(repl))
	copy(out, stem)
	for i := 0; i < len(repl); i++ {
		out = append(out, rune(repl[i]))
	}
	return out
}

type porterRule struct {
	suffix string // "*d" means "ends with a double consonant"
	repl   string
	cond   func(stem []rune) bool // nil: unconditional
}

// applyRules is NLTK's _apply_rule_list: the first rule whose suffix matches
// decides; if its condition fails the word is returned unchanged.
func applyRules(w []rune, rules []porterRule) []rune {
	for _, r := range rules {
		if r.suffix == "*d" && endsDoubleCons(w) {
			stem := w[:len(w)-2]
			if r.cond == nil || r.cond(stem) {
				return withSuffix(stem, r.repl)
			}
			return w
		}
		if hasSuffix(w, r.suffix) {
			stem := w[:len(w)-len(r.suffix)]
			if r.cond == nil || r.cond(stem) {
				return withSuffix(stem, r.repl)
			}
			return w
		}
	}
	return w
}

func positiveMeasure(stem []rune) bool { return measure(stem) > 0 }
func measureGT1(stem []rune) bool      { return measure(stem) > 1 }

var step1aRules = []porterRule{
	{"sses", "ss", nil},
	{"ies", "i", nil},
	{"ss", "ss", nil},
	{"s", "", nil},
}

func step1a(w []rune) []rune {
	if hasSuffix(w, "ies") && len(w) == 4 {
		return withSuffix(w[:1], "ie")
	}
	return applyRules(w, step1aRules)
}

func step1b(w []rune) []rune {
	if hasSuffix(w, "ied") {
		if len(w) == 4 {
			return withSuffix(w[:1], "ie")
		}
		return withSuffix(w[:len(w)-3], "i")
	}
	if hasSuffix(w, "eed") {
		stem := w[:len(w)-3]
		if measure(stem) > 0 {
			return withSuffix(stem, "ee")
		}
		return w
	}
	var inter []rune
	ok := false
	for _, suf := range [...]string{"ed", "ing"} {
		if hasSuffix(w, suf) {
			inter = w[:len(w)-len(suf)]
			if containsVowel(inter) {
				ok = true
				break
			}
		}
	}
	if !ok {
		return w
	}
	last := inter[len(inter)-1]
	rules := []porterRule{
		{"at", "ate", nil},
		{"bl", "ble", nil},
		{"iz", "ize", nil},
		{"*d", string(last), func([]rune) bool { return last != 'l' && last != 's' && last != 'z' }},
		{"", "e", func(stem []rune) bool { return measure(stem) == 1 && endsCVC(stem) }},
	}
	return applyRules(inter, rules)
}

var step1cRules = []porterRule{
	{"y", "i", func(stem []rune) bool { return len(stem) > 1 && isCons(stem, len(stem)-1) }},
}

func step1c(w []rune) []rune { return applyRules(w, step1cRules) }

var step2Rules = []porterRule{
	{"ational", "ate", positiveMeasure},
	{"tional", "tion", positiveMeasure},
	{"enci", "ence", positiveMeasure},
	{"anci", "ance", positiveMeasure},
	{"izer", "ize", positiveMeasure},
	{"bli", "ble", positiveMeasure},
	{"alli", "al", positiveMeasure},
	{"entli", "ent", positiveMeasure},
	{"eli", "e", positiveMeasure},
	{"ousli", "ous", positiveMeasure},
	{"ization", "ize", positiveMeasure},
	{"ation", "ate", positiveMeasure},
	{"ator", "ate", positiveMeasure},
	{"alism", "al", positiveMeasure},
	{"iveness", "ive", positiveMeasure},
	{"fulness", "ful", positiveMeasure},
	{"ousness", "ous", positiveMeasure},
	{"aliti", "al", positiveMeasure},
	{"iviti", "ive", positiveMeasure},
	{"biliti", "ble", positiveMeasure},
	{"fulli", "ful", positiveMeasure},
	// "logi" -> "log" with the condition on word[:-3] (the 'l' kept with the
	// stem); handled in step2 because the condition needs the whole word.
}

func step2(w []rune) []rune {
	if hasSuffix(w, "alli") && positiveMeasure(w[:len(w)-4]) {
		return step2(withSuffix(w[:len(w)-4], "al"))
	}
	for _, r := range step2Rules {
		if hasSuffix(w, r.suffix) {
			stem := w[:len(w)-len(r.suffix)]
			if r.cond(stem) {
				return withSuffix(stem, r.repl)
			}
			return w
		}
	}
	if hasSuffix(w, "logi") {
		if positiveMeasure(w[:len(w)-3]) {
			return withSuffix(w[:len(w)-4], "log")
		}
		return w
	}
	return w
}

var step3Rules = []porterRule{
	{"icate", "ic", positiveMeasure},
	{"ative", "", positiveMeasure},
	{"alize", "al", positiveMeasure},
	{"iciti", "ic", positiveMeasure},
	{"ical", "ic", positiveMeasure},
	{"ful", "", positiveMeasure},
	{"ness", "", positiveMeasure},
}

func step3(w []rune) []rune { return applyRules(w, step3Rules) }

var step4Rules = []porterRule{
	{"al", "", measureGT1},
	{"ance", "", measureGT1},
	{"ence", "", measureGT1},
	{"er", "", measureGT1},
	{"ic", "", measureGT1},
	{"able", "", measureGT1},
	{"ible", "", measureGT1},
	{"ant", "", measureGT1},
	{"ement", "", measureGT1},
	{"ment", "", measureGT1},
	{"ent", "", measureGT1},
	{"ion", "", func(stem []rune) bool {
		return measure(stem) > 1 && (stem[len(stem)-1] == 's' || stem[len(stem)-1] == 't')
	}},
	{"ou", "", measureGT1},
	{"ism", "", measureGT1},
	{"ate", "", measureGT1},
	{"iti", "", measureGT1},
	{"ous", "", measureGT1},
	{"ive", "", measureGT1},
	{"ize", "", measureGT1},
}

func step4(w []rune) []rune { return applyRules(w, step4Rules) }

func step5a(w []rune) []rune {
	if hasSuffix(w, "e") {
		stem := w[:len(w)-1]
		m := measure(stem)
		if m > 1 {
			return stem
		}
		if m == 1 && !endsCVC(stem) {
			return stem
		}
	}
	return w
}

func step5b(w []rune) []rune {
	if hasSuffix(w, "ll") {
		if measure(w[:len(w)-1]) > 1 {
			return withSuffix(w[:len(w)-2], "l")
		}
	}
	return w
}
