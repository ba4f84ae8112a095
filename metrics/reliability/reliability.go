// Package reliability measures how far the graders of a study agree: the
// inter-rater reliability of every rubric attribute, of the rubric mean and
// of the checklist verdicts, for the human graders alone and for the humans
// with each LLM judge added as one more grader. It fills the table
// `reliability` (presented by report/tables).
//
// Statistics (all from package stats, which is checked against the reference
// vectors):
//
//   - Krippendorff's α (stats.KrippendorffAlphaUnits, which gives
//     stats.KrippendorffAlphaDetail's values bit for bit from the units'
//     values, without a graders × units matrix). Units are responses
//     (question × model) for the rubric, and (response, checklist item) for
//     the checklist; coders are graders; any number of graders per unit,
//     missing values allowed (a unit with fewer than two values drops out).
//     Rubric attributes get nominal, ordinal and interval α, the rubric mean
//     interval α, the checklist nominal α with hit, partial and miss as the
//     categories (na and missing verdicts are missing values).
//   - Cohen's κ (stats.CohenKappa), unweighted and quadratic-weighted, for
//     every pair of graders over the units both graded, with the labels the
//     full scale ScaleMin…ScaleMax (so a category nobody used still counts in
//     the quadratic weights), then averaged over the pairs with each pair
//     weighted by its number of shared units; pairs whose κ is undefined
//     (both constant on one label) are left out of the average. Scores
//     that are not points of the scale (a judge's averaged runs, raters'
//     means under [rubric] averaged) are left out of κ. The
//     checklist gets the unweighted κ over hit/partial/miss.
//   - Intraclass correlations (stats.ICC, Shrout & Fleiss 1979). ICC(1,1) and
//     ICC(1,k) treat the graders as drawn per unit: they use the units with
//     exactly k values, k being the most common number of values per unit
//     (ties: the larger k), the graders of a unit in evaluator-id order.
//     ICC(2,1) and ICC(2,k) (two-way random, absolute agreement) are only
//     reported when the same graders scored every unit; otherwise a Note says
//     why they are left out.
//
// Gradings are those of one round (Options.Round, default the study's main
// round), all models included (the graded expert answer is a response like
// any other); judge runs are averaged first (package scores), and a judge's
// checklist verdicts are those of its first run.
//
// Intervals: lo and hi are percentile intervals (Options.Level, default 95 %)
// of a cluster bootstrap over questions (stats.ClusterBootstrap, seeded from
// Options.Seed and the replicate index): a question drawn twice brings all
// its units twice. Every population shares the same resamples. Replicates
// are evaluated from per-question sufficient statistics (coincidence
// matrices, confusion matrices, ANOVA sums) that give the same value as the
// stats function on the duplicated data (checked in the tests), so that 2,000
// replicates take well under a second. The replicates run on all cores in
// blocks of consecutive replicates (stats.ClusterBootstrapCountBlocks): for
// each block the drawn questions are listed once with their counts, and
// every statistic of the population streams its per-question sums over
// that list, each replicate's sums in question order as one replicate alone
// would take them — so the intervals do not depend on the block size or the
// number of cores, bit for bit. The kernels go replicate by replicate over
// the replicates that drew the question. A replicate where a
// statistic is undefined is ignored by the interval.
//
// Between two bootstraps a population's statistics are built instrument by
// instrument, each instrument's α rows on one goroutine and its κ and ICC
// rows on another (they only read the instrument's ratings), so that the
// build keeps both cores busy; the rows do not depend on it.
//
// Memory: one population's sufficient statistics are held at a time, and
// within it one instrument's ratings (in space reused from instrument to
// instrument); the statistics are packed in the smallest exact form (α's
// ordinal entries in 2 bytes, an index into the instrument's few hundred
// distinct (c, k, value) triples, whose terms v·δ² each replicate computes
// once; κ's sums merged per question and grader pair), so that at 40,000
// questions the analysis holds about half of what it did (BenchmarkAnalyze,
// peak-live-MiB).
//
// Undefined values (too few units, no variation) are NaN, written as empty
// cells; the note column says why where it is known.
package reliability

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// Options control the analysis.
type Options struct {

	// Seed seeds the bootstrap; default 1.
	Seed uint64
	// Bootstrap is the number of cluster-bootstrap replicates over
	// questions; default 2000. 0 (or less) leaves lo and hi empty.
	Bootstrap int
	// Level is the coverage of the percentile intervals, in (0, 1); default
	// (and when 0) 0.95; another value outside (0, 1) is warned about and
	// replaced by 0.95.
	Level float64
	// Round is the grading round analysed; "" (the default) means the
	// study's MainRound, or "main" when that is empty too.
	Round string
	// Scores are the per-grading score rules (partial credit); default
	// scores.DefaultOptions().
	Scores scores.Options
	// Graded, when not nil, is scores.Compute(s, Scores), computed once by
	// the caller and shared read-only with other analyses; default nil:
	// computed here.
	Graded []scores.Grading
}

