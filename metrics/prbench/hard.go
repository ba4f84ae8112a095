package prbench

import (
	"cmp"
	"math/big"
	"slices"
)

// hardScore is one question's difficulty score.
type hardScore struct {
	q       int
	score   *big.Rat // mean over models of the model's mean clipped score
	nModels int
}

// difficulty returns the difficulty score of every question that has one,
// from the judges' units when any judge graded, else from the humans'.
func (p *prep) difficulty() ([]hardScore, string) {
	judges := false
	for _, j := range p.popJud {
		judges = judges || j
	}
	source := "humans"
	if judges {
		source = "judges"
	}
	var out []hardScore
	per := make([]exactMean, len(p.models))
	flush := func(q int) {
		sum := new(big.Rat)
		n := 0
		for m := range per {
			if r := per[m].exact(); r != nil {
				sum.Add(sum, r)
				n++
			}
			per[m] = exactMean{}
		}
		if n > 0 {
			out = append(out, hardScore{q: q, score: sum.Quo(sum, new(big.Rat).SetInt64(int64(n))), nModels: n})
		}
	}
	last := -1
	for _, u := range p.units {
		if p.popJud[p.graders[u.g].pop] != judges {
			continue
		}
		if u.q != last {
			if last >= 0 {
				flush(last)
			}
			last = u.q
		}
		per[u.m].add(u.clip)
	}
	if last >= 0 {
		flush(last)
	}
	return out, source
}

// hardSubset marks the Hard questions and returns them per domain,
// hardest first, with whose gradings ranked them.
func (p *prep) hardSubset() ([]HardQuestion, string) {
	scores, source := p.difficulty()
	var out []HardQuestion
	for _, d := range p.domains {
		var ds []hardScore
		for _, s := range scores {
			if p.qs[s.q].domain == d {
				ds = append(ds, s)
			}
		}
		if len(ds) == 0 {
			continue
		}
		slices.SortFunc(ds, func(a, b hardScore) int {
			return cmp.Or(a.score.Cmp(b.score), cmp.Compare(p.qs[a.q].id, p.qs[b.q].id))
		})
		k := min(p.opt.HardCount, len(ds))
		if p.opt.HardCount <= 0 {
			k = ceilShare(p.opt.HardShare, len(ds))
		}
		for i, s := range ds[:k] {
			p.qs[s.q].hard = true
			v, _ := s.score.Float64()
			out = append(out, HardQuestion{Domain: d, Rank: int64(i + 1), QuestionID: p.qs[s.q].id, MeanClipped: v,
				Models: int64(s.nModels), Source: source, DomainQuestions: int64(len(ds))})
		}
	}
	return out, source
}
