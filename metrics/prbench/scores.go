package prbench

import (
	"math"
	"slices"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
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
func (p *prep) scoreBlock(pop int, inQ func(q int) bool, nv int, val func(ui int) (rat, rat)) []modelRow {
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
			b = rat{}
		}
		if !a.ok() && !b.ok() {
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
		for j, v := range [2]rat{a, b} {
			if !v.ok() {
				continue
			}
			f := v.float()
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
func (p *prep) unitScores(ui int) (rat, rat) {
	return p.units[ui].clip, p.units[ui].norm
}

func col(name string, kind report.ColumnKind, doc string) report.Column {
	return report.Column{Name: name, Kind: kind, Doc: doc}
}

var scoreCols = []report.Column{
	col("n_questions", report.Int, "questions on which the model has gradings in this block"),
	col("n", report.Int, "gradings (one grader's criterion grades of one response); a grading with an undefined clipped score is left out of the clipped columns"),
	col("clipped_mean", report.Fraction, "mean over gradings of max(raw/max, 0), raw = Σ weight·met over the graded criteria, max = Σ of their positive weights"),
	col("clipped_sd", report.Fraction, "SD (n − 1) of the clipped scores"),
	col("clipped_lo", report.Fraction, "95 % cluster-bootstrap interval over questions, lower end"),
	col("clipped_hi", report.Fraction, "95 % cluster-bootstrap interval over questions, upper end"),
	col("normalized_mean", report.Fraction, "mean over gradings of (raw − min)/(max − min), min = Σ of the negative weights"),
	col("normalized_sd", report.Fraction, "SD (n − 1) of the min-normalised scores"),
	col("normalized_lo", report.Fraction, "95 % cluster-bootstrap interval over questions, lower end"),
	col("normalized_hi", report.Fraction, "95 % cluster-bootstrap interval over questions, upper end"),
}

func withScoreCols(cols ...report.Column) []report.Column {
	return append(cols, scoreCols...)
}

func scoreValues(r modelRow) []any {
	return []any{int64(r.nQ), int64(r.n),
		r.mean[0], r.sd[0], r.lo[0], r.hi[0],
		r.mean[1], r.sd[1], r.lo[1], r.hi[1]}
}

func addRow(t *report.Table, vals ...any) {
	if len(vals) != len(t.Columns) {
		panic("prbench: table " + t.Name + ": row width does not match its columns") // programming error only
	}
	t.Rows = append(t.Rows, vals)
}

var (
	colSet     = col("set", report.Text, "all = every question with criteria; hard = the Hard subset (prbench_hard_questions)")
	colGraders = col("graders", report.Text, "humans (every human grader's gradings pooled) or judge:<id> (one LLM judge)")
	colModel   = col("model", report.Text, "model name")
)

// scoresTable builds prbench_scores: per set, population and model.
func (p *prep) scoresTable() (*report.Table, map[[2]int][]modelRow) {
	t := &report.Table{Name: "prbench_scores", Title: "PRBench scores per model", Section: report.SectionPRBench,
		Doc:     "Clipped and min-normalised weighted-criteria scores per model and grader population, on all questions and on the Hard subset, with 95 % cluster-bootstrap intervals over questions.",
		Columns: withScoreCols(colSet, colGraders, colModel)}
	blocks := map[[2]int][]modelRow{}
	for si, set := range []string{"all", "hard"} {
		var inQ func(int) bool
		if si == 1 {
			if !p.anyHard() {
				continue
			}
			inQ = func(q int) bool { return p.qs[q].hard }
		}
		for pop := range p.pops {
			rows := p.scoreBlock(pop, inQ, 2, p.unitScores)
			blocks[[2]int{si, pop}] = rows
			for _, r := range rows {
				addRow(t, append([]any{set, p.pops[pop], p.models[r.model]}, scoreValues(r)...)...)
			}
		}
	}
	return t, blocks
}

func (p *prep) anyHard() bool {
	for _, q := range p.qs {
		if q.hard {
			return true
		}
	}
	return false
}

// domainTable builds prbench_by_domain.
func (p *prep) domainTable() *report.Table {
	t := &report.Table{Name: "prbench_by_domain", Title: "PRBench scores per domain", Section: report.SectionPRBench,
		Doc:     "Clipped and min-normalised scores per domain, model and grader population, on all the domain's questions and on its Hard subset.",
		Columns: withScoreCols(colSet, colGraders, col("domain", report.Text, "question domain"), colModel)}
	for si, set := range []string{"all", "hard"} {
		if si == 1 && !p.anyHard() {
			continue
		}
		for pop := range p.pops {
			for _, d := range p.domains {
				inQ := func(q int) bool { return p.qs[q].domain == d && (si == 0 || p.qs[q].hard) }
				for _, r := range p.scoreBlock(pop, inQ, 2, p.unitScores) {
					addRow(t, append([]any{set, p.pops[pop], d, p.models[r.model]}, scoreValues(r)...)...)
				}
			}
		}
	}
	return t
}

// tagTable builds prbench_by_tag; nil when no question has a tag.
func (p *prep) tagTable() *report.Table {
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
		return nil
	}
	t := &report.Table{Name: "prbench_by_tag", Title: "PRBench scores per question tag", Section: report.SectionPRBench,
		Doc: "Clipped and min-normalised scores per question tag value (extra columns of the questions file, such as decision type), model and grader population; questions with a blank tag value are left out of that tag's rows.",
		Columns: withScoreCols(colGraders, col("tag", report.Text, "tag (question column) name"),
			col("value", report.Text, "tag value"), colModel)}
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
					addRow(t, append([]any{p.pops[pop], key, v, p.models[r.model]}, scoreValues(r)...)...)
				}
			}
		}
	}
	return t
}
