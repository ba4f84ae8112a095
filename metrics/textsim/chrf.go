package textsim

import (
	"fmt"
	"math"
	"sync"
	"unicode/utf8"
)

// chrF constants: sacrebleu's defaults, fixed here.
const (
	chrfCharOrder = 6 // character n-gram orders 1–6
	chrfMaxWord   = 2 // word n-gram orders supported (chrF++ uses 2)
	chrfOrders    = chrfCharOrder + chrfMaxWord
)

// CHRFOptions configures chrF. Character order 6, β = 2, no lower-casing,
// whitespace excluded and effective-order averaging (sacrebleu's defaults)
// are fixed.
type CHRFOptions struct {
	// WordOrder is the word n-gram order: 0 for chrF (sacrebleu's
	// default), 2 for chrF++. Values outside 0–2 give NaN scores.
	WordOrder int
}

// CHRFStats are sacrebleu's chrF sufficient statistics of one segment (or,
// added up, of a corpus): for each order, character orders 1–6 then word
// orders 1–2, the hypothesis n-gram count, the reference n-gram count and
// the matches, flattened as sacrebleu flattens them. Orders beyond the
// options' word order stay 0.
type CHRFStats [3 * chrfOrders]int

// Add adds o to s.
func (s *CHRFStats) Add(o CHRFStats) {
	for i := range s {
		s[i] += o[i]
	}
}

// Signature returns sacrebleu's chrF signature for nrefs references per
// segment (nrefs < 0 prints "var"), for example
// "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0".
func (o CHRFOptions) Signature(nrefs int) string {
	n := "var"
	if nrefs >= 0 {
		n = fmt.Sprint(nrefs)
	}
	return fmt.Sprintf("nrefs:%s|case:mixed|eff:yes|nc:%d|nw:%d|space:no|version:%s", n, chrfCharOrder, o.WordOrder, SacreBLEUVersion)
}

func (o CHRFOptions) valid() bool { return o.WordOrder >= 0 && o.WordOrder <= chrfMaxWord }

// CHRFFromStats is sacrebleu's CHRF._compute_f_score (β = 2, effective
// order, no ε smoothing) on st, 0–100: the mean precision and mean recall
// over the orders where both sides have n-grams, combined as F2. Summed
// segment statistics give the corpus chrF.
func CHRFFromStats(st CHRFStats, opt CHRFOptions) float64 {
	if !opt.valid() {
		return math.NaN()
	}
	return chrfF(st[:3*(chrfCharOrder+opt.WordOrder)])
}

func chrfF(st []int) float64 {
	const eps = 1e-16
	var avgP, avgR float64
	eff := 0
	for i := 0; i+2 < len(st); i += 3 {
		nHyp, nRef, nMatch := st[i], st[i+1], st[i+2]
		prec, rec := eps, eps
		if nHyp > 0 {
			prec = float64(nMatch) / float64(nHyp)
		}
		if nRef > 0 {
			rec = float64(nMatch) / float64(nRef)
		}
		if nHyp > 0 && nRef > 0 {
			avgP += prec
			avgR += rec
			eff++
		}
	}
	if eff == 0 {
		avgP, avgR = 0, 0
	} else {
		avgP /= float64(eff)
		avgR /= float64(eff)
	}
	if avgP+avgR == 0 {
		return 0
	}
	// (1+β²)·P·R / (β²·P + R), left to right as in Python; the explicit
	// conversions forbid fused multiply-adds.
	score := float64(float64(5*avgP) * avgR)
	score /= float64(4*avgP) + avgR
	return 100 * score
}

// SentenceCHRF is sacrebleu.sentence_chrf(hyp, refs) (word order 0) or,
// with WordOrder 2, chrF++: the statistics of the reference with the best
// F score (the first on ties). No reference gives NaN.
func SentenceCHRF(hyp string, refs []string, opt CHRFOptions) float64 {
	return NewCHRFScorer(refs, opt).Score(hyp)
}

