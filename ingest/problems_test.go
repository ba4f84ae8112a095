package ingest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/ingest/tabular"
)

func at(file, sheet string, row int, col string) tabular.Loc {
	return tabular.Loc{File: file, Sheet: sheet, Row: row, Column: col, Offset: -1, Format: tabular.FormatXLSX}
}

// TestGroupProblems: problems are grouped by file, sheet, column and kind
// (Expected when there is no kind), each in exactly one group, groups in
// file, sheet, first-row order, examples in row order.
func TestGroupProblems(t *testing.T) {
	score := func(row int, v string) Problem {
		return Problem{Loc: at("a.xlsx", "Finance", row, "Domain"), Value: v, Expected: "an integer score from 1 to 5", Kind: "scores off the scale"}
	}
	probs := []Problem{
		score(12, "9"), score(4, "7"), score(9, "0"), score(30, "6"), // arrival order is not row order
		{Loc: at("a.xlsx", "Legal", 5, "Domain"), Value: "8", Expected: "an integer score from 1 to 5", Kind: "scores off the scale"},
		{Loc: at("a.xlsx", "Finance", 3, "Reasoning"), Value: "x", Expected: "an integer score from 1 to 5", Kind: "scores off the scale"},
		{Loc: at("a.xlsx", "Finance", 2, ""), Expected: "one grading per evaluator"},
		{Loc: at("a.xlsx", "Finance", 7, ""), Expected: "one grading per evaluator"},
		{Loc: at("a.xlsx", "Finance", 8, ""), Expected: "something else"},
		{Loc: at("0.csv", "", 1, "x"), Expected: "a header"},
	}
	got := GroupProblems(probs)
	type want struct {
		file, sheet, col string
		count            int
		rows             []int
	}
	wants := []want{
		{"0.csv", "", "x", 1, []int{1}},
		{"a.xlsx", "Finance", "", 2, []int{2, 7}},
		{"a.xlsx", "Finance", "Reasoning", 1, []int{3}},
		// 4 problems, the first three kept in arrival order (12, 4, 9), shown in row order
		{"a.xlsx", "Finance", "Domain", 4, []int{4, 9, 12}},
		{"a.xlsx", "Finance", "", 1, []int{8}},
		{"a.xlsx", "Legal", "Domain", 1, []int{5}},
	}
	if len(got) != len(wants) {
		t.Fatalf("got %d groups, want %d: %+v", len(got), len(wants), got)
	}
	total := 0
	for i, w := range wants {
		g := got[i]
		var rows []int
		for _, p := range g.Examples {
			rows = append(rows, p.Loc.Row)
		}
		if g.ID != i+1 || g.Loc.File != w.file || g.Loc.Sheet != w.sheet || g.Loc.Column != w.col || g.Count != w.count || fmt.Sprint(rows) != fmt.Sprint(w.rows) {
			t.Errorf("group %d: got id %d %s/%s/%s count %d rows %v, want %s/%s/%s count %d rows %v",
				i, g.ID, g.Loc.File, g.Loc.Sheet, g.Loc.Column, g.Count, rows, w.file, w.sheet, w.col, w.count, w.rows)
		}
		total += g.Count
	}
	if total != len(probs) {
		t.Errorf("groups hold %d problems, want %d", total, len(probs))
	}
}

