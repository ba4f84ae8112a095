package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/csvout"
	"github.com/euroexec/euroexec/sample"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ and docs/OUTPUTS.md")

// TestRunGolden runs the main job on the bundled sample and compares every
// table with testdata/golden. The tables are byte for byte the same for the
// same inputs and seed; -update rewrites them after a reviewed change.
func TestRunGolden(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	var stdout, stderr bytes.Buffer
	rep, err := runStudy(context.Background(), &stdout, &stderr, "", runOptions{out: out, quiet: true, now: fixedNow})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	golden := filepath.Join("testdata", "golden", "tables")
	got, _ := filepath.Glob(filepath.Join(out, "tables", "*.csv"))
	if len(got) < 20 {
		t.Fatalf("only %d tables written", len(got))
	}
	if *update {
		os.RemoveAll(golden)
		os.MkdirAll(golden, 0o755)
	}
	var names []string
	for _, p := range got {
		name := filepath.Base(p)
		names = append(names, name)
		b, _ := os.ReadFile(p)
		if bytes.Count(b, []byte("\n")) < 2 {
			t.Errorf("%s has no rows: every table of the sample should have data", name)
		}
		gp := filepath.Join(golden, name)
		if *update {
			os.WriteFile(gp, b, 0o644)
			continue
		}
		want, err := os.ReadFile(gp)
		if err != nil {
			t.Errorf("%s: no golden file (run go test -update after checking it)", name)
			continue
		}
		if !bytes.Equal(b, want) {
			t.Errorf("%s differs from %s", name, gp)
		}
	}
	wantNames, _ := filepath.Glob(filepath.Join(golden, "*.csv"))
	if !*update && len(wantNames) != len(names) {
		t.Errorf("wrote %d tables, golden has %d", len(names), len(wantNames))
	}
	for _, f := range []string{"report.xlsx", "study.duckdb", "site/index.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("output %s missing: %v", f, err)
		}
	}
	// Every table is documented in docs/OUTPUTS.md, generated from the tables.
	var doc bytes.Buffer
	doc.WriteString("# Output tables\n\n`euroexec run` writes these tables to `OUT/tables/` (CSV: proportions as fractions, floats in full,\nundefined values empty and explained in `notes.csv`). The workbook has one sheet per table and the\nsite shows each beside its figure. A workbook sheet has two header rows: row 1 the column headers in\nwords (\"Solve Rate\"), row 2 the CSV column names below (`solve_rate`), which head the sheet's\nfilterable Excel table; a script reads a sheet with the CSV names by skipping row 1 (pandas:\n`read_excel(path, sheet_name=..., header=1)`). The site shows the words with the CSV name in the\nheader's tooltip. This file is generated from the sample study's report\n(`go test ./cmd/euroexec -update`); tables that need instruments the sample lacks are listed by the\npackages that write them. The tables of section compare are written by `euroexec compare` (see docs/METHODS.md).\n\n")
	doc.WriteString("The **leaderboard** that opens the site's index (`#leaderboard`), the workbook's Findings sheet (beside the\nheadline chart) and the terminal summary is read from these tables, not written as one: per model, the rank by the\nprimary metric (`[report] primary`) with its 95 % bootstrap rank interval (`rankings`: `rank_solve_rate_lo/hi`\nor `rank_lo/hi`; `pairwise_models`: `rank_lo/hi`), the metric with its interval (`summary`, `pairwise_models` or\n`prbench_scores`), the group letter, n, and the cost (`cost_vs_solve`, when every response has one); a study\nwithout human gradings gets its first judge's, or its pairwise or PRBench, leaderboard. The first finding ends\nwith the leader's gap to the runner-up (`pairwise_significance`: the pair's paired test, estimate and interval)\nand `p_best`. A comparison's \"what changed\" (site `#changes` with a delta dot plot per metric, Findings sheet,\nterminal) lists the rows of `compare_models` flagged `yes`, in the same order everywhere.\n\n")
	// Where the site and the comparison keep their tables; how the charts
	// and the printed workbook encode what they show (issue 35).
	doc.WriteString("The site carries the CSV of every table it links to in `site/tables/` (the same bytes as `OUT/tables/`),\nso `site/` works copied alone; `euroexec compare` carries the site of each compared report folder in\n`site/runs/<n>/` (hard links where the file system allows) and links its question pages there. Charts\ngive each model one colour and symbol (12 colours, each at least 3:1 against white, the first 8 apart\nunder simulated colour blindness) and every other series (humans, each judge, each run) one colour in\nevery chart; a legend only when two or more series are drawn; ranks and ratings as dots with intervals;\nwhiskers solid with caps for 95 % intervals, dashed without caps for mean ± 1 SD; no interval from\nfewer than 2 observations (n is written instead); rate axes end at 100 %. Below 600 px bar charts\nturn horizontal. Each chart exports a 1920×1080 PNG and an SVG with title, subtitle and footnote\n(study, n, interval, date). The workbook's charts have native error bars (the + and − distances are on\n`Chart data`) and print three a page, none cut by a page break; the compare workbook's delta dot plot\nhas its axis across zero (a rate's change in percentage points). Printed, a table sheet fits one page\ndown and, up to 21 columns, one page across (wider: about 14 columns a page, column A repeated); a\nsheet of more than 60 rows is not printed (the About sheet says so; Summary prints its first 60).\n\n")
	// Tables of instruments the sample lacks come from a weighted-criteria study.
	crit := filepath.Join(t.TempDir(), "crit")
	copt := sample.DefaultOptions()
	copt.Questions, copt.Criteria = 30, true
	if _, err := sample.Write(crit, copt); err != nil {
		t.Fatal(err)
	}
	crep, err := runStudy(context.Background(), &stdout, &stderr, crit, runOptions{out: filepath.Join(t.TempDir(), "c"), quiet: true, now: fixedNow})
	if err != nil {
		t.Fatalf("run criteria study: %v\n%s", err, stderr.String())
	}
	// … and the pairwise tables from testdata/pairwise.
	prep, err := runStudy(context.Background(), &stdout, &stderr, filepath.Join("testdata", "pairwise"), runOptions{out: filepath.Join(t.TempDir(), "p"), quiet: true, now: fixedNow})
	if err != nil {
		t.Fatalf("run pairwise study: %v\n%s", err, stderr.String())
	}
	tables := append([]*report.Table(nil), rep.Tables...)
	for _, other := range []*report.Report{crep, prep} {
		for _, ct := range other.Tables {
			if !slices.ContainsFunc(tables, func(t *report.Table) bool { return t.Name == ct.Name }) {
				tables = append(tables, ct)
			}
		}
	}
	tables = append(tables, compareDocTables(t)...)
	sort.SliceStable(tables, func(i, j int) bool { return tables[i].Name < tables[j].Name })
	if err := csvout.WriteDocs(&doc, tables); err != nil {
		t.Fatal(err)
	}
	docPath := filepath.Join("..", "..", "docs", "OUTPUTS.md")
	if *update {
		os.WriteFile(docPath, doc.Bytes(), 0o644)
	} else if b, err := os.ReadFile(docPath); err != nil || !bytes.Equal(b, doc.Bytes()) {
		t.Errorf("docs/OUTPUTS.md is out of date: run go test ./cmd/euroexec -update")
	}
}

