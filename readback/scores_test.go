package readback

import (
	"context"
	"database/sql"
	"math"
	"path/filepath"
	"testing"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/sample"
	"github.com/euroexec/euroexec/study"
)

// checkViewMatchesGo ingests the study folder dir and checks, for every
// grading, that the SQL view grading_scores holds the values the analyses
// use (scores.Compute with the study's Solve rule): runs, rubric_n, the
// verdict counts, the exact fractions where the view has them (else the
// DOUBLE means to 1e-12), rank, solve and usable. It returns the number of
// gradings compared.
func checkViewMatchesGo(t *testing.T, dir string) int {
	t.Helper()
	db := filepath.Join(t.TempDir(), "s.duckdb")
	res, err := ingest.Ingest(context.Background(), dir, ingest.Options{DB: db})
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
	opt := scores.Options{RubricThreshold: res.Config.Solve.RubricThreshold, ChecklistThreshold: res.Config.Solve.ChecklistThreshold,
		PartialCredit: res.Config.Solve.PartialCredit}
	if len(s.Scores) == 0 {
		t.Fatal("Load read no rows of grading_scores into Study.Scores")
	}
	// the rule the view applied is the study's, so the analyses (which pass
	// the study's [solve] settings) are served the view's solve column
	if r := s.ScoreRule; r.RubricThreshold != opt.RubricThreshold || r.ChecklistThreshold != opt.ChecklistThreshold || r.PartialCredit != opt.PartialCredit {
		t.Errorf("solve_rule %+v, study settings %+v", r, opt)
	}
	gs := scores.FromRows(s, opt)
	checkServedEqualsRows(t, s, opt, gs)
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

// checkServedEqualsRows checks that what the analyses get from
// scores.Compute on a study read by Load — the view's rows — is bit for bit
// what the Go computation from the raw rows (rows) gives: every field, the
// attribute means and the verdicts.
func checkServedEqualsRows(t *testing.T, s *study.Study, opt scores.Options, rows []scores.Grading) {
	t.Helper()
	served, ok := scores.FromView(s, opt)
	if !ok {
		t.Fatal("scores.FromView refused a study read by Load")
	}
	if got := scores.Compute(s, opt); len(got) != len(served) {
		t.Fatalf("scores.Compute returned %d gradings, FromView %d", len(got), len(served))
	}
	if len(served) != len(rows) {
		t.Fatalf("served %d gradings, rows give %d", len(served), len(rows))
	}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
	}
	bad := 0
	for i := range served {
		a, b := &served[i], &rows[i]
		ok := a.Evaluator == b.Evaluator && a.Kind == b.Kind && a.Round == b.Round && a.QuestionID == b.QuestionID && a.Model == b.Model &&
			a.Runs == b.Runs && a.RubricN == b.RubricN && a.RubricRat == b.RubricRat && same(a.RubricMean, b.RubricMean) &&
			a.Hits == b.Hits && a.Partials == b.Partials && a.Misses == b.Misses && a.NAs == b.NAs &&
			a.ChecklistRat == b.ChecklistRat && same(a.ChecklistRate, b.ChecklistRate) && same(a.Rank, b.Rank) &&
			a.Solve == b.Solve && a.Solved == b.Solved && a.Src == b.Src && a.Usable() == b.Usable() &&
			len(a.Rubric) == len(b.Rubric) && len(a.Verdicts) == len(b.Verdicts)
		for k := 0; ok && k < len(a.Rubric); k++ {
			ok = same(a.Rubric[k], b.Rubric[k])
		}
		for k := 0; ok && k < len(a.Verdicts); k++ {
			ok = a.Verdicts[k] == b.Verdicts[k]
		}
		if !ok {
			if bad++; bad <= 10 {
				t.Errorf("grading %d: served from the view %+v, computed from the rows %+v", i, *a, *b)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d gradings differ", bad, len(served))
	}
}

// checkFrac compares the view's fraction (or DOUBLE when it has none) with
// Go's exact Rat and float.
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
	if math.Abs(f.Float64-x) > 1e-12 {
		fail(what+" mean", f.Float64, x)
	}
}

// TestGradingScoresMatchGoSample: every grading of the bundled sample.
func TestGradingScoresMatchGoSample(t *testing.T) {
	n := checkViewMatchesGo(t, filepath.Join("..", "sample", "study"))
	t.Logf("%d gradings compared", n)
	if n < 1000 {
		t.Errorf("only %d gradings compared", n)
	}
}

// TestGradingScoresMatchGo5000: every grading of a 5,000-question
// synthetic study (package sample; judge runs, missing judge scores).
func TestGradingScoresMatchGo5000(t *testing.T) {
	if testing.Short() {
		t.Skip("5,000-question study skipped in -short mode")
	}
	dir := t.TempDir()
	opt := sample.DefaultOptions()
	opt.Questions, opt.ResponseChars = 5000, 100
	if _, err := sample.Write(dir, opt); err != nil {
		t.Fatal(err)
	}
	n := checkViewMatchesGo(t, dir)
	t.Logf("%d gradings compared", n)
	if n < 5000*6 {
		t.Errorf("only %d gradings compared", n)
	}
}
