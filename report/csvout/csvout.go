// Package csvout writes the tables of a report.Report as CSV files, the raw
// form of the results for scripts: tables/<Name>.csv for every table and
// tables/notes.csv for the notes.
//
// Values are written raw, never rounded: a float64 as the shortest text that
// parses back to the same value (strconv.FormatFloat(x, 'g', -1, 64)), an
// integer in plain decimal, a bool as true or false, a string as it is
// (quoted by encoding/csv where needed). nil and NaN are empty cells; +Inf
// and -Inf are written as +Inf and -Inf. Fraction columns stay fractions in
// [0,1]. The header row is the column names. The same Report always gives the
// same bytes: the run time and anything else not in a table is left out.
//
// Text a spreadsheet could run as a formula (starting with '=', '+', '-',
// '@', a tab or a carriage return; cellsafe.Formula) is written with an
// apostrophe before it, and so is text starting with an apostrophe, so that
// a script gets the text back exactly by removing one leading apostrophe
// from a text cell that has one. Only string values are prefixed: numbers
// (e.g. -0.5) are written as they are.
package csvout

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/euroexec/euroexec/internal/cellsafe"
	"github.com/euroexec/euroexec/report"
)

// NotesName is the file stem of the notes file, tables/notes.csv. No table
// may have this name.
const NotesName = "notes"

// Options control Write.
type Options struct {
	// Subdir is the folder under the output folder that receives the CSV
	// files. Default "tables"; "" or "." writes into the output folder itself.
	Subdir string
}

// DefaultOptions are the options `euroexec run` uses: files in OUT/tables.
var DefaultOptions = Options{Subdir: "tables"}

// Write writes every table of r to dir/<Subdir>/<Name>.csv and the notes to
// dir/<Subdir>/notes.csv (columns table, reason; a header row even when there
// are no notes). The folder is created if needed. A table name that is not a
// plain file stem (letters, digits, '_', '-', '.', not starting with '.'),
// a name used twice or named "notes", a row whose length differs from the
// columns, or a value of an unsupported type is an error naming the table, row
// and column; nothing is written then. A cancelled ctx stops it between
// tables and returns ctx's error.
func Write(ctx context.Context, dir string, r *report.Report, opt Options) error {
	if r == nil {
		return fmt.Errorf("csvout: nil report")
	}
	out := filepath.Join(dir, opt.Subdir)
	// Render everything first, so a bad table leaves no partial output.
	files := make(map[string][]byte, len(r.Tables)+1)
	order := make([]string, 0, len(r.Tables)+1)
	for i, t := range r.Tables {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("csvout: %w", err)
		}
		if t == nil {
			return fmt.Errorf("csvout: table %d is nil", i)
		}
		if err := checkName(t.Name); err != nil {
			return fmt.Errorf("csvout: table %d: %w", i, err)
		}
		if t.Name == NotesName {
			return fmt.Errorf("csvout: table %d: name %q is reserved for notes.csv", i, t.Name)
		}
		if _, dup := files[t.Name]; dup {
			return fmt.Errorf("csvout: table %d: name %q used twice", i, t.Name)
		}
		var buf bytes.Buffer
		if err := WriteTable(&buf, t); err != nil {
			return fmt.Errorf("csvout: %w", err)
		}
		files[t.Name] = buf.Bytes()
		order = append(order, t.Name)
	}
	var buf bytes.Buffer
	if err := WriteNotes(&buf, r.Notes); err != nil {
		return fmt.Errorf("csvout: %w", err)
	}
	files[NotesName] = buf.Bytes()
	order = append(order, NotesName)

	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("csvout: create %s: %w", out, err)
	}
	for _, name := range order {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("csvout: %w", err)
		}
		p := filepath.Join(out, name+".csv")
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return fmt.Errorf("csvout: write %s: %w", p, err)
		}
	}
	return nil
}

// WriteTable writes one table as CSV to w: the header row of column names,
// then one line per row, text that a spreadsheet could run as a formula
// prefixed with an apostrophe (cellsafe.CSV; see the package doc).
func WriteTable(w io.Writer, t *report.Table) error {
	cw := csv.NewWriter(w)
	header := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		header[i] = c.Name
	}
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("table %s: %w", t.Name, err)
	}
	rec := make([]string, len(t.Columns))
	for i, row := range t.Rows {
		if len(row) != len(t.Columns) {
			return fmt.Errorf("table %s: row %d has %d values, want %d (one per column)", t.Name, i+1, len(row), len(t.Columns))
		}
		for j, v := range row {
			s, err := FormatValue(v)
			if err != nil {
				return fmt.Errorf("table %s: row %d, column %s: %w", t.Name, i+1, t.Columns[j].Name, err)
			}
			if _, text := v.(string); text {
				s = cellsafe.CSV(s)
			}
			rec[j] = s
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("table %s: row %d: %w", t.Name, i+1, err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("table %s: %w", t.Name, err)
	}
	return nil
}

// WriteNotes writes notes.csv: header "table,reason", then one line per note.
func WriteNotes(w io.Writer, notes []report.Note) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"table", "reason"}); err != nil {
		return fmt.Errorf("notes: %w", err)
	}
	for _, n := range notes {
		if err := cw.Write([]string{cellsafe.CSV(n.Table), cellsafe.CSV(n.Reason)}); err != nil {
			return fmt.Errorf("notes: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("notes: %w", err)
	}
	return nil
}

// FormatValue gives the CSV text of one table value: "" for nil and NaN, the
// shortest round-trip form for floats ('g', -1), plain decimal for integers,
// true/false for bools and the string itself for strings. Any other type is
// an error.
func FormatValue(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	case float64:
		if math.IsNaN(x) {
			return "", nil
		}
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case float32:
		if math.IsNaN(float64(x)) {
			return "", nil
		}
		return strconv.FormatFloat(float64(x), 'g', -1, 32), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case int:
		return strconv.Itoa(x), nil
	case int32:
		return strconv.FormatInt(int64(x), 10), nil
	case uint64:
		return strconv.FormatUint(x, 10), nil
	case bool:
		return strconv.FormatBool(x), nil
	default:
		return "", fmt.Errorf("unsupported value type %T (want nil, string, int64, float64 or bool)", v)
	}
}

