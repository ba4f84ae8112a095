package pairwise

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/euroexec/euroexec/metrics/stats"
	"github.com/euroexec/euroexec/study"
)

// Result is what Analyze produced, as typed values; report/tables.Pairwise
// presents it (the pairwise tables and figures).
type Result struct {
	// Models are the models of the analysed judgments, in name order (the
	// categories of the rating chart).
	Models []string
	// Populations are the grader populations (humans pooled, then each
	// judge); empty when the round has no pairwise judgments (see Notes).
	Populations []Population
	// Agreement are the rows of pairwise_agreement: every two graders, and
	// each grader against the majority of the other humans, with enough
	// comparisons in common; empty: no such table (see Notes).
	Agreement []Agreement
	// LengthMargin is the length difference in characters above which a
	// pair counts for the length bias (Options.LengthMargin).
	LengthMargin int
	// Judges are the rows of pairwise_judge_audit, one per LLM judge.
	Judges []JudgeAudit
	// Notes say what was left out and why.
	Notes []Note
	// Warnings are non-fatal findings.
	Warnings []string
}

// Estimate is a point estimate with its 95 % cluster-bootstrap interval
// over questions; NaN when undefined or without a bootstrap.
type Estimate struct {
	Value, Lo, Hi float64
}

// Population is one grader population's results: its rows of
// pairwise_models, pairwise_matrix, pairwise_position, pairwise_length
// and pairwise_rubric.
type Population struct {
	// Name is "humans" (pooled) or the judge's evaluator id.
	Name string
	// Present are the models this population judged, in name order (the
	// rows and columns of its heat map).
	Present []string
	// Models are its pairwise_models rows, by rank, then model name.
	Models []ModelRow
	// Matrix are its pairwise_matrix cells: every ordered pair of Present
	// models that met, row model major, in Present order.
	Matrix []MatrixCell
	// Position is its position bias.
	Position Position
	// HasLength says some judgment compared two responses with texts, so
	// Length is defined (a pairwise_length row).
	HasLength bool
	Length    LengthBias
	// HasModel says some judgment compared two responses with texts, so
	// the length and style model was fitted (its row of pairwise_length,
	// and ModelRow.LCWinRate and SCRating).
	HasModel bool
	Model    LengthModel
	// HasRubric says some judgment compared two responses both graded on
	// the rubric by this population, so Rubric is defined (a
	// pairwise_rubric row).
	HasRubric bool
	Rubric    RubricAgreement
}

// ModelRow is one model of a population: judgments, win rate and
// Bradley–Terry rating.
type ModelRow struct {
	Model string
	// N are the judgments of the model's answers against another model's,
	// Wins, Losses and Ties their outcomes.
	N, Wins, Losses, Ties int64
	// WinRate is (Wins + Ties/2) / N with its interval.
	WinRate Estimate
	// Rating is the Bradley–Terry rating on the Elo scale (1000 = the
	// average model) with its interval.
	Rating Estimate
	// Rank is the rank by rating (1 = best; 1 + models rated strictly
	// higher), 0 when undefined; RankLo and RankHi are the best and worst
	// rank of its bootstrap interval (2.5th percentile rounded down, 97.5th
	// rounded up), 0 without an interval.
	Rank, RankLo, RankHi int64
	// OneSided says the model never lost (or never won) a judgment, so its
	// rating has no finite maximum-likelihood value: Rating.Value is the
	// prior-bound value, and the interval is one-sided — Rating.Lo the
	// sweep bound (SweepBound) and Rating.Hi +Inf, or −Inf and the bound.
	OneSided bool
	// LCWinRate is the length-controlled win rate: the win rate against
	// the same opponents predicted by the length and style model at equal
	// length and style (Σ_j n_j·σ(θ_m − θ_j) / Σ_j n_j); SCRating the
	// style-controlled rating 1000 + EloScale·θ_m (θ centred). Both have t
	// intervals from the question-clustered sandwich covariance; NaN
	// without the model, and their intervals NaN when OneSided.
	LCWinRate, SCRating Estimate
}

// WinRateExact is the win rate as an exact fraction (2·Wins + Ties) / 2N
// in lowest terms; the zero Rat when N is 0.
func (m ModelRow) WinRateExact() study.Rat { return study.NewRat(2*m.Wins+m.Ties, 2*m.N) }