// TestRunKeepsPreviousReport checks that a failed run leaves the previous
// report exactly as it was and no temporary folder behind.
func TestRunKeepsPreviousReport(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"run", "-q", "-o", out}); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	before, _ := os.ReadFile(filepath.Join(out, "tables", "summary.csv"))
	bad := filepath.Join(dir, "bad")
	os.MkdirAll(bad, 0o755)
	os.WriteFile(filepath.Join(bad, "questions.csv"), []byte("question_id,domain\nq1,F\n"), 0o644)
	stderr.Reset()
	if err := run(context.Background(), &stdout, &stderr, []string{"run", "-q", bad, "-o", out}); err == nil {
		t.Fatal("a broken study ran")
	}
	if !strings.Contains(stderr.String(), `questions.csv, row 1: a header with the column(s) prompt`) {
		t.Errorf("stderr = %q", stderr.String())
	}
	after, _ := os.ReadFile(filepath.Join(out, "tables", "summary.csv"))
	if len(before) == 0 || !bytes.Equal(before, after) {
		t.Error("the previous report changed after a failed run")
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".report*"))
	if len(left) > 0 {
		t.Errorf("temporary folders left: %v", left)
	}
}

func TestHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"run", "--help"}, {"validate", "--help"}, {"ingest", "--help"}, {"sample", "--help"}, {"version"}} {
		var out, errb bytes.Buffer
		if err := run(context.Background(), &out, &errb, args); err != nil {
			t.Errorf("%v: %v", args, err)
		}
		if out.Len() == 0 {
			t.Errorf("%v printed nothing", args)
		}
	}
	var out, errb bytes.Buffer
	if err := run(context.Background(), &out, &errb, []string{"validate"}); err == nil {
		t.Error("validate without a study succeeded")
	}
}

