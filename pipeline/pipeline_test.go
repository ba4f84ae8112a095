package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/site"
	"github.com/euroexec/euroexec/report/tables"
	"github.com/euroexec/euroexec/sample"
)

// sampleDir unpacks the bundled sample study into a temporary folder.
func sampleDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, sample.Sample()); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRunCancelled cancels the run at the start of one stage or analysis
// step and checks that Run returns ctx's error and starts no later stage.
func TestRunCancelled(t *testing.T) {
	dir := sampleDir(t)
	for _, c := range []struct {
		name        string
		stage, step string // cancel when this stage (or analysis step) starts
	}{
		{"before loading", StageLoad, ""},
		{"mid-analysis (summary)", "", "summary"},
		{"mid-analysis (questions)", "", "questions"},
		{"beyond the paper", StageBeyond, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var stages []string
			o := DefaultOptions()
			o.DB = filepath.Join(t.TempDir(), "study.duckdb")
			o.Stage = func(name string) {
				stages = append(stages, name)
				if name == c.stage {
					cancel()
				}
			}
			o.Progress = func(name string, _, _ int) {
				if name == c.step {
					cancel()
				}
			}
			res, err := Run(ctx, dir, o)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want context.Canceled", err)
			}
			if res != nil {
				t.Error("a result came back with the error")
			}
			if c.step != "" && slices.Contains(stages, StageBeyond) {
				t.Errorf("stages %v: the analyses beyond the paper started after a cancel in the paper's analysis", stages)
			}
		})
	}
}

// TestRunStages checks the stage names and their order, the report's
// metadata and that the text metrics are stored in the database.
func TestRunStages(t *testing.T) {
	dir := sampleDir(t)
	var stages []string
	o := DefaultOptions()
	o.DB = filepath.Join(t.TempDir(), "study.duckdb")
	o.Version = "v-test"
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	o.Now = func() time.Time { return at }
	o.Stage = func(name string) { stages = append(stages, name) }
	res, err := Run(context.Background(), dir, o)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{StageLoad, StageReadBack, StageAnalyse, StageBeyond}; !slices.Equal(stages, want) {
		t.Errorf("stages %q, want %q", stages, want)
	}
	rep := res.Report
	if rep.Version != "v-test" || !rep.GeneratedAt.Equal(at) {
		t.Errorf("version %q generated %v, want v-test %v", rep.Version, rep.GeneratedAt, at)
	}
	if len(rep.Inputs) == 0 || len(rep.Settings) == 0 {
		t.Errorf("%d inputs, %d settings: want both", len(rep.Inputs), len(rep.Settings))
	}
	for _, name := range []string{"summary", "rankings", "reliability", "judge_calibration", "study_plan", "judge_audit", "responses", "text_metrics"} {
		if rep.Table(name) == nil {
			t.Errorf("no table %s", name)
		}
	}
	if _, err := os.Stat(o.DB); err != nil {
		t.Fatalf("database: %v", err)
	}
}

// TestRunTemporaryDB checks that the default database is removed.
func TestRunTemporaryDB(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	if _, err := Run(context.Background(), sampleDir(t), DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	left, _ := os.ReadDir(tmp)
	if len(left) != 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
}

// TestRunProblems checks that input problems come back located: a bad
// study.toml value names the file, line and key; a bad data row comes as
// ingest's *ProblemsError naming the file and the value.
func TestRunProblems(t *testing.T) {
	t.Run("study.toml", func(t *testing.T) {
		dir := sampleDir(t)
		if err := os.WriteFile(filepath.Join(dir, "study.toml"), []byte("[solve]\nrubric_threshold = \"high\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Run(context.Background(), dir, DefaultOptions())
		checkErr(t, err, "study.toml:2", "solve.rubric_threshold", "expected a number")
	})
	t.Run("questions.csv", func(t *testing.T) {
		dir := sampleDir(t)
		p := filepath.Join(dir, "questions.csv")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, "q-bad,Product,prompt,author,lots,x\n"...)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = Run(context.Background(), dir, DefaultOptions())
		var pe *ingest.ProblemsError
		if !errors.As(err, &pe) {
			t.Fatalf("got %v, want an *ingest.ProblemsError", err)
		}
		checkErr(t, err, "questions.csv", "gate_score", `"lots"`)
	})
}

// checkErr fails unless err is not nil and its text holds every part.
func checkErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one saying %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not say %q", err, p)
		}
	}
}

