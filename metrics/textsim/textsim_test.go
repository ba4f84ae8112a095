package textsim

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func closeRel(got, want, tol float64) bool {
	return got == want || math.Abs(got-want) <= tol*math.Abs(want)
}

func TestScoreRougeMulti(t *testing.T) {
	// hyp "a b c d" against refA "d c b a" and refB "a b x".
	// rouge1: A has all 4 unigrams (P = R = F = 1); B has a, b: P = 2/4,
	//   R = 2/3, F = 4/7 < 1 -> A.
	// rouge2: A shares no bigram (F = 0); B shares "a b": P = 1/3, R = 1/2,
	//   F = 2·(1/3)·(1/2)/(1/3+1/2) = 0.4 -> B.
	// rougeL: A: LCS 1 (P = R = F = 1/4); B: LCS "a b" = 2, P = 1/2,
	//   R = 2/3, F = 4/7 -> B.
	got := ScoreRougeMulti("a b c d", []string{"d c b a", "a b x"}, RougeOptions{})
	third, half, twoThirds := 1.0/3, 0.5, 2.0/3 // float64 variables: runtime arithmetic as in Python
	want := Rouge{
		Rouge1:    Score{1, 1, 1},
		Rouge2:    Score{third, half, 2 * third * half / (third + half)},
		RougeL:    Score{half, twoThirds, 2 * half * twoThirds / (half + twoThirds)},
		RougeLsum: Score{half, twoThirds, 2 * half * twoThirds / (half + twoThirds)},
	}
	if got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	// Ties keep the first reference (np.argmax): hyp "a b" with refs "a"
	// (P=1/2 R=1 F=2/3) and "a b c d" (P=1 R=1/2 F=2/3).
	got = ScoreRougeMulti("a b", []string{"a", "a b c d"}, RougeOptions{})
	if got.Rouge1.Precision != 0.5 || got.Rouge1.Recall != 1 {
		t.Errorf("tie: got rouge1 %+v, want the first reference's (P=0.5, R=1)", got.Rouge1)
	}
	if r := ScoreRougeMulti("a b", nil, RougeOptions{}); !math.IsNaN(r.Rouge1.F1) || !math.IsNaN(r.RougeLsum.Precision) {
		t.Errorf("no reference: got %+v, want NaN", r)
	}
}

func TestRougeEmptySides(t *testing.T) {
	// rouge-score returns 0 (not NaN) when a side has no token.
	for _, c := range [][2]string{{"", "x"}, {"x", ""}, {"日本", "x"}, {"", ""}} {
		r := ScoreRouge(c[0], c[1], DefaultRougeOptions)
		if r != (Rouge{}) {
			t.Errorf("ScoreRouge(%q, %q) = %+v, want all zero", c[0], c[1], r)
		}
	}
}

func TestUnionLCSTieBreak(t *testing.T) {
	// ref "a b" vs can "b a": t[2][2] = 1 with t[2][1] = t[1][2] = 1, so
	// rouge-score moves up (i--) and then matches "a" at ref index 0; the
	// opposite tie-break would pick "b" (index 1).
	a, b := []int32{0, 1}, []int32{1, 0}
	var e lcsEngine
	e.setPattern(a, 2)
	e.mark = make([]uint64, 1)
	if l := e.traceUnion(a, b); l != 1 || e.mark[0] != 1 {
		t.Errorf("traceUnion: length %d mark %b, want 1 and {0}", l, e.mark[0])
	}
	mark := make([]bool, 2)
	unionLCSDP(a, b, mark)
	if !mark[0] || mark[1] {
		t.Errorf("unionLCSDP marks %v, want [true false]", mark)
	}
	// rougeLsum of hyp "b a" vs ref "a b": hits 1 -> P = R = F = 1/2.
	r := ScoreRouge("b a", "a b", RougeOptions{})
	if r.RougeLsum != (Score{0.5, 0.5, 0.5}) {
		t.Errorf("rougeLsum %+v, want 0.5 each", r.RougeLsum)
	}
}

