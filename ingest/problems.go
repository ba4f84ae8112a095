package ingest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/ingest/tabular"
)

// MaxProblems is how many problems are listed before the rest are only counted.
const MaxProblems = 100

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
}

// String renders the problem as one line: where, the value found, what was
// expected.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.Loc.String())
	b.WriteString(": ")
	if p.Value != "" {
		v := p.Value
		if len(v) > 80 {
			v = v[:77] + "..."
		}
		fmt.Fprintf(&b, "found %q; ", v)
	}
	b.WriteString(p.Expected)
	return b.String()
}

// ProblemsError is the error returned when a study has problems. It lists
// up to MaxProblems of them, in file and row order, and counts the rest.
type ProblemsError struct {
	Problems []Problem // at most MaxProblems (Options.AllProblems: all)
	More     int       // problems found beyond MaxProblems
	Warnings []string  // the warnings found up to the problems
}

// Error lists every kept problem, one per line.
func (e *ProblemsError) Error() string {
	var b strings.Builder
	n := len(e.Problems) + e.More
	fmt.Fprintf(&b, "the study has %d problem", n)
	if n != 1 {
		b.WriteString("s")
	}
	b.WriteString(":")
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	if e.More > 0 {
		fmt.Fprintf(&b, "\n  … and %d more", e.More)
	}
	return b.String()
}

// problems collects problems and warnings during a read.
type problems struct {
	all      bool // keep every problem (Options.AllProblems)
	list     []Problem
	more     int
	warnings []string
	counts   map[string]int // counted warnings: message → count
	order    []string
}

func (ps *problems) add(p Problem) {
	if ps.full() {
		ps.more++
		return
	}
	ps.list = append(ps.list, p)
}

// full reports whether the list holds as many problems as are kept.
func (ps *problems) full() bool { return !ps.all && len(ps.list) >= MaxProblems }

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
	if len(ps.list) == 0 && ps.more == 0 {
		return nil
	}
	list := append([]Problem(nil), ps.list...)
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
	return &ProblemsError{Problems: list, More: ps.more, Warnings: ps.allWarnings()}
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
