//go:build duckdb_arrow

package readback

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	stdbits "math/bits"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/study"
)

// haveArrow says that this binary has DuckDB's Arrow interface (build tag
// duckdb_arrow): Load then reads the large tables column by column through
// it instead of row by row through database/sql.
const haveArrow = true

// arrowQuery runs q through DuckDB's Arrow interface and calls fn for each
// record batch. A batch, and every string taken from it without a copy, is
// valid only during the call. Arrow reads a column's values from DuckDB's
// result without a Go string per cell, which the database/sql scan makes
// for every VARCHAR (even into sql.RawBytes).
func (d *DB) arrowQuery(ctx context.Context, q string, fn func(arrow.RecordBatch) error, args ...any) error {
	conn, err := d.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("query %.40q: %w", q, err)
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		a, err := duckdb.NewArrowFromConn(dc.(driver.Conn))
		if err != nil {
			return fmt.Errorf("query %.40q: %w", q, err)
		}
		rr, err := a.QueryContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("query %.40q: %w", q, err)
		}
		defer rr.Release()
		for rr.Next() {
			if err := fn(rr.RecordBatch()); err != nil {
				return err
			}
		}
		if err := rr.Err(); err != nil {
			return fmt.Errorf("query %.40q: %w", q, err)
		}
		return nil
	})
}

// column returns column i of rec as the Arrow array type T, or an error
// naming the column and its type.
func column[T arrow.Array](rec arrow.RecordBatch, i int) (T, error) {
	a, ok := rec.Column(i).(T)
	if !ok {
		var want T
		return want, fmt.Errorf("column %s is %s, not %T", rec.ColumnName(i), rec.Column(i).DataType(), want)
	}
	return a, nil
}

// ints is an integer column of either width DuckDB gives (INTEGER, BIGINT).
type ints struct {
	i32 *array.Int32
	i64 *array.Int64
}

func intColumn(rec arrow.RecordBatch, i int) (ints, error) {
	switch a := rec.Column(i).(type) {
	case *array.Int32:
		return ints{i32: a}, nil
	case *array.Int64:
		return ints{i64: a}, nil
	}
	return ints{}, fmt.Errorf("column %s is %s, not an integer", rec.ColumnName(i), rec.Column(i).DataType())
}

// at is the value of row j and whether it is not NULL (0, false when NULL:
// the value buffer under a NULL holds anything).
func (c ints) at(j int) (int64, bool) {
	if c.i32 != nil {
		if c.i32.IsNull(j) {
			return 0, false
		}
		return int64(c.i32.Value(j)), true
	}
	if c.i64.IsNull(j) {
		return 0, false
	}
	return c.i64.Value(j), true
}

// strAt is the value of row j of a VARCHAR column, without a copy ("" when
// NULL).
func strAt(a *array.String, j int) string {
	if a.IsNull(j) {
		return ""
	}
	return a.Value(j)
}

// f64At is the value of row j of a DOUBLE column, NaN when NULL.
func f64At(a *array.Float64, j int) float64 {
	if a.IsNull(j) {
		return math.NaN()
	}
	return a.Value(j)
}

