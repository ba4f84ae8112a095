package transform

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/study"
)

// LoadWithoutTexts is Load without the response texts, the prompts and
// the checklist item texts: every Response.Text and Question.Prompt is ""
// and every Question.Checklist nil, while Response.Chars and Words (read
// from the responses table, computed by ingest from the text),
// Question.PromptChars, PromptWords, Snippet and ChecklistItems and
// everything else are as Load reads them. The texts are most of a large
// study's bytes; LoadTexts and LoadQuestionTexts read those of the
// questions that need them. Reference texts are read as by Load.
func (d *DB) LoadWithoutTexts(ctx context.Context, cfg config.Config) (*study.Study, []string, error) {
	return d.load(ctx, cfg, false)
}

// textBatch is the number of question ids LoadTexts and LoadQuestionTexts
// bind per query, which bounds the texts DuckDB materialises at once (at 6
// models and ~1,500 characters a response, some 75 MB of response texts)
// while each query scans the table's whole text column: the first scan
// loads it into DuckDB's buffers (most of LoadTexts' work), the later ones
// read it again. 8,192 reads the 5,716 questions the analysis needs of the
// 40,000-question sample in one scan (1,024 took six; one measurement gave
// 3.8 against 4.6 CPU-s, the read-back trace about the same for both, as
// the first scan's loading dominates). A variable so that tests can make
// it small.
var textBatch = 8192

// LoadTexts sets Response.Text of the responses of s (the latest attempt of
// each question and model, as Load reads them) whose question is one of
// questionIDs; the other responses keep their Text. s.Responses must be
// sorted by (question, model) as Load and LoadWithoutTexts return them.
// The ids are bound as a list parameter, in batches of textBatch; an id of
// no question is ignored. It returns the number of texts set.
func (d *DB) LoadTexts(ctx context.Context, s *study.Study, questionIDs []string) (int, error) {
	ids := slices.Clone(questionIDs)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	cmp := func(r study.Response, k [2]string) int {
		if c := strings.Compare(r.QuestionID, k[0]); c != 0 {
			return c
		}
		return strings.Compare(r.Model, k[1])
	}
	n := 0
	// taken counts, per first index of a (question, model), the rows
	// already given a text: a key appears once in a valid study, but a
	// database that holds it twice gets its texts in rowid order, as Load.
	taken := map[int]int{}
	for lo := 0; lo < len(ids); lo += textBatch {
		batch := ids[lo:min(lo+textBatch, len(ids))]
		err := d.query(ctx, `SELECT question_id, model, text FROM responses
			WHERE latest AND question_id IN (SELECT unnest(?::VARCHAR[]))
			ORDER BY question_id, model, rowid`, func(r *sql.Rows) error {
			var k [2]string
			var text string
			if err := r.Scan(&k[0], &k[1], &text); err != nil {
				return err
			}
			i, ok := slices.BinarySearchFunc(s.Responses, k, cmp)
			if !ok {
				return fmt.Errorf("response texts: question %q, model %q is not in the study read back", k[0], k[1])
			}
			j := i + taken[i]
			if j >= len(s.Responses) || cmp(s.Responses[j], k) != 0 {
				return fmt.Errorf("response texts: question %q, model %q has more texts than responses read back", k[0], k[1])
			}
			taken[i]++
			s.Responses[j].Text = text
			n++
			return nil
		}, batch)
		if err != nil {
			return n, fmt.Errorf("response texts: %w", err)
		}
	}
	return n, nil
}
