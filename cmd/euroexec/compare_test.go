package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/metrics/compare"
	"github.com/euroexec/euroexec/metrics/scores"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/tables"
	"github.com/euroexec/euroexec/sample"
	"github.com/euroexec/euroexec/study"
)

// compareFixture writes the bundled sample's report (OLD, a report folder)
// and a smaller sample (NEW, a study folder: 50 of the 60 questions, 5 of
// the 6 models) once per test binary.
var compareFixture struct {
	dir, report, study string
}

func fixture(t *testing.T) (dir, rep, study string) {
	t.Helper()
	if compareFixture.dir != "" {
		return compareFixture.dir, compareFixture.report, compareFixture.study
	}
	dir, err := os.MkdirTemp("", "euroexec-compare-test-*")
	if err != nil {
		t.Fatal(err)
	}
	rep = filepath.Join(dir, "round1")
	var stdout, stderr bytes.Buffer
	if _, err := runStudy(context.Background(), &stdout, &stderr, "", runOptions{out: rep, quiet: true, now: fixedNow}); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	study = filepath.Join(dir, "round2")
	opt := sample.DefaultOptions()
	opt.Questions, opt.Models = 50, 5 // ten questions and one model fewer; a few responses keep their text
	if _, err := sample.Write(study, opt); err != nil {
		t.Fatal(err)
	}
	compareFixture.dir, compareFixture.report, compareFixture.study = dir, rep, study
	return dir, rep, study
}

// cleanupCompareFixture removes the shared compare fixture; TestMain (in
// signal_test.go) calls it after the tests.
func cleanupCompareFixture() {
	if compareFixture.dir != "" {
		os.RemoveAll(compareFixture.dir)
	}
}

func readCompareCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// TestCompareGolden compares the sample's report folder with a study folder
// of a second sample (ingested on the fly) and checks every table against
// testdata/golden/compare; -update rewrites them after a reviewed change.
func TestCompareGolden(t *testing.T) {
	dir, rep, study := fixture(t)
	out := filepath.Join(dir, "cmp")
	dbBefore, _ := os.ReadFile(filepath.Join(rep, "study.duckdb"))
	var stdout, stderr bytes.Buffer
	err := runCompare(context.Background(), &stdout, &stderr, []string{rep, study},
		compareOptions{out: out, bootstrap: 200, seed: -1, maps: []string{"ember-3.1=ember-3.2"}, now: fixedNow})
	if err != nil {
		t.Fatalf("compare: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "changes significant (Holm across the table)") || !strings.Contains(stdout.String(), "comparison written to") {
		t.Errorf("stdout = %q", stdout.String())
	}
	golden := filepath.Join("testdata", "golden", "compare")
	got, _ := filepath.Glob(filepath.Join(out, "tables", "*.csv"))
	if *update {
		os.RemoveAll(golden)
		os.MkdirAll(golden, 0o755)
	}
	for _, p := range got {
		b, _ := os.ReadFile(p)
		gp := filepath.Join(golden, filepath.Base(p))
		if *update {
			os.WriteFile(gp, b, 0o644)
			continue
		}
		want, err := os.ReadFile(gp)
		if err != nil {
			t.Errorf("%s: no golden file (run go test -update after checking it)", filepath.Base(p))
			continue
		}
		if !bytes.Equal(b, want) {
			t.Errorf("%s differs from %s", filepath.Base(p), gp)
		}
	}
	wantNames, _ := filepath.Glob(filepath.Join(golden, "*.csv"))
	if !*update && len(wantNames) != len(got) {
		t.Errorf("wrote %d tables, golden has %d", len(got), len(wantNames))
	}
	for _, f := range []string{"report.xlsx", "site/index.html", "site/compare.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("output %s missing: %v", f, err)
		}
	}
	// Questions link to OLD's question pages (a report folder), not NEW's (a
	// study folder); the link resolves from the comparison's site.
	q := readCompareCSV(t, filepath.Join(out, "tables", "compare_questions.csv"))
	if q[0][10] != "old_page" || q[1][10] == "" || q[1][11] != "" {
		t.Fatalf("compare_questions links: header %v, first row %v", q[0], q[1])
	}
	if _, err := os.Stat(filepath.Join(out, "site", filepath.FromSlash(q[1][10]))); err != nil {
		t.Errorf("link %s does not resolve: %v", q[1][10], err)
	}
	page, _ := os.ReadFile(filepath.Join(out, "site", "compare.html"))
	for _, want := range []string{"compare_models", "judge_drift", "compare_questions", "compare_rankings"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("site/compare.html lacks %s", want)
		}
	}
	// Inputs are read-only: OLD's database is byte for byte unchanged.
	if dbAfter, _ := os.ReadFile(filepath.Join(rep, "study.duckdb")); len(dbBefore) == 0 || !bytes.Equal(dbBefore, dbAfter) {
		t.Error("compare changed OLD's study.duckdb")
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".cmp*"))
	if len(left) > 0 {
		t.Errorf("temporary folders left: %v", left)
	}
}

