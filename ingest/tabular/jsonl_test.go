package tabular

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestJSONLBasic(t *testing.T) {
	// basic.jsonl: line 1 sets the header; line 2 is blank (skipped); line 3
	// has keys in another order plus a new key "extra"; line 4 has an
	// integer longer than float64 precision and escapes; line 5 is {} and
	// line 6 white space: trailing, dropped.
	r := openT(t, "testdata/jsonl/basic.jsonl", Options{})
	wantHeader := []string{"question_id", "model", "text", "score", "ratio", "big", "flag", "none", "nested", "tiny"}
	if h := r.Sheet().Header; !equalStrings(h, wantHeader) {
		t.Fatalf("header after Open: got %q, want %q", h, wantHeader)
	}
	var got []gotRow
	for {
		row, loc, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, gotRow{Row: loc.Row, Cells: row})
	}
	line1 := texts("101", "m1", "  spaced\ttext  ", "4", "0.5", "1000", "true", "", `{"a":[1,2]}`, "0.1")
	line1[7].Null = true
	line3 := make([]Cell, 11)
	line3[0].Text, line3[1].Text, line3[10].Text = "007", "m2", "new key"
	line4 := make([]Cell, 11)
	line4[0].Text, line4[2].Text, line4[6].Text = "12345678901234567890", `café "q"`, "false"
	checkRows(t, got, []gotRow{{Row: 1, Cells: line1}, {Row: 3, Cells: line3}, {Row: 4, Cells: line4}})
	if h := r.Sheet().Header; !equalStrings(h, append(wantHeader, "extra")) {
		t.Errorf("header at the end: got %q", h)
	}
	checkDigest(t, r, "testdata/jsonl/basic.jsonl")
}

