package schema

import (
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// portable are the SQL functions, types and operators the views may use
// that mean the same in DuckDB, Spark SQL (3.4+) and Trino: standard
// aggregates and expressions, FILTER on aggregates, USING joins, window
// row_number.
var portable = map[string]bool{
	// functions and keywords written like calls
	"abs": true, "avg": true, "cast": true, "coalesce": true, "count": true, "exists": true,
	"max": true, "min": true, "round": true, "row_number": true, "sum": true, "bool_and": true,
	"filter": true, "using": true, "over": true, "in": true, "as": true, "and": true, "or": true,
	"when": true, "from": true, "join": true,
	// types
	"type BIGINT": true, "type DOUBLE": true, "type INTEGER": true, "type VARCHAR": true, "type BOOLEAN": true,
}

// duckdbOnly are the constructs of the views that another engine lacks or
// reads differently; docs/EXPORT.md must name each (its section "Which SQL
// is DuckDB's").
var duckdbOnly = map[string]string{
	"gcd":          "gcd",
	"type HUGEINT": "HUGEINT",
	"type DECIMAL": "DECIMAL(38,12)",
	"decimal":      "DECIMAL(38,12)", // DECIMAL(p,s) reads as a call
	"op <<":        "<<",
	"bit_or":       "bit_or",
	"bit_count":    "bit_count",
	"any_value":    "any_value",
	"op /":         "integer `/`",
}

var (
	callRe = regexp.MustCompile(`(?i)\b([a-z_][a-z0-9_]*)\s*\(`)
	typeRe = regexp.MustCompile(`(?i)\bAS\s+(HUGEINT|BIGINT|DOUBLE|INTEGER|VARCHAR|BOOLEAN|DECIMAL)\b`)
	opRe   = regexp.MustCompile(`<<|>>|::|\|\||//|/`)
)

// constructs lists the functions, cast types and operators of q, comments
// removed.
func constructs(q string) []string {
	var lines []string
	for _, l := range strings.Split(q, "\n") {
		if i := strings.Index(l, "--"); i >= 0 {
			l = l[:i]
		}
		lines = append(lines, l)
	}
	q = strings.Join(lines, "\n")
	seen := map[string]bool{}
	for _, m := range callRe.FindAllStringSubmatch(q, -1) {
		seen[strings.ToLower(m[1])] = true
	}
	for _, m := range typeRe.FindAllStringSubmatch(q, -1) {
		seen["type "+strings.ToUpper(m[1])] = true
	}
	for _, m := range opRe.FindAllString(q, -1) {
		seen["op "+m] = true
	}
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestViewsPortableSubset checks every transform file (the views that
// export and run --store make) against the portable subset: a construct in
// neither list fails (classify it), and each DuckDB-only construct used
// must be named in docs/EXPORT.md.
func TestViewsPortableSubset(t *testing.T) {
	doc, err := os.ReadFile("../docs/EXPORT.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "## Which SQL is DuckDB's")
	if !ok {
		t.Fatal(`docs/EXPORT.md has no section "## Which SQL is DuckDB's"`)
	}
	entries, err := fs.ReadDir(Files, ".")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, e := range entries {
		if e.Name() == "schema.sql" {
			continue
		}
		b, err := fs.ReadFile(Files, e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range constructs(string(b)) {
			used[c] = true
			if portable[c] {
				continue
			}
			name, ok := duckdbOnly[c]
			if !ok {
				t.Errorf("%s uses %q: neither in the portable subset nor in the documented DuckDB-only list", e.Name(), c)
				continue
			}
			if !strings.Contains(section, name) {
				t.Errorf("%s uses %s, which docs/EXPORT.md does not name as DuckDB-only", e.Name(), name)
			}
		}
	}
	// The lists must not keep constructs the views no longer use.
	for c := range duckdbOnly {
		if !used[c] {
			t.Errorf("DuckDB-only %q is not used by any view any more: remove it here and in docs/EXPORT.md", c)
		}
	}
}

// TestConstructs checks the scanner on a hand-written statement.
func TestConstructs(t *testing.T) {
	got := constructs("SELECT gcd(a, b), CAST(x AS HUGEINT) -- any_value(y)\nFROM t WHERE 1 << 2 > a / b")
	want := []string{"cast", "gcd", "op /", "op <<", "type HUGEINT"}
	if !slices.Equal(got, want) {
		t.Errorf("constructs = %v, want %v", got, want)
	}
}