// TestCompareLinksOnlyExistingPages checks that a report with pages for some
// questions only (above [site] question_pages) gets links to those pages and
// no link for the others.
func TestCompareLinksOnlyExistingPages(t *testing.T) {
	_, rep, study := fixture(t)
	old := filepath.Join(t.TempDir(), "old")
	if err := os.CopyFS(old, os.DirFS(rep)); err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(old, "site", "questions", "*.html"))
	removed := map[string]bool{}
	for i, p := range pages {
		if i%2 == 0 && filepath.Base(p) != "index.html" {
			os.Remove(p)
			removed[filepath.Base(p)] = true
		}
	}
	if len(removed) == 0 {
		t.Fatal("the report has no question pages")
	}
	out := filepath.Join(t.TempDir(), "cmp")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"compare", "-q", old, study, "-o", out, "--bootstrap", "100"}); err != nil {
		t.Fatalf("compare: %v\n%s", err, stderr.String())
	}
	q := readCompareCSV(t, filepath.Join(out, "tables", "compare_questions.csv"))
	linked, unlinked := 0, 0
	for _, row := range q[1:] {
		if row[10] == "" {
			unlinked++
			continue
		}
		linked++
		if removed[filepath.Base(row[10])] {
			t.Errorf("link %s points to a page the report does not have", row[10])
		}
		if _, err := os.Stat(filepath.Join(out, "site", filepath.FromSlash(row[10]))); err != nil {
			t.Errorf("link %s does not resolve: %v", row[10], err)
		}
	}
	if linked == 0 || unlinked == 0 {
		t.Errorf("%d questions linked, %d not: want both (half the pages were removed)", linked, unlinked)
	}
	// The comparison folder works copied alone: no page of its site links
	// out of it, and every link finds its file.
	alone := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(alone, os.DirFS(filepath.Join(out, "site"))); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(old)
	checked := 0
	filepath.WalkDir(alone, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, _ := os.ReadFile(p)
		for _, m := range hrefRe.FindAllStringSubmatch(string(b), -1) {
			u := html.UnescapeString(m[1])
			if u == "" || strings.HasPrefix(u, "#") {
				continue
			}
			checked++
			u = strings.SplitN(u, "#", 2)[0]
			target := filepath.Join(filepath.Dir(p), filepath.FromSlash(u))
			if rel, err := filepath.Rel(alone, target); err != nil || strings.HasPrefix(rel, "..") || strings.Contains(u, "://") {
				t.Errorf("%s: link %q leaves the comparison's site", p, u)
			} else if _, err := os.Stat(target); err != nil && !strings.Contains(p, filepath.Join(alone, "runs")) {
				// (the run's own index links the pages this test removed)
				t.Errorf("%s: link %q finds no file", p, u)
			}
		}
		return nil
	})
	if checked < 50 {
		t.Errorf("only %d links checked", checked)
	}
}

var hrefRe = regexp.MustCompile(`(?i)\b(?:href|src)="([^"]*)"`)

