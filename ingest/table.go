package ingest

import (
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/ingest/internal/suggest"
	"github.com/euroexec/euroexec/ingest/tabular"
	"github.com/euroexec/euroexec/internal/crash"
)

// norm is the canonical form of a column name: trimmed and lower-case.
func norm(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// canonName is columnName without the cache, safe to call from the
// goroutine that parses a file (the header probe).
func (st *state) canonName(n string) string {
	for _, a := range st.aliases {
		if m, ok := a.Match(n); ok {
			return m
		}
	}
	return config.ColumnKey(n)
}

// columnName is the canonical name of a header name as written: the first
// [columns] alias that matches it, else its config.ColumnKey.
// Names are cached: JSONL judge files ask for every key of every line.
func (st *state) columnName(n string) string {
	if c, ok := st.colNames[n]; ok {
		return c
	}
	c := st.canonName(n)
	if len(st.colNames) < 100_000 {
		if st.colNames == nil {
			st.colNames = map[string]string{}
		}
		st.colNames[strings.Clone(n)] = c
	}
	return c
}

// header maps canonical column names to positions in a table's header.
type header struct {
	names  []string       // as written
	idx    map[string]int // canonical name → position (first occurrence)
	extras []int          // positions of columns the table does not define
	wide   *wideCols      // grading sheets: rubric and checklist columns, cached
	row    int            // the header's row number (1 when not known)
	evFrom string         // grading sheets: the file's evaluator_from setting
	hidden bool           // the sheet is hidden in Excel
}

// at is the location of the header row of sheet in file rel.
func (h *header) at(rel, sheet string) tabular.Loc {
	return tabular.Loc{File: rel, Sheet: sheet, Row: max(h.row, 1), Offset: -1, Format: formatOf(rel)}
}

// mapHeader resolves a header through the [columns] aliases and
// config.ColumnKey; a header that starts with a rubric attribute's name
// ("Domain expertise") is that attribute when no other column is. known lists the
// canonical names the table defines; isKnown may accept more (rubric
// attributes, C1…Cn). Duplicate canonical names are problems.
func (st *state) mapHeader(names []string, known func(string) bool, loc tabular.Loc) (*header, []Problem) {
	h := &header{idx: map[string]int{}}
	return h, st.extendHeader(h, names, known, loc)
}

// extendHeader appends columns to a header (a JSONL file's keys first seen
// on a later line), at a cost proportional to the new columns only.
func (st *state) extendHeader(h *header, names []string, known func(string) bool, loc tabular.Loc) []Problem {
	var probs []Problem
	cs := make([]string, len(names))
	taken := map[string]bool{}
	for i, n := range names {
		cs[i] = st.columnName(n)
		taken[cs[i]] = true
	}
	for i, c := range cs {
		// "Domain expertise" is the attribute Domain when no column is
		// named so and it is not a column of its own.
		first, _, ok := strings.Cut(c, "_")
		if _, attr := st.attrIndex[first]; ok && attr && !known(c) && known(first) && !taken[first] && !h.has(first) {
			cs[i] = first
			taken[first] = true
		}
	}
	for k, n := range names {
		i := len(h.names)
		h.names = append(h.names, n)
		if h.wide != nil {
			h.wide.names = append(h.wide.names, "")
		}
		c := cs[k]
		if c == "" {
			continue
		}
		if j, dup := h.idx[c]; dup {
			l := loc
			l.Column = n
			probs = append(probs, Problem{Loc: l, Value: n, Expected: fmt.Sprintf("a column name used once (it repeats column %q)", h.names[j])})
			continue
		}
		h.idx[c] = i
		if !known(c) {
			h.extras = append(h.extras, i)
		}
		if h.wide != nil {
			st.wideAdd(h.wide, c, i)
		}
	}
	return probs
}

func (h *header) has(name string) bool { _, ok := h.idx[name]; return ok }

// missing returns the required names the header lacks.
func (h *header) missing(required []string) []string {
	var out []string
	for _, r := range required {
		if !h.has(r) {
			out = append(out, r)
		}
	}
	return out
}

// closest names, for each missing column, a header written nearly like it
// that is not a column of the table (` (did you mean "Qestion ID" for
// question_id?)`), "" when none is.
func (h *header) closest(missing []string) string {
	keys := make([]string, 0, len(h.extras))
	byKey := map[string]string{}
	for _, i := range h.extras {
		if k := config.ColumnKey(h.names[i]); k != "" {
			keys = append(keys, k)
			byKey[k] = h.names[i]
		}
	}
	var hints []string
	for _, m := range missing {
		if c, ok := suggest.Closest(strings.ToLower(m), keys); ok {
			hints = append(hints, fmt.Sprintf("%q for %s", byKey[c], m))
		}
	}
	if len(hints) == 0 {
		return ""
	}
	return " (did you mean " + strings.Join(hints, ", ") + "?)"
}

func (h *header) written() string {
	var q []string
	for _, n := range h.names {
		if strings.TrimSpace(n) != "" {
			q = append(q, fmt.Sprintf("%q", n))
		}
	}
	if len(q) == 0 {
		return "none"
	}
	return strings.Join(q, ", ")
}

// row is one data row with its header.
type row struct {
	h     *header
	cells []tabular.Cell
	loc   tabular.Loc
}

// get returns the cell of a canonical column ("" when absent or beyond the row).
func (r row) get(name string) string {
	i, ok := r.h.idx[name]
	if !ok || i >= len(r.cells) {
		return ""
	}
	return r.cells[i].Text
}

// at returns the location of a canonical column's cell.
func (r row) at(name string) tabular.Loc {
	l := r.loc
	l.Offset = -1
	if i, ok := r.h.idx[name]; ok {
		l.Column = r.h.names[i]
	} else {
		l.Column = name
	}
	return l
}

// extras returns the unknown columns' names and values, in header order,
// leaving out empty values.
func (r row) extras() []kv {
	var out []kv
	for _, i := range r.h.extras {
		if i < len(r.cells) && r.cells[i].Text != "" {
			out = append(out, kv{r.h.names[i], r.cells[i].Text})
		}
	}
	return out
}

type kv struct{ k, v string }

// tableSpec says which columns a study table has.
type tableSpec struct {
	required []string
	optional []string
	// known accepts further canonical names (rubric attributes, C1…Cn, …).
	known func(string) bool
	// skipSheets: a worksheet without the required columns is skipped with
	// a warning instead of being a problem, unless looksLike says that it
	// is one of the table's sheets with a header written wrong.
	skipSheets bool
	// looksLike, when not nil, reports whether a header that lacks a
	// required column still has enough of the table's columns to be one
	// of its sheets.
	looksLike func(h *header) bool
}

func (sp tableSpec) isKnown(c string) bool {
	for _, n := range sp.required {
		if n == c {
			return true
		}
	}
	for _, n := range sp.optional {
		if n == c {
			return true
		}
	}
	return sp.known != nil && sp.known(c)
}

// readTable streams every row of one file (every selected sheet of a
// workbook) to fn. Problems are collected; rows are read on after a
// recoverable problem so that all of them are listed. It records the file
// in ingest_files. onSheet, when not nil, is called with each sheet's
// header before its rows and may veto the sheet by returning false.
//
// The file is parsed on its own goroutine (see scan), so parsing, checking
// and loading into DuckDB overlap.
func (st *state) readTable(rel string, spec tableSpec, onSheet func(h *header, sheet string) bool, fn func(r row)) {
	if st.ctxErr() != nil {
		return // cancelled: readAll returns the error after this step
	}
	var events chan scanEvent
	if p, ok := st.prefetched[rel]; ok {
		delete(st.prefetched, rel)
		events = p.wait()
		if p.err != nil {
			raiseCrash(p.err)
			st.fileProblem(rel, p.err)
			return
		}
	} else {
		r, err := tabular.Open(filepath.Join(st.dir, filepath.FromSlash(rel)), rel, st.tableOptions(rel, spec))
		if err != nil {
			st.fileProblem(rel, err)
			return
		}
		events = make(chan scanEvent, 4)
		go scan(r, events)
	}
	var rows int64
	sheets := 0
	var h *header
	var loc tabular.Loc
	skip, failed := true, false
	digest := ""
	var blankHdr []tabular.Loc // sheets whose header_row is blank
	for ev := range events {
		switch {
		case ev.sheet != nil:
			sh := ev.sheet
			loc = tabular.Loc{File: rel, Sheet: sh.Name, Offset: -1, Format: formatOf(rel)}
			skip = true
			if sh.Header != nil && len(sh.Header) == 0 {
				continue // refused (over [limits] columns): the reader's error comes next
			}
			if sh.Header == nil {
				switch {
				case sh.HeaderRow > 0:
					// header_row names a blank row: a problem, unless other
					// sheets of a grading workbook are read (a Notes sheet)
					l := loc
					l.Row = sh.HeaderRow
					blankHdr = append(blankHdr, l)
				case sh.Name != "":
					st.ps.warn("%s, sheet %q: skipped: the sheet is empty", rel, sh.Name)
				}
				continue
			}
			var probs []Problem
			h, probs = st.mapHeader(sh.Header, spec.isKnown, loc)
			h.row, h.hidden = max(sh.HeaderRow, 1), sh.Hidden
			if sh.Hidden {
				st.hidden[rel+"\x00"+sh.Name] = true
			}
			if miss := h.missing(spec.required); len(miss) > 0 {
				if spec.skipSheets && sh.Name != "" && (spec.looksLike == nil || !spec.looksLike(h)) {
					st.ps.warn("%s, sheet %q: skipped: no column %s (columns found: %s)", rel, sh.Name, strings.Join(miss, ", "), h.written())
					continue
				}
				st.ps.add(Problem{Loc: h.at(rel, sh.Name), Expected: fmt.Sprintf("a header with the column(s) %s; columns found: %s%s", strings.Join(miss, ", "), h.written(), h.closest(miss)),
					Fix: separatorFix(rel, sh.Header)})
				continue
			}
			for _, p := range probs {
				st.ps.add(p)
			}
			if len(sh.Skipped) > 0 {
				st.ps.warn("%s%s: the header is row %d; %s above it skipped", rel, sheetSuffix(sh.Name), sh.HeaderRow, rowList(sh.Skipped))
			}
			if onSheet != nil && !onSheet(h, sh.Name) {
				continue
			}
			skip = false
			sheets++
		case ev.err != nil:
			raiseCrash(ev.err)
			if skip && ev.recoverable {
				continue // a row of a sheet that is not read
			}
			st.fileProblem(rel, ev.err)
			if !ev.recoverable {
				failed = true
			}
		case ev.done:
			digest = ev.digest
			if ev.digestErr != nil && !failed {
				st.fileProblem(rel, ev.digestErr)
				failed = true
			}
		default:
			for _, sr := range ev.rows {
				if skip {
					continue
				}
				if sr.newCols != nil { // JSONL: new keys appeared
					st.extendHeader(h, sr.newCols, spec.isKnown, loc)
				}
				if blank(sr.cells) {
					continue
				}
				sr.loc.Format = loc.Format
				rows++
				fn(row{h: h, cells: sr.cells, loc: sr.loc})
			}
		}
	}
	if failed {
		return
	}
	for _, l := range blankHdr {
		if spec.skipSheets && sheets > 0 {
			st.ps.warn("%s, sheet %q: skipped: row %d, the header row by %s, is blank", rel, l.Sheet, l.Row, st.headerRowSetting(rel))
			continue
		}
		st.ps.add(Problem{Loc: l, Value: "header_row = " + strconv.Itoa(l.Row), Kind: "blank header rows",
			Expected: fmt.Sprintf("the column names in row %d, the header row by %s in study.toml; that row is blank or past the end", l.Row, st.headerRowSetting(rel)),
			Fix:      "set header_row to the row of the column names, or leave it out to let the header be found"})
	}
	if rows == 0 && sheets > 0 {
		st.ps.warn("%s: no data rows", rel)
	}
	st.fileRead(fileRec{path: rel, sha: digest, rows: rows})
}

// scanEvent is what the parsing goroutine reports: a new sheet, a run of
// rows, a reader error, or the end with the file's digest.
type scanEvent struct {
	sheet       *tabular.Sheet
	rows        []scanRow
	err         error
	recoverable bool
	done        bool
	digest      string
	digestErr   error
}

type scanRow struct {
	cells   []tabular.Cell
	loc     tabular.Loc
	newCols []string // columns added to the header before this row (JSONL)
}

// tableOptions are the reader options of the table file rel read as spec:
// the file's [sheets] options, its header row, and a header probe that
// looks for spec's required columns (it runs on the parsing goroutine).
func (st *state) tableOptions(rel string, spec tableSpec) tabular.Options {
	opt := st.optFor(rel)
	opt.HeaderRow = st.headerRow(rel)
	opt.HeaderProbe = func(cells []string) bool {
		have := map[string]bool{}
		for _, c := range cells {
			have[st.canonName(c)] = true
		}
		for _, r := range spec.required {
			if !have[r] {
				return false
			}
		}
		return true
	}
	return opt
}

// readAhead turns state.prefetch on; tests turn it off to compare.
var readAhead = true

// prefetch is a table file opened and being parsed ahead of its turn (see
// state.prefetch): the workbook is unzipped and its rows decoded on their
// own goroutine while the previous file's rows are checked and loaded.
type prefetch struct {
	ready  chan struct{} // closed once the file is open (or failed to)
	err    error         // tabular.Open's error, after ready
	events chan scanEvent
}

// wait returns the events of the file once it is open; err is set then.
func (p *prefetch) wait() chan scanEvent {
	<-p.ready
	return p.events
}

// prefetch starts opening and parsing the table file rel (read as spec)
// on its own goroutine, for readTable to take over when rel's turn comes;
// at most a few chunks of rows (the events channel's buffer) are read
// ahead. Only workbooks are read ahead: they are the costly files to
// parse (XML in a zip), and no other reader (platform exports, judge
// outputs) claims an .xlsx file under grades/. The problems and rows come
// out in the same order as without it, since readTable consumes them.
// Files never taken are closed by dropPrefetched.
func (st *state) prefetch(rel string, spec tableSpec) {
	if !readAhead || !strings.EqualFold(path.Ext(rel), ".xlsx") || st.ctxErr() != nil {
		return
	}
	if _, ok := st.prefetched[rel]; ok {
		return
	}
	if st.prefetched == nil {
		st.prefetched = map[string]*prefetch{}
	}
	p := &prefetch{ready: make(chan struct{}), events: make(chan scanEvent, 4)}
	st.prefetched[rel] = p
	opt := st.tableOptions(rel, spec)
	full := filepath.Join(st.dir, filepath.FromSlash(rel))
	go func() {
		var r tabular.Reader
		var err error
		func() {
			defer crash.Recover(&err) // a bug in the reader: raised by readTable
			r, err = tabular.Open(full, rel, opt)
		}()
		p.err = err
		close(p.ready)
		if err != nil {
			close(p.events)
			return
		}
		scan(r, p.events)
	}()
}

// dropPrefetched closes the files read ahead that were never taken (a
// cancelled run): their parsing goroutines finish and close the files.
func (st *state) dropPrefetched() {
	for rel, p := range st.prefetched {
		delete(st.prefetched, rel)
		go func() {
			for range p.wait() {
			}
		}()
	}
}

// raiseCrash panics again with err when it is a reader's recovered panic
// (a *crash.Error), so that the command reports a bug, not a problem of
// the user's file.
func raiseCrash(err error) {
	var ce *crash.Error
	if errors.As(err, &ce) {
		panic(ce)
	}
}

// scanChunk is how many rows travel in one event.
const scanChunk = 256

// scan reads every table of r and sends it as events, then closes r and
// the channel. After a final (not recoverable) error it stops without a
// digest.
func scan(r tabular.Reader, events chan<- scanEvent) {
	defer close(events)
	defer r.Close()
	defer func() {
		// a panic in the reader is a bug: it travels to readTable as an
		// event, which raises it on the ingest's goroutine (exit status 70)
		if v := recover(); v != nil {
			events <- scanEvent{err: crash.New(v)}
			events <- scanEvent{done: true}
		}
	}()
	for {
		sh := r.Sheet()
		var hdr []string // nil stays nil; empty (a header over the columns limit) stays empty
		if sh.Header != nil {
			hdr = append([]string{}, sh.Header...)
		}
		events <- scanEvent{sheet: &tabular.Sheet{Name: sh.Name, Header: hdr, HeaderRow: sh.HeaderRow, Skipped: sh.Skipped, Hidden: sh.Hidden}}
		width := len(sh.Header)
		var buf []scanRow
		for sh.Header != nil {
			cells, loc, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				if len(buf) > 0 {
					events <- scanEvent{rows: buf}
					buf = nil
				}
				var te *tabular.Error
				rec := errors.As(err, &te) && te.Recoverable
				events <- scanEvent{err: err, recoverable: rec}
				if !rec {
					events <- scanEvent{done: true}
					return
				}
				continue
			}
			sr := scanRow{cells: cells, loc: loc}
			if hh := r.Sheet().Header; len(hh) != width {
				sr.newCols = append([]string(nil), hh[width:]...)
				width = len(hh)
			}
			buf = append(buf, sr)
			if len(buf) == scanChunk {
				events <- scanEvent{rows: buf}
				buf = nil
			}
		}
		if len(buf) > 0 {
			events <- scanEvent{rows: buf}
		}
		if !r.NextSheet() {
			break
		}
	}
	d, err := r.Digest()
	events <- scanEvent{done: true, digest: d, digestErr: err}
}

