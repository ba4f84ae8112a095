package ingest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// rewriteParts returns a grading workbook (one row by zed) whose part
// name is replaced by what write writes (added when it has none), plus
// pad bytes of incompressible data stored in xl/media/pad.bin.
func rewriteParts(t *testing.T, name string, write func(w io.Writer), pad int) []byte {
	t.Helper()
	f := excelize.NewFile()
	f.SetSheetRow("Sheet1", "A1", &[]any{"evaluator", "question_id", "model", "Domain", "Localization", "Reasoning", "Communication", "Actionability", "C1", "C2"})
	f.SetSheetRow("Sheet1", "A2", &[]any{"zed", "q1", "m1", 3, 3, 3, 3, 3, "hit", "hit"})
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, zf := range zr.File {
		if zf.Name == name {
			continue
		}
		rc, _ := zf.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		w, _ := zw.Create(zf.Name)
		w.Write(data)
	}
	w, _ := zw.Create(name)
	write(w)
	if pad > 0 {
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: "xl/media/pad.bin", Method: zip.Store})
		r := rand.New(rand.NewPCG(1, 2))
		buf := make([]byte, 8)
		for n := 0; n < pad; n += 8 {
			v := r.Uint64()
			for i := range buf {
				buf[i] = byte(v >> (8 * i))
			}
			w.Write(buf)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// stylesOf writes a style sheet of n cell formats.
func stylesOf(n int) func(io.Writer) {
	return func(w io.Writer) {
		io.WriteString(w, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`+"\n"+
			`<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font><sz val="11"/></font></fonts>`+
			`<fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders>`)
		fmt.Fprintf(w, `<cellXfs count="%d">`, n)
		xf := strings.Repeat(`<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>`, 1000)
		for i := 0; i < n; i += 1000 {
			io.WriteString(w, xf)
		}
		io.WriteString(w, `</cellXfs></styleSheet>`)
	}
}

// stringsOf writes shared strings: n si elements, every other one with a
// namespace prefix.
func stringsOf(n int) func(io.Writer) {
	return func(w io.Writer) {
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`+"\n"+
			`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="%d" uniqueCount="%d">`, n, n)
		for i := 0; i < n; i++ {
			if i%2 == 0 {
				fmt.Fprintf(w, "<si><t>s%d</t></si>", i)
			} else {
				fmt.Fprintf(w, "<x:si>\n<x:t xml:space=\"preserve\">s%d &lt;si&gt;</x:t></x:si>", i)
			}
		}
		io.WriteString(w, `</sst>`)
	}
}

// TestWorkbookParts checks the limits on the parts excelize parses whole:
// the 4 MB workbook with 179 MiB of styles (within xlsx_bytes and
// xlsx_ratio) is refused before anything is inflated, in bounded memory,
// and the shared strings are bounded in size and count.
func TestWorkbookParts(t *testing.T) {
	const file = "grades/humans/main/styled.xlsx"
	tests := []struct {
		name     string
		book     func(t *testing.T) []byte
		settings string
		want     []string
	}{
		{"179 MiB of styles", func(t *testing.T) []byte {
			return rewriteParts(t, "xl/styles.xml", stylesOf(3_000_000), 4<<20)
		}, "", []string{"xl/styles.xml that unzips to", "more than the limit of 16777216", "[limits] xlsx_styles_bytes in study.toml"}},
		{"styles over a lower limit", func(t *testing.T) []byte {
			return rewriteParts(t, "xl/styles.xml", stylesOf(2000), 0)
		}, "[limits]\nxlsx_styles_bytes = 65536\n", []string{"xl/styles.xml that unzips to", "more than the limit of 65536", "[limits] xlsx_styles_bytes"}},
		{"shared strings over the size limit", func(t *testing.T) []byte {
			return rewriteParts(t, "xl/sharedStrings.xml", stringsOf(5000), 0)
		}, "[limits]\nxlsx_strings_bytes = 65536\n", []string{"xl/sharedStrings.xml that unzips to", "more than the limit of 65536", "[limits] xlsx_strings_bytes"}},
		{"shared strings over the count limit", func(t *testing.T) []byte {
			return rewriteParts(t, "xl/sharedStrings.xml", stringsOf(1001), 0)
		}, "[limits]\nxlsx_strings = 1000\n", []string{"workbook of 1001 shared strings", "more than the limit of 1000", "[limits] xlsx_strings in study.toml"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			book := tc.book(t)
			t.Logf("workbook of %d bytes", len(book))
			edits := map[string]string{file: string(book)}
			if tc.settings != "" {
				edits["study.toml"] = tc.settings
			}
			dir := copyStudy(t, edits)
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := validateHostile(t, dir)
			runtime.ReadMemStats(&after)
			wantProblem(t, err, file, tc.want...)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 300<<20 {
				t.Errorf("validate allocated %d MiB, want under 300", alloc>>20)
			}
		})
	}
	t.Run("shared strings at the count limit", func(t *testing.T) {
		dir := copyStudy(t, map[string]string{file: string(rewriteParts(t, "xl/sharedStrings.xml", stringsOf(1000), 0)), "study.toml": "[limits]\nxlsx_strings = 1000\n"})
		_, err := validateHostile(t, dir)
		if err != nil && strings.Contains(err.Error(), "shared strings") {
			t.Fatalf("validate: %v", err)
		}
	})
}
