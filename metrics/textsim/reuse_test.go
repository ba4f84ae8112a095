package textsim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// genWords are the pieces the generated corpus is made of: words in mixed
// case, numbers, punctuation, HTML entities, sacrebleu's markers, and
// non-ASCII text that ROUGE splits on (café, İ, CJK) or keeps (the Kelvin
// sign).
var genWords = []string{
	"the", "The", "company", "companies", "should", "review", "reviewing", "reviewed",
	"margin", "margins", "risk", "risks", "Risk", "EBITDA", "VAT", "a", "an", "of", "in",
	"dying", "skies", "news", "generalization", "relational", "conditional", "happiness",
	"3.14", "1,000", "26%", "12-3", "2024-25", "x-ray", "e.g.", "U.S.", "(see", "note)",
	"\"quoted\"", "it's", "don't", "&amp;", "&amp;lt;", "&quot;", "&lt;b&gt;", "&#39;",
	"<skipped>", "café", "Müller", "İstanbul", "\u212Aelvin", "東京", "naïve", "–", "—",
	"…", "€5", "£", "a/b", "{x}", "[y]", "~z", "^", "_under_", "`tick`", "@home", "#tag",
	"1.", ",2", ".5", "x,y", "a.b", "--", "-", ".", ",", ";", ":", "!", "?", "ß", "ǅ",
}

// genSeps join the pieces: spaces, line breaks (with "-\n" and blank
// lines), tabs and Unicode spaces.
var genSeps = []string{" ", " ", " ", " ", "  ", "\n", "-\n", "\n\n", "\t", "\u00a0", "\u2028", " \n ", "\r\n", ""}

// genText returns a random text of up to n pieces (sometimes empty or
// whitespace only), sharing pieces with base when base is not empty.
func genText(r *rand.Rand, n int, base []string) string {
	switch r.IntN(25) {
	case 0:
		return ""
	case 1:
		return " \n\t "
	}
	k := r.IntN(n + 1)
	var sb strings.Builder
	for i := 0; i < k; i++ {
		if len(base) > 0 && r.IntN(3) > 0 {
			sb.WriteString(base[r.IntN(len(base))])
		} else {
			sb.WriteString(genWords[r.IntN(len(genWords))])
		}
		sb.WriteString(genSeps[r.IntN(len(genSeps))])
	}
	return sb.String()
}

// genCorpus returns n questions with 0–3 references and 0–6 responses
// each, the responses drawing on their references' words.
func genCorpus(n int) []corpusItem {
	r := rand.New(rand.NewPCG(72, 19))
	out := make([]corpusItem, n)
	for q := range out {
		it := &out[q]
		nr := r.IntN(4)
		if r.IntN(8) > 0 && nr == 0 {
			nr = 1
		}
		var words []string
		for range nr {
			ref := genText(r, 120, nil)
			it.refs = append(it.refs, ref)
			words = append(words, strings.Fields(ref)...)
		}
		for range r.IntN(7) {
			it.hyps = append(it.hyps, genText(r, 150, words))
		}
	}
	return out
}

// testCorpora are the generated corpus, the reference vectors' pairs and,
// when TEXTSIM_STUDY names a euroexec study directory, its references and
// responses.
func testCorpora(t testing.TB) map[string][]corpusItem {
	t.Helper()
	cases, _ := loadVectors(t)
	vec := make([]corpusItem, 0, len(cases))
	for _, c := range cases {
		vec = append(vec, corpusItem{refs: []string{c.Ref}, hyps: []string{c.Hyp, c.Ref, ""}})
	}
	out := map[string][]corpusItem{"generated": genCorpus(1500), "vectors": vec}
	if dir := os.Getenv("TEXTSIM_STUDY"); dir != "" {
		out["study"] = studyCorpus(t, dir)
	}
	return out
}

func checkSameRouge(t *testing.T, what string, got, want Rouge) {
	t.Helper()
	g := []Score{got.Rouge1, got.Rouge2, got.RougeL, got.RougeLsum}
	w := []Score{want.Rouge1, want.Rouge2, want.RougeL, want.RougeLsum}
	for k := range g {
		if !sameFloat(g[k].Precision, w[k].Precision) || !sameFloat(g[k].Recall, w[k].Recall) || !sameFloat(g[k].F1, w[k].F1) {
			t.Fatalf("%s: variant %d: got %+v, want %+v", what, k, g[k], w[k])
		}
	}
}

