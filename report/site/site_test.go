package site

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/internal/reporttest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fakeECharts stands in for the chart library so that the output does not
// depend on whether `make assets` ran.
var fakeECharts = fstest.MapFS{EChartsFile: {Data: []byte("/* echarts stand-in */")}}

func writeSite(t *testing.T, r *report.Report, opt Options) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "site")
	if opt.Assets == nil {
		opt.Assets = fakeECharts
	}
	warn, err := Write(context.Background(), dir, r, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(warn) != 0 {
		t.Fatalf("warnings %q", warn)
	}
	return dir
}

func files(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestGoldenSectionPage(t *testing.T) {
	dir := writeSite(t, reporttest.Small(), Options{})
	got, err := os.ReadFile(filepath.Join(dir, "judges.html"))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "judges.html.golden")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update once to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("judges.html differs from %s (go test -update rewrites it after review):\n%s", golden, firstDiff(got, want))
	}
}

func firstDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < max(len(la), len(lb)); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return "line " + strconv.Itoa(i+1) + ":\ngot:  " + x + "\nwant: " + y
		}
	}
	return ""
}

func TestPagesAndLayout(t *testing.T) {
	r := reporttest.Small()
	dir := writeSite(t, r, Options{})
	fs := files(t, dir)
	var names []string
	for n := range fs {
		names = append(names, n)
	}
	slices.Sort(names)
	want := []string{
		"assets/echarts.min.js", "assets/site.css", "assets/site.js",
		"consistency.html", "cost.html", "dataset.html",
		"evaluators/human_a.html", "evaluators/index.html", "evaluators/judge_J1-1ba39f68.html",
		"index.html", "judges.html",
		"questions/index.html", "questions/q1.html", "questions/q_2_weird_id-a92f4a4d.html", "rubric.html",
		// the CSVs the pages link to, inside the site
		"tables/judge_vs_human.csv", "tables/notes.csv", "tables/pvalue_curve.csv", "tables/responses.csv",
		"tables/solve_rate_by_difficulty.csv", "tables/summary.csv", "tables/tiny.csv", "tables/verdict_pairs.csv",
	}
	// No page for the sections without content (checklist, automatic, …)
	// and none for the overview, which is the index.
	if !slices.Equal(names, want) {
		t.Errorf("files = %q\nwant    %q", names, want)
	}
	index := string(fs["index.html"])
	for _, s := range []string{
		`<script src="assets/echarts.min.js"></script>`,
		`<script src="assets/site.js"></script>`,
		`<link rel="stylesheet" href="assets/site.css">`,
		`<a href="questions/index.html">Questions</a>`,
		`<a href="rubric.html">Rubric and Solve Rate</a>`,
		"Instruments present:", `<span class="missing">criteria</span>`,
		"75.0 % [50.0 %, 100.0 %]", // solve_rate with its interval, 0.75 [0.5, 1]
		`id="fig-fig_solve_rate"`,  // the Solve Rate figure
		"v0.0.0-test · run 2026-01-02 03:04:05 UTC",
		"d9b3a3cd7bd5b2e4e63ac7c8b1e6e8bb0d6b5cfad6ebbaa2d1b0bd3d0a1b2c3d",
	} {
		if !strings.Contains(index, s) {
			t.Errorf("index.html lacks %q", s)
		}
	}
	q1 := string(fs["questions/q1.html"])
	for _, s := range []string{
		`<script src="../assets/site.js"></script>`,
		`<link rel="stylesheet" href="../assets/site.css">`,
		`<a href="../index.html">Overview</a>`,
		"LONG-START ", " LONG-END", // the 40,000-character response whole
		"=HYPERLINK(&#34;http://x&#34;)",
		"&lt;/script&gt;&lt;script&gt;alert(&#39;prompt&#39;)&lt;/script&gt;",
		`<td class="v-partial">½ partial</td>`,
		"comment 0 by human_a: &lt;script&gt;alert(0)&lt;/script&gt;",
		`href="q_2_weird_id-a92f4a4d.html" rel="next"`,
	} {
		if !strings.Contains(q1, s) {
			t.Errorf("q1.html lacks %q", s)
		}
	}
	if strings.Contains(q1, "echarts.min.js") {
		t.Error("a question page without figures loads echarts")
	}
	qi := string(fs["questions/index.html"])
	for _, s := range []string{`<a href="q1.html">q1</a>`, `<a href="q_2_weird_id-a92f4a4d.html">q/2 weird id</a>`, `id="qsearch"`} {
		if !strings.Contains(qi, s) {
			t.Errorf("questions/index.html lacks %q", s)
		}
	}
	if !bytes.Equal(fs["assets/echarts.min.js"], []byte("/* echarts stand-in */")) {
		t.Error("assets/echarts.min.js is not the given asset")
	}
}

