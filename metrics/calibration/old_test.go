package calibration

// lengthControlled and calibrateOne as they were before their buffers were
// sized once (commit 46a691c), kept as the oracles of TestMatchesOld.

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

func lengthControlledOld(ctx context.Context, s *analysis.Study, d *data, opt Options, r *Result) error {
	note := func(reason string) {
		r.Notes = append(r.Notes, report.Note{Table: TableLength, Reason: reason})
	}
	if !d.hasRubric {
		note("the study has no rubric")
		return nil
	}
	mPos := map[string]int{}
	for i, m := range d.models {
		mPos[m] = i
	}
	qPos := map[string]int{}
	for i, q := range d.questions {
		qPos[q] = i
	}
	var obs []lengthObs
	var logs []float64
	for _, resp := range s.Responses {
		m, okM := mPos[resp.Model]
		q, okQ := qPos[resp.QuestionID]
		if !okM || !okQ || resp.Chars <= 0 || math.IsNaN(d.hRub[m][q]) {
			continue
		}
		l := math.Log(float64(resp.Chars))
		obs = append(obs, lengthObs{m: m, q: q, y: d.hRub[m][q], yR: d.hRubR[m][q], z: l, chars: resp.Chars})
		logs = append(logs, l)
	}
	if len(obs) == 0 {
		note("no response with text and human rubric gradings")
		return nil
	}
	mu, sd := stats.Mean(logs), stats.SD(logs)
	if !(sd > 0) {
		note("every response has the same length: the length effect is not identified")
		return nil
	}
	for i := range obs {
		obs[i].z = (obs[i].z - mu) / sd
	}
	// Compact model indices to the models present.
	present := make([]int, len(d.models))
	for i := range present {
		present[i] = -1
	}
	var models []string
	for _, o := range obs {
		if present[o.m] < 0 {
			present[o.m] = 0
		}
	}
	for m, p := range present {
		if p == 0 {
			present[m] = len(models)
			models = append(models, d.models[m])
		}
	}
	nM := len(models)
	if nM < 2 {
		note("fewer than two models have responses with text and human gradings")
		return nil
	}
	byQ := map[int][]lengthObs{}
	var qs []int
	for _, o := range obs {
		o.m = present[o.m]
		if _, ok := byQ[o.q]; !ok {
			qs = append(qs, o.q)
		}
		byQ[o.q] = append(byQ[o.q], o)
	}
	sort.Ints(qs)
	clusters := make([][]lengthRow, 0, len(qs))
	for _, q := range qs {
		clusters = append(clusters, demean(byQ[q], nM))
	}
	lf := newLengthFit(clusters, nM)
	clusters = nil
	all := make([]int32, len(qs))
	for i := range all {
		all[i] = 1
	}
	est := make([]float64, nM+1)
	for i := range est {
		est[i] = math.NaN()
	}
	lf.fit(all, est, newLengthWork(nM))

	// Raw means and lengths per model.
	sumY, sumC := make([]float64, nM), make([]float64, nM)
	cnt := make([]int, nM)
	ys := make([]study.RatSum, nM) // raw_mean: the exact mean of the responses' human means
	for _, q := range qs {
		for _, o := range byQ[q] {
			ys[o.m].Add(o.yR, o.y)
			sumC[o.m] += float64(o.chars)
			cnt[o.m]++
		}
	}
	for m := range ys {
		sumY[m] = ys[m].Mean()
	}
	grand := stats.Mean(sumY)

	lo, hi := make([]float64, nM+1), make([]float64, nM+1)
	for i := range lo {
		lo[i], hi[i] = math.NaN(), math.NaN()
	}
	if opt.Bootstrap > 0 {
		reps, err := stats.ClusterBootstrapCounts(ctx, len(qs), opt.Bootstrap, opt.Seed^lengthSeedMix, nM+1, func() stats.CountStat {
			ws := newLengthWork(nM)
			return func(cnt []int32, out []float64) { lf.fit(cnt, out, ws) }
		})
		if err != nil {
			return fmt.Errorf("calibration: %w", err)
		}
		for k := range lo {
			lo[k], hi[k] = stats.PercentileInterval(reps, k, opt.Level)
		}
	}
	r.Length = Length{Coef: est[nM], CoefLo: lo[nM], CoefHi: hi[nM]}
	for m, name := range models {
		r.Length.Rows = append(r.Length.Rows, LengthRow{Model: name, Responses: int64(cnt[m]), MeanChars: sumC[m] / float64(cnt[m]),
			RawMean: sumY[m], RawMeanExact: ys[m].Rat(), RawEffect: sumY[m] - grand,
			AdjustedEffect: est[m], AdjustedLo: lo[m], AdjustedHi: hi[m]})
	}
	if math.IsNaN(est[nM]) {
		r.Warnings = append(r.Warnings, fmt.Sprintf("calibration: %s: the fixed-effects fit is singular (length is collinear with the models or questions)", TableLength))
	}
	return nil
}

