package ingest

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
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

// snapshot hashes every regular file of a study (links followed inside),
// so a test can check that the study's files are unchanged.
func snapshot(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return nil
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err == nil {
			out[p] = [32]byte(h.Sum(nil))
		}
		return nil
	})
	return out
}

// validateHostile validates dir with a deadline of 5 s (the bound
// for every hostile case), checks the study's files are unchanged and
// returns the result and error.
func validateHostile(t *testing.T, dir string) (*Result, error) {
	t.Helper()
	before := snapshot(t, dir)
	type out struct {
		res *Result
		err error
	}
	done := make(chan out, 1)
	start := time.Now()
	go func() {
		res, err := Validate(context.Background(), dir)
		done <- out{res, err}
	}()
	var o out
	select {
	case o = <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("validate still running after 5 s")
	}
	t.Logf("validate took %v", time.Since(start).Round(time.Millisecond))
	after := snapshot(t, dir)
	if len(after) != len(before) {
		t.Errorf("study files changed: %d files before, %d after", len(before), len(after))
	}
	for p, h := range before {
		if after[p] != h {
			t.Errorf("%s changed", p)
		}
	}
	return o.res, o.err
}

// wantProblem checks that err is a *ProblemsError with a problem at file
// whose text holds every part, and that no problem holds any of the
// forbidden strings.
func wantProblem(t *testing.T, err error, file string, parts ...string) {
	t.Helper()
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v (%T), want *ProblemsError", err, err)
	}
	for _, p := range pe.Problems {
		if p.Loc.File != file {
			continue
		}
		s := p.String()
		ok := true
		for _, part := range parts {
			if !strings.Contains(s, part) {
				ok = false
			}
		}
		if ok {
			return
		}
	}
	t.Fatalf("no problem at %s with %q in:\n%v", file, parts, err)
}

// wantWarning checks that a warning names the file and holds every part.
func wantWarning(t *testing.T, res *Result, file string, parts ...string) {
	t.Helper()
	for _, w := range res.Warnings {
		if !strings.HasPrefix(w, file+":") && !strings.HasPrefix(w, file+"/:") {
			continue
		}
		ok := true
		for _, part := range parts {
			if !strings.Contains(w, part) {
				ok = false
			}
		}
		if ok {
			return
		}
	}
	t.Fatalf("no warning on %s with %q in:\n%s", file, parts, strings.Join(res.Warnings, "\n"))
}

func TestSpecialFiles(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.csv")
	os.WriteFile(secret, []byte("question_id,domain,prompt\nSECRET-LINE-1,x,y\n"), 0o600)
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		file  string
		parts []string
	}{
		{"fifo", func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "grades/humans/main/carol.csv"), 0o600); err != nil {
				t.Skip("no named pipes:", err)
			}
		}, "grades/humans/main/carol.csv", []string{"named pipe", "a regular file"}},
		{"link to /dev/zero", func(t *testing.T, dir string) {
			os.Symlink("/dev/zero", filepath.Join(dir, "responses/zero.jsonl"))
		}, "responses/zero.jsonl", []string{"leads outside"}},
		{"link to a device inside", func(t *testing.T, dir string) {
			// A device reached through a link inside the folder is still no file.
			if err := syscall.Mknod(filepath.Join(dir, "dev"), syscall.S_IFCHR|0o600, 0x103); err != nil {
				t.Skip("cannot make a device node here:", err)
			}
		}, "dev", []string{"device"}},
		{"link leaving the study", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "questions.csv"))
			os.Symlink(secret, filepath.Join(dir, "questions.csv"))
		}, "questions.csv", []string{"leads outside", "not followed"}},
		{"broken link", func(t *testing.T, dir string) {
			os.Symlink("nowhere.csv", filepath.Join(dir, "evaluators.csv"))
		}, "evaluators.csv", []string{"leads nowhere"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyStudy(t, nil)
			tc.setup(t, dir)
			_, err := validateHostile(t, dir)
			wantProblem(t, err, tc.file, tc.parts...)
			if strings.Contains(err.Error(), "SECRET") {
				t.Errorf("the error shows the content of a file outside the study:\n%v", err)
			}
		})
	}
}

