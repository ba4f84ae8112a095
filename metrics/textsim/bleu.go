package textsim

import (
	"fmt"
	"math"
	"sync"
)

// SacreBLEUVersion is the sacrebleu version whose results this package
// reproduces; it ends the signature string.
const SacreBLEUVersion = "2.6.0"

// maxOrder is sacrebleu's default (and here fixed) maximum n-gram order.
const maxOrder = 4

// BLEU is a BLEU result with sacrebleu's BLEUScore fields.
type BLEU struct {
	Score      float64           // 0–100
	Counts     [maxOrder]int     // matched (clipped) n-grams per order 1–4
	Totals     [maxOrder]int     // hypothesis n-grams per order 1–4
	Precisions [maxOrder]float64 // 100·Counts/Totals, smoothed; 0 beyond the last order with a total
	BP         float64           // brevity penalty
	SysLen     int               // hypothesis length in tokens
	RefLen     int               // (closest) reference length in tokens
}

// BLEUOptions configures BLEU. Only sacrebleu's defaults for case
// (mixed, no lower-casing) and maximum order (4) are implemented.
type BLEUOptions struct {
	// Tokenize is the tokenizer: Tok13a (sacrebleu's default; "" means it),
	// TokZh, TokChr or TokIntl (see TokenizeBLEU). Any other value gives a
	// NaN score.
	Tokenize string
	// Smooth is the smoothing method: "exp" (sacrebleu's default; the k-th
	// order without a match gets precision 100/(2^k·total)), "floor"
	// (a zero count becomes SmoothValue) or "none". The empty string means
	// "exp"; any other value gives a NaN score.
	Smooth string
	// SmoothValue is the count used by "floor"; 0 means sacrebleu's
	// default 0.1. Ignored by the other methods.
	SmoothValue float64
	// EffectiveOrder stops the geometric mean at the highest order that has
	// any hypothesis n-gram, as sacrebleu's use_effective_order. Default:
	// true for sentence BLEU (DefaultBLEUOptions), false for corpus BLEU
	// (DefaultCorpusBLEUOptions), as in sacrebleu.
	EffectiveOrder bool
}

// DefaultBLEUOptions are sacrebleu.sentence_bleu's defaults: 13a, exp
// smoothing, effective order on.
var DefaultBLEUOptions = BLEUOptions{Smooth: "exp", EffectiveOrder: true}

// DefaultCorpusBLEUOptions are sacrebleu.corpus_bleu's defaults: 13a, exp
// smoothing, effective order off.
var DefaultCorpusBLEUOptions = BLEUOptions{Smooth: "exp", EffectiveOrder: false}

func (o BLEUOptions) smooth() string {
	if o.Smooth == "" {
		return "exp"
	}
	return o.Smooth
}

// Signature returns sacrebleu's reproducibility signature for these
// options and nrefs references per segment (nrefs < 0 prints "var", for a
// varying number), for example
// "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0".
func (o BLEUOptions) Signature(nrefs int) string {
	n := "var"
	if nrefs >= 0 {
		n = fmt.Sprint(nrefs)
	}
	eff := "no"
	if o.EffectiveOrder {
		eff = "yes"
	}
	sm := o.smooth()
	if sm == "floor" {
		v := o.SmoothValue
		if v == 0 {
			v = 0.1
		}
		sm = fmt.Sprintf("floor[%.2f]", v)
	}
	return fmt.Sprintf("nrefs:%s|case:mixed|eff:%s|tok:%s|smooth:%s|version:%s", n, eff, o.tok(), sm, SacreBLEUVersion)
}

func (o BLEUOptions) tok() string {
	if o.Tokenize == "" {
		return Tok13a
	}
	return o.Tokenize
}

// SentenceBLEU is sacrebleu.sentence_bleu(hyp, refs) with the given options
// (DefaultBLEUOptions for sacrebleu's defaults). Several references are
// used as sacrebleu does: n-gram counts are clipped by the maximum count in
// any reference and the reference length is the one closest to the
// hypothesis length (the shorter on ties). An empty reference counts as a
// reference of length 0. With no reference at all the result's Score and
// BP are NaN (sacrebleu raises an error).
func SentenceBLEU(hyp string, refs []string, opt BLEUOptions) BLEU {
	return NewBLEUScorer(refs, opt).Score(hyp)
}

