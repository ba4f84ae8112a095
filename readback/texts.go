package readback

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/internal/duckopen"
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
// bind per query. Each query scans the table's whole text column (the
// ids are no filter DuckDB can skip blocks with); 8,192 reads the 5,716
// questions the analysis needs of the 40,000-question sample in one scan
// (1,024 took six). A variable so that tests can make it small.
var textBatch = 8192

// textScanMemory is DuckDB's memory limit, in bytes, while LoadTexts scans
// the response texts, unless the longest text to read needs more (see
// textScanLimit). The scan streams (a few blocks pinned at a time), but
// DuckDB keeps every block it has read in its buffers until its limit is
// reached: at 40,000 questions the text column's blocks, some 600 MB,
// stayed there until the database was closed. With this limit they are
// dropped as the scan goes on, and what the scan leaves in the buffers
// when it ends (until read back closes the database) is at most the
// limit: 64 MiB took read back's resident memory at the end of the scan
// from 1,258 to 1,086 MiB at 40,000 questions against 256 MiB, and the
// scan from 0.9 to 0.5 s. A variable so that tests can make it small.
var textScanMemory int64 = 64 << 20

// textScanLimit is DuckDB's memory limit for LoadTexts' scan of texts
// whose longest has maxChars code points: textScanMemory, or 32 times
// the longest text's largest size in UTF-8 (4 bytes a code point) when
// that is more, so that a few such texts per thread fit (response_bytes
// accepts texts of up to 4 GiB).
func textScanLimit(maxChars int) int64 {
	return max(textScanMemory, 32*4*int64(maxChars))
}

// LoadTexts sets Response.Text of the responses of s (the latest attempt of
// each question and model, as Load reads them) whose question is one of
// questionIDs; the other responses keep their Text. s.Responses must be
// sorted by (question, model) as Load and LoadWithoutTexts return them.
// The ids are bound as a list parameter, in batches of textBatch; an id of
// no question is ignored. It returns the number of texts set.
//
// The rows are read in the order DuckDB's scan yields them (no sort of the
// texts in DuckDB) with DuckDB's memory limited to textScanLimit, and
// set back after; a key the database holds twice gets its texts in rowid
// order, as Load.
func (d *DB) LoadTexts(ctx context.Context, s *study.Study, questionIDs []string) (int, error) {
	ids := slices.Clone(questionIDs)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) == 0 {
		return 0, nil
	}
	byKey := func(r study.Response, k [2]string) int {
		if c := strings.Compare(r.QuestionID, k[0]); c != 0 {
			return c
		}
		return strings.Compare(r.Model, k[1])
	}
	maxChars := 0
	for _, r := range s.Responses {
		if _, ok := slices.BinarySearch(ids, r.QuestionID); ok {
			maxChars = max(maxChars, r.Chars)
		}
	}
	restore, err := d.limitMemory(ctx, textScanLimit(maxChars))
	if err != nil {
		return 0, fmt.Errorf("response texts: %w", err)
	}
	// got holds each text with the first index of its (question, model) in
	// s.Responses and its rowid, put in (index, rowid) order once read.
	type text struct {
		i     int
		rowid int64
		text  string
	}
	var got []text
	for lo := 0; lo < len(ids) && err == nil; lo += textBatch {
		batch := ids[lo:min(lo+textBatch, len(ids))]
		err = d.query(ctx, `SELECT question_id, model, rowid, text FROM responses
			WHERE latest AND question_id IN (SELECT unnest(?::VARCHAR[]))`, func(r *sql.Rows) error {
			var k [2]string
			var t text
			if err := r.Scan(&k[0], &k[1], &t.rowid, &t.text); err != nil {
				return err
			}
			i, ok := slices.BinarySearchFunc(s.Responses, k, byKey)
			if !ok {
				return fmt.Errorf("question %q, model %q is not in the study read back", k[0], k[1])
			}
			t.i = i
			got = append(got, t)
			return nil
		}, batch)
	}
	if rerr := restore(); err == nil {
		err = rerr
	}
	if err != nil {
		return 0, fmt.Errorf("response texts: %w", err)
	}
	slices.SortFunc(got, func(a, b text) int {
		if c := cmp.Compare(a.i, b.i); c != 0 {
			return c
		}
		return cmp.Compare(a.rowid, b.rowid)
	})
	for k := 0; k < len(got); {
		i := got[k].i
		for j := i; k < len(got) && got[k].i == i; j, k = j+1, k+1 {
			if j >= len(s.Responses) || s.Responses[j].QuestionID != s.Responses[i].QuestionID || s.Responses[j].Model != s.Responses[i].Model {
				return k, fmt.Errorf("response texts: question %q, model %q has more texts than responses read back", s.Responses[i].QuestionID, s.Responses[i].Model)
			}
			s.Responses[j].Text = got[k].text
		}
	}
	return len(got), nil
}

// limitMemory sets DuckDB's memory limit to limit bytes (rounded up to
// KiB) and returns the function that sets it back to the limit Open set
// (duckopen.Current; DuckDB's default when that has none). The limit is the
// database's, for every connection. A database of OpenUntrusted has its
// configuration locked: its limit stays the one it was opened with.
func (d *DB) limitMemory(ctx context.Context, limit int64) (reset func() error, err error) {
	if d.db.Locked {
		return func() error { return nil }, nil
	}
	// SET takes no parameters; the limit is a number.
	if _, err := d.db.ExecContext(ctx, fmt.Sprintf(`SET GLOBAL memory_limit = '%dKiB'`, (limit+1023)>>10)); err != nil {
		return nil, fmt.Errorf("memory limit of %d bytes: %w", limit, err)
	}
	back := `RESET GLOBAL memory_limit`
	if m := duckopen.Current().DuckDBMemory; m > 0 {
		back = fmt.Sprintf(`SET GLOBAL memory_limit = '%dKiB'`, (m+1023)>>10)
	}
	return func() error {
		if _, err := d.db.ExecContext(context.WithoutCancel(ctx), back); err != nil {
			return fmt.Errorf("memory limit: %w", err)
		}
		return nil
	}, nil
}
