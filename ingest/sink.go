package ingest

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/euroexec/euroexec/internal/crash"
	"github.com/euroexec/euroexec/internal/duckopen"
	"github.com/euroexec/euroexec/outsafe"
	"github.com/euroexec/euroexec/schema"
)

// batchRows is how many rows an Arrow record batch holds before it is
// handed to DuckDB. Each INSERT has a fixed cost (at 2^16 rows the 1.5 M
// gradings of a 40,000-question study took 8 s to insert, at 2^18 2 s).
//
// The builders grow row by row (doubling). Reserving each batch ahead from
// the last full one was tried: it saved the copies but not the CPU, as the
// new buffers are zeroed (and faulted in) at once — 6-35 % more CPU to
// build 2^20 gradings and 20,000 responses, on a busy 2-core machine — and
// it saved no memory, as fixed-width columns grow to 2^18 rows exactly
// and a text batch is cut before its text outgrows batchBytes. The
// buffers now come from the load's bufferPool: the next batches reuse
// those of the batches inserted, so that growing costs the copies only.
const batchRows = 1 << 18

// batchBytes caps the text held in one batch (long responses), so that
// memory stays bounded whatever the answers' length. At most
// 2 + queuedBatches batches of a table are alive: the one being built, the
// one DuckDB inserts and those waiting (at 16 MiB instead of 32 MiB, with
// an unbuffered hand-over, the load of a 10,000-question study peaked
// ~20 % lower for about the same CPU time).
const batchBytes = 16 << 20

// loaderConns is how many connections insert batches at once. Batches of
// one table are inserted one after another, in the order sent; with more
// than one connection, batches of different tables side by side (a grading
// file yields gradings, rubric scores and checklist verdicts at once). One
// INSERT of one Arrow batch runs on about one core. At 40,000 questions on
// a busy 2-core machine two connections took more CPU (53 against 50 s)
// and the reader still waited on them 12 s; one connection with
// queuedBatches was the faster (42 against 51 s wall, one run each).
var loaderConns = 1

// queuedBatches is how many batches may wait for a loader connection
// beyond those being inserted, so that the reader does not stop at the end
// of a step (which flushes every table) or of a burst; 0 is a hand-over.
// With the hand-over the reader and the loader took turns: at 40,000
// questions a trace of the load had the reader blocked in send 5.1 s and
// the loader idle 5.4 s of a 15 s load. Two batches queued once cost CPU
// without shortening the load (its wait moved to DuckDB's side), but that
// was while the loader's thread busy-waited on DuckDB's worker
// (loadThreads): with one DuckDB thread, `euroexec ingest` of the
// 40,000-question sample study took 12.1–12.9 s against 13.0–15.0 s with
// the hand-over in nine alternating pairs, for the same CPU (19.8–21.3
// against 19.3–22.4 s) and up to ~100 MB more memory (the queued batches;
// the load's peak stays far below read back's). BenchmarkLoaders measures
// the others.
var queuedBatches = 2

// inTransactions makes a single loader connection insert the batches of
// one step of the load (one readAll step: the questions, the responses,
// the gradings, ...) in one transaction, committed when the step ends
// (sink.endStep) while the reader goes on with the next step. Each INSERT
// in its own transaction (autocommit) wrote a batch smaller than a row
// group (122,880 rows: every batch of responses, cut at batchBytes of
// text) to the write-ahead log, synced it to disk and, the log being over
// DuckDB's checkpoint_threshold (16 MB) after nearly every such batch,
// checkpointed the table, compressing its open row group again; in one
// transaction a table's rows go to transaction-local storage and each
// full row group is compressed and written to the file once (DuckDB's
// optimistic writes). At 40,000 questions on the busy 2-core machine the
// 28 batches of responses took 4.4-4.8 s to insert against 10.7 s.
//
// A transaction writes to one database only, so the batches' views are
// created in the study database for the transaction (USE study): each is
// dropped by the same transaction and never reaches the file. With more
// than one loader connection the batches of a table could commit out of
// order, so they stay in autocommit.
var inTransactions = true

