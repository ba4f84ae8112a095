package transform

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/euroexec/euroexec/data"
	"github.com/euroexec/euroexec/ingest"
	schema "github.com/euroexec/euroexec/sql"
	"github.com/euroexec/euroexec/study"
)

// oldGradingScoresView is the view grading_scores as it was before the
// view was rewritten to aggregate the large tables by grading_id (commit
// 954eb51): a window function for each grading's key and every rubric
// score grouped by (grading, attribute). It is the oracle of
// TestGradingScoresViewEqualsOld, created as a temporary view.
const oldGradingScoresView = `CREATE OR REPLACE TEMP VIEW grading_scores_old AS
WITH
gk AS (
  SELECT grading_id, round, question_id, model, evaluator, kind, rank,
         min(grading_id) OVER (PARTITION BY round, question_id, model, evaluator) AS k
  FROM gradings
),
keys AS (
  SELECT k, any_value(round) AS round, any_value(question_id) AS question_id, any_value(model) AS model,
         any_value(evaluator) AS evaluator, any_value(kind) AS kind, count(*) AS runs,
         avg(rank) FILTER (WHERE rank > 0) AS rank
  FROM gk GROUP BY k
),
attr AS (
  SELECT g.k, r.attribute,
         count(r.score) AS c, sum(r.score) AS s,
         bool_and(r.score IS NULL OR abs(r.score * 1000000 - round(r.score * 1000000)) < 1e-6) AS decimal6,
         sum(CAST(round(r.score * 1000000) AS HUGEINT)) AS s_u
  FROM gk g JOIN rubric_scores r USING (grading_id)
  GROUP BY g.k, r.attribute
),
rub AS (
  SELECT k,
         count(*) FILTER (WHERE c > 0) AS rubric_n,
         min(c) FILTER (WHERE c > 0) AS cmin, max(c) FILTER (WHERE c > 0) AS cmax,
         bool_and(decimal6) AS decimal6,
         sum(s_u) FILTER (WHERE c > 0) AS num_u,
         avg(s / c) FILTER (WHERE c > 0) AS mean_f
  FROM attr GROUP BY k
),
runchk AS (
  SELECT grading_id,
         count(*) FILTER (WHERE verdict = 'hit') AS h,
         count(*) FILTER (WHERE verdict = 'partial') AS p,
         count(*) FILTER (WHERE verdict = 'miss') AS m,
         count(*) FILTER (WHERE verdict = 'na') AS na,
         count(*) FILTER (WHERE verdict IN ('hit','partial','miss')) AS counted
  FROM checklist_verdicts GROUP BY grading_id
),
chk AS (
  SELECT g.k,
         sum(h) AS hits, sum(p) AS partials, sum(m) AS misses, sum(na) AS nas,
         count(*) FILTER (WHERE counted > 0) AS chk_runs,
         min(counted) FILTER (WHERE counted > 0) AS nmin, max(counted) FILTER (WHERE counted > 0) AS nmax,
         sum(h * s.partial_credit_den + p * s.partial_credit_num) FILTER (WHERE counted > 0) AS num_u,
         avg((h + s.partial_credit * p) / counted) FILTER (WHERE counted > 0) AS rate_f
  FROM runchk c JOIN gk g USING (grading_id), solve_rule s
  GROUP BY g.k
),
ex AS (
  SELECT ky.*, r.rubric_n, r.mean_f,
         CASE WHEN r.rubric_n > 0 AND r.cmin = r.cmax AND r.decimal6 THEN r.num_u END AS rnum,
         CASE WHEN r.rubric_n > 0 AND r.cmin = r.cmax AND r.decimal6 THEN CAST(1000000 AS HUGEINT) * r.cmin * r.rubric_n END AS rden,
         c.hits, c.partials, c.misses, c.nas,
         CASE WHEN c.chk_runs > 0 AND c.nmin = c.nmax THEN CAST(c.num_u AS HUGEINT) END AS cnum,
         CASE WHEN c.chk_runs > 0 AND c.nmin = c.nmax THEN CAST(c.nmin AS HUGEINT) * s.partial_credit_den * c.chk_runs END AS cden,
         c.rate_f, s.*
  FROM keys ky
  LEFT JOIN rub r USING (k)
  LEFT JOIN chk c USING (k)
  CROSS JOIN solve_rule s
),
fr AS (
  SELECT *,
         CAST(rnum / gcd(rnum, rden) AS BIGINT) AS rubric_num, CAST(rden / gcd(rnum, rden) AS BIGINT) AS rubric_den,
         CAST(cnum / gcd(cnum, cden) AS BIGINT) AS checklist_num, CAST(cden / gcd(cnum, cden) AS BIGINT) AS checklist_den
  FROM ex
),
sc AS (
  SELECT *,
         coalesce(CAST(rubric_num AS DOUBLE) / rubric_den, mean_f) AS rubric_mean,
         coalesce(CAST(checklist_num AS DOUBLE) / checklist_den, rate_f) AS checklist_rate,
         CASE WHEN rubric_num IS NOT NULL
              THEN CAST(rubric_num AS HUGEINT) * rubric_threshold_den >= CAST(rubric_threshold_num AS HUGEINT) * rubric_den
              ELSE mean_f >= rubric_threshold END AS rubric_pass,
         CASE WHEN checklist_num IS NOT NULL
              THEN CAST(checklist_num AS HUGEINT) * checklist_threshold_den >= CAST(checklist_threshold_num AS HUGEINT) * checklist_den
              ELSE rate_f >= checklist_threshold END AS checklist_pass
  FROM fr
)
SELECT
  round, question_id, model, evaluator, kind, runs,
  coalesce(rubric_n, 0) AS rubric_n, rubric_num, rubric_den, rubric_mean,
  coalesce(hits, 0) AS hits, coalesce(partials, 0) AS partials, coalesce(misses, 0) AS misses, coalesce(nas, 0) AS nas,
  checklist_num, checklist_den, checklist_rate,
  rank,
  CASE
    WHEN NOT has_rubric AND NOT has_checklist THEN 'undefined'
    WHEN has_rubric AND coalesce(rubric_n, 0) = 0 THEN 'undefined'
    WHEN has_checklist AND checklist_rate IS NULL THEN 'undefined'
    WHEN (NOT has_rubric OR rubric_pass) AND (NOT has_checklist OR checklist_pass) THEN 'solved'
    ELSE 'unsolved'
  END AS solve,
  coalesce(rubric_n, 0) > 0 OR checklist_rate IS NOT NULL AS usable
FROM sc`