// MatrixCell is one ordered pair of models that met.
type MatrixCell struct {
	// ModelA is the row model, ModelB the column model.
	ModelA, ModelB string
	// N are the judgments of the pair, WinsA, Ties and WinsB their
	// outcomes.
	N, WinsA, Ties, WinsB int64
	// WinRateA is ModelA's win rate (WinsA + Ties/2) / N with its interval.
	WinRateA Estimate
}

// WinRateExact is ModelA's win rate as an exact fraction (2·WinsA + Ties)
// / 2N in lowest terms.
func (c MatrixCell) WinRateExact() study.Rat { return study.NewRat(2*c.WinsA+c.Ties, 2*c.N) }

// Agreement is one row of pairwise_agreement: GraderA's verdicts against
// GraderB's (a grader, or the majority of the other humans) over the N
// comparisons both judged.
type Agreement struct {
	GraderA, GraderB string
	N                int64
	// Agreement is the share of comparisons with the same verdict, Kappa
	// Cohen's κ on three classes, MacroF1, Precision and Recall the macro
	// scores with GraderB as the reference.
	Agreement, Kappa, MacroF1, Precision, Recall Estimate
}

// Position is a population's position bias.
type Position struct {
	// N are the non-tie verdicts, FirstWins those won by the answer shown
	// first; FirstShare = FirstWins / N and PValue the test of
	// FirstShare = ½ with questions as clusters (clusteredShareP).
	N, FirstWins int64
	FirstShare   Estimate
	PValue       float64
	// Swapped are the comparisons judged in both orders by the same grader
	// (and run); SwapConsistency the share with the same verdict in both
	// orders, ConflictRate the share with a different winner in each.
	Swapped                       int64
	SwapConsistency, ConflictRate Estimate
	// Unknown are the judgments whose order shown is unknown (position
	// empty or unknown), left out of N and Swapped.
	Unknown int64
}

// LengthBias is a population's length bias over the pairs whose lengths
// differ by more than Result.LengthMargin characters.
type LengthBias struct {
	// N are the non-tie verdicts on such pairs, LongerWins those won by the
	// longer answer; LongerShare = LongerWins / N and PValue the test of
	// LongerShare = ½ with questions as clusters (clusteredShareP).
	N, LongerWins int64
	LongerShare   Estimate
	PValue        float64
}

// RubricAgreement compares a population's pairwise verdicts with its
// rubric grades.
type RubricAgreement struct {
	// N are the non-tie verdicts on responses with different rubric means,
	// Agree those won by the answer with the higher rubric mean, Agreement
	// = Agree / N.
	N, Agree  int64
	Agreement Estimate
}

// Table names.
// Note says why a table was left out or what it lacks.
type Note struct {
	// Table is the table concerned (ModelsTable … JudgeAuditTable).
	Table string
	// Reason is the explanation shown with the table.
	Reason string
}

const (
	ModelsTable    = "pairwise_models"
	MatrixTable    = "pairwise_matrix"
	AgreementTable = "pairwise_agreement"
	PositionTable  = "pairwise_position"
	LengthTable    = "pairwise_length"
	RubricTable    = "pairwise_rubric"
)

