package readback

import (
	"context"
	"database/sql/driver"
	"fmt"
	"math"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/internal/duckopen"
	"github.com/euroexec/euroexec/metrics/scores"
)

// ScoresTable is the table of a study database that holds the per-grading
// scores: one row per grading (round, question, model, evaluator), a
// judge's runs averaged, as package scores computes them with the study's
// Solve rule. It is written for people who query the database; the
// analyses compute the same values from the grading rows and never read it.
const ScoresTable = "grading_scores"

// scoresDDL is the table's definition (docs/METHODS.md, "Per-grading
// scores", names every column).
const scoresDDL = `CREATE OR REPLACE TABLE grading_scores (
  round VARCHAR, question_id VARCHAR, model VARCHAR, evaluator VARCHAR, kind VARCHAR,
  runs BIGINT, rubric_n BIGINT, rubric_num BIGINT, rubric_den BIGINT, rubric_mean DOUBLE,
  hits BIGINT, partials BIGINT, misses BIGINT, nas BIGINT,
  checklist_num BIGINT, checklist_den BIGINT, checklist_rate DOUBLE,
  rank DOUBLE, solve VARCHAR, usable BOOLEAN)`

// WriteScores writes gs as the table grading_scores of the database file
// at dbPath, replacing the table if it is there.
func WriteScores(ctx context.Context, dbPath string, gs []scores.Grading) error {
	db, err := duckopen.Open(dbPath, duckopen.Options{})
	if err != nil {
		return fmt.Errorf("write %s: %w", ScoresTable, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, scoresDDL); err != nil {
		return fmt.Errorf("write %s: %w", ScoresTable, err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("write %s: %w", ScoresTable, err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		app, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "", ScoresTable)
		if err != nil {
			return err
		}
		row := make([]driver.Value, 20)
		for i := range gs {
			if i%4096 == 0 && ctx.Err() != nil {
				app.Close()
				return ctx.Err()
			}
			scoreRow(row, &gs[i])
			if err := app.AppendRow(row...); err != nil {
				app.Close()
				return err
			}
		}
		return app.Close()
	})
	if err != nil {
		return fmt.Errorf("write %s: %w", ScoresTable, err)
	}
	if _, err := db.ExecContext(ctx, "CHECKPOINT"); err != nil {
		return fmt.Errorf("write %s: %w", ScoresTable, err)
	}
	return nil
}

// scoreRow fills row with g's columns of grading_scores: NULL for an
// undefined mean or rate, a fraction that is not exact, or no rank.
func scoreRow(row []driver.Value, g *scores.Grading) {
	nullable := func(x float64) driver.Value {
		if math.IsNaN(x) {
			return nil
		}
		return x
	}
	row[0], row[1], row[2], row[3], row[4] = g.Round, g.QuestionID, g.Model, g.Evaluator, g.Kind
	row[5], row[6] = int64(g.Runs), int64(g.RubricN)
	row[7], row[8] = nil, nil
	if g.RubricN > 0 && g.RubricRat.OK() {
		row[7], row[8] = g.RubricRat.Num, g.RubricRat.Den
	}
	row[9] = nullable(g.RubricMean)
	row[10], row[11], row[12], row[13] = int64(g.Hits), int64(g.Partials), int64(g.Misses), int64(g.NAs)
	row[14], row[15] = nil, nil
	if g.ChecklistRat.OK() {
		row[14], row[15] = g.ChecklistRat.Num, g.ChecklistRat.Den
	}
	row[16] = nullable(g.ChecklistRate)
	row[17] = nil
	if g.Rank > 0 {
		row[17] = g.Rank
	}
	switch g.Solve {
	case scores.Solved:
		row[18] = "solved"
	case scores.Unsolved:
		row[18] = "unsolved"
	default:
		row[18] = "undefined"
	}
	row[19] = g.Usable()
}

// StoreScores reads the study database at dbPath back (without texts),
// scores it with cfg's Solve rule and writes the table grading_scores:
// what `euroexec ingest` and export of a study folder add to the database
// ingest writes (ingest.Options.Finish).
func StoreScores(ctx context.Context, dbPath string, cfg config.Config) error {
	d, err := Open(dbPath)
	if err != nil {
		return fmt.Errorf("write %s: %w", ScoresTable, err)
	}
	// only what the scores read: the settings, the attributes and the
	// grading rows
	s := settings(cfg)
	err = d.loadGradings(ctx, s, cfg)
	d.Close()
	if err != nil {
		return fmt.Errorf("write %s: %w", ScoresTable, err)
	}
	return WriteScores(ctx, dbPath, scores.FromRows(s, ScoreOptions(cfg)))
}
