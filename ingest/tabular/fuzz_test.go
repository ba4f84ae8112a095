package tabular

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
	"unicode/utf8"
)

// fuzzRead writes data to a file named name, reads it to the end and checks
// the invariants every input must keep: no panic, termination, located
// errors, increasing row numbers, offsets inside the file, valid UTF-8
// cells, and a digest equal to the data's SHA-256.
func fuzzRead(t *testing.T, name string, data []byte) {
	fuzzReadOpt(t, name, data, Options{})
}

// fuzzBudget is the time any fuzz input may take to read: inputs are at
// most a few kilobytes, so a reader that is not linear (or a zip bomb let
// through) shows as an input far over it, even on a loaded machine.
const fuzzBudget = 2 * time.Second

func fuzzReadOpt(t *testing.T, name string, data []byte, opt Options) {
	start := time.Now()
	defer func() {
		if d := time.Since(start); d > fuzzBudget+time.Duration(len(data))*time.Microsecond {
			t.Fatalf("reading %d bytes took %v", len(data), d)
		}
	}()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(p, name, opt)
	if err != nil {
		var te *Error
		if !errors.As(err, &te) || te.Loc.File != name || te.Recoverable {
			t.Fatalf("Open: got %v (%T), want a final *Error in %s", err, err, name)
		}
		return
	}
	defer r.Close()
	lastRow := 0
	for calls := 0; ; calls++ {
		// A sheet may hold up to 1,048,576 rows, however short its file.
		if calls > len(data)+2 && (name != "f.xlsx" || calls > 1<<24) {
			t.Fatalf("more Next calls (%d) than bytes: no termination", calls)
		}
		row, loc, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var te *Error
			if !errors.As(err, &te) || te.Loc.File != name {
				t.Fatalf("Next: got %v (%T), want *Error in %s", err, err, name)
			}
			if te.Loc.Offset > int64(len(data)) {
				t.Fatalf("%v: offset beyond the %d-byte file", te, len(data))
			}
			if te.Loc.Row <= lastRow {
				t.Fatalf("%v: row %d after row %d", te, te.Loc.Row, lastRow)
			}
			lastRow = te.Loc.Row
			if !te.Recoverable {
				if _, _, again := r.Next(); again != err {
					t.Fatalf("final error not repeated: %v then %v", err, again)
				}
				break
			}
			continue
		}
		if loc.Row <= lastRow || loc.Offset < -1 || loc.Offset >= int64(len(data)) {
			t.Fatalf("bad location %+v after row %d (file of %d bytes)", loc, lastRow, len(data))
		}
		lastRow = loc.Row
		if len(row) > len(r.Sheet().Header) {
			t.Fatalf("row of %d cells, header of %d", len(row), len(r.Sheet().Header))
		}
		for _, c := range row {
			if !utf8.ValidString(c.Text) {
				t.Fatalf("cell %q is not valid UTF-8", c.Text)
			}
		}
	}
	sum := sha256.Sum256(data)
	if d, err := r.Digest(); err != nil || d != hex.EncodeToString(sum[:]) {
		t.Fatalf("Digest: got %s, %v; want %x", d, err, sum)
	}
}

func FuzzCSV(f *testing.F) {
	for _, s := range []string{
		"a,b\n1,2\n",
		"\xef\xbb\xbfa,b\r\n\"x\ny\",2\r\n,\r\n",
		"a\n\"unterminated\n",
		"a,b\n1,x\"y\n",
		"a\n\xff\n",
		"",
		"title\n,\na,b\n1,2\n",
		"title\n\"x\ny\n",
		"t\n\n\na,b\n\"q\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRead(t, "f.csv", data)
		// the header looked for, and named
		fuzzReadOpt(t, "f.csv", data, Options{HeaderProbe: func(c []string) bool { return len(c) > 1 && c[1] == "b" }})
		fuzzReadOpt(t, "f.csv", data, Options{HeaderRow: 2})
	})
}

