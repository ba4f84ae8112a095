package textsim

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
)

// The expected values here come from testdata/corpus_vectors.jsonl, written
// by testdata/gen_corpus_vectors.py with the real sacrebleu 2.6.0 (see the
// script for how to regenerate it); nothing is derived from this package.

type cvBLEU struct {
	Score     jf     `json:"score"`
	Counts    []int  `json:"counts"`
	Totals    []int  `json:"totals"`
	BP        jf     `json:"bp"`
	SysLen    int    `json:"sys_len"`
	RefLen    int    `json:"ref_len"`
	Signature string `json:"signature"`
}

type cvCHRF struct {
	Score     jf     `json:"score"`
	Stats     []int  `json:"stats"`
	Signature string `json:"signature"`
}

type cvRecord struct {
	Kind   string              `json:"kind"`
	ID     string              `json:"id"`
	Name   string              `json:"name"`
	Hyp    string              `json:"hyp"`
	Refs   json.RawMessage     `json:"refs"`
	Hyps   []string            `json:"hyps"`
	BLEU   map[string]cvBLEU   `json:"bleu"`
	Tok    map[string][]string `json:"tok"`
	CHRF   cvCHRF              `json:"chrf"`
	CHRFPP cvCHRF              `json:"chrfpp"`
}

func loadCorpusVectors(t *testing.T) []cvRecord {
	t.Helper()
	f, err := os.Open("testdata/corpus_vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []cvRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r cvRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

const vecTol = 1e-9

func closeTo(t *testing.T, what string, got float64, want jf) {
	t.Helper()
	w := float64(want)
	if math.IsNaN(w) != math.IsNaN(got) || math.Abs(got-w) > vecTol {
		t.Errorf("%s = %.17g, want %.17g (sacrebleu)", what, got, w)
	}
}

func eqInts(t *testing.T, what string, got, want []int) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
		return
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s = %v, want %v", what, got, want)
			return
		}
	}
}

func checkCorpusVecBLEU(t *testing.T, what string, got BLEU, want cvBLEU) {
	t.Helper()
	closeTo(t, what+" score", got.Score, want.Score)
	closeTo(t, what+" bp", got.BP, want.BP)
	eqInts(t, what+" counts", got.Counts[:], want.Counts)
	eqInts(t, what+" totals", got.Totals[:], want.Totals)
	if got.SysLen != want.SysLen || got.RefLen != want.RefLen {
		t.Errorf("%s lengths = %d/%d, want %d/%d", what, got.SysLen, got.RefLen, want.SysLen, want.RefLen)
	}
}

var vecToks = []string{Tok13a, TokZh, TokChr, TokIntl}

// TestSentenceVectorsAllTokenizers checks every tokenizer, sentence BLEU,
// sentence chrF and chrF++ on every pair (one or two references).
func TestSentenceVectorsAllTokenizers(t *testing.T) {
	n := 0
	for _, r := range loadCorpusVectors(t) {
		if r.Kind != "pair" {
			continue
		}
		n++
		var refs []string
		if err := json.Unmarshal(r.Refs, &refs); err != nil {
			t.Fatal(err)
		}
		for _, tok := range vecToks {
			want := r.Tok[tok]
			if got := strings.Join(TokenizeBLEU(r.Hyp, tok), " "); got != want[0] {
				t.Errorf("%s: TokenizeBLEU(hyp, %s) = %q, want %q", r.ID, tok, got, want[0])
			}
			for k, ref := range refs {
				if got := strings.Join(TokenizeBLEU(ref, tok), " "); got != want[k+1] {
					t.Errorf("%s: TokenizeBLEU(ref %d, %s) = %q, want %q", r.ID, k, tok, got, want[k+1])
				}
			}
			opt := DefaultBLEUOptions
			opt.Tokenize = tok
			checkCorpusVecBLEU(t, r.ID+" sentence BLEU "+tok, SentenceBLEU(r.Hyp, refs, opt), r.BLEU[tok])
		}
		for _, c := range []struct {
			wo   int
			want cvCHRF
		}{{0, r.CHRF}, {2, r.CHRFPP}} {
			s := NewCHRFScorer(refs, CHRFOptions{WordOrder: c.wo})
			st := s.Stats(r.Hyp)
			eqInts(t, r.ID+" chrF stats", st[:3*(6+c.wo)], c.want.Stats)
			closeTo(t, r.ID+" sentence chrF", s.Score(r.Hyp), c.want.Score)
			closeTo(t, r.ID+" SentenceCHRF", SentenceCHRF(r.Hyp, refs, CHRFOptions{WordOrder: c.wo}), c.want.Score)
		}
	}
	if n != 347 {
		t.Fatalf("%d pairs in the vectors, want 347", n)
	}
}

// TestCorpusVectors checks corpus BLEU (all tokenizers), chrF and chrF++
// and their signatures on every corpus of the vectors.
func TestCorpusVectors(t *testing.T) {
	n := 0
	for _, r := range loadCorpusVectors(t) {
		if r.Kind != "corpus" {
			continue
		}
		n++
		var streams [][]string
		if err := json.Unmarshal(r.Refs, &streams); err != nil {
			t.Fatal(err)
		}
		for _, tok := range vecToks {
			opt := DefaultCorpusBLEUOptions
			opt.Tokenize = tok
			got, err := CorpusBLEU(r.Hyps, streams, opt)
			if err != nil {
				t.Fatal(err)
			}
			checkCorpusVecBLEU(t, r.Name+" corpus BLEU "+tok, got, r.BLEU[tok])
			if sig := opt.Signature(len(streams)); sig != r.BLEU[tok].Signature {
				t.Errorf("%s: signature %q, want %q", r.Name, sig, r.BLEU[tok].Signature)
			}
		}
		for _, c := range []struct {
			wo   int
			want cvCHRF
		}{{0, r.CHRF}, {2, r.CHRFPP}} {
			opt := CHRFOptions{WordOrder: c.wo}
			score, st, err := CorpusCHRF(r.Hyps, streams, opt)
			if err != nil {
				t.Fatal(err)
			}
			closeTo(t, r.Name+" corpus chrF", score, c.want.Score)
			eqInts(t, r.Name+" corpus chrF stats", st[:3*(6+c.wo)], c.want.Stats)
			if sig := opt.Signature(len(streams)); sig != c.want.Signature {
				t.Errorf("%s: signature %q, want %q", r.Name, sig, c.want.Signature)
			}
		}
	}
	if n != 7 {
		t.Fatalf("%d corpora in the vectors, want 7", n)
	}
}