// DefaultOptions returns Seed 1, 2,000 replicates, 95 % intervals, the main
// round and the EuroExec score rules.
func DefaultOptions() Options {
	return Options{Seed: 1, Bootstrap: 2000, Level: 0.95, Scores: scores.DefaultOptions()}
}

// Result is what Analyze produces: the rows of the reliability table as
// typed values (report/tables presents them).
type Result struct {
	// Rows are the statistics, population by population (humans first,
	// then humans with each judge in name order), instruments in output
	// order within a population. Empty when the study gave nothing to
	// measure (see Notes).
	Rows []Row
	// Instruments are the instruments measured, in output order:
	// rubric:<attribute> per attribute, rubric_mean, checklist.
	Instruments []string
	// Populations are the population names, in output order: humans, then
	// humans+judge:<name> per judge.
	Populations []string
	// Notes say what was left out and why.
	Notes []string
	// Warnings are non-fatal findings (level replaced, scale not set,
	// judge scores left out of κ).
	Warnings []string
}

// Row is one statistic of one instrument for one population: a row of the
// reliability table. Undefined numbers are NaN (empty cells).
type Row struct {
	// Instrument is rubric:<attribute>, rubric_mean or checklist.
	Instrument string
	// Population is humans, or humans+judge:<name>.
	Population string
	// Statistic is one of AlphaNominal … ICC2k.
	Statistic string
	// Value is the statistic; NaN when undefined.
	Value float64
	// Units are the units used: pairable units (α), shared units summed
	// over grader pairs (κ), units with k values (ICC).
	Units int64
	// Graders are the graders with at least one value in the units used.
	Graders int64
	// Lo and Hi bound the bootstrap percentile interval; NaN without one.
	Lo, Hi float64
	// Note says how the value was computed or why it is undefined.
	Note string
}

// Statistic names used in the statistic column.
const (
	AlphaNominal   = "alpha_nominal"
	AlphaOrdinal   = "alpha_ordinal"
	AlphaInterval  = "alpha_interval"
	Kappa          = "kappa"
	KappaQuadratic = "kappa_quadratic"
	ICC11          = "icc1_1"
	ICC1k          = "icc1_k"
	ICC21          = "icc2_1"
	ICC2k          = "icc2_k"
)

// TableName is the name of the table Analyze returns.
const TableName = "reliability"

// row is one output row before formatting.
type row struct {
	instrument, population, statistic string
	value                             float64
	nUnits, nGraders                  int
	note                              string
	grp                               *repGroup // replicate statistics; nil = no interval
	gi                                int       // this row's output of grp
	lo, hi                            float64
}

// repGroup computes the replicate values of several rows in one pass, for
// a block of replicates at once (stats.ClusterBootstrapCountBlocks):
// k.eval(bc, out, sc) fills out[b] (length n each) for the block's
// replicate b, the resample with bc's counts of each question, using the
// worker's scratch space sc (so that replicates allocate nothing). Each
// replicate is computed with the same operations in the same order whatever
// the block size, so the values do not depend on it.
type repGroup struct {
	n int
	k kernel
}

// kernel is a replicate statistic on per-question sufficient statistics
// (alphaKernel, kappaKernel, anovaSums).
type kernel interface {
	eval(bc *blockCounts, out [][]float64, sc *scratch)
}

