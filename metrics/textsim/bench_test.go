package textsim

import (
	"os"
	"sync"
	"testing"
)

// loop runs f b.N times and also reports process CPU time per operation
// (cpu-ns/op), which is what one core costs even on a busy machine.
func loop(b *testing.B, f func()) {
	b.Helper()
	start := processCPUTime()
	for b.Loop() {
		f()
	}
	if b.N > 0 {
		b.ReportMetric(float64(processCPUTime()-start)/float64(b.N), "cpu-ns/op")
	}
}

// longPair returns the vectors' 7,705-word hypothesis and 1,515-word
// reference ("long-7500-vs-1500").
var longPair = sync.OnceValues(func() (string, string) {
	cases, _ := loadVectors(&testing.T{})
	for _, c := range cases {
		if c.ID == "long-7500-vs-1500" {
			return c.Hyp, c.Ref
		}
	}
	panic("long pair missing from testdata")
})

func rougeIDs(b *testing.B, stem bool) (hypIDs, refIDs []int32) {
	b.Helper()
	hyp, ref := longPair()
	vocab := map[string]int32{}
	conv := func(toks []string) []int32 {
		out := make([]int32, len(toks))
		for i, t := range toks {
			id, ok := vocab[t]
			if !ok {
				id = int32(len(vocab))
				vocab[t] = id
			}
			out[i] = id
		}
		return out
	}
	return conv(Tokenize(hyp, stem)), conv(Tokenize(ref, stem))
}

// BenchmarkLCS compares the bit-parallel and plain DP LCS length on the
// long pair's ROUGE token ids.
func BenchmarkLCS(b *testing.B) {
	h, r := rougeIDs(b, true)
	b.Run("bitparallel", func(b *testing.B) {
		loop(b, func() {
			LCS(r, h)
		})
	})
	b.Run("plainDP", func(b *testing.B) {
		loop(b, func() {
			LCSDP(r, h)
		})
	})
}

// BenchmarkRougeLsum compares rougeLsum (with everything else ROUGE
// computes) using the bit-parallel union LCS and rouge-score's plain DP
// table + traceback, on the long pair with a pre-tokenised reference.
func BenchmarkRougeLsum(b *testing.B) {
	hyp, ref := longPair()
	s := NewRougeScorer([]string{ref}, DefaultRougeOptions)
	b.Run("bitparallel", func(b *testing.B) {
		loop(b, func() {
			s.score(hyp, false)
		})
	})
	b.Run("plainDP", func(b *testing.B) {
		loop(b, func() {
			s.score(hyp, true)
		})
	})
}

// BenchmarkLsumOnly isolates the summary-level LCS hit count of
// ROUGE-Lsum (tokens prepared beforehand): bit-parallel union LCS vs
// rouge-score's plain DP table and traceback per line pair.
func BenchmarkLsumOnly(b *testing.B) {
	hyp, ref := longPair()
	s := NewRougeScorer([]string{ref}, DefaultRougeOptions)
	sc := &rougeScratch{}
	ids, lines := s.tokenizeHyp(hyp, sc)
	hc := make([]int32, s.in.ids.n)
	for _, id := range ids {
		if id >= 0 {
			hc[id]++
		}
	}
	for _, mode := range []struct {
		name string
		dp   bool
	}{{"bitparallel", false}, {"plainDP", true}} {
		b.Run(mode.name, func(b *testing.B) {
			loop(b, func() {
				s.lsumHits(&s.refs[0], lines, hc, sc, mode.dp)
			})
		})
	}
}

// BenchmarkBLEU is sentence BLEU on the long pair, reference included.
func BenchmarkBLEU(b *testing.B) {
	hyp, ref := longPair()
	b.Run("sentence", func(b *testing.B) {
		loop(b, func() {
			SentenceBLEU(hyp, []string{ref}, DefaultBLEUOptions)
		})
	})
	s := NewBLEUScorer([]string{ref}, DefaultBLEUOptions)
	b.Run("cachedRef", func(b *testing.B) {
		loop(b, func() {
			s.Score(hyp)
		})
	})
}

// BenchmarkAllMetrics is everything per long pair (ROUGE-1/2/L/Lsum with
// stemming and sentence BLEU), from raw strings, one core.
func BenchmarkAllMetrics(b *testing.B) {
	hyp, ref := longPair()
	b.Run("pair", func(b *testing.B) {
		loop(b, func() {
			ScoreRouge(hyp, ref, DefaultRougeOptions)
			SentenceBLEU(hyp, []string{ref}, DefaultBLEUOptions)
		})
	})
	b.Run("200pairs", func(b *testing.B) {
		loop(b, func() {
			for range 200 {
				ScoreRouge(hyp, ref, DefaultRougeOptions)
				SentenceBLEU(hyp, []string{ref}, DefaultBLEUOptions)
			}
		})
	})
	b.Run("200pairs-cachedRef", func(b *testing.B) {
		rs := NewRougeScorer([]string{ref}, DefaultRougeOptions)
		bs := NewBLEUScorer([]string{ref}, DefaultBLEUOptions)
		loop(b, func() {
			for range 200 {
				rs.Score(hyp)
				bs.Score(hyp)
			}
		})
	})
}

// BenchmarkStudyScoring is what the analysis does per question with a
// reference — ROUGE with and without the stemmer and sentence BLEU of each
// response — over a corpus: "fresh" builds three new scorers per question,
// "reused" resets one set of scorers. The corpus is the generated one, or the study named by
// TEXTSIM_STUDY (e.g. /tmp/s5k).
func BenchmarkStudyScoring(b *testing.B) {
	corpus := genCorpus(1500)
	if dir := os.Getenv("TEXTSIM_STUDY"); dir != "" {
		corpus = studyCorpus(b, dir)
	}
	b.Run("fresh", func(b *testing.B) {
		b.ReportAllocs()
		loop(b, func() {
			for _, it := range corpus {
				rs := NewRougeScorer(it.refs, RougeOptions{Stemmer: true})
				rr := NewRougeScorer(it.refs, RougeOptions{Stemmer: false})
				bs := NewBLEUScorer(it.refs, DefaultBLEUOptions)
				for _, h := range it.hyps {
					bs.Score(h)
					rs.Score(h)
					rr.Score(h)
				}
			}
		})
	})
	b.Run("reused", func(b *testing.B) {
		b.ReportAllocs()
		rs := NewRougeScorer(nil, RougeOptions{Stemmer: true})
		rr := NewRougeScorer(nil, RougeOptions{Stemmer: false})
		bs := NewBLEUScorer(nil, DefaultBLEUOptions)
		loop(b, func() {
			for _, it := range corpus {
				rs.Reset(it.refs)
				rr.Reset(it.refs)
				bs.Reset(it.refs)
				for _, h := range it.hyps {
					bs.Score(h)
					rs.Score(h)
					rr.Score(h)
				}
			}
		})
	})
}

// BenchmarkCHRF: chrF and chrF++ statistics of the long pair against a
// scorer that holds the reference (as the analysis does), beside BLEU's.
func BenchmarkCHRF(b *testing.B) {
	hyp, ref := longPair()
	s := NewCHRFScorer([]string{ref}, CHRFOptions{WordOrder: 2})
	b.Run("cachedRef", func(b *testing.B) {
		loop(b, func() {
			s.StatsPair(hyp)
		})
	})
}
