package textsim

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// refRougeTokens is an independent model of rouge-score's tokenizer built
// on Go's regexp package: Python's str.lower() agrees with
// unicode.ToLower on every character whose lower case contains [a-z0-9],
// except "İ", which Python maps to "i" + U+0307.
func refRougeTokens(text string, stem bool) []string {
	lower := strings.Map(func(r rune) rune {
		if r == 'İ' {
			return -1 // handled below
		}
		return unicode.ToLower(r)
	}, strings.ReplaceAll(text, "İ", "i\u0307"))
	lower = regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(lower, " ")
	var out []string
	for _, t := range strings.Fields(lower) {
		if stem && len(t) > 3 {
			t = Stem(t)
		}
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}

var (
	re13a1 = regexp.MustCompile(`([\{-\~\[-\` + "`" + ` -\&\(-\+\:-\@\/])`)
	re13a2 = regexp.MustCompile(`([^0-9])([\.,])`)
	re13a3 = regexp.MustCompile(`([\.,])([^0-9])`)
	re13a4 = regexp.MustCompile(`([0-9])(-)`)
)

// ref13aTokens is sacrebleu's tokenizer_13a.py + tokenizer_re.py written
// with Go's regexp package (leftmost, non-overlapping, like Python's
// re.sub) and a rune-level Python str.split() / rstrip().
func ref13aTokens(text string) []string {
	line := strings.TrimRightFunc(text, isPySpace)
	line = strings.ReplaceAll(line, "<skipped>", "")
	line = strings.ReplaceAll(line, "-\n", "")
	line = strings.ReplaceAll(line, "\n", " ")
	line = strings.ReplaceAll(line, "&quot;", "\"")
	line = strings.ReplaceAll(line, "&amp;", "&")
	line = strings.ReplaceAll(line, "&lt;", "<")
	line = strings.ReplaceAll(line, "&gt;", ">")
	line = " " + line + " "
	line = re13a1.ReplaceAllString(line, " ${1} ")
	line = re13a2.ReplaceAllString(line, "${1} ${2} ")
	line = re13a3.ReplaceAllString(line, " ${1} ${2}")
	line = re13a4.ReplaceAllString(line, "${1} ${2} ")
	return strings.FieldsFunc(line, isPySpace)
}

var tokenizerSeeds = []string{
	"", " ", "The quarterly report is attached.", "İstanbul İİ", "Kelvin 5K",
	"café Müller straße", "1,000.50 and 3.5x, a..b", "5--5 2024-01-02 -3", "a&amp;lt;b &amp;quot; &#39;",
	"line one-\nline two\n\n", "x<skipped>y", "net_revenue don't", "\x1cA\x1fB\u00a0C\u3000D\u200bE",
	"\u0085\u2028\r\n", "ｆｕｌｌ１２", "\xff\xfe bad utf8 .,", "日本語のテキスト。", "emoji 🎉 end",
}

func FuzzTokenize(f *testing.F) {
	for _, s := range tokenizerSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, stem := range []bool{false, true} {
			got, want := Tokenize(text, stem), refRougeTokens(text, stem)
			if !slices.Equal(got, want) {
				t.Fatalf("Tokenize(%q, %v) = %q, want %q", text, stem, got, want)
			}
		}
	})
}

func FuzzTokenize13a(f *testing.F) {
	for _, s := range tokenizerSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, want := Tokenize13a(text), ref13aTokens(text)
		if !slices.Equal(got, want) {
			t.Fatalf("Tokenize13a(%q) = %q, want %q", text, got, want)
		}
	})
}

// seqsFromBytes turns fuzz bytes into two symbol sequences over a small
// alphabet (small alphabets make many ties for the traceback).
func seqsFromBytes(data []byte) (a, b []int32) {
	if len(data) < 2 {
		return nil, nil
	}
	alpha := int32(data[0]%6) + 1
	split := int(data[1])
	rest := data[2:]
	if split > len(rest) {
		split = len(rest)
	}
	for _, c := range rest[:split] {
		a = append(a, int32(c)%alpha)
	}
	for _, c := range rest[split:] {
		b = append(b, int32(c)%alpha)
	}
	return a, b
}

