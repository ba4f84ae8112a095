package textsim

// This file is the oracle for the reusable scorers: the ROUGE and BLEU scorers,
// their tokenisers and helpers as they were before RougeScorer.Reset and
// BLEUScorer.Reset (a scorer per reference set, no memory reused), copied
// with an "old" prefix (comments inside functions dropped).

import (
	"math"
	"math/bits"
	"strings"
	"sync"
	"unicode/utf8"
)

// oldRougeScorer scores many hypotheses against the same references: the
// references are tokenised (and stemmed) once. It is safe for concurrent
// use.
type oldRougeScorer struct {
	opt   RougeOptions
	vocab map[string]int32
	raw   map[string]int32
	refs  []oldRougeRef
	pool  sync.Pool
}

type oldRougeRef struct {
	ids   []int32
	lines [][]int32
	uni   []int32
	bi    map[uint64]int32
}

type oldRougeScratch struct {
	eng    lcsEngine
	hypCnt []int32
	cntC   []int32
	cntR   []int32
	used   map[uint64]int32
	local  map[string]int32
	ids    []int32
}

// newOldRougeScorer prepares refs for scoring with opt.
func newOldRougeScorer(refs []string, opt RougeOptions) *oldRougeScorer {
	s := &oldRougeScorer{
		opt:   opt,
		vocab: make(map[string]int32),
		raw:   make(map[string]int32),
	}
	for _, text := range refs {
		var r oldRougeRef
		r.ids, r.lines = s.tokenizeRef(text)
		s.refs = append(s.refs, r)
	}
	nv := len(s.vocab)
	for k := range s.refs {
		r := &s.refs[k]
		r.uni = make([]int32, nv)
		for _, id := range r.ids {
			r.uni[id]++
		}
		r.bi = make(map[uint64]int32, len(r.ids))
		for i := 1; i < len(r.ids); i++ {
			r.bi[uint64(r.ids[i-1])<<32|uint64(r.ids[i])]++
		}
	}
	s.pool.New = func() any { return &oldRougeScratch{} }
	return s
}

func (s *oldRougeScorer) finalToken(raw string) string {
	if s.opt.Stemmer && len(raw) > 3 {
		return Stem(raw)
	}
	return raw
}

// tokenizeRef tokenises a reference, growing the vocabulary.
func (s *oldRougeScorer) tokenizeRef(text string) ([]int32, [][]int32) {
	var ids []int32
	var ends []int
	for _, line := range oldRougeLines(text) {
		oldForEachRougeToken(line, func(tok []byte) {
			id, ok := s.raw[string(tok)]
			if !ok {
				fin := s.finalToken(string(tok))
				if fin == "" {
					id = -2
				} else if id, ok = s.vocab[fin]; !ok {
					id = int32(len(s.vocab))
					s.vocab[fin] = id
				}
				s.raw[string(tok)] = id
			}
			if id != -2 {
				ids = append(ids, id)
			}
		})
		ends = append(ends, len(ids))
	}
	return ids, oldSplitAt(ids, ends)
}

func oldSplitAt(ids []int32, ends []int) [][]int32 {
	lines := make([][]int32, len(ends))
	start := 0
	for k, e := range ends {
		lines[k] = ids[start:e:e]
		start = e
	}
	return lines
}

// tokenizeHyp tokenises a hypothesis against the fixed vocabulary; tokens
// absent from every reference get id -1 (they never match).
func (s *oldRougeScorer) tokenizeHyp(text string, sc *oldRougeScratch) ([]int32, [][]int32) {
	ids := sc.ids[:0]
	var ends []int
	if sc.local == nil {
		sc.local = make(map[string]int32)
	} else {
		clear(sc.local)
	}
	for _, line := range oldRougeLines(text) {
		oldForEachRougeToken(line, func(tok []byte) {
			id, ok := s.raw[string(tok)]
			if !ok {
				id, ok = sc.local[string(tok)]
				if !ok {
					fin := s.finalToken(string(tok))
					if fin == "" {
						id = -2
					} else if id, ok = s.vocab[fin]; !ok {
						id = -1
					}
					sc.local[string(tok)] = id
				}
			}
			if id != -2 {
				ids = append(ids, id)
			}
		})
		ends = append(ends, len(ids))
	}
	sc.ids = ids
	return ids, oldSplitAt(ids, ends)
}

// Score scores hyp against the references (best reference per variant, as
// ScoreRougeMulti).
func (s *oldRougeScorer) Score(hyp string) Rouge {
	return s.score(hyp, false)
}