func TestLinksInsideAndCycles(t *testing.T) {
	dir := copyStudy(t, nil)
	// A link to a file inside is read; a folder link back up is a cycle.
	os.Rename(filepath.Join(dir, "gate.csv"), filepath.Join(dir, "gate-data.csv"))
	os.Symlink("gate-data.csv", filepath.Join(dir, "gate.csv"))
	os.Symlink("..", filepath.Join(dir, "grades/humans/loop"))
	res, err := validateHostile(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	wantWarning(t, res, "grades/humans/loop", "already read; skipped")
	read := false
	for _, f := range res.Files {
		read = read || f.Path == "gate.csv"
	}
	if !read {
		t.Errorf("gate.csv (a link inside the study) not read: %+v", res.Files)
	}
	wantWarning(t, res, "gate-data.csv", "not read")
}

func TestNothingSkippedInSilence(t *testing.T) {
	dir := copyStudy(t, map[string]string{
		"grades/humans/main/dave.xls":  "not really a workbook",
		"grades/humans/main/erin.tsv":  "evaluator\tquestion_id\tmodel\tDomain\tLocalization\tReasoning\tCommunication\tActionability\tC1\tC2\trank\nerin\tq1\tm1\t4\t4\t4\t4\t4\thit\thit\t1\nerin\tq1\tm2\t3\t3\t3\t3\t3\tmiss\tmiss\t2\n",
		"responses/extra.json":         `[{"question_id":"q1"}]`,
		"grades/frank.xlsx":            "x",
		"notes.txt":                    "hello",
		"questions.xls":                "x",
		"grades/humans/main/~$bob.csv": "lock",
	})
	res, err := validateHostile(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	wantWarning(t, res, "grades/humans/main/dave.xls", "save it as an Excel Workbook (.xlsx)")
	wantWarning(t, res, "responses/extra.json", "JSON Lines", ".jsonl")
	wantWarning(t, res, "grades/frank.xlsx", "grades/humans/", "move it there")
	wantWarning(t, res, "notes.txt", "not read")
	wantWarning(t, res, "questions.xls", "save it as an Excel Workbook")
	wantWarning(t, res, "grades/humans/main/~$bob.csv", "Excel lock file")
	tsv := false
	for _, f := range res.Files {
		tsv = tsv || (f.Path == "grades/humans/main/erin.tsv" && f.Rows == 2)
	}
	if !tsv {
		t.Errorf("erin.tsv not read as 2 rows: %+v", res.Files)
	}
}

// cutWorkbook writes a grading workbook of 60 gradings whose sheet XML is
// cut off at a row boundary after 18 of them.
func cutWorkbook(t *testing.T) []byte {
	f := excelize.NewFile()
	f.SetSheetRow("Sheet1", "A1", &[]any{"evaluator", "question_id", "model", "Domain", "Localization", "Reasoning", "Communication", "Actionability"})
	for i := 0; i < 60; i++ {
		c, _ := excelize.CoordinatesToCellName(1, i+2)
		f.SetSheetRow("Sheet1", c, &[]any{fmt.Sprintf("g%02d", i), "q1", "m1", 3, 3, 3, 3, 3})
	}
	var b bytes.Buffer
	f.Write(&b)
	zr, _ := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, zf := range zr.File {
		rc, _ := zf.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		if zf.Name == "xl/worksheets/sheet1.xml" {
			data = data[:bytes.Index(data, []byte(`<row r="20"`))]
		}
		w, _ := zw.Create(zf.Name)
		w.Write(data)
	}
	zw.Close()
	return out.Bytes()
}

func TestCorruptWorkbooks(t *testing.T) {
	t.Run("sheet cut off at a row boundary", func(t *testing.T) {
		dir := copyStudy(t, map[string]string{"grades/humans/main/cut.xlsx": string(cutWorkbook(t))})
		_, err := validateHostile(t, dir)
		wantProblem(t, err, "grades/humans/main/cut.xlsx", "xl/worksheets/sheet1.xml is cut off")
	})
	t.Run("zip bomb", func(t *testing.T) {
		var out bytes.Buffer
		zw := zip.NewWriter(&out)
		w, _ := zw.Create("xl/worksheets/sheet1.xml")
		w.Write(bytes.Repeat([]byte("<"), 50<<20)) // 50 MB in ~50 KB
		zw.Close()
		dir := copyStudy(t, map[string]string{"grades/humans/main/bomb.xlsx": out.String()})
		_, err := validateHostile(t, dir)
		wantProblem(t, err, "grades/humans/main/bomb.xlsx", "limit of 100×", "[limits] xlsx_ratio in study.toml")
	})
	t.Run("total unzipped size", func(t *testing.T) {
		f := excelize.NewFile()
		f.SetSheetRow("Sheet1", "A1", &[]any{"evaluator", "question_id", "model"})
		for i := 0; i < 2000; i++ {
			c, _ := excelize.CoordinatesToCellName(1, i+2)
			f.SetSheetRow("Sheet1", c, &[]any{fmt.Sprintf("%d %s", i, strings.Repeat("w", 300)), "q1", "m1"})
		}
		var b bytes.Buffer
		f.Write(&b)
		dir := copyStudy(t, map[string]string{
			"grades/judges/a.xlsx": b.String(), "grades/judges/b.xlsx": b.String(),
			"study.toml": "[limits]\ntotal_xlsx_bytes = 1048576\n",
		})
		_, err := validateHostile(t, dir)
		wantProblem(t, err, "grades/judges/b.xlsx", "[limits] total_xlsx_bytes in study.toml")
	})
}

func TestIDs(t *testing.T) {
	tests := []struct {
		name  string
		edits map[string]string
		file  string
		parts []string
	}{
		{"case differs from a listed evaluator", map[string]string{
			"evaluators.csv":               "evaluator\nalice\nbob\ngpt\n",
			"grades/humans/main/alice.csv": alice("ALICE,q1,m1,4,4,3,5,4,hit,partial,1,"),
		}, "grades/humans/main/alice.csv", []string{`"ALICE"`, `did you mean "alice"?`}},
		{"case differs between graders", map[string]string{
			// alice.csv is read first: its "Bob" is the name bob.csv's
			// "bob" is compared with.
			"grades/humans/main/alice.csv": alice("Bob,q1,m1,4,4,3,5,4,hit,partial,1,"),
		}, "grades/humans/main/bob.csv", []string{`"bob"`, `differs from "Bob" (at grades/humans/main/alice.csv, row 2)`, `did you mean "Bob"?`}},
		{"case differs from a question", map[string]string{
			"grades/humans/main/alice.csv": alice("alice,Q1,m1,4,4,3,5,4,hit,partial,1,"),
		}, "grades/humans/main/alice.csv", []string{`did you mean "q1"?`}},
		{"case differs from a model", map[string]string{
			"grades/humans/main/alice.csv": alice("alice,q1,M1,4,4,3,5,4,hit,partial,1,"),
		}, "grades/humans/main/alice.csv", []string{`did you mean "m1"?`}},
		{"zero-width space", map[string]string{
			"grades/humans/main/alice.csv": alice("ali\u200bce,q1,m1,4,4,3,5,4,hit,partial,1,"),
		}, "grades/humans/main/alice.csv", []string{"invisible characters", "U+200B"}},
		{"escape sequence", map[string]string{
			"models.csv": "model\nm1\nm2\nm\x1b]0;x\x07\n",
		}, "models.csv", []string{"control or invisible", "U+001B"}},
		{"two labels for one model", map[string]string{
			"blinding.csv": "question_id,label,model\nq1,A,m1\nq1,B,m2\nq1,C,m1\nq2,A,m1\nq2,B,m2\n",
		}, "blinding.csv", []string{`"C"`, "one label per model", "already has label A"}},
		{"main_round typo", map[string]string{
			"study.toml": "main_round = \"mian\"\n",
		}, "study.toml", []string{`main_round = \"mian\"`, `rounds found: "main"`}},
		{"text.filter names no tag", map[string]string{
			"study.toml": "[text]\nfilter = \"set=balanced\"\n",
		}, "study.toml", []string{"no column \"set\""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := validateHostile(t, copyStudy(t, tc.edits))
			wantProblem(t, err, tc.file, tc.parts...)
		})
	}
	t.Run("NFC and BOM", func(t *testing.T) {
		// "Finanz-é" decomposed (e + U+0301) in the questions file and
		// composed in the grading; a BOM opening a JSONL dump.
		dir := copyStudy(t, map[string]string{
			"questions.csv":              "question_id,domain,prompt\nq1,Finance,x\nqe\u0301,Legal,y\n",
			"checklist.csv":              "question_id,item,text\nq1,1,a\nq1,2,b\nq\u00e9,1,c\n",
			"responses/all.jsonl":        "\ufeff{\"question_id\":\"q\u00e9\",\"model\":\"m1\",\"text\":\"t\"}\n",
			"gate.csv":                   "-",
			"blinding.csv":               "-",
			"references.jsonl":           "-",
			"grades/judges/gpt.jsonl":    "-",
			"grades/humans/main/bob.csv": "-",
			"grades/humans/main/alice.csv": aliceHeader +
				"alice,q1,m1,4,4,3,5,4,hit,partial,1,\nalice,q1,m2,2,3,2,3,2,miss,na,2,x\nalice,q\u00e9,m1,4,4,3,5,4,hit,,1,\n",
		})
		res, err := validateHostile(t, dir)
		if err != nil {
			t.Fatal(err)
		}
		if res.Rows["responses"] != 1 || res.Rows["gradings"] != 3 {
			t.Errorf("rows %v, want 1 response and 3 gradings", res.Rows)
		}
	})
}

func TestLimitsInStudy(t *testing.T) {
	t.Run("100 MB response", func(t *testing.T) {
		dir := copyStudy(t, nil)
		f, err := os.OpenFile(filepath.Join(dir, "responses/all.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(`{"question_id":"q2","model":"m2","text":"`)
		chunk := bytes.Repeat([]byte("lorem ipsum "), 1<<16)
		for n := 0; n < 100<<20; n += len(chunk) {
			f.Write(chunk)
		}
		f.WriteString("\"}\n")
		f.Close()
		_, err = validateHostile(t, dir)
		wantProblem(t, err, "responses/all.jsonl", "line 5", "a response of up to 16777216 bytes", "[limits] response_bytes in study.toml")
	})
	t.Run("response over response_bytes", func(t *testing.T) {
		dir := copyStudy(t, map[string]string{"study.toml": "[limits]\nresponse_bytes = 1024\n"})
		f, _ := os.OpenFile(filepath.Join(dir, "responses/all.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(`{"question_id":"q2","model":"m2","text":"` + strings.Repeat("a", 5000) + "\"}\n")
		f.Close()
		_, err := validateHostile(t, dir)
		wantProblem(t, err, "responses/all.jsonl", "line 5", `column "text"`, "at most 1024 bytes, not 5000", "[limits] response_bytes")
	})
	t.Run("keys added line after line", func(t *testing.T) {
		// The quadratic case: 1.6 MB of lines that each add a key
		// (before: killed after 300 s at 4.2 GB).
		var b strings.Builder
		for i := 0; b.Len() < 1600<<10; i++ {
			fmt.Fprintf(&b, "{\"question_id\":\"q1\",\"model\":\"m1\",\"text\":\"t\",\"attempt\":%d,\"k%d\":1}\n", i+2, i)
		}
		dir := copyStudy(t, map[string]string{"responses/wide.jsonl": b.String()})
		_, err := validateHostile(t, dir)
		wantProblem(t, err, "responses/wide.jsonl", "limit of 2000", "[limits] columns in study.toml")
	})
	t.Run("workbook header over the columns limit", func(t *testing.T) {
		// Before: reported as a blank header row ("header_row = 1 … that
		// row is blank or past the end"), the limit never named.
		f := excelize.NewFile()
		hdr := []any{"evaluator", "question_id", "model"}
		for i := len(hdr); i < 2500; i++ {
			hdr = append(hdr, fmt.Sprintf("extra%d", i))
		}
		f.SetSheetRow("Sheet1", "A1", &hdr)
		f.SetSheetRow("Sheet1", "A2", &[]any{"zed", "q1", "m1"})
		var b bytes.Buffer
		f.Write(&b)
		dir := copyStudy(t, map[string]string{"grades/humans/main/wide.xlsx": b.String()})
		_, err := validateHostile(t, dir)
		wantProblem(t, err, "grades/humans/main/wide.xlsx", `sheet "Sheet1", row 1`, "header of 2500 columns", "limit of 2000", "[limits] columns in study.toml")
		var pe *ProblemsError
		if errors.As(err, &pe) {
			for _, p := range pe.Problems {
				if strings.Contains(p.String(), "blank") {
					t.Errorf("problem %q: the header is not blank", p.String())
				}
			}
		}
	})
	t.Run("files per study", func(t *testing.T) {
		edits := map[string]string{"study.toml": "[limits]\nfiles = 20\n"}
		for i := 0; i < 30; i++ {
			edits[fmt.Sprintf("junk/%02d.txt", i)] = "x"
		}
		_, err := validateHostile(t, copyStudy(t, edits))
		wantProblem(t, err, ".", "at most 20 files", "[limits] files in study.toml")
	})
	t.Run("bad setting is one error before any file is read", func(t *testing.T) {
		dir := copyStudy(t, map[string]string{"study.toml": "[rubric]\nmax = 2147483647\n"})
		syscall.Mkfifo(filepath.Join(dir, "grades/humans/main/pipe.csv"), 0o600)
		_, err := validateHostile(t, dir)
		if err == nil || strings.Count(err.Error(), "\n") != 1 || !strings.Contains(err.Error(), "rubric.max = 2147483647: expected a decimal from -1000000 to 1000000") {
			t.Fatalf("err = %v, want one settings error", err)
		}
	})
}

// TestMisnamedAttributeOnce checks that a typo in rubric.attributes is one
// problem per sheet and one for the setting, not one per grading.
func TestMisnamedAttributeOnce(t *testing.T) {
	dir := copyStudy(t, map[string]string{"study.toml": "[rubric]\nattributes = [\"Domain\", \"Localization\", \"Reasonning\", \"Communication\", \"Actionability\"]\n"})
	_, err := validateHostile(t, dir)
	wantProblem(t, err, "study.toml", `rubric.attributes: \"Reasonning\"`, "no sheet with rubric scores has this one")
	wantProblem(t, err, "grades/humans/main/alice.csv", "row 1", `a column for the rubric attribute "Reasonning"`)
	// one line per sheet (each with the header written nearly like it) and the setting
	if n := strings.Count(err.Error(), `rubric attribute "Reasonning"`); n != 2 || strings.Count(err.Error(), "\n") != 3 {
		t.Errorf("the attribute is named in %d sheet problems, want 2, and 3 problems in all:\n%v", n, err)
	}
	if n := strings.Count(err.Error(), `(did you mean "Reasoning" for Reasonning?)`); n != 2 {
		t.Errorf("%d hints naming the header \"Reasoning\", want 2:\n%v", n, err)
	}
}

// TestFarRowWorkbook validates a study with a grading workbook whose last
// row is row 1,048,576 under a wide header.
func TestFarRowWorkbook(t *testing.T) {
	f := excelize.NewFile()
	hdr := []any{"evaluator", "question_id", "model", "Domain", "Localization", "Reasoning", "Communication", "Actionability"}
	for i := len(hdr); i < 1500; i++ {
		hdr = append(hdr, fmt.Sprintf("tag%d", i))
	}
	f.SetSheetRow("Sheet1", "A1", &hdr)
	var b bytes.Buffer
	f.Write(&b)
	zr, _ := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, zf := range zr.File {
		rc, _ := zf.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		if zf.Name == "xl/worksheets/sheet1.xml" {
			data = bytes.Replace(data, []byte("</sheetData>"), []byte(`<row r="1048576"><c r="A1048576" t="inlineStr"><is><t>zed</t></is></c></row></sheetData>`), 1)
		}
		w, _ := zw.Create(zf.Name)
		w.Write(data)
	}
	zw.Close()
	dir := copyStudy(t, map[string]string{"grades/judges/far.xlsx": out.String()})
	_, err := validateHostile(t, dir)
	wantProblem(t, err, "grades/judges/far.xlsx", "row 1048576")
}
