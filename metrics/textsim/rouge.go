package textsim

import (
	"math"
	"math/bits"
	"sync"
)

// Score is a precision / recall / F1 triple. Precision is over the
// hypothesis tokens, recall over the reference tokens, and
// F1 = 2·P·R/(P+R) (0 when P+R = 0), evaluated in that order as rouge-score
// does.
type Score struct {
	Precision, Recall, F1 float64
}

// Rouge holds the four ROUGE variants of rouge-score 0.1.2.
type Rouge struct {
	Rouge1    Score // clipped unigram overlap
	Rouge2    Score // clipped bigram overlap
	RougeL    Score // one LCS over all tokens (line breaks ignored)
	RougeLsum Score // summary-level LCS: union LCS per reference line
}

// RougeOptions configures ROUGE.
type RougeOptions struct {
	// Stemmer applies NLTK's Porter stemmer (see Stem) to tokens longer
	// than three characters, as rouge-score's use_stemmer=True.
	// Default: true (the EuroExec headline setting, study.toml [text] stemmer).
	// Ignored when Unicode is set.
	Stemmer bool
	// Unicode tokenises words of any script instead of rouge-score's
	// [a-z0-9] runs, for languages other than English (see TokenizeUnicode);
	// no stemmer is applied. Off, ROUGE is rouge-score's, bit for bit.
	Unicode bool
}

// DefaultRougeOptions is the EuroExec default: stemming on.
var DefaultRougeOptions = RougeOptions{Stemmer: true}

// ScoreRouge scores hypothesis hyp against reference ref (rouge-score's
// score(target=ref, prediction=hyp)). A side without tokens gives all-zero
// scores, as in rouge-score.
func ScoreRouge(hyp, ref string, opt RougeOptions) Rouge {
	return NewRougeScorer([]string{ref}, opt).Score(hyp)
}

// ScoreRougeMulti scores hyp against several references the way
// rouge-score's score_multi does: for each of the four variants separately,
// the (P, R, F1) of the reference with the highest F1, the first such
// reference on ties. With no reference every value is NaN.
func ScoreRougeMulti(hyp string, refs []string, opt RougeOptions) Rouge {
	return NewRougeScorer(refs, opt).Score(hyp)
}

// RougeScorer scores many hypotheses against the same references: the
// references are tokenised (and stemmed) once. Score is safe for concurrent
// use; Reset is not (it must not run alongside Score).
//
// A scorer can be reused for another set of references with Reset, which
// keeps its memory: the buffers, and an intern table of the tokens it has
// seen with their stems, so that a token is stemmed once per scorer rather
// than once per reference set.
type RougeScorer struct {
	opt  RougeOptions
	in   rougeIntern // in.ids.n: vocabulary size of the current references (local ids 0..n-1)
	refs []rougeRef
	// tokBuf is Reset's token buffer.
	tokBuf []byte
	pool   sync.Pool // *rougeScratch
}

// rougeIntern maps the raw tokens a scorer has seen in references, over all
// its Reset calls, to final (stemmed) token ids, and final ids to the local
// ids of the current references (ids). Final ids only grow until the table
// is dropped (maxRougeIntern).
type rougeIntern struct {
	tok    map[string]int32 // raw token -> raw id
	fin    []int32          // raw id -> final id (-2: dropped token)
	finMap map[string]int32 // final token -> final id (stemmer only; else final id = raw id)
	ids    localIDs         // final id -> local id
}

// maxRougeIntern bounds the raw tokens a scorer keeps between Reset calls;
// past it the intern table starts afresh. A variable so that tests can
// exercise that path.
var maxRougeIntern = 1 << 17

type rougeRef struct {
	ids   []int32          // token ids of the whole text
	ends  []int            // end of each non-empty "\n" line in ids
	lines [][]int32        // token ids per non-empty "\n" line (sub-slices of ids)
	uni   []int32          // unigram counts per id (len = vocabulary size)
	bi    map[uint64]int32 // bigram counts, key id1<<32 | id2
}

