package prbench

import (
	"math"
	"slices"

	"github.com/euroexec/euroexec/metrics/stats"

	"github.com/euroexec/euroexec/study"
)

// modelRow is one model's two scores over one block of units.
type modelRow struct {
	model int
	nQ, n int
	cnt   [2]int
	mean  [2]float64
	sd    [2]float64
	lo    [2]float64
	hi    [2]float64
}

// scoreBlock computes, for the units of population pop on the questions
// accepted by inQ (nil: all), per model the exact mean, the SD (n − 1) and
// the 95 % cluster-bootstrap interval over questions of the first nv (1 or
// 2) of the unit scores val returns (an undefined score does not count).
// All models share each replicate's resample of questions.
func (p *prep) scoreBlock(pop int, inQ func(q int) bool, nv int, val func(ui int) (study.Rat, study.Rat)) []modelRow {
	nM := len(p.models)
	k := 2 * nv // per value: sum, count
	w := nM * k // floats per cluster
	var acc []float64
	cluster := -1
	lastQ := -1
	ex := make([][2]exactMean, nM)
	vals := make([][2][]float64, nM)
	rows := make([]modelRow, nM)
	lastQm := make([]int, nM)
	for i := range lastQm {
		lastQm[i] = -1
	}
	for ui := range p.units {
		u := &p.units[ui]
		if p.graders[u.g].pop != pop || (inQ != nil && !inQ(u.q)) {
			continue
		}
		a, b := val(ui)
		if nv < 2 {
			b = study.Rat{}
		}
		if !a.OK() && !b.OK() {
			continue
		}
		if u.q != lastQ { // units are sorted by question
			lastQ = u.q
			cluster++
			acc = append(acc, make([]float64, w)...)
		}
		c := acc[cluster*w+u.m*k:][:k]
		r := &rows[u.m]
		r.n++
		if lastQm[u.m] != u.q {
			lastQm[u.m] = u.q
			r.nQ++
		}
		for j, v := range [2]study.Rat{a, b} {
			if !v.OK() {
				continue
			}
			f := v.Float64()
			c[2*j] += f
			c[2*j+1]++
			ex[u.m][j].add(v)
			vals[u.m][j] = append(vals[u.m][j], f)
		}
	}
	nC := cluster + 1
	var reps [][]float64
	if nC > 0 && p.opt.Bootstrap > 0 {
		reps = stats.ClusterBootstrap(nC, p.opt.Bootstrap, p.opt.Seed, nM*nv, func(idx []int, o []float64) {
			if p.opt.cancelled() {
				return
			}
			s := make([]float64, w)
			mult := make([]int32, nC)
			for _, c := range idx {
				mult[c]++
			}
			// A cluster drawn t times adds t times its sums and counts.
			for c, t := range mult {
				if t == 0 {
					continue
				}
				row := acc[c*w:][:w]
				if t == 1 {
					for j, v := range row {
						s[j] += v
					}
					continue
				}
				ft := float64(t)
				for j, v := range row {
					s[j] += float64(ft * v)
				}
			}
			for m := 0; m < nM; m++ {
				for j := 0; j < nv; j++ {
					if n := s[m*k+2*j+1]; n > 0 {
						o[m*nv+j] = s[m*k+2*j] / n
					}
				}
			}
		})
	}
	nan := math.NaN()
	var out []modelRow
	for m := range rows {
		r := &rows[m]
		if r.n == 0 {
			continue
		}
		r.model = m
		for j := 0; j < 2; j++ {
			r.cnt[j] = len(vals[m][j])
			r.mean[j], r.sd[j], r.lo[j], r.hi[j] = nan, nan, nan, nan
			if j >= nv {
				continue
			}
			r.mean[j] = ex[m][j].mean()
			r.sd[j] = stats.SD(vals[m][j])
			if reps != nil {
				r.lo[j], r.hi[j] = stats.PercentileInterval(reps, m*nv+j, level)
			}
		}
		out = append(out, *r)
	}
	return out
}

// unitScores gives a unit's clipped and min-normalised scores.
func (p *prep) unitScores(ui int) (study.Rat, study.Rat) {
	return p.units[ui].clip, p.units[ui].norm
}

// scoreRow is the typed row of a model's block.
func (p *prep) scoreRow(set, pop string, r modelRow) ScoreRow {
	return ScoreRow{Set: set, Graders: pop, Model: p.models[r.model], Questions: int64(r.nQ), N: int64(r.n),
		Clipped:    Score{r.mean[0], r.sd[0], r.lo[0], r.hi[0]},
		Normalized: Score{r.mean[1], r.sd[1], r.lo[1], r.hi[1]}}
}

// scoreRows are the rows of prbench_scores: per set, population and model;
// hard says the Hard subset is not empty.
func (p *prep) scoreRows() (out []ScoreRow, hard bool) {
	for si, set := range []string{"all", "hard"} {
		var inQ func(int) bool
		if si == 1 {
			if !p.anyHard() {
				continue
			}
			hard = true
			inQ = func(q int) bool { return p.qs[q].hard }
		}
		for pop := range p.pops {
			for _, r := range p.scoreBlock(pop, inQ, 2, p.unitScores) {
				out = append(out, p.scoreRow(set, p.pops[pop], r))
			}
		}
	}
	return out, hard
}

func (p *prep) anyHard() bool {
	for _, q := range p.qs {
		if q.hard {
			return true
		}
	}
	return false
}

// domainRows are the rows of prbench_by_domain.
func (p *prep) domainRows() []ScoreRow {
	var out []ScoreRow
	for si, set := range []string{"all", "hard"} {
		if si == 1 && !p.anyHard() {
			continue
		}
		for pop := range p.pops {
			for _, d := range p.domains {
				inQ := func(q int) bool { return p.qs[q].domain == d && (si == 0 || p.qs[q].hard) }
				for _, r := range p.scoreBlock(pop, inQ, 2, p.unitScores) {
					row := p.scoreRow(set, p.pops[pop], r)
					row.Domain = d
					out = append(out, row)
				}
			}
		}
	}
	return out
}

// tagRows are the rows of prbench_by_tag; false when no question has a
// tag.
func (p *prep) tagRows() ([]ScoreRow, bool) {
	var keys []string
	values := map[string][]string{}
	for _, q := range p.qs {
		if len(q.crit) == 0 {
			continue
		}
		seen := map[string]bool{}
		for _, tg := range q.tags {
			if seen[tg.Key] { // the first column of a name counts
				continue
			}
			seen[tg.Key] = true
			if tg.Value == "" {
				continue
			}
			if _, ok := values[tg.Key]; !ok {
				keys = append(keys, tg.Key)
			}
			if !slices.Contains(values[tg.Key], tg.Value) {
				values[tg.Key] = append(values[tg.Key], tg.Value)
			}
		}
	}
	if len(keys) == 0 {
		return nil, false
	}
	var out []ScoreRow
	hasTag := func(q int, key, val string) bool {
		for _, tg := range p.qs[q].tags {
			if tg.Key == key {
				return tg.Value == val // the first column of that name counts
			}
		}
		return false
	}
	for pop := range p.pops {
		for _, key := range keys {
			vs := slices.Clone(values[key])
			slices.Sort(vs)
			for _, v := range vs {
				inQ := func(q int) bool { return hasTag(q, key, v) }
				for _, r := range p.scoreBlock(pop, inQ, 2, p.unitScores) {
					row := p.scoreRow("", p.pops[pop], r)
					row.Tag, row.Value = key, v
					out = append(out, row)
				}
			}
		}
	}
	return out, true
}
