package config

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/euroexec/euroexec/ingest/internal/suggest"
)

// tableKeys returns the keys accepted in the study.toml table at path (nil
// path: the top level), and whether path names a table of fixed keys.
func tableKeys(path []string) ([]string, bool) {
	t := reflect.TypeOf(Config{})
	for _, p := range path {
		for t.Kind() == reflect.Slice || t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() == reflect.Map {
			t = t.Elem() // p is a key of the map ([sheets.files] "path")
			continue
		}
		if t.Kind() != reflect.Struct {
			return nil, false
		}
		f, ok := fieldByTag(t, p)
		if !ok {
			return nil, false
		}
		t = f.Type
	}
	// go-toml leaves the key of a map of tables out of the path
	// ([sheets.files] "a.xlsx" = { … } is "sheets.files.KEY")
	for t.Kind() == reflect.Slice || t.Kind() == reflect.Pointer || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, false
	}
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		if tag := t.Field(i).Tag.Get("toml"); tag != "" && tag != "-" {
			keys = append(keys, tag)
		}
	}
	sort.Strings(keys)
	return keys, true
}

func fieldByTag(t reflect.Type, tag string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).Tag.Get("toml") == tag {
			return t.Field(i), true
		}
	}
	return reflect.StructField{}, false
}

// unknownKeyHint says what an unknown key might have meant: the closest
// accepted key of its table (suggest.Closest) and, when
// the table has at most 12 keys, all of them.
func unknownKeyHint(key []string) string {
	if len(key) == 0 {
		return ""
	}
	keys, ok := tableKeys(key[:len(key)-1])
	if !ok || len(keys) == 0 {
		return ""
	}
	last := key[len(key)-1]
	best, _ := suggest.Closest(last, keys)
	var b strings.Builder
	prefix := strings.Join(key[:len(key)-1], ".")
	if prefix != "" {
		prefix += "."
	}
	if best != "" {
		fmt.Fprintf(&b, " (did you mean %s%s?)", prefix, best)
	}
	table := "at the top level"
	if len(key) > 1 {
		table = "in [" + strings.Join(key[:len(key)-1], ".") + "]"
	}
	if len(keys) <= 12 {
		fmt.Fprintf(&b, "; the keys %s are %s", table, strings.Join(keys, ", "))
	}
	return b.String()
}

var goType = regexp.MustCompile(`cannot decode TOML (\w+) into .* of type (\S+)`)

// typeMismatch rewrites go-toml's "cannot decode TOML string into struct
// field config.Rubric.Max of type int" in the user's terms.
func typeMismatch(msg string) (string, bool) {
	m := goType.FindStringSubmatch(msg)
	if m == nil {
		return "", false
	}
	want := map[string]string{
		"int": "an integer", "int64": "an integer", "uint64": "a whole number from 0", "float64": "a number",
		"string": `text in quotes ("…")`, "bool": "true or false", "*bool": "true or false",
		"[]string": `a list of texts (["…", "…"])`, "map[string]string": `a table of "key" = "value" lines`,
	}[m[2]]
	if want == "" {
		want = "a value of another kind (see docs/FORMAT.md)"
	}
	return fmt.Sprintf("found a TOML %s; expected %s", m[1], want), true
}