// CorpusCHRF is sacrebleu.corpus_chrf(hyps, refs): refs[k][i] is the k-th
// reference of hyps[i]; per segment the best reference's statistics, summed
// over segments, then one F score. No segment or no stream gives NaN.
func CorpusCHRF(hyps []string, refs [][]string, opt CHRFOptions) (float64, CHRFStats, error) {
	var tot CHRFStats
	for k, s := range refs {
		if len(s) != len(hyps) {
			return math.NaN(), tot, fmt.Errorf("textsim: corpus chrF: reference stream %d has %d segments, want %d (one per hypothesis)", k, len(s), len(hyps))
		}
	}
	if len(hyps) == 0 || len(refs) == 0 {
		return math.NaN(), tot, nil
	}
	seg := make([]string, len(refs))
	var s *CHRFScorer
	for i, h := range hyps {
		for k := range refs {
			seg[k] = refs[k][i]
		}
		if s == nil {
			s = NewCHRFScorer(seg, opt)
		} else {
			s.Reset(seg)
		}
		tot.Add(s.Stats(h))
	}
	return CHRFFromStats(tot, opt), tot, nil
}

// CHRFScorer scores many hypotheses against the same references (chrF or
// chrF++). The references' n-grams are counted once; an n-gram of order
// n+1 gets an id only when its order-n prefix has one, so a hypothesis
// position stops being looked up at the first order whose n-gram no
// reference has. Score and Stats are safe for concurrent use; Reset is not.
type CHRFScorer struct {
	opt    CHRFOptions
	nOrd   int                          // orders in use: 6 + WordOrder
	chars  map[rune]int32               // character → 1-gram id
	words  map[string]int32             // word → word 1-gram id
	next   [chrfOrders]map[uint64]int32 // order n+1 id keyed by (order n id, unit id); [0] unused
	refCnt [][chrfOrders][]int32        // per reference, per order, count per id
	refTot [][chrfOrders]int            // per reference, n-grams per order
	nIDs   [chrfOrders]int              // ids per order
	bufR   []rune                       // Reset scratch
	bufW   []int32                      // Reset scratch
	prev   []int32                      // Reset scratch
	pool   sync.Pool                    // *chrfScratch
}

type chrfScratch struct {
	runes   []rune
	units   []int32
	ids     []int32
	cnt     [chrfOrders][]int32
	touched [chrfOrders][]int32
}

// NewCHRFScorer prepares refs for chrF with opt.
func NewCHRFScorer(refs []string, opt CHRFOptions) *CHRFScorer {
	s := &CHRFScorer{opt: opt, nOrd: chrfCharOrder + max(0, min(opt.WordOrder, chrfMaxWord)),
		chars: map[rune]int32{}, words: map[string]int32{}}
	for n := 1; n < chrfOrders; n++ {
		s.next[n] = map[uint64]int32{}
	}
	s.pool.New = func() any { return &chrfScratch{} }
	s.Reset(refs)
	return s
}

// NRefs returns the number of references, for Signature.
func (s *CHRFScorer) NRefs() int { return len(s.refTot) }

// chrfChars appends the characters of text without Python whitespace
// (sacrebleu's ”.join(line.split())).
func chrfChars(dst []rune, text string) []rune {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if !asciiPySpace[c] {
				dst = append(dst, rune(c))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isPySpace(r) {
			dst = append(dst, r)
		}
		i += size
	}
	return dst
}

// chrfPuncts is string.punctuation, chrF++'s punctuation set.
var chrfPuncts = func() (t [128]bool) {
	for _, c := range "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~" {
		t[c] = true
	}
	return t
}()

// chrfWords calls fn with sacrebleu's CHRF._remove_punctuation words of
// text: split on whitespace; a word of two or more characters ending in an
// ASCII punctuation mark loses it to a word of its own, else one starting
// with such a mark does.
func chrfWords(text string, fn func(w string)) {
	b := []byte(text)
	forEachField(b, func(tok []byte) {
		w := string(tok)
		if utf8.RuneCountInString(w) == 1 {
			fn(w)
			return
		}
		last, first := w[len(w)-1], w[0]
		switch {
		case last < 128 && chrfPuncts[last]:
			fn(w[:len(w)-1])
			fn(w[len(w)-1:])
		case first < 128 && chrfPuncts[first]:
			fn(w[:1])
			fn(w[1:])
		default:
			fn(w)
		}
	})
}