// Analyze computes the pairwise tables and figures of s's comparisons in the
// round opt.Round (default the study's main round). A study without
// comparisons gives a note and no tables. It returns an error for invalid
// options or when ctx is cancelled; user data never makes it fail.
func Analyze(ctx context.Context, s *study.Study, opt Options) (Result, error) {
	var res Result
	if err := ctx.Err(); err != nil {
		return res, err
	}
	if opt.Bootstrap < 0 {
		return res, fmt.Errorf("pairwise: bootstrap replicates %d; expected 0 or more", opt.Bootstrap)
	}
	if !(opt.Level > 0 && opt.Level < 1) {
		return res, fmt.Errorf("pairwise: interval level %v; expected a number between 0 and 1", opt.Level)
	}
	if opt.LengthMargin < 0 {
		return res, fmt.Errorf("pairwise: length margin %d; expected 0 or more characters", opt.LengthMargin)
	}
	if s == nil {
		return res, nil
	}
	round := opt.Round
	if round == "" {
		round = s.MainRound
	}
	if round == "" {
		round = "main"
	}
	p := prepare(s, round, opt.LengthMargin, max(opt.MinOverlap, 1))
	if p == nil {
		if len(s.Comparisons) > 0 {
			res.Notes = append(res.Notes, Note{Table: ModelsTable, Reason: fmt.Sprintf("no pairwise judgments in round %s", round)})
		}
		return res, nil
	}
	l := newLayout(p)
	nQ := len(p.questions)
	ones := make([]int32, nQ)
	for i := range ones {
		ones[i] = 1
	}
	point := make([]float64, l.n)
	for i := range point {
		point[i] = math.NaN()
	}
	reg := p.evaluate(l, ones, point, &scratch{}, opt.Prior, nil)
	// The replicates' fits start from the point estimates (β = rating
	// rescaled), which saves most Newton steps.
	warm := make([][]float64, len(p.pops))
	for pi := range p.pops {
		k := len(l.present[pi])
		warm[pi] = make([]float64, k)
		for i := range warm[pi] {
			if r := point[l.popOff[pi]+k+i]; !math.IsNaN(r) {
				warm[pi][i] = (r - 1000) / EloScale
			}
		}
	}

	pool := sync.Pool{New: func() any { return &scratch{} }}
	var reps [][]float64
	if opt.Bootstrap > 0 {
		reps = stats.ClusterBootstrap(nQ, opt.Bootstrap, opt.Seed, l.n, func(idx []int, out []float64) {
			if ctx.Err() != nil {
				return
			}
			wt := make([]int32, nQ)
			for _, q := range idx {
				wt[q]++
			}
			sc := pool.Get().(*scratch)
			p.evaluate(l, wt, out, sc, opt.Prior, warm)
			pool.Put(sc)
		})
		if err := ctx.Err(); err != nil {
			return res, err
		}
	}
	ci := func(j int) (float64, float64) {
		if reps == nil || math.IsNaN(point[j]) {
			return math.NaN(), math.NaN()
		}
		return stats.PercentileInterval(reps, j, opt.Level)
	}
	compute(&res, p, l, point, reg, ci, opt)
	res.Judges = judgeAudits(s, round, &res, opt.Level)
	if opt.Bootstrap == 0 {
		res.Notes = append(res.Notes, Note{Table: ModelsTable, Reason: "bootstrap disabled: the pairwise intervals are empty"})
	}
	return res, nil
}

