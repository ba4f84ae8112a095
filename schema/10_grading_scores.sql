-- Per-grading scores, derived once for everything downstream.
-- docs/METHODS.md ("Per-grading scores") defines each column, and
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
-- with the defaults 3, 0.60 and 0.5 when a setting is absent; rubric_lower
-- is [rubric] direction = "lower" (solved needs the rubric mean at most the
-- threshold); has_rubric and has_checklist say which instruments the study
-- has.
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
  EXISTS (SELECT 1 FROM study_settings WHERE key = 'rubric.direction' AND value = 'lower') AS rubric_lower,
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
-- The large tables are aggregated once each, by grading_id (an integer),
-- and joined to the gradings; the grading's key (round, question, model,
-- evaluator) is grouped once. Only a grading whose rubric cannot be
-- summed per run goes through a per-(grading, attribute) aggregation
-- (slow, attr, rub below): that takes most of the work of the view, so
-- it is kept for the rare cases that need it.
--
-- ad: each attribute with a dense index (0, 1, …) and its bit (NULL past
-- 125) in the mask of the attributes a run scored, shifted once here
-- rather than per score row.
ad AS (
  SELECT attribute, ai, CASE WHEN ai < 126 THEN CAST(1 AS HUGEINT) << CAST(ai AS HUGEINT) END AS bit
  FROM (SELECT attribute, CAST(row_number() OVER (ORDER BY attribute) - 1 AS INTEGER) AS ai
        FROM (SELECT DISTINCT attribute FROM rubric_scores))
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
         bit_or(a.bit) FILTER (WHERE r.score IS NOT NULL) AS mask,
         max(a.ai) AS amax
  FROM rubric_scores r JOIN ad a USING (attribute)
  GROUP BY r.grading_id
),
-- rc: per graded row, its verdict counts; counted (hit, partial or miss)
-- is their sum, not one more filter of every verdict.
rc AS (
  SELECT *, h + p + m AS counted
  FROM (SELECT grading_id,
               count(*) FILTER (WHERE verdict = 'hit') AS h,
               count(*) FILTER (WHERE verdict = 'partial') AS p,
               count(*) FILTER (WHERE verdict = 'miss') AS m,
               count(*) FILTER (WHERE verdict = 'na') AS na
        FROM checklist_verdicts GROUP BY grading_id)
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
-- ex: the rubric of every grading: from the per-run sums (fast) or
-- absent (no rubric rows), else — the rare rest, which alone is joined by
-- the four key strings — from rub. A hash join of every grading with rub
-- would build a table of all the gradings' rows even when rub is empty.
ex AS (
  SELECT round, question_id, model, evaluator, kind, runs, rank,
         CASE WHEN fast THEN rc1 END AS rubric_n,
         CASE WHEN fast THEN mean1 END AS mean_f,
         CASE WHEN fast AND sruns > 0 AND decimal6 THEN rnum_u END AS rnum,
         CASE WHEN fast AND sruns > 0 AND decimal6 THEN CAST(1000000 AS HUGEINT) * sruns * rc1 END AS rden,
         hits, partials, misses, nas, chk_runs, nmin, nmax, cnum_u, rate_f
  FROM kf WHERE NOT coalesce(rruns > 0 AND NOT fast, false)
  UNION ALL
  SELECT ky.round, ky.question_id, ky.model, ky.evaluator, ky.kind, ky.runs, ky.rank,
         r.rubric_n, r.mean_f,
         CASE WHEN r.rubric_n > 0 AND r.cmin = r.cmax AND r.decimal6 THEN r.num_u END,
         CASE WHEN r.rubric_n > 0 AND r.cmin = r.cmax AND r.decimal6 THEN CAST(1000000 AS HUGEINT) * r.cmin * r.rubric_n END,
         ky.hits, ky.partials, ky.misses, ky.nas, ky.chk_runs, ky.nmin, ky.nmax, ky.cnum_u, ky.rate_f
  FROM kf ky LEFT JOIN rub r USING (round, question_id, model, evaluator)
  WHERE ky.rruns > 0 AND NOT ky.fast
),
-- eg: the checklist rate's exact fraction, and the Solve rule.
eg AS (
  SELECT ex.*,
         CASE WHEN chk_runs > 0 AND nmin = nmax THEN CAST(cnum_u AS HUGEINT) END AS cnum,
         CASE WHEN chk_runs > 0 AND nmin = nmax THEN CAST(nmin AS HUGEINT) * s.partial_credit_den * chk_runs END AS cden,
         s.*
  FROM ex CROSS JOIN solve_rule s
),
-- gd, fr: the fractions in lowest terms. The gcd is taken on BIGINT when
-- both terms fit (the same value: HUGEINT division is DuckDB's slow path);
-- the quotients are computed as before (as DOUBLE, cast to BIGINT).
gd AS (
  SELECT *,
         CASE WHEN rnum BETWEEN -9223372036854775807 AND 9223372036854775807 AND rden BETWEEN -9223372036854775807 AND 9223372036854775807
              THEN CAST(gcd(CAST(rnum AS BIGINT), CAST(rden AS BIGINT)) AS HUGEINT) ELSE gcd(rnum, rden) END AS rg,
         CASE WHEN cnum BETWEEN -9223372036854775807 AND 9223372036854775807 AND cden BETWEEN -9223372036854775807 AND 9223372036854775807
              THEN CAST(gcd(CAST(cnum AS BIGINT), CAST(cden AS BIGINT)) AS HUGEINT) ELSE gcd(cnum, cden) END AS cg
  FROM eg
),
fr AS (
  SELECT *,
         CAST(rnum / rg AS BIGINT) AS rubric_num, CAST(rden / rg AS BIGINT) AS rubric_den,
         CAST(cnum / cg AS BIGINT) AS checklist_num, CAST(cden / cg AS BIGINT) AS checklist_den
  FROM gd
),
sc AS (
  SELECT *,
         coalesce(CAST(rubric_num AS DOUBLE) / rubric_den, mean_f) AS rubric_mean,
         coalesce(CAST(checklist_num AS DOUBLE) / checklist_den, rate_f) AS checklist_rate,
         CASE WHEN rubric_lower AND rubric_num IS NOT NULL
              THEN CAST(rubric_num AS HUGEINT) * rubric_threshold_den <= CAST(rubric_threshold_num AS HUGEINT) * rubric_den
              WHEN rubric_lower THEN mean_f <= rubric_threshold
              WHEN rubric_num IS NOT NULL
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