// Reset prepares the scorer for refs, keeping its memory and options. It
// must not be called while Score or Stats runs.
func (s *CHRFScorer) Reset(refs []string) {
	clear(s.chars)
	clear(s.words)
	for n := 1; n < chrfOrders; n++ {
		clear(s.next[n])
	}
	s.nIDs = [chrfOrders]int{}
	if cap(s.refCnt) < len(refs) {
		s.refCnt = append(s.refCnt[:cap(s.refCnt)], make([][chrfOrders][]int32, len(refs)-cap(s.refCnt))...)
	}
	s.refCnt = s.refCnt[:len(refs)]
	s.refTot = s.refTot[:0]
	for k, ref := range refs {
		var tot [chrfOrders]int
		s.bufR = chrfChars(s.bufR[:0], ref)
		units := s.bufW[:0]
		for _, r := range s.bufR {
			id, ok := s.chars[r]
			if !ok {
				id = int32(len(s.chars))
				s.chars[r] = id
			}
			units = append(units, id)
		}
		s.nIDs[0] = len(s.chars)
		s.refOrders(k, &tot, units, 0, chrfCharOrder)
		if s.nOrd > chrfCharOrder {
			units = units[:0]
			chrfWords(ref, func(w string) {
				id, ok := s.words[w]
				if !ok {
					id = int32(len(s.words))
					s.words[w] = id
				}
				units = append(units, id)
			})
			s.nIDs[chrfCharOrder] = len(s.words)
			s.refOrders(k, &tot, units, chrfCharOrder, s.nOrd)
		}
		s.bufW = units
		s.refTot = append(s.refTot, tot)
	}
	// Counts of earlier references were sized before later references
	// added ids: grow them all to the final sizes.
	for k := range s.refCnt {
		for n := 0; n < s.nOrd; n++ {
			s.refCnt[k][n] = growZero(s.refCnt[k][n], s.nIDs[n])
		}
	}
}

// refOrders counts reference k's n-grams of orders lo..hi-1 over units
// (order lo is the units themselves), giving new n-grams ids.
func (s *CHRFScorer) refOrders(k int, tot *[chrfOrders]int, units []int32, lo, hi int) {
	cur := append(s.prev[:0], units...)
	for n := lo; n < hi; n++ {
		if n > lo {
			m := s.next[n]
			w := n - lo
			j := 0
			for i := 0; i+1 < len(cur) && i+w < len(units); i++ {
				key := uint64(uint32(cur[i]))<<32 | uint64(uint32(units[i+w]))
				id, ok := m[key]
				if !ok {
					id = int32(len(m))
					m[key] = id
				}
				cur[j] = id
				j++
			}
			cur = cur[:j]
			s.nIDs[n] = len(m)
		}
		c := growZero(s.refCnt[k][n][:0], s.nIDs[n])
		clear(c)
		for _, id := range cur {
			c[id]++
		}
		s.refCnt[k][n] = c
		tot[n] = len(cur)
	}
	s.prev = cur
}

