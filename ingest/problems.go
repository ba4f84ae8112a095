package ingest

import (
	"fmt"
	"iter"
	"slices"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/ingest/tabular"
)

// MaxGroups is how many groups of problems a terminal listing
// (ProblemsError.Error) shows before the rest are only counted.
const MaxGroups = 50

// MaxExamples is how many problems of a group are shown as examples.
const MaxExamples = 3

// MaxProblems is kept for callers of the earlier API: it is MaxGroups ×
// MaxExamples, the most problems a terminal listing holds.
const MaxProblems = MaxGroups * MaxExamples

// maxTracked bounds the groups counted one by one; problems of further
// groups are only counted, so that a study with a million different
// problems cannot exhaust memory.
const maxTracked = 10_000

// Problem is one thing wrong with the study's input, located as precisely as
// the input allows.
type Problem struct {
	// Loc says where: file (relative to the study folder), sheet, row or
	// line, column, and for encoding errors the byte offset.
	Loc tabular.Loc
	// Value is the value found ("" when it is missing).
	Value string
	// Expected says what was expected instead, or what is wrong.
	Expected string
	// Kind names the sort of problem, in the plural, for a group of them
	// ("scores not on the rubric scale"). Problems of one file, sheet,
	// column and kind are one group; "" (default) groups the problems
	// whose Expected is the same.
	Kind string
	// Fix says how to fix the problem when Expected does not already say
	// it ("" when it does).
	Fix string
}

// String renders the problem as one line: where, the value found, what was
// expected, and the fix.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.Loc.String())
	b.WriteString(": ")
	if p.Value != "" {
		fmt.Fprintf(&b, "found %q; ", short(p.Value))
	}
	b.WriteString(p.Expected)
	if p.Fix != "" {
		b.WriteString("; fix: ")
		b.WriteString(p.Fix)
	}
	return b.String()
}

// short cuts a value to at most 80 bytes for a message.
func short(v string) string {
	if len(v) > 80 {
		v = v[:77] + "..."
	}
	return v
}

// kind is the group kind of a problem: its Kind, else its Expected.
func (p Problem) kind() string {
	if p.Kind != "" {
		return p.Kind
	}
	return p.Expected
}

// groupKey is the key of a problem's group: file, sheet, column and kind.
func (p Problem) groupKey() string {
	return p.Loc.File + "\x00" + p.Loc.Sheet + "\x00" + p.Loc.Column + "\x00" + p.kind()
}

// Group is the problems of one file, sheet, column and kind: a person fixes
// them together.
type Group struct {
	// ID numbers the groups 1, 2, … in the order they are listed.
	ID int
	// Loc is the file, sheet and column the group's problems share (Row
	// and Offset are those of its first problem when it has one problem,
	// else 0 and -1).
	Loc tabular.Loc
	// Kind is the problems' Kind, "" when they are grouped by Expected.
	Kind string
	// Count is the number of problems in the group.
	Count int
	// Examples are its first MaxExamples problems, in row order.
	Examples []Problem
}

// String renders the group as one line. A group of one problem is that
// problem's line; a larger group says how many problems it holds, the rows
// and values of the first three, what was expected and the fix:
//
//	grades/humans/alice.xlsx, sheet "Finance", column "Domain": 37 scores not on the rubric scale (e.g. row 4 "7", row 9 "0", row 12 "9"); an integer score from 1 to 5
func (g Group) String() string {
	first := g.Examples[0]
	if g.Count == 1 {
		return first.String()
	}
	var b strings.Builder
	b.WriteString(g.Loc.String())
	what := g.Kind
	if what == "" {
		what = "problems"
	}
	fmt.Fprintf(&b, ": %d %s (e.g. ", g.Count, what)
	same := true
	for i, p := range g.Examples {
		if i > 0 {
			b.WriteString(", ")
		}
		if p.Expected != first.Expected {
			same = false
		}
		if p.Loc.Row > 0 {
			b.WriteString(rowWord(p.Loc))
			fmt.Fprintf(&b, " %d", p.Loc.Row)
			if p.Value != "" {
				b.WriteString(" ")
			}
		}
		if p.Value != "" {
			fmt.Fprintf(&b, "%q", short(p.Value))
		}
		if p.Loc.Row == 0 && p.Value == "" {
			b.WriteString("the whole file")
		}
	}
	b.WriteString("); ")
	if !same && first.Loc.Row > 0 {
		fmt.Fprintf(&b, "%s %d: ", rowWord(first.Loc), first.Loc.Row)
	}
	b.WriteString(first.Expected)
	if first.Fix != "" {
		b.WriteString("; fix: ")
		b.WriteString(first.Fix)
	}
	return b.String()
}

