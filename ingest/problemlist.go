package ingest

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"iter"

	"github.com/euroexec/euroexec/internal/cellsafe"
)

// Problem list formats of WriteProblems.
const (
	ListJSON = "json"
	ListCSV  = "csv"
)

// problemRecord is one line of a problem list.
type problemRecord struct {
	Severity string `json:"severity"` // "problem" or "warning"
	File     string `json:"file"`
	Sheet    string `json:"sheet"`
	Row      int    `json:"row"` // 0: the whole file or sheet
	Column   string `json:"column"`
	Value    string `json:"value"`
	Expected string `json:"expected"` // what was expected, or the warning
	Fix      string `json:"fix"`      // how to fix it, when Expected does not say
	Group    int    `json:"group"`    // the problem's group (see GroupProblems); 0 for a warning
	Kind     string `json:"kind"`     // what the group's problems are; "" when grouped by expected
}

// WriteProblems writes problems and warnings for a script (format
// ListJSON: one JSON array of objects with severity, file, sheet, row,
// column, value, expected, fix, group and kind) or a spreadsheet (ListCSV:
// the same columns under a header row; a cell that a spreadsheet would read
// as a formula, starting with = + - @ or a tab, is prefixed with ' so that
// it stays text). Every problem given is written, then every warning.
// group numbers the problem's group as GroupProblems does (the order of
// the terminal listing), so that a script or a pivot table can count the
// problems of each group.
func WriteProblems(w io.Writer, format string, probs []Problem, warnings []string) error {
	ids := map[string]int{}
	for _, g := range GroupProblems(probs) {
		ids[g.Examples[0].groupKey()] = g.ID
	}
	return writeRecords(w, format, func(yield func(problemRecord) bool) {
		for _, p := range probs {
			if !yield(problemRecord{"problem", p.Loc.File, p.Loc.Sheet, p.Loc.Row, p.Loc.Column, p.Value, p.Expected, p.Fix, ids[p.groupKey()], p.Kind}) {
				return
			}
		}
	}, warnings)
}

// WriteAllProblems is WriteProblems of e's problems and warnings: with
// Options.AllProblems every problem, written from the compact list as it
// goes, so that the memory does not grow with the problems.
func WriteAllProblems(w io.Writer, format string, e *ProblemsError) error {
	if e.store == nil {
		return WriteProblems(w, format, e.Problems, e.Warnings)
	}
	s := e.store
	ids := s.groupIDs()
	return writeRecords(w, format, func(yield func(problemRecord) bool) {
		for i := range s.recs {
			p := s.problem(&s.recs[i])
			if !yield(problemRecord{"problem", p.Loc.File, p.Loc.Sheet, p.Loc.Row, p.Loc.Column, p.Value, p.Expected, p.Fix, int(ids[i]), p.Kind}) {
				return
			}
		}
	}, e.Warnings)
}

// writeRecords writes the problem records, then the warnings, one record
// at a time (see WriteProblems for the formats).
func writeRecords(w io.Writer, format string, probs iter.Seq[problemRecord], warnings []string) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	all := func(yield func(problemRecord) bool) {
		for r := range probs {
			if !yield(r) {
				return
			}
		}
		for _, m := range warnings {
			if !yield(problemRecord{Severity: "warning", Expected: m}) {
				return
			}
		}
	}
	switch format {
	case ListJSON:
		// what json.Encoder with the indent "  " writes for the array of
		// records, element by element
		n := 0
		for r := range all {
			b, err := json.MarshalIndent(r, "  ", "  ")
			if err != nil {
				return fmt.Errorf("write problem list: %w", err)
			}
			if n == 0 {
				bw.WriteString("[\n  ")
			} else {
				bw.WriteString(",\n  ")
			}
			bw.Write(b)
			n++
		}
		if n == 0 {
			bw.WriteString("[]\n")
		} else {
			bw.WriteString("\n]\n")
		}
	case ListCSV:
		cw := csv.NewWriter(bw)
		cw.Write([]string{"severity", "file", "sheet", "row", "column", "value", "expected", "fix", "group", "kind"})
		for r := range all {
			row := ""
			if r.Row > 0 {
				row = fmt.Sprint(r.Row)
			}
			group := ""
			if r.Group > 0 {
				group = fmt.Sprint(r.Group)
			}
			cw.Write([]string{r.Severity, cellsafe.CSV(r.File), cellsafe.CSV(r.Sheet), row, cellsafe.CSV(r.Column), cellsafe.CSV(r.Value), cellsafe.CSV(r.Expected), cellsafe.CSV(r.Fix), group, cellsafe.CSV(r.Kind)})
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return fmt.Errorf("write problem list: %w", err)
		}
	default:
		return fmt.Errorf("problem list format %q: expected %q or %q", format, ListJSON, ListCSV)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write problem list: %w", err)
	}
	return nil
}