// setGroup makes g the replicate group of rows, row i being output i.
func setGroup(g *repGroup, rows ...*row) {
	for i, r := range rows {
		r.grp, r.gi = g, i
	}
}

// replicate evaluates r's replicate statistic on one resample (for tests).
func (r *row) replicate(cnt []int) float64 {
	out := nanSlice(r.grp.n)
	c32 := make([]int32, len(cnt))
	for i, c := range cnt {
		c32[i] = int32(c)
	}
	var bc blockCounts
	bc.fill(c32, 1)
	r.grp.k.eval(&bc, [][]float64{out}, &scratch{})
	return out[r.gi]
}

// Analyze computes the reliability table of s. It never panics on user
// input; a study without rubric and checklist gives a Note and no table.
// The only error is ctx's, checked between bootstrap replicates.
func Analyze(ctx context.Context, s *study.Study, opt Options) (Result, error) {
	var res Result
	if s == nil {
		res.Notes = append(res.Notes, "no study")
		return res, nil
	}
	if opt.Level == 0 {
		opt.Level = 0.95
	}
	if opt.Level <= 0 || opt.Level >= 1 || math.IsNaN(opt.Level) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("reliability: level %v is not in (0, 1); using 0.95", opt.Level))
		opt.Level = 0.95
	}
	round := opt.Round
	if round == "" {
		round = s.MainRound
	}
	if round == "" {
		round = "main"
	}
	// the round's gradings: the shared ones as they are (the builder skips
	// the other rounds': no copy), else computed here and filtered in place
	var gs []scores.Grading
	if opt.Graded != nil {
		gs = opt.Graded
	} else {
		all := scores.Compute(s, opt.Scores)
		gs = all[:0]
		for _, g := range all {
			if g.Round == round {
				gs = append(gs, g)
			}
		}
		clear(all[len(gs):]) // the rest keep nothing alive
	}
	b := newBuilder(s, gs, round)
	if len(b.units) == 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("no gradings in round %q", round))
		return res, nil
	}
	if len(s.Attributes) == 0 && !b.hasChecklist {
		res.Notes = append(res.Notes, "the study has neither a rubric nor a checklist")
		return res, nil
	}
	step := s.ScaleStep
	if step <= 0 {
		step = 1
	}
	ls := stepLabels(s.ScaleMin, s.ScaleMax, step)
	if s.ScaleMax <= s.ScaleMin {
		lo, hi := b.observedScale()
		ls = wholeLabels(lo, hi)
		if len(s.Attributes) > 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("reliability: the rubric scale is not set; κ uses the observed %d…%d", lo, hi))
		}
	}
	var judges []string
	for _, e := range b.evaluators {
		if b.kind[e] == study.Judge {
			judges = append(judges, e)
		}
	}
	pops := []population{{name: "humans", judge: ""}}
	for _, j := range judges {
		pops = append(pops, population{name: "humans+judge:" + j, judge: j})
	}
	var rows []*row
	dropped := 0
	nQ := len(b.questions)
	instruments := b.instruments(s)
	for _, p := range pops {
		pr, notes, nd := b.analyzePopulation(s, p, ls)
		// One bootstrap per population, so that only one population's packed
		// sufficient statistics are held at a time. Replicate r draws the
		// same counts (seed, r) in every call, so the intervals equal those
		// of one bootstrap over all rows bit for bit.
		if err := bootstrapRows(ctx, pr, nQ, opt); err != nil {
			return Result{}, fmt.Errorf("reliability: %w", err)
		}
		for _, r := range pr {
			r.grp = nil // the packed statistics can go
		}
		rows = append(rows, pr...)
		dropped += nd
		res.Notes = append(res.Notes, notes...)
	}
	if dropped > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("reliability: %d rubric scores are not %s (a judge's averaged runs, or raters' means under [rubric] averaged) and were left out of κ; α and ICC use them", dropped, pointWord(step)))
	}
	res.Instruments = instruments
	for _, p := range pops {
		res.Populations = append(res.Populations, p.name)
	}
	res.Rows = make([]Row, len(rows))
	for i, r := range rows {
		res.Rows[i] = Row{Instrument: r.instrument, Population: r.population, Statistic: r.statistic, Value: r.value,
			Units: int64(r.nUnits), Graders: int64(r.nGraders), Lo: r.lo, Hi: r.hi, Note: r.note}
	}
	return res, nil
}

