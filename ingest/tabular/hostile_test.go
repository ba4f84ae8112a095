package tabular

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// readErrs reads every row of r and returns the errors met (recoverable
// ones and the final one), failing on a panic-free but endless reader.
func readErrs(t *testing.T, r Reader) (rows int, errs []*Error) {
	t.Helper()
	for i := 0; i < 2_000_000; i++ {
		_, _, err := r.Next()
		if err == io.EOF {
			return rows, errs
		}
		if err != nil {
			var te *Error
			if !errors.As(err, &te) {
				t.Fatalf("Next: %v (%T), want *Error", err, err)
			}
			errs = append(errs, te)
			if !te.Recoverable {
				return rows, errs
			}
			continue
		}
		rows++
	}
	t.Fatal("Next never returned io.EOF")
	return
}

// wantLimit checks that err is a located *Error naming the limit.
func wantLimit(t *testing.T, err error, limit, file string, row int) {
	t.Helper()
	var te *Error
	if !errors.As(err, &te) {
		t.Fatalf("got %v (%T), want a *Error naming limit %s", err, err, limit)
	}
	if te.Limit != limit || te.Loc.File != file || te.Loc.Row != row {
		t.Fatalf("got %v (limit %q, row %d), want limit %q at %s row %d", te, te.Limit, te.Loc.Row, limit, file, row)
	}
	if !strings.Contains(te.Error(), "limit") {
		t.Errorf("message %q does not mention the limit", te.Error())
	}
}

func write(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOpenSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "q.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes:", err)
	}
	dev := filepath.Join(dir, "zero.jsonl")
	if err := os.Symlink("/dev/zero", dev); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, dev} {
		done := make(chan error, 1)
		go func() {
			r, err := Open(p, filepath.Base(p), Options{})
			if err == nil {
				r.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			var te *Error
			if !errors.As(err, &te) || !errors.Is(err, ErrNotRegular) || te.Loc.File != filepath.Base(p) {
				t.Errorf("Open(%s) = %v, want a located not-a-regular-file error", filepath.Base(p), err)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("Open(%s) blocked", filepath.Base(p))
		}
	}
}

func TestJSONLByteOrderMark(t *testing.T) {
	p := write(t, "r.jsonl", []byte("\xef\xbb\xbf{\"id\":\"1\",\"x\":2}\n{\"id\":\"2\"}\n"))
	r := openT(t, p, Options{})
	if h := r.Sheet().Header; len(h) != 2 || h[0] != "id" {
		t.Fatalf("header %q, want [id x] (BOM skipped)", h)
	}
	rows := readAll(t, r)
	if len(rows) != 2 || rows[0].Offset != 3 || rows[1].Cells[0].Text != "2" {
		t.Fatalf("rows %+v, want 2 rows, the first at byte 3", rows)
	}
}

func TestTSV(t *testing.T) {
	p := write(t, "q.tsv", []byte("\xef\xbb\xbfquestion_id\tprompt\n1\t\"a, b\"\n2\tc\n"))
	r := openT(t, p, Options{})
	if h := r.Sheet().Header; len(h) != 2 || h[1] != "prompt" {
		t.Fatalf("header %q", h)
	}
	rows := readAll(t, r)
	checkRows(t, rows, []gotRow{{2, 22, texts("1", "a, b")}, {3, 31, texts("2", "c")}})
}

func TestLineAndCellLimits(t *testing.T) {
	lim := Limits{LineBytes: 4096, CellBytes: 1024, Columns: 10}
	long := strings.Repeat("x", 1<<20) // 1 MiB: over the line limit
	t.Run("jsonl line", func(t *testing.T) {
		p := write(t, "r.jsonl", []byte(`{"id":1}`+"\n"+`{"id":2,"text":"`+long+`"}`+"\n"+`{"id":3}`+"\n"))
		rows, errs := readErrs(t, openT(t, p, Options{Limits: lim}))
		if rows != 2 || len(errs) != 1 {
			t.Fatalf("rows %d, errors %v: want lines 1 and 3 read and one error", rows, errs)
		}
		wantLimit(t, errs[0], LimitLine, "r.jsonl", 2)
		if errs[0].Loc.Offset != 9 {
			t.Errorf("offset %d, want 9", errs[0].Loc.Offset)
		}
	})
	t.Run("jsonl cell", func(t *testing.T) {
		p := write(t, "r.jsonl", []byte(`{"id":1,"text":"`+long[:2000]+`"}`+"\n"))
		_, err := Open(p, "r.jsonl", Options{Limits: lim})
		wantLimit(t, err, LimitCell, "r.jsonl", 1)
	})
	t.Run("jsonl keys per object", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(`{"id":1}` + "\n{")
		for i := 0; i < 11; i++ {
			fmt.Fprintf(&b, `"k%d":1,`, i)
		}
		b.WriteString(`"z":1}` + "\n")
		rows, errs := readErrs(t, openT(t, write(t, "r.jsonl", []byte(b.String())), Options{Limits: lim}))
		if rows != 1 || len(errs) != 1 {
			t.Fatalf("rows %d, errors %v", rows, errs)
		}
		wantLimit(t, errs[0], LimitColumns, "r.jsonl", 2)
	})
	t.Run("jsonl distinct keys", func(t *testing.T) {
		var b strings.Builder
		for i := 0; i < 12; i++ {
			fmt.Fprintf(&b, `{"id":1,"k%d":1}`+"\n", i)
		}
		rows, errs := readErrs(t, openT(t, write(t, "r.jsonl", []byte(b.String())), Options{Limits: lim}))
		if rows != 9 || len(errs) != 3 {
			t.Fatalf("rows %d, errors %v: want 9 lines read (10 keys), 3 errors", rows, errs)
		}
		wantLimit(t, errs[0], LimitColumns, "r.jsonl", 10)
	})
	t.Run("csv record", func(t *testing.T) {
		// An unterminated quote makes the rest of the file one record.
		p := write(t, "q.csv", []byte("a,b\n1,\"2\n"+long+"\n"))
		_, errs := readErrs(t, openT(t, p, Options{Limits: lim}))
		if len(errs) != 1 || errs[0].Recoverable {
			t.Fatalf("errors %v, want one final error", errs)
		}
		wantLimit(t, errs[0], LimitLine, "q.csv", 2)
	})
	t.Run("csv cell", func(t *testing.T) {
		p := write(t, "q.csv", []byte("a,b\n1,"+long[:2000]+"\n2,3\n"))
		rows, errs := readErrs(t, openT(t, p, Options{Limits: Limits{CellBytes: 1024}}))
		if rows != 1 || len(errs) != 1 {
			t.Fatalf("rows %d, errors %v", rows, errs)
		}
		wantLimit(t, errs[0], LimitCell, "q.csv", 2)
		if errs[0].Loc.Column != "b" {
			t.Errorf("column %q, want b", errs[0].Loc.Column)
		}
	})
	t.Run("csv columns", func(t *testing.T) {
		p := write(t, "q.csv", []byte(strings.Repeat("c,", 20)+"c\n"))
		_, err := Open(p, "q.csv", Options{Limits: lim})
		wantLimit(t, err, LimitColumns, "q.csv", 1)
	})
}

