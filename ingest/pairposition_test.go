package ingest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// The position column of a pairwise sheet: 1/2 say where model_a's answer
// was shown (2 swaps it into second place), an empty cell or unknown says
// the order is unknown (stored as written, position_unknown), anything
// else is a problem naming the cell.
func TestPairPositionUnknown(t *testing.T) {
	pairs := "evaluator,question_id,model_a,model_b,winner,position\n" +
		"carol,q1,m1,m2,a,1\n" +
		"carol,q2,m1,m2,a,2\n" +
		"dave,q1,m1,m2,b,\n" +
		"dave,q2,m1,m2,tie,Unknown\n"
	dir := platformStudy(t, platformToml, nil)
	write(t, dir, "grades/humans/main/pairs.csv", pairs)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	if _, err := Ingest(context.Background(), dir, Options{DB: db}); err != nil {
		t.Fatal(err)
	}
	h := openDB(t, db)
	rows, err := h.Query(`SELECT evaluator || '|' || question_id || '|' || model_a || '|' || model_b || '|' || winner || '|' || position_unknown
		FROM pairwise_judgments ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	rows.Close()
	want := "carol|q1|m1|m2|a|false\ncarol|q2|m2|m1|b|false\ndave|q1|m1|m2|b|true\ndave|q2|m1|m2|tie|true"
	if g := strings.Join(got, "\n"); g != want {
		t.Errorf("pairwise_judgments:\n%s\nwant\n%s", g, want)
	}

	write(t, dir, "grades/humans/main/pairs.csv", "evaluator,question_id,model_a,model_b,winner,position\ncarol,q1,m1,m2,a,middle\n")
	_, err = Ingest(context.Background(), dir, Options{DB: filepath.Join(t.TempDir(), "s.duckdb")})
	checkProblem(t, err, "pairs.csv", "position", "middle", "empty or unknown when not known")
}