// loadGradingsArrow is loadGradingsRows through DuckDB's Arrow interface,
// with the same result: the grading rows in one ordered scan (their
// strings interned straight from the Arrow column bytes), the rubric scores
// in one unordered scan placed by (grading, attribute) into the rubric slab
// (the pivot that loadGradingsRows asks of DuckDB, as max(score) of each
// attribute), the verdicts in one scan ordered by (grading, item).
func (d *DB) loadGradingsArrow(ctx context.Context, s *study.Study, cfg config.Config) error {
	if err := d.loadAttributes(ctx, s, cfg); err != nil {
		return err
	}
	aidx := make(map[string]int, len(s.Attributes))
	for i, a := range s.Attributes {
		aidx[a] = i
	}
	var n int
	var minID, maxID sql.NullInt64
	if err := d.db.QueryRowContext(ctx, `SELECT count(*), min(grading_id), max(grading_id) FROM gradings`).Scan(&n, &minID, &maxID); err != nil {
		return fmt.Errorf("count gradings: %w", err)
	}
	nA := len(s.Attributes)
	byID, err := d.readGradingsArrow(ctx, s, n, minID.Int64, maxID.Int64, false)
	if err != nil {
		return err
	}
	if byID == nil { // not one grading a key: DuckDB's order, as before
		if byID, err = d.readGradingsArrow(ctx, s, n, minID.Int64, maxID.Int64, true); err != nil {
			return err
		}
	}
	if nA > 0 {
		// one slab for all rubric scores, NaN = no score; each grading's
		// scores are a sub-slice (capacity capped, so that an append to
		// one never reaches the next)
		slab := make([]float64, len(s.Gradings)*nA)
		for i := range slab {
			slab[i] = math.NaN()
		}
		for i := range s.Gradings {
			s.Gradings[i].Rubric = slab[i*nA : (i+1)*nA : (i+1)*nA]
		}
		err := d.arrowQuery(ctx, `SELECT grading_id, attribute, score FROM rubric_scores WHERE score IS NOT NULL`, func(rec arrow.RecordBatch) error {
			id, err := column[*array.Int64](rec, 0)
			if err != nil {
				return fmt.Errorf("rubric_scores: %w", err)
			}
			attr, err := column[*array.String](rec, 1)
			if err != nil {
				return fmt.Errorf("rubric_scores: %w", err)
			}
			score, err := column[*array.Float64](rec, 2)
			if err != nil {
				return fmt.Errorf("rubric_scores: %w", err)
			}
			for j := range int(rec.NumRows()) {
				gi, ok := byID.get(id.Value(j))
				if !ok {
					continue // a score of no grading (the schema does not allow it)
				}
				ai, ok := aidx[attr.Value(j)]
				if !ok {
					continue // an attribute the study does not list
				}
				// max(score) over duplicate rows, as the pivot of loadGradingsRows
				if v, p := score.Value(j), &slab[gi*nA+ai]; math.IsNaN(*p) || v > *p {
					*p = v
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	vs, err := d.newVerdictSlab(ctx, s)
	if err != nil {
		return err
	}
	// The verdicts in the table's own order, which ingest writes by
	// (grading, item): the same rows as ORDER BY grading_id, item without
	// DuckDB's sort of every verdict (2.1 against 1.0 CPU-s for the 8.3
	// million of the 40,000-question sample). A table not in that strict
	// order (rows appended later, a duplicate item) is read again, sorted.
	ordered, err := d.loadVerdictsArrow(ctx, vs, byID, false)
	if err != nil {
		return err
	}
	if !ordered {
		for i := range s.Gradings {
			s.Gradings[i].Verdicts = nil
		}
		vs.slab, vs.cur, vs.start = vs.slab[:0], -1, 0
		if _, err := d.loadVerdictsArrow(ctx, vs, byID, true); err != nil {
			return err
		}
	}
	vs.flush()
	return d.loadGradingTags(ctx, s, byID)
}

// gradingKeyFields are the columns of the gradings' order (Study.Gradings:
// ORDER BY round, question_id, model, evaluator, run).
const gradingKeyFields = 5

// readGradingsArrow reads the rows of the gradings table into s.Gradings
// (n rows, ids from lo to hi) in Study.Gradings' order and returns the
// index of their ids. sorted = true asks DuckDB to sort them (ORDER BY
// round, question_id, model, evaluator, run); sorted = false reads the
// table in its own order and sorts the rows here, by one integer a row:
// the ranks of its five key values, each among the column's distinct
// values (byte order, as DuckDB's ORDER BY on VARCHAR), packed in 64 bits.
// DuckDB's sort carries every row's comment and label (3.3 against 1.4
// CPU-s for the 1.52 million gradings of the 40,000-question sample). When
// the ranks do not fit in 64 bits or two rows have the same key (which
// ingest does not write: their order would be DuckDB's), it returns a nil
// index and no error, and s.Gradings empty: the caller reads them sorted.
func (d *DB) readGradingsArrow(ctx context.Context, s *study.Study, n int, lo, hi int64, sorted bool) (*idIndex, error) {
	s.Gradings = make([]study.Grading, 0, n)
	byID := newIDIndex(n, lo, hi)
	in := interner{}
	comments := newCommentInterner()
	// the key values of each row, numbered per column in order of
	// appearance (sorted = false)
	var fieldIDs [gradingKeyFields]map[string]int32
	var fieldNames [gradingKeyFields][]string
	var rowKeys [][gradingKeyFields]int32
	var ids []int64
	if !sorted {
		for f := range fieldIDs {
			fieldIDs[f] = map[string]int32{}
		}
		rowKeys = make([][gradingKeyFields]int32, 0, n)
		ids = make([]int64, 0, n)
	}
	// field keeps one copy of v, the value of key column f, and numbers it
	field := func(f int, v string) (string, int32) {
		if i, ok := fieldIDs[f][v]; ok {
			return fieldNames[f][i], i
		}
		c := in.str(v)
		i := int32(len(fieldNames[f]))
		fieldIDs[f][c] = i
		fieldNames[f] = append(fieldNames[f], c)
		return c, i
	}
	q := `SELECT grading_id, evaluator, kind, round, run, question_id, model, rank, position, comment, label FROM gradings`
	if sorted {
		q += ` ORDER BY round, question_id, model, evaluator, run`
	}
	err := d.arrowQuery(ctx, q, func(rec arrow.RecordBatch) error {
		id, err := column[*array.Int64](rec, 0)
		if err != nil {
			return fmt.Errorf("gradings: %w", err)
		}
		var strs [6]*array.String // evaluator, kind, round, run, question_id, model
		for i := range strs {
			if strs[i], err = column[*array.String](rec, i+1); err != nil {
				return fmt.Errorf("gradings: %w", err)
			}
		}
		rank, err := intColumn(rec, 7)
		if err != nil {
			return fmt.Errorf("gradings: %w", err)
		}
		pos, err := intColumn(rec, 8)
		if err != nil {
			return fmt.Errorf("gradings: %w", err)
		}
		comment, err := column[*array.String](rec, 9)
		if err != nil {
			return fmt.Errorf("gradings: %w", err)
		}
		label, err := column[*array.String](rec, 10)
		if err != nil {
			return fmt.Errorf("gradings: %w", err)
		}
		for j := range int(rec.NumRows()) {
			// a study repeats these few values over millions of rows: keep one copy
			g := study.Grading{
				Kind:  in.str(strs[1].Value(j)),
				Label: in.str(strAt(label, j)), // the blinded label the grader saw ("" when none)
			}
			if sorted {
				g.Evaluator, g.Round, g.Run = in.str(strs[0].Value(j)), in.str(strs[2].Value(j)), in.str(strs[3].Value(j))
				g.QuestionID, g.Model = in.str(strs[4].Value(j)), in.str(strs[5].Value(j))
				byID.set(id.Value(j), len(s.Gradings))
			} else {
				var k [gradingKeyFields]int32 // round, question_id, model, evaluator, run
				g.Round, k[0] = field(0, strs[2].Value(j))
				g.QuestionID, k[1] = field(1, strs[4].Value(j))
				g.Model, k[2] = field(2, strs[5].Value(j))
				g.Evaluator, k[3] = field(3, strs[0].Value(j))
				g.Run, k[4] = field(4, strs[3].Value(j))
				rowKeys = append(rowKeys, k)
				ids = append(ids, id.Value(j))
			}
			r, _ := rank.at(j)
			p, _ := pos.at(j)
			g.Rank, g.Position = int(r), int(p)
			if comment.IsValid(j) {
				g.Comment = comments.str(comment.Value(j))
			}
			s.Gradings = append(s.Gradings, g)
		}
		return nil
	})
	if err != nil || sorted {
		return byID, err
	}
	perm, ok := sortGradingKeys(rowKeys, fieldNames)
	if !ok {
		s.Gradings = nil
		return nil, nil
	}
	permuteGradings(s.Gradings, perm)
	for j, i := range perm {
		byID.set(ids[i], j)
	}
	return byID, nil
}

// sortGradingKeys returns the order of rows (perm[j] is the row that
// comes j-th) by their keys, each column's value numbers ranked by the
// byte order of names. ok = false: the ranks do not fit in 64 bits, or
// two rows have the same key.
func sortGradingKeys(rows [][gradingKeyFields]int32, names [gradingKeyFields][]string) (perm []int32, ok bool) {
	var ranks [gradingKeyFields][]uint64
	var shift [gradingKeyFields]uint
	bits := uint(0)
	for f := gradingKeyFields - 1; f >= 0; f-- {
		order := make([]int32, len(names[f]))
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortFunc(order, func(a, b int32) int { return strings.Compare(names[f][a], names[f][b]) })
		ranks[f] = make([]uint64, len(order))
		for r, i := range order {
			ranks[f][i] = uint64(r)
		}
		shift[f] = bits
		bits += uint(stdbits.Len(uint(len(order))))
	}
	if bits > 64 || len(rows) > math.MaxInt32 {
		return nil, false
	}
	type row struct {
		key uint64
		i   int32
	}
	keyed := make([]row, len(rows))
	for i, k := range rows {
		var key uint64
		for f := range k {
			key |= ranks[f][k[f]] << shift[f]
		}
		keyed[i] = row{key, int32(i)}
	}
	slices.SortFunc(keyed, func(a, b row) int { return cmp.Compare(a.key, b.key) })
	perm = make([]int32, len(keyed))
	for j, r := range keyed {
		if j > 0 && r.key == keyed[j-1].key {
			return nil, false
		}
		perm[j] = r.i
	}
	return perm, true
}

// permuteGradings puts gs in the order perm (gs[j] becomes the old
// gs[perm[j]]), in place: one cycle of perm after another.
func permuteGradings(gs []study.Grading, perm []int32) {
	done := make([]bool, len(gs))
	for start := range gs {
		if done[start] {
			continue
		}
		tmp := gs[start]
		j := start
		for {
			done[j] = true
			next := int(perm[j])
			if next == start {
				gs[j] = tmp
				break
			}
			gs[j] = gs[next]
			j = next
		}
	}
}

// errUnordered stops loadVerdictsArrow's scan of a table not in (grading,
// item) order.
var errUnordered = errors.New("checklist_verdicts: not in (grading, item) order")

// loadVerdictsArrow adds the verdicts of checklist_verdicts to vs, by
// grading (byID) in item order. sorted = false reads the table in its own
// order and stops, returning ordered = false, at the first row that does
// not follow the one before in strict (grading_id, item) order; sorted =
// true asks DuckDB to sort (ORDER BY grading_id, item).
func (d *DB) loadVerdictsArrow(ctx context.Context, vs *verdictSlab, byID *idIndex, sorted bool) (ordered bool, err error) {
	q := `SELECT grading_id, item, verdict FROM checklist_verdicts`
	if sorted {
		q += ` ORDER BY grading_id, item`
	}
	first := true
	var lastID, lastItem int64
	err = d.arrowQuery(ctx, q, func(rec arrow.RecordBatch) error {
		id, err := column[*array.Int64](rec, 0)
		if err != nil {
			return fmt.Errorf("checklist_verdicts: %w", err)
		}
		item, err := intColumn(rec, 1)
		if err != nil {
			return fmt.Errorf("checklist_verdicts: %w", err)
		}
		v, err := column[*array.String](rec, 2)
		if err != nil {
			return fmt.Errorf("checklist_verdicts: %w", err)
		}
		for j := range int(rec.NumRows()) {
			gid := id.Value(j)
			if !sorted {
				it, _ := item.at(j)
				if !first && (gid < lastID || gid == lastID && it <= lastItem) {
					return errUnordered
				}
				first, lastID, lastItem = false, gid, it
			}
			if gi, ok := byID.get(gid); ok { // else a verdict of no grading (the schema does not allow it)
				vs.add(gi, verdictString(strAt(v, j)))
			}
		}
		return nil
	})
	if errors.Is(err, errUnordered) {
		return false, nil
	}
	return err == nil, err
}

// responseRowsArrow is responseRows through DuckDB's Arrow interface.
func (d *DB) responseRowsArrow(ctx context.Context) ([]ResponseRow, error) {
	var n int
	if err := d.db.QueryRowContext(ctx, `SELECT count(*) FROM responses`).Scan(&n); err != nil {
		return nil, fmt.Errorf("count responses: %w", err)
	}
	out := make([]ResponseRow, 0, n)
	in := interner{}
	err := d.arrowQuery(ctx, responseRowsQuery, func(rec arrow.RecordBatch) error {
		var strs [3]*array.String // question_id, model, source_file
		var err error
		for i := range strs {
			if strs[i], err = column[*array.String](rec, i); err != nil {
				return fmt.Errorf("responses: %w", err)
			}
		}
		// source_row, attempt, chars, words, input_tokens, output_tokens
		var nums [6]ints
		for k, i := range []int{3, 4, 6, 7, 8, 9} {
			if nums[k], err = intColumn(rec, i); err != nil {
				return fmt.Errorf("responses: %w", err)
			}
		}
		latest, err := column[*array.Boolean](rec, 5)
		if err != nil {
			return fmt.Errorf("responses: %w", err)
		}
		cost, err := column[*array.Float64](rec, 10)
		if err != nil {
			return fmt.Errorf("responses: %w", err)
		}
		for j := range int(rec.NumRows()) {
			x := ResponseRow{QuestionID: in.str(strs[0].Value(j)), Model: in.str(strs[1].Value(j)), SourceFile: in.str(strs[2].Value(j)),
				Latest: latest.IsValid(j) && latest.Value(j), CostUSD: f64At(cost, j), InputTokens: -1, OutputTokens: -1}
			x.SourceRow, _ = nums[0].at(j)
			x.Attempt, _ = nums[1].at(j)
			x.Chars, _ = nums[2].at(j)
			x.Words, _ = nums[3].at(j)
			if v, ok := nums[4].at(j); ok {
				x.InputTokens = v
			}
			if v, ok := nums[5].at(j); ok {
				x.OutputTokens = v
			}
			out = append(out, x)
		}
		return nil
	})
	return out, err
}
