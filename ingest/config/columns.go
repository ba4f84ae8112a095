package config

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// FixedColumns are the canonical column names of the study tables (see
// docs/FORMAT.md), besides the rubric attributes and the checklist columns
// C1, C2, …. A [columns] alias must name one of them, an attribute or a
// checklist column.
var FixedColumns = []string{
	"question_id", "domain", "prompt", "author", "difficulty", "gate_score",
	"item", "text", "model", "provider", "display_name", "usd_per_1k_input", "usd_per_1k_output",
	"evaluator", "label", "position", "reference_id", "graded", "run", "passed",
	"criterion_id", "weight", "category", "met", "request_id", "cost_usd", "input_tokens",
	"output_tokens", "attempt", "round", "rank", "comment", "instrument", "key", "value",
	"model_a", "model_b", "label_a", "label_b", "winner",
}

// RegexPrefix marks a [columns] key that is a regular expression.
const RegexPrefix = "re:"

var (
	// hint is a trailing parenthesised or bracketed note: "(1-5)", "(1 = best)".
	hint = regexp.MustCompile(`\s*[(\[][^()\[\]]*[)\]]\s*$`)
	// numbered is a numbered checklist column once spaces are folded.
	numbered = regexp.MustCompile(`^(?:checklist_item|checklist|check|item|c)_?0*([1-9][0-9]{0,5})$`)
)

// British spellings folded to the American ones in column names, so that
// "Localisation" matches the default attribute Localization.
var spelling = strings.NewReplacer("isation", "ization", "yse", "yze", "behaviour", "behavior", "colour", "color", "favour", "favor", "honour", "honor")

// ColumnKey is the form in which header names, [columns] aliases and rubric
// attributes are compared: lower case; spaces, '_' and '-' runs as one '_';
// trailing notes in brackets ("(1-5)", "(1–5)", "(1 = best)") and the
// number marks "#" and "No." left out; British spellings folded to
// American ("Localisation" = "localization"); numbered checklist headers
// ("Checklist item 3", "Item 3", "C3", "checklist_3") as "c3". Two headers
// made special: "Question #" / "Question No." is question_id, and a model
// column marked "(blinded)" is label.
func ColumnKey(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	blinded := false
	for {
		m := hint.FindStringIndex(s)
		if m == nil || m[0] == 0 {
			break
		}
		if strings.Contains(s[m[0]:], "blind") {
			blinded = true
		}
		s = s[:m[0]]
	}
	f := strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '_' || r == '-' })
	numberMark := false
	out := f[:0]
	for _, w := range f {
		switch w {
		case "#", "no.", "nr.", "no", "nº", "n°":
			numberMark = true
			continue
		}
		if t := strings.TrimSuffix(w, "#"); t != w {
			numberMark = true
			if t == "" {
				continue
			}
			w = t
		}
		out = append(out, w)
	}
	s = spelling.Replace(strings.Join(out, "_"))
	if m := numbered.FindStringSubmatch(s); m != nil {
		return "c" + m[1]
	}
	switch {
	case s == "question" && numberMark:
		return "question_id"
	case s == "model" && blinded:
		return "label"
	}
	return s
}

// ColumnAlias is a compiled [columns] entry.
type ColumnAlias struct {
	// Re is the pattern of a "re:" key (matched case-insensitively against
	// the header as written, trimmed); nil for a plain key.
	Re *regexp.Regexp
	// Key is ColumnKey of a plain key.
	Key string
	// Target is the canonical name, or for Re an expansion template ($1 …).
	Target string
}

// Match returns the canonical name of header name (as written) under this
// alias.
func (a ColumnAlias) Match(name string) (string, bool) {
	if a.Re == nil {
		if ColumnKey(name) == a.Key {
			return ColumnKey(a.Target), true
		}
		return "", false
	}
	n := strings.TrimSpace(name)
	m := a.Re.FindStringSubmatchIndex(n)
	if m == nil {
		return "", false
	}
	return ColumnKey(string(a.Re.ExpandString(nil, a.Target, n, m))), true
}

// ColumnAliases compiles [columns]: plain keys first (sorted), then the
// regular expressions in key order.
func (c Config) ColumnAliases() []ColumnAlias {
	keys := make([]string, 0, len(c.Columns))
	for k := range c.Columns {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		ri, rj := strings.HasPrefix(keys[i], RegexPrefix), strings.HasPrefix(keys[j], RegexPrefix)
		if ri != rj {
			return rj
		}
		return keys[i] < keys[j]
	})
	var out []ColumnAlias
	for _, k := range keys {
		v := c.Columns[k]
		if p, ok := strings.CutPrefix(k, RegexPrefix); ok {
			re, err := regexp.Compile("(?i)" + p)
			if err != nil {
				continue // reported by validate
			}
			out = append(out, ColumnAlias{Re: re, Target: v})
			continue
		}
		out = append(out, ColumnAlias{Key: ColumnKey(k), Target: v})
	}
	return out
}

// canonicalColumn reports whether key (a ColumnKey) is a canonical column
// under this configuration.
func (c Config) canonicalColumn(key string) bool {
	for _, f := range FixedColumns {
		if f == key {
			return true
		}
	}
	for _, a := range c.Rubric.Attributes {
		if ColumnKey(a) == key {
			return true
		}
	}
	if len(key) > 1 && key[0] == 'c' {
		if n, err := strconv.Atoi(key[1:]); err == nil && n >= 1 && key[1] != '0' && key[1] != '+' {
			return true
		}
	}
	return false
}

// checkColumns validates [columns]: regular expressions compile, and every
// target is a canonical column (for a regular expression, its template with
// every $n as 1).
func (c Config) checkColumns(bad func(key string, value any, expected string)) {
	keys := make([]string, 0, len(c.Columns))
	for k := range c.Columns {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	names := append([]string(nil), FixedColumns...)
	names = append(names, c.Rubric.Attributes...)
	names = append(names, "C1", "C2", "…")
	listed := strings.Join(names, ", ")
	group := regexp.MustCompile(`\$(\{[0-9]+\}|[0-9]+)`)
	for _, k := range keys {
		v := c.Columns[k]
		target := v
		if p, ok := strings.CutPrefix(k, RegexPrefix); ok {
			if _, err := regexp.Compile("(?i)" + p); err != nil {
				bad("columns."+strconv.Quote(k), v, fmt.Sprintf("a regular expression (Go syntax) after %q: %v", RegexPrefix, err))
				continue
			}
			target = group.ReplaceAllString(v, "1")
		}
		if !c.canonicalColumn(ColumnKey(target)) {
			bad("columns."+strconv.Quote(k), v, "a canonical column name: "+listed)
		}
	}
}
