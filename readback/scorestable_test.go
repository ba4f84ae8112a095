package readback

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/schema"
)

// TestScoresTableEdgeCases: the table grading_scores that StoreScores
// writes (the study read back, scored by package scores, persisted) on
// hand-made rows, against values computed by hand (below) — runs that
// scored different attributes, a run whose scores are all missing, scores
// that are not multiples of 10^-6 (one run and three), 130 attributes,
// runs that counted different numbers of checklist items, a grading
// without rubric or checklist rows, a sum of scores too large for exact
// int64 arithmetic, a negative mean — under the default Solve rule and a
// non-default one. (Two scores of one attribute in one run, which the
// former SQL view averaged, cannot come from a study's files.)
func TestScoresTableEdgeCases(t *testing.T) {
	ctx := context.Background()
	for _, settings := range []string{"", `INSERT INTO study_settings VALUES ('solve.rubric_threshold', '3.5'), ('solve.checklist_threshold', '0.75'), ('solve.partial_credit', '0.25')`} {
		path := filepath.Join(t.TempDir(), "study.duckdb")
		c, err := duckdb.NewConnector(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		db := sql.OpenDB(c)
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.ExecContext(ctx, schema.Schema); err != nil {
			t.Fatal(err)
		}
		// gradings: id, evaluator, kind, run, question, rank
		g := func(id int, ev, kind, run, q string, rank int) string {
			return fmt.Sprintf("(%d, '%s', '%s', 'main', '%s', '%s', 'm', NULL, %d, NULL, 'f', NULL, %d, NULL)", id, ev, kind, run, q, rank, id)
		}
		stmts := []string{
			settings,
			"INSERT INTO gradings VALUES " + strings.Join([]string{
				g(2, "j1", "judge", "1", "sets", 1), g(3, "j1", "judge", "2", "sets", 2), g(4, "j1", "judge", "3", "sets", 0), // different attributes per run
				g(5, "j2", "judge", "1", "null", 0), g(6, "j2", "judge", "2", "null", 0), // run 2's scores all missing
				g(7, "h2", "human", "", "frac1", 2),                                                                               // one run, scores not multiples of 1e-6
				g(8, "j3", "judge", "1", "frac3", 1), g(9, "j3", "judge", "2", "frac3", 1), g(10, "j3", "judge", "3", "frac3", 3), // three runs, same
				g(11, "h3", "human", "", "wide", 1), // 130 attributes
				g(12, "j4", "judge", "1", "wide", 1), g(13, "j4", "judge", "2", "wide", 1),
				g(14, "j5", "judge", "1", "chk", 1), g(15, "j5", "judge", "2", "chk", 1), // different counted items
				g(16, "h4", "human", "", "none", 0),                                        // no rubric, no checklist
				g(17, "j6", "judge", "1", "same", 1), g(18, "j6", "judge", "2", "same", 2), // the per-run path
				g(19, "j7", "judge", "1", "norubric", 0), g(20, "j7", "judge", "2", "norubric", 0),
				g(21, "h5", "human", "", "big", 1), // a sum of millionths past BIGINT: the HUGEINT gcd
				g(22, "h6", "human", "", "neg", 1), // a negative mean
			}, ", "),
			`INSERT INTO rubric_scores VALUES
				(2, 'a', 4), (2, 'b', 3), (3, 'a', 5), (3, 'c', 1), (4, 'a', 2), (4, 'b', 2), (4, 'c', 2),
				(5, 'a', 3), (5, 'b', 4), (6, 'a', NULL), (6, 'b', NULL),
				(7, 'a', 3.1234567), (7, 'b', 4.7654321), (7, 'c', 2.5),
				(8, 'a', 3.1234567), (8, 'b', 1), (9, 'a', 4.0000001), (9, 'b', 2), (10, 'a', 1.3333333), (10, 'b', 5),
				(17, 'a', 4), (17, 'b', 3.5), (18, 'a', 5), (18, 'b', 2),
				(21, 'a', 1e13), (21, 'b', 3), (22, 'a', -2.5), (22, 'b', 1.25)`,
			`INSERT INTO rubric_scores SELECT 11, 'w' || i, i % 5 + 1 FROM range(130) t(i)`,
			`INSERT INTO rubric_scores SELECT 12, 'w' || i, i % 3 + 1 FROM range(130) t(i)`,
			`INSERT INTO rubric_scores SELECT 13, 'w' || i, i % 4 + 1 FROM range(130) t(i)`,
			`INSERT INTO checklist_verdicts VALUES
				(14, 1, 'hit'), (14, 2, 'partial'), (14, 3, 'miss'), (15, 1, 'hit'), (15, 2, NULL), (15, 3, 'na'),
				(17, 1, 'hit'), (17, 2, 'partial'), (18, 1, 'partial'), (18, 2, 'miss'),
				(2, 1, 'na'), (3, 1, 'hit'), (7, 1, 'partial'), (7, 2, 'hit'), (7, 3, 'hit')`,
		}
		for _, q := range stmts {
			if q == "" {
				continue
			}
			if _, err := conn.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		conn.Close()
		db.Close()
		cfg := config.Default()
		cfg.Rubric.Attributes = []string{"a", "b", "c"}
		for i := range 130 {
			cfg.Rubric.Attributes = append(cfg.Rubric.Attributes, fmt.Sprintf("w%d", i))
		}
		if settings != "" {
			cfg.Solve.RubricThreshold, cfg.Solve.ChecklistThreshold, cfg.Solve.PartialCredit = 3.5, 0.75, 0.25
		}
		if err := StoreScores(ctx, path, cfg); err != nil {
			t.Fatal(err)
		}
		c, err = duckdb.NewConnector(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		db = sql.OpenDB(c)
		conn, err = db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		checkEdgeRows(t, conn, settings != "")
		conn.Close()
		db.Close()
	}
}

// edgeRow is a grading_scores row of TestGradingScoresViewEdgeCases: NaN
// for NULL numbers, 0 for NULL integers.
type edgeRow struct {
	runs, rubricN              int64
	num, den                   int64 // rubric_num/rubric_den; 0 when NULL
	mean                       float64
	hits, partials, misses, na int64
	chkNum, chkDen             int64
	chk, rank                  float64
	solve                      string
	usable                     bool
}

// checkEdgeRows compares the view's rows with the values computed by hand
// for the default Solve rule (rubric ≥ 3, checklist ≥ 0.6, partial ½) or
// the other one (3.5, 0.75, ¼). The study has a checklist, so a grading
// without one has an undefined Solve verdict.
func checkEdgeRows(t *testing.T, conn *sql.Conn, other bool) {
	t.Helper()
	nan := math.NaN()
	// frac1: (3.1234567 + 4.7654321 + 2.5)/3 = 10.3888888/3 =
	// 12986111/3750000; verdicts partial, hit, hit
	frac1 := edgeRow{1, 3, 12986111, 3750000, (3.1234567 + 4.7654321 + 2.5) / 3, 2, 1, 0, 0, 5, 6, 5.0 / 6, 2, "solved", true}
	// chk: run 14 hit, partial, miss = 1/2; run 15 hit (NULL and na not
	// items) = 1; their mean 3/4 (exact, though the runs counted
	// different numbers of items)
	chk := edgeRow{2, 0, 0, 0, nan, 2, 1, 1, 1, 3, 4, 0.75, 1, "undefined", true}
	// same: Quality a (4 + 5)/2, b (3.5 + 2)/2, mean 29/8; checklist
	// (3/4 + 1/4)/2 = 1/2 < 0.6; ranks 1, 2
	same := edgeRow{2, 2, 29, 8, 3.625, 1, 2, 1, 0, 1, 2, 0.5, 1.5, "unsolved", true}
	if other {
		frac1.chkNum, frac1.chkDen, frac1.chk, frac1.solve = 3, 4, 0.75, "unsolved" // (¼ + 2)/3; 3.46 < 3.5
		chk.chkNum, chk.chkDen, chk.chk = 17, 24, (5.0/12+1)/2                      // run 14 (1 + ¼)/3 = 5/12
		same.chkNum, same.chkDen, same.chk = 3, 8, 0.375                            // (5/8 + 1/8)/2
	}
	want := map[[2]string]edgeRow{
		// 1e13 and 3: (10^13 + 3)/2 as DOUBLE; the exact sum of the
		// attribute means is kept in int64 only while it fits
		{"big", "h5"}:   {1, 2, 0, 0, 5.0000000000015e12, 0, 0, 0, 0, 0, 0, nan, 1, "undefined", true},
		{"chk", "j5"}:   chk,
		{"frac1", "h2"}: frac1,
		// a (3.1234567 + 4.0000001 + 1.3333333)/3 = 8.4567901/3, b (1 + 2 + 5)/3;
		// mean 16.4567901/6 = 54855967/20000000; ranks 1, 1, 3
		{"frac3", "j3"}: {3, 2, 54855967, 20000000, ((3.1234567+4.0000001+1.3333333)/3 + 8.0/3) / 2, 0, 0, 0, 0, 0, 0, nan, 5.0 / 3, "undefined", true},
		// (−2.5 + 1.25)/2 = −5/8
		{"neg", "h6"}:      {1, 2, -5, 8, -0.625, 0, 0, 0, 0, 0, 0, nan, 1, "undefined", true},
		{"none", "h4"}:     {1, 0, 0, 0, nan, 0, 0, 0, 0, 0, 0, nan, nan, "undefined", false},
		{"norubric", "j7"}: {2, 0, 0, 0, nan, 0, 0, 0, 0, 0, 0, nan, nan, "undefined", false},
		// run 6's scores all missing: a 3, b 4 from run 5
		{"null", "j2"}: {2, 2, 7, 2, 3.5, 0, 0, 0, 0, 0, 0, nan, nan, "undefined", true},
		{"same", "j6"}: same,
		// a (4 + 5 + 2)/3, b (3 + 2)/2, c (1 + 2)/2: (11/3 + 5/2 + 3/2)/3 =
		// 23/9; checklist: run 2 all na, run 3 hit = 1; ranks 1, 2
		{"sets", "j1"}: {3, 3, 23, 9, 23.0 / 9, 1, 0, 0, 1, 1, 1, 1, 1.5, "unsolved", true},
		// 130 attributes i%5 + 1: each of 1…5 26 times, mean 3
		{"wide", "h3"}: {1, 130, 3, 1, 3, 0, 0, 0, 0, 0, 0, nan, 1, "undefined", true},
		// runs i%3 + 1 (sum 259) and i%4 + 1 (sum 323): 582/260 = 291/130
		{"wide", "j4"}: {2, 130, 291, 130, 291.0 / 130, 0, 0, 0, 0, 0, 0, nan, 1, "undefined", true},
	}
	rows, err := conn.QueryContext(context.Background(), `SELECT question_id, evaluator, runs, rubric_n, rubric_num, rubric_den, rubric_mean,
		hits, partials, misses, nas, checklist_num, checklist_den, checklist_rate, rank, solve, usable FROM grading_scores`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var q, e, solve string
		var g edgeRow
		var num, den, cn, cd sql.NullInt64
		var mean, chk, rank sql.NullFloat64
		if err := rows.Scan(&q, &e, &g.runs, &g.rubricN, &num, &den, &mean, &g.hits, &g.partials, &g.misses, &g.na, &cn, &cd, &chk, &rank, &solve, &g.usable); err != nil {
			t.Fatal(err)
		}
		g.num, g.den, g.chkNum, g.chkDen = num.Int64, den.Int64, cn.Int64, cd.Int64
		g.mean, g.chk, g.rank, g.solve = nan, nan, nan, solve
		if mean.Valid {
			g.mean = mean.Float64
		}
		if chk.Valid {
			g.chk = chk.Float64
		}
		if rank.Valid {
			g.rank = rank.Float64
		}
		w, ok := want[[2]string{q, e}]
		if !ok {
			t.Errorf("unexpected row %s %s", q, e)
			continue
		}
		n++
		close := func(a, b float64) bool {
			return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b))
		}
		if g.runs != w.runs || g.rubricN != w.rubricN || g.num != w.num || g.den != w.den || !close(g.mean, w.mean) ||
			g.hits != w.hits || g.partials != w.partials || g.misses != w.misses || g.na != w.na ||
			g.chkNum != w.chkNum || g.chkDen != w.chkDen || !close(g.chk, w.chk) || !close(g.rank, w.rank) || g.solve != w.solve || g.usable != w.usable {
			t.Errorf("%s %s (other rule %v):\n got  %+v\n want %+v", q, e, other, g, w)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != len(want) {
		t.Errorf("%d rows compared, want %d", n, len(want))
	}
}