// TestCompareSelf compares the sample's report folder with the sample's
// study folder (the same data, read two ways): every delta is exactly 0 and
// nothing is flagged.
func TestCompareSelf(t *testing.T) {
	dir, rep, _ := fixture(t)
	sampleDir := filepath.Join(dir, "sample-study")
	if _, err := os.Stat(sampleDir); err != nil {
		if err := os.CopyFS(sampleDir, sample.Sample()); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "self")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"compare", rep, sampleDir, "-o", out, "--bootstrap", "100", "--margin", "2pp", "--margin", "rubric=0.1"}); err != nil {
		t.Fatalf("compare: %v\n%s", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr = %q, want no warnings", stderr.String())
	}
	rows := readCompareCSV(t, filepath.Join(out, "tables", "compare_models.csv"))
	if got := strings.Join(rows[0][13:], ","); got != "margin,improvement_lo,p_noninferior,noninferior,equivalent" {
		t.Fatalf("non-inferiority columns %q", got)
	}
	n := 0
	for _, r := range rows[1:] {
		if r[5] == "" && r[3] == "" {
			continue // undefined in both runs (a judge without ranks)
		}
		n++
		if r[5] != "0" || r[6] != "0" || r[7] != "0" || r[12] != "no" {
			t.Errorf("%v: want delta 0 [0, 0], not flagged", r)
		}
		// the same study read two ways: every shared question with a
		// response kept it; fjord-1.5-flash has no response to one of its
		// 60 graded questions (its dump has 59 lines)
		shared, _ := strconv.Atoi(r[9])
		if want := map[bool]int{true: shared - 1, false: shared}[r[0] == "fjord-1.5-flash"]; r[10] != strconv.Itoa(want) {
			t.Errorf("%v: n_same_responses %s, want %d", r, r[10], want)
		}
		// a run against itself is within any margin; avg_rank has none here
		if want := map[string]string{"solve_rate": "0.02", "rubric": "0.1", "avg_rank": ""}[r[1]]; want != "" && (r[13] != want || r[16] != "yes" || r[17] != "yes") {
			t.Errorf("%v: want margin %s, non-inferior and equivalent", r, want)
		}
	}
	if n < 60 {
		t.Errorf("only %d defined rows", n)
	}
	for _, r := range readCompareCSV(t, filepath.Join(out, "tables", "judge_drift.csv"))[1:] {
		if r[6] != "0" || r[10] != "0" || r[12] != "no" {
			t.Errorf("judge_drift %v: want diff 0, no flips, not flagged", r)
		}
	}
}

// TestCompareTrend compares three runs: the trend table has every run and
// the site a line chart per metric.
func TestCompareTrend(t *testing.T) {
	dir, rep, study := fixture(t)
	out := filepath.Join(dir, "trend")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"compare", "-q", rep, study, rep, "-o", out, "--bootstrap", "100", "--seed", "7"}); err != nil {
		t.Fatalf("compare: %v\n%s", err, stderr.String())
	}
	rows := readCompareCSV(t, filepath.Join(out, "tables", "compare_trend.csv"))
	runs := map[string]bool{}
	for _, r := range rows[1:] {
		runs[r[3]+" "+r[4]] = true
	}
	if len(runs) != 3 || !runs["1 round1 (1)"] || !runs["2 round2"] || !runs["3 round1 (3)"] {
		t.Errorf("trend runs %v, want round1 (1), round2, round1 (3)", runs)
	}
	page, _ := os.ReadFile(filepath.Join(out, "site", "compare.html"))
	if !bytes.Contains(page, []byte("over the runs")) {
		t.Error("site/compare.html has no trend chart")
	}
	// The first and last runs are the same: no change between them.
	for _, r := range readCompareCSV(t, filepath.Join(out, "tables", "compare_models.csv"))[1:] {
		if r[5] != "" && r[5] != "0" {
			t.Errorf("%v: first and last run are the same report, want delta 0", r)
		}
	}
}