func formatOf(rel string) string {
	switch strings.ToLower(filepath.Ext(rel)) {
	case ".csv":
		return tabular.FormatCSV
	case ".xlsx":
		return tabular.FormatXLSX
	case ".tsv":
		return tabular.FormatTSV
	case ".json":
		return tabular.FormatJSON
	}
	return tabular.FormatJSONL
}

func blank(cells []tabular.Cell) bool {
	for _, c := range cells {
		if strings.TrimSpace(c.Text) != "" {
			return false
		}
	}
	return true
}

// holdsTexts reports whether a file holds response or reference texts,
// which [limits] response_bytes bounds instead of line_bytes and
// cell_bytes.
func holdsTexts(rel string) bool {
	return strings.HasPrefix(rel, "responses/") || strings.HasPrefix(rel, "references.")
}

// respSlack is what a line of a responses file may hold besides the text.
const respSlack = 1 << 20

// optFor returns the reader options for one file: in responses/ a line may
// hold one response (response_bytes) plus respSlack; a references file's
// lines and cells may hold a reference text as long as a response.
func (st *state) optFor(rel string) tabular.Options {
	o := st.tabOpt
	if holdsTexts(rel) {
		rb := st.cfg.Limits.ResponseBytes
		if strings.HasPrefix(rel, "responses/") {
			o.Limits.LineBytes = rb + respSlack
		} else {
			o.Limits.LineBytes = max(o.Limits.LineBytes, rb+respSlack)
		}
		o.Limits.CellBytes = max(o.Limits.CellBytes, rb)
	}
	return o
}