func (s *oldRougeScorer) score(hyp string, plainDP bool) Rouge {
	if len(s.refs) == 0 {
		nan := Score{math.NaN(), math.NaN(), math.NaN()}
		return Rouge{nan, nan, nan, nan}
	}
	sc := s.pool.Get().(*oldRougeScratch)
	defer s.pool.Put(sc)
	ids, lines := s.tokenizeHyp(hyp, sc)
	nv := len(s.vocab)
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

func (s *oldRougeScorer) scoreOne(ref *oldRougeRef, ids []int32, lines [][]int32, hc []int32, sc *oldRougeScratch, plainDP bool) Rouge {
	var out Rouge

	inter := 0
	for id, c := range ref.uni {
		if c > 0 && hc[id] > 0 {
			inter += int(min(c, hc[id]))
		}
	}
	out.Rouge1 = ratioScore(inter, max(len(ids), 1), max(len(ref.ids), 1))

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
		return out
	}

	var l int
	if plainDP {
		l = LCSDP(ref.ids, ids)
	} else {
		l = sc.eng.lcsLength(ref.ids, ids, len(s.vocab))
	}
	out.RougeL = ratioScore(l, len(ids), len(ref.ids))

	out.RougeLsum = ratioScore(s.lsumHits(ref, lines, hc, sc, plainDP), len(ids), len(ref.ids))
	return out
}

