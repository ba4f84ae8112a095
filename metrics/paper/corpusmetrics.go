package paper

import (
	"math"
	"sort"
	"time"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/metrics/textsim"
)

// Layout of segStats: sacrebleu's sufficient statistics of one response
// (segment) as int32: BLEU's lengths and n-gram counts, chrF's 18 and
// chrF++'s 24 statistics.
const (
	segBLEU   = 0            // sys_len, ref_len, correct[4], total[4]
	segCHRF   = segBLEU + 10 // chrF (word order 0): 6 × (hyp, ref, match)
	segCHRFPP = segCHRF + 18 // chrF++ (word order 2): 8 × (hyp, ref, match)
	segDims   = segCHRFPP + 24
)

type segStats [segDims]int32

// packSeg stores one response's statistics.
func packSeg(b textsim.BLEUStats, c0, c2 textsim.CHRFStats) segStats {
	var s segStats
	s[0], s[1] = int32(b.SysLen), int32(b.RefLen)
	for n := range 4 {
		s[2+n], s[6+n] = int32(b.Correct[n]), int32(b.Total[n])
	}
	for i := range 18 {
		s[segCHRF+i] = int32(c0[i])
	}
	for i := range 24 {
		s[segCHRFPP+i] = int32(c2[i])
	}
	return s
}

// corpusScores turns summed statistics (int64 sums of segStats) into corpus
// BLEU, chrF and chrF++.
func corpusScores(sum []int64, bleu textsim.BLEUOptions) (b, c, cpp float64) {
	var bs textsim.BLEUStats
	bs.SysLen, bs.RefLen = int(sum[0]), int(sum[1])
	for n := range 4 {
		bs.Correct[n], bs.Total[n] = int(sum[2+n]), int(sum[6+n])
	}
	var c0, c2 textsim.CHRFStats
	for i := range 18 {
		c0[i] = int(sum[segCHRF+i])
	}
	for i := range 24 {
		c2[i] = int(sum[segCHRFPP+i])
	}
	return textsim.BLEUFromStats(bs, bleu).Score, textsim.CHRFFromStats(c0, textsim.CHRFOptions{}),
		textsim.CHRFFromStats(c2, textsim.CHRFOptions{WordOrder: 2})
}

// corpusSet is one set of corpus_metrics: the positions (in scores) of its
// questions.
type corpusSet struct {
	name string
	jobs []int
}

// corpusSets are "all" and, when the questions carry a "set" tag, one set
// per value (in order of first appearance).
func (a *run) corpusSets(scores [][]textScore) []corpusSet {
	all := corpusSet{name: setAll}
	var byTag []corpusSet
	pos := map[string]int{}
	for i, qs := range scores {
		if len(qs) == 0 {
			continue
		}
		all.jobs = append(all.jobs, i)
		for _, t := range a.p.s.Questions[qs[0].q].Tags {
			if t.Key != "set" || t.Value == setAll {
				continue
			}
			k, ok := pos[t.Value]
			if !ok {
				k = len(byTag)
				pos[t.Value] = k
				byTag = append(byTag, corpusSet{name: t.Value})
			}
			byTag[k].jobs = append(byTag[k].jobs, i)
			break
		}
	}
	return append([]corpusSet{all}, byTag...)
}

