package analysis

import (
	"fmt"
	"slices"
	"sort"
	"testing"
)

// prevDeriveRanks is deriveRanks before it bucketed the entries by
// question instead of grouping them in a map, kept as the oracle of
// TestDeriveRanksEqualsPrev: it re-derives each (evaluator, question,
// round)'s ranks among the view's models, keeping the evaluator's order
// (ties of averaged judge ranks broken by model name).
func (p *prep) prevDeriveRanks(v *view) {
	v.rank = make([]float64, len(v.g))
	v.win = make([]bool, len(v.g))
	type key struct{ e, q, r int }
	groups := map[key][]int{} // positions in v.g
	var order []key
	for pos, i := range v.g {
		g := &p.grades[i]
		if g.rank <= 0 {
			continue
		}
		k := key{g.e, g.q, g.round}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], pos)
	}
	for _, k := range order {
		ps := groups[k]
		sort.SliceStable(ps, func(a, b int) bool {
			ga, gb := &p.grades[v.g[ps[a]]], &p.grades[v.g[ps[b]]]
			if ga.rank != gb.rank {
				return ga.rank < gb.rank
			}
			return ga.m < gb.m
		})
		for r, pos := range ps {
			v.rank[pos] = float64(r + 1)
		}
		v.win[ps[0]] = true
	}
}

// TestDeriveRanksEqualsPrev checks the re-derived ranks and winners of
// every view (both sets, humans and each judge) against prevDeriveRanks,
// on studies with averaged judge ranks that tie and a third human.
func TestDeriveRanksEqualsPrev(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    *Study
	}{
		{"synthetic", synthStudy(500, 2)},
		{"more graders", withMoreGraders(900, 6)},
		{"mini", miniStudy(t)},
	} {
		p, err := newPrep(tc.s, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		for _, set := range []string{setAll, setRef} {
			for _, j := range append([]int{-1}, p.judges...) {
				t.Run(fmt.Sprintf("%s/%s/%d", tc.name, set, j), func(t *testing.T) {
					v := p.makeView(set, j)
					rank, win := slices.Clone(v.rank), slices.Clone(v.win)
					p.prevDeriveRanks(v)
					if !slices.Equal(rank, v.rank) || !slices.Equal(win, v.win) {
						t.Errorf("ranks %v wins %v, want %v %v", rank, win, v.rank, v.win)
					}
				})
			}
		}
	}
}

// BenchmarkDeriveRanks compares prevDeriveRanks and deriveRanks on the
// human view of a 10,000-question study (two humans per question, a third
// on every third one), in the same run.
func BenchmarkDeriveRanks(b *testing.B) {
	p, err := newPrep(withMoreGraders(10000, 1), DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	v := p.makeView(setAll, -1)
	b.Run("old", func(b *testing.B) {
		for range b.N {
			p.prevDeriveRanks(v)
		}
	})
	b.Run("new", func(b *testing.B) {
		for range b.N {
			p.deriveRanks(v)
		}
	})
}
