package paper

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/euroexec/euroexec/study"

	"github.com/euroexec/euroexec/report"
)

// Above Options.QuestionPages only that many questions keep a full page:
// unsolved-by-all first, then the largest human disagreement (checked
// against spreads computed here from the raw gradings), then a seeded
// sample; the others are summary lines without texts.
func TestQuestionPagesSelection(t *testing.T) {
	s := synthStudy(120, 3)
	// make questions 5 and 77 unsolved by every model
	for i := range s.Gradings {
		g := &s.Gradings[i]
		if g.QuestionID == "q000005" || g.QuestionID == "q000077" {
			for a := range g.Rubric {
				g.Rubric[a] = 1
			}
			for k := range g.Verdicts {
				g.Verdicts[k] = study.Miss
			}
		}
	}
	o := DefaultOptions()
	o.Bootstrap, o.Resamples = 0, 0
	o.QuestionPages = 30
	rep, err := present(context.Background(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	// spreads from the raw gradings: per response, max − min of the human
	// graders' rubric means; per question the largest
	spread := map[string]float64{}
	type resp struct{ q, m string }
	lo, hi := map[resp]float64{}, map[resp]float64{}
	for _, g := range s.Gradings {
		if g.Kind != study.Human {
			continue
		}
		var sum float64
		for _, v := range g.Rubric {
			sum += v
		}
		mean := sum / float64(len(g.Rubric))
		k := resp{g.QuestionID, g.Model}
		if l, ok := lo[k]; !ok || mean < l {
			lo[k] = mean
		}
		if h, ok := hi[k]; !ok || mean > h {
			hi[k] = mean
		}
		spread[g.QuestionID] = math.Max(spread[g.QuestionID], hi[k]-lo[k])
	}
	count := map[string]int{}
	minFeatured, maxOther := math.Inf(1), math.Inf(-1)
	for _, q := range rep.Questions {
		if q.Summary {
			count["summary"]++
			if len(q.Responses) != 0 || len(q.References) != 0 || q.NResponses == 0 || q.NGradings == 0 {
				t.Errorf("%s: summary with %d responses, counts %d/%d", q.ID, len(q.Responses), q.NResponses, q.NGradings)
			}
			maxOther = math.Max(maxOther, spread[q.ID])
			continue
		}
		count[q.Featured]++
		if len(q.Responses) == 0 || q.NResponses != len(q.Responses) {
			t.Errorf("%s: page with %d responses, NResponses %d", q.ID, len(q.Responses), q.NResponses)
		}
		if q.Featured == report.FeaturedDisagreement {
			minFeatured = math.Min(minFeatured, spread[q.ID])
		}
	}
	if count["summary"] != 90 || count[report.FeaturedUnsolved] != 2 || count[report.FeaturedDisagreement] != 18 || count[report.FeaturedSample] != 10 {
		t.Errorf("pages by reason %v; want 90 summaries, 2 unsolved, 18 disagreement, 10 sample", count)
	}
	if minFeatured < maxOther {
		t.Errorf("a question without a page has spread %v, above a featured one's %v", maxOther, minFeatured)
	}
	for _, id := range []string{"q000005", "q000077"} {
		for _, q := range rep.Questions {
			if q.ID == id && q.Featured != report.FeaturedUnsolved {
				t.Errorf("%s: featured %q, want %q", id, q.Featured, report.FeaturedUnsolved)
			}
		}
	}
	// the same selection again; and every page with "all" or a study below the limit
	rep2, _ := present(context.Background(), s, o)
	for i := range rep.Questions {
		if rep.Questions[i].Featured != rep2.Questions[i].Featured {
			t.Fatalf("question %d: %q then %q", i, rep.Questions[i].Featured, rep2.Questions[i].Featured)
		}
	}
	for _, n := range []int{-1, 0, 120} {
		o.QuestionPages = n
		rep, _ := present(context.Background(), s, o)
		for _, q := range rep.Questions {
			if q.Summary || q.Featured != "" {
				t.Fatalf("QuestionPages %d: %s is %q (summary %v), want a plain page", n, q.ID, q.Featured, q.Summary)
			}
		}
	}
}

// The blinded label of each grading reaches its question page: per grading
// (GradingView.Label) and per response (the distinct labels, sorted).
func TestQuestionPageLabels(t *testing.T) {
	s := synthStudy(2, 3)
	want := map[string]string{} // evaluator/question/model → label
	for i := range s.Gradings {
		g := &s.Gradings[i]
		if g.Kind != study.Human {
			continue
		}
		// the first human saw label "Z", the others "Y"; model names otherwise
		g.Label = "Y"
		if g.Evaluator == s.Gradings[0].Evaluator {
			g.Label = "Z"
		}
		want[g.Evaluator+"/"+g.QuestionID+"/"+g.Model] = g.Label
	}
	o := DefaultOptions()
	o.Bootstrap, o.Resamples = 0, 0
	rep, err := present(context.Background(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, q := range rep.Questions {
		for _, r := range q.Responses {
			seen := map[string]bool{}
			for _, g := range r.Gradings {
				w := want[g.Evaluator+"/"+q.ID+"/"+r.Model]
				if g.Label != w {
					t.Errorf("%s %s/%s: label %q, want %q", g.Evaluator, q.ID, r.Model, g.Label, w)
				}
				if w != "" {
					seen[w] = true
					n++
				}
			}
			var labels []string
			for _, l := range []string{"Y", "Z"} {
				if seen[l] {
					labels = append(labels, l)
				}
			}
			if fmt.Sprint(r.Labels) != fmt.Sprint(labels) {
				t.Errorf("%s/%s: labels %q, want %q", q.ID, r.Model, r.Labels, labels)
			}
		}
	}
	if n == 0 {
		t.Fatal("no labelled grading reached a page")
	}
}
