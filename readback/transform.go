// Package readback opens a study database, applies the schema/ views and reads
// the study into the plain Go values of package study — the per-grading
// scores included: the view grading_scores is read once, in one ordered
// scan, into Study.Scores, from which package scores serves every analysis.
// It holds the small typed query helpers; every statement binds user values
// as parameters.
//
// The large tables (gradings, rubric_scores, checklist_verdicts, the view
// grading_scores, the response listing) are read through DuckDB's Arrow
// interface when the binary is built with the tag duckdb_arrow (as the
// Makefile builds it): whole columns per batch, strings interned straight
// from the column bytes, instead of a Go string per cell from database/sql.
// Without the tag they are read row by row, with the same result.
package readback

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/internal/duckopen"
	"github.com/euroexec/euroexec/study"
)

// DB is an open study database.
type DB struct {
	db *duckopen.DB
	// step, when set (by a test), is called after each step of Load with
	// the step's name: the memory trace of read back measures there.
	step func(name string)
}

// stepDone calls d.step, if set, with name.
func (d *DB) stepDone(name string) {
	if d.step != nil {
		d.step(name)
	}
}

// Open opens the study database at path, read-only, through duckopen
// (DuckDB's memory limit and threads from what the process may use; see
// duckopen.Compute). It is for a database the tool has just written (run's
// read back); OpenUntrusted for any other. Lower memory limits than
// duckopen's, measured at 10,000 and 40,000 questions, saved no memory and
// failed the ordered scans with "Out of Memory" at 500 MB.
func Open(path string) (*DB, error) {
	db, err := duckopen.Open(path, duckopen.Options{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return &DB{db: db}, nil
}

// OpenUntrusted opens a study database from elsewhere (a report folder's
// study.duckdb, a --db file) as data: see duckopen.OpenUntrusted.
func OpenUntrusted(ctx context.Context, path string) (*DB, error) {
	db, err := duckopen.OpenUntrusted(ctx, path)
	if err != nil {
		return nil, err
	}
	return &DB{db: db}, nil
}

// Wrap returns the study database db, already open through duckopen
// (duckopen.OpenParquet's views over a Parquet store); Close closes it.
func Wrap(db *duckopen.DB) *DB { return &DB{db: db} }

// Close closes the database.
func (d *DB) Close() error { return d.db.Close() }

// SQL returns the underlying handle for ad-hoc queries.
func (d *DB) SQL() *sql.DB { return d.db.DB }

// query runs q and calls fn for each row.
func (d *DB) query(ctx context.Context, q string, fn func(*sql.Rows) error, args ...any) error {
	rows, err := d.db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("query %.40q: %w", q, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func str(n sql.NullString) string { return n.String }

func f64(n sql.NullFloat64) float64 {
	if !n.Valid {
		return math.NaN()
	}
	return n.Float64
}

// Load reads the whole study, every response text included (see
// LoadWithoutTexts). Difficulty comes from questions.difficulty, else the
// gate score (questions.gate_score, else passed/cells of gate_runs) binned
// by cfg.Difficulty; a mismatch between the given difficulty and the gate's
// bin is returned as a warning.
func (d *DB) Load(ctx context.Context, cfg config.Config) (*study.Study, []string, error) {
	return d.load(ctx, cfg, true)
}

// load is Load; texts says whether the response texts, the prompts and
// the checklist item texts are read.
func (d *DB) load(ctx context.Context, cfg config.Config, texts bool) (*study.Study, []string, error) {
	return d.loadAll(ctx, cfg, texts)
}

// settings is a study with cfg's settings and no data yet.
func settings(cfg config.Config) *study.Study {
	return &study.Study{
		Title: cfg.Title, HumanLabel: cfg.HumanLabel, MainRound: cfg.MainRound,
		ScaleMin: cfg.Rubric.Min, ScaleMax: cfg.Rubric.Max, ScaleStep: cfg.Rubric.StepOrOne(),
		LowerIsBetter: cfg.Rubric.Lower(), ScaleAveraged: cfg.Rubric.Averaged,
	}
}

// loadAll reads the questions, models, responses,
// gradings and the rest, one step after another.
func (d *DB) loadAll(ctx context.Context, cfg config.Config, texts bool) (*study.Study, []string, error) {
	s := settings(cfg)
	var warnings []string
	if err := d.loadQuestions(ctx, s, texts); err != nil {
		return nil, nil, err
	}
	d.stepDone("questions")
	// Gate scores: passed / cells per question.
	gate := map[string][2]int64{}
	err := d.query(ctx, `SELECT question_id, count(*) FILTER (WHERE passed), count(*) FROM gate_runs GROUP BY question_id`, func(r *sql.Rows) error {
		var q string
		var p, n int64
		if err := r.Scan(&q, &p, &n); err != nil {
			return err
		}
		gate[q] = [2]int64{p, n}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	for i := range s.Questions {
		q := &s.Questions[i]
		if g, ok := gate[q.ID]; ok && g[1] > 0 {
			fromRuns := float64(g[0]) / float64(g[1])
			if !math.IsNaN(q.GateScore) && math.Abs(q.GateScore-fromRuns) > 1e-9 {
				warnings = append(warnings, fmt.Sprintf("question %s: gate_score %v differs from the gate runs' %d/%d", q.ID, q.GateScore, g[0], g[1]))
			}
			if math.IsNaN(q.GateScore) {
				q.GateScore = fromRuns
			}
		}
		if !math.IsNaN(q.GateScore) {
			bin := Bin(q.GateScore, cfg.Difficulty.Bins)
			if q.Difficulty == "" {
				q.Difficulty = bin
			} else if q.Difficulty != bin {
				warnings = append(warnings, fmt.Sprintf("question %s: difficulty %q differs from its gate score's bin %q", q.ID, q.Difficulty, bin))
			}
		}
	}
	if err := d.loadModels(ctx, s); err != nil {
		return nil, nil, err
	}
	d.stepDone("models")
	if err := d.loadResponses(ctx, s, texts); err != nil {
		return nil, nil, err
	}
	d.stepDone("responses")
	if err := d.loadGradings(ctx, s, cfg); err != nil {
		return nil, nil, err
	}
	d.stepDone("gradings")
	if err := d.loadRest(ctx, s); err != nil {
		return nil, nil, err
	}
	d.stepDone("rest")
	if err := d.loadComparisons(ctx, s); err != nil {
		return nil, nil, err
	}
	d.stepDone("comparisons")
	return s, warnings, nil
}

// AboveGate is the bin of gate scores above the last bin's bound.
const AboveGate = "Above gate"

// Bin returns the name of the first bin whose (inclusive) upper bound holds
// score, or AboveGate.
func Bin(score float64, bins []config.Bin) string {
	for _, b := range bins {
		if score <= b.Max {
			return b.Name
		}
	}
	return AboveGate
}

func (d *DB) loadModels(ctx context.Context, s *study.Study) error {
	seen := map[string]bool{}
	err := d.query(ctx, `SELECT model, provider, display_name, usd_per_1k_input, usd_per_1k_output FROM models`, func(r *sql.Rows) error {
		var m study.Model
		var p, dn sql.NullString
		var in, out sql.NullFloat64
		if err := r.Scan(&m.Name, &p, &dn, &in, &out); err != nil {
			return err
		}
		m.Provider, m.DisplayName, m.USDPer1kInput, m.USDPer1kOutput = str(p), str(dn), f64(in), f64(out)
		seen[m.Name] = true
		s.Models = append(s.Models, m)
		return nil
	})
	if err != nil {
		return err
	}
	// Models that appear only in responses or gradings.
	err = d.query(ctx, `SELECT DISTINCT model FROM (SELECT model FROM responses UNION ALL SELECT model FROM gradings)`, func(r *sql.Rows) error {
		var m string
		if err := r.Scan(&m); err != nil {
			return err
		}
		if !seen[m] {
			seen[m] = true
			s.Models = append(s.Models, study.Model{Name: m, USDPer1kInput: math.NaN(), USDPer1kOutput: math.NaN()})
		}
		return nil
	})
	sort.Slice(s.Models, func(i, j int) bool { return s.Models[i].Name < s.Models[j].Name })
	return err
}

// responseBatch is the number of rows of the responses table read per
// query by loadResponses (a variable so that tests can make it small).
var responseBatch int64 = 16384

// loadResponses reads the latest attempt of every response. The texts are
// most of a study's bytes and the driver materialises a query's whole
// result in DuckDB's memory before the first row, so the table is read in
// batches of rowids (each a bounded result) and sorted here by (question,
// model) — byte order, as DuckDB's ORDER BY on VARCHAR — instead of one
// ordered query over all texts. Without texts every Response.Text is ""
// (Chars and Words are read all the same).
func (d *DB) loadResponses(ctx context.Context, s *study.Study, texts bool) error {
	var maxRow int64
	if err := d.db.QueryRowContext(ctx, `SELECT coalesce(max(rowid), -1) FROM responses`).Scan(&maxRow); err != nil {
		return fmt.Errorf("count responses: %w", err)
	}
	in := interner{}
	var qid, model sql.RawBytes
	var cost sql.NullFloat64
	var inTok, outTok sql.NullInt64
	textCol := "text"
	if !texts {
		textCol = "''" // the column is not read at all
	}
	for lo := int64(0); lo <= maxRow; lo += responseBatch {
		err := d.query(ctx, `SELECT question_id, model, `+textCol+`, chars, words, cost_usd, input_tokens, output_tokens
			FROM responses WHERE latest AND rowid >= ? AND rowid < ?`, func(r *sql.Rows) error {
			var x study.Response
			if err := r.Scan(&qid, &model, &x.Text, &x.Chars, &x.Words, &cost, &inTok, &outTok); err != nil {
				return err
			}
			x.QuestionID, x.Model = in.bytes(qid), in.bytes(model)
			x.CostUSD = f64(cost)
			x.InputTokens, x.OutputTokens = -1, -1
			if inTok.Valid {
				x.InputTokens = inTok.Int64
			}
			if outTok.Valid {
				x.OutputTokens = outTok.Int64
			}
			s.Responses = append(s.Responses, x)
			return nil
		}, lo, lo+responseBatch)
		if err != nil {
			return err
		}
	}
	slices.SortStableFunc(s.Responses, func(a, b study.Response) int {
		if c := strings.Compare(a.QuestionID, b.QuestionID); c != 0 {
			return c
		}
		return strings.Compare(a.Model, b.Model)
	})
	return nil
}

// loadGradings reads the gradings (Study.Attributes, Gradings with their
// rubric scores, verdicts and tags): through DuckDB's Arrow interface when
// the binary has it (loadGradingsArrow), else row by row.
func (d *DB) loadGradings(ctx context.Context, s *study.Study, cfg config.Config) error {
	if haveArrow {
		return d.loadGradingsArrow(ctx, s, cfg)
	}
	return d.loadGradingsRows(ctx, s, cfg)
}

// loadAttributes sets Study.Attributes: the rubric attributes of cfg that
// the data has, in study order.
func (d *DB) loadAttributes(ctx context.Context, s *study.Study, cfg config.Config) error {
	have := map[string]bool{}
	err := d.query(ctx, `SELECT DISTINCT attribute FROM rubric_scores`, func(r *sql.Rows) error {
		var a string
		if err := r.Scan(&a); err != nil {
			return err
		}
		have[a] = true
		return nil
	})
	if err != nil {
		return err
	}
	for _, a := range cfg.Rubric.Attributes {
		if have[a] {
			s.Attributes = append(s.Attributes, a)
		}
	}
	return nil
}

// loadGradingsRows reads the gradings row by row through database/sql.
func (d *DB) loadGradingsRows(ctx context.Context, s *study.Study, cfg config.Config) error {
	if err := d.loadAttributes(ctx, s, cfg); err != nil {
		return err
	}
	// One row per grading with its attribute scores pivoted into columns, so
	// a large study is not read one score at a time; then the verdicts in one
	// scan ordered by (grading, item) (an ordered string_agg per grading was
	// six times slower). Attribute names are bound as parameters.
	var cols []string
	var args []any
	for i, a := range s.Attributes {
		cols = append(cols, fmt.Sprintf("max(score) FILTER (WHERE attribute = ?) AS s%d", i))
		args = append(args, a)
	}
	rubric := "SELECT NULL::BIGINT AS grading_id WHERE false"
	if len(cols) > 0 {
		rubric = "SELECT grading_id, " + strings.Join(cols, ", ") + " FROM rubric_scores GROUP BY grading_id"
	}
	var scoreCols []string
	for i := range s.Attributes {
		scoreCols = append(scoreCols, fmt.Sprintf("r.s%d", i))
	}
	sel := ""
	if len(scoreCols) > 0 {
		sel = ", " + strings.Join(scoreCols, ", ")
	}
	q := `SELECT g.grading_id, g.evaluator, g.kind, g.round, g.run, g.question_id, g.model, g.rank, g.position, g.comment, g.label` + sel + `
		FROM gradings g
		LEFT JOIN (` + rubric + `) r USING (grading_id)
		ORDER BY g.round, g.question_id, g.model, g.evaluator, g.run`
	var n int
	var minID, maxID sql.NullInt64
	if err := d.db.QueryRowContext(ctx, `SELECT count(*), min(grading_id), max(grading_id) FROM gradings`).Scan(&n, &minID, &maxID); err != nil {
		return fmt.Errorf("count gradings: %w", err)
	}
	s.Gradings = make([]study.Grading, 0, n)
	byID := newIDIndex(n, minID.Int64, maxID.Int64)
	nA := len(s.Attributes)
	scores := make([]sql.NullFloat64, nA)
	in := interner{}
	comments := newCommentInterner()
	// One scan target list and two slabs for all rows: the rubric scores
	// and verdicts of the gradings are sub-slices of a few large arrays
	// (capacity capped, so that an append to one never reaches the next)
	// instead of two allocations per grading.
	var (
		g                      study.Grading
		id                     int64
		rank, pos              sql.NullInt64
		comment                sql.RawBytes
		evaluator, kind, round sql.RawBytes
		run, questionID, model sql.RawBytes
		label                  sql.RawBytes
		rubricSlab             = make([]float64, 0, n*nA)
	)
	dest := []any{&id, &evaluator, &kind, &round, &run, &questionID, &model, &rank, &pos, &comment, &label}
	for i := range scores {
		dest = append(dest, &scores[i])
	}
	err := d.query(ctx, q, func(r *sql.Rows) error {
		if err := r.Scan(dest...); err != nil {
			return err
		}
		g = study.Grading{}
		// a study repeats these few values over millions of rows: keep one copy
		g.Evaluator, g.Kind, g.Round, g.Run = in.bytes(evaluator), in.bytes(kind), in.bytes(round), in.bytes(run)
		g.QuestionID, g.Model = in.bytes(questionID), in.bytes(model)
		g.Rank = int(rank.Int64)
		g.Position = int(pos.Int64)
		g.Comment = comments.bytes(comment)
		g.Label = in.bytes(label) // the blinded label the grader saw ("" when none)
		if nA > 0 {
			k := len(rubricSlab)
			for i := range scores {
				rubricSlab = append(rubricSlab, f64(scores[i]))
			}
			g.Rubric = rubricSlab[k:len(rubricSlab):len(rubricSlab)]
		}
		byID.set(id, len(s.Gradings))
		s.Gradings = append(s.Gradings, g)
		return nil
	}, args...)
	if err != nil {
		return err
	}
	vs, err := d.newVerdictSlab(ctx, s)
	if err != nil {
		return err
	}
	var item int64
	var v sql.RawBytes
	err = d.query(ctx, `SELECT grading_id, item, verdict FROM checklist_verdicts ORDER BY grading_id, item`, func(r *sql.Rows) error {
		if err := r.Scan(&id, &item, &v); err != nil {
			return err
		}
		if gi, ok := byID.get(id); ok { // else a verdict of no grading (the schema does not allow it)
			vs.add(gi, verdictBytes(v))
		}
		return nil
	})
	if err != nil {
		return err
	}
	vs.flush()
	return d.loadGradingTags(ctx, s, byID)
}

// verdictSlab holds every verdict of a study in one array: the verdicts of
// a grading arrive together, in item order, and become a sub-slice of the
// slab (capacity capped) when the next grading's begin.
type verdictSlab struct {
	s          *study.Study
	slab       []study.Verdict
	cur, start int
}

// newVerdictSlab sizes the slab by the count of checklist_verdicts.
func (d *DB) newVerdictSlab(ctx context.Context, s *study.Study) (*verdictSlab, error) {
	var n int
	if err := d.db.QueryRowContext(ctx, `SELECT count(*) FROM checklist_verdicts`).Scan(&n); err != nil {
		return nil, fmt.Errorf("count verdicts: %w", err)
	}
	return &verdictSlab{s: s, slab: make([]study.Verdict, 0, n), cur: -1}, nil
}

// add appends v, a verdict of grading gi (an index of s.Gradings).
func (v *verdictSlab) add(gi int, x study.Verdict) {
	if gi != v.cur {
		v.flush()
		v.cur, v.start = gi, len(v.slab)
	}
	v.slab = append(v.slab, x)
}

// flush gives the current grading its verdicts.
func (v *verdictSlab) flush() {
	if v.cur >= 0 {
		v.s.Gradings[v.cur].Verdicts = v.slab[v.start:len(v.slab):len(v.slab)]
	}
}

// loadGradingTags reads the gradings' tags into Study.GradingTags, sorted
// by grading index (the gradings are not in id order), each key and value
// kept once.
func (d *DB) loadGradingTags(ctx context.Context, s *study.Study, byID *idIndex) error {
	in := interner{}
	var key, value sql.RawBytes
	err := d.query(ctx, `SELECT grading_id, key, value FROM grading_tags ORDER BY grading_id`, func(r *sql.Rows) error {
		var id int64
		if err := r.Scan(&id, &key, &value); err != nil {
			return err
		}
		gi, ok := byID.get(id)
		if !ok {
			return nil
		}
		s.GradingTags = append(s.GradingTags, study.GradingTag{Grading: gi, Tag: study.Tag{Key: in.bytes(key), Value: in.bytes(value)}})
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortStableFunc(s.GradingTags, func(a, b study.GradingTag) int { return cmp.Compare(a.Grading, b.Grading) })
	return nil
}

// interner keeps one copy of each distinct string.
type interner map[string]string

// bytes returns the kept copy of string(b), allocating only for a value
// not seen before (the map lookup with string(b) does not allocate).
func (in interner) bytes(b []byte) string {
	if c, ok := in[string(b)]; ok {
		return c
	}
	s := string(b)
	in[s] = s
	return s
}

// str returns the kept copy of s, copying s (which may point into a
// buffer that is reused) only for a value not seen before.
func (in interner) str(s string) string {
	if c, ok := in[s]; ok {
		return c
	}
	c := clone(s)
	in[c] = c
	return c
}

// commentInterner keeps one copy of each of the first maxComments distinct
// grading comments and copies the others: generated judge comments repeat a
// few sentences over a million gradings ("Covers 3 of 4 checklist
// items."), which it stores once, while a study of free-text comments, each
// different, stops growing the map after maxComments.
type commentInterner struct{ in interner }

const maxComments = 1 << 16

func newCommentInterner() commentInterner { return commentInterner{interner{}} }

// bytes is interner.bytes, or a copy once the map is full.
func (c commentInterner) bytes(b []byte) string {
	if v, ok := c.in[string(b)]; ok || len(c.in) >= maxComments {
		if ok {
			return v
		}
		return string(b)
	}
	return c.in.bytes(b)
}

// str is interner.str, or a copy once the map is full.
func (c commentInterner) str(s string) string {
	if v, ok := c.in[s]; ok || len(c.in) >= maxComments {
		if ok {
			return v
		}
		return clone(s)
	}
	return c.in.str(s)
}

// clone is a copy of s that shares no memory with it.
func clone(s string) string { return strings.Clone(s) }

// idIndex maps grading ids to indices of Study.Gradings: a slice over the
// id range when the ids are dense (ingest numbers them 1, 2, …), else a map.
type idIndex struct {
	lo    int64
	dense []int32 // index + 1; 0 = no grading
	m     map[int64]int
}

func newIDIndex(n int, lo, hi int64) *idIndex {
	if span := hi - lo + 1; n > 0 && span > 0 && span <= 4*int64(n)+1024 {
		return &idIndex{lo: lo, dense: make([]int32, span)}
	}
	return &idIndex{m: make(map[int64]int, n)}
}

func (x *idIndex) set(id int64, i int) {
	if x.m != nil {
		x.m[id] = i
		return
	}
	x.dense[id-x.lo] = int32(i + 1)
}

func (x *idIndex) get(id int64) (int, bool) {
	if x.m != nil {
		i, ok := x.m[id]
		return i, ok
	}
	if k := id - x.lo; k >= 0 && k < int64(len(x.dense)) && x.dense[k] > 0 {
		return int(x.dense[k]) - 1, true
	}
	return 0, false
}

// verdictBytes is the verdict of a raw column value (NULL: VerdictNone).
func verdictBytes(b []byte) study.Verdict { return verdictString(string(b)) }

// verdictString is the verdict of a column value ("" or unknown: VerdictNone).
func verdictString(v string) study.Verdict {
	switch v {
	case "hit":
		return study.Hit
	case "partial":
		return study.Partial
	case "miss":
		return study.Miss
	case "na":
		return study.NA
	}
	return study.VerdictNone
}

func (d *DB) loadRest(ctx context.Context, s *study.Study) error {
	err := d.query(ctx, `SELECT evaluator, kind, domain, provider FROM evaluators ORDER BY evaluator`, func(r *sql.Rows) error {
		var e study.Evaluator
		var dom, prov sql.NullString
		if err := r.Scan(&e.ID, &e.Kind, &dom, &prov); err != nil {
			return err
		}
		e.Domain = str(dom)
		e.Provider = str(prov)
		s.Evaluators = append(s.Evaluators, e)
		return nil
	})
	if err != nil {
		return err
	}
	err = d.query(ctx, `SELECT question_id, reference_id, author, text, graded FROM "references" ORDER BY question_id, reference_id`, func(r *sql.Rows) error {
		var x study.Reference
		var a sql.NullString
		if err := r.Scan(&x.QuestionID, &x.ID, &a, &x.Text, &x.Graded); err != nil {
			return err
		}
		x.Author = str(a)
		s.References = append(s.References, x)
		return nil
	})
	if err != nil {
		return err
	}
	if err := d.loadGate(ctx, s); err != nil {
		return err
	}
	err = d.query(ctx, `SELECT question_id, criterion_id, text, weight, category FROM criteria ORDER BY question_id, criterion_id`, func(r *sql.Rows) error {
		var x study.Criterion
		var c sql.NullString
		if err := r.Scan(&x.QuestionID, &x.ID, &x.Text, &x.Weight, &c); err != nil {
			return err
		}
		x.Category = str(c)
		s.Criteria = append(s.Criteria, x)
		return nil
	})
	if err != nil {
		return err
	}
	in := interner{}
	return d.query(ctx, `SELECT evaluator, kind, question_id, model, criterion_id, met FROM criterion_grades
		ORDER BY question_id, model, evaluator, criterion_id`, func(r *sql.Rows) error {
		var x study.CriterionGrade
		var ev, kind, q, model, crit sql.RawBytes
		if err := r.Scan(&ev, &kind, &q, &model, &crit, &x.Met); err != nil {
			return err
		}
		x.Evaluator, x.Kind, x.QuestionID, x.Model, x.CriterionID = in.bytes(ev), in.bytes(kind), in.bytes(q), in.bytes(model), in.bytes(crit)
		s.CriterionGrades = append(s.CriterionGrades, x)
		return nil
	})
}

// loadGate reads the difficulty gate tallied per (question, item) in SQL
// (exact integer counts) into Study.GateItems: one row per question and
// item instead of one per run and item, each question id shared with
// Study.Questions when the question is there.
func (d *DB) loadGate(ctx context.Context, s *study.Study) error {
	in := make(interner, len(s.Questions))
	for _, q := range s.Questions {
		in[q.ID] = q.ID
	}
	var qid sql.RawBytes
	var item, runs, passed int64
	err := d.query(ctx, `SELECT question_id, item, count(*), count(*) FILTER (WHERE passed)
		FROM gate_runs GROUP BY question_id, item ORDER BY question_id, item`, func(r *sql.Rows) error {
		if err := r.Scan(&qid, &item, &runs, &passed); err != nil {
			return err
		}
		if runs > math.MaxInt32 || item > math.MaxInt32 || item < math.MinInt32 {
			return fmt.Errorf("question %q item %d has %d runs: more than a gate tally holds (2,147,483,647)", qid, item, runs)
		}
		s.GateItems = append(s.GateItems, study.GateItem{QuestionID: in.bytes(qid), Item: int32(item), Runs: int32(runs), Passed: int32(passed)})
		return nil
	})
	if err != nil {
		return fmt.Errorf("gate_runs: %w", err)
	}
	// Study.Gate's order is byte order whatever DuckDB's collation
	if !slices.IsSortedFunc(s.GateItems, cmpGateItem) {
		slices.SortFunc(s.GateItems, cmpGateItem)
	}
	return nil
}

func cmpGateItem(a, b study.GateItem) int {
	if c := strings.Compare(a.QuestionID, b.QuestionID); c != 0 {
		return c
	}
	return cmp.Compare(a.Item, b.Item)
}

// loadComparisons reads the pairwise judgments, sorted as Study.Comparisons
// documents. A database written before the table existed has none.
func (d *DB) loadComparisons(ctx context.Context, s *study.Study) error {
	var n int64
	if err := d.db.QueryRowContext(ctx, `SELECT count(*) FROM information_schema.tables
		WHERE table_catalog = current_database() AND table_schema = 'main' AND table_name = 'pairwise_judgments'`).Scan(&n); err != nil {
		return fmt.Errorf("query pairwise_judgments: %w", err)
	}
	if n == 0 {
		return nil
	}
	err := d.query(ctx, `SELECT evaluator, kind, round, run, question_id, model_a, model_b, winner, comment, position_unknown FROM pairwise_judgments
		ORDER BY round, question_id, evaluator, run, model_a, model_b`, func(r *sql.Rows) error {
		var c study.Comparison
		var w string
		var comment sql.NullString
		if err := r.Scan(&c.Evaluator, &c.Kind, &c.Round, &c.Run, &c.QuestionID, &c.ModelA, &c.ModelB, &w, &comment, &c.PositionUnknown); err != nil {
			return err
		}
		switch w {
		case "a":
			c.Winner = study.PreferA
		case "b":
			c.Winner = study.PreferB
		case "tie":
			c.Winner = study.Tie
		default:
			return fmt.Errorf("pairwise_judgments: winner %q; expected a, b or tie", w)
		}
		c.Comment = comment.String
		s.Comparisons = append(s.Comparisons, c)
		return nil
	})
	if err != nil || len(s.Comparisons) == 0 {
		return err
	}
	return d.loadStyle(ctx, s)
}

// ResponseRow is one response as loaded (every source file and attempt).
type ResponseRow struct {
	QuestionID, Model string
	SourceFile        string // relative to the study folder
	SourceRow         int64  // line of the dump
	Attempt           int64  // 0 when the dump has none
	Latest            bool   // the highest attempt, the one analysed
	Chars, Words      int64
	InputTokens       int64   // -1 when unknown
	OutputTokens      int64   // -1 when unknown
	CostUSD           float64 // NaN when unknown
}

// FailedRequest is one batch request that produced no answer.
type FailedRequest struct {
	QuestionID, Model string // "" when the request id does not say
	SourceFile        string
	SourceRow         int64
	RequestID         string
	Error             string // the provider's error text (or code)
}

// Listings are the responses and failed batch requests as loaded.
type Listings struct {
	// Responses are sorted by (question, model, attempt, source file, row).
	Responses []ResponseRow
	// Failed are sorted by (model, question, source file, row).
	Failed []FailedRequest
}

// Listings returns every response (all sources and attempts) and every
// failed batch request; the command line turns them into
// tables/responses.csv and tables/failed_requests.csv.
//
// The question ids, models and source files repeat over the rows: each is
// kept once. The responses are read through DuckDB's Arrow interface when
// the binary has it, else row by row.
func (d *DB) Listings(ctx context.Context) (Listings, error) {
	var l Listings
	var err error
	if haveArrow {
		l.Responses, err = d.responseRowsArrow(ctx)
	} else {
		l.Responses, err = d.responseRows(ctx)
	}
	if err != nil {
		return Listings{}, err
	}
	err = d.query(ctx, `SELECT coalesce(question_id, ''), coalesce(model, ''), source_file, source_row, request_id, error
		FROM failed_requests ORDER BY model, question_id, source_file, source_row`, func(r *sql.Rows) error {
		var x FailedRequest
		if err := r.Scan(&x.QuestionID, &x.Model, &x.SourceFile, &x.SourceRow, &x.RequestID, &x.Error); err != nil {
			return err
		}
		l.Failed = append(l.Failed, x)
		return nil
	})
	if err != nil {
		return Listings{}, err
	}
	return l, nil
}

// responseRowsQuery reads every response without its text, in the order
// of Listings.Responses.
const responseRowsQuery = `SELECT question_id, model, source_file, source_row, attempt, latest, chars, words, input_tokens, output_tokens, cost_usd
		FROM responses ORDER BY question_id, model, attempt, source_file, source_row`

// responseRows reads Listings.Responses row by row through database/sql.
func (d *DB) responseRows(ctx context.Context) ([]ResponseRow, error) {
	var out []ResponseRow
	in := interner{}
	var qid, model, file sql.RawBytes
	err := d.query(ctx, responseRowsQuery, func(r *sql.Rows) error {
		var x ResponseRow
		var inTok, outTok sql.NullInt64
		var cost sql.NullFloat64
		if err := r.Scan(&qid, &model, &file, &x.SourceRow, &x.Attempt, &x.Latest, &x.Chars, &x.Words, &inTok, &outTok, &cost); err != nil {
			return err
		}
		x.QuestionID, x.Model, x.SourceFile = in.bytes(qid), in.bytes(model), in.bytes(file)
		x.InputTokens, x.OutputTokens, x.CostUSD = nullInt(inTok), nullInt(outTok), f64(cost)
		out = append(out, x)
		return nil
	})
	return out, err
}

// nullInt is n, or -1 when NULL.
func nullInt(n sql.NullInt64) int64 {
	if !n.Valid {
		return -1
	}
	return n.Int64
}