func TestJSONLOffsets(t *testing.T) {
	// Row offsets: "{\"a\":1}\r\n" is 9 bytes, "\n" 1 → line 3 at 10.
	dir := t.TempDir()
	p := filepath.Join(dir, "o.jsonl")
	if err := os.WriteFile(p, []byte("{\"a\":1}\r\n\n{\"a\":\"x\"}"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := openT(t, p, Options{})
	checkRows(t, readAll(t, r), []gotRow{{1, 0, texts("1")}, {3, 10, texts("x")}})
}

func TestJSONLErrors(t *testing.T) {
	tests := []struct {
		file, loc, msg string
		after          []gotRow // rows read after the error
	}{
		// `{"a":1}\n` is 8 bytes; line 2 `{"a":2,"b":"x` is 13 bytes and has
		// no line end: the object is cut at byte 8+13 = 21.
		{"truncated.jsonl", `truncated.jsonl, line 2, byte 21`, "truncated JSON object", nil},
		// `{"a":"ok"}\n` is 11 bytes; `{"a":"caf` 9 → 0xE9 at byte 20.
		{"badutf8.jsonl", `badutf8.jsonl, line 2, byte 20`, "invalid UTF-8", []gotRow{{3, 24, texts("x")}}},
		// line 2 `[1,2]` starts at byte 8.
		{"notobject.jsonl", `notobject.jsonl, line 2, byte 8`, `line is not a JSON object: found "[1,2]"`, []gotRow{{3, 14, texts("3")}}},
		// line 2 starts at 9 (CRLF); the second object starts 7 bytes in.
		{"twovalues.jsonl", `twovalues.jsonl, line 2, byte 16`, `more than one JSON value on the line: found "{\"b\":2}`, []gotRow{{3, 25, texts("3")}}},
		// line 2 `{"a":1,"a":2}` starts at byte 8.
		{"dupkey.jsonl", `dupkey.jsonl, line 2, column "a", byte 8`, "key appears twice", []gotRow{{3, 22, texts("3")}}},
		// line 2 `{"a":1,}` starts at 8; the stray } is its 8th byte (byte 15).
		{"syntax.jsonl", `syntax.jsonl, line 2, byte 15`, "invalid character '}'", []gotRow{{3, 17, texts("3")}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r := openT(t, "testdata/jsonl/"+tt.file, Options{})
			if _, _, err := r.Next(); err != nil {
				t.Fatalf("line 1: %v", err)
			}
			_, _, err := r.Next()
			checkErr(t, err, tt.loc, tt.msg, true)
			checkRows(t, readAll(t, r), tt.after)
		})
	}
}

func TestJSONLFirstLineAndEmpty(t *testing.T) {
	// The first line defines the header: when it is bad Open fails.
	// `{"a":` is 5 bytes and ends before a value.
	_, err := Open("testdata/jsonl/firstbad.jsonl", "firstbad.jsonl", Options{})
	checkErr(t, err, `firstbad.jsonl, line 1, byte 5`, "truncated JSON object", false)

	_, err = Open("testdata/jsonl/empty.jsonl", "empty.jsonl", Options{})
	checkErr(t, err, `empty.jsonl`, "empty file", false)
	if !errors.Is(err, ErrEmptyFile) {
		t.Errorf("error %v does not wrap ErrEmptyFile", err)
	}
}

func TestJSONLNumbers(t *testing.T) {
	// Expected texts written out by hand from the JSON literals.
	tests := []struct{ lit, want string }{
		{"101", "101"},
		{"-7", "-7"},
		{"4.0", "4"},
		{"4.00", "4"},
		{"-0.0", "0"},
		{"1e3", "1000"},
		{"1E+3", "1000"},
		{"0.1", "0.1"},
		{"0.5", "0.5"},
		{"2.50", "2.5"},
		{"1234567.5", "1234567.5"},
		{"1e-7", "0.0000001"},
		{"1e-8", "1e-08"},
		{"1e21", "1e+21"},
		{"1.5e300", "1.5e+300"},
		{"12345678901234567890", "12345678901234567890"},
		{"9007199254740993.0", "9007199254740992"}, // 2^53+1 is not a float64: nearest is 2^53
		{"1e400", "1e400"},                         // out of float64 range: kept as written
	}
	dir := t.TempDir()
	var b strings.Builder
	for _, tt := range tests {
		b.WriteString(`{"v":` + tt.lit + "}\n")
	}
	p := filepath.Join(dir, "n.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := readAll(t, openT(t, p, Options{}))
	if len(rows) != len(tests) {
		t.Fatalf("got %d rows, want %d", len(rows), len(tests))
	}
	for i, tt := range tests {
		if got := rows[i].Cells[0].Text; got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.lit, got, tt.want)
		}
	}
}

func TestJSONLLongLine(t *testing.T) {
	// A 20 MB line (well over bufio.Scanner's 64 KB default and the 256 KB
	// read buffer) followed by a normal one.
	dir := t.TempDir()
	p := filepath.Join(dir, "long.jsonl")
	text := strings.Repeat("é", 10<<20) // 20 MiB of 2-byte runes
	data := `{"id":1,"text":"` + text + "\"}\n" + `{"id":2,"text":"short"}` + "\n"
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := readAll(t, openT(t, p, Options{Limits: Limits{CellBytes: 32 << 20}}))
	if len(rows) != 2 || rows[0].Cells[1].Text != text || rows[1].Cells[1].Text != "short" {
		t.Fatalf("long line not read back exactly (%d rows)", len(rows))
	}
	if want := int64(len(data) - len(`{"id":2,"text":"short"}`) - 1); rows[1].Offset != want {
		t.Errorf("offset of line 2: got %d, want %d", rows[1].Offset, want)
	}
}

func TestDigestDrains(t *testing.T) {
	// Digest before the end reads the rest of the file; Next then fails.
	r := openT(t, "testdata/jsonl/basic.jsonl", Options{})
	if _, _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	checkDigest(t, r, "testdata/jsonl/basic.jsonl")
	if _, _, err := r.Next(); err == nil || err == io.EOF {
		t.Errorf("Next after Digest: got %v, want an error", err)
	}
	r2 := openT(t, "testdata/csv/badutf8.csv", Options{})
	checkDigest(t, r2, "testdata/csv/badutf8.csv")
}

func TestJSONLRejectedLineAddsNoColumn(t *testing.T) {
	// Line 2 is rejected (duplicate key): its new key "new" must not become
	// a column; line 3's "late" does.
	p := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(p, []byte("{\"a\":0}\n{\"new\":1,\"a\":1,\"a\":2}\n{\"a\":3,\"late\":true}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := openT(t, p, Options{})
	if _, _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	_, _, err := r.Next()
	// line 2 starts at byte 8 and is 22 bytes long with its line end, so
	// line 3 starts at 30.
	checkErr(t, err, `r.jsonl, line 2, column "a", byte 8`, "key appears twice", true)
	checkRows(t, readAll(t, r), []gotRow{{3, 30, texts("3", "true")}})
	if h := r.Sheet().Header; !equalStrings(h, []string{"a", "late"}) {
		t.Errorf("header: got %q, want [a late]", h)
	}
}