// bootstrapRows fills lo and hi of every row with a replicate function from
// one cluster bootstrap over the questions (stats.ClusterBootstrapCountBlocks:
// the draws of stats.ClusterBootstrap, blocks of replicates on all cores,
// each worker with its own scratch space).
func bootstrapRows(ctx context.Context, rows []*row, nQ int, opt Options) error {
	var groups []*repGroup
	offset := map[*repGroup]int{}
	width := 0
	for _, r := range rows {
		r.lo, r.hi = math.NaN(), math.NaN()
		if r.grp == nil || math.IsNaN(r.value) {
			continue
		}
		if _, ok := offset[r.grp]; !ok {
			offset[r.grp] = width
			width += r.grp.n
			groups = append(groups, r.grp)
		}
	}
	if width == 0 || nQ == 0 || opt.Bootstrap <= 0 {
		return ctx.Err()
	}
	offs := make([]int, len(groups))
	for i, g := range groups {
		offs[i] = offset[g]
	}
	memo := newRepMemo(nQ)
	reps, err := stats.ClusterBootstrapCountBlocks(ctx, nQ, opt.Bootstrap, opt.Seed, width, repBlock, func() stats.CountBlockStat {
		sc := &scratch{}
		var sub [][]float64
		var bc blockCounts
		eval := func(cnt []int32, out [][]float64) {
			bc.fill(cnt, len(out)) // once for every row of the population
			for i, g := range groups {
				o := offs[i]
				sub = sub[:0]
				for _, row := range out {
					sub = append(sub, row[o:o+g.n])
				}
				g.k.eval(&bc, sub, sc)
			}
		}
		if memo == nil {
			return eval
		}
		return memo.stat(eval)
	})
	if err != nil {
		return err
	}
	for _, r := range rows {
		if o, ok := offset[r.grp]; ok && r.grp != nil && !math.IsNaN(r.value) {
			r.lo, r.hi = stats.PercentileInterval(reps, o+r.gi, opt.Level)
		}
	}
	return nil
}

// repMemo keeps the replicate values of the resamples already evaluated,
// by their counts of each question: a study of few questions has few
// distinct resamples (three questions: ten), so each is evaluated once
// however many replicates draw it. A replicate's values depend only on its
// counts (every kernel computes each replicate alone, in the same order
// whatever its block), so they are those of evaluating it again bit for bit.
type repMemo struct {
	nQ int
	mu sync.Mutex
	m  map[string][]float64
}

// maxMemoQuestions is the most questions for which replicates are
// memoised: with more, two replicates rarely draw the same counts.
const maxMemoQuestions = 12

// newRepMemo returns a memo for resamples of nQ questions, or nil when nQ
// is above maxMemoQuestions.
func newRepMemo(nQ int) *repMemo {
	if nQ > maxMemoQuestions {
		return nil
	}
	return &repMemo{nQ: nQ, m: map[string][]float64{}}
}

// stat wraps one worker's eval: a block's replicates whose counts are in
// the memo are copied from it, the others are evaluated as one block (each
// distinct resample once) and added to it.
func (rm *repMemo) stat(eval stats.CountBlockStat) stats.CountBlockStat {
	var keys []string
	var miss []int
	var subCnt []int32
	var subOut [][]float64
	key := make([]byte, rm.nQ)
	return func(cnt []int32, out [][]float64) {
		nb := len(out)
		keys, miss = keys[:0], miss[:0]
		first := map[string]int{} // key → its replicate in miss
		rm.mu.Lock()
		for b := range nb {
			for q := range rm.nQ {
				key[q] = byte(cnt[q*nb+b]) // a count is at most nQ
			}
			k := string(key)
			keys = append(keys, k)
			if _, ok := rm.m[k]; ok {
				continue
			}
			if _, ok := first[k]; !ok {
				first[k] = len(miss)
				miss = append(miss, b)
			}
		}
		rm.mu.Unlock()
		if m := len(miss); m > 0 {
			subCnt = subCnt[:0]
			for q := range rm.nQ {
				for _, b := range miss {
					subCnt = append(subCnt, cnt[q*nb+b])
				}
			}
			subOut = subOut[:0]
			for range m {
				row := make([]float64, len(out[0]))
				for i := range row {
					row[i] = math.NaN()
				}
				subOut = append(subOut, row)
			}
			eval(subCnt, subOut)
			rm.mu.Lock()
			for i, b := range miss {
				rm.m[keys[b]] = subOut[i]
			}
			rm.mu.Unlock()
		}
		rm.mu.Lock()
		for b, k := range keys {
			copy(out[b], rm.m[k])
		}
		rm.mu.Unlock()
	}
}