// checkLCSPair compares the bit-parallel LCS length and union traceback
// with the plain DP and rouge-score's traceback.
func checkLCSPair(t *testing.T, a, b []int32) {
	t.Helper()
	if got, want := LCS(a, b), LCSDP(a, b); got != want {
		t.Fatalf("LCS(%v, %v) = %d, plain DP %d", a, b, got, want)
	}
	if len(a) == 0 || len(b) == 0 {
		return
	}
	nids := 0
	for _, x := range a {
		nids = max(nids, int(x)+1)
	}
	var e lcsEngine
	e.setPattern(a, nids)
	e.mark = make([]uint64, e.w)
	l := e.traceUnion(a, b)
	wantMark := make([]bool, len(a))
	wl := unionLCSDP(a, b, wantMark)
	if l != wl {
		t.Fatalf("traceUnion length %d, DP %d (a=%v b=%v)", l, wl, a, b)
	}
	for i, want := range wantMark {
		got := e.mark[i>>6]>>(uint(i)&63)&1 == 1
		if got != want {
			t.Fatalf("traceUnion index set differs at %d: got %v want %v (a=%v b=%v)", i, got, want, a, b)
		}
	}
}

func FuzzLCS(f *testing.F) {
	f.Add([]byte{2, 3, 0, 1, 1, 0, 1})
	f.Add([]byte{1, 0})
	f.Add([]byte{5, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1})
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{70, 140, 300} { // one, two and several words per column
		seed := make([]byte, 2+n+n/2)
		for i := range seed {
			seed[i] = byte(rng.IntN(256))
		}
		seed[1] = byte(min(n, 255))
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, b := seqsFromBytes(data)
		checkLCSPair(t, a, b)
		checkLCSPair(t, b, a)
	})
}

// TestLCSRandom runs the LCS comparison on random sequences of every size
// class (up to 64, up to 128 and longer patterns), including the
// checkpointed traceback used for very long lines.
func TestLCSRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 0))
	gen := func(n, alpha int) []int32 {
		s := make([]int32, n)
		for i := range s {
			s[i] = int32(rng.IntN(alpha))
		}
		return s
	}
	for rep := 0; rep < 300; rep++ {
		alpha := 1 + rng.IntN(8)
		a := gen(rng.IntN(200), alpha)
		b := gen(rng.IntN(200), alpha)
		checkLCSPair(t, a, b)
	}
	old := maxRowWords
	maxRowWords = 64 // force checkpoints
	defer func() { maxRowWords = old }()
	for rep := 0; rep < 100; rep++ {
		alpha := 1 + rng.IntN(5)
		checkLCSPair(t, gen(1+rng.IntN(150), alpha), gen(1+rng.IntN(400), alpha))
	}
}

// FuzzRougeDP checks that ROUGE with the bit-parallel LCS equals ROUGE with
// rouge-score's plain DP table and traceback, on arbitrary multi-line
// texts.
func FuzzRougeDP(f *testing.F) {
	f.Add("a b a b\nb a", "b a b\na b a b a")
	f.Add("the cat sat\non the mat", "on the mat\nthe cat sat")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, hyp, ref string) {
		for _, stem := range []bool{false, true} {
			s := NewRougeScorer([]string{ref}, RougeOptions{Stemmer: stem})
			got, want := s.score(hyp, false), s.score(hyp, true)
			if got != want {
				t.Fatalf("hyp %q ref %q stem %v: bit-parallel %+v, plain DP %+v", hyp, ref, stem, got, want)
			}
		}
	})
}

// TestRougeDPRandomText compares the two ROUGE paths on random multi-line
// texts over a small vocabulary, including lines longer than 128 tokens.
func TestRougeDPRandomText(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 0))
	words := []string{"the", "cat", "sat", "on", "mat", "a", "dog", "ran"}
	gen := func() string {
		var sb strings.Builder
		for l := rng.IntN(6); l >= 0; l-- {
			for w := rng.IntN(160); w > 0; w-- {
				sb.WriteString(words[rng.IntN(len(words))])
				sb.WriteByte(' ')
			}
			sb.WriteByte('\n')
		}
		return sb.String()
	}
	for rep := 0; rep < 100; rep++ {
		hyp, ref := gen(), gen()
		s := NewRougeScorer([]string{ref}, RougeOptions{})
		if got, want := s.score(hyp, false), s.score(hyp, true); got != want {
			t.Fatalf("hyp %q ref %q: bit-parallel %+v, plain DP %+v", hyp, ref, got, want)
		}
	}
}

// TestLCSBlocked checks the block-at-a-time LCS length (used for very long
// patterns) against the plain DP.
func TestLCSBlocked(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 0))
	var e lcsEngine
	for rep := 0; rep < 200; rep++ {
		alpha := 1 + rng.IntN(10)
		a := make([]int32, rng.IntN(300))
		b := make([]int32, rng.IntN(300))
		for i := range a {
			a[i] = int32(rng.IntN(alpha))
		}
		for i := range b {
			b[i] = int32(rng.IntN(alpha + 2)) // ids >= alpha never occur in a
		}
		if got, want := e.lengthBlocked(a, b, alpha+2), LCSDP(a, b); got != want {
			t.Fatalf("lengthBlocked(%v, %v) = %d, want %d", a, b, got, want)
		}
	}
}
