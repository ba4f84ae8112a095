package readback

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/euroexec/euroexec/ingest"
)

// TestWideDecimalScaleExact: on a scale from 0 to 1,000,000 in steps of
// 0.1 the table grading_scores keeps every rubric mean an exact fraction
// (hand values below), and the Solve rule compares exactly.
func TestWideDecimalScaleExact(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"study.toml":    "[rubric]\nattributes = [\"Score\"]\nmin = 0\nmax = 1000000\nstep = 0.1\n[solve]\nrubric_threshold = 500000\n",
		"questions.csv": "question_id,domain,prompt\nq1,d,p\nq2,d,p\n",
		"models.csv":    "model,provider\nm1,a\n",
		"grades/humans/main/r1.csv": "evaluator,question_id,model,Score\n" +
			"r1,q1,m1,999999.9\nr1,q2,m1,123456.7\n",
		"grades/humans/main/r2.csv": "evaluator,question_id,model,Score\n" +
			"r2,q1,m1,0.1\nr2,q2,m1,654321.3\n",
	}
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "s.duckdb")
	if _, err := ingest.Ingest(context.Background(), dir, ingest.Options{DB: path, Finish: StoreScores}); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	want := map[[2]string][2]int64{ // (question, evaluator) → score as num/den in lowest terms
		{"q1", "r1"}: {9999999, 10}, {"q2", "r1"}: {1234567, 10},
		{"q1", "r2"}: {1, 10}, {"q2", "r2"}: {6543213, 10},
	}
	rows, err := db.Query(`SELECT question_id, evaluator, rubric_num, rubric_den, solve FROM grading_scores`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var q, e, solve string
		var num, den sql.NullInt64
		if err := rows.Scan(&q, &e, &num, &den, &solve); err != nil {
			t.Fatal(err)
		}
		n++
		w := want[[2]string{q, e}]
		if !num.Valid || !den.Valid || num.Int64 != w[0] || den.Int64 != w[1] {
			t.Errorf("%s/%s: rubric %v/%v, want %d/%d", q, e, num, den, w[0], w[1])
		}
		if wantSolve := map[bool]string{true: "solved", false: "unsolved"}[w[0]*1 >= 500000*w[1]]; solve != wantSolve {
			t.Errorf("%s/%s: %s, want %s", q, e, solve, wantSolve)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != len(want) {
		t.Errorf("%d gradings, want %d", n, len(want))
	}
}
