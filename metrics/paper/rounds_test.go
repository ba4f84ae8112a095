package paper

import (
	"context"
	"math"
	"testing"

	"github.com/euroexec/euroexec/study"
)

// Two rounds, as in the paper: the main round grades M1 and M2 on q1 and
// q2 (e1); round "expert" grades q1 again with the human label (e2).
func TestReferenceSubsetRound(t *testing.T) {
	qs := []study.Question{
		{ID: "q1", Domain: "D", GateScore: math.NaN(), Checklist: []string{"a", "b"}},
		{ID: "q2", Domain: "D", GateScore: math.NaN(), Checklist: []string{"a", "b"}},
	}
	lines := []string{
		"e1 . q1 M1 4,4 hh 1", "e1 . q1 M2 2,2 mm 2",
		"e1 . q2 M1 2,2 hm 2", "e1 . q2 M2 3,4 hp 1",
		"e2 . q1 HE 5,5 hh 1", "e2 . q1 M1 3,3 hp 3", "e2 . q1 M2 4,4 hh 2",
	}
	s := buildStudy(t, []string{"A", "B"}, qs, []string{"HE", "M1", "M2"}, lines)
	for i := range s.Gradings {
		if s.Gradings[i].Evaluator == "e2" {
			s.Gradings[i].Round = "expert"
		}
	}
	sortGradings(s.Gradings)
	r := analyze(t, s, nil)
	// Set all = round main only: M1 sums 8, 4 → 12/4 = 3; solved q1 only → 1/2.
	m1 := rowWhere(t, r, "summary", "set", "all", "graders", "humans", "model", "M1")
	checkInt(t, "all M1 n", m1["n_gradings"], 2)
	checkExact(t, "all M1 rubric", m1["rubric"], 3)
	checkExact(t, "all M1 solve", m1["solve_rate"], 0.5)
	// Reference subset = q1 in round expert: M1 6/2 = 3, rate 3/4, rank 3;
	// M2 8/2 = 4, rate 1, rank 2, solved; HE rank 1, wins.
	rm1 := rowWhere(t, r, "summary", "set", "reference_subset", "graders", "humans", "model", "M1")
	checkInt(t, "ref M1 n", rm1["n_gradings"], 1)
	checkExact(t, "ref M1 rubric", rm1["rubric"], 3)
	checkExact(t, "ref M1 checklist", rm1["checklist_rate"], 0.75)
	checkExact(t, "ref M1 rank", rm1["avg_rank"], 3)
	he := rowWhere(t, r, "summary", "set", "reference_subset", "graders", "humans", "model", "HE")
	checkExact(t, "ref HE win", he["win_rate"], 1)
}

func TestDegenerateStudies(t *testing.T) {
	if _, err := present(context.Background(), nil, DefaultOptions()); err == nil {
		t.Error("nil study: no error")
	}
	r, err := present(context.Background(), &study.Study{}, DefaultOptions())
	if err != nil {
		t.Fatalf("empty study: %v", err)
	}
	if r.Table("summary") == nil || len(r.Table("summary").Rows) != 0 {
		t.Error("empty study: want an empty summary table")
	}
	s := &study.Study{MainRound: "main", Attributes: []string{"A"}, Questions: []study.Question{{ID: "q", GateScore: math.NaN()}},
		Models: []study.Model{{Name: "M"}}}
	if _, err := present(context.Background(), s, DefaultOptions()); err != nil {
		t.Fatalf("study without gradings: %v", err)
	}
	// One grading of one model: nothing to compare, no panic.
	s.Evaluators = []study.Evaluator{{ID: "e", Kind: study.Human}}
	s.Gradings = []study.Grading{{Evaluator: "e", Kind: study.Human, Round: "main", QuestionID: "q", Model: "M", Rubric: []float64{4}}}
	r, err = present(context.Background(), s, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, "solve", rowWhere(t, r, "summary", "model", "M")["solve_rate"], 1)
	bad := DefaultOptions()
	bad.ChecklistThreshold = 1.5
	if _, err := present(context.Background(), s, bad); err == nil {
		t.Error("checklist threshold 1.5: no error")
	}
	dup := *s
	dup.Models = []study.Model{{Name: "M"}, {Name: "M"}}
	if _, err := present(context.Background(), &dup, DefaultOptions()); err == nil {
		t.Error("duplicate model: no error")
	}
}

// Gradings in another order give the same tables (and a warning).
func TestUnsortedGradings(t *testing.T) {
	a := analyze(t, miniStudy(t), nil)
	s := miniStudy(t)
	for i, j := 0, len(s.Gradings)-1; i < j; i, j = i+1, j-1 {
		s.Gradings[i], s.Gradings[j] = s.Gradings[j], s.Gradings[i]
	}
	b := analyze(t, s, nil)
	if err := sameTables(a, b); err != nil {
		t.Fatalf("reversed gradings: %v", err)
	}
	if len(b.Warnings) == 0 {
		t.Error("no warning for unsorted gradings")
	}
}

// A judge grading with a missing score and a missing verdict: both are
// left out (mean of the present attribute, rate over the items with a
// verdict) and counted in the warnings.
func TestJudgeMissing(t *testing.T) {
	qs := []study.Question{{ID: "q", Domain: "D", GateScore: math.NaN(), Checklist: []string{"a", "b", "c"}}}
	lines := []string{"e1 . q M1 4,4 hhh 1", "J . q M1 NaN,4 h-p 1"}
	s := buildStudy(t, []string{"A", "B"}, qs, []string{"M1"}, lines)
	r := analyze(t, s, nil)
	// Judge: rubric mean of B alone = 4; rate (1 + 0.5)/2 = 3/4.
	row := rowWhere(t, r, "summary", "graders", "judge:J", "model", "M1")
	checkExact(t, "judge rubric", row["rubric"], 4)
	checkExact(t, "judge checklist", row["checklist_rate"], 0.75)
	if len(r.Warnings) != 2 {
		t.Errorf("warnings = %v, want one for the score and one for the verdict", r.Warnings)
	}
}
