package ingest

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"
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
	recs := make([]problemRecord, 0, len(probs)+len(warnings))
	ids := map[string]int{}
	for _, g := range GroupProblems(probs) {
		ids[g.Examples[0].groupKey()] = g.ID
	}
	for _, p := range probs {
		recs = append(recs, problemRecord{"problem", p.Loc.File, p.Loc.Sheet, p.Loc.Row, p.Loc.Column, p.Value, p.Expected, p.Fix, ids[p.groupKey()], p.Kind})
	}
	for _, m := range warnings {
		recs = append(recs, problemRecord{Severity: "warning", Expected: m})
	}
	switch format {
	case ListJSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(recs); err != nil {
			return fmt.Errorf("write problem list: %w", err)
		}
		return nil
	case ListCSV:
		cw := csv.NewWriter(w)
		cw.Write([]string{"severity", "file", "sheet", "row", "column", "value", "expected", "fix", "group", "kind"})
		for _, r := range recs {
			row := ""
			if r.Row > 0 {
				row = fmt.Sprint(r.Row)
			}
			group := ""
			if r.Group > 0 {
				group = fmt.Sprint(r.Group)
			}
			cw.Write([]string{r.Severity, asText(r.File), asText(r.Sheet), row, asText(r.Column), asText(r.Value), asText(r.Expected), asText(r.Fix), group, asText(r.Kind)})
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return fmt.Errorf("write problem list: %w", err)
		}
		return nil
	}
	return fmt.Errorf("problem list format %q: expected %q or %q", format, ListJSON, ListCSV)
}

// asText keeps a cell text in a spreadsheet: a leading = + - @ tab or CR
// would start a formula, so it is prefixed with an apostrophe.
func asText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
