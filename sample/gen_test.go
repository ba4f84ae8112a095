package sample

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

var update = flag.Bool("update", false, "regenerate sample/study (and the SummEval fixture)")

// listFiles returns the regular files under dir, relative, slash-separated, sorted.
func listFiles(t *testing.T, fsys fs.FS) []string {
	t.Helper()
	var out []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk: %v", err)
	}
	slices.Sort(out)
	return out
}

// xlsxCells renders every sheet of a workbook as text: sheet names in order,
// then per cell its reference, type and value, so that two workbooks with the
// same cells (and cell types) render the same whatever their zip layout.
func xlsxCells(t *testing.T, b []byte) string {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("open xlsx: %v", err)
	}
	defer f.Close()
	var sb strings.Builder
	for _, sh := range f.GetSheetList() {
		fmt.Fprintf(&sb, "sheet %q\n", sh)
		rows, err := f.GetRows(sh)
		if err != nil {
			t.Fatalf("rows of %s: %v", sh, err)
		}
		for r, row := range rows {
			for c, v := range row {
				if v == "" {
					continue
				}
				cell, _ := excelize.CoordinatesToCellName(c+1, r+1)
				typ, err := f.GetCellType(sh, cell)
				if err != nil {
					t.Fatalf("cell type %s!%s: %v", sh, cell, err)
				}
				fmt.Fprintf(&sb, "%s %d %q\n", cell, typ, v)
			}
		}
	}
	return sb.String()
}

// zipParts returns the parts of a zip archive by name.
func zipParts(t *testing.T, b []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("zip: %v", err)
	}
	out := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatalf("zip %s: %v", f.Name, err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("zip %s: %v", f.Name, err)
		}
		out[f.Name] = string(data)
	}
	return out
}

// compareStudies fails when the two study folders differ: same file list,
// byte-equal files except .xlsx, which must have equal cells (strict: equal
// zip parts).
func compareStudies(t *testing.T, got, want fs.FS, strictXLSX bool) {
	t.Helper()
	gf, wf := listFiles(t, got), listFiles(t, want)
	if !slices.Equal(gf, wf) {
		t.Fatalf("file lists differ:\n got %v\nwant %v", gf, wf)
	}
	for _, p := range gf {
		g, err := fs.ReadFile(got, p)
		if err != nil {
			t.Fatal(err)
		}
		w, err := fs.ReadFile(want, p)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(p, ".xlsx") && strictXLSX:
			gp, wp := zipParts(t, g), zipParts(t, w)
			if len(gp) != len(wp) {
				t.Errorf("%s: %d zip parts, want %d", p, len(gp), len(wp))
			}
			for name, data := range wp {
				if gp[name] != data {
					t.Errorf("%s: part %s differs", p, name)
				}
			}
		case strings.HasSuffix(p, ".xlsx"):
			if gc, wc := xlsxCells(t, g), xlsxCells(t, w); gc != wc {
				t.Errorf("%s: cells differ (run go test ./sample -run TestSample -update to regenerate)", p)
			}
		case !bytes.Equal(g, w):
			t.Errorf("%s differs (run go test ./sample -run TestSample -update to regenerate)", p)
		}
	}
}