// CorpusBLEU is sacrebleu.corpus_bleu(hyps, refs): statistics summed over
// segments, then one score. refs[k] is the k-th reference stream (refs[k][i]
// is a reference of hyps[i]), as in sacrebleu; every stream must have
// len(hyps) entries. Use DefaultCorpusBLEUOptions for sacrebleu's defaults.
// With no segment or no stream, Score and BP are NaN.
func CorpusBLEU(hyps []string, refs [][]string, opt BLEUOptions) (BLEU, error) {
	for k, s := range refs {
		if len(s) != len(hyps) {
			return BLEU{}, fmt.Errorf("textsim: corpus BLEU: reference stream %d has %d segments, want %d (one per hypothesis)", k, len(s), len(hyps))
		}
	}
	if len(hyps) == 0 || len(refs) == 0 {
		return nanBLEU(), nil
	}
	var tot BLEUStats
	segRefs := make([]string, len(refs))
	var s *BLEUScorer
	for i, h := range hyps {
		for k := range refs {
			segRefs[k] = refs[k][i]
		}
		if s == nil {
			s = NewBLEUScorer(segRefs, opt)
		} else {
			s.Reset(segRefs)
		}
		tot.Add(s.stats(h))
	}
	return computeBLEU(tot, opt), nil
}

func nanBLEU() BLEU {
	return BLEU{Score: math.NaN(), BP: math.NaN()}
}

// BLEUStats are sacrebleu's sufficient statistics of one segment: corpus
// BLEU is BLEUFromStats of their sum (Add), so a bootstrap over segments
// resamples these instead of tokenising again.
type BLEUStats struct {
	SysLen, RefLen int
	Correct, Total [maxOrder]int
}

// Add adds o's counts and lengths to s.
func (s *BLEUStats) Add(o BLEUStats) {
	s.SysLen += o.SysLen
	s.RefLen += o.RefLen
	for n := range maxOrder {
		s.Correct[n] += o.Correct[n]
		s.Total[n] += o.Total[n]
	}
}

// myLog is sacrebleu's my_log: log(0) := -9999999999.
func myLog(x float64) float64 {
	if x == 0 {
		return -9999999999
	}
	return clog(x)
}

// BLEUFromStats is the BLEU of summed statistics (sacrebleu's
// compute_bleu): with DefaultCorpusBLEUOptions the corpus BLEU.
func BLEUFromStats(st BLEUStats, opt BLEUOptions) BLEU { return computeBLEU(st, opt) }

// Stats returns the sufficient statistics of hyp against the references
// (closest reference length, n-grams clipped over the references), as
// sacrebleu's corpus_bleu collects them per segment. Safe for concurrent use
// like Score.
func (s *BLEUScorer) Stats(hyp string) BLEUStats { return s.stats(hyp) }

// computeBLEU is sacrebleu's BLEU.compute_bleu for max order 4.
func computeBLEU(st BLEUStats, opt BLEUOptions) BLEU {
	res := BLEU{Counts: st.Correct, Totals: st.Total, SysLen: st.SysLen, RefLen: st.RefLen}
	if st.SysLen < st.RefLen {
		if st.SysLen > 0 {
			res.BP = cexp(1 - float64(st.RefLen)/float64(st.SysLen))
		}
	} else {
		res.BP = 1
	}
	method := opt.smooth()
	switch method {
	case "exp", "floor", "none":
	default:
		res.Score = math.NaN()
		return res
	}
	if !validBLEUTok(opt.Tokenize) {
		res.Score = math.NaN()
		return res
	}
	matched := false
	for _, c := range st.Correct {
		if c != 0 {
			matched = true
		}
	}
	if !matched {
		return res // score 0, precisions 0
	}
	sv := opt.SmoothValue
	if sv == 0 {
		sv = 0.1
	}
	smoothMteval := 1.0
	eff := maxOrder
	for n := 1; n <= maxOrder; n++ {
		if st.Total[n-1] == 0 {
			break
		}
		if opt.EffectiveOrder {
			eff = n
		}
		if st.Correct[n-1] == 0 {
			switch method {
			case "exp":
				smoothMteval *= 2
				res.Precisions[n-1] = 100 / (smoothMteval * float64(st.Total[n-1]))
			case "floor":
				res.Precisions[n-1] = 100 * sv / float64(st.Total[n-1])
			}
		} else {
			res.Precisions[n-1] = 100 * float64(st.Correct[n-1]) / float64(st.Total[n-1])
		}
	}
	sum := 0.0
	for _, p := range res.Precisions[:eff] {
		sum += myLog(p)
	}
	res.Score = res.BP * cexp(sum/float64(eff))
	return res
}