type rougeScratch struct {
	eng    lcsEngine
	hypCnt []int32
	cntC   []int32
	cntR   []int32
	used   map[uint64]int32
	local  map[string]int32
	ids    []int32
	ends   []int
	lines  [][]int32
	tok    []byte
}

// NewRougeScorer prepares refs for scoring with opt.
func NewRougeScorer(refs []string, opt RougeOptions) *RougeScorer {
	if opt.Unicode {
		opt.Stemmer = false
	}
	s := &RougeScorer{opt: opt}
	s.pool.New = func() any { return &rougeScratch{} }
	s.Reset(refs)
	return s
}

// Reset prepares the scorer for scoring against refs instead of its current
// references, reusing its memory; the options stay. It must not be called
// while Score runs.
func (s *RougeScorer) Reset(refs []string) {
	in := &s.in
	if in.tok == nil || len(in.tok) > maxRougeIntern {
		in.tok = make(map[string]int32)
		in.fin = in.fin[:0]
		if s.opt.Stemmer {
			in.finMap = make(map[string]int32)
		}
		in.ids.drop()
	}
	in.ids.next()
	if cap(s.refs) < len(refs) {
		s.refs = append(s.refs[:cap(s.refs)], make([]rougeRef, len(refs)-cap(s.refs))...)
	}
	s.refs = s.refs[:len(refs)]
	for k, text := range refs {
		r := &s.refs[k]
		r.ids, r.ends = r.ids[:0], r.ends[:0]
		forEachRougeLine(text, func(line string) {
			s.tokBuf = s.forEachToken(line, s.tokBuf, func(tok []byte) {
				if id := s.refID(tok); id != -2 {
					r.ids = append(r.ids, id)
				}
			})
			r.ends = append(r.ends, len(r.ids))
		})
		r.lines = splitAt(r.lines[:0], r.ids, r.ends)
	}
	nv := s.in.ids.n
	for k := range s.refs {
		r := &s.refs[k]
		r.uni = resizeZero(r.uni, nv)
		for _, id := range r.ids {
			r.uni[id]++
		}
		if r.bi == nil || len(r.bi) > maxKeptMap {
			// A new map rather than clearing a big one, whose clear costs
			// its whole capacity on every later Reset.
			r.bi = make(map[uint64]int32, len(r.ids))
		} else {
			clear(r.bi)
		}
		for i := 1; i < len(r.ids); i++ {
			r.bi[uint64(r.ids[i-1])<<32|uint64(r.ids[i])]++
		}
	}
}

// maxKeptMap is the size past which Reset replaces an n-gram map instead of
// clearing it (a variable for the tests).
var maxKeptMap = 1 << 14

// resizeZero returns a slice of length n, all zero, reusing a's memory.
func resizeZero(a []int32, n int) []int32 {
	if cap(a) < n {
		return make([]int32, n)
	}
	a = a[:n]
	clear(a)
	return a
}

func (s *RougeScorer) finalToken(raw string) string {
	if s.opt.Stemmer && len(raw) > 3 {
		return Stem(raw)
	}
	return raw
}

// refID returns the local id of reference token tok (-2: dropped), growing
// the intern table and the vocabulary.
func (s *RougeScorer) refID(tok []byte) int32 {
	in := &s.in
	g, ok := in.tok[string(tok)]
	if !ok {
		key := string(tok)
		g = int32(len(in.fin))
		in.tok[key] = g
		f := g
		if s.opt.Stemmer {
			if fin := s.finalToken(key); fin == "" {
				f = -2 // dropped token (cannot happen for Porter stems)
			} else if f, ok = in.finMap[fin]; !ok {
				f = int32(len(in.finMap))
				in.finMap[fin] = f
			}
		}
		in.fin = append(in.fin, f)
		in.ids.grow(int(f) + 1)
	}
	f := in.fin[g]
	if f < 0 {
		return -2
	}
	return in.ids.assign(f)
}

