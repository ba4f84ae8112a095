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

// TestTextQuestions: with 120 questions and 30 pages, TextQuestions names
// exactly the questions that get a full page in Analyze's report plus those
// with a reference tagged as the text filter asks (computed here from the
// study); the analysis of a copy whose other responses have no text (Chars
// and Words kept) gives the same tables and pages. At or below the page
// limit every question is named.
func TestTextQuestions(t *testing.T) {
	s := synthStudy(120, 3)
	for i := range s.Responses {
		r := &s.Responses[i]
		r.Text = strings.Repeat(fmt.Sprintf("%s answers %s with words ", r.Model, r.QuestionID), 1+i%5)
		r.Chars, r.Words = utf8.RuneCountInString(r.Text), len(strings.Fields(r.Text))
	}
	tagged := map[string]bool{}
	for q := range s.Questions {
		id := s.Questions[q].ID
		if q%7 == 0 {
			s.References = append(s.References, study.Reference{QuestionID: id, ID: "r", Text: "the expert answers " + id})
			if q%2 == 0 {
				s.Questions[q].Tags = append(s.Questions[q].Tags, study.Tag{Key: "set", Value: "balanced"})
				tagged[id] = true
			}
		}
	}
	o := DefaultOptions()
	o.Bootstrap, o.Resamples = 20, 10
	o.QuestionPages = 30
	o.TextFilter = TagFilter{Key: "set", Value: "balanced"}
	full, err := present(context.Background(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if tm := full.Table("text_metrics"); tm == nil || len(tm.Rows) == 0 {
		t.Fatal("no text_metrics rows: the texts are not exercised")
	}
	want := map[string]bool{}
	for _, pg := range full.Questions {
		if !pg.Summary {
			want[pg.ID] = true
		}
	}
	if len(want) != 30 {
		t.Fatalf("%d full pages, want 30", len(want))
	}
	for id := range tagged {
		want[id] = true
	}
	got, err := TextQuestions(s, o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(got) || len(got) != len(want) {
		t.Errorf("TextQuestions = %d ids (sorted %t), want %d", len(got), slices.IsSorted(got), len(want))
	}
	for _, id := range got {
		if !want[id] {
			t.Errorf("TextQuestions names %s, which needs no text", id)
		}
		delete(want, id)
	}
	if len(want) > 0 {
		t.Errorf("TextQuestions misses %v", want)
	}

	lean := *s
	lean.Responses = slices.Clone(s.Responses)
	keep := map[string]bool{}
	for _, id := range got {
		keep[id] = true
	}
	blanked := 0
	for i := range lean.Responses {
		if !keep[lean.Responses[i].QuestionID] {
			lean.Responses[i].Text = ""
			blanked++
		}
	}
	if blanked == 0 {
		t.Fatal("no text left out")
	}
	rep, err := present(context.Background(), &lean, o)
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

	for _, limit := range []int{-1, 120, 0} {
		o.QuestionPages = limit
		got, err := TextQuestions(s, o)
		if err != nil || len(got) != len(s.Questions) {
			t.Errorf("question_pages %d: %d ids (%v), want all %d", limit, len(got), err, len(s.Questions))
		}
	}
	o.PartialCredit = 2
	if _, err := TextQuestions(s, o); err == nil {
		t.Error("no error for partial credit 2")
	}
}