// primaryOrder orders models best first by the report's primary metric
// (Options.Primary: Solve Rate by default, else the mean rubric — lowest
// first on a lower-is-better scale — or the checklist rate; humans, set
// all); models without it follow in the order of fallback (descending),
// ties by model name.
func (a *run) primaryOrder(models []int, fallback func(m int) float64) []int {
	val := map[int]float64{}
	lower := false
	for _, o := range a.stats(setAll, -1) {
		v := o.solve
		switch a.opt.Primary {
		case "rubric":
			v, lower = o.rubric, a.p.s.LowerIsBetter
		case "checklist":
			v = o.checklist
		}
		val[o.model] = v
	}
	out := append([]int(nil), models...)
	key := func(m int) (bool, float64) {
		v, ok := val[m]
		if !ok || math.IsNaN(v) {
			return false, fallback(m)
		}
		if lower {
			v = -v
		}
		return true, v
	}
	sort.SliceStable(out, func(i, j int) bool {
		hi, vi := key(out[i])
		hj, vj := key(out[j])
		if hi != hj {
			return hi
		}
		if vi != vj && !(math.IsNaN(vi) && math.IsNaN(vj)) {
			if math.IsNaN(vi) || math.IsNaN(vj) {
				return !math.IsNaN(vi)
			}
			return vi > vj
		}
		return a.p.s.Models[out[i]].Name < a.p.s.Models[out[j]].Name
	})
	return out
}

// corpusMetricsOff leaves corpus_metrics out (Table 7's corpus columns
// NaN), and corpusClock, when set, is read before and after corpusMetrics
// (the time between added to corpusSpent): only BenchmarkTextStage40k sets
// them, to measure what the table adds to the text-metric stage.
var (
	corpusMetricsOff = false
	corpusClock      func() time.Duration
	corpusSpent      time.Duration
)

// corpusFig are one model's corpus figures on set all, for Table 7.
type corpusFig struct{ bleu, chrf, chrfPP float64 }

// corpusMetrics builds corpus_metrics: per set and model the corpus BLEU,
// chrF and chrF++ of the model's responses, as sacrebleu's corpus_bleu and
// corpus_chrf compute them (statistics summed over segments), with 95 %
// percentile intervals from a paired cluster bootstrap over the set's
// questions (every model resampled with the same draws) that resamples
// the per-segment statistics (stats.ClusterBootstrapCountBlocks), never the
// texts. It returns the figures of set all by model.
func (a *run) corpusMetrics(scores [][]textScore, refs [][]string, ts textSetup) map[int]corpusFig {
	p := a.p
	if corpusMetricsOff {
		return nil
	}
	if corpusClock != nil {
		t0 := corpusClock()
		defer func() { corpusSpent += corpusClock() - t0 }()
	}
	nrefs := -2 // references per question: -2 none seen, -1 varying
	for _, qs := range scores {
		if len(qs) == 0 {
			continue
		}
		switch k := len(refs[qs[0].q]); {
		case nrefs == -2:
			nrefs = k
		case nrefs != k:
			nrefs = -1
		}
	}
	bleuSig, chrfSig, chrfPPSig := ts.corpBLEU.Signature(nrefs), textsim.CHRFOptions{}.Signature(nrefs), textsim.CHRFOptions{WordOrder: 2}.Signature(nrefs)
	rows := []CorpusRow{}
	nM := p.nM()
	out := map[int]corpusFig{}
	for _, set := range a.corpusSets(scores) {
		if a.ctx.Err() != nil {
			return out
		}
		// The set's responses: question position c in the set, model, stats.
		cells := make([]segCell, 0, len(set.jobs)*nM)
		sum := make([]int64, nM*(segDims+1)) // per model: segments, then summed statistics
		sb, sc := make([]float64, nM), make([]float64, nM)
		for c, i := range set.jobs {
			for k := range scores[i] {
				s := &scores[i][k]
				cells = append(cells, segCell{c: int32(c), m: int32(s.m), s: &s.seg})
				sm := sum[s.m*(segDims+1):]
				sm[0]++
				for x, v := range s.seg {
					sm[1+x] += int64(v)
				}
				sb[s.m] += s.bleu
				sc[s.m] += s.chrf
			}
		}
		var models []int
		point := make([]corpusFig, nM)
		const d = segDims + 1
		for m := 0; m < nM; m++ {
			if sum[m*d] > 0 {
				models = append(models, m)
				b, c, cpp := corpusScores(sum[m*d+1:(m+1)*d], ts.corpBLEU)
				point[m] = corpusFig{b, c, cpp}
			}
		}
		reps := a.corpusBootstrap(len(set.jobs), nM, cells, ts.corpBLEU)
		for _, m := range a.primaryOrder(models, func(m int) float64 { return point[m].bleu }) {
			n := sum[m*d]
			blo, bhi := a.interval(reps, 3*m)
			clo, chi := a.interval(reps, 3*m+1)
			plo, phi := a.interval(reps, 3*m+2)
			f := point[m]
			rows = append(rows, CorpusRow{Set: set.name, Model: p.s.Models[m].Name, N: n, BLEU: f.bleu, BLEULo: blo, BLEUHi: bhi,
				ChrF: f.chrf, ChrFLo: clo, ChrFHi: chi, ChrFPP: f.chrfPP, ChrFPPLo: plo, ChrFPPHi: phi,
				MeanSentenceBLEU: sb[m] / float64(n), MeanSentenceChrF: sc[m] / float64(n),
				BLEUSignature: bleuSig, ChrFSignature: chrfSig, ChrFPPSignature: chrfPPSig})
			if set.name == setAll {
				out[m] = f
			}
		}
	}
	a.res.Text.Corpus = rows
	return out
}

