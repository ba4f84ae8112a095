package ingest

import (
	"cmp"
	"iter"
	"slices"

	"github.com/euroexec/euroexec/ingest/tabular"
)

// problemStore holds every problem of a study (Options.AllProblems)
// compactly: the texts that repeat from problem to problem (file, format,
// sheet, column, kind, fix and what was expected) are kept once and
// numbered, so that a study with millions of problems holds a fixed small
// record and its value per problem.
type problemStore struct {
	strs []string
	ids  map[string]int32
	recs []storedProblem
}

// storedProblem is a Problem with its repeated texts numbered in
// problemStore.strs.
type storedProblem struct {
	file, format, sheet, column, kind, fix, expected int32
	row                                              int64
	offset                                           int64
	value                                            string
}

func (s *problemStore) id(v string) int32 {
	if i, ok := s.ids[v]; ok {
		return i
	}
	if s.ids == nil {
		s.ids = map[string]int32{}
	}
	i := int32(len(s.strs))
	s.strs = append(s.strs, v)
	s.ids[v] = i
	return i
}

func (s *problemStore) add(p Problem) {
	s.recs = append(s.recs, storedProblem{
		file: s.id(p.Loc.File), format: s.id(p.Loc.Format), sheet: s.id(p.Loc.Sheet), column: s.id(p.Loc.Column),
		kind: s.id(p.Kind), fix: s.id(p.Fix), expected: s.id(p.Expected),
		row: int64(p.Loc.Row), offset: p.Loc.Offset, value: p.Value,
	})
}

func (s *problemStore) problem(r *storedProblem) Problem {
	return Problem{
		Loc: tabular.Loc{File: s.strs[r.file], Format: s.strs[r.format], Sheet: s.strs[r.sheet], Row: int(r.row),
			Column: s.strs[r.column], Offset: r.offset},
		Value: r.value, Expected: s.strs[r.expected], Kind: s.strs[r.kind], Fix: s.strs[r.fix],
	}
}

// sort orders the problems by file, sheet and row, keeping the order of
// problems at one place (as sortProblems).
func (s *problemStore) sort() {
	slices.SortStableFunc(s.recs, func(a, b storedProblem) int {
		if c := cmp.Compare(s.strs[a.file], s.strs[b.file]); c != 0 {
			return c
		}
		if c := cmp.Compare(s.strs[a.sheet], s.strs[b.sheet]); c != 0 {
			return c
		}
		return cmp.Compare(a.row, b.row)
	})
}

// all yields every problem in the store's order.
func (s *problemStore) all() iter.Seq[Problem] {
	return func(yield func(Problem) bool) {
		for i := range s.recs {
			if !yield(s.problem(&s.recs[i])) {
				return
			}
		}
	}
}

// groupIDs returns the group number of every problem of the (sorted)
// store, as GroupProblems numbers the groups of the same problems in the
// same order: the first maxTracked groups, as they first come, sorted by
// file, sheet, first row and column, then the others as they first come.
func (s *problemStore) groupIDs() []int32 {
	key := func(r *storedProblem) [4]int32 {
		k := r.kind
		if s.strs[k] == "" {
			k = r.expected
		}
		return [4]int32{r.file, r.sheet, r.column, k}
	}
	byKey := map[[4]int32]int32{} // group key → index in first
	var first []int               // per group, as they first come: its first problem
	ids := make([]int32, len(s.recs))
	for i := range s.recs {
		k := key(&s.recs[i])
		g, ok := byKey[k]
		if !ok {
			g = int32(len(first))
			byKey[k] = g
			first = append(first, i)
		}
		ids[i] = g
	}
	tracked := min(len(first), maxTracked)
	order := make([]int32, tracked) // the tracked groups in listing order
	for g := range order {
		order[g] = int32(g)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		ra, rb := &s.recs[first[a]], &s.recs[first[b]]
		if c := cmp.Compare(s.strs[ra.file], s.strs[rb.file]); c != 0 {
			return c
		}
		if c := cmp.Compare(s.strs[ra.sheet], s.strs[rb.sheet]); c != 0 {
			return c
		}
		if c := cmp.Compare(ra.row, rb.row); c != 0 {
			return c
		}
		return cmp.Compare(s.strs[ra.column], s.strs[rb.column])
	})
	num := make([]int32, len(first)) // group → its number
	for i, g := range order {
		num[g] = int32(i + 1)
	}
	for g := tracked; g < len(first); g++ {
		num[g] = int32(g + 1)
	}
	for i, g := range ids {
		ids[i] = num[g]
	}
	return ids
}
