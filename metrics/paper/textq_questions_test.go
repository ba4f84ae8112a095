package paper

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/euroexec/euroexec/study"
)

// TestTextsNeededQuestions: with 120 questions and 30 pages, TextsNeeded's
// Questions are exactly the questions with a full page in Analyze's report,
// each also in Responses; a copy whose other questions have no prompt or
// checklist text (their counts and snippet set here from the texts, counted
// independently) gives the same tables and pages — and a copy that also
// drops one page question's texts does not.
func TestTextsNeededQuestions(t *testing.T) {
	s := synthStudy(120, 3)
	for i := range s.Questions {
		q := &s.Questions[i]
		q.Prompt = strings.Repeat(fmt.Sprintf("Question %s asks\tthis and  that. ", q.ID), 1+i%9)
		q.Checklist = nil
		for k := range 1 + i%4 {
			q.Checklist = append(q.Checklist, fmt.Sprintf("item %d of %s", k+1, q.ID))
		}
	}
	o := DefaultOptions()
	o.Bootstrap, o.Resamples = 20, 10
	o.QuestionPages = 30
	full, err := present(context.Background(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	var pages []string
	for _, pg := range full.Questions {
		if !pg.Summary {
			pages = append(pages, pg.ID)
		}
	}
	need, err := TextsNeeded(s, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 30 || !slices.Equal(need.Questions, pages) {
		t.Fatalf("TextsNeeded.Questions = %v,\nwant the %d full pages %v", need.Questions, len(pages), pages)
	}
	for _, id := range need.Questions {
		if !slices.Contains(need.Responses, id) {
			t.Errorf("page question %s is not in Responses", id)
		}
	}

	lean := func(keep []string) *study.Study {
		c := *s
		c.Questions = slices.Clone(s.Questions)
		for i := range c.Questions {
			q := &c.Questions[i]
			q.PromptChars = utf8.RuneCountInString(q.Prompt)
			q.PromptWords = len(strings.Fields(q.Prompt))
			q.ChecklistItems = len(q.Checklist)
			q.Snippet = study.PromptSnippet(q.Prompt)
			if !slices.Contains(keep, q.ID) {
				q.Prompt, q.Checklist = "", nil
			}
		}
		return &c
	}
	rep, err := present(context.Background(), lean(need.Questions), o)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameTables(full, rep); err != nil {
		t.Error(err)
	}
	for i := range full.Questions {
		if a, b := fmt.Sprintf("%+v", *rep.Questions[i]), fmt.Sprintf("%+v", *full.Questions[i]); a != b {
			t.Errorf("page %s differs:\n got %.200s\nwant %.200s", full.Questions[i].ID, a, b)
		}
	}

	short, err := present(context.Background(), lean(need.Questions[1:]), o)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameTables(full, short); err != nil {
		t.Error(err) // the tables read no text
	}
	differ := 0
	for i := range full.Questions {
		if fmt.Sprintf("%+v", *short.Questions[i]) != fmt.Sprintf("%+v", *full.Questions[i]) {
			differ++
		}
	}
	if differ != 1 {
		t.Errorf("%d pages differ with one page question's texts left out, want 1", differ)
	}
}