// compute fills res's typed values and notes from the point estimates and
// the interval function.
func compute(res *Result, p *prepared, l *layout, point []float64, reg []bool, ci func(int) (float64, float64), opt Options) {
	m := len(p.models)
	est := func(j int) Estimate {
		lo, hi := ci(j)
		return Estimate{point[j], lo, hi}
	}
	res.Models = append([]string(nil), p.models...)
	res.LengthMargin = opt.LengthMargin
	for pi, pp := range p.pops {
		pres := l.present[pi]
		k := len(pres)
		base := l.popOff[pi]
		pop := Population{Name: pp.name}
		for _, g := range pres {
			pop.Present = append(pop.Present, p.models[g])
		}
		// Integer counts.
		acc := make([]int64, m*m*3)
		ones := make([]int32, len(p.questions))
		for i := range ones {
			ones[i] = 1
		}
		p.accumulate(pp, ones, acc)
		wins, losses, ties, n := make([]int64, m), make([]int64, m), make([]int64, m), make([]int64, m)
		type cell struct{ n, a, t, b int64 }
		mat := map[[2]int]cell{}
		for a := 0; a < m; a++ {
			for b := a + 1; b < m; b++ {
				c := (a*m + b) * 3
				wa, t, wb := acc[c], acc[c+1], acc[c+2]
				if wa+t+wb == 0 {
					continue
				}
				wins[a], losses[a], ties[a], n[a] = wins[a]+wa, losses[a]+wb, ties[a]+t, n[a]+wa+t+wb
				wins[b], losses[b], ties[b], n[b] = wins[b]+wb, losses[b]+wa, ties[b]+t, n[b]+wa+t+wb
				mat[[2]int{a, b}] = cell{wa + t + wb, wa, t, wb}
				mat[[2]int{b, a}] = cell{wa + t + wb, wb, t, wa}
			}
		}
		// questions on which each model was judged (the clusters of a
		// one-sided win-rate bound)
		nQs := make([]int64, m)
		seenQ := make([]int, m)
		for q := 0; q+1 < len(pp.qStart); q++ {
			for e := pp.qStart[q]; e < pp.qStart[q+1]; e++ {
				c := int(pp.cells[e]) / 3
				for _, g := range [2]int{c / m, c % m} {
					if seenQ[g] != q+1 {
						seenQ[g] = q + 1
						nQs[g]++
					}
				}
			}
		}
		// Rows by rank, then model name.
		order := make([]int, k)
		for i := range order {
			order[i] = i
		}
		sortByRank(order, func(i int) float64 { return point[base+2*k+i] })
		for _, li := range order {
			g := int(pres[li])
			mr := ModelRow{Model: p.models[g], N: n[g], Wins: wins[g], Losses: losses[g], Ties: ties[g],
				WinRate: est(base + li), Rating: est(base + k + li)}
			klo, khi := ci(base + 2*k + li)
			if !math.IsNaN(point[base+2*k+li]) {
				mr.Rank = int64(point[base+2*k+li])
			}
			if !math.IsNaN(klo) {
				mr.RankLo, mr.RankHi = int64(math.Floor(klo)), int64(math.Ceil(khi))
			}
			// A model that never loses (or never wins) has no finite
			// maximum-likelihood rating: every replicate repeats the
			// prior-bound value, so the bootstrap interval would be falsely
			// narrow. Its interval is one-sided instead: the sweep bound
			// against the others' point strengths, and ±Inf.
			if sweep := (losses[g] == 0) != (wins[g] == 0) && ties[g] == 0; sweep && !math.IsNaN(mr.Rating.Lo) {
				nj, bj := make([]float64, k), make([]float64, k)
				for lj, h := range pres {
					if c, ok := mat[[2]int{g, int(h)}]; ok {
						nj[lj] = float64(c.n)
					}
					bj[lj] = (point[base+k+lj] - 1000) / EloScale
				}
				alpha := (1 - opt.Level) / 2
				if losses[g] == 0 {
					mr.Rating.Lo, mr.Rating.Hi = Rating(SweepBound(nj, bj, alpha)), math.Inf(1)
				} else {
					for i := range bj {
						bj[i] = -bj[i]
					}
					mr.Rating.Lo, mr.Rating.Hi = math.Inf(-1), Rating(-SweepBound(nj, bj, alpha))
				}
				mr.OneSided = true
				// its win rate is 1 (or 0) in every replicate: the interval
				// is the exact one-sided bound with the model's questions as
				// the units, α^(1/questions), not the bootstrap's [1, 1]
				if q := nQs[g]; q > 0 {
					b := math.Pow(alpha, 1/float64(q))
					if losses[g] == 0 {
						mr.WinRate.Lo, mr.WinRate.Hi = b, 1
					} else {
						mr.WinRate.Lo, mr.WinRate.Hi = 0, 1-b
					}
				}
			}
			pop.Models = append(pop.Models, mr)
		}
		// The length and style model.
		for i := range pop.Models {
			pop.Models[i].LCWinRate, pop.Models[i].SCRating = nanEst(), nanEst()
		}
		if pp.lm != nil {
			fit := fitLM(pp.lm, m, opt.Prior)
			pop.HasModel = true
			pop.Model = LengthModel{N: pp.lm.n, Questions: fit.g, Effects: fit.effects(opt.Level), Regularised: fit.reg, Failed: !fit.ok}
			at := map[string]int{}
			for a, g := range fit.models {
				at[p.models[g]] = a
			}
			for i := range pop.Models {
				mr := &pop.Models[i]
				if a, ok := at[mr.Model]; ok {
					mr.SCRating, mr.LCWinRate = fit.controlled(a, opt.Level)
					if mr.OneSided {
						mr.SCRating.Lo, mr.SCRating.Hi, mr.LCWinRate.Lo, mr.LCWinRate.Hi = math.NaN(), math.NaN(), math.NaN(), math.NaN()
					}
				}
			}
			if !fit.ok {
				res.Notes = append(res.Notes, Note{Table: LengthTable, Reason: pp.name + ": the length and style model did not converge (an effect is not identified or runs off to infinity, e.g. the longer answer always won); its columns are empty"})
			}
		}
		// pairCI is the interval of a's win rate against b (b's is the
		// mirror image of a's against b).
		pairCI := func(a, b int32) (float64, float64) {
			lo, hi := min(a, b), max(a, b)
			i, ok := slices.BinarySearchFunc(l.pairs[pi], [2]int32{lo, hi}, func(x, y [2]int32) int {
				if x[0] != y[0] {
					return int(x[0] - y[0])
				}
				return int(x[1] - y[1])
			})
			if !ok {
				return math.NaN(), math.NaN()
			}
			cl, ch := ci(l.pairOf[pi] + i)
			if a == lo {
				return cl, ch
			}
			return 1 - ch, 1 - cl
		}
		for _, a := range pres {
			for _, b := range pres {
				c, ok := mat[[2]int{int(a), int(b)}]
				if !ok {
					continue
				}
				lo, hi := pairCI(a, b)
				pop.Matrix = append(pop.Matrix, MatrixCell{ModelA: p.models[a], ModelB: p.models[b], N: c.n, WinsA: c.a, Ties: c.t, WinsB: c.b,
					WinRateA: Estimate{float64(2*c.a+c.t) / float64(2*c.n), lo, hi}})
			}
		}
		if reg[pi] {
			var never []string
			for _, g := range pres {
				switch {
				case losses[g] == 0 && ties[g] == 0:
					never = append(never, p.models[g]+" never loses")
				case wins[g] == 0 && ties[g] == 0:
					never = append(never, p.models[g]+" never wins")
				}
			}
			why := "the models split into groups with no win in one direction between them"
			if len(never) > 0 {
				why = strings.Join(never, ", ")
			}
			res.Notes = append(res.Notes, Note{Table: ModelsTable, Reason: fmt.Sprintf(
				"%s: the maximum-likelihood Bradley–Terry ratings do not exist (%s); the ratings add %g virtual ties between every two models and stay finite, but are not comparable across populations",
				pp.name, why, opt.Prior)})
		}
		// Position, length, rubric.
		sh := base + 3*k
		posN, posF := sum32(pp.posN), sum32(pp.posFirst)
		pop.Position = Position{N: posN, FirstWins: posF, FirstShare: est(sh + sPos), PValue: clusteredShareP(pp.posFirst, pp.posN),
			Swapped: sum32(pp.swapN), SwapConsistency: est(sh + sSwapSame), ConflictRate: est(sh + sSwapConflict), Unknown: pp.posUnknown}
		if pp.hasLen {
			ln, lw := sum32(pp.lenN), sum32(pp.lenLonger)
			pop.HasLength = true
			pop.Length = LengthBias{N: ln, LongerWins: lw, LongerShare: est(sh + sLen), PValue: clusteredShareP(pp.lenLonger, pp.lenN)}
		}
		if pp.hasRub {
			pop.HasRubric = true
			pop.Rubric = RubricAgreement{N: sum32(pp.rubN), Agree: sum32(pp.rubAgree), Agreement: est(sh + sRub)}
		}
		res.Populations = append(res.Populations, pop)
	}
	for i, ap := range p.pairs {
		o := l.pairOff + nAgree*i
		res.Agreement = append(res.Agreement, Agreement{GraderA: ap.a, GraderB: ap.b, N: int64(ap.n),
			Agreement: est(o + aAgree), Kappa: est(o + aKappa), MacroF1: est(o + aF1), Precision: est(o + aPrec), Recall: est(o + aRec)})
	}
	if len(p.pairs) == 0 {
		res.Notes = append(res.Notes, Note{Table: AgreementTable, Reason: fmt.Sprintf("no two graders judged %d or more of the same comparisons", max(opt.MinOverlap, 1))})
	}
	if p.dropped > 0 {
		res.Notes = append(res.Notes, Note{Table: AgreementTable, Reason: fmt.Sprintf("%d pairs of graders with fewer than %d comparisons in common are left out", p.dropped, max(opt.MinOverlap, 1))})
	}
	hasLen, hasRub := false, false
	for _, pop := range res.Populations {
		hasLen, hasRub = hasLen || pop.HasLength, hasRub || pop.HasRubric
	}
	if !hasLen {
		res.Notes = append(res.Notes, Note{Table: LengthTable, Reason: "no pairwise judgment of two responses whose texts are in the response dumps"})
	}
	if !hasRub {
		res.Notes = append(res.Notes, Note{Table: RubricTable, Reason: "no pairwise judgment of two responses both graded on the rubric by the same population"})
	}
}

func nanEst() Estimate { return Estimate{math.NaN(), math.NaN(), math.NaN()} }

func sum32(x []int32) int64 {
	var s int64
	for _, v := range x {
		s += int64(v)
	}
	return s
}

// sortByRank orders model positions by rank (NaN last), stable.
func sortByRank(order []int, rank func(int) float64) {
	key := func(i int) float64 {
		r := rank(i)
		if math.IsNaN(r) {
			return math.Inf(1)
		}
		return r
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && key(order[j]) < key(order[j-1]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}