func calibrateOneOld(d *data, j int, mt metric, opt Options) ([]CalibrationRow, string) {
	var us []unit
	for m := range d.models {
		for q := range d.questions {
			x, raw := mt.feat[m][q], mt.raw[m][q]
			if math.IsNaN(x) || math.IsNaN(raw) {
				continue
			}
			u := unit{m: m, q: q, x: x, raw: raw, y: mt.y[m][q], yR: mt.yR[m][q], lin: math.NaN(), iso: math.NaN()}
			if mt.rawR != nil {
				u.rawR = mt.rawR[m][q]
			} else {
				u.rawR, _ = study.RatOf(raw)
			}
			us = append(us, u)
		}
	}
	// Labelled questions and their folds.
	fold := make([]int, len(d.questions))
	for i := range fold {
		fold[i] = -1
	}
	var lq []int
	seen := make([]bool, len(d.questions))
	for _, u := range us {
		if !math.IsNaN(u.y) && !seen[u.q] {
			seen[u.q] = true
			lq = append(lq, u.q)
		}
	}
	sort.Ints(lq)
	warn := ""
	if len(lq) >= 2 {
		k := min(opt.Folds, len(lq))
		perm := stats.NewRand(opt.Seed, j).Perm(len(lq))
		for i, p := range perm {
			fold[lq[p]] = i % k
		}
		for f := 0; f < k; f++ {
			var xs, ys []float64
			for _, u := range us {
				if !math.IsNaN(u.y) && fold[u.q] != f {
					xs = append(xs, u.x)
					ys = append(ys, u.y)
				}
			}
			lr := stats.LinRegress(xs, ys)
			iso, err := FitIsotonic(xs, ys, nil)
			ym := stats.Mean(ys)
			for i := range us {
				u := &us[i]
				if math.IsNaN(u.y) || fold[u.q] != f {
					continue
				}
				if math.IsNaN(lr.Slope) {
					u.lin = ym // constant judge score: the least-squares map is the mean
				} else {
					u.lin = lr.Intercept + float64(lr.Slope*u.x)
				}
				if mt.clip {
					u.lin = math.Min(1, math.Max(0, u.lin))
				}
				if err == nil {
					u.iso = iso.Predict(u.x)
				}
			}
		}
	} else {
		warn = fmt.Sprintf("%d labelled question(s); calibration needs 2", len(lq))
	}
	var rows []CalibrationRow
	for m, model := range d.models {
		var lin, iso []float64
		var human, raw study.RatSum // the exact human and judge_raw means
		f := make([]float64, len(d.questions))
		y := make([]float64, len(d.questions))
		for q := range f {
			f[q], y[q] = math.NaN(), math.NaN()
		}
		nJ := 0
		for _, u := range us {
			if u.m != m {
				continue
			}
			nJ++
			f[u.q] = u.raw
			if !math.IsNaN(u.y) {
				y[u.q] = u.y
				human.Add(u.yR, u.y)
				raw.Add(u.rawR, u.raw)
				lin = append(lin, u.lin)
				iso = append(iso, u.iso)
			}
		}
		if nJ == 0 {
			continue
		}
		rows = append(rows, CalibrationRow{Judge: d.judges[j], Model: model, Metric: mt.name,
			Human: human.Mean(), HumanExact: human.Rat(), JudgeRaw: raw.Mean(), JudgeRawExact: raw.Rat(),
			JudgeLinear: stats.Mean(lin), JudgeIsotonic: stats.Mean(iso),
			PPI: PPIMean(f, y, opt.Level), Questions: human.N(), JudgeQuestions: int64(nJ)})
	}
	return rows, warn
}