// TestTypedResults: the typed summary rows and rankings are the values of
// the summary and rankings tables, cell for cell (looked up by column
// name), and the summary's group letters are the rankings'.
func TestTypedResults(t *testing.T) {
	res := sampleResult(t)
	sum := res.Report.Table("summary")
	if sum == nil || len(res.Summary) == 0 || len(sum.Rows) != len(res.Summary) {
		t.Fatalf("summary table %v, %d typed rows", sum != nil, len(res.Summary))
	}
	at := tableCells(sum)
	for i, r := range res.Summary {
		checkCells(t, fmt.Sprintf("summary row %d", i), at(i), map[string]any{
			"set": r.Set, "graders": r.Graders, "model": r.Model, "n_questions": r.Questions, "n_gradings": r.Gradings,
			"solve_rate": r.SolveRate, "solve_rate_lo": r.SolveRateLo, "solve_rate_hi": r.SolveRateHi,
			"avg_rank": r.AvgRank, "win_rate_hi": r.WinRateHi, "rubric": r.Rubric, "rubric_lo": r.RubricLo,
			"checklist_rate": r.Checklist, "checklist_rate_hi": r.ChecklistHi})
	}
	rk := res.Report.Table("rankings")
	if rk == nil || len(rk.Rows) != len(res.Rankings.Models) {
		t.Fatalf("rankings table %v, %d typed models", rk != nil, len(res.Rankings.Models))
	}
	rat := tableCells(rk)
	group := map[string]string{}
	for i, m := range res.Rankings.Models {
		checkCells(t, fmt.Sprintf("rankings row %d", i), rat(i), map[string]any{
			"model": m.Model, "n_gradings": m.Gradings, "rubric": m.Rubric, "solve_rate": m.SolveRate,
			"rank": m.Rank, "rank_lo": m.RankLo, "group_solve_rate": m.GroupSolveRate, "pl_strength": m.PL})
		group[m.Model] = m.GroupSolveRate
	}
	n := 0
	for i, r := range res.Summary {
		if r.Set == "all" && r.Graders == "humans" {
			n++
			if got := at(i)["group_solve_rate"]; got != group[r.Model] {
				t.Errorf("summary %s group_solve_rate %v, rankings %q", r.Model, got, group[r.Model])
			}
		}
	}
	if n == 0 {
		t.Error("no human rows in set all")
	}
}

// tableCells returns a function giving row i of tb as column name → value.
func tableCells(tb *report.Table) func(i int) map[string]any {
	return func(i int) map[string]any {
		m := map[string]any{}
		for k, c := range tb.Columns {
			m[c.Name] = tb.Rows[i][k]
		}
		return m
	}
}

// checkCells fails for every cell that differs from want (NaN equals NaN;
// "" equals an empty cell).
func checkCells(t *testing.T, what string, got, want map[string]any) {
	t.Helper()
	for name, w := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("%s: no column %s", what, name)
			continue
		}
		if wf, ok := w.(float64); ok && math.IsNaN(wf) {
			if gf, ok := g.(float64); ok && math.IsNaN(gf) {
				continue
			}
		}
		if w == "" && g == nil {
			continue
		}
		if g != w {
			t.Errorf("%s: %s = %v (%T), typed %v (%T)", what, name, g, g, w, w)
		}
	}
}

var sampleRun struct {
	once sync.Once
	res  *Result
	err  error
}

// sampleResult runs the bundled sample once for the tests that only read
// the result.
func sampleResult(t *testing.T) *Result {
	t.Helper()
	sampleRun.once.Do(func() {
		dir, err := os.MkdirTemp("", "pipeline-sample-*")
		if err != nil {
			sampleRun.err = err
			return
		}
		defer os.RemoveAll(dir)
		if err := os.CopyFS(dir, sample.Sample()); err != nil {
			sampleRun.err = err
			return
		}
		sampleRun.res, sampleRun.err = Run(context.Background(), dir, DefaultOptions())
	})
	if sampleRun.err != nil {
		t.Fatal(sampleRun.err)
	}
	return sampleRun.res
}