// Compact statistics of a "regular" segment: one whose full statistics
// follow from 19 numbers, because every n-gram total is its length minus
// n−1 (hypothesis of at least 4 BLEU tokens, 6 characters and 2 words;
// reference of at least 6 characters and 2 words; chrF++ picking the same
// reference as chrF). Summed over segments the totals are the summed
// lengths minus n−1 times the number of segments (cOne), so a replicate
// sums 19 numbers per response instead of 53. Whether a segment is regular
// is checked by expanding its compact form and comparing, not assumed.
const (
	cOne   = 0
	cSys   = 1  // BLEU sys_len
	cRef   = 2  // BLEU ref_len
	cCor   = 3  // BLEU correct[4]
	cLh    = 7  // chrF hypothesis characters
	cLr    = 8  // chrF reference characters
	cMatch = 9  // chrF matches, orders 1–6
	cWh    = 15 // chrF++ hypothesis words
	cWr    = 16 // chrF++ reference words
	cWM    = 17 // chrF++ word matches, orders 1–2
	cDims  = 19
)

// compactSeg returns the compact form of s (meaningful when regular).
func compactSeg(s *segStats) (c [cDims]int64) {
	c[cOne], c[cSys], c[cRef] = 1, int64(s[0]), int64(s[1])
	for n := range 4 {
		c[cCor+n] = int64(s[2+n])
	}
	c[cLh], c[cLr] = int64(s[segCHRF]), int64(s[segCHRF+1])
	for n := range 6 {
		c[cMatch+n] = int64(s[segCHRF+3*n+2])
	}
	c[cWh], c[cWr] = int64(s[segCHRFPP+18]), int64(s[segCHRFPP+19])
	c[cWM], c[cWM+1] = int64(s[segCHRFPP+20]), int64(s[segCHRFPP+23])
	return c
}

// expandSeg turns summed compact statistics back into summed full ones.
func expandSeg(c []int64, full []int64) {
	one := c[cOne]
	full[0], full[1] = c[cSys], c[cRef]
	for n := range 4 {
		full[2+n] = c[cCor+n]
		full[6+n] = c[cSys] - int64(n)*one
	}
	for n := range 6 {
		k := int64(n) * one
		full[segCHRF+3*n], full[segCHRF+3*n+1], full[segCHRF+3*n+2] = c[cLh]-k, c[cLr]-k, c[cMatch+n]
		copy(full[segCHRFPP+3*n:segCHRFPP+3*n+3], full[segCHRF+3*n:segCHRF+3*n+3])
	}
	for k := range 2 {
		o := int64(k) * one
		full[segCHRFPP+18+3*k], full[segCHRFPP+19+3*k], full[segCHRFPP+20+3*k] = c[cWh]-o, c[cWr]-o, c[cWM+k]
	}
}

