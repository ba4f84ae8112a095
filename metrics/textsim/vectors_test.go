package textsim

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
)

// The expected values in these tests come from testdata/, copied from
// the project's reference vectors: textmetrics_vectors.jsonl was produced by
// sacrebleu 2.6.0 and rouge-score 0.1.2 (NLTK 3.8 Porter stemmer) on
// Python 3.11.2 / glibc, porter_nltk_vectors.tsv by NLTK 3.8's
// PorterStemmer(). Nothing here is derived from this package's output.

// jf is a float64 that decodes JSON null as NaN.
type jf float64

func (f *jf) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = jf(math.NaN())
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = jf(v)
	return nil
}

type vecScore struct {
	Precision jf `json:"precision"`
	Recall    jf `json:"recall"`
	Fmeasure  jf `json:"fmeasure"`
}

type vecRouge struct {
	Rouge1    vecScore `json:"rouge1"`
	Rouge2    vecScore `json:"rouge2"`
	RougeL    vecScore `json:"rougeL"`
	RougeLsum vecScore `json:"rougeLsum"`
}

type vecBLEU struct {
	Score      jf    `json:"score"`
	Counts     []int `json:"counts"`
	Totals     []int `json:"totals"`
	Precisions []jf  `json:"precisions"`
	BP         jf    `json:"bp"`
	SysLen     int   `json:"sys_len"`
	RefLen     int   `json:"ref_len"`
}

type vecCase struct {
	ID        string  `json:"id"`
	Hyp       string  `json:"hyp"`
	Ref       string  `json:"ref"`
	BLEU      vecBLEU `json:"bleu"`
	BLEUNoEff vecBLEU `json:"bleu_noeff"`
	Rouge     struct {
		NoStem vecRouge `json:"nostem"`
		Stem   vecRouge `json:"stem"`
	} `json:"rouge"`
	Tok struct {
		BLEUHyp      string `json:"bleu13a_hyp"`
		BLEURef      string `json:"bleu13a_ref"`
		RougeHyp     string `json:"rouge_hyp"`
		RougeRef     string `json:"rouge_ref"`
		RougeStemHyp string `json:"rouge_stem_hyp"`
		RougeStemRef string `json:"rouge_stem_ref"`
	} `json:"tok"`
	// corpus line
	Corpus            bool    `json:"corpus"`
	N                 int     `json:"n"`
	Signature         string  `json:"signature"`
	SentenceSignature string  `json:"sentence_signature"`
	CorpusBLEU        vecBLEU `json:"-"`
}

func loadVectors(t testing.TB) (cases []vecCase, corpus vecCase) {
	t.Helper()
	f, err := os.Open("testdata/textmetrics_vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var c vecCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("vectors: %v", err)
		}
		if c.Corpus {
			corpus = c
			continue
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cases) != 299 {
		t.Fatalf("loaded %d vector pairs, want 299", len(cases))
	}
	return cases, corpus
}

// sameFloat is bit-for-bit equality (NaN equals NaN).
func sameFloat(a, b float64) bool {
	return a == b && math.Signbit(a) == math.Signbit(b) || math.IsNaN(a) && math.IsNaN(b)
}

// bleuFloatOK compares BLEU floats: bit for bit when the C library's
// exp/log are used (cgo), else within 1e-13 relative (Go's math.Exp/Log
// differ from glibc in the last bit on some inputs).
func bleuFloatOK(got, want float64) bool {
	if LibmExactBLEU || sameFloat(got, want) {
		return sameFloat(got, want)
	}
	return math.Abs(got-want) <= 1e-13*math.Abs(want)
}

func checkScore(t *testing.T, what string, got Score, want vecScore) {
	t.Helper()
	if !sameFloat(got.Precision, float64(want.Precision)) || !sameFloat(got.Recall, float64(want.Recall)) || !sameFloat(got.F1, float64(want.Fmeasure)) {
		t.Errorf("%s: got P=%v R=%v F=%v, want P=%v R=%v F=%v", what, got.Precision, got.Recall, got.F1,
			float64(want.Precision), float64(want.Recall), float64(want.Fmeasure))
	}
}

func checkRouge(t *testing.T, what string, got Rouge, want vecRouge) {
	t.Helper()
	checkScore(t, what+" rouge1", got.Rouge1, want.Rouge1)
	checkScore(t, what+" rouge2", got.Rouge2, want.Rouge2)
	checkScore(t, what+" rougeL", got.RougeL, want.RougeL)
	checkScore(t, what+" rougeLsum", got.RougeLsum, want.RougeLsum)
}

func checkBLEU(t *testing.T, what string, got BLEU, want vecBLEU) {
	t.Helper()
	if len(want.Counts) != 4 || len(want.Totals) != 4 || len(want.Precisions) != 4 {
		t.Fatalf("%s: malformed vector", what)
	}
	for n := 0; n < 4; n++ {
		if got.Counts[n] != want.Counts[n] || got.Totals[n] != want.Totals[n] {
			t.Errorf("%s: counts/totals got %v/%v, want %v/%v", what, got.Counts, got.Totals, want.Counts, want.Totals)
			break
		}
		// Precisions need no libm: bit for bit always.
		if !sameFloat(got.Precisions[n], float64(want.Precisions[n])) {
			t.Errorf("%s: precision[%d] got %v, want %v", what, n, got.Precisions[n], float64(want.Precisions[n]))
		}
	}
	if got.SysLen != want.SysLen || got.RefLen != want.RefLen {
		t.Errorf("%s: sys_len/ref_len got %d/%d, want %d/%d", what, got.SysLen, got.RefLen, want.SysLen, want.RefLen)
	}
	if !bleuFloatOK(got.BP, float64(want.BP)) {
		t.Errorf("%s: bp got %v, want %v", what, got.BP, float64(want.BP))
	}
	if !bleuFloatOK(got.Score, float64(want.Score)) {
		t.Errorf("%s: score got %v, want %v", what, got.Score, float64(want.Score))
	}
}