// TestSameMeanAcrossTables: on the sample every model is graded by the
// humans on every question (and by each judge, with a text for every
// response but one), so the mean over questions of a model's per-question
// human rubric means is one quantity in judge_calibration (human),
// length_controlled (raw_mean) and study_plan (mean_a, mean_b). Where the
// populations are the same (all questions), the three report it bit for
// bit.
func TestSameMeanAcrossTables(t *testing.T) {
	rep := sampleResult(t).Report
	nQ := int64(rep.Overview.Questions)
	type val struct {
		table string
		v     float64
	}
	by := map[string][]val{}
	add := func(table, model string, n int64, v any) {
		if f, ok := v.(float64); ok && n == nQ {
			by[model] = append(by[model], val{table, f})
		}
	}
	for _, name := range []string{"judge_calibration", "length_controlled", "study_plan"} {
		tb := rep.Table(name)
		if tb == nil {
			t.Fatalf("no table %s", name)
		}
		at := tableCells(tb)
		for i := range tb.Rows {
			c := at(i)
			switch name {
			case "judge_calibration":
				if c["metric"] == "rubric" {
					add(name, c["model"].(string), c["n_questions"].(int64), c["human"])
				}
			case "length_controlled":
				add(name, c["model"].(string), c["n_responses"].(int64), c["raw_mean"])
			case "study_plan":
				add(name+" a", c["model_a"].(string), c["n_pilot"].(int64), c["mean_a"])
				add(name+" b", c["model_b"].(string), c["n_pilot"].(int64), c["mean_b"])
			}
		}
	}
	compared := 0
	for model, vs := range by {
		tables := map[string]bool{}
		for _, v := range vs {
			tables[strings.Fields(v.table)[0]] = true
			if v.v != vs[0].v {
				t.Errorf("%s: %s reports %v, %s %v", model, v.table, v.v, vs[0].table, vs[0].v)
			}
		}
		if len(tables) == 3 {
			compared++
		}
	}
	if compared < 4 {
		t.Errorf("only %d models are in all three tables on every question: the test compares too little (%v)", compared, by)
	}
}

// TestTypedResultsBeyond: each analysis beyond the paper (and PRBench)
// exposes its typed result on Result, and the report's tables are exactly
// the tables its Part builds from it (every cell, NaN equal to NaN).
func TestTypedResultsBeyond(t *testing.T) {
	res := sampleResult(t)
	parts := []struct {
		name string
		part report.Part
		typ  int // typed rows, to see the result is filled
	}{
		{"reliability", tables.Reliability(res.Reliability), len(res.Reliability.Rows)},
		{"calibration", tables.Calibration(res.Calibration), len(res.Calibration.Calibration) + len(res.Calibration.Length.Rows)},
		{"judge audit", tables.JudgeAudit(res.JudgeAudit), len(res.JudgeAudit.Judges)},
		{"pairwise", tables.Pairwise(res.Pairwise), len(res.Pairwise.Populations)},
		{"planning", tables.Planning(res.Planning), len(res.Planning.Pairs)},
		{"prbench", tables.PRBench(res.PRBench), len(res.PRBench.Scores)},
	}
	compared := 0
	for _, p := range parts {
		if len(p.part.Tables) > 0 && p.typ == 0 {
			t.Errorf("%s: tables but no typed rows", p.name)
		}
		for _, tb := range p.part.Tables {
			got := res.Report.Table(tb.Name)
			if got == nil {
				t.Errorf("%s: the report has no table %s", p.name, tb.Name)
				continue
			}
			if a, b := fmt.Sprintf("%#v", got.Rows), fmt.Sprintf("%#v", tb.Rows); a != b {
				t.Errorf("%s: report table %s differs from the typed result's", p.name, tb.Name)
			}
			if a, b := fmt.Sprint(got.Columns), fmt.Sprint(tb.Columns); a != b {
				t.Errorf("%s: report table %s has other columns than the typed result's", p.name, tb.Name)
			}
			compared++
		}
	}
	for _, name := range []string{"reliability", "judge_calibration", "judge_audit", "study_plan"} {
		if res.Report.Table(name) == nil {
			t.Errorf("the sample study has no %s table: the check proves less than it says", name)
		}
	}
	t.Logf("%d tables compared", compared)
}