func FuzzJSONL(f *testing.F) {
	for _, s := range []string{
		"{\"a\":1}\n{\"b\":[1,{\"c\":null}]}\n",
		"{\"a\":1.50e2,\"a\":2}\n",
		"{\"a\":\"\\ud800\"}\n{}\n\n",
		"{\"a\":1}\n{\"a\":",
		"[1]\n",
		"{\"a\":\"\xff\"}",
		"",
	} {
		f.Add([]byte(s))
	}
	// Lines adding keys, as in the quadratic case of issue 18.
	var b bytes.Buffer
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "{\"id\":%d,\"k%d\":1}\n", i, i)
	}
	f.Add(b.Bytes())
	f.Add([]byte("\xef\xbb\xbf{\"a\":1}\n"))
	opt := Options{Limits: Limits{LineBytes: 1024, CellBytes: 256, Columns: 50}}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzReadOpt(t, "f.jsonl", data, opt) })
}

// FuzzXLSX reads mutated workbooks, starting from a sound one, zip bombs
// (a sheet that inflates 1000-fold, a directory declaring 3 GB) and a
// sheet cut off at a row boundary, with small limits: every input must
// end quickly with rows or a located error.
func FuzzXLSX(f *testing.F) {

	sound := workbookF(f, 20, "t")
	f.Add(sound)
	f.Add(rezipF(f, sound, func(name string, b []byte) []byte {
		return bytes.Replace(b, []byte(">t0<"), append(append([]byte(">"), bytes.Repeat([]byte("x"), 2<<20)...), '<'), 1)
	}))
	f.Add(rezipF(f, sound, func(name string, b []byte) []byte {
		if name == "xl/worksheets/sheet1.xml" {
			if i := bytes.Index(b, []byte(`<row r="9"`)); i > 0 {
				return b[:i]
			}
		}
		return b
	}))
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	w, _ := zw.CreateRaw(&zip.FileHeader{Name: "xl/worksheets/sheet1.xml", Method: zip.Deflate, CompressedSize64: 3, UncompressedSize64: 3 << 30})
	w.Write([]byte{3, 0, 0})
	zw.Close()
	f.Add(out.Bytes())

	opt := Options{Limits: Limits{XLSXBytes: 4 << 20, XLSXRatio: 100, CellBytes: 64 << 10}}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzReadOpt(t, "f.xlsx", data, opt) })
}

// FuzzJSONLWalk checks the fast object scanner against encoding/json's
// Decoder: on every valid JSON object both must give the same keys and the
// same value bytes, in order (on valid UTF-8, which the reader checks
// first).
func FuzzJSONLWalk(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":[1,{"c":"]}"}],"d":"x\"y","e\u0041":null, "f" : true }`,
		`{}`,
		` { "k" : -1.5e+3 } `,
		`{"a":{"b":{"c":[[],{}]}},"s":"\\"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		k := 0
		for k < len(line) && isJSONSpace(line[k]) {
			k++
		}
		// The reader checks UTF-8 before parsing (json.Valid does not).
		if !utf8.Valid(line) || !json.Valid(line) || k == len(line) || line[k] != '{' {
			return
		}
		type kv struct{ k, v string }
		var fast, slow []kv
		if err := walkObject(line, k, func(key []byte, raw []byte) error {
			fast = append(fast, kv{string(key), string(raw)})
			return nil
		}); err != nil {
			t.Fatalf("walkObject(%q): %v", line, err)
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		if _, err := dec.Token(); err != nil {
			t.Fatal(err)
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				t.Fatal(err)
			}
			slow = append(slow, kv{tok.(string), string(raw)})
		}
		if len(fast) != len(slow) {
			t.Fatalf("%q: scanner %q, decoder %q", line, fast, slow)
		}
		for i := range fast {
			if fast[i] != slow[i] {
				t.Fatalf("%q: member %d: scanner %q, decoder %q", line, i, fast[i], slow[i])
			}
		}
	})
}

// FuzzValidObject checks that validObject accepts exactly the lines that
// are one JSON object for encoding/json.
func FuzzValidObject(f *testing.F) {
	for _, s := range []string{`{}`, ` {"a":1} `, `{"a":"x\ny","b":[1,{"c":"]"}],"d":null}`, `{"a":tru}`, `{"a":1,}`, `{"a" 1}`, `{"a":"\u00"}`, `{"a":1}x`, `{"a":[1,2]]}`, `{"a":{"b":"}"}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !utf8.Valid(b) {
			return
		}
		want := json.Valid(b) && bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte("{"))
		if got := validObject(b, 0); got != want {
			t.Fatalf("validObject(%q) = %v, json.Valid says %v", b, got, want)
		}
	})
}
