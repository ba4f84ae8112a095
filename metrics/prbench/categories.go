package prbench

import "github.com/euroexec/euroexec/study"

// categoryScore returns a unit's min-normalised score restricted to the
// graded criteria of category c; undefined when none of them was graded.
func (p *prep) categoryScore(ui, c int) study.Rat {
	u := &p.units[ui]
	q := &p.qs[u.q]
	var raw, pos, neg int64
	for ci, v := range u.vals {
		if v < 0 || q.crit[ci].cat != c {
			continue
		}
		w := q.crit[ci].w
		if w > 0 {
			pos += w
		} else {
			neg += w
		}
		if v == 1 {
			raw += w
		}
	}
	return normalizedScore(raw, pos, neg)
}

// categoryRows are the rows of prbench_categories, per population,
// category and model; it sets Result.Categories. Nil when no criterion has
// a category.
func (p *prep) categoryRows() []CategoryRow {
	if len(p.cats) == 0 {
		p.note("prbench_categories", "no criterion has a category; the per-category table is left out")
		return nil
	}
	uncat := 0
	for _, q := range p.qs {
		for _, c := range q.crit {
			if c.cat < 0 {
				uncat++
			}
		}
	}
	if uncat > 0 {
		p.note("prbench_categories", "%d criteria have no category and are left out of the per-category scores", uncat)
	}
	p.res.Categories = append([]string(nil), p.cats...)
	var out []CategoryRow
	for pop := range p.pops {
		for c, name := range p.cats {
			rows := p.scoreBlock(pop, nil, 1, func(ui int) (study.Rat, study.Rat) { return p.categoryScore(ui, c), study.Rat{} })
			for _, r := range rows {
				out = append(out, CategoryRow{Graders: p.pops[pop], Category: name, Model: p.models[r.model],
					Questions: int64(r.nQ), N: int64(r.n), Normalized: Score{r.mean[0], r.sd[0], r.lo[0], r.hi[0]}})
			}
		}
	}
	return out
}