// keepDictionaries makes every batch of a dictionary column carry the
// values of all batches before it (as arrow-go's builders do by default);
// only the benchmarks that measure the difference set it.
var keepDictionaries = false

// memoryLimit is DuckDB's memory limit in bytes while loading (or the
// process's share, duckopen.Current, when lower); beyond it DuckDB spills
// to its temporary directory.
const memoryLimit = 200_000_000

// loadThreads is DuckDB's thread count while loading. An INSERT of one
// Arrow batch is one task at a time; with more threads DuckDB's own worker
// ran it while the connection's thread, the Go loader's, busy-waited for
// the result (duckdb_execute_pending polls the executor in a loop that takes
// and drops a mutex): at 40,000 questions on the 2-core machine perf found
// ~20 % of the load's CPU (~8 CPU-s) in that loop, on the core the reader
// needs. With one thread the connection's thread runs the insert itself.
// Measured (three alternating pairs, wall / CPU s of the load stage): 16.8 /
// 28.2, 20.7 / 34.5, 19.8 / 33.4 with DuckDB's default (2 threads) against
// 18.3 / 26.6, 16.1 / 24.0, 14.9 / 22.2. 0 leaves DuckDB's default (the
// number of cores, or duckopen's share); only the tests set it.
var loadThreads = 1

// sink bulk-loads Arrow record batches into a new DuckDB file. The file is
// ATTACHed to an in-memory database so that the views RegisterView creates
// never reach the file. A nil *sink discards everything (validate only).
type sink struct {
	ctx    context.Context
	db     *duckopen.DB
	conn   *sql.Conn // the schema, the statements after the load, CHECKPOINT; loaders[0]'s
	tmp    string    // the new database file
	final  string
	tables []*batcher
	alloc  *bufferPool // the batches' buffers
	// after are statements run on the study database once every batch is loaded.
	after []string
	// finish, when set, completes the new database file (its path) after
	// it is closed and before it takes the final name: the table
	// grading_scores.
	finish func(tmp string) error

	loaders []*loadConn // while batches load; started by the first send
	q       *loadQueue
	done    sync.WaitGroup // the loader goroutines
}

// loadConn is one connection of the loaders, with its Arrow interface.
type loadConn struct {
	conn  *sql.Conn
	arrow arrowLoader
	id    int // its index in sink.loaders
	nview int
	inTx  bool // a transaction of batches is open (see inTransactions)
}

// loadQueue holds the batches sent and not yet taken by a loader, in the
// order sent, and the tables being inserted (a table's next batch waits
// until its previous one is in).
type loadQueue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	pending []loadJob
	busy    map[string]bool
	closed  bool
	err     error // the loaders' first error
}

func openSink(ctx context.Context, final string) (*sink, error) {
	dir := filepath.Dir(final)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create database folder: %w", err)
	}
	// Named so that a later run can tell a killed run's leftover from a
	// live one (outsafe.CleanStaleFiles); DuckDB creates the file itself.
	tmp := outsafe.TempFileName(final)
	db, err := duckopen.Open("", duckopen.Options{MemoryLimit: memoryLimit, Threads: loadThreads})
	if err != nil {
		return nil, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open duckdb: %w", err)
	}
	s := &sink{ctx: ctx, db: db, conn: conn, tmp: tmp, final: final, alloc: &bufferPool{}}
	if _, err := conn.ExecContext(ctx, "SET preserve_insertion_order = true; ATTACH "+quoteLit(tmp)+" AS study"); err != nil {
		s.abort()
		return nil, fmt.Errorf("create database %s: %w", tmp, err)
	}
	if _, err := conn.ExecContext(ctx, "USE study; "+schema.Schema+"; USE memory"); err != nil {
		s.abort()
		return nil, fmt.Errorf("create schema: %w", err)
	}
	a, err := newArrow(conn)
	if err != nil {
		s.abort()
		return nil, fmt.Errorf("duckdb arrow interface: %w", err)
	}
	s.loaders = []*loadConn{{conn: conn, arrow: a}}
	return s, nil
}