// rowWord is "line" for JSONL files, "record" for JSON exports, else "row"
// (as tabular.Loc.String says).
func rowWord(l tabular.Loc) string {
	switch l.Format {
	case tabular.FormatJSONL:
		return "line"
	case tabular.FormatJSON:
		return "record"
	}
	return "row"
}

// grouper gathers problems into groups, keeping MaxExamples of each.
type grouper struct {
	byKey map[string]*Group
	list  []*Group
	// untracked counts the problems (and untrackedGroups the groups) met
	// once maxTracked groups were tracked; they may repeat one another.
	untracked, untrackedGroups int
	untrackedSeen              map[string]bool
}

// add puts p in its group and reports whether it is kept as an example.
func (gr *grouper) add(p Problem) bool {
	k := p.groupKey()
	g := gr.byKey[k]
	if g == nil {
		if len(gr.list) >= maxTracked {
			gr.untracked++
			if gr.untrackedSeen == nil {
				gr.untrackedSeen = map[string]bool{}
			}
			if !gr.untrackedSeen[k] && len(gr.untrackedSeen) < maxTracked {
				gr.untrackedSeen[k] = true
				gr.untrackedGroups++
			}
			return false
		}
		if gr.byKey == nil {
			gr.byKey = map[string]*Group{}
		}
		l := p.Loc
		l.Row, l.Offset = 0, -1
		g = &Group{Loc: l, Kind: p.Kind}
		gr.byKey[k] = g
		gr.list = append(gr.list, g)
	}
	g.Count++
	if len(g.Examples) < MaxExamples {
		g.Examples = append(g.Examples, p)
		return true
	}
	return false
}

// sorted returns the groups in file, sheet, first row, column order,
// numbered from 1, their examples in row order.
func (gr *grouper) sorted() []Group {
	out := make([]Group, len(gr.list))
	for i, g := range gr.list {
		out[i] = *g
		ex := append([]Problem(nil), g.Examples...)
		sortProblems(ex)
		out[i].Examples = ex
		if g.Count == 1 {
			out[i].Loc.Row, out[i].Loc.Offset = ex[0].Loc.Row, ex[0].Loc.Offset
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Loc.File != b.Loc.File {
			return a.Loc.File < b.Loc.File
		}
		if a.Loc.Sheet != b.Loc.Sheet {
			return a.Loc.Sheet < b.Loc.Sheet
		}
		if ra, rb := a.Examples[0].Loc.Row, b.Examples[0].Loc.Row; ra != rb {
			return ra < rb
		}
		return a.Loc.Column < b.Loc.Column
	})
	for i := range out {
		out[i].ID = i + 1
	}
	return out
}

// sortProblems sorts problems by file, sheet and row, keeping the order of
// problems at one place.
func sortProblems(list []Problem) {
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.Loc.File != b.Loc.File {
			return a.Loc.File < b.Loc.File
		}
		if a.Loc.Sheet != b.Loc.Sheet {
			return a.Loc.Sheet < b.Loc.Sheet
		}
		return a.Loc.Row < b.Loc.Row
	})
}

// GroupProblems groups problems by file, sheet, column and kind (see
// Problem.Kind), in the order a terminal lists them; every problem is in
// exactly one group.
func GroupProblems(probs []Problem) []Group {
	var gr grouper
	for _, p := range probs {
		gr.add(p)
	}
	gs := gr.sorted()
	if gr.untracked > 0 {
		// Beyond maxTracked groups: a second pass over the rest keeps every
		// problem in a group (a script asked for all of them).
		rest := map[string]*Group{}
		var order []string
		for _, p := range probs {
			k := p.groupKey()
			if _, ok := gr.byKey[k]; ok {
				continue
			}
			g := rest[k]
			if g == nil {
				l := p.Loc
				l.Row, l.Offset = 0, -1
				g = &Group{Loc: l, Kind: p.Kind}
				rest[k] = g
				order = append(order, k)
			}
			g.Count++
			if len(g.Examples) < MaxExamples {
				g.Examples = append(g.Examples, p)
			}
		}
		for _, k := range order {
			g := *rest[k]
			g.ID = len(gs) + 1
			gs = append(gs, g)
		}
	}
	return gs
}