// A blinded label reaches the question page from blinding.csv even where
// every grader named the model: in ingest/testdata/base, alice grades q2 by
// model name and blinding.csv labels q2's m2 A and m1 B.
func TestBlindingLabelsOnQuestionPage(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "ingest", "testdata", "base"))); err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	o.DB = filepath.Join(t.TempDir(), "study.duckdb")
	res, err := Run(context.Background(), dir, o)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "site")
	if _, err := site.Write(context.Background(), out, res.Report, site.DefaultOptions); err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(out, "questions", "q2*.html"))
	if len(pages) != 1 {
		t.Fatalf("pages of q2: %v, want one", pages)
	}
	b, err := os.ReadFile(pages[0])
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{
		`>blinded label</th>`,      // the responses table has the label column
		`<td class="blind">A</td>`, // m2
		`<td class="blind">B</td>`, // m1
		`shown as A</span></h3>`,   // the response headings
		`shown as B</span></h3>`,   //
		`<td class="label">A</td>`, // alice's column of the gradings table
		`<td class="label">B</td>`, //
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page of q2 lacks %s", want)
		}
	}
}

// No table on the sample's site has two columns with the same header (Table
// 3 had the display names and the model ids both headed "Model"), and Table
// 3 shows the ids as written under "Model id", beside "Display name".
func TestSiteHeadersDistinct(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	if _, err := site.Write(context.Background(), out, sampleResult(t).Report, site.DefaultOptions); err != nil {
		t.Fatal(err)
	}
	tables, table3 := 0, false
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		doc, err := html.Parse(bytes.NewReader(b))
		if err != nil {
			return err
		}
		for _, heads := range tableHeads(doc) {
			tables++
			seen := map[string]bool{}
			for _, h := range heads {
				if seen[h] {
					t.Errorf("%s: a table has two columns headed %q: %q", p, h, heads)
				}
				seen[h] = true
			}
			if slices.Contains(heads, "Display name") {
				table3 = true
				if !slices.Contains(heads, "Model id") {
					t.Errorf("%s: Table 3's headers %q lack Model id", p, heads)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if tables < 20 || !table3 {
		t.Fatalf("%d tables checked, Table 3 among them: %v", tables, table3)
	}
}

// tableHeads returns the text of the header cells of each table's first
// header row (thead) in doc.
func tableHeads(doc *html.Node) [][]string {
	var text func(n *html.Node) string
	text = func(n *html.Node) string {
		if n.Type == html.TextNode {
			return n.Data
		}
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			b.WriteString(text(c))
		}
		return b.String()
	}
	var out [][]string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "thead" {
			var heads []string
			var ths func(n *html.Node)
			ths = func(n *html.Node) {
				if n.Type == html.ElementNode && n.Data == "th" {
					heads = append(heads, strings.TrimSpace(text(n)))
					return
				}
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					ths(c)
				}
			}
			ths(n)
			out = append(out, heads)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// gcPercentNow reads the collector's percentage (debug.SetGCPercent can
// only read it by setting it).
func gcPercentNow() int {
	v := debug.SetGCPercent(100)
	debug.SetGCPercent(v)
	return v
}

// TestRunGCPercent checks that Run sets Options.GCPercent for the stages of
// a large study only, leaves it alone when told to, and restores the
// previous setting when it returns.
func TestRunGCPercent(t *testing.T) {
	dir := sampleDir(t)
	before := debug.SetGCPercent(123)
	defer debug.SetGCPercent(before)
	for _, c := range []struct {
		name       string
		overlapMax int // Options.OverlapMaxGradings: -1 makes the sample large
		pct        int // Options.GCPercent
		want       int // during read back and the analyses
	}{
		{"large study, default", -1, 0, DefaultGCPercent},
		{"large study, set", -1, 37, 37},
		{"large study, left alone", -1, -1, 123},
		{"small study", 0, 0, 123},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := DefaultOptions()
			o.DB = filepath.Join(t.TempDir(), "study.duckdb")
			o.OverlapMaxGradings, o.GCPercent = c.overlapMax, c.pct
			got := map[string]int{}
			o.Stage = func(name string) { got[name] = gcPercentNow() }
			o.Progress = func(name string, _, _ int) {
				if name == "questions" {
					got[name] = gcPercentNow()
				}
			}
			if _, err := Run(context.Background(), dir, o); err != nil {
				t.Fatal(err)
			}
			want := map[string]int{StageLoad: 123, StageReadBack: c.want, StageAnalyse: c.want, "questions": c.want, StageBeyond: c.want}
			for name, w := range want {
				if got[name] != w {
					t.Errorf("at %s GC percent %d, want %d", name, got[name], w)
				}
			}
			if p := gcPercentNow(); p != 123 {
				t.Errorf("after Run GC percent %d, want 123 restored", p)
			}
		})
	}
}
