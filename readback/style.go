package readback

import (
	"context"
	"database/sql"
	"slices"
	"strings"

	"github.com/euroexec/euroexec/study"
)

// styleSQL counts, per latest response, the markdown elements Chatbot
// Arena's style control counts (FastChat's count_markdown_elements), after
// removing fenced code blocks: ATX headers (a line starting with 1–6 #
// and a space), list items (a line starting with -, *, + or a number with
// . or ), then a space) and bold spans (**…** or __…__ within a line). The
// texts stay in DuckDB; only the counts are read.
const styleSQL = `WITH t AS (
  SELECT question_id, model, regexp_replace(text, '` + "```" + `[\s\S]*?` + "```" + `', '', 'g') AS x
  FROM responses WHERE latest AND chars > 0)
SELECT question_id, model,
  len(regexp_extract_all(x, '(?m)^[ \t]{0,3}#{1,6}[ \t]')),
  len(regexp_extract_all(x, '(?m)^[ \t]*(?:[-*+]|[0-9]+[.)])[ \t]')),
  len(regexp_extract_all(x, '\*\*[^*\n]+\*\*|__[^_\n]+__'))
FROM t`

// loadStyle sets the markdown counts (Headers, ListItems, Bold) of
// s.Responses, which must be sorted by question and model; called only for
// studies with pairwise judgments, whose style control needs them.
func (d *DB) loadStyle(ctx context.Context, s *study.Study) error {
	return d.query(ctx, styleSQL, func(r *sql.Rows) error {
		var q, m string
		var h, l, b int32
		if err := r.Scan(&q, &m, &h, &l, &b); err != nil {
			return err
		}
		i, ok := slices.BinarySearchFunc(s.Responses, [2]string{q, m}, func(x study.Response, k [2]string) int {
			if c := strings.Compare(x.QuestionID, k[0]); c != 0 {
				return c
			}
			return strings.Compare(x.Model, k[1])
		})
		if ok {
			s.Responses[i].Headers, s.Responses[i].ListItems, s.Responses[i].Bold = h, l, b
			s.Responses[i].HasStyle = true
		}
		return nil
	})
}