// TestSample checks that the committed sample/study is what
// Write(DefaultOptions()) produces today, and that Sample() serves it.
func TestSample(t *testing.T) {
	if *update {
		if err := os.RemoveAll("study"); err != nil {
			t.Fatal(err)
		}
		if _, err := Write("study", DefaultOptions()); err != nil {
			t.Fatal(err)
		}
		t.Log("regenerated sample/study; rebuild to embed it")
	}
	dir := t.TempDir()
	if _, err := Write(dir, DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	compareStudies(t, os.DirFS(dir), os.DirFS("study"), false)
	if !*update {
		compareStudies(t, Sample(), os.DirFS("study"), true)
	}
	var size int64
	for _, p := range listFiles(t, os.DirFS("study")) {
		st, err := os.Stat(filepath.Join("study", p))
		if err != nil {
			t.Fatal(err)
		}
		size += st.Size()
	}
	if size >= 2<<20 {
		t.Errorf("sample is %d bytes, want < 2 MiB", size)
	}
}

// TestDeterminism writes the same options twice (and a different seed once):
// same seed → identical files (xlsx: identical zip parts), other seed → different.
func TestDeterminism(t *testing.T) {
	opts := []Options{DefaultOptions(), {Questions: 25, Models: 3, Evaluators: 4, Judges: 1,
		ReferenceShare: 0.2, ResponseChars: 300, Seed: 7, Criteria: true}}
	for i, opt := range opts {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			a, b := t.TempDir(), t.TempDir()
			if _, err := Write(a, opt); err != nil {
				t.Fatal(err)
			}
			if _, err := Write(b, opt); err != nil {
				t.Fatal(err)
			}
			compareStudies(t, os.DirFS(a), os.DirFS(b), true)
			opt.Seed++
			c := t.TempDir()
			if _, err := Write(c, opt); err != nil {
				t.Fatal(err)
			}
			ga, _ := os.ReadFile(filepath.Join(a, "questions.csv"))
			gc, _ := os.ReadFile(filepath.Join(c, "questions.csv"))
			if bytes.Equal(ga, gc) {
				t.Errorf("seed %d and %d give the same questions.csv", opt.Seed-1, opt.Seed)
			}
		})
	}
}

func TestOptionsValidate(t *testing.T) {
	bad := []func(*Options){
		func(o *Options) { o.Questions = 0 },
		func(o *Options) { o.Models = 1 },
		func(o *Options) { o.Models = 61 },
		func(o *Options) { o.Evaluators = 2 },
		func(o *Options) { o.Judges = -1 },
		func(o *Options) { o.ReferenceShare = 1.5 },
		func(o *Options) { o.ReferenceShare = math.NaN() },
		func(o *Options) { o.ResponseChars = 10 },
		func(o *Options) { o.Evaluators = 0 }, // judge-only with the default reference share
		func(o *Options) { o.Evaluators, o.ReferenceShare, o.Judges = 0, 0, 0 },
	}
	for i, mod := range bad {
		o := DefaultOptions()
		mod(&o)
		if _, err := Write(t.TempDir(), o); err == nil {
			t.Errorf("case %d: Write(%+v) = nil error, want an error", i, o)
		}
		if err := Walk(o, func(Record) error { return nil }); err == nil {
			t.Errorf("case %d: Walk(%+v) = nil error, want an error", i, o)
		}
	}
}

// readJSONL parses a JSONL file into objects (line i+1 = element i).
func readJSONL(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	br := bufio.NewReader(f)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			var m map[string]any
			if jerr := json.Unmarshal(line, &m); jerr != nil {
				t.Fatalf("%s line %d: %v", path, len(out)+1, jerr)
			}
			out = append(out, m)
		}
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// canonical maps a verdict as written to hit|partial|miss|na (docs/FORMAT.md, verdict words).
func canonical(v string) string {
	switch strings.ToLower(v) {
	case "hit", "yes", "1":
		return "hit"
	case "partial":
		return "partial"
	case "miss", "no", "0":
		return "miss"
	case "na":
		return "na"
	}
	return "?" + v
}

// TestWalkMatchesFiles reads back what Write wrote, through excelize and
// encoding/json rather than the generator, and checks that every Walk record
// is found at its File/Sheet/Row with the same values.
func TestWalkMatchesFiles(t *testing.T) {
	opt := DefaultOptions()
	opt.Criteria = true
	checkWalkMatchesFiles(t, opt, true)
	// Above XLSXQuestionLimit the human gradings are CSV files.
	big := Options{Questions: XLSXQuestionLimit + 1, Models: 3, Evaluators: 5, Judges: 1,
		ReferenceShare: 0.01, ResponseChars: 100, Seed: 3}
	checkWalkMatchesFiles(t, big, false)
	// Judge-only (no human graders, no references), every judge run once.
	judgeOnly := Options{Questions: 40, Models: 4, Evaluators: 0, Judges: 2, SingleRun: true,
		ResponseChars: 100, Seed: 5}
	checkWalkMatchesFiles(t, judgeOnly, false)
}