// checkViewEqualsOld creates the oracle view on conn and checks that
// grading_scores and it hold the same multiset of rows (EXCEPT ALL both
// ways empty, same count), at least min rows.
func checkViewEqualsOld(t *testing.T, conn *sql.Conn, min int) {
	t.Helper()
	ctx := context.Background()
	if _, err := conn.ExecContext(ctx, oldGradingScoresView); err != nil {
		t.Fatal(err)
	}
	var newN, oldN, onlyNew, onlyOld int
	err := conn.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM grading_scores), (SELECT count(*) FROM grading_scores_old),
		(SELECT count(*) FROM (SELECT * FROM grading_scores EXCEPT ALL SELECT * FROM grading_scores_old)),
		(SELECT count(*) FROM (SELECT * FROM grading_scores_old EXCEPT ALL SELECT * FROM grading_scores))`).Scan(&newN, &oldN, &onlyNew, &onlyOld)
	if err != nil {
		t.Fatal(err)
	}
	if newN != oldN || onlyNew != 0 || onlyOld != 0 || newN < min {
		var diff []string
		rows, err := conn.QueryContext(ctx, `(SELECT 'new' AS side, * FROM (SELECT * FROM grading_scores EXCEPT ALL SELECT * FROM grading_scores_old))
			UNION ALL (SELECT 'old', * FROM (SELECT * FROM grading_scores_old EXCEPT ALL SELECT * FROM grading_scores)) ORDER BY 3, 4, 5, 1 LIMIT 10`)
		if err == nil {
			cols, _ := rows.Columns()
			for rows.Next() {
				v := make([]any, len(cols))
				p := make([]any, len(cols))
				for i := range v {
					p[i] = &v[i]
				}
				if rows.Scan(p...) == nil {
					diff = append(diff, fmt.Sprint(v...))
				}
			}
			rows.Close()
		}
		t.Fatalf("grading_scores: got %d rows, old view %d (want ≥ %d); %d only in the new, %d only in the old:\n%s",
			newN, oldN, min, onlyNew, onlyOld, strings.Join(diff, "\n"))
	}
}

// TestGradingScoresViewEqualsOld: the view grading_scores gives the same
// rows as its former definition (oldGradingScoresView) on three ingested
// studies — the repository's sample, a generated study with human and
// judge gradings (a judge run three times), and a judge-only one whose
// only judge is run three times with missing scores.
func TestGradingScoresViewEqualsOld(t *testing.T) {
	ctx := context.Background()
	gen := func(o data.Options) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := t.TempDir()
			if _, err := data.Write(dir, o); err != nil {
				t.Fatal(err)
			}
			return dir
		}
	}
	mixed := data.DefaultOptions()
	mixed.Questions, mixed.Judges = 80, 3
	judgeOnly := data.DefaultOptions()
	judgeOnly.Questions, judgeOnly.Evaluators, judgeOnly.Judges, judgeOnly.ReferenceShare = 120, 0, 1, 0
	judgeOnly.Seed = 7
	for _, c := range []struct {
		name  string
		study func(t *testing.T) string
		min   int
	}{
		{"sample", func(*testing.T) string { return filepath.Join("..", "data", "sample") }, 10},
		{"mixed", gen(mixed), 80 * 6},
		{"judge-only", gen(judgeOnly), 120 * 6},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "s.duckdb")
			if _, err := ingest.Ingest(ctx, c.study(t), ingest.Options{DB: db}); err != nil {
				t.Fatal(err)
			}
			d, err := Open(db)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			conn, err := d.SQL().Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			checkViewEqualsOld(t, conn, c.min)
		})
	}
}

// TestGradingScoresViewEdgeCases: the same equality on hand-made rows
// that take the view's per-attribute path — an attribute scored twice in
// one run, runs that scored different attributes, a run whose scores are
// all missing, scores that are not multiples of 10^-6 (one run and
// three), more than 126 attributes, runs that counted different numbers
// of checklist items, a grading without rubric or checklist rows — under
// the default Solve rule and a non-default one.
func TestGradingScoresViewEdgeCases(t *testing.T) {
	ctx := context.Background()
	for _, settings := range []string{"", `INSERT INTO study_settings VALUES ('solve.rubric_threshold', '3.5'), ('solve.checklist_threshold', '0.75'), ('solve.partial_credit', '0.25')`} {
		c, err := duckdb.NewConnector("", nil)
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
		views, err := schema.Files.ReadFile("10_grading_scores.sql")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.ExecContext(ctx, string(views)); err != nil {
			t.Fatal(err)
		}
		// gradings: id, evaluator, kind, run, question, rank
		g := func(id int, ev, kind, run, q string, rank int) string {
			return fmt.Sprintf("(%d, '%s', '%s', 'main', '%s', '%s', 'm', NULL, %d, NULL, 'f', NULL, %d, NULL)", id, ev, kind, run, q, rank, id)
		}
		stmts := []string{
			settings,
			"INSERT INTO gradings VALUES " + strings.Join([]string{
				g(1, "h1", "human", "", "dup", 1),                                                                             // attribute a scored twice
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
			}, ", "),
			`INSERT INTO rubric_scores VALUES
				(1, 'a', 4), (1, 'a', 2), (1, 'b', 5),
				(2, 'a', 4), (2, 'b', 3), (3, 'a', 5), (3, 'c', 1), (4, 'a', 2), (4, 'b', 2), (4, 'c', 2),
				(5, 'a', 3), (5, 'b', 4), (6, 'a', NULL), (6, 'b', NULL),
				(7, 'a', 3.1234567), (7, 'b', 4.7654321), (7, 'c', 2.5),
				(8, 'a', 3.1234567), (8, 'b', 1), (9, 'a', 4.0000001), (9, 'b', 2), (10, 'a', 1.3333333), (10, 'b', 5),
				(17, 'a', 4), (17, 'b', 3.5), (18, 'a', 5), (18, 'b', 2)`,
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
		checkViewEqualsOld(t, conn, 11)
		conn.Close()
		db.Close()
	}
}

// TestGradingKeys: the gradings are counted by (round, question, model,
// evaluator), a judge's runs once.
func TestGradingKeys(t *testing.T) {
	g := func(round, q, m, ev, run string) study.Grading {
		return study.Grading{Round: round, QuestionID: q, Model: m, Evaluator: ev, Run: run}
	}
	for _, c := range []struct {
		name string
		gs   []study.Grading
		want int64
	}{
		{"none", nil, 0},
		{"one", []study.Grading{g("main", "q1", "m1", "e1", "")}, 1},
		{"runs", []study.Grading{g("main", "q1", "m1", "j", "1"), g("main", "q1", "m1", "j", "2"), g("main", "q1", "m1", "j", "3")}, 1},
		{"each field", []study.Grading{g("main", "q1", "m1", "e1", ""), g("main", "q1", "m1", "e2", ""), g("main", "q1", "m2", "e2", ""),
			g("main", "q2", "m2", "e2", ""), g("ref", "q2", "m2", "e2", ""), g("ref", "q2", "m2", "e2", "x")}, 5},
	} {
		if got := gradingKeys(c.gs); got != c.want {
			t.Errorf("%s: got %d gradings, want %d", c.name, got, c.want)
		}
	}
}
