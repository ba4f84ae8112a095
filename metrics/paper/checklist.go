package paper

import (
	"math"
	"math/big"

	"github.com/euroexec/euroexec/study"
)

// Checklist is Figure 4 (distribution of checklist rates) and Figure 5
// (verdict pairs per checklist item) over the human gradings of the main
// round. A nil slice is a table left out (the notes say why).
type Checklist struct {
	// Distribution is model by model (the models of set all in model
	// order), each model with one row per entry of Bins.
	Distribution []ChecklistBinRow
	Bins         []string
	// VerdictPairs has one row per domain in byte order, then Overall.
	VerdictPairs []VerdictPairRow
}

// ChecklistBinRow is one model's share of gradings in one range of the
// checklist rate.
type ChecklistBinRow struct {
	Model, Bin string
	// BinIndex is 0..4; Gradings those in the range; N the model's
	// gradings with a defined checklist rate.
	BinIndex, Gradings, N int64
	// Share is Gradings ÷ N (NaN when N is 0).
	Share float64
}

// VerdictPairRow is Figure 5 for one domain (or Overall).
type VerdictPairRow struct {
	Domain string
	// Cells counts the (response, item) cells with at least 2 verdicts
	// other than na, LeftOut those with fewer, NA the na verdicts left out.
	Cells, LeftOut, NA int64
	// Shares is the share of weight on each pair category, in the order
	// hit–hit, hit–partial, hit–miss, partial–partial, partial–miss,
	// miss–miss (each cell weighs 1, split over its k(k−1)/2 pairs; NaN
	// without a cell).
	Shares [6]float64
}

// checklistTables builds Figure 4 and Figure 5.
func (a *run) checklistTables() {
	if !a.p.hasChecklist {
		a.leaveOut("checklist_distribution", "the study has no checklist")
		a.leaveOut("verdict_pairs", "the study has no checklist")
		return
	}
	v := a.view(setAll, -1)
	if len(v.g) == 0 {
		a.leaveOut("checklist_distribution", "no human gradings in the main round")
		a.leaveOut("verdict_pairs", "no human gradings in the main round")
		return
	}
	a.checklistDistribution(v)
	a.verdictPairs(v)
}

var checklistBins = []string{"[0, 0.2)", "[0.2, 0.4)", "[0.4, 0.6)", "[0.6, 0.8)", "[0.8, 1]"}

// checklistBin returns the bin 0..4 of a grading's checklist rate,
// compared exactly: bin = ⌊5·num/den⌋, capped at 4.
func checklistBin(g *grade) int {
	var b int
	if g.chkExact {
		b = int(5 * g.chkNum / g.chkDen)
	} else {
		b = int(math.Floor(5 * g.rate))
	}
	return min(max(b, 0), 4)
}

// checklistDistribution is Figure 4: per model, the share of human
// gradings in each fifth of the checklist rate.
func (a *run) checklistDistribution(v *view) {
	p := a.p
	mp := a.modelPos(v)
	cnt := make([][5]int64, len(v.models))
	tot := make([]int64, len(v.models))
	for _, gi := range v.g {
		g := &p.grades[gi]
		if math.IsNaN(g.rate) {
			continue
		}
		cnt[mp[g.m]][checklistBin(g)]++
		tot[mp[g.m]]++
	}
	rows := []ChecklistBinRow{}
	for mi, m := range v.models {
		for b, name := range checklistBins {
			rows = append(rows, ChecklistBinRow{Model: p.s.Models[m].Name, Bin: name, BinIndex: int64(b), Gradings: cnt[mi][b], N: tot[mi], Share: frac(cnt[mi][b], tot[mi])})
		}
	}
	a.res.Checklist.Distribution, a.res.Checklist.Bins = rows, checklistBins
}

// Verdict-pair categories of Figure 5.
var pairNames = []string{"yes_yes", "yes_partial", "yes_no", "partial_partial", "partial_no", "no_no"}

// pairCat maps two verdicts (Hit, Partial, Miss) to a pair category.
func pairCat(x, y study.Verdict) int {
	if x > y {
		x, y = y, x
	}
	switch {
	case x == study.Hit && y == study.Hit:
		return 0
	case x == study.Hit && y == study.Partial:
		return 1
	case x == study.Hit && y == study.Miss:
		return 2
	case x == study.Partial && y == study.Partial:
		return 3
	case x == study.Partial && y == study.Miss:
		return 4
	}
	return 5
}

