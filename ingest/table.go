package ingest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/ingest/tabular"
)

// norm is the canonical form of a column name: trimmed and lower-case.
func norm(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// header maps canonical column names to positions in a table's header.
type header struct {
	names  []string       // as written
	idx    map[string]int // canonical name → position (first occurrence)
	extras []int          // positions of columns the table does not define
	wide   *wideCols      // grading sheets: rubric and checklist columns, cached
}

// mapHeader resolves a header through the [columns] aliases. known lists the
// canonical names the table defines; isKnown may accept more (rubric
// attributes, C1…Cn). Duplicate canonical names are problems.
func (st *state) mapHeader(names []string, known func(string) bool, loc tabular.Loc) (*header, []Problem) {
	h := &header{names: names, idx: map[string]int{}}
	var probs []Problem
	for i, n := range names {
		c := norm(n)
		if a, ok := st.aliases[c]; ok {
			c = a
		}
		if c == "" {
			continue
		}
		if j, dup := h.idx[c]; dup {
			l := loc
			l.Column = n
			probs = append(probs, Problem{Loc: l, Value: n, Expected: fmt.Sprintf("a column name used once (it repeats column %q)", names[j])})
			continue
		}
		h.idx[c] = i
		if !known(c) {
			h.extras = append(h.extras, i)
		}
	}
	return h, probs
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
	// a warning instead of being a problem.
	skipSheets bool
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
func (st *state) readTable(rel string, spec tableSpec, onSheet func(h *header, sheet string) bool, fn func(r row)) {
	path := filepath.Join(st.dir, filepath.FromSlash(rel))
	r, err := tabular.Open(path, rel, st.tabOpt)
	if err != nil {
		st.fileProblem(rel, err)
		return
	}
	defer r.Close()
	var rows int64
	sheets := 0
	for {
		sh := r.Sheet()
		loc := tabular.Loc{File: rel, Sheet: sh.Name, Offset: -1, Format: formatOf(rel)}
		if sh.Header == nil {
			if !r.NextSheet() {
				break
			}
			continue
		}
		h, probs := st.mapHeader(sh.Header, spec.isKnown, loc)
		if miss := h.missing(spec.required); len(miss) > 0 {
			if spec.skipSheets && sh.Name != "" {
				st.ps.warn("%s, sheet %q: skipped: no column %s (columns found: %s)", rel, sh.Name, strings.Join(miss, ", "), h.written())
				if !r.NextSheet() {
					break
				}
				continue
			}
			l := loc
			l.Row = 1
			st.ps.add(Problem{Loc: l, Expected: fmt.Sprintf("a header with the column(s) %s; columns found: %s", strings.Join(miss, ", "), h.written())})
			if !r.NextSheet() {
				break
			}
			continue
		}
		for _, p := range probs {
			st.ps.add(p)
		}
		if onSheet != nil && !onSheet(h, sh.Name) {
			if !r.NextSheet() {
				break
			}
			continue
		}
		sheets++
		for {
			cells, l, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				st.fileProblem(rel, err)
				var te *tabular.Error
				if errors.As(err, &te) && te.Recoverable {
					continue
				}
				return
			}
			if len(r.Sheet().Header) != len(h.names) { // JSONL: a new key appeared
				h, _ = st.mapHeader(r.Sheet().Header, spec.isKnown, loc)
			}
			if blank(cells) {
				continue
			}
			l.Format = loc.Format
			rows++
			fn(row{h: h, cells: cells, loc: l})
		}
		if !r.NextSheet() {
			break
		}
	}
	sum, err := r.Digest()
	if err != nil {
		st.fileProblem(rel, err)
		return
	}
	if rows == 0 && sheets > 0 {
		st.ps.warn("%s: no data rows", rel)
	}
	st.files = append(st.files, fileRec{path: rel, sha: sum, rows: rows})
}

func formatOf(rel string) string {
	switch strings.ToLower(filepath.Ext(rel)) {
	case ".csv":
		return tabular.FormatCSV
	case ".xlsx":
		return tabular.FormatXLSX
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

// fileProblem turns a reader error into a Problem.
func (st *state) fileProblem(rel string, err error) {
	var te *tabular.Error
	if errors.As(err, &te) {
		exp := te.Msg
		if te.Expected != "" {
			exp += "; expected " + te.Expected
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
		if _, err := os.Stat(filepath.Join(st.dir, rel)); err == nil {
			found = append(found, rel)
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
	root := filepath.Join(st.dir, filepath.FromSlash(dir))
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		name := d.Name()
		if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "~$") {
			return nil // hidden files and Excel lock files
		}
		ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(name)), ".")
		for _, e := range exts {
			if ext == e {
				rel, _ := filepath.Rel(st.dir, p)
				out = append(out, filepath.ToSlash(rel))
				break
			}
		}
		return nil
	})
	sort.Strings(out)
	return out
}