// repBlock is the number of replicates each pass over the questions serves
// (at most maxBlock). Larger blocks read the per-question statistics fewer
// times, but each worker holds 9 bytes per question and replicate of its
// block (the counts and their lists) and the κ accumulators of a block
// should stay in the core's cache: 32 gains most of what 64 gains at half
// the memory.
const repBlock = 32

// blockCounts keeps a replicate's index in a byte: a compile-time check
// that repBlock ≤ maxBlock.
var _ [maxBlock - repBlock]struct{}

func nanSlice(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.NaN()
	}
	return s
}

// population is the humans, optionally with one judge.
type population struct {
	name  string
	judge string // "" = humans only
}

// unit is one response of the analysed round with its gradings.
type unit struct {
	q  int // question index into builder.questions
	gs []*scores.Grading
}

// builder holds the gradings of the round grouped by response.
type builder struct {
	questions    []string
	units        []unit // sorted by (question, model)
	evaluators   []string
	kind         map[string]string
	hasChecklist bool
	maxItems     int
}

// newBuilder groups the gradings of gs in round by response; the units
// point into gs (read, never written).
func newBuilder(s *study.Study, gs []scores.Grading, round string) *builder {
	b := &builder{kind: map[string]string{}}
	qpos := map[string]int{}
	type rk struct{ q, m string }
	upos := map[rk]int{}
	// first pass: the unit of every grading of the round (-1 for another
	// round's); second: the units' gradings as windows on one slab (no
	// allocation per unit)
	ui := make([]int32, len(gs))
	var n []int32 // gradings per unit
	inRound := 0
	for i := range gs {
		g := &gs[i]
		if g.Round != round {
			ui[i] = -1
			continue
		}
		inRound++
		if _, ok := b.kind[g.Evaluator]; !ok {
			b.kind[g.Evaluator] = g.Kind
			b.evaluators = append(b.evaluators, g.Evaluator)
		}
		if len(g.Verdicts) > 0 {
			b.hasChecklist = true
			b.maxItems = max(b.maxItems, len(g.Verdicts))
		}
		qi, ok := qpos[g.QuestionID]
		if !ok {
			qi = len(b.questions)
			qpos[g.QuestionID] = qi
			b.questions = append(b.questions, g.QuestionID)
		}
		k := rk{g.QuestionID, g.Model}
		u, ok := upos[k]
		if !ok {
			u = len(b.units)
			upos[k] = u
			b.units = append(b.units, unit{q: qi})
			n = append(n, 0)
		}
		ui[i] = int32(u)
		n[u]++
	}
	slab := make([]*scores.Grading, inRound)
	off := 0
	for u := range b.units {
		b.units[u].gs = slab[off : off : off+int(n[u])]
		off += int(n[u])
	}
	for i := range gs {
		if ui[i] < 0 {
			continue
		}
		u := &b.units[ui[i]]
		u.gs = append(u.gs, &gs[i]) // within its window: no allocation
	}
	sort.Strings(b.evaluators)
	for i := range b.units {
		u := &b.units[i]
		slices.SortStableFunc(u.gs, func(x, y *scores.Grading) int { return strings.Compare(x.Evaluator, y.Evaluator) })
	}
	return b
}

// pointWord names the points of a scale of this step: "whole points", or
// "multiples of 0.1".
func pointWord(step float64) string {
	if step == 1 {
		return "whole points"
	}
	return "multiples of " + fmtDec(step)
}

