-- Per-grading scores, derived once for everything downstream. The one
-- definition is DESIGN.md's; docs/METHODS.md explains each column, and
-- metrics/scores computes the same values in Go for the analyses (a test
-- checks that both agree on every grading).
--
-- grading_run_scores: one row per graded row (a judge's run is a row):
-- exact integer counts; rubric_sum is the sum of the scores (humans only,
-- integers, exact in DOUBLE).
CREATE OR REPLACE VIEW grading_run_scores AS
SELECT
  g.grading_id,
  g.evaluator, g.kind, g.round, g.run, g.question_id, g.model, g.rank,
  r.n_attributes, r.n_scored,
  CASE WHEN g.kind = 'human' THEN r.rubric_sum END AS rubric_sum,
  c.n_items, c.n_counted, c.hits, c.partials, c.misses, c.nas
FROM gradings g
LEFT JOIN (
  SELECT grading_id,
         count(*) AS n_attributes,
         count(score) AS n_scored,
         sum(score) AS rubric_sum
  FROM rubric_scores GROUP BY grading_id
) r USING (grading_id)
LEFT JOIN (
  SELECT grading_id,
         count(*) AS n_items,
         count(*) FILTER (WHERE verdict IN ('hit','partial','miss')) AS n_counted,
         count(*) FILTER (WHERE verdict = 'hit') AS hits,
         count(*) FILTER (WHERE verdict = 'partial') AS partials,
         count(*) FILTER (WHERE verdict = 'miss') AS misses,
         count(*) FILTER (WHERE verdict = 'na') AS nas
  FROM checklist_verdicts GROUP BY grading_id
) c USING (grading_id);

-- solve_rule: the Solve rule's settings (study_settings, shortest decimal
-- form as written by ingest) as exact fractions num/den in lowest terms,
-- with the defaults 3, 0.60 and 0.5 when a setting is absent; has_rubric and
-- has_checklist say which instruments the study has.
CREATE OR REPLACE VIEW solve_rule AS
WITH v AS (
  SELECT
    coalesce((SELECT CAST(value AS DECIMAL(38,12)) FROM study_settings WHERE key = 'solve.rubric_threshold'), 3) AS rub,
    coalesce((SELECT CAST(value AS DECIMAL(38,12)) FROM study_settings WHERE key = 'solve.checklist_threshold'), 0.6) AS chk,
    coalesce((SELECT CAST(value AS DECIMAL(38,12)) FROM study_settings WHERE key = 'solve.partial_credit'), 0.5) AS pc
), u AS (
  SELECT CAST(rub * 1000000000000 AS HUGEINT) AS rub_u, CAST(chk * 1000000000000 AS HUGEINT) AS chk_u,
         CAST(pc * 1000000000000 AS HUGEINT) AS pc_u, CAST(1000000000000 AS HUGEINT) AS d,
         CAST(rub AS DOUBLE) AS rub_f, CAST(chk AS DOUBLE) AS chk_f, CAST(pc AS DOUBLE) AS pc_f
  FROM v
)
SELECT
  CAST(rub_u / gcd(rub_u, d) AS BIGINT) AS rubric_threshold_num, CAST(d / gcd(rub_u, d) AS BIGINT) AS rubric_threshold_den,
  CAST(chk_u / gcd(chk_u, d) AS BIGINT) AS checklist_threshold_num, CAST(d / gcd(chk_u, d) AS BIGINT) AS checklist_threshold_den,
  CAST(pc_u / gcd(pc_u, d) AS BIGINT) AS partial_credit_num, CAST(d / gcd(pc_u, d) AS BIGINT) AS partial_credit_den,
  rub_f AS rubric_threshold, chk_f AS checklist_threshold, pc_f AS partial_credit,
  EXISTS (SELECT 1 FROM rubric_scores) AS has_rubric,
  EXISTS (SELECT 1 FROM checklist_verdicts) AS has_checklist
FROM u;

-- grading_scores: one row per grading — (round, question, model,
-- evaluator), a judge's runs averaged — with the quantities every table
-- uses:
--   rubric_n          attributes with a score in some run
--   rubric_num/_den   exact rubric mean (mean over the attributes of each
--                     attribute's mean over runs), in lowest terms; NULL when
--                     the attributes were scored by different numbers of
--                     runs or a score is not a multiple of 10^-6
--   rubric_mean       the rubric mean as DOUBLE (num/den when exact); NULL
--                     when no attribute has a score
--   hits … nas        verdict counts over all runs
--   checklist_num/_den exact checklist rate, in lowest terms: per run
--                     (hits·pc_den + partials·pc_num) / (counted·pc_den),
--                     averaged over the runs with a counted item (exact
--                     when those runs counted the same number of items)
--   checklist_rate    as DOUBLE; NULL when no run has an item other than na
--   rank              mean rank over the runs that ranked; NULL unranked
--   solve             'solved', 'unsolved' or 'undefined' (a score the rule
--                     needs is undefined: left out of every Solve Rate)
--   usable            a rubric score or a defined checklist rate: a grading
--                     without one pairs with nothing (judge–human tables)
CREATE OR REPLACE VIEW grading_scores AS
WITH
-- gk: each graded row with its grading's key k (the smallest grading_id of
-- its (round, question, model, evaluator)), so that the large tables are
-- aggregated by integers — rubric scores and verdicts are grouped by (k,
-- attribute) and grading_id, not by four strings per row.
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
FROM sc;