func quoteLit(s string) string {
	out := []byte{'\''}
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			out = append(out, '\'')
		}
		out = append(out, s[i])
	}
	return string(append(out, '\''))
}

// abort removes the new file and leaves any existing database untouched.
func (s *sink) abort() {
	if s == nil {
		return
	}
	s.wait()
	for _, lc := range s.loaders[min(1, len(s.loaders)):] {
		lc.conn.Close()
	}
	if s.conn != nil {
		s.conn.Close()
	}
	s.db.Close()
	os.Remove(s.tmp)
	os.Remove(s.tmp + ".wal")
}

// commit flushes every table, completes the new file (finish: the table
// grading_scores) and renames it over the final path.
func (s *sink) commit() error {
	if s == nil {
		return nil
	}
	for _, t := range s.tables {
		if err := t.flush(); err != nil {
			s.wait()
			s.abort()
			return err
		}
	}
	if err := s.wait(); err != nil {
		s.abort()
		return err
	}
	s.alloc.release() // every batch is in
	for _, q := range s.after {
		if _, err := s.conn.ExecContext(s.ctx, "USE study; "+q+"; USE memory"); err != nil {
			s.abort()
			return fmt.Errorf("finish load: %w", err)
		}
	}
	if _, err := s.conn.ExecContext(s.ctx, "CHECKPOINT study; DETACH study"); err != nil {
		s.abort()
		return fmt.Errorf("close database: %w", err)
	}
	s.conn.Close()
	s.conn = nil
	if err := s.db.Close(); err != nil {
		os.Remove(s.tmp)
		return fmt.Errorf("close database: %w", err)
	}
	if s.finish != nil {
		if err := s.finish(s.tmp); err != nil {
			os.Remove(s.tmp)
			os.Remove(s.tmp + ".wal")
			return err
		}
	}
	// The file is complete on disk before it takes the final name, and the
	// new name is on disk after: a crash leaves the old database or the new.
	// The old database's .wal goes first, or DuckDB would replay it into
	// the new file.
	if err := outsafe.ReplaceDB(s.tmp, s.final); err != nil {
		os.Remove(s.tmp)
		os.Remove(s.tmp + ".wal")
		return fmt.Errorf("move database into place: %w", err)
	}
	return nil
}

// colKind is the Arrow type of a batcher column.
type colKind int

const (
	kStr colKind = iota
	// kDict is text with few distinct values (ids, names, verdict words),
	// sent as an Arrow dictionary column, which DuckDB reads far faster.
	kDict
	kInt
	kF64
	kBool
	kTime
)

type col struct {
	name string
	kind colKind
}

// batcher accumulates rows of one table into Arrow builders and loads them
// into DuckDB every batchRows rows. Rows are written one cell at a time with
// the typed setters, then end().
type batcher struct {
	s      *sink
	table  string
	schema *arrow.Schema
	b      *array.RecordBuilder
	dicts  []*dictCol // per column: its dictionary memo, nil unless kDict
	n      int
	rows   int64
	bytes  int // text bytes in the open batch
}

// dictCol is a dictionary column's own memo of the values of the open
// batch (value → index in the builder's dictionary). A value seen before
// costs one Go map look-up, or none when it repeats the previous row's,
// and no copy: arrow-go's AppendString copies the string into a fresh
// []byte and hashes it at every row. Indices wait in idx and enter the
// builder in runs (AppendIndices); a new value or a null drains them
// first, so the builder holds the same indices, dictionary (values in
// order of first appearance) and nulls as with AppendString.
type dictCol struct {
	b       *array.BinaryDictionaryBuilder
	memo    map[string]int
	last    string // the value appended last, when hasLast
	lastIdx int
	hasLast bool
	idx     []int // indices not yet in b
}

// dictRun is how many indices a dictionary column holds before they enter
// the builder.
const dictRun = 512

