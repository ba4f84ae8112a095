package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/ingest/tabular"
)

// TestWriteRecordsJSON checks that the problem list written record by
// record is what json.Encoder (indent "  ") writes for the whole array.
func TestWriteRecordsJSON(t *testing.T) {
	tests := []struct {
		name     string
		probs    []Problem
		warnings []string
	}{
		{"empty", nil, nil},
		{"warnings only", nil, []string{"a <b> & c"}},
		{"problems and warnings", []Problem{
			{Loc: tabular.Loc{File: "grades/a.csv", Row: 3, Column: "Domain", Offset: -1}, Value: "9", Expected: "an integer <1…5>", Kind: "scores"},
			{Loc: tabular.Loc{File: "grades/a.csv", Sheet: "S", Row: 0, Offset: -1}, Value: "=1+2", Expected: "x \"quoted\"", Fix: "fix\tit"},
		}, []string{"w1", "w2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got bytes.Buffer
			if err := WriteProblems(&got, ListJSON, tc.probs, tc.warnings); err != nil {
				t.Fatal(err)
			}
			recs := []problemRecord{}
			ids := map[string]int{}
			for _, g := range GroupProblems(tc.probs) {
				ids[g.Examples[0].groupKey()] = g.ID
			}
			for _, p := range tc.probs {
				recs = append(recs, problemRecord{"problem", p.Loc.File, p.Loc.Sheet, p.Loc.Row, p.Loc.Column, p.Value, p.Expected, p.Fix, ids[p.groupKey()], p.Kind})
			}
			for _, m := range tc.warnings {
				recs = append(recs, problemRecord{Severity: "warning", Expected: m})
			}
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetIndent("", "  ")
			enc.Encode(recs)
			if got.String() != want.String() {
				t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
			}
		})
	}
}

// TestWriteAllProblemsEqualsList checks that the list written from the
// compact store equals WriteProblems of the same problems in file and row
// order, groups numbered alike, in both formats.
func TestWriteAllProblemsEqualsList(t *testing.T) {
	ps := problems{all: true}
	var list []Problem
	add := func(p Problem) {
		ps.add(p)
		list = append(list, p)
	}
	for i := 0; i < 40; i++ {
		f := fmt.Sprintf("grades/humans/main/f%d.csv", i%3)
		add(Problem{Loc: tabular.Loc{File: f, Format: tabular.FormatCSV, Row: 100 - i, Column: "Domain", Offset: int64(i)}, Value: fmt.Sprint(i), Expected: "an integer score from 1 to 5", Kind: "scores not on the rubric scale"})
		if i%5 == 0 {
			add(Problem{Loc: tabular.Loc{File: f, Format: tabular.FormatCSV, Row: i + 2, Offset: -1}, Value: "q9", Expected: fmt.Sprintf("a listed question (row %d)", i)})
		}
	}
	e := ps.err().(*ProblemsError)
	sortProblems(list)
	for _, format := range []string{ListJSON, ListCSV} {
		var got, want bytes.Buffer
		if err := WriteAllProblems(&got, format, e); err != nil {
			t.Fatal(err)
		}
		if err := WriteProblems(&want, format, list, e.Warnings); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: got\n%s\nwant\n%s", format, got.String(), want.String())
		}
	}
}

// TestManyProblemsBounded validates a grading CSV with a bad score on each
// of a million rows: every problem is kept for the list, compactly (the
// heap in use with the problems held stays under 300 MB and 200 bytes a
// problem; before: about 785 bytes a problem), and the CSV list has a line
// per problem plus the header and the warnings.
func TestManyProblemsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("a million rows")
	}
	const n = 1_000_000
	dir := copyStudy(t, nil)
	f, err := os.Create(filepath.Join(dir, "grades/humans/main/many.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(aliceHeader)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "e%07d,q1,m1,9,4,3,5,4,hit,partial,,\n", i)
		if b.Len() > 1<<20 {
			f.WriteString(b.String())
			b.Reset()
		}
	}
	f.WriteString(b.String())
	f.Close()
	os.WriteFile(filepath.Join(dir, "study.toml"), []byte("[limits]\ngraders_per_response = 100000\n"), 0o644)

	_, err = Ingest(context.Background(), dir, Options{AllProblems: true})
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want *ProblemsError", err)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("%d problems; heap in use %d MiB", pe.Total, ms.HeapInuse>>20)
	if ms.HeapInuse > 300<<20 || ms.HeapInuse/uint64(pe.Total) > 200 {
		t.Errorf("heap in use %d MiB with %d problems held, want under 300 MiB and 200 bytes a problem", ms.HeapInuse>>20, pe.Total)
	}
	var lines lineCounter
	if err := WriteAllProblems(&lines, ListCSV, pe); err != nil {
		t.Fatal(err)
	}
	if want := 1 + pe.Total + len(pe.Warnings); lines.n != want {
		t.Errorf("%d lines, want %d (header, %d problems, %d warnings)", lines.n, want, pe.Total, len(pe.Warnings))
	}
	if pe.Total < n {
		t.Errorf("%d problems, want at least one per row (%d)", pe.Total, n)
	}
}

// lineCounter counts the newlines written to it.
type lineCounter struct{ n int }

func (c *lineCounter) Write(p []byte) (int, error) {
	c.n += bytes.Count(p, []byte{'\n'})
	return len(p), nil
}
