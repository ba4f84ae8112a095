package prbench

import (
	"fmt"
	"math"
	"testing"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

// grade appends one grader's grades of one response: mets[i] is '1' (met),
// '0' (not met) or '-' (not graded) for criterion ids[i].
func grade(s *study.Study, ev, kind, q, m string, ids []string, mets string) {
	for i, id := range ids {
		if mets[i] == '-' {
			continue
		}
		s.CriterionGrades = append(s.CriterionGrades, study.CriterionGrade{
			Evaluator: ev, Kind: kind, QuestionID: q, Model: m, CriterionID: id, Met: mets[i] == '1'})
	}
}

func table(t *testing.T, res Result, name string) *report.Table {
	t.Helper()
	for _, tb := range res.Part().Tables {
		if tb.Name == name {
			return tb
		}
	}
	t.Fatalf("table %s missing; have %v", name, tableNames(res))
	return nil
}

func tableNames(res Result) []string {
	var n []string
	for _, tb := range res.Part().Tables {
		n = append(n, tb.Name)
	}
	return n
}

func colIndex(t *testing.T, tb *report.Table, name string) int {
	t.Helper()
	for i, c := range tb.Columns {
		if c.Name == name {
			return i
		}
	}
	t.Fatalf("table %s has no column %s", tb.Name, name)
	return -1
}

// row returns the single row of tb whose text columns match key (column
// name → value).
func row(t *testing.T, tb *report.Table, key map[string]string) []any {
	t.Helper()
	var found []any
	n := 0
	for _, r := range tb.Rows {
		ok := true
		for c, v := range key {
			if fmt.Sprint(r[colIndex(t, tb, c)]) != v {
				ok = false
				break
			}
		}
		if ok {
			found = r
			n++
		}
	}
	if n != 1 {
		t.Fatalf("table %s: %d rows match %v, want 1", tb.Name, n, key)
	}
	return found
}

// checkF checks a float cell; want NaN means an undefined cell.
func checkF(t *testing.T, tb *report.Table, r []any, colName string, want, tol float64) {
	t.Helper()
	v := r[colIndex(t, tb, colName)]
	got, ok := v.(float64)
	if !ok {
		t.Errorf("%s.%s: got %T %v, want float64 %v", tb.Name, colName, v, v, want)
		return
	}
	if math.IsNaN(want) {
		if !math.IsNaN(got) {
			t.Errorf("%s.%s: got %v, want NaN", tb.Name, colName, got)
		}
		return
	}
	if math.IsNaN(got) || math.Abs(got-want) > tol {
		t.Errorf("%s.%s: got %.17g, want %.17g", tb.Name, colName, got, want)
	}
}

// checkV checks a non-float cell by its printed form.
func checkV(t *testing.T, tb *report.Table, r []any, colName string, want any) {
	t.Helper()
	if got := r[colIndex(t, tb, colName)]; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s.%s: got %v, want %v", tb.Name, colName, got, want)
	}
}
