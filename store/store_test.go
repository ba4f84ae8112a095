package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/internal/duckopen"
)

// TestEscapeAsDuckDB checks Escape against DuckDB's own hive escaping: the
// folders COPY … PARTITION_BY writes for hostile values (every ASCII byte,
// path separators, "..", "=", newlines, quotes, UTF-8).
func TestEscapeAsDuckDB(t *testing.T) {
	vals := []string{"../x", "a/b", "=", "a=b", "line\nbreak", "..", ".", `q"'*?[]{}`, "é ü 中", "%41", `back\slash`, "tab\tx", "~-._"}
	for c := 1; c < 128; c++ {
		vals = append(vals, "v"+string(rune(c)))
	}
	db, err := duckopen.Open("", duckopen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE g (model VARCHAR)`); err != nil {
		t.Fatal(err)
	}
	for _, v := range vals {
		if _, err := db.Exec(`INSERT INTO g VALUES (?)`, v); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "p")
	if _, err := db.Exec(`COPY (SELECT model, 1 AS x FROM g) TO ` + quoteString(dir) + ` (FORMAT parquet, PARTITION_BY (model))`); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	for _, v := range vals {
		want = append(want, "model="+Escape(v))
		if s := Escape(v); strings.ContainsAny(s, "/\\\n\x00=") {
			t.Errorf("Escape(%q) = %q", v, s)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("Escape gives %q, DuckDB wrote no such folder", w)
			}
		}
	}
}

func TestParsePartitionBy(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		err  string
	}{
		{"run", []string{"run"}, ""},
		{"model", []string{"model"}, ""},
		{"model,run", []string{"run", "model"}, ""},
		{"run, model", []string{"run", "model"}, ""},
		{"run,grader", nil, `"grader" is not a partition key`},
		{"", nil, `"" is not a partition key`},
	} {
		got, err := ParsePartitionBy(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParsePartitionBy(%q): %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParsePartitionBy(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

func TestCheckRunName(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"r1", true}, {"../x", true}, {strings.Repeat("a", MaxSegment), true},
		{strings.Repeat("a", MaxSegment+1), false}, {strings.Repeat("/", MaxSegment/3+1), false}, {"", false},
	} {
		if err := CheckRunName(c.name); (err == nil) != c.ok {
			t.Errorf("CheckRunName(%.20q…): %v, want ok %v", c.name, err, c.ok)
		}
	}
}

// TestOpenRefuses checks the reader's refusals: a Parquet file that lacks
// a canonical column, a link among a run's files, a manifest of another
// format or version.
func TestOpenRefuses(t *testing.T) {
	ctx := context.Background()
	mk := func(t *testing.T) string {
		t.Helper()
		dir := t.TempDir()
		if err := writeJSON(filepath.Join(dir, ManifestName), Manifest{Format: Format, SchemaVersion: SchemaVersion, PartitionBy: []string{"run"}, Tables: []string{"questions"}}); err != nil {
			t.Fatal(err)
		}
		os.Mkdir(filepath.Join(dir, RunsDir), 0o755)
		if err := writeJSON(runFile(dir, "r"), Run{Name: "r"}); err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, "questions", RunSegment("r")), 0o755)
		return dir
	}
	t.Run("missing column", func(t *testing.T) {
		dir := mk(t)
		db, err := duckopen.Open("", duckopen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		p := filepath.Join(dir, "questions", RunSegment("r"), "part-0.parquet")
		if _, err := db.Exec(`COPY (SELECT 'q1' AS question_id, 0 AS row_ord) TO ` + quoteString(p) + ` (FORMAT parquet)`); err != nil {
			t.Fatal(err)
		}
		_, _, err = Open(ctx, dir, "")
		if err == nil || !strings.Contains(err.Error(), "table questions") || !strings.Contains(err.Error(), "domain") {
			t.Errorf("Open: %v, want an error naming questions and its missing column", err)
		}
	})
	t.Run("link", func(t *testing.T) {
		dir := mk(t)
		if err := os.Symlink("/etc/passwd", filepath.Join(dir, "questions", RunSegment("r"), "part-0.parquet")); err != nil {
			t.Fatal(err)
		}
		if _, _, err := Open(ctx, dir, ""); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Open: %v, want a refusal of the link", err)
		}
	})
	t.Run("version", func(t *testing.T) {
		dir := mk(t)
		os.Remove(filepath.Join(dir, ManifestName))
		writeJSON(filepath.Join(dir, ManifestName), Manifest{Format: Format, SchemaVersion: SchemaVersion + 1})
		if _, _, err := Open(ctx, dir, ""); err == nil || !strings.Contains(err.Error(), "schema version") {
			t.Errorf("Open: %v, want a refusal of the version", err)
		}
	})
}