// regularSeg reports whether s equals the expansion of its compact form.
func regularSeg(s *segStats) bool {
	c := compactSeg(s)
	var full [segDims]int64
	expandSeg(c[:], full[:])
	for i, v := range s {
		if int64(v) != full[i] {
			return false
		}
	}
	return true
}

// irregularSeg is a segment that is summed with its full statistics.
type irregularSeg struct {
	c, m int
	v    [segDims]int64
}

// lanePack packs the compact statistics of a response into 64-bit words
// of lanes lanes each (4 × 16, 3 × 21 or 2 × 32 bits), so that one multiply
// and add sums lanes numbers. A lane sum must stay below limit: each
// replicate's running bound (its drawn weights times the largest value
// maxV) is checked before a question is added, and the lanes are emptied
// into int64 sums first when the bound would pass it; a single draw whose
// weight alone could pass it is added to the int64 sums directly. Exact for
// any data.
type lanePack struct {
	lanes, width int
	words        int // words per response: ceil(cDims / lanes)
	mask, limit  uint64
	maxV         uint64
}

// newLanePack picks the most lanes that hold 16 draws of maxV; ok is false
// when not even 32-bit lanes do.
func newLanePack(maxV int64) (lanePack, bool) {
	for _, l := range []int{4, 3, 2} {
		w := 64 / l
		mask := uint64(1)<<w - 1
		if uint64(maxV)*16 <= mask {
			return lanePack{lanes: l, width: w, words: (cDims + l - 1) / l, mask: mask, limit: mask, maxV: uint64(maxV)}, true
		}
	}
	return lanePack{}, false
}

// pack writes compact statistics c into dst (lp.words words, zero).
func (lp *lanePack) pack(dst []uint64, c *[cDims]int64) {
	for i, x := range c {
		dst[i/lp.lanes] |= uint64(x) << (lp.width * (i % lp.lanes))
	}
}

// unpackAdd adds w times the lanes of src (one response's lp.words words)
// to dst (cDims sums).
func (lp *lanePack) unpackAdd(dst []int64, src []uint64, w int64) {
	i := 0
	for _, x := range src[:lp.words] {
		for l := 0; l < lp.lanes && i < cDims; l++ {
			dst[i] += w * int64(x&lp.mask)
			x >>= lp.width
			i++
		}
	}
}

// sumBlock sums, for each replicate b of a block of nb, the packed
// statistics of nQ questions × nM models weighted by cnt[c·nb+b] into wide
// ([b][m][cDims] int64, added to); acc (nb·nM·words) and bound (nb) are
// scratch.
func (lp *lanePack) sumBlock(packed []uint64, nQ, nM int, cnt []int32, nb int, acc []uint64, bound []uint64, wide []int64) {
	row := nM * lp.words
	clear(acc)
	clear(bound)
	flush := func(b int) {
		ac := acc[b*row : (b+1)*row]
		for m := 0; m < nM; m++ {
			lp.unpackAdd(wide[(b*nM+m)*cDims:(b*nM+m+1)*cDims], ac[m*lp.words:(m+1)*lp.words], 1)
		}
		clear(ac)
		bound[b] = 0
	}
	for c := 0; c < nQ; c++ {
		v := packed[c*row : (c+1)*row]
		for b, w := range cnt[c*nb : (c+1)*nb] {
			if w == 0 {
				continue
			}
			add := uint64(w) * lp.maxV
			if bound[b]+add > lp.limit {
				flush(b)
				if add > lp.limit { // this draw alone could overflow a lane
					for m := 0; m < nM; m++ {
						lp.unpackAdd(wide[(b*nM+m)*cDims:(b*nM+m+1)*cDims], v[m*lp.words:(m+1)*lp.words], int64(w))
					}
					continue
				}
			}
			bound[b] += add
			ac := acc[b*row : (b+1)*row]
			uw := uint64(w)
			ac = ac[:len(v)]
			for i, x := range v {
				ac[i] += uw * x
			}
		}
	}
	for b := 0; b < nb; b++ {
		flush(b)
	}
}