func TestLCSSmall(t *testing.T) {
	for _, c := range []struct {
		a, b []int32
		want int
	}{
		{nil, []int32{1}, 0},
		{[]int32{1, 2, 3, 4}, []int32{2, 4, 3}, 2},
		{[]int32{1, 1, 1}, []int32{1, 1}, 2},
		{[]int32{-5, 7, 1 << 30}, []int32{1 << 30, -5, 7}, 2},
	} {
		if got := LCS(c.a, c.b); got != c.want {
			t.Errorf("LCS(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := LCSDP(c.a, c.b); got != c.want {
			t.Errorf("LCSDP(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestStemCases(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"dying", "die"},       // irregular form
		{"Dying", "dy"},        // NLTK looks the table up before lower-casing
		{"is", "is"},           // two letters: unchanged
		{"caresses", "caress"}, // sses -> ss
		{"ponies", "poni"},
		{"ties", "tie"}, // NLTK: 4-letter "ies" -> "ie"
		{"hopping", "hop"},
		{"relational", "relat"},
	} {
		if got := Stem(c.in); got != c.want {
			t.Errorf("Stem(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTokenizeCases(t *testing.T) {
	for _, c := range []struct {
		in   string
		stem bool
		want []string
	}{
		{"İstanbul", false, []string{"i", "stanbul"}},
		{"5\u212A run", false, []string{"5k", "run"}},
		{"Müller's café", false, []string{"m", "ller", "s", "caf"}},
		{"Running quickly", true, []string{"run", "quickli"}},
		{"the cats", true, []string{"the", "cat"}},
	} {
		if got := Tokenize(c.in, c.stem); !slices.Equal(got, c.want) {
			t.Errorf("Tokenize(%q, %v) = %q, want %q", c.in, c.stem, got, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want string
	}{
		{"Hello, world.", "Hello , world ."},
		{"1,000.50 costs $3.5x", "1,000.50 costs $ 3.5x"},
		{"5--5", "5 - -5"},
		{"&amp;lt; &amp;quot;", "< & quot ;"}, // "&amp;quot;" decodes once, to "&quot;"
		{"don't net_revenue", "don't net _ revenue"},
		{"a\x1cb", "a b"},
	} {
		if got := strings.Join(Tokenize13a(c.in), " "); got != c.want {
			t.Errorf("Tokenize13a(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSentenceBLEUMultiRef(t *testing.T) {
	// hyp "a b c d e" (5 tokens), refs "a b c d" (4) and "a b x d e f" (6):
	// both 1 away, the shorter wins -> ref_len 4, bp 1.
	// Clipping by the max count over references:
	// 1-grams a b c d e all found -> 5/5; 2-grams ab bc cd (ref 1) de (ref 2)
	// -> 4/4; 3-grams abc bcd (ref 1), cde in neither -> 2/3; 4-grams abcd
	// -> 1/2. Score = exp((ln 100 + ln 100 + ln(200/3) + ln 50)/4).
	got := SentenceBLEU("a b c d e", []string{"a b c d", "a b x d e f"}, DefaultBLEUOptions)
	if got.Counts != [4]int{5, 4, 2, 1} || got.Totals != [4]int{5, 4, 3, 2} {
		t.Errorf("counts %v totals %v", got.Counts, got.Totals)
	}
	if got.SysLen != 5 || got.RefLen != 4 || got.BP != 1 {
		t.Errorf("sys %d ref %d bp %v", got.SysLen, got.RefLen, got.BP)
	}
	want := math.Exp((math.Log(100) + math.Log(100) + math.Log(200.0/3) + math.Log(50)) / 4)
	if !closeRel(got.Score, want, 1e-13) {
		t.Errorf("score %v, want %v", got.Score, want)
	}
	if r := SentenceBLEU("a", nil, DefaultBLEUOptions); !math.IsNaN(r.Score) {
		t.Errorf("no reference: score %v, want NaN", r.Score)
	}
}

func TestBLEUSmoothing(t *testing.T) {
	// hyp "a b c" vs ref "a c b": 1-grams 3/3, 2-grams ab bc vs ac cb 0/2,
	// 3-gram 0/1; effective order 3 (every order up to 3 has n-grams).
	st := func(o BLEUOptions) BLEU { return SentenceBLEU("a b c", []string{"a c b"}, o) }
	// exp: the 1st and 2nd zero orders get 100/(2·2) and 100/(4·1).
	e := st(DefaultBLEUOptions)
	if e.Precisions != [4]float64{100, 25, 25, 0} {
		t.Errorf("exp precisions %v", e.Precisions)
	}
	if want := math.Exp((math.Log(100) + math.Log(25) + math.Log(25)) / 3); !closeRel(e.Score, want, 1e-13) {
		t.Errorf("exp score %v, want %v", e.Score, want)
	}
	// floor 0.1: 100·0.1/2 = 5 and 100·0.1/1 = 10.
	fl := st(BLEUOptions{Smooth: "floor", EffectiveOrder: true})
	if fl.Precisions != [4]float64{100, 5, 10, 0} {
		t.Errorf("floor precisions %v", fl.Precisions)
	}
	if want := math.Exp((math.Log(100) + math.Log(5) + math.Log(10)) / 3); !closeRel(fl.Score, want, 1e-13) {
		t.Errorf("floor score %v, want %v", fl.Score, want)
	}
	// none: log(0) := -9999999999, so the score underflows to 0.
	if n := st(BLEUOptions{Smooth: "none", EffectiveOrder: true}); n.Score != 0 || n.Precisions[1] != 0 {
		t.Errorf("none: %+v", n)
	}
	if bad := st(BLEUOptions{Smooth: "add-k"}); !math.IsNaN(bad.Score) {
		t.Errorf("unknown smoothing: score %v, want NaN", bad.Score)
	}
}

func TestBLEUSignature(t *testing.T) {
	for _, c := range []struct {
		o     BLEUOptions
		nrefs int
		want  string
	}{
		{DefaultBLEUOptions, 1, "nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0"},
		{DefaultCorpusBLEUOptions, 3, "nrefs:3|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"},
		{BLEUOptions{Smooth: "floor"}, -1, "nrefs:var|case:mixed|eff:no|tok:13a|smooth:floor[0.10]|version:2.6.0"},
		{BLEUOptions{Smooth: "none"}, 1, "nrefs:1|case:mixed|eff:no|tok:13a|smooth:none|version:2.6.0"},
	} {
		if got := c.o.Signature(c.nrefs); got != c.want {
			t.Errorf("Signature = %q, want %q", got, c.want)
		}
	}
}

func TestCorpusBLEUErrors(t *testing.T) {
	if _, err := CorpusBLEU([]string{"a", "b"}, [][]string{{"a"}}, DefaultCorpusBLEUOptions); err == nil {
		t.Error("mismatched stream length: want an error")
	}
	r, err := CorpusBLEU(nil, nil, DefaultCorpusBLEUOptions)
	if err != nil || !math.IsNaN(r.Score) {
		t.Errorf("empty corpus: %+v, %v; want NaN score", r, err)
	}
	// Two segments, statistics summed before scoring: "a b" vs "a b" and
	// "c" vs "d": counts [2 1 0 0], totals [3 1 0 0]; no effective order,
	// so the 3-gram precision (total 0) enters as log(0) -> score 0.
	r, err = CorpusBLEU([]string{"a b", "c"}, [][]string{{"a b", "d"}}, DefaultCorpusBLEUOptions)
	if err != nil || r.Counts != [4]int{2, 1, 0, 0} || r.Totals != [4]int{3, 1, 0, 0} || r.Score != 0 {
		t.Errorf("corpus: %+v, %v", r, err)
	}
}

func TestScorersMatchOneShot(t *testing.T) {
	refs := []string{"The board approved the budget.\nRevenue rose 5%.", "Budget approved; revenue up."}
	hyps := []string{"The board approved a budget.", "revenue rose", "", "Approved!"}
	rs := NewRougeScorer(refs, DefaultRougeOptions)
	bs := NewBLEUScorer(refs, DefaultBLEUOptions)
	for _, h := range hyps {
		if got, want := rs.Score(h), ScoreRougeMulti(h, refs, DefaultRougeOptions); got != want {
			t.Errorf("RougeScorer(%q) = %+v, ScoreRougeMulti %+v", h, got, want)
		}
		if got, want := bs.Score(h), SentenceBLEU(h, refs, DefaultBLEUOptions); got != want {
			t.Errorf("BLEUScorer(%q) = %+v, SentenceBLEU %+v", h, got, want)
		}
	}
}

// TestScorersConcurrent runs the shared scorers from several goroutines
// (meaningful under -race) and checks every result against a serial one.
func TestScorersConcurrent(t *testing.T) {
	refs := []string{"The board approved the budget.\nRevenue rose 5%.", "Budget approved."}
	hyps := []string{"The board approved a budget.", "revenue rose\nbudget", "nothing in common"}
	rs := NewRougeScorer(refs, DefaultRougeOptions)
	bs := NewBLEUScorer(refs, DefaultBLEUOptions)
	wantR := make([]Rouge, len(hyps))
	wantB := make([]BLEU, len(hyps))
	for i, h := range hyps {
		wantR[i], wantB[i] = rs.Score(h), bs.Score(h)
	}
	errs := make(chan string, 64)
	done := make(chan struct{})
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for rep := 0; rep < 50; rep++ {
				i := (g + rep) % len(hyps)
				if rs.Score(hyps[i]) != wantR[i] || bs.Score(hyps[i]) != wantB[i] {
					errs <- hyps[i]
					return
				}
			}
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
	close(errs)
	for h := range errs {
		t.Errorf("concurrent score of %q differs from the serial one", h)
	}
}