// limitSetting names the study.toml setting behind a reader limit for a
// file.
func limitSetting(rel, limit string) string {
	if holdsTexts(rel) && (limit == tabular.LimitLine || limit == tabular.LimitCell) {
		return "response_bytes"
	}
	return limit
}

// fileProblem turns a reader error into a Problem.
func (st *state) fileProblem(rel string, err error) {
	var te *tabular.Error
	if errors.As(err, &te) {
		exp := te.Msg
		if te.Expected != "" {
			exp += "; expected " + te.Expected
		}
		if te.Limit != "" {
			set := limitSetting(rel, te.Limit)
			if set == "response_bytes" {
				exp += fmt.Sprintf(" (a line may hold a response of up to %d bytes and %d bytes of other fields; [limits] response_bytes in study.toml raises the limit)", st.cfg.Limits.ResponseBytes, respSlack)
			} else {
				exp += fmt.Sprintf(" ([limits] %s in study.toml raises the limit)", set)
			}
		}
		st.ps.add(Problem{Loc: te.Loc, Value: te.Value, Expected: exp})
		return
	}
	st.ps.add(Problem{Loc: tabular.Loc{File: rel, Offset: -1}, Expected: err.Error()})
}

// findTable returns the study-relative path of table name with one of the
// extensions, "" when there is none; two files for one table are a problem.
func (st *state) findTable(name string, exts ...string) string {
	var found []string
	for _, e := range exts {
		rel := name + "." + e
		if st.inv.has(rel) {
			found = append(found, rel)
			st.inv.taken[rel] = true
		}
	}
	if len(found) > 1 {
		st.ps.add(Problem{Loc: tabular.Loc{File: found[1], Offset: -1}, Expected: fmt.Sprintf("one file for the %s table (%s is there too)", name, found[0])})
	}
	if len(found) == 0 {
		return ""
	}
	return found[0]
}

