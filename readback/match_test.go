package readback

import (
	"strings"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// TestMatchScores: the rows of grading_scores, read before the gradings,
// take the gradings in order (First set by hand below), and a row that
// does not match its runs is an error naming it.
func TestMatchScores(t *testing.T) {
	gradings := []study.Grading{
		{Round: "main", QuestionID: "q1", Model: "m1", Evaluator: "h", Kind: study.Human},
		{Round: "main", QuestionID: "q1", Model: "m1", Evaluator: "j", Kind: study.Judge, Run: "1"},
		{Round: "main", QuestionID: "q1", Model: "m1", Evaluator: "j", Kind: study.Judge, Run: "2"},
	}
	type row struct {
		key  [5]string
		runs int32
	}
	h := [5]string{"main", "q1", "m1", "h", study.Human}
	j := [5]string{"main", "q1", "m1", "j", study.Judge}
	for _, c := range []struct {
		name      string
		rows      []row
		wantFirst []int32
		wantErr   string
	}{
		{"rows tile the gradings", []row{{h, 1}, {j, 2}}, []int32{0, 1}, ""},
		{"a run of another evaluator", []row{{h, 2}, {j, 1}}, nil, "grading_scores: row 1 (main/q1/m1/h) does not match gradings row 1 (main/q1/m1/j)"},
		{"another kind", []row{{h, 1}, {[5]string{"main", "q1", "m1", "j", study.Human}, 2}}, nil, "row 2 (main/q1/m1/j) does not match gradings row 1"},
		{"runs beyond the gradings", []row{{h, 1}, {j, 5}}, nil, "grading_scores: main/q1/m1/j has 5 runs; 2 gradings are left"},
		{"rows that leave gradings out", []row{{h, 1}, {j, 1}}, nil, "grading_scores: 2 rows cover 2 of 3 gradings"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &study.Study{Gradings: gradings}
			keys := newScoreKeys(0)
			for _, r := range c.rows {
				keys.add(r.key[0], r.key[1], r.key[2], r.key[3], r.key[4])
				s.Scores = append(s.Scores, study.Score{Runs: r.runs, First: -1})
			}
			err := matchScores(s, keys)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Errorf("got error %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range c.wantFirst {
				if got := s.Scores[i].First; got != w {
					t.Errorf("row %d: First %d, want %d", i+1, got, w)
				}
			}
		})
	}
	if err := matchScores(&study.Study{Gradings: gradings}, nil); err != nil {
		t.Errorf("no view: got %v, want nil", err)
	}
}