// TestGroupString: a group of one is the problem's own line; a larger one
// says the count, kind, first three rows and values, expected and fix.
func TestGroupString(t *testing.T) {
	p := func(row int, v string) Problem {
		return Problem{Loc: at("grades/humans/alice.xlsx", "Finance", row, "Domain"), Value: v,
			Expected: "an integer score from 1 to 5", Kind: "scores outside 1–5", Fix: "type a whole number from 1 to 5"}
	}
	for _, c := range []struct {
		name  string
		probs []Problem
		want  string
	}{
		{"one", []Problem{p(4, "7")},
			`grades/humans/alice.xlsx, sheet "Finance", row 4, column "Domain": found "7"; an integer score from 1 to 5; fix: type a whole number from 1 to 5`},
		{"four", []Problem{p(4, "7"), p(9, "0"), p(12, "9"), p(20, "8")},
			`grades/humans/alice.xlsx, sheet "Finance", column "Domain": 4 scores outside 1–5 (e.g. row 4 "7", row 9 "0", row 12 "9"); an integer score from 1 to 5; fix: type a whole number from 1 to 5`},
		{"no value, no kind", []Problem{
			{Loc: at("g.jsonl", "", 3, ""), Expected: "x at 1"}, {Loc: tabular.Loc{File: "g.jsonl", Row: 5, Format: tabular.FormatJSONL, Offset: -1}, Expected: "x at 1"}},
			`g.jsonl: 2 problems (e.g. row 3, line 5); x at 1`},
		{"differing expected", []Problem{
			{Loc: at("g.xlsx", "S", 3, "label"), Value: "E", Expected: "a label of question 1", Kind: "unknown labels"},
			{Loc: at("g.xlsx", "S", 5, "label"), Value: "F", Expected: "a label of question 2", Kind: "unknown labels"}},
			`g.xlsx, sheet "S", column "label": 2 unknown labels (e.g. row 3 "E", row 5 "F"); row 3: a label of question 1`},
	} {
		gs := GroupProblems(c.probs)
		if len(gs) != 1 {
			t.Errorf("%s: %d groups, want 1", c.name, len(gs))
			continue
		}
		if got := gs[0].String(); got != c.want {
			t.Errorf("%s:\ngot  %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestProblemsCap: the terminal listing shows MaxGroups groups and says
// how many groups and problems it leaves out; the collector keeps at most
// MaxExamples problems of a group, and every problem when asked to.
func TestProblemsCap(t *testing.T) {
	for _, all := range []bool{false, true} {
		ps := problems{all: all}
		// MaxGroups+10 files with 5 problems each
		for f := 0; f < MaxGroups+10; f++ {
			for r := 0; r < 5; r++ {
				ps.add(Problem{Loc: at(fmt.Sprintf("f%03d.csv", f), "", r+2, "Domain"), Value: "9", Expected: "a score"})
			}
		}
		e := ps.err().(*ProblemsError)
		n := (MaxGroups + 10) * 5
		if e.Total != n || len(e.Groups) != MaxGroups+10 {
			t.Errorf("all=%v: total %d, groups %d; want %d, %d", all, e.Total, len(e.Groups), n, MaxGroups+10)
		}
		wantKept := (MaxGroups + 10) * MaxExamples
		if all {
			wantKept = n
		}
		kept := 0
		for range e.All() {
			kept++
		}
		if kept != wantKept {
			t.Errorf("all=%v: %d problems kept, want %d", all, kept, wantKept)
		}
		msg := e.Error()
		lines := strings.Split(msg, "\n")
		if len(lines) != 1+MaxGroups+1 {
			t.Errorf("all=%v: %d lines, want %d", all, len(lines), MaxGroups+2)
		}
		if want := fmt.Sprintf("the study has %d problems in %d groups:", n, MaxGroups+10); lines[0] != want {
			t.Errorf("first line %q, want %q", lines[0], want)
		}
		if want := "  … and 10 more groups (50 problems); validate --format csv lists every problem"; lines[len(lines)-1] != want {
			t.Errorf("last line %q, want %q", lines[len(lines)-1], want)
		}
	}
}

// TestUntrackedGroups: past maxTracked groups, problems are counted, and
// GroupProblems still puts every problem in a group.
func TestUntrackedGroups(t *testing.T) {
	var probs []Problem
	ps := problems{}
	for i := 0; i < maxTracked+3; i++ {
		p := Problem{Loc: at("a.csv", "", i+2, ""), Expected: fmt.Sprintf("distinct %d", i)}
		probs = append(probs, p)
		ps.add(p)
	}
	e := ps.err().(*ProblemsError)
	if e.Total != maxTracked+3 || e.More != 3 || e.MoreGroups != 3 || len(e.Groups) != maxTracked {
		t.Errorf("total %d more %d moreGroups %d groups %d", e.Total, e.More, e.MoreGroups, len(e.Groups))
	}
	if !strings.HasSuffix(e.Error(), fmt.Sprintf("… and %d more groups (%d problems); validate --format csv lists every problem", maxTracked+3-MaxGroups, maxTracked+3-MaxGroups)) {
		t.Errorf("last line: %s", e.Error()[len(e.Error())-120:])
	}
	gs := GroupProblems(probs)
	sum := 0
	for i, g := range gs {
		sum += g.Count
		if g.ID != i+1 {
			t.Fatalf("group %d has id %d", i, g.ID)
		}
	}
	if len(gs) != maxTracked+3 || sum != len(probs) {
		t.Errorf("GroupProblems: %d groups holding %d problems, want %d, %d", len(gs), sum, maxTracked+3, len(probs))
	}
}

func ExampleGroupProblems() {
	score := func(row int, v string) Problem {
		return Problem{
			Loc:      tabular.Loc{File: "grades/humans/alice.xlsx", Sheet: "Finance", Row: row, Column: "Domain", Offset: -1},
			Value:    v,
			Expected: "an integer score from 1 to 5",
			Kind:     "scores that are not integers from 1 to 5",
		}
	}
	probs := []Problem{score(4, "7"), score(9, "0"), score(12, "9"), score(15, "N/A")}
	for _, g := range GroupProblems(probs) {
		fmt.Println(g.ID, g.Count, g.String())
	}
	// Output:
	// 1 4 grades/humans/alice.xlsx, sheet "Finance", column "Domain": 4 scores that are not integers from 1 to 5 (e.g. row 4 "7", row 9 "0", row 12 "9"); an integer score from 1 to 5
}

// TestTotalsRow: a row whose first non-empty cell says Total, Sum,
// Average, … and that has no question id of its own is a totals row.
func TestTotalsRow(t *testing.T) {
	h := &header{idx: map[string]int{"evaluator": 0, "question_id": 1}, names: []string{"evaluator", "question_id"}}
	for _, c := range []struct {
		cells []string
		want  bool
	}{
		{[]string{"Total", ""}, true},
		{[]string{"", "TOTAL:"}, true},
		{[]string{"Total score", ""}, true},
		{[]string{"  Average ", ""}, true},
		{[]string{"mean", "mean"}, true},
		{[]string{"Totals", ""}, true},
		{[]string{"Sum Li", "101"}, false}, // an evaluator with a question: a grading
		{[]string{"Totally", ""}, false},
		{[]string{"expert_01", "Total"}, false}, // the first non-empty cell decides
		{[]string{"", ""}, false},
	} {
		cells := make([]tabular.Cell, len(c.cells))
		for i, s := range c.cells {
			cells[i].Text = s
		}
		if _, got := totalsRow(row{h: h, cells: cells}); got != c.want {
			t.Errorf("%q: totals row %v, want %v", c.cells, got, c.want)
		}
	}
}
