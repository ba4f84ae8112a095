package tables

import (
	"math"
	"testing"

	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/study"
)

// TestPaperQuestionsFromTyped: a question page keeps every field of the
// typed page, the tags become key-value pairs, the featured reason is
// worded as the site shows it, and a page without tags or references
// keeps them nil (as the site's data expects).
func TestPaperQuestionsFromTyped(t *testing.T) {
	pages := []*paper.QuestionPage{
		{ID: "q1", Domain: "D", Difficulty: "Hard", Prompt: "p", Snippet: "s", Tags: []study.Tag{{Key: "set", Value: "a"}},
			Checklist: []string{"c1"}, References: []paper.ReferenceText{{ID: "r1", Author: "x", Text: "t", Graded: true}},
			Responses: []paper.ResponseView{{Model: "M1", Text: "hi", HasText: true, Chars: 2, Words: 1, Labels: []string{"A"},
				Gradings: []paper.GradingView{{Evaluator: "e1", Kind: study.Human, Round: "main", Rubric: []float64{4, math.NaN()},
					RubricMean: 4, ChecklistRate: 0.5, Verdicts: []string{"hit", ""}, Rank: 2, Solved: true, Comment: "ok", Label: "A"}}}},
			NResponses: 1, NGradings: 1, Featured: paper.FeaturedDisagreement, SolveRate: 1, Solved: 1, Graded: 1, Disagreement: math.NaN()},
		{ID: "q2", Summary: true, NResponses: 3, NGradings: 5, SolveRate: math.NaN(), Disagreement: math.NaN()},
	}
	got := paperQuestions(pages)
	if len(got) != 2 {
		t.Fatalf("%d pages", len(got))
	}
	q := got[0]
	if q.Featured != report.FeaturedDisagreement || len(q.Tags) != 1 || q.Tags[0] != (report.KV{Key: "set", Value: "a"}) ||
		len(q.References) != 1 || !q.References[0].Graded || q.Snippet != "s" || q.Checklist[0] != "c1" {
		t.Errorf("page q1 %+v", q)
	}
	g := q.Responses[0].Gradings[0]
	if q.Responses[0].Labels[0] != "A" || g.Rank != 2 || !g.Solved || g.Verdicts[0] != "hit" || !math.IsNaN(g.Rubric[1]) || g.ChecklistRate != 0.5 {
		t.Errorf("q1 response %+v", q.Responses[0])
	}
	s := got[1]
	if !s.Summary || s.NGradings != 5 || s.Tags != nil || s.References != nil || s.Responses != nil || s.Featured != "" {
		t.Errorf("summary page %+v", s)
	}
}