// hypID returns the local id of hypothesis token tok: -1 when it is in no
// reference, -2 when dropped. It only reads the scorer.
func (s *RougeScorer) hypID(tok []byte, sc *rougeScratch) int32 {
	in := &s.in
	if g, ok := in.tok[string(tok)]; ok {
		f := in.fin[g]
		if f < 0 {
			return -2
		}
		if l, ok := in.ids.lookup(f); ok {
			return l
		}
		return -1 // its final token is in no current reference
	}
	id, ok := sc.local[string(tok)]
	if !ok {
		key := string(tok)
		id = -1
		if s.opt.Stemmer {
			// Its stem may be the stem of another reference token.
			if fin := s.finalToken(key); fin == "" {
				id = -2
			} else if f, ok := in.finMap[fin]; ok {
				if l, ok := in.ids.lookup(f); ok {
					id = l
				}
			}
		}
		sc.local[key] = id
	}
	return id
}

// splitAt appends to lines the sub-slices of ids ending at ends.
func splitAt(lines [][]int32, ids []int32, ends []int) [][]int32 {
	start := 0
	for _, e := range ends {
		lines = append(lines, ids[start:e:e])
		start = e
	}
	return lines
}

// tokenizeHyp tokenises a hypothesis against the fixed vocabulary; tokens
// absent from every reference get id -1 (they never match).
func (s *RougeScorer) tokenizeHyp(text string, sc *rougeScratch) ([]int32, [][]int32) {
	ids, ends := sc.ids[:0], sc.ends[:0]
	if sc.local == nil {
		sc.local = make(map[string]int32)
	} else {
		clear(sc.local)
	}
	forEachRougeLine(text, func(line string) {
		sc.tok = s.forEachToken(line, sc.tok, func(tok []byte) {
			if id := s.hypID(tok, sc); id != -2 {
				ids = append(ids, id)
			}
		})
		ends = append(ends, len(ids))
	})
	sc.ids, sc.ends = ids, ends
	sc.lines = splitAt(sc.lines[:0], ids, ends)
	return ids, sc.lines
}

// forEachToken is forEachRougeToken or, with Unicode, forEachUnicodeToken.
func (s *RougeScorer) forEachToken(text string, buf []byte, fn func(tok []byte)) []byte {
	if s.opt.Unicode {
		return forEachUnicodeToken(text, buf, fn)
	}
	return forEachRougeToken(text, buf, fn)
}

// Score scores hyp against the references (best reference per variant, as
// ScoreRougeMulti).
func (s *RougeScorer) Score(hyp string) Rouge {
	return s.score(hyp, false)
}

func (s *RougeScorer) score(hyp string, plainDP bool) Rouge {
	if len(s.refs) == 0 {
		nan := Score{math.NaN(), math.NaN(), math.NaN()}
		return Rouge{nan, nan, nan, nan}
	}
	sc := s.pool.Get().(*rougeScratch)
	defer s.pool.Put(sc)
	ids, lines := s.tokenizeHyp(hyp, sc)
	nv := s.in.ids.n
	if cap(sc.hypCnt) < nv {
		sc.hypCnt = make([]int32, nv)
	}
	hc := sc.hypCnt[:nv]
	clear(hc)
	for _, id := range ids {
		if id >= 0 {
			hc[id]++
		}
	}
	var best Rouge
	for k := range s.refs {
		r := s.scoreOne(&s.refs[k], ids, lines, hc, sc, plainDP)
		if k == 0 {
			best = r
			continue
		}
		// np.argmax keeps the first maximum.
		if r.Rouge1.F1 > best.Rouge1.F1 {
			best.Rouge1 = r.Rouge1
		}
		if r.Rouge2.F1 > best.Rouge2.F1 {
			best.Rouge2 = r.Rouge2
		}
		if r.RougeL.F1 > best.RougeL.F1 {
			best.RougeL = r.RougeL
		}
		if r.RougeLsum.F1 > best.RougeLsum.F1 {
			best.RougeLsum = r.RougeLsum
		}
	}
	return best
}

func fmeasure(p, r float64) float64 {
	if p+r > 0 {
		return 2 * p * r / (p + r)
	}
	return 0
}