func TestVectorsTokens(t *testing.T) {
	cases, _ := loadVectors(t)
	for _, c := range cases {
		for _, tc := range []struct {
			name, got, want string
		}{
			{"bleu13a_hyp", strings.Join(Tokenize13a(c.Hyp), " "), c.Tok.BLEUHyp},
			{"bleu13a_ref", strings.Join(Tokenize13a(c.Ref), " "), c.Tok.BLEURef},
			{"rouge_hyp", strings.Join(Tokenize(c.Hyp, false), " "), c.Tok.RougeHyp},
			{"rouge_ref", strings.Join(Tokenize(c.Ref, false), " "), c.Tok.RougeRef},
			{"rouge_stem_hyp", strings.Join(Tokenize(c.Hyp, true), " "), c.Tok.RougeStemHyp},
			{"rouge_stem_ref", strings.Join(Tokenize(c.Ref, true), " "), c.Tok.RougeStemRef},
		} {
			if tc.got != tc.want {
				t.Errorf("%s %s:\n got %.200q\nwant %.200q", c.ID, tc.name, tc.got, tc.want)
			}
		}
	}
}

func TestVectorsRouge(t *testing.T) {
	cases, _ := loadVectors(t)
	for _, c := range cases {
		checkRouge(t, c.ID+" nostem", ScoreRouge(c.Hyp, c.Ref, RougeOptions{Stemmer: false}), c.Rouge.NoStem)
		checkRouge(t, c.ID+" stem", ScoreRouge(c.Hyp, c.Ref, RougeOptions{Stemmer: true}), c.Rouge.Stem)
	}
}

// TestVectorsRougePlainDP checks the plain-DP reference path (rouge-score's
// own table and traceback) against the same vectors, so that the fuzz
// comparison of bit-parallel and DP rests on a verified reference.
func TestVectorsRougePlainDP(t *testing.T) {
	cases, _ := loadVectors(t)
	for _, c := range cases {
		if len(c.Hyp)+len(c.Ref) > 20000 && testing.Short() {
			continue
		}
		s := NewRougeScorer([]string{c.Ref}, RougeOptions{Stemmer: true})
		checkRouge(t, c.ID+" stem/dp", s.score(c.Hyp, true), c.Rouge.Stem)
	}
}

func TestVectorsBLEU(t *testing.T) {
	cases, _ := loadVectors(t)
	for _, c := range cases {
		checkBLEU(t, c.ID+" bleu", SentenceBLEU(c.Hyp, []string{c.Ref}, DefaultBLEUOptions), c.BLEU)
		noeff := DefaultBLEUOptions
		noeff.EffectiveOrder = false
		checkBLEU(t, c.ID+" bleu_noeff", SentenceBLEU(c.Hyp, []string{c.Ref}, noeff), c.BLEUNoEff)
	}
}

func TestVectorsCorpusBLEU(t *testing.T) {
	cases, _ := loadVectors(t)
	f, err := os.ReadFile("testdata/textmetrics_vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(f)), "\n")
	var corpus struct {
		N                 int     `json:"n"`
		BLEU              vecBLEU `json:"bleu"`
		Signature         string  `json:"signature"`
		SentenceSignature string  `json:"sentence_signature"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &corpus); err != nil {
		t.Fatal(err)
	}
	if corpus.N != len(cases) {
		t.Fatalf("corpus n = %d, have %d cases", corpus.N, len(cases))
	}
	hyps := make([]string, len(cases))
	refs := make([]string, len(cases))
	for i, c := range cases {
		hyps[i], refs[i] = c.Hyp, c.Ref
	}
	got, err := CorpusBLEU(hyps, [][]string{refs}, DefaultCorpusBLEUOptions)
	if err != nil {
		t.Fatal(err)
	}
	checkBLEU(t, "corpus", got, corpus.BLEU)
	if s := DefaultCorpusBLEUOptions.Signature(1); s != corpus.Signature {
		t.Errorf("corpus signature %q, want %q", s, corpus.Signature)
	}
	if s := DefaultBLEUOptions.Signature(1); s != corpus.SentenceSignature {
		t.Errorf("sentence signature %q, want %q", s, corpus.SentenceSignature)
	}
}

func TestPorterVectors(t *testing.T) {
	f, err := os.Open("testdata/porter_nltk_vectors.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		word, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("bad row %q", line)
		}
		n++
		if got := Stem(word); got != want {
			t.Errorf("Stem(%q) = %q, want %q", word, got, want)
		}
	}
	if n != 645 {
		t.Fatalf("read %d stem rows, want 645", n)
	}
}
