package transform

import (
	"context"
	"database/sql"
	"fmt"
	"os"
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

// prevGradingScoresView is the view grading_scores as it was before the
// rewrite that saves DuckDB's work on it (the same rows): each grading's
// rubric and checklist aggregates joined to the per-key row by a hash join
// on the four key strings (built on the million keys of the
// 40,000-question sample even when no grading takes the per-attribute
// path), the lowest terms by a HUGEINT gcd, the verdicts counted by one
// more filter of every verdict, each attribute's bit shifted per score row.
// It is the second oracle of the view tests, created as a temporary view.
const prevGradingScoresView = `CREATE OR REPLACE TEMP VIEW grading_scores_prev AS
WITH
-- The large tables are aggregated once each, by grading_id (an integer),
-- and joined to the gradings; the grading's key (round, question, model,
-- evaluator) is grouped once. Only a grading whose rubric cannot be
-- summed per run goes through a per-(grading, attribute) aggregation
-- (slow, attr, rub below): that takes most of the work of the view, so
-- it is kept for the rare cases that need it.
--
-- ad: each attribute with a dense index (0, 1, …), for the bit mask of the
-- attributes a run scored.
ad AS (
  SELECT attribute, CAST(row_number() OVER (ORDER BY attribute) - 1 AS INTEGER) AS ai
  FROM (SELECT DISTINCT attribute FROM rubric_scores)
),
-- rr: per graded row (run), its rubric scores: c scored rows, decimal6
-- (every score a multiple of 10^-6), s_u the exact sum in millionths,
-- mean1 the mean score, mask the attributes scored (NULL bits past 125),
-- amax the largest attribute index.
rr AS (
  SELECT r.grading_id,
         count(r.score) AS c,
         bool_and(r.score IS NULL OR abs(r.score * 1000000 - round(r.score * 1000000)) < 1e-6) AS decimal6,
         sum(CAST(round(r.score * 1000000) AS HUGEINT)) AS s_u,
         avg(r.score) AS mean1,
         bit_or(CASE WHEN a.ai < 126 THEN CAST(1 AS HUGEINT) << CAST(a.ai AS HUGEINT) END) FILTER (WHERE r.score IS NOT NULL) AS mask,
         max(a.ai) AS amax
  FROM rubric_scores r JOIN ad a USING (attribute)
  GROUP BY r.grading_id
),
-- rc: per graded row, its verdict counts.
rc AS (
  SELECT grading_id,
         count(*) FILTER (WHERE verdict = 'hit') AS h,
         count(*) FILTER (WHERE verdict = 'partial') AS p,
         count(*) FILTER (WHERE verdict = 'miss') AS m,
         count(*) FILTER (WHERE verdict = 'na') AS na,
         count(*) FILTER (WHERE verdict IN ('hit','partial','miss')) AS counted
  FROM checklist_verdicts GROUP BY grading_id
),
-- keys: per grading, its runs with their rubric and checklist aggregates.
-- rruns counts the runs with rubric rows, sruns those with a score; nodup
-- says that no scoring run scored an attribute twice (and all indexes fit
-- the mask), mmin = mmax that all scoring runs scored the same attributes.
keys AS (
  SELECT g.round, g.question_id, g.model, g.evaluator,
         any_value(g.kind) AS kind, count(*) AS runs,
         avg(g.rank) FILTER (WHERE g.rank > 0) AS rank,
         count(r.grading_id) AS rruns,
         count(*) FILTER (WHERE r.c > 0) AS sruns,
         bool_and(r.c = bit_count(r.mask) AND r.amax < 126) FILTER (WHERE r.c > 0) AS nodup,
         min(r.mask) FILTER (WHERE r.c > 0) AS mmin, max(r.mask) FILTER (WHERE r.c > 0) AS mmax,
         min(r.c) FILTER (WHERE r.c > 0) AS rc1,
         bool_and(r.decimal6) AS decimal6,
         sum(r.s_u) AS rnum_u,
         any_value(r.mean1) FILTER (WHERE r.c > 0) AS mean1,
         sum(c.h) AS hits, sum(c.p) AS partials, sum(c.m) AS misses, sum(c.na) AS nas,
         count(*) FILTER (WHERE c.counted > 0) AS chk_runs,
         min(c.counted) FILTER (WHERE c.counted > 0) AS nmin, max(c.counted) FILTER (WHERE c.counted > 0) AS nmax,
         sum(c.h * s.partial_credit_den + c.p * s.partial_credit_num) FILTER (WHERE c.counted > 0) AS cnum_u,
         avg((c.h + s.partial_credit * c.p) / c.counted) FILTER (WHERE c.counted > 0) AS rate_f
  FROM gradings g LEFT JOIN rr r USING (grading_id) LEFT JOIN rc c USING (grading_id), solve_rule s
  GROUP BY g.round, g.question_id, g.model, g.evaluator
),
-- kf: fast says that the rubric follows from the per-run sums. With no
-- attribute scored twice in a run and every scoring run scoring the same
-- rubric_n attributes, each attribute has sruns scores: the exact mean is
-- Σ s_u / (10^6 · sruns · rubric_n). Only its DOUBLE fallback (a score
-- not a multiple of 10^-6) needs each attribute's own mean, except with a
-- single scoring run, whose mean1 it is.
kf AS (
  SELECT *, rruns > 0 AND (sruns = 0 OR (nodup AND mmin = mmax AND (sruns = 1 OR decimal6))) AS fast
  FROM keys
),
-- slow, attr, rub: the other gradings' rubric, attribute by attribute:
-- each attribute's mean over its runs, then the mean over the attributes.
slow AS (
  SELECT g.grading_id, s.round, s.question_id, s.model, s.evaluator
  FROM gradings g JOIN (SELECT round, question_id, model, evaluator FROM kf WHERE rruns > 0 AND NOT fast) s
    USING (round, question_id, model, evaluator)
),
attr AS (
  SELECT g.round, g.question_id, g.model, g.evaluator, r.attribute,
         count(r.score) AS c, sum(r.score) AS s,
         bool_and(r.score IS NULL OR abs(r.score * 1000000 - round(r.score * 1000000)) < 1e-6) AS decimal6,
         sum(CAST(round(r.score * 1000000) AS HUGEINT)) AS s_u
  FROM slow g JOIN rubric_scores r USING (grading_id)
  GROUP BY g.round, g.question_id, g.model, g.evaluator, r.attribute
),
rub AS (
  SELECT round, question_id, model, evaluator,
         count(*) FILTER (WHERE c > 0) AS rubric_n,
         min(c) FILTER (WHERE c > 0) AS cmin, max(c) FILTER (WHERE c > 0) AS cmax,
         bool_and(decimal6) AS decimal6,
         sum(s_u) FILTER (WHERE c > 0) AS num_u,
         avg(s / c) FILTER (WHERE c > 0) AS mean_f
  FROM attr GROUP BY round, question_id, model, evaluator
),
ex AS (
  SELECT ky.round, ky.question_id, ky.model, ky.evaluator, ky.kind, ky.runs, ky.rank,
         CASE WHEN ky.fast THEN ky.rc1 ELSE r.rubric_n END AS rubric_n,
         CASE WHEN ky.fast THEN ky.mean1 ELSE r.mean_f END AS mean_f,
         CASE WHEN ky.fast THEN (CASE WHEN ky.sruns > 0 AND ky.decimal6 THEN ky.rnum_u END)
              WHEN r.rubric_n > 0 AND r.cmin = r.cmax AND r.decimal6 THEN r.num_u END AS rnum,
         CASE WHEN ky.fast THEN (CASE WHEN ky.sruns > 0 AND ky.decimal6 THEN CAST(1000000 AS HUGEINT) * ky.sruns * ky.rc1 END)
              WHEN r.rubric_n > 0 AND r.cmin = r.cmax AND r.decimal6 THEN CAST(1000000 AS HUGEINT) * r.cmin * r.rubric_n END AS rden,
         ky.hits, ky.partials, ky.misses, ky.nas,
         CASE WHEN ky.chk_runs > 0 AND ky.nmin = ky.nmax THEN CAST(ky.cnum_u AS HUGEINT) END AS cnum,
         CASE WHEN ky.chk_runs > 0 AND ky.nmin = ky.nmax THEN CAST(ky.nmin AS HUGEINT) * s.partial_credit_den * ky.chk_runs END AS cden,
         ky.rate_f, s.*
  FROM kf ky
  LEFT JOIN rub r USING (round, question_id, model, evaluator)
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

// checkViewEqualsOld creates the two oracle views on conn (the view's
// first definition and the one before the last rewrite) and checks that
// grading_scores holds the same multiset of rows as each, at least min.
func checkViewEqualsOld(t *testing.T, conn *sql.Conn, min int) {
	t.Helper()
	ctx := context.Background()
	for _, v := range []string{oldGradingScoresView, prevGradingScoresView} {
		if _, err := conn.ExecContext(ctx, v); err != nil {
			t.Fatal(err)
		}
	}
	checkSameRows(t, conn, "grading_scores", "grading_scores_old", min)
	checkSameRows(t, conn, "grading_scores", "grading_scores_prev", min)
}

// checkSameRows checks that the views got and want hold the same multiset
// of rows (EXCEPT ALL both ways empty, same count), at least min rows.
func checkSameRows(t *testing.T, conn *sql.Conn, got, want string, min int) {
	t.Helper()
	ctx := context.Background()
	var gotN, wantN, onlyGot, onlyWant int
	err := conn.QueryRowContext(ctx, fmt.Sprintf(`SELECT (SELECT count(*) FROM %[1]s), (SELECT count(*) FROM %[2]s),
		(SELECT count(*) FROM (SELECT * FROM %[1]s EXCEPT ALL SELECT * FROM %[2]s)),
		(SELECT count(*) FROM (SELECT * FROM %[2]s EXCEPT ALL SELECT * FROM %[1]s))`, got, want)).Scan(&gotN, &wantN, &onlyGot, &onlyWant)
	if err != nil {
		t.Fatal(err)
	}
	if gotN != wantN || onlyGot != 0 || onlyWant != 0 || gotN < min {
		var diff []string
		rows, err := conn.QueryContext(ctx, fmt.Sprintf(`(SELECT 'got' AS side, * FROM (SELECT * FROM %[1]s EXCEPT ALL SELECT * FROM %[2]s))
			UNION ALL (SELECT 'want', * FROM (SELECT * FROM %[2]s EXCEPT ALL SELECT * FROM %[1]s)) ORDER BY 3, 4, 5, 1 LIMIT 10`, got, want))
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
		t.Fatalf("%s: got %d rows, %s %d (want ≥ %d); %d only in %s, %d only in %s:\n%s",
			got, gotN, want, wantN, min, onlyGot, got, onlyWant, want, strings.Join(diff, "\n"))
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
// of checklist items, a grading without rubric or checklist rows, a sum
// of scores too large for BIGINT millionths, a negative mean — under
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
				g(21, "h5", "human", "", "big", 1), // a sum of millionths past BIGINT: the HUGEINT gcd
				g(22, "h6", "human", "", "neg", 1), // a negative mean
			}, ", "),
			`INSERT INTO rubric_scores VALUES
				(1, 'a', 4), (1, 'a', 2), (1, 'b', 5),
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
		checkViewEqualsOld(t, conn, 13)
		conn.Close()
		db.Close()
	}
}