// pairAcc accumulates Figure 5 for one domain: per k (verdicts on an
// item), the number of pairs in each category, summed exactly at the end.
type pairAcc struct {
	byK     map[int]*[6]int64
	items   int64 // (response, item) cells with ≥ 2 verdicts
	leftOut int64 // cells with fewer than 2 verdicts
	naCount int64 // na verdicts left out
}

func (c *pairAcc) add(vs []study.Verdict) {
	k := len(vs)
	if k < 2 {
		c.leftOut++
		return
	}
	if c.byK == nil {
		c.byK = map[int]*[6]int64{}
	}
	if c.byK[k] == nil {
		c.byK[k] = new([6]int64)
	}
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			c.byK[k][pairCat(vs[i], vs[j])]++
		}
	}
	c.items++
}

// weights returns each category's weight (Σ over cells of the cell's pairs
// in the category / its number of pairs) and its share of the cells.
func (c *pairAcc) weights() (w, share [6]float64) {
	for cat := 0; cat < 6; cat++ {
		s := new(big.Rat)
		for k, n := range c.byK {
			s.Add(s, big.NewRat(n[cat], int64(k*(k-1)/2)))
		}
		w[cat], _ = s.Float64()
		if c.items > 0 {
			s.Quo(s, new(big.Rat).SetInt64(c.items))
			share[cat], _ = s.Float64()
		} else {
			share[cat] = math.NaN()
		}
	}
	return
}

// verdictPairs is Figure 5: for every (response, checklist item) with
// verdicts from k ≥ 2 human evaluators (main round), the unordered verdict
// pairs, each cell weighing 1 split evenly over its k(k−1)/2 pairs; na
// verdicts and cells with fewer than 2 verdicts are left out and counted.
func (a *run) verdictPairs(v *view) {
	p := a.p
	doms := p.domains()
	dp := map[string]int{}
	for i, d := range doms {
		dp[d] = i
	}
	acc := make([]pairAcc, len(doms)+1) // last = overall
	// Gradings are in (question, model, evaluator) order within the round.
	gs := v.g
	for i := 0; i < len(gs); {
		j := i + 1
		gi := &p.grades[gs[i]]
		for j < len(gs) && p.grades[gs[j]].q == gi.q && p.grades[gs[j]].m == gi.m {
			j++
		}
		a.responsePairs(gs[i:j], &acc[dp[p.s.Questions[gi.q].Domain]], &acc[len(doms)])
		i = j
	}
	names := append(append([]string(nil), doms...), "Overall")
	rows := make([]VerdictPairRow, 0, len(names))
	for d, name := range names {
		_, sh := acc[d].weights()
		rows = append(rows, VerdictPairRow{Domain: name, Cells: acc[d].items, LeftOut: acc[d].leftOut, NA: acc[d].naCount, Shares: sh})
	}
	a.res.Checklist.VerdictPairs = rows
	o := acc[len(doms)]
	if o.leftOut > 0 || o.naCount > 0 {
		p.note("verdict_pairs", "%d (response, item) cells with fewer than 2 verdicts and %d na verdicts were left out", o.leftOut, o.naCount)
	}
}

// responsePairs adds one response's human verdicts to its domain and to
// the overall accumulator.
func (a *run) responsePairs(gs []int, dom, all *pairAcc) {
	p := a.p
	nItems := 0
	for _, gi := range gs {
		if n := len(p.gradings[p.grades[gi].src].Verdicts); n > nItems {
			nItems = n
		}
	}
	vs := make([]study.Verdict, 0, len(gs))
	for it := 0; it < nItems; it++ {
		vs = vs[:0]
		for _, gi := range gs {
			row := p.gradings[p.grades[gi].src].Verdicts
			if it >= len(row) {
				continue
			}
			switch row[it] {
			case study.Hit, study.Partial, study.Miss:
				vs = append(vs, row[it])
			case study.NA:
				dom.naCount++
				all.naCount++
			}
		}
		dom.add(vs)
		all.add(vs)
	}
}
