package tabular

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestCSVBasic(t *testing.T) {
	// basic.csv: UTF-8 BOM, CRLF line ends, a quoted field with a comma and a
	// line break, doubled quotes, a short row, a blank record in the middle
	// and two trailing blank records. Offsets counted by hand:
	//   BOM                                    bytes   0..2
	//   question_id,prompt, Domain \r\n        29 bytes from 3   → row 2 at 32
	//   101,"Hello,\r\nworld",  Law \r\n       28 bytes from 32  → row 3 at 60
	//   102,"say ""hi"""\r\n                   18 bytes from 60  → row 4 at 78
	//   ,,\r\n                                  4 bytes from 78  → row 5 at 82
	//   103,x,Tax\r\n                          11 bytes from 82; then 2 × ",,\r\n"
	r := openT(t, "testdata/csv/basic.csv", Options{})
	sh := r.Sheet()
	if want := []string{"question_id", "prompt", " Domain "}; !equalStrings(sh.Header, want) || sh.Name != "" {
		t.Fatalf("header: got %q (sheet %q), want %q", sh.Header, sh.Name, want)
	}
	got := readAll(t, r)
	checkRows(t, got, []gotRow{
		// encoding/csv turns CRLF inside a quoted field into LF.
		{2, 32, texts("101", "Hello,\nworld", "  Law ")},
		{3, 60, texts("102", `say "hi"`, "")},
		{4, 78, texts("", "", "")},
		{5, 82, texts("103", "x", "Tax")},
	})
	if r.NextSheet() {
		t.Error("NextSheet on a CSV returned true")
	}
	checkDigest(t, r, "testdata/csv/basic.csv")
	// After io.EOF, Next keeps returning io.EOF.
	if _, _, err := r.Next(); err != io.EOF {
		t.Errorf("Next after EOF: got %v, want io.EOF", err)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkDigest compares Reader.Digest with SHA256File and with a digest
// computed independently (sha256sum) and stored in testdata/SHA256SUMS.
func checkDigest(t *testing.T, r Reader, path string) {
	t.Helper()
	got, err := r.Digest()
	if err != nil {
		t.Fatalf("Digest: %v", err)
	}
	want, err := SHA256File(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("Digest: got %s, SHA256File %s", got, want)
	}
	sums, err := os.ReadFile("testdata/SHA256SUMS")
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel("testdata", path)
	for _, line := range strings.Split(string(sums), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[1] == rel {
			if f[0] != got {
				t.Errorf("Digest of %s: got %s, sha256sum says %s", rel, got, f[0])
			}
			return
		}
	}
	t.Errorf("%s not listed in testdata/SHA256SUMS", rel)
}

func TestCSVErrors(t *testing.T) {
	t.Run("bad utf-8", func(t *testing.T) {
		// "id,text\n" (8 bytes) + "1,ok\n" (5) → row 3 starts at 13;
		// "2,caf" is 5 bytes, so the byte 0xE9 is at offset 18.
		r := openT(t, "testdata/csv/badutf8.csv", Options{})
		row, _, err := r.Next()
		if err != nil || row[1].Text != "ok" {
			t.Fatalf("row 2: got %v, %v", row, err)
		}
		_, _, err = r.Next()
		checkErr(t, err, `badutf8.csv, row 3, column "text", byte 18`, "invalid UTF-8", true)
		// Reading goes on after a row error; "2,caf\xe9 au lait\n" is 15
		// bytes, so row 4 starts at 13+15 = 28.
		checkRows(t, readAll(t, r), []gotRow{{4, 28, texts("3", "fine")}})
	})
	t.Run("value beyond header", func(t *testing.T) {
		// "a,b\n" is 4 bytes; "1,2,3\n" 6 more → row 3 at 10. The empty
		// third field of row 3 is not an error.
		r := openT(t, "testdata/csv/extra.csv", Options{})
		_, _, err := r.Next()
		te := checkErr(t, err, `extra.csv, row 2, column "#3", byte 4`, `found "3"`, true)
		if te.Value != "3" {
			t.Errorf("Value: got %q, want %q", te.Value, "3")
		}
		checkRows(t, readAll(t, r), []gotRow{{3, 10, texts("4", "5")}})
	})
	t.Run("bare quote", func(t *testing.T) {
		// row 2 `1,x"y` starts at byte 4; the quote is the 4th byte of line 2.
		r := openT(t, "testdata/csv/badquote.csv", Options{})
		_, _, err := r.Next()
		checkErr(t, err, `badquote.csv, row 2, byte 4`, `malformed CSV at line 2, column 4: bare " in non-quoted-field`, true)
		checkRows(t, readAll(t, r), []gotRow{{3, 10, texts("2", "z")}})
	})
}

func TestCSVEmpty(t *testing.T) {
	for _, name := range []string{"empty.csv", "bomonly.csv"} {
		_, err := Open("testdata/csv/"+name, name, Options{})
		checkErr(t, err, name, "empty file", false)
		if !errors.Is(err, ErrEmptyFile) {
			t.Errorf("%s: error %v does not wrap ErrEmptyFile", name, err)
		}
	}
	r := openT(t, "testdata/csv/headeronly.csv", Options{})
	if h := r.Sheet().Header; !equalStrings(h, []string{"a", "b"}) {
		t.Errorf("header: got %q", h)
	}
	if _, _, err := r.Next(); err != io.EOF {
		t.Errorf("header-only file: got %v, want io.EOF", err)
	}
}

func TestCSVBadHeader(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "h.csv")
	// Blank records before the header are skipped; a bad byte in the header
	// is a final error from Open: ",\n" is 2 bytes, "ok,b" 4 → byte 6. The
	// column has no usable name yet, so it is named by position.
	if err := os.WriteFile(p, []byte(",\nok,b\xff\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(p, "h.csv", Options{})
	checkErr(t, err, `h.csv, row 2, column "#2", byte 6`, "invalid UTF-8", false)
}

func TestCSVLongField(t *testing.T) {
	// A 3 MB quoted field with newlines and a bad byte near its end: the
	// offset must still be exact although the field spans many buffers.
	dir := t.TempDir()
	p := filepath.Join(dir, "long.csv")
	big := strings.Repeat("abc\n", 3<<18) // 3 MiB
	data := "id,text\n1,\"" + big + "\xfe\"\n2,ok\n"
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	r := openT(t, p, Options{})
	_, _, err := r.Next()
	// "id,text\n" 8 bytes, `1,"` 3 bytes, then len(big) bytes.
	checkErr(t, err, `long.csv, row 2, column "text", byte `+strconv.Itoa(8+3+len(big)), "invalid UTF-8", true)
	got := readAll(t, r)
	if len(got) != 1 || got[0].Cells[1].Text != "ok" {
		t.Errorf("after the long row: got %+v", got)
	}
}
