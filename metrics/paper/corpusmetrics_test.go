package paper

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/study"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/metrics/textsim"
)

// corpusVec is a corpus line of metrics/textsim/testdata/corpus_vectors.jsonl,
// produced by the real sacrebleu 2.6.0 (gen_corpus_vectors.py there).
type corpusVec struct {
	Kind string     `json:"kind"`
	Name string     `json:"name"`
	Hyps []string   `json:"hyps"`
	Refs [][]string `json:"refs"`
	BLEU map[string]struct {
		Score     float64 `json:"score"`
		Signature string  `json:"signature"`
	} `json:"bleu"`
	CHRF struct {
		Score     float64 `json:"score"`
		Signature string  `json:"signature"`
	} `json:"chrf"`
	CHRFPP struct {
		Score     float64 `json:"score"`
		Signature string  `json:"signature"`
	} `json:"chrfpp"`
}

func loadCorpusVec(t *testing.T) map[string]corpusVec {
	t.Helper()
	f, err := os.Open("../textsim/testdata/corpus_vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]corpusVec{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var k struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(sc.Bytes(), &k); err != nil {
			t.Fatal(err)
		}
		if k.Kind != "corpus" {
			continue
		}
		var v corpusVec
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		out[v.Name] = v
	}
	return out
}

// corpusStudy: the vectors' questions (one reference each), model A
// answering with hypsA and B with hypsB; one human grading per response.
func corpusStudy(t *testing.T, refs, hypsA, hypsB []string) *study.Study {
	t.Helper()
	var qs []study.Question
	var lines []string
	for i := range refs {
		id := fmt.Sprintf("q%02d", i)
		qs = append(qs, study.Question{ID: id, Domain: "D", GateScore: math.NaN()})
		lines = append(lines, "e1 . "+id+" A 4,4 . 1", "e1 . "+id+" B 3,3 . 2")
	}
	s := buildStudy(t, []string{"A", "B"}, qs, []string{"HE", "A", "B"}, lines)
	for i, r := range refs {
		id := qs[i].ID
		s.References = append(s.References, study.Reference{QuestionID: id, ID: "r" + id, Author: "x", Text: r})
		s.Responses = append(s.Responses,
			study.Response{QuestionID: id, Model: "A", Text: hypsA[i], CostUSD: math.NaN(), InputTokens: -1, OutputTokens: -1},
			study.Response{QuestionID: id, Model: "B", Text: hypsB[i], CostUSD: math.NaN(), InputTokens: -1, OutputTokens: -1})
	}
	return s
}

// TestCorpusMetricsVectors: corpus_metrics equals sacrebleu's corpus BLEU
// (tokenizer chosen by the detected language), chrF and chrF++ on the
// German and Chinese samples, to 1e-9, with sacrebleu's signatures; and the
// bootstrap interval equals one computed independently by re-tokenising
// the resampled texts (textsim.CorpusBLEU / CorpusCHRF, themselves checked
// against sacrebleu) with the same draws.
func TestCorpusMetricsVectors(t *testing.T) {
	vec := loadCorpusVec(t)
	nReg, nIrr := 0, 0
	for _, c := range []struct {
		a, b, tok, lang string
	}{
		{"chinese-a", "chinese-b", "zh", "zh"},
		{"german-b", "german-b", "13a", "de"},
	} {
		va, vb := vec[c.a], vec[c.b]
		refs := vb.Refs[0]
		s := corpusStudy(t, refs, va.Hyps, vb.Hyps)
		const reps = 60
		r := analyze(t, s, func(o *Options) { o.Bootstrap = reps })
		for _, m := range []struct {
			model string
			v     corpusVec
			hyps  []string
		}{{"A", va, va.Hyps}, {"B", vb, vb.Hyps}} {
			row := rowWhere(t, r, "corpus_metrics", "set", "all", "model", m.model)
			near := func(what string, got any, want float64) {
				t.Helper()
				g, ok := got.(float64)
				if !ok || math.Abs(g-want) > 1e-9 {
					t.Errorf("%s %s %s = %v, want %.17g", c.a, m.model, what, got, want)
				}
			}
			near("corpus_bleu", row["bleu"], m.v.BLEU[c.tok].Score)
			near("corpus_chrf", row["chrf"], m.v.CHRF.Score)
			near("corpus_chrf_pp", row["chrf_pp"], m.v.CHRFPP.Score)
			for col, want := range map[string]string{"bleu_signature": m.v.BLEU[c.tok].Signature,
				"chrf_signature": m.v.CHRF.Signature, "chrf_pp_signature": m.v.CHRFPP.Signature} {
				if row[col] != want {
					t.Errorf("%s %s %s = %v, want %q", c.a, m.model, col, row[col], want)
				}
			}
			checkInt(t, "n", row["n"], int64(len(refs)))
			// Both bootstrap paths are exercised: compact (regular) and
			// full (short) segments.
			for i := range refs {
				if regularSeg(segOf(t, m.hyps[i], refs[i], c.tok)) {
					nReg++
				} else {
					nIrr++
				}
			}
			// Independent bootstrap: the same draws, texts re-tokenised.
			bleu := textsim.DefaultCorpusBLEUOptions
			bleu.Tokenize = c.tok
			var rows [][]float64
			for rep := 0; rep < reps; rep++ {
				idx := stats.ResampleIndices(len(refs), stats.NewRand(1, rep))
				var h, rf []string
				for _, i := range idx {
					h, rf = append(h, m.hyps[i]), append(rf, refs[i])
				}
				b, err := textsim.CorpusBLEU(h, [][]string{rf}, bleu)
				if err != nil {
					t.Fatal(err)
				}
				cf, _, _ := textsim.CorpusCHRF(h, [][]string{rf}, textsim.CHRFOptions{})
				cp, _, _ := textsim.CorpusCHRF(h, [][]string{rf}, textsim.CHRFOptions{WordOrder: 2})
				rows = append(rows, []float64{b.Score, cf, cp})
			}
			for j, name := range []string{"bleu", "chrf", "chrf_pp"} {
				lo, hi := stats.PercentileInterval(rows, j, 0.95)
				near(name+"_lo", row[name+"_lo"], lo)
				near(name+"_hi", row[name+"_hi"], hi)
			}
		}
		found := false
		for _, n := range r.Notes {
			if n.Table == "text_metrics" && strings.HasPrefix(n.Reason, "language "+c.lang+" (detected") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: text_metrics notes %+v do not state the detected language %s", c.a, r.Notes, c.lang)
		}
	}
	if nReg == 0 || nIrr == 0 {
		t.Errorf("%d regular and %d irregular segments, want some of each", nReg, nIrr)
	}
}

