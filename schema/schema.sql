-- Canonical tables of a euroexec study database. Long and tidy: rubric
-- attributes and checklist items are rows. Text is stored byte for byte.
CREATE TABLE questions (
  question_id VARCHAR NOT NULL,
  domain      VARCHAR NOT NULL,
  prompt      VARCHAR NOT NULL,
  author      VARCHAR,
  difficulty  VARCHAR,          -- as given in the questions file
  gate_score  DOUBLE,           -- as given in the questions file
  source_file VARCHAR NOT NULL,
  source_row  BIGINT NOT NULL
);
CREATE TABLE question_tags (
  question_id VARCHAR NOT NULL,
  key         VARCHAR NOT NULL,
  value       VARCHAR NOT NULL,
  ord         INTEGER NOT NULL  -- column position among the tags
);
CREATE TABLE checklist_items (
  question_id VARCHAR NOT NULL,
  item        INTEGER NOT NULL,
  text        VARCHAR NOT NULL
);
CREATE TABLE models (
  model             VARCHAR NOT NULL,
  provider          VARCHAR,
  display_name      VARCHAR,
  usd_per_1k_input  DOUBLE,
  usd_per_1k_output DOUBLE
);
CREATE TABLE evaluators (
  evaluator VARCHAR NOT NULL,
  kind      VARCHAR NOT NULL,   -- human | judge
  domain    VARCHAR,
  provider  VARCHAR             -- a judge's provider (evaluators.provider), for the judge audit
);
CREATE TABLE responses (
  question_id   VARCHAR NOT NULL,
  model         VARCHAR NOT NULL,
  attempt       BIGINT NOT NULL,  -- 0 when the dump has no attempt column
  latest        BOOLEAN NOT NULL, -- the highest attempt of its (question, model): the one analysed
  text          VARCHAR NOT NULL,
  chars         BIGINT NOT NULL,  -- Unicode code points
  words         BIGINT NOT NULL,  -- whitespace-separated words
  cost_usd      DOUBLE,
  input_tokens  BIGINT,
  output_tokens BIGINT,
  source_file   VARCHAR NOT NULL,
  source_row    BIGINT NOT NULL
);
CREATE TABLE failed_requests (
  question_id VARCHAR,
  model       VARCHAR,
  request_id  VARCHAR NOT NULL,
  error       VARCHAR NOT NULL,
  source_file VARCHAR NOT NULL,
  source_row  BIGINT NOT NULL
);
CREATE TABLE "references" (
  question_id  VARCHAR NOT NULL,
  reference_id VARCHAR NOT NULL,
  author       VARCHAR,
  text         VARCHAR NOT NULL,
  graded       BOOLEAN NOT NULL,  -- the answer graded as the human label
  chars        BIGINT NOT NULL,
  words        BIGINT NOT NULL
);
CREATE TABLE gradings (
  grading_id  BIGINT NOT NULL,
  evaluator   VARCHAR NOT NULL,
  kind        VARCHAR NOT NULL,   -- human | judge
  round       VARCHAR NOT NULL,
  run         VARCHAR NOT NULL,   -- '' unless a judge ran several times
  question_id VARCHAR NOT NULL,
  model       VARCHAR NOT NULL,   -- resolved through blinding when graded by label
  label       VARCHAR,            -- the blinded label as written, else blinding's for (question, model, evaluator), then (question, model)
  rank        INTEGER,            -- preference rank, 1 = best
  comment     VARCHAR,
  source_file VARCHAR NOT NULL,
  sheet       VARCHAR,
  source_row  BIGINT NOT NULL,
  position    INTEGER             -- where the grader was shown the response, 1 = first (grading row or blinding)
);
CREATE TABLE grading_tags (
  grading_id BIGINT NOT NULL,
  key        VARCHAR NOT NULL,
  value      VARCHAR NOT NULL
);
CREATE TABLE pairwise_judgments (
  evaluator   VARCHAR NOT NULL,
  kind        VARCHAR NOT NULL,   -- human | judge
  round       VARCHAR NOT NULL,
  run         VARCHAR NOT NULL,   -- '' unless a judge ran several times
  question_id VARCHAR NOT NULL,
  model_a     VARCHAR NOT NULL,   -- the answer shown first (after the position column)
  model_b     VARCHAR NOT NULL,   -- the answer shown second; never model_a
  label_a     VARCHAR,            -- blinded labels as written, if any
  label_b     VARCHAR,
  winner      VARCHAR NOT NULL,   -- a | b | tie (relative to model_a, model_b here)
  comment     VARCHAR,
  source_file VARCHAR NOT NULL,
  sheet       VARCHAR,
  source_row  BIGINT NOT NULL,
  position_unknown BOOLEAN NOT NULL -- the position column said the order shown is unknown
);
CREATE TABLE rubric_scores (
  grading_id BIGINT NOT NULL,
  attribute  VARCHAR NOT NULL,
  score      DOUBLE             -- NULL: a judge's missing score
);
CREATE TABLE checklist_verdicts (
  grading_id BIGINT NOT NULL,
  item       INTEGER NOT NULL,
  verdict    VARCHAR            -- hit | partial | miss | na; NULL: a judge's missing verdict
);
CREATE TABLE gate_runs (
  question_id VARCHAR NOT NULL,
  run         VARCHAR NOT NULL,
  item        INTEGER NOT NULL,
  passed      BOOLEAN NOT NULL
);
CREATE TABLE criteria (
  question_id  VARCHAR NOT NULL,
  criterion_id VARCHAR NOT NULL,
  text         VARCHAR NOT NULL,
  weight       INTEGER NOT NULL,
  category     VARCHAR
);
CREATE TABLE criterion_grades (
  evaluator    VARCHAR NOT NULL,
  kind         VARCHAR NOT NULL,
  question_id  VARCHAR NOT NULL,
  model        VARCHAR NOT NULL,
  criterion_id VARCHAR NOT NULL,
  met          BOOLEAN NOT NULL,
  source_file  VARCHAR NOT NULL,
  source_row   BIGINT NOT NULL
);
CREATE TABLE ingest_files (
  path      VARCHAR NOT NULL,
  sha256    VARCHAR NOT NULL,
  rows      BIGINT NOT NULL,
  loaded_at TIMESTAMP NOT NULL
);
CREATE TABLE study_settings (
  key   VARCHAR NOT NULL,
  value VARCHAR NOT NULL
);