// BLEUScorer scores many hypotheses against the same references (sentence
// BLEU): the references are tokenised and their n-grams counted once. Score
// is safe for concurrent use; Reset is not (it must not run alongside
// Score).
//
// A scorer can be reused for another set of references with Reset, which
// keeps its memory: the n-gram tables, the buffers and an intern table of
// the tokens it has seen.
type BLEUScorer struct {
	opt BLEUOptions
	tok string // tokenizer
	// tok interns the tokens seen in references over all Reset calls
	// (until maxBLEUIntern); ids maps a token id to its id in the current
	// references (0..ids.n-1).
	intern  map[string]int32
	ids     localIDs
	next    [maxOrder - 1]map[uint64]int32 // order n+2 n-gram ids keyed by (order n+1 id, token id)
	refMax  [maxOrder][]int32              // max count over references per n-gram id
	refLens []int
	// buffers of Reset
	refIDs  [][]int32
	cnt     [maxOrder][]int32
	touched [maxOrder][]int32
	grams   [maxOrder][]int32
	bf      buf13a
	pool    sync.Pool // *bleuScratch
}

// maxBLEUIntern bounds the tokens a BLEUScorer keeps between Reset calls;
// past it the intern table starts afresh. A variable so that tests can
// exercise that path.
var maxBLEUIntern = 1 << 17

type bleuScratch struct {
	used  [maxOrder][]int32
	grams [maxOrder][]int32
	bf    buf13a
}

// NewBLEUScorer prepares refs for sentence BLEU with opt.
func NewBLEUScorer(refs []string, opt BLEUOptions) *BLEUScorer {
	s := &BLEUScorer{opt: opt, tok: opt.tok()}
	if !validBLEUTok(opt.Tokenize) {
		s.tok = Tok13a // Score gives NaN
	}
	s.pool.New = func() any { return &bleuScratch{} }
	s.Reset(refs)
	return s
}

// Reset prepares the scorer for scoring against refs instead of its current
// references, reusing its memory; the options stay. It must not be called
// while Score runs.
func (s *BLEUScorer) Reset(refs []string) {
	if s.intern == nil || len(s.intern) > maxBLEUIntern {
		s.intern = make(map[string]int32)
		s.ids.drop()
	}
	s.ids.next()
	if cap(s.refIDs) < len(refs) {
		s.refIDs = append(s.refIDs[:cap(s.refIDs)], make([][]int32, len(refs)-cap(s.refIDs))...)
	}
	s.refIDs = s.refIDs[:len(refs)]
	s.refLens = s.refLens[:0]
	total := 0
	for k, ref := range refs {
		ids := s.refIDs[k][:0]
		s.bf.forEachTok(s.tok, ref, func(tok []byte) {
			g, ok := s.intern[string(tok)]
			if !ok {
				g = int32(len(s.intern))
				s.intern[string(tok)] = g
				s.ids.grow(int(g) + 1)
			}
			ids = append(ids, s.ids.assign(g))
		})
		s.refIDs[k] = ids
		total += len(ids)
		s.refLens = append(s.refLens, len(ids))
	}
	for k := range s.next {
		if s.next[k] == nil || len(s.next[k]) > maxKeptMap {
			s.next[k] = make(map[uint64]int32, total)
		} else {
			clear(s.next[k])
		}
	}
	for n := range s.refMax {
		s.refMax[n] = s.refMax[n][:0]
	}
	cnt, touched := &s.cnt, &s.touched
	for _, ids := range s.refIDs {
		// Count this reference's n-grams, then merge with max.
		prev := ids
		for n := 0; n < maxOrder; n++ {
			cur := ids
			if n > 0 {
				m := s.next[n-1]
				cur = s.grams[n][:0]
				for i := 0; i+1 < len(prev); i++ {
					key := uint64(prev[i])<<32 | uint64(ids[i+n])
					id, ok := m[key]
					if !ok {
						id = int32(len(m))
						m[key] = id
					}
					cur = append(cur, id)
				}
				s.grams[n] = cur
			}
			size := s.ids.n
			if n > 0 {
				size = len(s.next[n-1])
			}
			cnt[n] = growZero(cnt[n], size)
			s.refMax[n] = growZero(s.refMax[n], size)
			touched[n] = touched[n][:0]
			for _, id := range cur {
				if cnt[n][id] == 0 {
					touched[n] = append(touched[n], id)
				}
				cnt[n][id]++
			}
			for _, id := range touched[n] {
				s.refMax[n][id] = max(s.refMax[n][id], cnt[n][id])
				cnt[n][id] = 0
			}
			prev = cur
		}
	}
}