func checkWalkMatchesFiles(t *testing.T, opt Options, defaults bool) {
	t.Helper()
	dir := t.TempDir()
	sum, err := Write(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	books := map[string]*excelize.File{}
	defer func() {
		for _, f := range books {
			f.Close()
		}
	}()
	rowsOf := map[string][][]string{}
	sheetRows := func(file, sheet string) [][]string {
		k := file + "!" + sheet
		if r, ok := rowsOf[k]; ok {
			return r
		}
		if strings.HasSuffix(file, ".csv") {
			if !strings.HasPrefix(file, "grades/humans/") || opt.Questions <= XLSXQuestionLimit {
				t.Fatalf("%s: human gradings as CSV with %d questions", file, opt.Questions)
			}
			fh, err := os.Open(filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			r, err := csv.NewReader(fh).ReadAll()
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			rowsOf[k] = r
			return r
		}
		f, ok := books[file]
		if !ok {
			f, err = excelize.OpenFile(filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			books[file] = f
		}
		r, err := f.GetRows(sheet)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		rowsOf[k] = r
		return r
	}
	jsonl := map[string][]map[string]any{}
	lines := func(file string) []map[string]any {
		if l, ok := jsonl[file]; ok {
			return l
		}
		jsonl[file] = readJSONL(t, filepath.Join(dir, file))
		return jsonl[file]
	}
	blind := map[[2]string]string{}
	{
		b, _ := os.ReadFile(filepath.Join(dir, "blinding.csv"))
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
			p := strings.Split(l, ",")
			blind[[2]string{p[0], p[1]}] = p[2]
		}
	}
	counts := map[RecordKind]int{}
	nan, na, three := 0, 0, 0
	graders := map[string]map[string]bool{}
	err = Walk(opt, func(r Record) error {
		counts[r.Kind]++
		switch r.Kind {
		case KindResponse:
			var got string
			for _, m := range lines(r.File) {
				if m["question_id"] == r.QuestionID {
					got = m["text"].(string) // the last attempt wins
				}
				// OpenAI Batch API output: custom_id "<question>::<model>";
				// the answer is the first choice's content, failures have none.
				if m["custom_id"] == r.QuestionID+"::"+r.Model && m["response"] != nil {
					body := m["response"].(map[string]any)["body"].(map[string]any)
					got = body["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["content"].(string)
				}
			}
			if got != r.Text {
				t.Errorf("%s q%s: text differs from the dump", r.Model, r.QuestionID)
			}
		case KindGrading:
			if r.Round == MainRound && r.EvaluatorKind == "human" {
				if graders[r.QuestionID] == nil {
					graders[r.QuestionID] = map[string]bool{}
				}
				graders[r.QuestionID][r.Evaluator] = true
			}
			for _, v := range r.Verdicts {
				if v == "na" {
					na++
				}
			}
			if strings.HasSuffix(r.File, ".jsonl") {
				m := lines(r.File)[r.Row-1]
				if m["question_id"] != r.QuestionID || m["model"] != r.Model || m["evaluator"] != r.Evaluator {
					t.Errorf("%s row %d: got %v, want %s/%s/%s", r.File, r.Row, m, r.Evaluator, r.QuestionID, r.Model)
				}
				for a, name := range Attributes {
					x, ok := m[name].(float64)
					if !ok {
						x = math.NaN()
						nan++
					}
					if !(x == r.Scores[a] || math.IsNaN(x) && math.IsNaN(r.Scores[a])) {
						t.Errorf("%s row %d %s: got %v, want %v", r.File, r.Row, name, m[name], r.Scores[a])
					}
				}
				for i, v := range r.Verdicts {
					if got := m["C"+strconv.Itoa(i+1)]; got != v {
						t.Errorf("%s row %d C%d: got %v, want %s", r.File, r.Row, i+1, got, v)
					}
				}
				if got, _ := m["run"].(float64); int(got) != r.Run {
					t.Errorf("%s row %d run: got %v, want %d", r.File, r.Row, m["run"], r.Run)
				}
				if got, _ := m["rank"].(float64); int(got) != r.Rank {
					t.Errorf("%s row %d rank: got %v, want %d", r.File, r.Row, m["rank"], r.Rank)
				}
				return nil
			}
			rows := sheetRows(r.File, r.Sheet)
			if rows[0][3] == "instrument" { // long form
				for k, name := range Attributes {
					row := rows[r.Row-1+k]
					if row[1] != r.QuestionID || row[2] != r.Model || row[3] != "rubric" || row[4] != name || row[5] != ftoa(r.Scores[k]) {
						t.Errorf("%s row %d: got %q, want rubric %s = %v", r.File, r.Row+k, row, name, r.Scores[k])
					}
				}
				for i, v := range r.Verdicts {
					row := rows[r.Row-1+len(Attributes)+i]
					if row[3] != "checklist" || row[4] != strconv.Itoa(i+1) || canonical(row[5]) != v {
						t.Errorf("%s row %d: got %q, want item %d = %s", r.File, r.Row+len(Attributes)+i, row, i+1, v)
					}
				}
				row := rows[r.Row-1+len(Attributes)+len(r.Verdicts)]
				if row[3] != "rank" || row[5] != strconv.Itoa(r.Rank) {
					t.Errorf("%s row: got %q, want rank %d", r.File, row, r.Rank)
				}
				return nil
			}
			row := rows[r.Row-1]
			for len(row) < 18 {
				row = append(row, "")
			}
			model := row[2]
			if rows[0][2] == "label" {
				model = blind[[2]string{row[1], row[2]}]
			}
			if row[0] != r.Evaluator || row[1] != r.QuestionID || model != r.Model {
				t.Errorf("%s!%s row %d: got %q, want %s/%s/%s", r.File, r.Sheet, r.Row, row[:3], r.Evaluator, r.QuestionID, r.Model)
			}
			for a := range Attributes {
				if row[3+a] != ftoa(r.Scores[a]) {
					t.Errorf("%s!%s row %d attribute %d: got %q, want %v", r.File, r.Sheet, r.Row, a, row[3+a], r.Scores[a])
				}
			}
			for i := range maxItems {
				want := ""
				if i < len(r.Verdicts) {
					want = r.Verdicts[i]
				}
				if got := row[8+i]; (got == "" && want != "") || (got != "" && canonical(got) != want) {
					t.Errorf("%s!%s row %d C%d: got %q, want %q", r.File, r.Sheet, r.Row, i+1, got, want)
				}
			}
			if row[16] != strconv.Itoa(r.Rank) || row[17] != r.Comment {
				t.Errorf("%s!%s row %d: rank/comment %q %q, want %d %q", r.File, r.Sheet, r.Row, row[16], row[17], r.Rank, r.Comment)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !defaults {
		if counts[KindGrading] == 0 || counts[KindResponse] == 0 {
			t.Errorf("no gradings or responses walked: %v", counts)
		}
		return
	}
	for _, g := range graders {
		if len(g) == 3 {
			three++
		} else if len(g) != 2 {
			t.Errorf("a question has %d main-round human graders, want 2 or 3", len(g))
		}
	}
	// Hand-derived expectations for the default options: 60 questions; qi%10 == 7
	// has 3 graders (6 questions); ReferenceShare 0.1 → 6 reference questions;
	// 60·6 − 1 skipped response; judge 1 (3 runs) + judge 2 → 4·360 judge rows;
	// missing judge scores at qi ∈ {3, 32} (qi % 29 == 3).
	checks := []struct {
		name      string
		got, want int
	}{
		{"questions", counts[KindQuestion], 60},
		{"responses", counts[KindResponse], 359},
		{"summary responses", sum.Responses, 359},
		{"skipped", sum.SkippedResponses, 1},
		{"three-grader questions", three, 6},
		{"reference questions", sum.ReferenceQuestions, 6},
		{"judge gradings", sum.JudgeGradings, 4 * 360},
		{"missing judge scores", nan, 2},
		{"summary missing judge scores", sum.MissingJudgeScores, 2},
		{"human gradings", sum.HumanGradings, (54*2+6*3)*6 + 6*2*7},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, c.got, c.want)
		}
	}
	if na == 0 {
		t.Errorf("no na verdicts, want a few")
	}
}

// BenchmarkWrite40000 writes a 40,000-question study (CSV gradings, see
// XLSXQuestionLimit). Measure its peak memory from outside:
//
//	/usr/bin/time -v go test ./sample -run X -bench Write40000 -benchtime 1x
func BenchmarkWrite40000(b *testing.B) {
	opt := DefaultOptions()
	opt.Questions = 40000
	for b.Loop() {
		dir := b.TempDir()
		if _, err := Write(dir, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// TestJudgeOnly writes a judge-only study with single judge runs and checks,
// by reading the files back, that it has no human side at all and exactly
// questions × models × judges judge gradings, none with a run.
func TestJudgeOnly(t *testing.T) {
	opt := DefaultOptions()
	opt.Questions, opt.Evaluators, opt.ReferenceShare, opt.Judges, opt.SingleRun = 30, 0, 0, 2, true
	opt.ResponseChars = 100
	dir := t.TempDir()
	sum, err := Write(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	if sum.HumanGradings != 0 || sum.References != 0 || sum.HumanEvaluators != 0 {
		t.Errorf("summary %+v, want no human gradings, references or evaluators", sum)
	}
	if want := 30 * 6 * 2; sum.JudgeGradings != want {
		t.Errorf("judge gradings = %d, want %d", sum.JudgeGradings, want)
	}
	for _, f := range sum.Files {
		if strings.HasPrefix(f, "grades/humans/") || f == "references.jsonl" {
			t.Errorf("judge-only study wrote %s", f)
		}
	}
	lines := 0
	for _, j := range []string{"arbiter-large", "critic-mini"} {
		for i, m := range readJSONL(t, filepath.Join(dir, "grades", "judges", j+".jsonl")) {
			if _, ok := m["run"]; ok {
				t.Errorf("%s line %d has a run with SingleRun", j, i+1)
			}
			lines++
		}
	}
	if lines != 30*6*2 {
		t.Errorf("judge files hold %d lines, want %d", lines, 30*6*2)
	}
	ev, err := os.ReadFile(filepath.Join(dir, "evaluators.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(ev), "evaluator,domain\narbiter-large,\ncritic-mini,\n"; got != want {
		t.Errorf("evaluators.csv = %q, want %q", got, want)
	}
	toml, err := os.ReadFile(filepath.Join(dir, "study.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"main_round", "human_label"} {
		if strings.Contains(string(toml), key) {
			t.Errorf("judge-only study.toml sets %s (no human rounds or references):\n%s", key, toml)
		}
	}
	humans := 0
	if err := Walk(opt, func(r Record) error {
		if r.EvaluatorKind == "human" || r.Kind == KindReference || r.Run != 0 {
			humans++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if humans != 0 {
		t.Errorf("Walk yields %d human, reference or run records, want 0", humans)
	}

	// SingleRun with humans: the first judge loses its three runs only.
	opt = DefaultOptions()
	opt.Questions, opt.SingleRun = 10, true
	sum, err = Write(t.TempDir(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if want := 10 * 6 * 2; sum.JudgeGradings != want {
		t.Errorf("SingleRun with humans: judge gradings = %d, want %d", sum.JudgeGradings, want)
	}
	if sum.HumanGradings == 0 {
		t.Error("SingleRun with humans wrote no human gradings")
	}
}