func ratioScore(hits, nHyp, nRef int) Score {
	p := float64(hits) / float64(nHyp)
	r := float64(hits) / float64(nRef)
	return Score{p, r, fmeasure(p, r)}
}

func (s *RougeScorer) scoreOne(ref *rougeRef, ids []int32, lines [][]int32, hc []int32, sc *rougeScratch, plainDP bool) Rouge {
	var out Rouge
	// rouge-1: sum over reference unigrams of min(ref count, hyp count).
	inter := 0
	for id, c := range ref.uni {
		if c > 0 && hc[id] > 0 {
			inter += int(min(c, hc[id]))
		}
	}
	out.Rouge1 = ratioScore(inter, max(len(ids), 1), max(len(ref.ids), 1))
	// rouge-2.
	inter = 0
	if len(ids) > 1 && len(ref.ids) > 1 {
		if sc.used == nil {
			sc.used = make(map[uint64]int32)
		} else {
			clear(sc.used)
		}
		for i := 1; i < len(ids); i++ {
			a, b := ids[i-1], ids[i]
			if a < 0 || b < 0 {
				continue
			}
			key := uint64(a)<<32 | uint64(b)
			if c := ref.bi[key]; c > 0 && sc.used[key] < c {
				sc.used[key]++
				inter++
			}
		}
	}
	out.Rouge2 = ratioScore(inter, max(len(ids)-1, 1), max(len(ref.ids)-1, 1))
	if len(ids) == 0 || len(ref.ids) == 0 {
		return out // rougeL and rougeLsum are 0 when a side has no token
	}
	// rougeL.
	var l int
	if plainDP {
		l = LCSDP(ref.ids, ids)
	} else {
		l = sc.eng.lcsLength(ref.ids, ids, s.in.ids.n)
	}
	out.RougeL = ratioScore(l, len(ids), len(ref.ids))
	// rougeLsum.
	out.RougeLsum = ratioScore(s.lsumHits(ref, lines, hc, sc, plainDP), len(ids), len(ref.ids))
	return out
}

// lsumHits is rouge-score's _summary_level_lcs hit count: for each
// reference line, the union of the LCS index sets with every hypothesis
// line, counted in reference order while both remaining token counts
// (over the whole texts) are positive.
func (s *RougeScorer) lsumHits(ref *rougeRef, lines [][]int32, hc []int32, sc *rougeScratch, plainDP bool) int {
	nv := s.in.ids.n
	if cap(sc.cntC) < nv {
		sc.cntC = make([]int32, nv)
		sc.cntR = make([]int32, nv)
	}
	cntC, cntR := sc.cntC[:nv], sc.cntR[:nv]
	copy(cntC, hc)
	copy(cntR, ref.uni)
	hits := 0
	e := &sc.eng
	var markDP []bool
	for _, r := range ref.lines {
		if len(r) == 0 {
			continue
		}
		if plainDP {
			if cap(markDP) < len(r) {
				markDP = make([]bool, len(r))
			}
			markDP = markDP[:len(r)]
			clear(markDP)
			for _, c := range lines {
				unionLCSDP(r, c, markDP)
			}
			for i, ok := range markDP {
				if ok {
					t := r[i]
					if cntC[t] > 0 && cntR[t] > 0 {
						hits++
						cntC[t]--
						cntR[t]--
					}
				}
			}
			continue
		}
		e.setPattern(r, nv)
		if cap(e.mark) < e.w {
			e.mark = make([]uint64, e.w)
		}
		e.mark = e.mark[:e.w]
		clear(e.mark)
		for _, c := range lines {
			if len(c) > 0 {
				e.traceUnion(r, c)
			}
		}
		e.clearPattern(r)
		for wi, word := range e.mark {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				word &= word - 1
				t := r[wi<<6+b]
				if cntC[t] > 0 && cntR[t] > 0 {
					hits++
					cntC[t]--
					cntR[t]--
				}
			}
		}
	}
	return hits
}