func TestCompareErrors(t *testing.T) {
	dir, rep, _ := fixture(t)
	bad := filepath.Join(dir, "bad")
	os.MkdirAll(bad, 0o755)
	os.WriteFile(filepath.Join(bad, "questions.csv"), []byte("question_id,domain\nq1,F\n"), 0o644)
	for _, tc := range []struct {
		args   []string
		errHas string
		stderr string
	}{
		{[]string{"compare", rep}, "requires at least 2 arg(s)", ""},
		{[]string{"compare", rep, rep, "--map", "nonsense"}, `--map "nonsense": expected old=new`, ""},
		{[]string{"compare", rep, filepath.Join(dir, "missing")}, "missing: no such file", ""},
		{[]string{"compare", rep, bad}, "", "questions.csv, row 1: a header with the column(s) prompt"},
	} {
		var stdout, stderr bytes.Buffer
		out := filepath.Join(dir, "err-out")
		err := run(context.Background(), &stdout, &stderr, append(tc.args, "-o", out))
		if err == nil {
			t.Errorf("%v: no error", tc.args)
			continue
		}
		if tc.errHas != "" && !strings.Contains(err.Error(), tc.errHas) {
			t.Errorf("%v: error %q, want %q", tc.args, err, tc.errHas)
		}
		if tc.stderr != "" && !strings.Contains(stderr.String(), tc.stderr) {
			t.Errorf("%v: stderr %q, want %q", tc.args, stderr.String(), tc.stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: output written after an error", tc.args)
		}
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"compare", "--help"}); err != nil || !strings.Contains(stdout.String(), "--map") {
		t.Errorf("compare --help: %v %q", err, stdout.String())
	}
}

// compareDocTables returns the tables of a comparison of three tiny runs,
// for docs/OUTPUTS.md (the documentation depends only on names, titles and
// columns).
func compareDocTables(t *testing.T) []*report.Table {
	t.Helper()
	s := &study.Study{HumanLabel: "Human Expert", MainRound: "main", Attributes: []string{"A"},
		Questions: []study.Question{{ID: "q1"}}, Models: []study.Model{{Name: "m"}},
		Evaluators: []study.Evaluator{{ID: "h", Kind: study.Human}},
		Gradings:   []study.Grading{{Evaluator: "h", Kind: study.Human, Round: "main", QuestionID: "q1", Model: "m", Rubric: []float64{3}}}}
	// A pairwise judgment of a judge, for compare_pairwise and pairwise_judge_drift.
	s.Comparisons = []study.Comparison{{Evaluator: "j", Kind: study.Judge, Round: "main", QuestionID: "q1", ModelA: "m", ModelB: "m2", Winner: study.PreferA}}
	r := compare.Run{Study: s, Scores: scores.DefaultOptions()}
	p, err := compare.Analyze(context.Background(), []compare.Run{r, r, r}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return tables.Compare(p).Tables
}

// TestPrintFlagged: the flagged rows of compare_models are printed by
// column name (here in another order) with the run labels, in the
// metric's units (pp for rates, points for the rubric), an undefined
// interval left out, model names with control characters escaped.
func TestPrintFlagged(t *testing.T) {
	tab := &report.Table{Name: compare.ModelsTable, Columns: []report.Column{
		{Name: "flagged"}, {Name: "p_holm"}, {Name: "delta_hi"}, {Name: "delta_lo"}, {Name: "delta"}, {Name: "new"}, {Name: "old"}, {Name: "graders"}, {Name: "metric"}, {Name: "model"}},
		Rows: [][]any{
			{"no", 0.5, 0.3, 0.1, 0.2, 0.7, 0.5, "humans", "solve_rate", "quiet"},
			{"yes", 0.01, 0.35, 0.05, 0.2, 0.7, 0.5, "humans", "solve_rate", "bold\x1b[31m"},
			{"yes", 0.02, nil, nil, 0.25, 3.5, 3.25, "judge:j", "rubric", "m2"},
		}}
	var b bytes.Buffer
	printFlagged(&b, &report.Report{Title: "T", Tables: []*report.Table{tab}, Settings: []report.KV{{Key: "old_label", Value: "v1"}, {Key: "new_label", Value: "v2"}}})
	out := b.String()
	for _, want := range []string{"What changed: v1 → v2 — 2 of 3 changes significant", "Solve Rate", "human graders", "50.0 %", "70.0 %", "+20.0 pp [+5.0, +35.0 pp]", "better",
		"judge j", "3.25", "+0.25 points"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "quiet") || strings.Contains(out, "\x1b") || strings.Contains(out, "(none)") || strings.Contains(out, "NaN") {
		t.Errorf("an unflagged row, a raw escape, NaN or (none) printed:\n%s", out)
	}
}
