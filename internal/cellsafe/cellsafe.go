// Package cellsafe is the one rule of euroexec for text that a spreadsheet
// could run as a formula (CSV injection, after OWASP): a cell whose text
// starts with '=', '+', '-', '@', a tab or a carriage return. The CSV
// tables (report/csvout) prefix such text with an apostrophe; the workbook
// (report/xlsx) writes every text as a text cell, which a spreadsheet never
// runs, so it needs no prefix.
package cellsafe

import "strings"

// Prefix is what CSV puts before a text a spreadsheet could run.
const Prefix = "'"

// Formula reports whether a spreadsheet opening a CSV cell of text s could
// read it as a formula: s starts with '=', '+', '-', '@', a tab or a
// carriage return.
func Formula(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}

// CSV is the text of a CSV cell for text s: s with Prefix before it when
// Formula(s), or when s itself starts with Prefix (so that Restore undoes
// CSV exactly); s unchanged otherwise.
func CSV(s string) string {
	if Formula(s) || strings.HasPrefix(s, Prefix) {
		return Prefix + s
	}
	return s
}

// Restore undoes CSV: the text of a CSV text cell without its leading
// Prefix, if any.
func Restore(cell string) string {
	return strings.TrimPrefix(cell, Prefix)
}