func (d *dictCol) append(v string) {
	if d.hasLast && v == d.last {
		d.push(d.lastIdx)
		return
	}
	j, ok := d.memo[v]
	if !ok {
		d.drain()
		d.b.AppendString(v)
		j = d.b.GetValueIndex(d.b.Len() - 1)
		v = strings.Clone(v) // the memo outlives the caller's row
		d.memo[v] = j
		d.last, d.lastIdx, d.hasLast = v, j, true
		return
	}
	d.last, d.lastIdx, d.hasLast = v, j, true
	d.push(j)
}

func (d *dictCol) push(j int) {
	d.idx = append(d.idx, j)
	if len(d.idx) == dictRun {
		d.drain()
	}
}

// drain moves the waiting indices into the builder.
func (d *dictCol) drain() {
	if len(d.idx) > 0 {
		d.b.AppendIndices(d.idx, nil)
		d.idx = d.idx[:0]
	}
}

func (d *dictCol) null() {
	d.drain()
	d.b.AppendNull()
}

// reset forgets the batch's values, as the builder's ResetFull does.
func (d *dictCol) reset() {
	clear(d.memo)
	d.last, d.hasLast = "", false
}

func (s *sink) table(name string, cols ...col) *batcher {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		var t arrow.DataType
		switch c.kind {
		case kStr:
			t = arrow.BinaryTypes.String
		case kDict:
			t = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
		case kInt:
			t = arrow.PrimitiveTypes.Int64
		case kF64:
			t = arrow.PrimitiveTypes.Float64
		case kBool:
			t = arrow.FixedWidthTypes.Boolean
		case kTime:
			t = arrow.FixedWidthTypes.Timestamp_us
		}
		fields[i] = arrow.Field{Name: c.name, Type: t, Nullable: true}
	}
	sch := arrow.NewSchema(fields, nil)
	var mem memory.Allocator = memory.DefaultAllocator
	if s != nil {
		mem = s.alloc
	}
	t := &batcher{s: s, table: name, schema: sch, b: array.NewRecordBuilder(mem, sch), dicts: make([]*dictCol, len(cols))}
	for i, f := range t.b.Fields() {
		if d, ok := f.(*array.BinaryDictionaryBuilder); ok {
			t.dicts[i] = &dictCol{b: d, memo: map[string]int{}, idx: make([]int, 0, dictRun)}
		}
	}
	if s != nil {
		s.tables = append(s.tables, t)
	}
	return t
}

func (t *batcher) str(i int, v string) {
	t.bytes += len(v)
	if d := t.dicts[i]; d != nil {
		d.append(v)
		return
	}
	// The builder copies the bytes into its buffer and keeps no reference:
	// v is handed over without StringBuilder.Append's copy into a new []byte.
	t.b.Field(i).(*array.StringBuilder).BinaryBuilder.Append(unsafe.Slice(unsafe.StringData(v), len(v)))
}
func (t *batcher) i64(i int, v int64) { t.b.Field(i).(*array.Int64Builder).Append(v) }
func (t *batcher) boolean(i int, v bool) {
	t.b.Field(i).(*array.BooleanBuilder).Append(v)
}
func (t *batcher) null(i int) {
	if d := t.dicts[i]; d != nil {
		d.null()
		return
	}
	t.b.Field(i).AppendNull()
}

// f64 appends v, or NULL when v is NaN.
func (t *batcher) f64(i int, v float64) {
	if math.IsNaN(v) {
		t.b.Field(i).AppendNull()
		return
	}
	t.b.Field(i).(*array.Float64Builder).Append(v)
}

// optStr appends v, or NULL when v is empty.
func (t *batcher) optStr(i int, v string) {
	if v == "" {
		t.null(i)
		return
	}
	t.str(i, v)
}

func (t *batcher) ts(i int, v time.Time) {
	t.b.Field(i).(*array.TimestampBuilder).Append(arrow.Timestamp(v.UnixMicro()))
}

// end closes a row and loads the batch when it is full.
func (t *batcher) end() error {
	t.n++
	t.rows++
	if t.n >= batchRows || t.bytes >= batchBytes {
		return t.flush()
	}
	return nil
}

func (t *batcher) flush() error {
	if t.n == 0 {
		return nil
	}
	rec := t.record()
	if t.s == nil {
		rec.Release()
		return nil
	}
	return t.s.send(loadJob{table: t.table, schema: t.schema, rec: rec})
}

