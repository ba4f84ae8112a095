package readback

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/euroexec/euroexec/study"
)

// loadQuestions reads the questions, their tags and their checklists into
// s.Questions, sorted by id. Every question gets its PromptChars,
// PromptWords, Snippet and ChecklistItems; its Prompt and Checklist texts
// only when texts is set (else LoadQuestionTexts reads them for the
// questions that need them). Domains, authors and tag keys and values are
// stored once per distinct value.
func (d *DB) loadQuestions(ctx context.Context, s *study.Study, texts bool) error {
	intern := interner{}
	// The questions in the table's own order, sorted here by id (byte
	// order, as DuckDB's ORDER BY on VARCHAR): DuckDB's sort carries every
	// prompt (0.65 against 0.25 s at 40,000 questions). Ids that repeat
	// (which ingest does not write) have no order but DuckDB's: they are
	// read again, sorted by DuckDB, as before.
	if err := d.readQuestions(ctx, s, texts, intern, false); err != nil {
		return err
	}
	byID := func(a, b study.Question) int { return strings.Compare(a.ID, b.ID) }
	if !slices.IsSortedFunc(s.Questions, byID) {
		slices.SortFunc(s.Questions, byID)
	}
	for i := 1; i < len(s.Questions); i++ {
		if s.Questions[i].ID == s.Questions[i-1].ID {
			s.Questions = nil
			if err := d.readQuestions(ctx, s, texts, intern, true); err != nil {
				return err
			}
			break
		}
	}
	at := func(id string) (*study.Question, error) {
		i, ok := slices.BinarySearchFunc(s.Questions, id, func(q study.Question, id string) int { return strings.Compare(q.ID, id) })
		if !ok {
			return nil, fmt.Errorf("question %q is not in the questions table", id)
		}
		return &s.Questions[i], nil
	}
	err := d.query(ctx, `SELECT question_id, key, value FROM question_tags ORDER BY question_id, ord`, func(r *sql.Rows) error {
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

// readQuestions appends the rows of the questions table to s.Questions,
// in the table's order or, sorted, in id order (ORDER BY question_id).
func (d *DB) readQuestions(ctx context.Context, s *study.Study, texts bool, intern interner, sorted bool) error {
	q := `SELECT question_id, domain, prompt, author, difficulty, gate_score FROM questions`
	if sorted {
		q += ` ORDER BY question_id`
	}
	var prompt sql.RawBytes
	return d.query(ctx, q, func(r *sql.Rows) error {
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
}

// LoadQuestionTexts sets the Prompt and Checklist texts of the questions
// of s (sorted by id, as Load and LoadWithoutTexts return them) whose id is
// one of ids; the other questions keep theirs. The ids are bound as a list
// parameter, in batches of textBatch; an id of no question is ignored. It
// returns the number of questions whose texts were set.
func (d *DB) LoadQuestionTexts(ctx context.Context, s *study.Study, ids []string) (int, error) {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	find := func(id string) (*study.Question, bool) {
		i, ok := slices.BinarySearchFunc(s.Questions, id, func(q study.Question, id string) int { return strings.Compare(q.ID, id) })
		if !ok {
			return nil, false
		}
		return &s.Questions[i], true
	}
	n := 0
	for lo := 0; lo < len(ids); lo += textBatch {
		batch := ids[lo:min(lo+textBatch, len(ids))]
		for _, id := range batch {
			if q, ok := find(id); ok {
				q.Checklist = nil
			}
		}
		err := d.query(ctx, `SELECT question_id, prompt FROM questions
			WHERE question_id IN (SELECT unnest(?::VARCHAR[])) ORDER BY question_id`, func(r *sql.Rows) error {
			var id, p string
			if err := r.Scan(&id, &p); err != nil {
				return err
			}
			q, ok := find(id)
			if !ok {
				return fmt.Errorf("question %q is not in the study read back", id)
			}
			q.Prompt = p
			n++
			return nil
		}, batch)
		if err != nil {
			return n, fmt.Errorf("question prompts: %w", err)
		}
		err = d.query(ctx, `SELECT question_id, text FROM checklist_items
			WHERE question_id IN (SELECT unnest(?::VARCHAR[])) ORDER BY question_id, item`, func(r *sql.Rows) error {
			var id, t string
			if err := r.Scan(&id, &t); err != nil {
				return err
			}
			q, ok := find(id)
			if !ok {
				return fmt.Errorf("question %q is not in the study read back", id)
			}
			q.Checklist = append(q.Checklist, t)
			return nil
		}, batch)
		if err != nil {
			return n, fmt.Errorf("checklist items: %w", err)
		}
	}
	return n, nil
}