// workbook returns an .xlsx with sheet "S" holding a header and n rows.
func workbook(t *testing.T, n int, cell string) []byte { return workbookF(t, n, cell) }

func workbookF(t testing.TB, n int, cell string) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	f.SetSheetName("Sheet1", "S")
	f.SetSheetRow("S", "A1", &[]any{"question_id", "model", "text"})
	for i := 0; i < n; i++ {
		c, _ := excelize.CoordinatesToCellName(1, i+2)
		f.SetSheetRow("S", c, &[]any{i + 1, "m", fmt.Sprintf("%s%d", cell, i)})
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// rezip copies a zip archive, passing every part through edit.
func rezip(t *testing.T, data []byte, edit func(name string, b []byte) []byte) []byte {
	return rezipF(t, data, edit)
}

func rezipF(t testing.TB, data []byte, edit func(name string, b []byte) []byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(edit(f.Name, b))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func TestXLSXBombsAndCutOffSheets(t *testing.T) {
	t.Run("ratio", func(t *testing.T) {
		// 1 cell of 40 MB of one letter: a ~40 KB file, ratio ~1000.
		data := rezip(t, workbook(t, 1, "x"), func(name string, b []byte) []byte {
			return bytes.Replace(b, []byte(">x0<"), append(append([]byte(">"), bytes.Repeat([]byte("x"), 40<<20)...), '<'), 1)
		})
		start := time.Now()
		_, err := Open(write(t, "b.xlsx", data), "b.xlsx", Options{})
		wantLimit(t, err, LimitXLSXRatio, "b.xlsx", 0)
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("rejecting the bomb took %v", d)
		}
	})
	t.Run("declared size", func(t *testing.T) {
		// A directory that declares 3 GB: rejected before inflating.
		var out bytes.Buffer
		zw := zip.NewWriter(&out)
		w, _ := zw.CreateRaw(&zip.FileHeader{Name: "xl/worksheets/sheet1.xml", Method: zip.Deflate,
			CompressedSize64: 3, UncompressedSize64: 3 << 30})
		w.Write([]byte{3, 0, 0})
		zw.Close()
		_, err := Open(write(t, "b.xlsx", out.Bytes()), "b.xlsx", Options{})
		wantLimit(t, err, LimitXLSXBytes, "b.xlsx", 0)
	})
	t.Run("absolute", func(t *testing.T) {
		data := workbook(t, 300, strings.Repeat("lorem ipsum ", 500))
		_, err := Open(write(t, "b.xlsx", data), "b.xlsx", Options{Limits: Limits{XLSXBytes: 1 << 20}})
		wantLimit(t, err, LimitXLSXBytes, "b.xlsx", 0)
	})
	t.Run("cell", func(t *testing.T) {
		data := workbook(t, 2, strings.Repeat("y", 5000))
		if len(data) > 1<<20 {
			t.Fatal("workbook too large for the test")
		}
		rows, errs := readErrs(t, openT(t, write(t, "c.xlsx", data), Options{Limits: Limits{CellBytes: 1024}}))
		if rows != 0 || len(errs) != 2 {
			t.Fatalf("rows %d, errors %v", rows, errs)
		}
		wantLimit(t, errs[0], LimitCell, "c.xlsx", 2)
		if errs[0].Loc.Column != "text" {
			t.Errorf("column %q, want text", errs[0].Loc.Column)
		}
	})
	t.Run("sheet cut off at a row boundary", func(t *testing.T) {
		// 60 rows; the sheet XML ends after row 19 (18 gradings):
		// excelize alone returns 18 rows and no error.
		data := rezip(t, workbook(t, 60, "t"), func(name string, b []byte) []byte {
			if name == "xl/worksheets/sheet1.xml" {
				i := bytes.Index(b, []byte(`<row r="20"`))
				if i < 0 {
					t.Fatal("no row 20")
				}
				return b[:i]
			}
			return b
		})
		_, err := Open(write(t, "g.xlsx", data), "g.xlsx", Options{})
		var te *Error
		if !errors.As(err, &te) || !errors.Is(err, errCutOff) || te.Loc.File != "g.xlsx" ||
			!strings.Contains(te.Error(), "xl/worksheets/sheet1.xml is cut off") {
			t.Fatalf("got %v, want a located cut-off error", err)
		}
	})
	t.Run("corrupt part", func(t *testing.T) {
		data := workbook(t, 5, "t")
		i := bytes.Index(data, []byte("xl/worksheets/sheet1.xml"))
		// Flip a byte inside the first part's compressed data (after its
		// local header) so that the checksum fails.
		zr, _ := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		off, _ := zr.File[0].DataOffset()
		bad := append([]byte(nil), data...)
		bad[off+2] ^= 0xff
		_ = i
		_, err := Open(write(t, "g.xlsx", bad), "g.xlsx", Options{})
		var te *Error
		if !errors.As(err, &te) || te.Loc.File != "g.xlsx" {
			t.Fatalf("got %v, want a located error", err)
		}
	})
	t.Run("intact workbook still reads", func(t *testing.T) {
		rows, errs := readErrs(t, openT(t, write(t, "ok.xlsx", workbook(t, 60, "t")), Options{}))
		if rows != 60 || len(errs) != 0 {
			t.Fatalf("rows %d, errors %v", rows, errs)
		}
	})
}

// TestXLSXFarRow reads a small workbook whose second row is the last row
// Excel allows, under a wide header: the million rows absent from the file
// cost time linear in their count and no memory per row.
func TestXLSXFarRow(t *testing.T) {
	f := excelize.NewFile()
	hdr := make([]any, 1500)
	for i := range hdr {
		hdr[i] = fmt.Sprintf("c%d", i)
	}
	f.SetSheetRow("Sheet1", "A1", &hdr)
	var b bytes.Buffer
	f.Write(&b)
	data := rezip(t, b.Bytes(), func(name string, x []byte) []byte {
		if name != "xl/worksheets/sheet1.xml" {
			return x
		}
		far := []byte(`<row r="1048576"><c r="A1048576" t="inlineStr"><is><t>x</t></is></c></row></sheetData>`)
		return bytes.Replace(x, []byte("</sheetData>"), far, 1)
	})
	start := time.Now()
	r := openT(t, write(t, "far.xlsx", data), Options{})
	rows, errs := readErrs(t, r)
	if rows != 1048575 || len(errs) != 0 {
		t.Fatalf("rows %d, errors %v; want 1,048,574 blank rows and one data row", rows, errs)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	t.Logf("%d-byte workbook, %d rows in %v", len(data), rows, time.Since(start))
}
