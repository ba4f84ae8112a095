//go:build duckdb_arrow

package transform

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/study"
)

// serialLoad is load as it was before the view grading_scores was read
// on a second connection (the oracle of TestLoadMatchesSerial): one step
// after another, the questions sorted by DuckDB (serialLoadQuestions) and
// the gradings read row by row (loadGradingsRows: every table sorted by
// DuckDB, the verdicts with ORDER BY grading_id, item).
func serialLoad(ctx context.Context, d *DB, cfg config.Config, texts bool) (*study.Study, []string, error) {
	s := &study.Study{
		Title: cfg.Title, HumanLabel: cfg.HumanLabel, MainRound: cfg.MainRound,
		ScaleMin: cfg.Rubric.Min, ScaleMax: cfg.Rubric.Max, ScaleStep: cfg.Rubric.StepOrOne(),
		LowerIsBetter: cfg.Rubric.Lower(),
	}
	var warnings []string
	if err := serialLoadQuestions(ctx, d, s, texts); err != nil {
		return nil, nil, err
	}
	gate := map[string][2]int64{}
	err := d.query(ctx, `SELECT question_id, count(*) FILTER (WHERE passed), count(*) FROM gate_runs GROUP BY question_id`, func(r *sql.Rows) error {
		var q string
		var p, n int64
		if err := r.Scan(&q, &p, &n); err != nil {
			return err
		}
		gate[q] = [2]int64{p, n}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	for i := range s.Questions {
		q := &s.Questions[i]
		if g, ok := gate[q.ID]; ok && g[1] > 0 {
			fromRuns := float64(g[0]) / float64(g[1])
			if !math.IsNaN(q.GateScore) && math.Abs(q.GateScore-fromRuns) > 1e-9 {
				warnings = append(warnings, fmt.Sprintf("question %s: gate_score %v differs from the gate runs' %d/%d", q.ID, q.GateScore, g[0], g[1]))
			}
			if math.IsNaN(q.GateScore) {
				q.GateScore = fromRuns
			}
		}
		if !math.IsNaN(q.GateScore) {
			bin := Bin(q.GateScore, cfg.Difficulty.Bins)
			if q.Difficulty == "" {
				q.Difficulty = bin
			} else if q.Difficulty != bin {
				warnings = append(warnings, fmt.Sprintf("question %s: difficulty %q differs from its gate score's bin %q", q.ID, q.Difficulty, bin))
			}
		}
	}
	if err := d.loadModels(ctx, s); err != nil {
		return nil, nil, err
	}
	if err := d.loadResponses(ctx, s, texts); err != nil {
		return nil, nil, err
	}
	keys, err := d.readScoresRows(ctx, s)
	if err != nil {
		return nil, nil, err
	}
	if err := d.loadGradingsRows(ctx, s, cfg); err != nil {
		return nil, nil, err
	}
	if err := matchScores(s, keys); err != nil {
		return nil, nil, err
	}
	if err := d.loadRest(ctx, s); err != nil {
		return nil, nil, err
	}
	if err := d.loadComparisons(ctx, s); err != nil {
		return nil, nil, err
	}
	return s, warnings, nil
}

// serialLoadQuestions is loadQuestions as it was: the questions sorted by
// DuckDB (ORDER BY question_id).
func serialLoadQuestions(ctx context.Context, d *DB, s *study.Study, texts bool) error {
	intern := interner{}
	var prompt sql.RawBytes
	err := d.query(ctx, `SELECT question_id, domain, prompt, author, difficulty, gate_score FROM questions ORDER BY question_id`, func(r *sql.Rows) error {
		var q study.Question
		var domain string
		var author, diff sql.NullString
		var gate sql.NullFloat64
		if err := r.Scan(&q.ID, &domain, &prompt, &author, &diff, &gate); err != nil {
			return err
		}
		p := string(prompt) // the prompt, measured, then dropped unless texts
		q.PromptChars, q.PromptWords = study.TextLen(p)
		q.Snippet = study.PromptSnippet(p)
		if texts {
			q.Prompt = p
		}
		q.Domain, q.Author, q.Difficulty, q.GateScore = intern.str(domain), intern.str(str(author)), intern.str(str(diff)), f64(gate)
		s.Questions = append(s.Questions, q)
		return nil
	})
	if err != nil {
		return err
	}
	at := func(id string) (*study.Question, error) {
		i, ok := slices.BinarySearchFunc(s.Questions, id, func(q study.Question, id string) int { return strings.Compare(q.ID, id) })
		if !ok {
			return nil, fmt.Errorf("question %q is not in the questions table", id)
		}
		return &s.Questions[i], nil
	}
	err = d.query(ctx, `SELECT question_id, key, value FROM question_tags ORDER BY question_id, ord`, func(r *sql.Rows) error {
		var id string
		var t study.Tag
		if err := r.Scan(&id, &t.Key, &t.Value); err != nil {
			return err
		}
		q, err := at(id)
		if err != nil {
			return fmt.Errorf("question tags: %w", err)
		}
		t.Key, t.Value = intern.str(t.Key), intern.str(t.Value)
		q.Tags = append(q.Tags, t)
		return nil
	})
	if err != nil {
		return err
	}
	if texts {
		err = d.query(ctx, `SELECT question_id, text FROM checklist_items ORDER BY question_id, item`, func(r *sql.Rows) error {
			var id, t string
			if err := r.Scan(&id, &t); err != nil {
				return err
			}
			q, err := at(id)
			if err != nil {
				return fmt.Errorf("checklist items: %w", err)
			}
			q.Checklist = append(q.Checklist, t)
			q.ChecklistItems++
			return nil
		})
	} else {
		err = d.query(ctx, `SELECT question_id, count(*) FROM checklist_items GROUP BY question_id`, func(r *sql.Rows) error {
			var id string
			var n int
			if err := r.Scan(&id, &n); err != nil {
				return err
			}
			q, err := at(id)
			if err != nil {
				return fmt.Errorf("checklist items: %w", err)
			}
			q.ChecklistItems = n
			return nil
		})
	}
	return err
}

// checkSameStudy reports where got and want differ: every field, element
// and string compared (floats by their bits, any NaN equal to any NaN, as
// reflect.DeepEqual after the NaNs), and the warnings.
func checkSameStudy(t *testing.T, got, want *study.Study, gotW, wantW []string) {
	t.Helper()
	if !reflect.DeepEqual(gotW, wantW) {
		t.Errorf("warnings: got %q, want %q", gotW, wantW)
	}
	var diffs []string
	sameValue(reflect.ValueOf(got).Elem(), reflect.ValueOf(want).Elem(), "Study", &diffs)
	for i, d := range diffs {
		if i == 10 {
			t.Errorf("… %d more differences", len(diffs)-i)
			break
		}
		t.Error(d)
	}
}

// sameValue is reflect.DeepEqual with NaN equal to NaN, appending the
// path of each difference to diffs.
func sameValue(got, want reflect.Value, path string, diffs *[]string) {
	if len(*diffs) > 10 {
		return
	}
	if got.Kind() != want.Kind() {
		*diffs = append(*diffs, fmt.Sprintf("%s: got kind %s, want %s", path, got.Kind(), want.Kind()))
		return
	}
	switch got.Kind() {
	case reflect.Struct:
		for i := range got.NumField() {
			sameValue(got.Field(i), want.Field(i), path+"."+got.Type().Field(i).Name, diffs)
		}
	case reflect.Slice:
		if got.IsNil() != want.IsNil() || got.Len() != want.Len() {
			*diffs = append(*diffs, fmt.Sprintf("%s: got len %d (nil %v), want %d (nil %v)", path, got.Len(), got.IsNil(), want.Len(), want.IsNil()))
			return
		}
		for i := range got.Len() {
			sameValue(got.Index(i), want.Index(i), fmt.Sprintf("%s[%d]", path, i), diffs)
		}
	case reflect.Pointer:
		if got.IsNil() || want.IsNil() {
			if got.IsNil() != want.IsNil() {
				*diffs = append(*diffs, fmt.Sprintf("%s: got nil %v, want nil %v", path, got.IsNil(), want.IsNil()))
			}
			return
		}
		sameValue(got.Elem(), want.Elem(), path, diffs)
	case reflect.Float32, reflect.Float64:
		if !sameFloat(got.Float(), want.Float()) {
			*diffs = append(*diffs, fmt.Sprintf("%s: got %v, want %v", path, got.Float(), want.Float()))
		}
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if !reflect.DeepEqual(got.Interface(), want.Interface()) {
			*diffs = append(*diffs, fmt.Sprintf("%s: got %v, want %v", path, got.Interface(), want.Interface()))
		}
	default:
		*diffs = append(*diffs, fmt.Sprintf("%s: kind %s not compared", path, got.Kind()))
	}
}

// reorderTables rewrites the questions, gradings and checklist_verdicts
// tables of the database at path in reverse order, and adds a second row
// for one question and one grading run (another id) when dup is set, so that the readers that take a table's own
// order must sort it (or read it again sorted: the repeated question has
// another domain).
func reorderTables(t *testing.T, path string, dup bool) {
	t.Helper()
	c, err := duckdb.NewConnector(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	defer db.Close()
	stmts := []string{
		`CREATE TEMP TABLE q AS SELECT * FROM questions ORDER BY question_id DESC`,
		`DELETE FROM questions`, `INSERT INTO questions SELECT * FROM q`,
		`CREATE TEMP TABLE v AS SELECT * FROM checklist_verdicts ORDER BY grading_id DESC, item DESC`,
		`DELETE FROM checklist_verdicts`, `INSERT INTO checklist_verdicts SELECT * FROM v`,
		`CREATE TEMP TABLE g AS SELECT * FROM gradings ORDER BY grading_id DESC`,
		`DELETE FROM gradings`, `INSERT INTO gradings SELECT * FROM g`,
	}
	if dup {
		stmts = append(stmts, `INSERT INTO questions SELECT * REPLACE ('zz-repeated' AS domain) FROM q WHERE question_id = (SELECT min(question_id) FROM q)`,
			`INSERT INTO gradings SELECT * REPLACE (grading_id + 1000000 AS grading_id, 'repeated' AS comment) FROM g WHERE grading_id = (SELECT min(grading_id) FROM g)`)
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestLoadMatchesSerial: Load and LoadWithoutTexts (the view read on a
// second connection, the questions and verdicts in their table's order)
// give the same study, field by field, and the same warnings as the
// serial oracle on the studies of arrowStudies, and on the fixture with
// its questions and verdicts stored in reverse order (and a repeated
// question).
func TestLoadMatchesSerial(t *testing.T) {
	ctx := context.Background()
	studies := arrowStudies(t)
	base := studies["base"]
	tests := []struct {
		name, dir string
		reorder   bool
		dup       bool
	}{
		{"base", base, false, false},
		{"sample", studies["sample"], false, false},
		{"synthetic", studies["synthetic"], false, false},
		{"base reversed", base, true, false},
		{"base reversed, repeated question", base, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.duckdb")
			res, err := ingest.Ingest(ctx, tc.dir, ingest.Options{DB: path})
			if err != nil {
				t.Fatal(err)
			}
			if tc.reorder {
				reorderTables(t, path, tc.dup)
			}
			d, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			for _, texts := range []bool{true, false} {
				got, gotW, err := d.load(ctx, res.Config, texts)
				if err != nil {
					t.Fatal(err)
				}
				want, wantW, err := serialLoad(ctx, d, res.Config, texts)
				if err != nil {
					t.Fatal(err)
				}
				if len(want.Questions) == 0 || len(want.Gradings) == 0 || len(want.Scores) == 0 {
					t.Fatalf("%d questions, %d gradings, %d scores: nothing to compare", len(want.Questions), len(want.Gradings), len(want.Scores))
				}
				checkSameStudy(t, got, want, gotW, wantW)
			}
		})
	}
}

// TestLoadMatchesSerialBig is TestLoadMatchesSerial on an existing study
// database (EUROEXEC_TRACE_DB, read only, with its study.toml in
// EUROEXEC_TRACE_TOML), without texts as read back reads it.
func TestLoadMatchesSerialBig(t *testing.T) {
	path := os.Getenv("EUROEXEC_TRACE_DB")
	if path == "" {
		t.Skip("EUROEXEC_TRACE_DB is not set")
	}
	cfg, err := config.Load(os.Getenv("EUROEXEC_TRACE_TOML"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	got, gotW, err := d.LoadWithoutTexts(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want, wantW, err := serialLoad(ctx, d, cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	checkSameStudy(t, got, want, gotW, wantW)
	t.Logf("%d questions, %d responses, %d gradings, %d scores compared", len(want.Questions), len(want.Responses), len(want.Gradings), len(want.Scores))
}