// segOf is the statistics the analysis keeps for one response.
func segOf(t *testing.T, hyp, ref, tok string) *segStats {
	t.Helper()
	opt := textsim.DefaultBLEUOptions
	opt.Tokenize = tok
	c0, c2 := textsim.NewCHRFScorer([]string{ref}, textsim.CHRFOptions{WordOrder: 2}).StatsPair(hyp)
	s := packSeg(textsim.NewBLEUScorer([]string{ref}, opt).Stats(hyp), c0, c2)
	return &s
}

// TestLanePackSums: sumBlock equals plain int64 sums of the weighted
// compact statistics for every lane width, with lane limits low enough to
// force the flushes and the direct path of a heavy draw.
func TestLanePackSums(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const nQ, nM, nb = 57, 3, 7
	for _, c := range []struct {
		maxV  int64
		lanes int
		limit uint64 // 0: the lanes' own
	}{
		{4000, 4, 0}, {100000, 3, 0}, {1 << 27, 2, 0},
		{4000, 4, 20000}, // flushes every few draws; draws of weight > 5 go direct
		{3, 4, 0},
	} {
		lp, ok := newLanePack(c.maxV)
		if !ok || lp.lanes != c.lanes {
			t.Fatalf("newLanePack(%d) = %d lanes, %v; want %d", c.maxV, lp.lanes, ok, c.lanes)
		}
		if c.limit != 0 {
			lp.limit = c.limit
		}
		vals := make([][cDims]int64, nQ*nM)
		packed := make([]uint64, nQ*nM*lp.words)
		for i := range vals {
			for k := range vals[i] {
				vals[i][k] = r.Int64N(c.maxV + 1)
			}
			vals[i][0] = c.maxV // the largest value occurs
			lp.pack(packed[i*lp.words:], &vals[i])
		}
		cnt := make([]int32, nQ*nb)
		for i := range cnt {
			cnt[i] = int32(r.IntN(4))
		}
		cnt[3*nb+2] = 9 // a heavy draw
		want := make([]int64, nb*nM*cDims)
		for q := 0; q < nQ; q++ {
			for b := 0; b < nb; b++ {
				for m := 0; m < nM; m++ {
					for k := 0; k < cDims; k++ {
						want[(b*nM+m)*cDims+k] += int64(cnt[q*nb+b]) * vals[q*nM+m][k]
					}
				}
			}
		}
		got := make([]int64, nb*nM*cDims)
		lp.sumBlock(packed, nQ, nM, cnt, nb, make([]uint64, nb*nM*lp.words), make([]uint64, nb), got)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("maxV %d, %d lanes, limit %d: sum %d = %d, want %d", c.maxV, c.lanes, lp.limit, i, got[i], want[i])
			}
		}
	}
	if _, ok := newLanePack(1 << 29); ok {
		t.Error("newLanePack(2^29) accepted lanes that 16 draws would overflow")
	}
}

// TestTextLanguageWarning: German texts scored as English (language set
// to en) warn that rouge-score's tokenizer drops letters; detected as
// German they get Unicode-word ROUGE, where "Größe" is one word, and no
// warning.
func TestTextLanguageWarning(t *testing.T) {
	refs := []string{"Die Größe der Stichprobe reicht nicht für die Prüfung.", "Übermorgen regnet es in München über der Straße."}
	hyps := []string{"Die Größe der Stichprobe genügt nicht.", "In München regnet es übermorgen."}
	for _, c := range []struct {
		lang string
		warn bool
	}{{"en", true}, {"", false}} {
		r := analyze(t, corpusStudy(t, refs, hyps, hyps), func(o *Options) { o.Language = c.lang })
		got := false
		for _, w := range r.Warnings {
			if strings.Contains(w, "rouge-score's ASCII tokenizer drops") {
				got = true
			}
		}
		if got != c.warn {
			t.Errorf("language %q: ASCII-drop warning %v, want %v (warnings %q)", c.lang, got, c.warn, r.Warnings)
		}
		// ROUGE-1 of hyp 0 against ref 0. Unicode words: hyp die größe der
		// stichprobe genügt nicht (6), ref die größe der stichprobe reicht
		// nicht für die prüfung (9), overlap 5 → P 5/6, R 5/9, F1 2/3.
		// rouge-score's tokens: hyp die gr e der stichprobe gen gt nicht
		// (8), ref die gr e der stichprobe reicht nicht f r die pr fung
		// (12), overlap 6 → P 6/8, R 6/12, F1 0.6.
		want := 2.0 / 3
		if c.lang == "en" {
			want = 0.6
		}
		row := rowWhere(t, r, "text_metrics", "question_id", "q00", "model", "A")
		checkFloat(t, "rouge1_f1_nostem ("+c.lang+")", row["rouge1_f1_nostem"], want)
	}
}