// listFiles returns the study-relative paths of the data files under dir
// (recursively), sorted, with the given extensions.
func (st *state) listFiles(dir string, exts ...string) []string {
	return st.inv.under(dir, exts...)
}

// headerRow is the header row of file rel (0: found): its [sheets.files]
// header_row, else [sheets] header_row for a grading file (under grades/
// or criterion_grades/, whatever its format).
func (st *state) headerRow(rel string) int {
	if f, ok := st.cfg.Sheets.Files[rel]; ok && f.HeaderRow > 0 {
		return f.HeaderRow
	}
	if strings.HasPrefix(rel, "grades/") || strings.HasPrefix(rel, "criterion_grades/") {
		return st.cfg.Sheets.HeaderRow
	}
	return 0
}

// headerRowSetting names the setting behind the header row of file rel.
func (st *state) headerRowSetting(rel string) string {
	if f, ok := st.cfg.Sheets.Files[rel]; ok && f.HeaderRow > 0 {
		return fmt.Sprintf("[sheets.files] %q header_row", rel)
	}
	return "[sheets] header_row"
}

// separatorFix says how to fix a CSV or TSV file whose header is one cell
// holding the columns joined by another separator ("" when it is not).
func separatorFix(rel string, hdr []string) string {
	if len(hdr) != 1 {
		return ""
	}
	f := formatOf(rel)
	switch {
	case f == tabular.FormatCSV && strings.Contains(hdr[0], ";"):
		return "the file is separated by semicolons (as Excel saves CSV in some languages); save it as \"CSV UTF-8 (comma delimited)\" or as an .xlsx workbook"
	case f == tabular.FormatCSV && strings.Contains(hdr[0], "\t"):
		return "the file is separated by tabs; rename it to .tsv"
	case f == tabular.FormatTSV && strings.Contains(hdr[0], ","):
		return "the file is separated by commas; rename it to .csv"
	}
	return ""
}

// rowList names rows for a note: "row 1", "rows 1, 2 and 4".
func rowList(rows []int) string {
	q := make([]string, len(rows))
	for i, r := range rows {
		q[i] = strconv.Itoa(r)
	}
	if len(q) == 1 {
		return "row " + q[0]
	}
	return "rows " + strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}
