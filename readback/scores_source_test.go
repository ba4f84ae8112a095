package readback

import (
	"context"
	"database/sql"
	"math"
	"path/filepath"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/metrics/analysis"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/study"
)

// summarySolveRate returns the summary's Solve Rate and n_gradings of model
// for the main round's human gradings (set all, graders humans).
func summarySolveRate(t *testing.T, s *study.Study, model string) (rate float64, n int64) {
	t.Helper()
	opt := analysis.DefaultOptions()
	opt.Bootstrap = 20
	res, err := analysis.AnalyzeResult(context.Background(), s, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Summary {
		if r.Set == "all" && r.Graders == "humans" && r.Model == model {
			return r.SolveRate, r.Gradings
		}
	}
	t.Fatalf("summary has no row for set all, humans, %s", model)
	return 0, 0
}

// TestAnalysesReadTheView: the analyses take their per-grading scores from
// the view grading_scores, not from the raw rows. After ingest the view is
// replaced by a copy in which one unsolved human grading is marked solved;
// the summary's Solve Rate of that model then rises by exactly one grading
// (1/n_gradings) while the raw rows — and the Go computation from them —
// still say unsolved.
func TestAnalysesReadTheView(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.duckdb")
	res, err := ingest.Ingest(context.Background(), filepath.Join("..", "sample", "study"), ingest.Options{DB: db})
	if err != nil {
		t.Fatal(err)
	}
	load := func() *study.Study {
		t.Helper()
		d, err := Open(db)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		s, _, err := d.Load(context.Background(), res.Config)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := load()
	// one unsolved human grading in the main round of a model other than the human label
	var pick *study.Grading // the grading's first run
	for i := range before.Scores {
		x := &before.Scores[i]
		g := &before.Gradings[x.First]
		if g.Kind == study.Human && g.Round == before.MainRound && g.Model != before.HumanLabel && x.Solve == scores.Unsolved {
			pick = g
			break
		}
	}
	if pick == nil {
		t.Fatal("the sample has no unsolved human grading")
	}
	rate0, n0 := summarySolveRate(t, before, pick.Model)

	c, err := duckdb.NewConnector(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := sql.OpenDB(c)
	for _, q := range []string{
		`CREATE TABLE edited_scores AS SELECT * FROM grading_scores`,
		`UPDATE edited_scores SET solve = 'solved' WHERE round = ? AND question_id = ? AND model = ? AND evaluator = ?`,
		`CREATE OR REPLACE VIEW grading_scores AS SELECT * FROM edited_scores`,
	} {
		if _, err := w.Exec(q, []any{pick.Round, pick.QuestionID, pick.Model, pick.Evaluator}[:countArgs(q)]...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	after := load()
	rate1, n1 := summarySolveRate(t, after, pick.Model)
	if n1 != n0 {
		t.Fatalf("n_gradings changed: %d → %d", n0, n1)
	}
	// Solve Rate = solved/n: one more solved grading adds exactly 1/n
	if got, want := math.Round((rate1-rate0)*float64(n0)), 1.0; got != want {
		t.Errorf("summary Solve Rate of %s: %v → %v over %d gradings: got %v more solved, want %v", pick.Model, rate0, rate1, n0, got, want)
	}
	// the raw rows did not change: the Go computation from them still says unsolved
	opt := scores.Options{RubricThreshold: res.Config.Solve.RubricThreshold, ChecklistThreshold: res.Config.Solve.ChecklistThreshold,
		PartialCredit: res.Config.Solve.PartialCredit}
	for _, g := range scores.FromRows(after, opt) {
		if g.Round == pick.Round && g.QuestionID == pick.QuestionID && g.Model == pick.Model && g.Evaluator == pick.Evaluator && g.Solve != scores.Unsolved {
			t.Errorf("rows computation: solve %d, want unsolved", g.Solve)
		}
	}
}

// countArgs is the number of ? placeholders of q.
func countArgs(q string) int {
	n := 0
	for _, c := range q {
		if c == '?' {
			n++
		}
	}
	return n
}