// hypOrders fills sc.cnt/sc.touched for orders lo..hi-1 of units (ids of
// the reference units, -1 for unknown) and returns the n-gram totals.
func (s *CHRFScorer) hypOrders(sc *chrfScratch, units []int32, lo, hi int, tot *[chrfOrders]int) {
	cur := append(sc.ids[:0], units...)
	for n := lo; n < hi; n++ {
		w := n - lo
		if len(units) > w {
			tot[n] = len(units) - w
		}
		if n > lo {
			m := s.next[n]
			l := len(units) - w
			for i := 0; i < l; i++ {
				id := int32(-1)
				if cur[i] >= 0 && units[i+w] >= 0 {
					if v, ok := m[uint64(uint32(cur[i]))<<32|uint64(uint32(units[i+w]))]; ok {
						id = v
					}
				}
				cur[i] = id
			}
			cur = cur[:max(l, 0)]
		}
		c := growZero(sc.cnt[n], s.nIDs[n])
		t := sc.touched[n][:0]
		for _, id := range cur {
			if id >= 0 {
				if c[id] == 0 {
					t = append(t, id)
				}
				c[id]++
			}
		}
		sc.cnt[n], sc.touched[n] = c, t
	}
	sc.ids = cur
}

// perRef fills out[k] with hyp's per-order statistics against reference
// k, flattened as CHRFStats.
func (s *CHRFScorer) perRef(hyp string, sc *chrfScratch, out []CHRFStats) {
	var tot [chrfOrders]int
	sc.runes = chrfChars(sc.runes[:0], hyp)
	units := sc.units[:0]
	for _, r := range sc.runes {
		id, ok := s.chars[r]
		if !ok {
			id = -1
		}
		units = append(units, id)
	}
	s.hypOrders(sc, units, 0, chrfCharOrder, &tot)
	if s.nOrd > chrfCharOrder {
		units = units[:0]
		chrfWords(hyp, func(w string) {
			id, ok := s.words[w]
			if !ok {
				id = -1
			}
			units = append(units, id)
		})
		s.hypOrders(sc, units, chrfCharOrder, s.nOrd, &tot)
	}
	sc.units = units
	for k := range out {
		var st CHRFStats
		for n := 0; n < s.nOrd; n++ {
			rc := s.refCnt[k][n]
			match := 0
			for _, id := range sc.touched[n] {
				match += int(min(sc.cnt[n][id], rc[id]))
			}
			if s.refTot[k][n] > 0 {
				st[3*n] = tot[n]
			}
			st[3*n+1] = s.refTot[k][n]
			st[3*n+2] = match
		}
		out[k] = st
	}
	for n := 0; n < s.nOrd; n++ {
		for _, id := range sc.touched[n] {
			sc.cnt[n][id] = 0
		}
	}
}

// best returns the statistics of the reference with the highest F over
// the first orders orders (the first on ties), as sacrebleu selects.
func best(per []CHRFStats, orders int) CHRFStats {
	var b CHRFStats
	bestF := -1.0
	for _, st := range per {
		if f := chrfF(st[:3*orders]); f > bestF {
			bestF, b = f, st
		}
	}
	for i := 3 * orders; i < len(b); i++ {
		b[i] = 0
	}
	return b
}

// Stats returns hyp's statistics for the scorer's options: those of the
// best reference.
func (s *CHRFScorer) Stats(hyp string) CHRFStats {
	_, st := s.StatsPair(hyp)
	return st
}

// StatsPair returns hyp's chrF statistics (word order 0, best reference by
// chrF) and its statistics with the scorer's word order (best reference by
// that F) from one pass over the hypothesis, so that chrF and chrF++ cost
// one extraction. With WordOrder 0 both are the same.
func (s *CHRFScorer) StatsPair(hyp string) (chrf, withWords CHRFStats) {
	if len(s.refTot) == 0 {
		return
	}
	sc := s.pool.Get().(*chrfScratch)
	defer s.pool.Put(sc)
	var one [1]CHRFStats
	per := one[:]
	if len(s.refTot) > 1 {
		per = make([]CHRFStats, len(s.refTot))
	}
	s.perRef(hyp, sc, per)
	return best(per, chrfCharOrder), best(per, s.nOrd)
}

// Score returns hyp's sentence chrF (or chrF++) against the references;
// NaN without references or with invalid options.
func (s *CHRFScorer) Score(hyp string) float64 {
	if len(s.refTot) == 0 || !s.opt.valid() {
		return math.NaN()
	}
	return CHRFFromStats(s.Stats(hyp), s.opt)
}
