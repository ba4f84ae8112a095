package csvout

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/internal/reporttest"
)

func checkBytes(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) {
		t.Errorf("%s:\ngot:\n%s\nwant:\n%s", what, got, want)
	}
}

// The expected file is written by hand: the shortest float forms are
// 0.1, 1e-07 and 2.5e+21 (Go's 'g' uses at least two exponent digits), NaN
// and nil are empty, 1.0 is "1", bools are true/false, and encoding/csv quotes
// the comma and the doubled quotes.
func TestWriteTableExactBytes(t *testing.T) {
	r := reporttest.Small()
	dir := t.TempDir()
	if err := Write(context.Background(), dir, r, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "tables", "tiny.csv"))
	if err != nil {
		t.Fatal(err)
	}
	want := "name,count,mean,share,flag\n" +
		"a,3,0.1,0.5,true\n" +
		"\"b, with comma\",-2,1e-07,,false\n" +
		"\"say \"\"hi\"\"\",,2.5e+21,1,\n"
	checkBytes(t, "tiny.csv", got, []byte(want))

	notes, err := os.ReadFile(filepath.Join(dir, "tables", "notes.csv"))
	if err != nil {
		t.Fatal(err)
	}
	checkBytes(t, "notes.csv", notes, []byte("table,reason\ncost_vs_solve,no cost_usd or token prices: cost figures left out\n"))

	for _, tb := range r.Tables {
		if _, err := os.Stat(filepath.Join(dir, "tables", tb.Name+".csv")); err != nil {
			t.Errorf("table %s: %v", tb.Name, err)
		}
	}
}

func TestDeterministic(t *testing.T) {
	d1, d2 := t.TempDir(), t.TempDir()
	r1 := reporttest.Small()
	r2 := reporttest.Small()
	r2.GeneratedAt = r2.GeneratedAt.AddDate(1, 0, 0) // the run time never reaches tables/
	if err := Write(context.Background(), d1, r1, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	if err := Write(context.Background(), d2, r2, DefaultOptions); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(filepath.Join(d1, "tables"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != len(r1.Tables)+1 {
		t.Errorf("got %d files, want %d", len(ents), len(r1.Tables)+1)
	}
	for _, e := range ents {
		a, _ := os.ReadFile(filepath.Join(d1, "tables", e.Name()))
		b, err := os.ReadFile(filepath.Join(d2, "tables", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		checkBytes(t, e.Name(), b, a)
	}
}

func TestFormatValue(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{nil, ""},
		{math.NaN(), ""},
		{math.Inf(1), "+Inf"},
		{math.Inf(-1), "-Inf"},
		{0.569, "0.569"},
		{470.0 / 826.0, "0.5690072639225182"}, // Table 4 of the paper
		{1.0 / 3.0, "0.3333333333333333"},
		{100.0, "100"},
		{1e21, "1e+21"},
		{math.Copysign(0, -1), "-0"},
		{int64(-7), "-7"},
		{42, "42"},
		{true, "true"},
		{false, "false"},
		{"=HYPERLINK(\"http://x\")", "=HYPERLINK(\"http://x\")"},
	}
	for _, tc := range tests {
		got, err := FormatValue(tc.in)
		if err != nil {
			t.Errorf("FormatValue(%v): %v", tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("FormatValue(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if _, err := FormatValue([]int{1}); err == nil {
		t.Error("FormatValue([]int) gave no error")
	}
}

func TestWriteErrors(t *testing.T) {
	col := []report.Column{{Name: "a"}}
	tests := []struct {
		name   string
		tables []*report.Table
		want   string
	}{
		{"path in name", []*report.Table{{Name: "a/x", Columns: col}}, "not allowed"},
		{"reserved", []*report.Table{{Name: "notes", Columns: col}}, "reserved"},
		{"duplicate", []*report.Table{{Name: "a", Columns: col}, {Name: "a", Columns: col}}, "used twice"},
		{"short row", []*report.Table{{Name: "a", Columns: col, Rows: [][]any{{}}}}, "row 1 has 0 values"},
		{"bad type", []*report.Table{{Name: "a", Columns: col, Rows: [][]any{{struct{}{}}}}}, "row 1, column a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			err := Write(context.Background(), dir, &report.Report{Tables: tc.tables}, DefaultOptions)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want one containing %q", err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "tables")); err == nil {
				t.Error("a failed Write left a tables folder")
			}
		})
	}
}

func TestWriteDocs(t *testing.T) {
	r := reporttest.Small()
	var b bytes.Buffer
	if err := WriteDocs(&b, r.Tables); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{
		"## summary\n",
		"`tables/summary.csv` — Table 4: Summary of results (section: overview)",
		"| `solve_rate` | fraction in [0,1] | Solve Rate |",
		"| `n_gradings` | integer | gradings |",
		"| `graders` | text | humans or judge:<name> |",
		"## notes\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("docs lack %q", want)
		}
	}
}