// ProblemsError is the error returned when a study has problems. Its
// message (Error) lists the first MaxGroups groups of problems, each once,
// and counts the rest.
type ProblemsError struct {
	// Problems are the examples of the groups, in file and row order;
	// All yields every problem.
	Problems []Problem
	// Groups are the problems grouped by file, sheet, column and kind, in
	// the order listed.
	Groups []Group
	// Total is the number of problems found.
	Total int
	// More counts the problems that are in no group of Groups (beyond
	// maxTracked groups; 0 but in pathological studies).
	More int
	// MoreGroups counts (at least) the groups of those problems.
	MoreGroups int
	// Warnings are the warnings found up to the problems.
	Warnings []string
	// store holds every problem (Options.AllProblems), sorted; nil
	// without.
	store *problemStore
}

// All yields every problem in file and row order: with
// Options.AllProblems every one found, else those of Problems.
func (e *ProblemsError) All() iter.Seq[Problem] {
	if e.store != nil {
		return e.store.all()
	}
	return slices.Values(e.Problems)
}

// Error lists the first MaxGroups groups, one per line, and says how many
// groups and problems are left out.
func (e *ProblemsError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the study has %d problem%s", e.Total, plural(e.Total))
	if ng := len(e.Groups) + e.MoreGroups; ng != e.Total {
		fmt.Fprintf(&b, " in %d group%s", ng, plural(ng))
	}
	b.WriteString(":")
	shown, inShown := 0, 0
	for _, g := range e.Groups {
		if shown == MaxGroups {
			break
		}
		b.WriteString("\n  ")
		b.WriteString(g.String())
		shown++
		inShown += g.Count
	}
	if restG, restP := len(e.Groups)+e.MoreGroups-shown, e.Total-inShown; restP > 0 {
		fmt.Fprintf(&b, "\n  … and %d more group%s (%d problem%s); validate --format csv lists every problem", restG, plural(restG), restP, plural(restP))
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// problems collects problems and warnings during a read.
type problems struct {
	all      bool // keep every problem (Options.AllProblems)
	gr       grouper
	list     []Problem     // the examples kept
	store    *problemStore // every problem (all)
	total    int
	inGrades int // problems located in files under grades/
	warnings []string
	counts   map[string]int // counted warnings: message → count
	order    []string
}

func (ps *problems) add(p Problem) {
	ps.total++
	if strings.HasPrefix(p.Loc.File, "grades/") {
		ps.inGrades++
	}
	if ps.gr.add(p) {
		ps.list = append(ps.list, p)
	}
	if ps.all {
		if ps.store == nil {
			ps.store = &problemStore{}
		}
		ps.store.add(p)
	}
}

// full reports whether a further problem would most probably not be shown
// (MaxGroups groups are listed), so that costly hints can be skipped.
func (ps *problems) full() bool { return !ps.all && len(ps.gr.list) >= MaxGroups }

func (ps *problems) warn(format string, args ...any) {
	ps.warnings = append(ps.warnings, fmt.Sprintf(format, args...))
}

// count records one occurrence of a warning that is reported once with a count.
func (ps *problems) count(msg string) {
	if ps.counts == nil {
		ps.counts = map[string]int{}
	}
	if ps.counts[msg] == 0 {
		ps.order = append(ps.order, msg)
	}
	ps.counts[msg]++
}

func (ps *problems) err() error {
	if ps.total == 0 {
		return nil
	}
	list := append([]Problem(nil), ps.list...)
	sortProblems(list)
	e := &ProblemsError{Problems: list, Total: ps.total, Warnings: ps.allWarnings(), store: ps.store}
	e.Groups = ps.gr.sorted()
	e.More, e.MoreGroups = ps.gr.untracked, ps.gr.untrackedGroups
	if e.store != nil {
		e.store.sort()
	}
	return e
}

func (ps *problems) allWarnings() []string {
	out := append([]string(nil), ps.warnings...)
	for _, m := range ps.order {
		if n := ps.counts[m]; n > 1 {
			m = fmt.Sprintf("%s (%d times)", m, n)
		}
		out = append(out, m)
	}
	return out
}