// fixedNow pins the run time so that outputs do not depend on the clock.
func fixedNow() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// TestRunSameOnOneCore runs the sample with one core and checks every table
// against the golden files written with all cores: resampling is seeded per
// replicate, so the numbers do not depend on the core count.
func TestRunSameOnOneCore(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	out := filepath.Join(t.TempDir(), "report")
	var stdout, stderr bytes.Buffer
	if _, err := runStudy(context.Background(), &stdout, &stderr, "", runOptions{out: out, quiet: true, now: fixedNow}); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	got, _ := filepath.Glob(filepath.Join(out, "tables", "*.csv"))
	golden, _ := filepath.Glob(filepath.Join("testdata", "golden", "tables", "*.csv"))
	if len(golden) == 0 || len(got) != len(golden) {
		t.Fatalf("one core wrote %d tables, want the %d golden tables", len(got), len(golden))
	}
	for _, p := range got {
		b, _ := os.ReadFile(p)
		want, err := os.ReadFile(filepath.Join("testdata", "golden", "tables", filepath.Base(p)))
		if err != nil || !bytes.Equal(b, want) {
			t.Errorf("%s differs on one core", filepath.Base(p))
		}
	}
}

// TestPlanCommand runs `euroexec plan` on the sample: one row per adjacent
// pair of the 6 models, printed and written as CSV (the numbers themselves
// are checked in metrics/planning against R's pwr).
func TestPlanCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "plan.csv")
	var so, se bytes.Buffer
	if err := run(context.Background(), &so, &se, []string{"plan", filepath.Join("..", "..", "sample", "study"), "--alpha", "0.05", "--graders", "1,2", "-o", out}); err != nil {
		t.Fatalf("plan: %v\n%s", err, se.String())
	}
	lines := strings.Split(strings.TrimSpace(so.String()), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "model_a") {
		t.Errorf("plan printed %d lines:\n%s", len(lines), so.String())
	}
	rows := readCSV(t, out)
	if len(rows) != 5 {
		t.Fatalf("plan.csv has %d rows, want 5", len(rows))
	}
	if _, ok := rows[0]["n_questions_g2"]; !ok {
		t.Errorf("plan.csv lacks n_questions_g2: %v", rows[0])
	}
	if _, ok := rows[0]["n_questions_g3"]; ok {
		t.Errorf("plan.csv has n_questions_g3 though --graders 1,2")
	}
}

// TestPlanOutGuard: `plan -o` never writes into the study, replaces an
// existing file only with --force, and the user's file survives a refusal
// byte for byte (exit status 3).
func TestPlanOutGuard(t *testing.T) {
	study := filepath.Join("..", "..", "sample", "study")
	dir := t.TempDir()
	user := filepath.Join(dir, "thesis.csv")
	if err := os.WriteFile(user, []byte("my own numbers\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := func(out string, more ...string) []string {
		return append([]string{"plan", study, "--graders", "1", "-o", out}, more...)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"existing file", args(user), "add --force"},
		{"inside the study", args(filepath.Join(study, "plan.csv")), "inside the study folder"},
		{"inside the study with --force", args(filepath.Join(study, "plan.csv"), "--force"), "inside the study folder"},
		{"a folder", args(dir), "it is a folder"},
	} {
		var so, se bytes.Buffer
		err := run(context.Background(), &so, &se, c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
		if code := exitCode(context.Background(), err); code != 3 {
			t.Errorf("%s: exit status %d, want 3", c.name, code)
		}
	}
	if b, _ := os.ReadFile(user); string(b) != "my own numbers\n" {
		t.Errorf("the user's file changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(study, "plan.csv")); err == nil {
		t.Fatal("plan wrote into the study folder")
	}
	var so, se bytes.Buffer
	if err := run(context.Background(), &so, &se, args(user, "--force")); err != nil {
		t.Fatalf("--force: %v", err)
	}
	if rows := readCSV(t, user); len(rows) != 5 {
		t.Errorf("after --force the file has %d plan rows, want 5", len(rows))
	}
	if fi, err := os.Stat(user); err != nil || fi.Mode().Perm()&0o111 != 0 {
		t.Errorf("plan file mode: %v %v", fi.Mode(), err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}