// observedScale returns the smallest and largest human rubric score.
func (b *builder) observedScale() (int, int) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, u := range b.units {
		for _, g := range u.gs {
			for _, v := range g.Rubric {
				if !math.IsNaN(v) && g.Kind == study.Human {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
	}
	if math.IsInf(lo, 0) {
		return 0, 0
	}
	return int(math.Floor(lo)), int(math.Ceil(hi))
}

// instruments lists the instrument names in output order.
func (b *builder) instruments(s *study.Study) []string {
	var out []string
	for _, a := range s.Attributes {
		out = append(out, "rubric:"+a)
	}
	if len(s.Attributes) > 0 {
		out = append(out, "rubric_mean")
	}
	if b.hasChecklist {
		out = append(out, "checklist")
	}
	return out
}

// ratings is one instrument's data for one population: per unit the
// (grader, value) pairs, graders in id order.
type ratings struct {
	graders []string
	units   []rUnit
}

type rUnit struct {
	q    int
	vals []rVal
}

type rVal struct {
	g int // index into graders
	v float64
}

// collect builds the ratings of one instrument: value(g) returns the value of
// grading g (NaN = missing); items > 0 splits each response into that many
// units, value then called with the item index. The ratings are new (see
// collectInto).
func (b *builder) collect(p population, items int, value func(g *scores.Grading, item int) float64) ratings {
	return b.collectInto(nil, p, items, value)
}

// ratingsBuf is space that collectInto reuses from one instrument to the
// next: the ratings it returned before are overwritten.
type ratingsBuf struct {
	slab  []rVal
	units []rUnit
}

// collectInto is collect with the ratings' values and units in buf's space
// (grown to fit, kept for the next call), or in new space when buf is nil.
// The values and units are counted first, so that the space is allocated
// once at its final size: no growth, no copy.
func (b *builder) collectInto(buf *ratingsBuf, p population, items int, value func(g *scores.Grading, item int) float64) ratings {
	var r ratings
	gpos := map[string]int{}
	for _, e := range b.evaluators {
		if b.kind[e] == study.Human || e == p.judge {
			gpos[e] = len(r.graders)
			r.graders = append(r.graders, e)
		}
	}
	n := max(items, 1)
	// the grader index of each grading (-1: not in the population), one
	// slab for all units
	gi := make([]int32, 0, len(b.units)*3)
	for _, u := range b.units {
		for _, g := range u.gs {
			i, ok := gpos[g.Evaluator]
			if !ok {
				i = -1
			}
			gi = append(gi, int32(i))
		}
	}
	// count the values and the units that get one
	nVals, nUnits := 0, 0
	off := 0
	for _, u := range b.units {
		ugi := gi[off : off+len(u.gs)]
		off += len(u.gs)
		for it := 0; it < n; it++ {
			k := 0
			for x, g := range u.gs {
				if ugi[x] >= 0 && !math.IsNaN(value(g, it)) {
					k++
				}
			}
			nVals += k
			if k > 0 {
				nUnits++
			}
		}
	}
	var slab []rVal
	var units []rUnit
	if buf != nil {
		slab, units = buf.slab[:0], buf.units[:0]
	}
	if cap(slab) < nVals {
		slab = make([]rVal, 0, nVals)
	}
	if cap(units) < nUnits {
		units = make([]rUnit, 0, nUnits)
	}
	// The units' vals are windows on the slab, which never grows: no
	// allocation per unit (a checklist has millions of units).
	off = 0
	for _, u := range b.units {
		ugi := gi[off : off+len(u.gs)]
		off += len(u.gs)
		for it := 0; it < n; it++ {
			lo := len(slab)
			for x, g := range u.gs {
				if ugi[x] < 0 {
					continue
				}
				if v := value(g, it); !math.IsNaN(v) {
					slab = append(slab, rVal{int(ugi[x]), v})
				}
			}
			if hi := len(slab); hi > lo {
				units = append(units, rUnit{q: u.q, vals: slab[lo:hi:hi]})
			}
		}
	}
	if buf != nil {
		buf.slab, buf.units = slab, units
	}
	r.units = units
	return r
}

// verdictCode maps hit, partial and miss to 1, 2, 3; anything else is NaN.
func verdictCode(v study.Verdict) float64 {
	switch v {
	case study.Hit:
		return 1
	case study.Partial:
		return 2
	case study.Miss:
		return 3
	}
	return math.NaN()
}

// analyzePopulation returns the rows of one population, the notes and the
// number of judge scores dropped from κ as not whole.
func (b *builder) analyzePopulation(s *study.Study, p population, ls labelScale) ([]*row, []string, int) {
	var rows []*row
	var notes []string
	var icc2Missing []string
	dropped := 0
	add := func(inst string, rs []*row) {
		for _, r := range rs {
			r.instrument, r.population = inst, p.name
		}
		rows = append(rows, rs...)
	}
	// one instrument's ratings at a time, in space reused from one to the
	// next (the rows keep nothing of them) and freed with the population
	buf := &ratingsBuf{}
	for a, name := range s.Attributes {
		d := b.collectInto(buf, p, 0, func(g *scores.Grading, _ int) float64 {
			if a < len(g.Rubric) {
				return g.Rubric[a]
			}
			return math.NaN()
		})
		inst := "rubric:" + name
		var kr, ir []*row
		var nd int
		var why string
		side := func() {
			kr, nd = kappaRows(d, ls, true)
			ir, why = iccRows(d)
		}
		rs := alongside(side, func() []*row {
			return alphaRows(d, []string{AlphaNominal, AlphaOrdinal, AlphaInterval}, "units = responses")
		})
		dropped += nd
		rs = append(rs, kr...)
		rs = append(rs, ir...)
		if why != "" {
			icc2Missing = append(icc2Missing, inst+": "+why)
		}
		add(inst, rs)
	}
	if len(s.Attributes) > 0 {
		d := b.collectInto(buf, p, 0, func(g *scores.Grading, _ int) float64 { return g.RubricMean })
		var ir []*row
		var why string
		rs := alongside(func() { ir, why = iccRows(d) }, func() []*row {
			return alphaRows(d, []string{AlphaInterval}, "units = responses")
		})
		rs = append(rs, ir...)
		if why != "" {
			icc2Missing = append(icc2Missing, "rubric_mean: "+why)
		}
		add("rubric_mean", rs)
	}
	if b.hasChecklist {
		d := b.collectInto(buf, p, b.maxItems, func(g *scores.Grading, it int) float64 {
			if it < len(g.Verdicts) {
				return verdictCode(g.Verdicts[it])
			}
			return math.NaN()
		})
		var kr []*row
		rs := alongside(func() { kr, _ = kappaRows(d, wholeLabels(1, 3), false) }, func() []*row {
			return alphaRows(d, []string{AlphaNominal}, "units = (response, checklist item); categories hit, partial, miss")
		})
		rs = append(rs, kr...)
		add("checklist", rs)
	}
	if len(icc2Missing) > 0 {
		notes = append(notes, fmt.Sprintf("%s: icc2_1 and icc2_k left out (%s)", p.name, summarizeWhy(icc2Missing)))
	}
	return rows, notes, dropped
}

// alongside runs side on another goroutine while main runs on this one,
// and returns main's rows once both are done. An instrument's α rows and
// its κ and ICC rows read the same ratings (never written) and share
// nothing else, so they are built at once: the population's build, which
// is serial between two bootstraps, keeps both cores busy. Each gives the
// same rows as alone; only the moment their temporaries are alive moves.
// A panic of side is raised again here, on the caller's goroutine.
func alongside(side func(), main func() []*row) []*row {
	done := make(chan struct{})
	var perr any
	go func() {
		defer close(done)
		defer func() { perr = recover() }()
		side()
	}()
	rs := main()
	<-done
	if perr != nil {
		panic(perr)
	}
	return rs
}

// summarizeWhy joins the reasons, collapsing identical ones.
func summarizeWhy(items []string) string {
	reasons := map[string][]string{}
	var order []string
	for _, it := range items {
		i := strings.Index(it, ": ")
		inst, why := it[:i], it[i+2:]
		if _, ok := reasons[why]; !ok {
			order = append(order, why)
		}
		reasons[why] = append(reasons[why], inst)
	}
	var parts []string
	for _, why := range order {
		parts = append(parts, why+" for "+strings.Join(reasons[why], ", "))
	}
	return strings.Join(parts, "; ")
}
