-- Per-grading scores with exact integer numerators, derived once for
-- everything downstream. rubric_sum is a sum of integers, for humans only
-- (exact in DOUBLE); checklist points are counted in half points; Go divides once.
CREATE OR REPLACE VIEW grading_scores AS
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
         -- human scores are integers, so this sum is exact in any order;
         -- judges' fractional scores are averaged in Go, not here
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
