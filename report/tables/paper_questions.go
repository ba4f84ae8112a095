package tables

import (
	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/report"
)

// paperFeatured words why a question has a page.
var paperFeatured = map[paper.Featured]string{
	paper.FeaturedUnsolved:     report.FeaturedUnsolved,
	paper.FeaturedDisagreement: report.FeaturedDisagreement,
	paper.FeaturedSample:       report.FeaturedSample,
}

// paperQuestions presents the question pages, in the analysis's order.
func paperQuestions(pages []*paper.QuestionPage) []*report.QuestionPage {
	if pages == nil {
		return nil
	}
	out := make([]*report.QuestionPage, 0, len(pages))
	for _, q := range pages {
		pg := &report.QuestionPage{ID: q.ID, Domain: q.Domain, Difficulty: q.Difficulty, Author: q.Author,
			Prompt: q.Prompt, Snippet: q.Snippet, Checklist: q.Checklist, Summary: q.Summary,
			NResponses: q.NResponses, NGradings: q.NGradings, Featured: paperFeatured[q.Featured],
			SolveRate: q.SolveRate, Solved: q.Solved, Graded: q.Graded, Disagreement: q.Disagreement}
		for _, t := range q.Tags {
			pg.Tags = append(pg.Tags, report.KV{Key: t.Key, Value: t.Value})
		}
		for _, r := range q.References {
			pg.References = append(pg.References, report.ReferenceText{ID: r.ID, Author: r.Author, Text: r.Text, Graded: r.Graded})
		}
		for _, r := range q.Responses {
			rv := report.ResponseView{Model: r.Model, Text: r.Text, HasText: r.HasText, Chars: r.Chars, Words: r.Words, Labels: r.Labels}
			for _, g := range r.Gradings {
				rv.Gradings = append(rv.Gradings, report.GradingView{Evaluator: g.Evaluator, Kind: g.Kind, Round: g.Round,
					Rubric: g.Rubric, RubricMean: g.RubricMean, ChecklistRate: g.ChecklistRate, Verdicts: g.Verdicts,
					Rank: g.Rank, Solved: g.Solved, Comment: g.Comment, Label: g.Label})
			}
			pg.Responses = append(pg.Responses, rv)
		}
		out = append(out, pg)
	}
	return out
}