// record takes the open batch's rows as a record batch and starts the next.
func (t *batcher) record() arrow.RecordBatch {
	for _, d := range t.dicts {
		if d != nil {
			d.drain()
		}
	}
	rec := t.b.NewRecordBatch()
	t.n, t.bytes = 0, 0
	if !keepDictionaries {
		// A dictionary builder keeps its memo of every value seen, and each
		// batch would carry all of them: at 200,000 questions every batch
		// of gate runs a dictionary of up to 200,000 question ids, which
		// DuckDB decodes batch after batch. Each batch gets the values it
		// holds.
		for _, d := range t.dicts {
			if d != nil {
				d.b.ResetFull()
				d.reset()
			}
		}
	}
	return rec
}

// loadJob is one record batch on its way into DuckDB, or (endStep) the
// mark that a step of the load is over: its loader commits.
type loadJob struct {
	table   string
	schema  *arrow.Schema
	rec     arrow.RecordBatch
	endStep bool
}

// send hands a batch to the loaders, which insert batches while the
// reader goes on parsing (see loaderConns and queuedBatches). It returns
// once at most queuedBatches batches wait. The first load error is
// returned by a later send or by wait.
func (s *sink) send(j loadJob) error {
	if s.q == nil {
		if err := s.startLoaders(); err != nil {
			j.release()
			return err
		}
	}
	q := s.q
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.err != nil {
		j.release()
		return q.err
	}
	q.pending = append(q.pending, j)
	q.cond.Broadcast()
	for len(q.pending) > queuedBatches && q.err == nil {
		q.cond.Wait()
	}
	return nil
}

// release frees the job's batch, if it has one.
func (j loadJob) release() {
	if j.rec != nil {
		j.rec.Release()
	}
}

// endStep tells the loader that a step of the load is over, once every
// table's batch of the step is sent: with inTransactions it commits the
// step's transaction while the reader goes on. Nothing is sent before the
// loaders have started (no batch yet) or when the batches are not loaded
// in transactions.
func (s *sink) endStep() error {
	if s == nil || s.q == nil || !s.transactions() {
		return nil
	}
	return s.send(loadJob{endStep: true})
}

// transactions reports whether the loader inserts in transactions (see
// inTransactions).
func (s *sink) transactions() bool { return inTransactions && loaderConns == 1 }

// startLoaders opens the loaders' further connections (DuckDB's ATTACHed
// study file and settings are the instance's, shared by every connection)
// and starts one goroutine per connection.
func (s *sink) startLoaders() error {
	for len(s.loaders) < loaderConns {
		c, err := s.db.Conn(s.ctx)
		if err != nil {
			return fmt.Errorf("open duckdb: %w", err)
		}
		a, err := newArrow(c)
		if err != nil {
			c.Close()
			return fmt.Errorf("duckdb arrow interface: %w", err)
		}
		s.loaders = append(s.loaders, &loadConn{conn: c, arrow: a, id: len(s.loaders)})
	}
	q := &loadQueue{busy: map[string]bool{}}
	q.cond = sync.NewCond(&q.mu)
	s.q = q
	for _, lc := range s.loaders {
		s.done.Add(1)
		go func() {
			defer s.done.Done()
			s.loader(lc, q)
		}()
	}
	return nil
}

// next takes the first pending batch whose table is not being inserted,
// waiting for one; false once the queue is closed and empty.
func (q *loadQueue) next() (loadJob, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		for i, j := range q.pending {
			if !q.busy[j.table] {
				q.pending = append(q.pending[:i], q.pending[i+1:]...)
				q.busy[j.table] = true
				q.cond.Broadcast() // a sender may go on
				return j, true
			}
		}
		if q.closed && len(q.pending) == 0 {
			return loadJob{}, false
		}
		q.cond.Wait()
	}
}

// finished marks j's table free again and keeps the first error.
func (q *loadQueue) finished(j loadJob, err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.busy[j.table] = false
	if err != nil && q.err == nil {
		q.err = err
	}
	q.cond.Broadcast()
}

