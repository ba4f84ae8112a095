package csvout

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/euroexec/euroexec/report"
)

// Text a spreadsheet would run is written with an apostrophe before it;
// numbers, even negative ones, are written as they are; removing one
// leading apostrophe from a text cell gives the text back. The expected
// bytes are written by hand.
func TestWriteTableNeutralisesFormulas(t *testing.T) {
	tb := &report.Table{
		Name: "models",
		Columns: []report.Column{
			{Name: "model", Kind: report.Text}, {Name: "grader", Kind: report.Text},
			{Name: "delta", Kind: report.Float}, {Name: "n", Kind: report.Int},
		},
		Rows: [][]any{
			{`=HYPERLINK("http://x")`, "@SUM(1)", -0.5, int64(-3)},
			{"-1+2", "+1", 0.25, int64(2)},
			{"'quoted", "\tTAB", -1e-07, int64(0)},
			{"plain-name", "a=b", nil, nil},
		},
	}
	var buf bytes.Buffer
	if err := WriteTable(&buf, tb); err != nil {
		t.Fatal(err)
	}
	want := "model,grader,delta,n\n" +
		"\"'=HYPERLINK(\"\"http://x\"\")\",'@SUM(1),-0.5,-3\n" +
		"'-1+2,'+1,0.25,2\n" +
		"''quoted,'\tTAB,-1e-07,0\n" +
		"plain-name,a=b,,\n"
	checkBytes(t, "models.csv", buf.Bytes(), []byte(want))

	recs, err := csv.NewReader(bytes.NewReader(buf.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range tb.Rows {
		for j := 0; j < 2; j++ {
			cell := recs[i+1][j]
			if len(cell) > 0 && cell[0] == '\'' {
				cell = cell[1:]
			}
			if cell != row[j] {
				t.Errorf("row %d column %d: read back %q, want %q", i+1, j, cell, row[j])
			}
		}
	}
}

// The notes are text too.
func TestWriteNotesNeutralises(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteNotes(&buf, []report.Note{{Table: "x", Reason: "=1+1 left out"}}); err != nil {
		t.Fatal(err)
	}
	checkBytes(t, "notes.csv", buf.Bytes(), []byte("table,reason\nx,'=1+1 left out\n"))
}