// TestGradingScoresViewOnDatabase checks the view of sql/ on the rows of
// an existing study database — e.g. those of the 5,000- and
// 40,000-question samples — against the view the database holds (the
// definition of the binary that wrote it) and both oracles, EXCEPT ALL
// both ways. It runs only when EUROEXEC_VIEW_DB names a study.duckdb,
// opened read only: the view of sql/ is created as a temporary view.
func TestGradingScoresViewOnDatabase(t *testing.T) {
	path := os.Getenv("EUROEXEC_VIEW_DB")
	if path == "" {
		t.Skip("EUROEXEC_VIEW_DB is not set")
	}
	ctx := context.Background()
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	conn, err := d.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	b, err := schema.Files.ReadFile("10_grading_scores.sql")
	if err != nil {
		t.Fatal(err)
	}
	const create = "CREATE OR REPLACE VIEW grading_scores AS"
	v := string(b)
	i := strings.Index(v, create)
	if i < 0 {
		t.Fatal("sql/10_grading_scores.sql defines no view grading_scores")
	}
	v = strings.Replace(v[i:], create, "CREATE OR REPLACE TEMP VIEW grading_scores_sql AS", 1)
	for _, v := range []string{v, oldGradingScoresView, prevGradingScoresView} {
		if _, err := conn.ExecContext(ctx, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"grading_scores", "grading_scores_prev", "grading_scores_old"} {
		checkSameRows(t, conn, "grading_scores_sql", want, 1)
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