var linkRE = regexp.MustCompile(`(?:src|href)="([^"]*)"`)

// Every src/href is relative and resolves: to a file of the site, to an
// anchor, or to a CSV the report writes beside the site (../tables/).
func TestLinksRelativeAndResolve(t *testing.T) {
	r := reporttest.Small()
	dir := writeSite(t, r, Options{})
	fs := files(t, dir)
	csv := map[string]bool{"notes.csv": true}
	for _, tb := range r.Tables {
		csv[tb.Name+".csv"] = true
	}
	for name, b := range fs {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		for _, m := range linkRE.FindAllStringSubmatch(string(b), -1) {
			link := m[1]
			if link == "" || strings.HasPrefix(link, "#") {
				continue
			}
			if strings.Contains(link, "://") || strings.HasPrefix(link, "//") || strings.HasPrefix(link, "/") {
				t.Errorf("%s: absolute link %q", name, link)
				continue
			}
			target := filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(name), strings.SplitN(link, "#", 2)[0])))
			if strings.HasPrefix(target, "../tables/") {
				if !csv[strings.TrimPrefix(target, "../tables/")] {
					t.Errorf("%s: link %q to a CSV the report does not write", name, link)
				}
				continue
			}
			if _, ok := fs[target]; !ok {
				t.Errorf("%s: link %q resolves to %s, which is not in the site", name, link, target)
			}
		}
	}
}

var urlRE = regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`)

// No network address in the output: the only http:// in any file written by
// the site (the chart library aside, whose text holds XML namespace names and
// which no page loads from elsewhere) is the user's answer
// =HYPERLINK("http://x"), escaped.
func TestNoNetworkAddresses(t *testing.T) {
	r := reporttest.Small()
	r.Questions[0].References[0].Text = "see https://example.org/ref and //cdn.example.com/x.js"
	dir := writeSite(t, r, Options{})
	for name, b := range files(t, dir) {
		if name == "assets/echarts.min.js" || strings.HasPrefix(name, "tables/") {
			continue // the library; the CSVs (user data, as in OUT/tables)
		}
		s := string(b)
		// User text, escaped as the page shows it.
		for _, user := range []string{"HYPERLINK(&#34;http://x&#34;)", "https://example.org/ref", "//cdn.example.com/x.js"} {
			s = strings.ReplaceAll(s, user, "")
		}
		if loc := regexp.MustCompile(`https?://`).FindStringIndex(s); loc != nil {
			t.Errorf("%s: network address near %q", name, s[max(0, loc[0]-40):min(len(s), loc[1]+40)])
		}
		if m := urlRE.FindString(s); m != "" {
			t.Errorf("%s: address %q", name, m)
		}
		if strings.Contains(strings.ToLower(s), "cdn") && name != "questions/q1.html" {
			t.Errorf("%s mentions a CDN", name)
		}
	}
}

// User text never reaches a page unescaped: not in HTML, not in the chart JSON.
func TestEscaping(t *testing.T) {
	dir := writeSite(t, reporttest.Small(), Options{})
	for name, b := range files(t, dir) {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		s := string(b)
		for _, raw := range []string{reporttest.XSSModel, reporttest.XSSLabel, "<script>alert", "<b>bold</b>", "<b>two</b>", "<i>markup</i>"} {
			if strings.Contains(s, raw) {
				t.Errorf("%s holds %q unescaped", name, raw)
			}
		}
		// Each page has exactly its own </script> closers: one per chart JSON
		// and per script element.
		opens := strings.Count(s, "<script")
		if closes := strings.Count(s, "</script>"); closes != opens {
			t.Errorf("%s: %d <script and %d </script>", name, opens, closes)
		}
	}
	judges := string(files(t, dir)["judges.html"])
	if !strings.Contains(judges, `"\u003cimg src=x onerror=alert(1)\u003e"`) {
		t.Error("the chart JSON does not hold the model name with < and > escaped")
	}
}