func checkSameBLEU(t *testing.T, what string, got, want BLEU) {
	t.Helper()
	same := sameFloat(got.Score, want.Score) && sameFloat(got.BP, want.BP) &&
		got.Counts == want.Counts && got.Totals == want.Totals &&
		got.SysLen == want.SysLen && got.RefLen == want.RefLen
	for n := range got.Precisions {
		same = same && sameFloat(got.Precisions[n], want.Precisions[n])
	}
	if !same {
		t.Fatalf("%s: got %+v, want %+v", what, got, want)
	}
}

// TestReusedScorersMatchFresh scores every corpus with one RougeScorer per
// stemming setting and one BLEUScorer, Reset for each question, and with a
// fresh scorer per question, and wants the same bits; with tiny intern and
// map limits too, so that the intern tables and the n-gram maps start
// afresh often. (The values themselves are checked against rouge-score and
// sacrebleu in vectors_test.go.)
func TestReusedScorersMatchFresh(t *testing.T) {
	for name, corpus := range testCorpora(t) {
		for _, limit := range []int{1 << 17, 10} {
			t.Run(fmt.Sprintf("%s/intern%d", name, limit), func(t *testing.T) {
				defer func(r, b, m int) { maxRougeIntern, maxBLEUIntern, maxKeptMap = r, b, m }(maxRougeIntern, maxBLEUIntern, maxKeptMap)
				maxRougeIntern, maxBLEUIntern, maxKeptMap = limit, limit, limit
				var rs, rr *RougeScorer
				var bs *BLEUScorer
				for q, it := range corpus {
					if rs == nil {
						rs = NewRougeScorer(it.refs, RougeOptions{Stemmer: true})
						rr = NewRougeScorer(it.refs, RougeOptions{Stemmer: false})
						bs = NewBLEUScorer(it.refs, DefaultBLEUOptions)
					} else {
						rs.Reset(it.refs)
						rr.Reset(it.refs)
						bs.Reset(it.refs)
					}
					fs := NewRougeScorer(it.refs, RougeOptions{Stemmer: true})
					fr := NewRougeScorer(it.refs, RougeOptions{Stemmer: false})
					fb := NewBLEUScorer(it.refs, DefaultBLEUOptions)
					for h, hyp := range it.hyps {
						what := fmt.Sprintf("question %d response %d", q, h)
						checkSameRouge(t, what+" stemmed", rs.Score(hyp), fs.Score(hyp))
						checkSameRouge(t, what+" not stemmed", rr.Score(hyp), fr.Score(hyp))
						checkSameBLEU(t, what+" BLEU", bs.Score(hyp), fb.Score(hyp))
					}
				}
			})
		}
	}
}

// TestCorpusBLEUMatchesSegments compares CorpusBLEU (one scorer, Reset per
// segment) with the sum of fresh per-segment scorers' statistics on the
// generated corpus, one reference stream per position.
func TestCorpusBLEUMatchesSegments(t *testing.T) {
	var hyps []string
	refs := make([][]string, 2)
	for _, it := range genCorpus(400) {
		for _, h := range it.hyps {
			hyps = append(hyps, h)
			for k := range refs {
				ref := ""
				if k < len(it.refs) {
					ref = it.refs[k]
				}
				refs[k] = append(refs[k], ref)
			}
		}
	}
	got, err := CorpusBLEU(hyps, refs, DefaultCorpusBLEUOptions)
	if err != nil {
		t.Fatal(err)
	}
	var tot BLEUStats
	seg := make([]string, len(refs))
	for i, h := range hyps {
		for k := range refs {
			seg[k] = refs[k][i]
		}
		tot.Add(NewBLEUScorer(seg, DefaultCorpusBLEUOptions).stats(h))
	}
	checkSameBLEU(t, "corpus BLEU", got, computeBLEU(tot, DefaultCorpusBLEUOptions))
	if math.IsNaN(got.Score) || got.Score == 0 {
		t.Fatalf("corpus BLEU %v: the corpus should give a positive score", got.Score)
	}
}
