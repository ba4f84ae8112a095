package readback

import (
	"context"
	"database/sql"
	"math"
	"path/filepath"
	"testing"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/study"
)

// checkTableMatchesGo ingests the study folder dir with the table
// grading_scores (Finish: StoreScores) and checks that it holds, for every
// grading, the values the analyses use (scores.Compute with the study's
// Solve rule): runs, rubric_n, the verdict counts, the exact fractions,
// the means bit for bit, rank, solve and usable — what a person who queries
// the database reads is what every table used. It returns the number of
// gradings compared.
func checkTableMatchesGo(t *testing.T, dir string) int {
	t.Helper()
	db := filepath.Join(t.TempDir(), "s.duckdb")
	res, err := ingest.Ingest(context.Background(), dir, ingest.Options{DB: db, Finish: StoreScores})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s, _, err := d.Load(context.Background(), res.Config)
	if err != nil {
		t.Fatal(err)
	}
	gs := scores.Compute(s, ScoreOptions(res.Config))
	type key struct{ r, q, m, e string }
	byKey := make(map[key]*scores.Grading, len(gs))
	for i := range gs {
		g := &gs[i]
		byKey[key{g.Round, g.QuestionID, g.Model, g.Evaluator}] = g
	}
	rows, err := d.SQL().Query(`SELECT round, question_id, model, evaluator, runs, rubric_n, rubric_num, rubric_den, rubric_mean,
		hits, partials, misses, nas, checklist_num, checklist_den, checklist_rate, rank, solve, usable FROM grading_scores`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var k key
		var runs, rubN, h, p, m, na int32
		var rn, rd, cn, cd sql.NullInt64
		var rmean, crate, rank sql.NullFloat64
		var solve string
		var usable bool
		if err := rows.Scan(&k.r, &k.q, &k.m, &k.e, &runs, &rubN, &rn, &rd, &rmean, &h, &p, &m, &na, &cn, &cd, &crate, &rank, &solve, &usable); err != nil {
			t.Fatal(err)
		}
		g := byKey[k]
		if g == nil {
			t.Errorf("%v: in grading_scores, not in scores.Compute", k)
			continue
		}
		delete(byKey, k)
		n++
		fail := func(what string, got, want any) {
			t.Helper()
			t.Errorf("%v %s: SQL %v, Go %v", k, what, got, want)
		}
		if runs != g.Runs || rubN != g.RubricN || h != g.Hits || p != g.Partials || m != g.Misses || na != g.NAs {
			fail("counts (runs rubric_n hits partials misses nas)", []int32{runs, rubN, h, p, m, na},
				[]int32{g.Runs, g.RubricN, g.Hits, g.Partials, g.Misses, g.NAs})
		}
		checkFrac(t, fail, "rubric", rn, rd, rmean, g.RubricRat, g.RubricMean)
		checkFrac(t, fail, "checklist", cn, cd, crate, g.ChecklistRat, g.ChecklistRate)
		if want := g.Rank; (rank.Valid && rank.Float64 != want) || (!rank.Valid && want != 0) {
			fail("rank", rank, want)
		}
		want := map[int8]string{scores.Solved: "solved", scores.Unsolved: "unsolved", scores.Undefined: "undefined"}[g.Solve]
		if solve != want {
			fail("solve", solve, want)
		}
		if usable != g.Usable() {
			fail("usable", usable, g.Usable())
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for k := range byKey {
		t.Errorf("%v: in scores.Compute, not in grading_scores", k)
	}
	return n
}

// checkFrac compares the table's fraction and DOUBLE with Go's exact Rat
// and float, bit for bit.
func checkFrac(t *testing.T, fail func(string, any, any), what string, num, den sql.NullInt64, f sql.NullFloat64, r study.Rat, x float64) {
	t.Helper()
	if !f.Valid {
		if !math.IsNaN(x) {
			fail(what+" mean", "NULL", x)
		}
		return
	}
	if num.Valid {
		if !r.OK() || r.Num != num.Int64 || r.Den != den.Int64 {
			fail(what+" fraction", [2]int64{num.Int64, den.Int64}, r)
		}
		if f.Float64 != x {
			fail(what+" mean (bits)", f.Float64, x)
		}
		return
	}
	if r.OK() {
		fail(what+" fraction", "NULL", r)
	}
	if f.Float64 != x {
		fail(what+" mean (bits)", f.Float64, x)
	}
}

// TestScoresTableSample: every grading of the bundled sample.
func TestScoresTableSample(t *testing.T) {
	n := checkTableMatchesGo(t, filepath.Join("..", "sample", "study"))
	t.Logf("%d gradings compared", n)
	if n < 1000 {
		t.Errorf("only %d gradings compared", n)
	}
}
