package tabular

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// benchSize is the size of the generated benchmark files.
const benchSize = 50 << 20

// writeBench writes a ~50 MB file of grading rows (CSV) or response records
// (JSONL) and returns its path, size and data row count.
func writeBench(b *testing.B, ext string) (string, int64, int) {
	b.Helper()
	p := filepath.Join(b.TempDir(), "bench"+ext)
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	comment := strings.Repeat("Clear, well-argued answer; cites the directive correctly. ", 2)
	text := strings.Repeat("The employer must consult the works council before the change — § 87 BetrVG. ", 12)
	var n int64
	rows := 0
	if ext == ".csv" {
		k, _ := fmt.Fprintln(w, "evaluator,question_id,model,Domain,Localization,Reasoning,Communication,Actionability,C1,C2,C3,rank,comment")
		n += int64(k)
	}
	for n < benchSize {
		var k int
		if ext == ".csv" {
			k, _ = fmt.Fprintf(w, "expert%02d,%d,model-%d,%d,%d,%d,%d,%d,hit,partial,miss,%d,\"%s\"\n",
				rows%40, 1000+rows/7, rows%7, 1+rows%5, 1+rows%4, 3, 4, 5, 1+rows%7, comment)
		} else {
			k, _ = fmt.Fprintf(w, `{"question_id":%d,"model":"model-%d","text":"%s","cost_usd":0.0123,"input_tokens":%d,"output_tokens":512}`+"\n",
				1000+rows/7, rows%7, text, 900+rows%100)
		}
		n += int64(k)
		rows++
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return p, n, rows
}

func benchRead(b *testing.B, ext string) {
	p, size, want := writeBench(b, ext)
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Open(p, "bench"+ext, Options{})
		if err != nil {
			b.Fatal(err)
		}
		got := 0
		for {
			_, _, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			got++
		}
		if _, err := r.Digest(); err != nil {
			b.Fatal(err)
		}
		r.Close()
		if got != want {
			b.Fatalf("read %d rows, want %d", got, want)
		}
	}
	b.ReportMetric(float64(want)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkCSV reads a generated ~50 MB grading sheet (≈250 000 rows of 13
// columns), hashing it on the way.
func BenchmarkCSV(b *testing.B) { benchRead(b, ".csv") }

// BenchmarkJSONL reads a generated ~50 MB response dump (≈50 000 lines of
// ~1 KB), hashing it on the way.
func BenchmarkJSONL(b *testing.B) { benchRead(b, ".jsonl") }

// BenchmarkXLSX reads a generated workbook of 200 000 rows × 6 columns
// (ids, names, scores and a comment) written with excelize's StreamWriter.
func BenchmarkXLSX(b *testing.B) {
	const n = 200000
	f := excelize.NewFile()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		b.Fatal(err)
	}
	if err := sw.SetRow("A1", []any{"evaluator", "question_id", "model", "Reasoning", "C1", "comment"}); err != nil {
		b.Fatal(err)
	}
	for i := 2; i <= n+1; i++ {
		c, _ := excelize.CoordinatesToCellName(1, i)
		if err := sw.SetRow(c, []any{fmt.Sprintf("expert%02d", i%40), 1000 + i/7, fmt.Sprintf("model-%d", i%7), 1 + i%5, "hit", "Clear and correct."}); err != nil {
			b.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(b.TempDir(), "bench.xlsx")
	if err := f.SaveAs(p); err != nil {
		b.Fatal(err)
	}
	f.Close()
	st, _ := os.Stat(p)
	b.SetBytes(st.Size())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Open(p, "bench.xlsx", Options{})
		if err != nil {
			b.Fatal(err)
		}
		got := 0
		for {
			_, _, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			got++
		}
		r.Close()
		if got != n {
			b.Fatalf("read %d rows, want %d", got, n)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// wideLine returns one JSONL line of about size bytes holding keys
// distinct keys (their values padding the line to the size).
func wideLine(keys, size int) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	per := size/keys - 12
	val := strings.Repeat("v", max(per, 1))
	for i := 0; i < keys; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%07d":"%s"`, i, val)
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// BenchmarkJSONLWideLine reads a 10 MB line with 200,000 distinct keys and
// a line of the same size with 10 keys, in the same run, and reports the
// ratio of their times (issue 18: at most 3, i.e. linear in the input
// whatever the number of keys).
func BenchmarkJSONLWideLine(b *testing.B) {
	dir := b.TempDir()
	wide, narrow := filepath.Join(dir, "wide.jsonl"), filepath.Join(dir, "narrow.jsonl")
	w, n := wideLine(200_000, 10<<20), wideLine(10, 10<<20)
	if err := os.WriteFile(wide, w, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(narrow, n, 0o644); err != nil {
		b.Fatal(err)
	}
	opt := Options{Limits: Limits{Columns: 1 << 20, CellBytes: 32 << 20, LineBytes: 32 << 20}}
	read := func(p string, keys int) time.Duration {
		start := time.Now()
		r, err := Open(p, filepath.Base(p), opt)
		if err != nil {
			b.Fatal(err)
		}
		defer r.Close()
		row, _, err := r.Next()
		if err != nil || len(row) != keys || len(r.Sheet().Header) != keys {
			b.Fatalf("%s: %d cells, %v", p, len(row), err)
		}
		return time.Since(start)
	}
	// The ratio compares the fastest of several reads of each file (three
	// before the timed loop, then one per iteration), so that a busy
	// machine's noise does not decide it.
	minW, minN := time.Duration(1<<62), time.Duration(1<<62)
	pair := func() (time.Duration, time.Duration) {
		n, w := read(narrow, 10), read(wide, 200_000)
		minN, minW = min(minN, n), min(minW, w)
		return w, n
	}
	for range 3 {
		pair()
	}
	b.ResetTimer()
	var tw, tn time.Duration
	for i := 0; i < b.N; i++ {
		w, n := pair()
		tw += w
		tn += n
	}
	b.ReportMetric(float64(len(w))/1e6, "MB_wide")
	b.ReportMetric(tw.Seconds()/float64(b.N), "s_wide/op")
	b.ReportMetric(tn.Seconds()/float64(b.N), "s_narrow/op")
	ratio := minW.Seconds() / minN.Seconds()
	b.ReportMetric(ratio, "ratio")
	if ratio > 3 {
		b.Errorf("200,000 keys took %.1f× the time of 10 keys on the same 10 MB, want ≤ 3", ratio)
	}
}