// lsumHits is rouge-score's _summary_level_lcs hit count: for each
// reference line, the union of the LCS index sets with every hypothesis
// line, counted in reference order while both remaining token counts
// (over the whole texts) are positive.
func (s *oldRougeScorer) lsumHits(ref *oldRougeRef, lines [][]int32, hc []int32, sc *oldRougeScratch, plainDP bool) int {
	nv := len(s.vocab)
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

// oldBLEUScorer scores many hypotheses against the same references (sentence
// BLEU): the references are tokenised and their n-grams counted once. It is
// safe for concurrent use.
type oldBLEUScorer struct {
	opt     BLEUOptions
	vocab   map[string]int32
	next    [maxOrder - 1]map[uint64]int32
	refMax  [maxOrder][]int32
	refLens []int
	pool    sync.Pool
}

type oldBleuScratch struct {
	used  [maxOrder][]int32
	grams [maxOrder][]int32
}

// newOldBLEUScorer prepares refs for sentence BLEU with opt.
func newOldBLEUScorer(refs []string, opt BLEUOptions) *oldBLEUScorer {
	s := &oldBLEUScorer{opt: opt, vocab: make(map[string]int32)}
	refIDs := make([][]int32, len(refs))
	total := 0
	for k, ref := range refs {
		var ids []int32
		oldForEach13aToken(ref, func(tok []byte) {
			id, ok := s.vocab[string(tok)]
			if !ok {
				id = int32(len(s.vocab))
				s.vocab[string(tok)] = id
			}
			ids = append(ids, id)
		})
		refIDs[k] = ids
		total += len(ids)
		s.refLens = append(s.refLens, len(ids))
	}
	for k := range s.next {
		s.next[k] = make(map[uint64]int32, total)
	}
	var cnt [maxOrder][]int32
	for _, ids := range refIDs {

		prev := ids
		var touched [maxOrder][]int32
		for n := 0; n < maxOrder; n++ {
			var cur []int32
			if n == 0 {
				cur = ids
			} else {
				m := s.next[n-1]
				for i := 0; i+1 < len(prev); i++ {
					key := uint64(prev[i])<<32 | uint64(ids[i+n])
					id, ok := m[key]
					if !ok {
						id = int32(len(m))
						m[key] = id
					}
					cur = append(cur, id)
				}
			}
			size := len(s.vocab)
			if n > 0 {
				size = len(s.next[n-1])
			}
			cnt[n] = oldGrowZero(cnt[n], size)
			s.refMax[n] = oldGrowZero(s.refMax[n], size)
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
	s.pool.New = func() any { return &oldBleuScratch{} }
	return s
}

// oldGrowZero returns a with length n, new elements zero.
func oldGrowZero(a []int32, n int) []int32 {
	for len(a) < n {
		a = append(a, 0)
	}
	return a
}

// Score returns the sentence BLEU of hyp against the references.
func (s *oldBLEUScorer) Score(hyp string) BLEU {
	if len(s.refLens) == 0 {
		return nanBLEU()
	}
	return computeBLEU(s.stats(hyp), s.opt)
}

// NRefs returns the number of references, for Signature.
func (s *oldBLEUScorer) NRefs() int { return len(s.refLens) }

func (s *oldBLEUScorer) stats(hyp string) bleuStats {
	var st bleuStats
	sc := s.pool.Get().(*oldBleuScratch)
	defer s.pool.Put(sc)

	ids := sc.grams[0][:0]
	oldForEach13aToken(hyp, func(tok []byte) {
		id, ok := s.vocab[string(tok)]
		if !ok {
			id = -1
		}
		ids = append(ids, id)
	})
	sc.grams[0] = ids
	st.sysLen = len(ids)
	st.refLen = closestRefLen(len(ids), s.refLens)
	if len(s.refLens) == 0 {
		st.refLen = 0
	}
	for n := 0; n < maxOrder; n++ {
		if len(ids) > n {
			st.total[n] = len(ids) - n
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
		used := oldGrowZero(sc.used[n][:0], len(s.refMax[n]))
		for _, id := range sc.grams[n] {
			if id >= 0 && used[id] < s.refMax[n][id] {
				used[id]++
				st.correct[n]++
			}
		}
		sc.used[n] = used
	}
	return st
}

// oldForEach13aToken calls fn with each 13a token of text (see Tokenize13a);
// the slice is only valid during the call.
func oldForEach13aToken(text string, fn func(tok []byte)) {
	line := pyRstrip(text)
	if strings.Contains(line, "<skipped>") {
		line = strings.ReplaceAll(line, "<skipped>", "")
	}
	if strings.Contains(line, "\n") {
		line = strings.ReplaceAll(line, "-\n", "")
		line = strings.ReplaceAll(line, "\n", " ")
	}
	if strings.Contains(line, "&") {
		line = strings.ReplaceAll(line, "&quot;", "\"")
		line = strings.ReplaceAll(line, "&amp;", "&")
		line = strings.ReplaceAll(line, "&lt;", "<")
		line = strings.ReplaceAll(line, "&gt;", ">")
	}
	forEachField(oldRegexp13a(line), fn)
}

// oldRegexp13a applies the four substitutions of sacrebleu's TokenizerRegexp
// to " " + line + " ", each a single left-to-right non-overlapping pass.
// Working on UTF-8 bytes is exact: every pattern matches ASCII characters
// only, except [^0-9], and a non-ASCII character matched by [^0-9] is
// copied through unchanged with the same spaces around it.
func oldRegexp13a(line string) []byte {

	a := make([]byte, 0, len(line)*2+8)
	a = append(a, ' ', ' ', ' ')
	for i := 0; i < len(line); i++ {
		c := line[i]
		if symbol13a[c] {
			a = append(a, ' ', c, ' ')
		} else {
			a = append(a, c)
		}
	}
	a = append(a, ' ', ' ', ' ')
	hasDot := strings.ContainsAny(line, ".,")
	if !hasDot && strings.IndexByte(line, '-') < 0 {
		return a
	}
	if !hasDot {
		return oldPass4(a, make([]byte, 0, len(a)+len(a)/4+8))
	}

	b := make([]byte, 0, len(a)+len(a)/4+8)
	for i := 0; i < len(a); {
		if i+1 < len(a) && !isDigit(a[i]) && (a[i+1] == '.' || a[i+1] == ',') {
			b = append(b, a[i], ' ', a[i+1], ' ')
			i += 2
			continue
		}
		b = append(b, a[i])
		i++
	}

	a = a[:0]
	for i := 0; i < len(b); {
		if i+1 < len(b) && (b[i] == '.' || b[i] == ',') && !isDigit(b[i+1]) {
			a = append(a, ' ', b[i], ' ', b[i+1])
			i += 2
			continue
		}
		a = append(a, b[i])
		i++
	}
	return oldPass4(a, b[:0])
}

// oldPass4 applies ([0-9])(-) -> "\1 \2 " to a, appending to b.
func oldPass4(a, b []byte) []byte {
	for i := 0; i < len(a); {
		if i+1 < len(a) && isDigit(a[i]) && a[i+1] == '-' {
			b = append(b, a[i], ' ', '-', ' ')
			i += 2
			continue
		}
		b = append(b, a[i])
		i++
	}
	return b
}

// oldForEachRougeToken calls fn with each raw (unstemmed) ROUGE token of text,
// lower-cased; the slice passed to fn is only valid during the call.
func oldForEachRougeToken(text string, fn func(tok []byte)) {
	var buf [64]byte
	tok := buf[:0]
	flush := func() {
		if len(tok) > 0 {
			fn(tok)
			tok = tok[:0]
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
				tok = append(tok, c)
			case c >= 'A' && c <= 'Z':
				tok = append(tok, c+('a'-'A'))
			default:
				flush()
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch r {
		case '\u0130':
			tok = append(tok, 'i')
			flush()
		case '\u212A':
			tok = append(tok, 'k')
		default:
			flush()
		}
	}
	flush()
}

// oldRougeLines splits text into rougeLsum's "sentences": on "\n" only, with
// empty lines dropped (a line of spaces stays and tokenises to nothing).
func oldRougeLines(text string) []string {
	parts := strings.Split(text, "\n")
	out := parts[:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}
