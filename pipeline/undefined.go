package pipeline

import (
	"math"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/report"
)

// listsRecords says a table lists the study's own records (its questions,
// models, responses, failed requests): its rows are the information, so it
// is kept whatever its number columns hold.
func listsRecords(t *report.Table) bool {
	return t.Section == report.SectionDataset || t.Name == "responses" || t.Name == "failed_requests"
}

// leaveOutUndefined removes from rep every analysis table that has rows but
// no defined value in any of its number columns (Float or Fraction; counts
// are not values), and every figure with nothing to draw (or whose table
// was removed), each with a note saying why: a report shows no rows of "—"
// and no empty chart. An analysis table without rows is left out too. A
// table without number columns, or that lists the study's records
// (listsRecords), is kept.
func leaveOutUndefined(rep *report.Report) {
	gone := map[string]bool{}
	tables := rep.Tables[:0]
	for _, t := range rep.Tables {
		if len(t.Rows) == 0 && len(t.Columns) > 0 && !listsRecords(t) {
			gone[t.Name] = true
			rep.Notes = append(rep.Notes, report.Note{Table: t.Name, Reason: "left out: no rows"})
			continue
		}
		if cols, ok := allUndefined(t); ok && !listsRecords(t) {
			gone[t.Name] = true
			rep.Notes = append(rep.Notes, report.Note{Table: t.Name,
				Reason: "left out: every value is undefined (" + strings.Join(cols, ", ") + " empty in all " + plural(len(t.Rows), "row") + ")"})
			continue
		}
		tables = append(tables, t)
	}
	clear(rep.Tables[len(tables):])
	rep.Tables = tables
	figures := rep.Figures[:0]
	for _, f := range rep.Figures {
		switch {
		case f.Table != "" && gone[f.Table]:
			rep.Notes = append(rep.Notes, report.Note{Table: f.ID, Reason: "not drawn: every value of its table " + f.Table + " is undefined"})
		case !drawable(f):
			rep.Notes = append(rep.Notes, report.Note{Table: f.ID, Reason: "not drawn: it has no defined value to show"})
		default:
			figures = append(figures, f)
			continue
		}
	}
	clear(rep.Figures[len(figures):])
	rep.Figures = figures
}

// allUndefined reports whether t has rows and number columns and every
// cell of those columns is undefined (nil or NaN), and names the columns.
func allUndefined(t *report.Table) ([]string, bool) {
	if t == nil || len(t.Rows) == 0 {
		return nil, false
	}
	var idx []int
	var names []string
	for i, c := range t.Columns {
		if c.Kind == report.Float || c.Kind == report.Fraction {
			idx = append(idx, i)
			names = append(names, c.Name)
		}
	}
	if len(idx) == 0 {
		return nil, false
	}
	for _, row := range t.Rows {
		for _, i := range idx {
			if i >= len(row) {
				continue
			}
			switch v := row[i].(type) {
			case nil:
			case float64:
				if !math.IsNaN(v) {
					return nil, false
				}
			default:
				return nil, false // a value of another type is a value
			}
		}
	}
	return names, true
}

// drawable reports whether f has a value to draw: a finite bar or line
// value, a scatter point with finite x and y, or a finite heat-map cell.
// A figure without series at all is left as it is (drawable).
func drawable(f *report.Figure) bool {
	if len(f.Series) == 0 {
		return true
	}
	for _, s := range f.Series {
		for _, v := range s.Values {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				return true
			}
		}
		for _, p := range s.Points {
			if !math.IsNaN(p.X) && !math.IsNaN(p.Y) {
				return true
			}
		}
		for _, c := range s.Cells {
			if !math.IsNaN(c.Value) {
				return true
			}
		}
	}
	return false
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