// checkName accepts a plain file stem.
func checkName(name string) error {
	if name == "" {
		return fmt.Errorf("empty table name")
	}
	if name[0] == '.' {
		return fmt.Errorf("table name %q starts with '.'", name)
	}
	for _, c := range name {
		ok := c == '_' || c == '-' || c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
		if !ok {
			return fmt.Errorf("table name %q: character %q is not allowed in a file name (letters, digits, '_', '-', '.')", name, c)
		}
	}
	return nil
}

// kindName is the column kind as the docs show it.
func kindName(k report.ColumnKind) string {
	switch k {
	case report.Text:
		return "text"
	case report.Int:
		return "integer"
	case report.Float:
		return "number"
	case report.Fraction:
		return "fraction in [0,1]"
	case report.Link:
		return "relative address (text)"
	default:
		return fmt.Sprintf("kind %d", int(k))
	}
}

// WriteDocs writes a Markdown reference of the given tables to w: for each
// table its file, title, section and description, then a table of its
// columns (name, type, meaning). The lead generates docs/OUTPUTS.md with it.
// It also documents tables/notes.csv. The output depends only on the tables'
// descriptions, never on their rows.
func WriteDocs(w io.Writer, tables []*report.Table) error {
	var b strings.Builder
	b.WriteString("# Output tables\n\n")
	b.WriteString("Every table is written to `tables/<name>.csv` with a header row of the column names below. ")
	b.WriteString("Proportions are fractions in [0,1]; floats are written in full (the shortest text that parses back to the same value); ")
	b.WriteString("an empty cell is an undefined value, explained in `tables/notes.csv`.\n\n")
	b.WriteString("Text cells come from names and texts of the study (models, graders, questions, answers), which a spreadsheet ")
	b.WriteString("opening the CSV could run as a formula (CSV injection). A text cell that starts with `=`, `+`, `-`, `@`, a tab or a ")
	b.WriteString("carriage return is written with an apostrophe `'` before it (a model named `=HYPERLINK(\"http://x\")` is the cell ")
	b.WriteString("`'=HYPERLINK(\"http://x\")`, one named `-1+2` is `'-1+2`), and so is a text that itself starts with `'`; a script gets ")
	b.WriteString("the text back exactly by removing one leading `'` from a text cell. Numbers are never prefixed: `-0.5` in a number ")
	b.WriteString("column is written as it is. The workbook needs no prefix: it writes every text as a text cell, which Excel does not run.\n\n")
	b.WriteString("| file | title | section |\n|---|---|---|\n")
	for _, t := range tables {
		if t == nil {
			continue
		}
		fmt.Fprintf(&b, "| [`tables/%s.csv`](#%s) | %s | %s |\n", t.Name, anchor(t.Name), mdCell(t.Title), mdCell(t.Section))
	}
	fmt.Fprintf(&b, "| [`tables/%s.csv`](#%s) | Notes | |\n\n", NotesName, NotesName)
	for _, t := range tables {
		if t == nil {
			continue
		}
		fmt.Fprintf(&b, "## %s\n\n", t.Name)
		fmt.Fprintf(&b, "`tables/%s.csv`", t.Name)
		if t.Title != "" {
			fmt.Fprintf(&b, " — %s", mdText(t.Title))
		}
		if t.Section != "" {
			fmt.Fprintf(&b, " (section: %s)", mdText(t.Section))
		}
		b.WriteString("\n\n")
		if t.Doc != "" {
			b.WriteString(mdText(t.Doc))
			b.WriteString("\n\n")
		}
		b.WriteString("| column | type | meaning |\n|---|---|---|\n")
		for _, c := range t.Columns {
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", mdCell(c.Name), kindName(c.Kind), mdCell(c.Doc))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "## %s\n\n`tables/%s.csv` — tables and figures left out of the report, and why.\n\n", NotesName, NotesName)
	b.WriteString("| column | type | meaning |\n|---|---|---|\n")
	b.WriteString("| `table` | text | the table or figure concerned |\n")
	b.WriteString("| `reason` | text | why it was left out, or the remark |\n")
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("csvout: write docs: %w", err)
	}
	return nil
}

// anchor is the GitHub-style heading anchor of a table name.
func anchor(name string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(name) {
		if c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// mdText keeps a line of prose on one line.
func mdText(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// mdCell makes text safe inside a Markdown table cell.
func mdCell(s string) string {
	s = mdText(s)
	s = strings.ReplaceAll(s, `\`, `\\`)
	return strings.ReplaceAll(s, "|", `\|`)
}