// growZero returns a with length n (at least its own), new elements zero.
func growZero(a []int32, n int) []int32 {
	l := len(a)
	if n <= l {
		return a
	}
	if n > cap(a) {
		a = append(a[:cap(a)], make([]int32, n-cap(a))...)
	}
	a = a[:n]
	clear(a[l:])
	return a
}

// Score returns the sentence BLEU of hyp against the references.
func (s *BLEUScorer) Score(hyp string) BLEU {
	if len(s.refLens) == 0 {
		return nanBLEU()
	}
	return computeBLEU(s.stats(hyp), s.opt)
}

// NRefs returns the number of references, for Signature.
func (s *BLEUScorer) NRefs() int { return len(s.refLens) }

// closestRefLen is sacrebleu's _get_closest_ref_len.
func closestRefLen(hypLen int, refLens []int) int {
	closestDiff, closestLen := -1, -1
	for _, l := range refLens {
		d := hypLen - l
		if d < 0 {
			d = -d
		}
		if closestDiff == -1 || d < closestDiff {
			closestDiff, closestLen = d, l
		} else if d == closestDiff && l < closestLen {
			closestLen = l
		}
	}
	return closestLen
}

func (s *BLEUScorer) stats(hyp string) BLEUStats {
	var st BLEUStats
	sc := s.pool.Get().(*bleuScratch)
	defer s.pool.Put(sc)
	// grams[n][i] is the id of the (n+1)-gram starting at token i, or -1
	// when it occurs in no reference.
	ids := sc.grams[0][:0]
	sc.bf.forEachTok(s.tok, hyp, func(tok []byte) {
		id := int32(-1)
		if g, ok := s.intern[string(tok)]; ok {
			if l, ok := s.ids.lookup(g); ok {
				id = l
			}
		}
		ids = append(ids, id)
	})
	sc.grams[0] = ids
	st.SysLen = len(ids)
	st.RefLen = closestRefLen(len(ids), s.refLens)
	if len(s.refLens) == 0 {
		st.RefLen = 0
	}
	for n := 0; n < maxOrder; n++ {
		if len(ids) > n {
			st.Total[n] = len(ids) - n
		}
		if n > 0 {
			prev := sc.grams[n-1]
			cur := sc.grams[n][:0]
			m := s.next[n-1]
			for i := 0; i+1 < len(prev); i++ {
				id := int32(-1)
				if prev[i] >= 0 && ids[i+n] >= 0 {
					if v, ok := m[uint64(prev[i])<<32|uint64(ids[i+n])]; ok {
						id = v
					}
				}
				cur = append(cur, id)
			}
			sc.grams[n] = cur
		}
		used := growZero(sc.used[n][:0], len(s.refMax[n]))
		for _, id := range sc.grams[n] {
			if id >= 0 && used[id] < s.refMax[n][id] {
				used[id]++
				st.Correct[n]++
			}
		}
		sc.used[n] = used
	}
	return st
}