// loader inserts the batches it takes on its connection; after an error
// (its own or another loader's) it releases them unloaded.
func (s *sink) loader(lc *loadConn, q *loadQueue) {
	for {
		j, ok := q.next()
		if !ok {
			if err := s.commitTx(lc); err != nil {
				q.finished(loadJob{}, err)
			}
			return
		}
		q.mu.Lock()
		failed := q.err != nil
		q.mu.Unlock()
		var err error
		func() {
			// a panic while loading is a bug: it becomes the load's error
			// (the command exits 70) and the loader goes on releasing the
			// batches, so that no other loader waits for this one
			defer crash.Recover(&err)
			switch {
			case failed:
			case j.endStep:
				err = s.commitTx(lc)
			default:
				err = s.insert(lc, j)
			}
		}()
		j.release()
		q.finished(j, err)
	}
}

// beginTx opens the transaction lc inserts the next batches in, when the
// load is in transactions and none is open.
func (s *sink) beginTx(lc *loadConn) error {
	if lc.inTx || !s.transactions() {
		return nil
	}
	if _, err := lc.conn.ExecContext(s.ctx, "USE study; BEGIN TRANSACTION"); err != nil {
		return fmt.Errorf("load: begin transaction: %w", err)
	}
	lc.inTx = true
	return nil
}

// commitTx commits lc's open transaction, if any.
func (s *sink) commitTx(lc *loadConn) error {
	if !lc.inTx {
		return nil
	}
	lc.inTx = false
	if _, err := lc.conn.ExecContext(s.ctx, "COMMIT; USE memory"); err != nil {
		return fmt.Errorf("load: commit: %w", err)
	}
	return nil
}

// wait stops the loaders once every batch sent is in, closes their further
// connections, and returns the first load error.
func (s *sink) wait() error {
	q := s.q
	if q == nil {
		return nil
	}
	q.mu.Lock()
	q.closed = true
	q.cond.Broadcast()
	q.mu.Unlock()
	s.done.Wait()
	s.q = nil
	for _, lc := range s.loaders[1:] {
		lc.conn.Close()
	}
	s.loaders = s.loaders[:1]
	return q.err
}

// insert loads one batch on connection lc.
func (s *sink) insert(lc *loadConn, j loadJob) error {
	rr, err := array.NewRecordReader(j.schema, []arrow.RecordBatch{j.rec})
	if err != nil {
		return fmt.Errorf("load %s: %w", j.table, err)
	}
	defer rr.Release()
	if err := s.beginTx(lc); err != nil {
		return err
	}
	lc.nview++
	// Views are the database's, seen by every connection: each loader
	// names its own.
	view := fmt.Sprintf("ingest_batch_%d_%d", lc.id, lc.nview)
	release, err := lc.arrow.RegisterView(rr, view)
	if err != nil {
		return fmt.Errorf("load %s: %w", j.table, err)
	}
	// The view can be scanned once; drop it before releasing it.
	_, err = lc.conn.ExecContext(s.ctx, fmt.Sprintf("INSERT INTO study.main.%q SELECT * FROM %s; DROP VIEW %s", j.table, view, view))
	if err != nil {
		// A statement interrupted (cancelled run) after the INSERT leaves
		// the view, and DuckDB reaches the view's stream again when the
		// connection closes: freed, that crashed the process. So the view
		// goes first, whatever the context; if it cannot, the stream is
		// left allocated rather than freed under DuckDB. In a transaction
		// the view goes with it: rolled back, the transaction leaves no
		// view.
		drop := "DROP VIEW IF EXISTS " + view
		if lc.inTx {
			lc.inTx = false
			drop = "ROLLBACK; USE memory"
		}
		if _, derr := lc.conn.ExecContext(context.WithoutCancel(s.ctx), drop); derr != nil {
			return fmt.Errorf("load %s: %w (drop its batch: %v)", j.table, err, derr)
		}
		release()
		return fmt.Errorf("load %s: %w", j.table, err)
	}
	release()
	return nil
}