// segCell is one response of a corpus_metrics set: its question's position
// in the set, its model and its statistics.
type segCell struct {
	c, m int32
	s    *segStats
}

// corpusBootstrap resamples the nQ questions of a set's responses (cells)
// Options.Bootstrap times with the same draws for every model and returns
// per replicate, for model m, corpus BLEU, chrF and chrF++ in columns 3m,
// 3m+1, 3m+2 (NaN for a model without a drawn response); nil without
// replicates. Regular segments are summed in compact form in packed lanes
// (lanePack), the others in full.
func (a *run) corpusBootstrap(nQ, nM int, cells []segCell, bleu textsim.BLEUOptions) [][]float64 {
	if a.opt.Bootstrap <= 0 || nQ == 0 || a.ctx.Err() != nil {
		return nil
	}
	const d = segDims + 1
	var irr []irregularSeg
	var reg []segCell
	var maxV int64
	toIrr := func(x segCell) {
		is := irregularSeg{c: int(x.c), m: int(x.m)}
		for i, v := range x.s {
			is.v[i] = int64(v)
		}
		irr = append(irr, is)
	}
	for _, x := range cells {
		if !regularSeg(x.s) {
			toIrr(x)
			continue
		}
		reg = append(reg, x)
		for _, v := range compactSeg(x.s) {
			maxV = max(maxV, v)
		}
	}
	lp, ok := newLanePack(maxV)
	if !ok { // values too large for lanes: sum every segment in full
		for _, x := range reg {
			toIrr(x)
		}
		reg = nil
		lp, _ = newLanePack(0)
	}
	row := nM * lp.words
	var packed []uint64
	if len(reg) > 0 {
		packed = make([]uint64, nQ*row)
		for _, x := range reg {
			cs := compactSeg(x.s)
			lp.pack(packed[int(x.c)*row+int(x.m)*lp.words:], &cs)
		}
	}
	reps, err := stats.ClusterBootstrapCountBlocks(a.ctx, nQ, a.opt.Bootstrap, a.opt.Seed, 3*nM, 0, func() stats.CountBlockStat {
		var acc, bound []uint64
		var wide []int64
		var accIrr []int64 // [b][m][segDims+1]: segment count, then the statistics
		var full [segDims]int64
		return func(cnt []int32, out [][]float64) {
			nb := len(out)
			if cap(acc) < nb*row {
				acc, bound = make([]uint64, nb*row), make([]uint64, nb)
				wide, accIrr = make([]int64, nb*nM*cDims), make([]int64, nb*nM*d)
			}
			acc, bound, wide, accIrr = acc[:nb*row], bound[:nb], wide[:nb*nM*cDims], accIrr[:nb*nM*d]
			clear(wide)
			clear(accIrr)
			if packed != nil {
				lp.sumBlock(packed, nQ, nM, cnt, nb, acc, bound, wide)
			}
			for k := range irr {
				is := &irr[k]
				for b := 0; b < nb; b++ {
					w := int64(cnt[is.c*nb+b])
					if w == 0 {
						continue
					}
					ai := accIrr[(b*nM+is.m)*d:]
					ai[0] += w
					for i, x := range is.v {
						ai[1+i] += w * x
					}
				}
			}
			for b := range out {
				for m := 0; m < nM; m++ {
					comp := wide[(b*nM+m)*cDims : (b*nM+m+1)*cDims]
					expandSeg(comp, full[:])
					ai := accIrr[(b*nM+m)*d : (b*nM+m+1)*d]
					if comp[cOne]+ai[0] == 0 {
						continue // NaN: no response of the model drawn
					}
					for i := range full {
						full[i] += ai[1+i]
					}
					out[b][3*m], out[b][3*m+1], out[b][3*m+2] = corpusScores(full[:], bleu)
				}
			}
		}
	})
	if err != nil {
		return nil // cancelled: AnalyzeResult returns the error
	}
	return reps
}
