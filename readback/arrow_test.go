//go:build duckdb_arrow

package readback

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/sample"
	"github.com/euroexec/euroexec/study"
)

// arrowStudies are the studies on which the Arrow readers are compared with
// the row-by-row readers: the hand-made ingest fixture, the sample study
// (judge runs, missing judge scores and verdicts) and a 300-question
// synthetic study.
func arrowStudies(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	opt := sample.DefaultOptions()
	opt.Questions, opt.ResponseChars = 300, 100
	if _, err := sample.Write(dir, opt); err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"base":      filepath.Join("..", "ingest", "testdata", "base"),
		"sample":    filepath.Join("..", "sample", "study"),
		"synthetic": dir,
	}
}

// TestArrowMatchesRows: loadGradingsArrow and responseRowsArrow give the
// same Study.Attributes and Gradings and Listings.Responses, field by field, as the row-by-row readers
// (database/sql, the readers before Arrow) on the same database.
func TestArrowMatchesRows(t *testing.T) {
	ctx := context.Background()
	for name, dir := range arrowStudies(t) {
		t.Run(name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "s.duckdb")
			res, err := ingest.Ingest(ctx, dir, ingest.Options{DB: db})
			if err != nil {
				t.Fatal(err)
			}
			d, err := Open(db)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			rows, arr := &study.Study{}, &study.Study{}
			if err := d.loadGradingsRows(ctx, rows, res.Config); err != nil {
				t.Fatal(err)
			}
			if err := d.loadGradingsArrow(ctx, arr, res.Config); err != nil {
				t.Fatal(err)
			}
			if len(rows.Gradings) == 0 {
				t.Fatal("no gradings: nothing to compare")
			}
			checkSame(t, "Attributes", fmt.Sprintf("%q", arr.Attributes), fmt.Sprintf("%q", rows.Attributes))
			checkSame(t, "len(Gradings)", len(arr.Gradings), len(rows.Gradings))
			var verdicts, scored int
			for i := range min(len(arr.Gradings), len(rows.Gradings)) {
				a, r := arr.Gradings[i], rows.Gradings[i]
				w := fmt.Sprintf("Gradings[%d]", i)
				checkSame(t, w+" keys", [8]string{a.Evaluator, a.Kind, a.Round, a.Run, a.QuestionID, a.Model, a.Label, a.Comment},
					[8]string{r.Evaluator, r.Kind, r.Round, r.Run, r.QuestionID, r.Model, r.Label, r.Comment})
				checkSame(t, w+" Rank, Position", [2]int{a.Rank, a.Position}, [2]int{r.Rank, r.Position})
				checkSame(t, w+" Verdicts", fmt.Sprint(a.Verdicts), fmt.Sprint(r.Verdicts))
				checkSame(t, w+" Verdicts nil", a.Verdicts == nil, r.Verdicts == nil)
				checkSame(t, w+" cap(Verdicts)", cap(a.Verdicts), len(a.Verdicts))
				checkSame(t, w+" len(Rubric)", len(a.Rubric), len(r.Rubric))
				checkSame(t, w+" cap(Rubric)", cap(a.Rubric), len(a.Rubric))
				for k := range min(len(a.Rubric), len(r.Rubric)) {
					if !sameFloat(a.Rubric[k], r.Rubric[k]) {
						t.Errorf("%s Rubric[%d]: got %v, want %v", w, k, a.Rubric[k], r.Rubric[k])
					}
					if !math.IsNaN(r.Rubric[k]) {
						scored++
					}
				}
				verdicts += len(r.Verdicts)
			}
			checkSame(t, "GradingTags", fmt.Sprint(arr.GradingTags), fmt.Sprint(rows.GradingTags))
			t.Logf("%d gradings (%d scores, %d verdicts) compared", len(rows.Gradings), scored, verdicts)

			lr, err := d.responseRows(ctx)
			if err != nil {
				t.Fatal(err)
			}
			la, err := d.responseRowsArrow(ctx)
			if err != nil {
				t.Fatal(err)
			}
			checkSame(t, "len(Listings.Responses)", len(la), len(lr))
			if len(lr) == 0 {
				t.Fatal("no responses: nothing to compare")
			}
			for i := range min(len(la), len(lr)) {
				a, r := la[i], lr[i]
				if !sameFloat(a.CostUSD, r.CostUSD) {
					t.Errorf("Responses[%d].CostUSD: got %v, want %v", i, a.CostUSD, r.CostUSD)
				}
				a.CostUSD, r.CostUSD = 0, 0
				checkSame(t, fmt.Sprintf("Responses[%d]", i), a, r)
			}
			t.Logf("%d listed responses compared", len(lr))
		})
	}
}

// sameFloat is bit-for-bit equality, NaN equal to NaN.
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

func checkSame[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}