func TestMissingECharts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	warn, err := Write(context.Background(), dir, reporttest.Small(), Options{Assets: fstest.MapFS{}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(warn, []string{MissingEChartsWarning}) {
		t.Errorf("warnings = %q", warn)
	}
	for name, b := range files(t, dir) {
		if name == "assets/echarts.min.js" {
			t.Error("an echarts.min.js was written")
		}
		if strings.HasSuffix(name, ".html") {
			s := string(b)
			if !strings.Contains(s, `<div class="banner" role="alert">`) || !strings.Contains(s, "make assets") {
				t.Errorf("%s has no banner", name)
			}
			if strings.Contains(s, "echarts.min.js\"></script>") {
				t.Errorf("%s loads the missing echarts.min.js", name)
			}
		}
	}
}

// The same report gives the same bytes, whatever the number of workers.
func TestDeterministic(t *testing.T) {
	a := files(t, writeSite(t, reporttest.Small(), Options{Workers: 1}))
	b := files(t, writeSite(t, reporttest.Small(), Options{Workers: 4}))
	if len(a) != len(b) {
		t.Fatalf("%d files vs %d", len(a), len(b))
	}
	for n, x := range a {
		if !bytes.Equal(x, b[n]) {
			t.Errorf("%s differs between runs", n)
		}
	}
}

func TestTableRowCap(t *testing.T) {
	dir := writeSite(t, reporttest.Small(), Options{MaxTableRows: 2, MaxCellChars: 30})
	cost := string(files(t, dir)["cost.html"])
	if !strings.Contains(cost, "3 rows; the first 2 are shown, all are in the CSV") {
		t.Error("cost.html does not say that rows were left out")
	}
	// Row 2 of responses is the 40,000-character answer, cut to 30
	// characters: "LONG-START " and 19 x, then 39,970 more.
	if !strings.Contains(cost, "LONG-START xxxxxxxxxxxxxxxxxxx … [39970 more characters]") {
		t.Error("cost.html does not cut the long cell")
	}
	if strings.Contains(cost, "gamma &amp; co") && strings.Contains(cost, "Short answer by gamma") {
		t.Error("cost.html shows the third row")
	}
}

func TestSafeName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"q1", "q1"},
		{"Q-0001_a", "Q-0001_a"},
		// sha256("q/2 weird id") starts a92f4a4d (python: hashlib.sha256(b"q/2 weird id").hexdigest()[:8]).
		{"q/2 weird id", "q_2_weird_id-a92f4a4d"},
		// sha256("") starts e3b0c442.
		{"", "-e3b0c442"},
	}
	for _, tc := range tests {
		if got := safeName(tc.in); got != tc.want {
			t.Errorf("safeName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	used := map[string]bool{"index": true}
	if got := uniqueName("Index", used); got != "Index-2" {
		t.Errorf("uniqueName(Index) = %q, want Index-2", got)
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		x       float64
		pct, nb string
	}{
		{470.0 / 826.0, "56.9 %", "0.569"},
		{0, "0.0 %", "0"},
		{1, "100.0 %", "1.000"},
		{0.00004, "0.0 %", "4.00e-05"},
		{1234.5678, "123456.8 %", "1234.6"},
		{-2.5, "-250.0 %", "-2.500"},
		{math.NaN(), "—", "—"},
	}
	for _, tc := range tests {
		if got := FormatPercent(tc.x); got != tc.pct {
			t.Errorf("FormatPercent(%v) = %q, want %q", tc.x, got, tc.pct)
		}
		if got := FormatNumber(tc.x); got != tc.nb {
			t.Errorf("FormatNumber(%v) = %q, want %q", tc.x, got, tc.nb)
		}
	}
}

// A figure with odd data (short slices, NaN, an empty heatmap, x ≤ 0 on a log
// axis) is written, not a panic.
func TestOddFigures(t *testing.T) {
	r := &report.Report{Figures: []*report.Figure{
		{ID: "a", Kind: report.Bar, Categories: []string{"x", "y"}, Series: []report.Series{{Name: "s", Values: []float64{math.NaN()}, Lo: []float64{0}, Hi: []float64{1, 2}}}},
		{ID: "b", Kind: report.Heatmap},
		{ID: "c", Kind: report.Line, LogX: true, Series: []report.Series{{Name: "s", Points: []report.Point{{X: 0, Y: 1}, {X: 10, Y: math.Inf(1)}}}}},
		{ID: "a", Kind: report.Scatter},
		{ID: "d", Kind: "pie"},
	}}
	dir := writeSite(t, r, Options{})
	idx := string(files(t, dir)["other.html"])
	for _, s := range []string{`id="fig-a"`, `id="fig-a-2"`, "1 points with x ≤ 0 cannot be drawn", `"value":[10,null,""]`} {
		if !strings.Contains(idx, s) {
			t.Errorf("other.html lacks %q", s)
		}
	}
}

func TestWriteCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Write(ctx, t.TempDir(), reporttest.Small(), Options{Assets: fstest.MapFS{}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// A question page shows each response's blinded label, escaped, beside the
// model (in the responses table and the response's heading) and each
// grader's label in the gradings table.
func TestBlindedLabels(t *testing.T) {
	dir := writeSite(t, reporttest.Small(), Options{})
	var page string
	for name, b := range files(t, dir) {
		if strings.HasPrefix(name, "questions/q1") {
			page = string(b)
		}
	}
	if page == "" {
		t.Fatal("no page of question q1")
	}
	for _, want := range []string{
		`>blinded label</th>`,
		`<td class="blind">&lt;u&gt;A&lt;/u&gt;</td>`,
		`<td class="blind">B</td>`,
		`shown as &lt;u&gt;A&lt;/u&gt;</span></h3>`,
		`shown as C</span></h3>`,
		`<td class="label">B</td>`,
		`<th scope="row" title="the blinded label this grader saw the response under">Label</th>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("question page lacks %s", want)
		}
	}
	// the judge saw no label: its cell says so
	if !strings.Contains(page, `<td class="undef">—</td>`) {
		t.Error("a grading without a label has no — cell")
	}
	// a question whose gradings named the models has no label column
	for name, b := range files(t, dir) {
		if strings.HasPrefix(name, "questions/q_2") || strings.Contains(name, "weird") {
			if strings.Contains(string(b), "blinded label") {
				t.Errorf("%s: a label column without labels", name)
			}
		}
	}
}

// Table 3 (a table with model and display_name columns) shows the model ids
// as written under "Model id", beside the display names under "Display
// name": two columns, two headers, not the display name twice.
func TestModelsTableIDsBesideDisplayNames(t *testing.T) {
	r := reporttest.Small()
	r.Tables = append(r.Tables, &report.Table{Name: "models", Title: "Table 3", Section: report.SectionDataset,
		Columns: []report.Column{{Name: "model"}, {Name: "display_name"}},
		Rows:    [][]any{{"gamma & co", "Gamma"}, {"alpha", "Alpha"}}})
	dir := writeSite(t, r, Options{})
	page := string(files(t, dir)["dataset.html"])
	for _, want := range []string{`>Model id</th>`, `>Display name</th>`, `<td>gamma &amp; co</td><td>Gamma</td>`, `<td>alpha</td><td>Alpha</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("dataset.html lacks %s", want)
		}
	}
}

// The index's first screen: the findings, then the headline chart (Solve
// Rate with intervals), then the Methods paragraph and how to read; the
// headline chart is on the page once.
func TestIndexHeadlineChartAfterFindings(t *testing.T) {
	r := reporttest.Small()
	var headline *report.Figure
	for _, f := range r.Figures {
		if f.Table == "summary" && f.Kind == report.Bar {
			headline = f
		}
	}
	if headline == nil {
		t.Fatal("the test report has no headline figure")
	}
	page := string(files(t, writeSite(t, r, Options{}))["index.html"])
	chart := `<figure class="chart" id="fig-` + headline.ID + `"`
	var at []int
	for _, mark := range []string{`<section class="findings"`, chart, `<section class="methods"`, `<section class="howto"`, `<section class="glance"`} {
		i := strings.Index(page, mark)
		if i < 0 {
			t.Fatalf("index.html lacks %s", mark)
		}
		at = append(at, i)
	}
	if !slices.IsSorted(at) {
		t.Errorf("index.html order (findings, headline chart, methods, how to read, at a glance): offsets %v", at)
	}
	if n := strings.Count(page, chart); n != 1 {
		t.Errorf("the headline chart is on the index %d times, want once", n)
	}
}

// TestQuestionTopSame checks that a question page made with its header
// and navigation rendered once for all pages (pageData.Top) is byte for
// byte the page rendered with the "top" template in place, on a report
// whose model names need escaping and without the chart library (the
// banner is part of the header).
func TestQuestionTopSame(t *testing.T) {
	for _, noECharts := range []bool{false, true} {
		r := reporttest.Small()
		if len(r.Questions) == 0 {
			t.Fatal("the small report has no question pages")
		}
		dir := t.TempDir()
		b := newBuilder(r, DefaultOptions.withDefaults(), noECharts)
		if err := b.writeQuestions(dir); err != nil {
			t.Fatal(err)
		}
		if b.questionTop == "" {
			t.Fatal("writeQuestions rendered no shared header")
		}
		for _, i := range b.pages {
			q := r.Questions[i]
			withTop := b.questionPage(i, q)
			inPlace := b.questionPage(i, q)
			inPlace.Top = ""
			var got, want bytes.Buffer
			if err := tmpl.ExecuteTemplate(&got, "page", withTop); err != nil {
				t.Fatal(err)
			}
			if err := tmpl.ExecuteTemplate(&want, "page", inPlace); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("no charts %v, question %s: the page with the shared header differs from the page rendered in place:\n got %.600s\nwant %.600s", noECharts, q.ID, got.String(), want.String())
			}
			if !strings.Contains(want.String(), `<nav>`) || !strings.Contains(want.String(), `aria-current="page">Questions</a>`) {
				t.Errorf("question %s: the page has no navigation with Questions current:\n%.800s", q.ID, want.String())
			}
			file, err := os.ReadFile(filepath.Join(dir, b.qfiles[i]))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(file, want.Bytes()) {
				t.Errorf("question %s: the written page differs from the page rendered in place", q.ID)
			}
		}
	}
}

// BenchmarkQuestionPages renders every question page of a paper-scale
// report of EUROEXEC_BENCH_QUESTIONS questions (default 1,000) with the
// header and navigation rendered in place on every page (the baseline)
// and rendered once for all pages (pageData.Top), in the same run.
func BenchmarkQuestionPages(b *testing.B) {
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("EUROEXEC_BENCH_QUESTIONS")); err == nil && v > 0 {
		n = v
	}
	r := reporttest.PaperScale(n)
	bl := newBuilder(r, DefaultOptions.withDefaults(), false)
	if err := bl.writeQuestions(b.TempDir()); err != nil {
		b.Fatal(err)
	}
	for _, shared := range []bool{false, true} {
		b.Run(fmt.Sprintf("shared_header=%v", shared), func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				for _, i := range bl.pages {
					p := bl.questionPage(i, r.Questions[i])
					if !shared {
						p.Top = ""
					}
					buf.Reset()
					if err := tmpl.ExecuteTemplate(&buf, "page", p); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// A Paged table longer than the row cap shows every row, page by page:
// the first page on the section page, the others on pages of their own,
// linked previous/next.
func TestTablePaged(t *testing.T) {
	r := reporttest.Small()
	var tab *report.Table
	for _, x := range r.Tables {
		if x.Section == report.SectionCost && len(x.Rows) == 3 {
			tab = x
		}
	}
	if tab == nil {
		t.Fatal("reporttest.Small has no 3-row cost table")
	}
	tab.Paged = true
	fs := files(t, writeSite(t, r, Options{MaxTableRows: 2, MaxCellChars: 30}))
	second := "cost-" + tab.Name + "-2.html"
	first, page2 := string(fs["cost.html"]), string(fs[second])
	for _, c := range []struct{ page, what, want string }{
		{first, "cost.html", "3 rows; rows 1–2 on page 1 of 2"},
		{first, "cost.html", `<a href="` + second + `" rel="next">`},
		{page2, second, "3 rows; rows 3–3 on page 2 of 2"},
		{page2, second, `<a href="cost.html" rel="prev">`},
	} {
		if !strings.Contains(c.page, c.want) {
			t.Errorf("%s lacks %q", c.what, c.want)
		}
	}
	if strings.Contains(page2, "rel=\"next\"") {
		t.Errorf("the last page %s links a next page", second)
	}
	if _, ok := fs["cost-"+tab.Name+"-3.html"]; ok {
		t.Error("a third page was written for 3 rows at 2 a page")
	}
}
