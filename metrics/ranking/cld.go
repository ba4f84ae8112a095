package ranking

import (
	"fmt"
	"slices"
)

// CompactLetters returns the compact letter display of n treatments (in the
// order given, usually best first) from the pairs that differ
// significantly: differ(i, j) for i < j. Treatments that share a letter do
// not differ significantly; every pair that differs shares none.
//
// It is Piepho's (2004) insert-and-absorb algorithm: start with one letter
// column holding every treatment; for each significant pair (i, j), every
// column holding both is replaced by two copies, one without i and one
// without j (insert), and then every column contained in another column is
// dropped (absorb). The columns that remain are the maximal sets of
// treatments with no significant pair among them, so the result does not
// depend on the order of the pairs. No sweeping step is applied. Columns
// are then sorted by their members (the column holding the earliest
// treatment first) and named a, b, …, z, A, …, Z, then [53], [54], …; a
// treatment's display is the names of its columns in that order.
func CompactLetters(n int, differ func(i, j int) bool) []string {
	if n <= 0 {
		return nil
	}
	all := make([]bool, n)
	for i := range all {
		all[i] = true
	}
	cols := [][]bool{all}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if !differ(i, j) {
				continue
			}
			var next [][]bool
			for _, c := range cols {
				if c[i] && c[j] {
					a, b := slices.Clone(c), slices.Clone(c)
					a[i], b[j] = false, false
					next = append(next, a, b)
				} else {
					next = append(next, c)
				}
			}
			cols = absorb(next)
		}
	}
	members := make([][]int, len(cols))
	for k, c := range cols {
		for t, in := range c {
			if in {
				members[k] = append(members[k], t)
			}
		}
	}
	slices.SortFunc(members, slices.Compare[[]int])
	out := make([]string, n)
	for k, ms := range members {
		name := letterName(k)
		for _, t := range ms {
			out[t] += name
		}
	}
	return out
}

// absorb drops every column that is a subset of another (of two equal
// columns the later one).
func absorb(cols [][]bool) [][]bool {
	subset := func(a, b []bool) bool {
		for t := range a {
			if a[t] && !b[t] {
				return false
			}
		}
		return true
	}
	var out [][]bool
	for x, c := range cols {
		drop := false
		for y, d := range cols {
			if x == y || !subset(c, d) {
				continue
			}
			if !subset(d, c) || y < x { // strict subset, or an equal column kept earlier
				drop = true
				break
			}
		}
		if !drop {
			out = append(out, c)
		}
	}
	return out
}

func letterName(k int) string {
	switch {
	case k < 26:
		return string(rune('a' + k))
	case k < 52:
		return string(rune('A' + k - 26))
	}
	return fmt.Sprintf("[%d]", k+1)
}
