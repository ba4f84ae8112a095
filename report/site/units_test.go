package site

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/format"
	"github.com/euroexec/euroexec/report/internal/reporttest"
)

// unitReport is the test report plus a table whose rate interval leaves
// [0, 1] (a normal-approximation interval), a bias column, p-values and a
// model column.
func unitReport() *report.Report {
	r := reporttest.Small()
	r.Tables = append(r.Tables, &report.Table{
		Name: "units", Title: "Units", Section: report.SectionJudges,
		Columns: []report.Column{
			{Name: "model"}, {Name: "solve_rate", Kind: report.Fraction}, {Name: "solve_rate_lo", Kind: report.Fraction}, {Name: "solve_rate_hi", Kind: report.Fraction},
			{Name: "solve_bias", Kind: report.Fraction}, {Name: "solve_bias_lo", Kind: report.Fraction}, {Name: "solve_bias_hi", Kind: report.Fraction},
			{Name: "p", Kind: report.Float}, {Name: "p_holm", Kind: report.Float},
		},
		Rows: [][]any{
			{"alpha", 0.0125, -0.015, 0.04, -0.09, -0.2, 0.02, 8.2e-07, 0.0136},
			{"gamma & co", 0.99, 0.95, 1.02, 0.057, -0.038, 0.1485, 0.5, 1.0},
		},
	})
	return r
}

var (
	pctRe      = regexp.MustCompile(`^(-?\d+\.\d) %$`)
	pctIntRe   = regexp.MustCompile(`^(-?\d+\.\d) % \[(-?\d+\.\d) %, (-?\d+\.\d) %\]$`)
	ppRe       = regexp.MustCompile(`^[+-]\d+\.\d pp( \[[+-]\d+\.\d pp, [+-]\d+\.\d pp\])?$`)
	pValueRe   = regexp.MustCompile(`^(0|1\.000|0\.\d{3}|\d\.\de-\d\d)$`)
	undefinedV = "—"
)

// htmlTables returns, per table of a page, the CSV column names of its heads
// and its cells' text.
func htmlTables(t *testing.T, page []byte) (heads [][]string, rows [][][]string) {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
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
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "table" {
			var h []string
			var rs [][]string
			var inner func(n *html.Node)
			inner = func(n *html.Node) {
				if n.Type == html.ElementNode && n.Data == "th" {
					csv := ""
					for _, a := range n.Attr {
						if a.Key == "data-csv" {
							csv = a.Val
						}
					}
					h = append(h, csv)
				}
				if n.Type == html.ElementNode && n.Data == "tr" {
					var cells []string
					for c := n.FirstChild; c != nil; c = c.NextSibling {
						if c.Type == html.ElementNode && c.Data == "td" {
							cells = append(cells, text(c))
						}
					}
					if cells != nil {
						rs = append(rs, cells)
					}
				}
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					inner(c)
				}
			}
			inner(n)
			heads, rows = append(heads, h), append(rows, rs)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return heads, rows
}

// TestUnitConvention checks every table cell of every page against the kind
// of its column: rates are percent and rate intervals lie inside [0 %,
// 100 %]; differences of rates are percentage points; p-values have three
// decimals or scientific notation below 0.001.
func TestUnitConvention(t *testing.T) {
	r := unitReport()
	kinds := map[string]report.Column{}
	for _, tb := range r.Tables {
		for _, c := range tb.Columns {
			kinds[c.Name] = c
		}
	}
	dir := writeSite(t, r, Options{})
	checked := map[string]int{}
	for name, page := range files(t, dir) {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		heads, rows := htmlTables(t, page)
		for ti := range heads {
			for _, row := range rows[ti] {
				if len(row) != len(heads[ti]) {
					continue // key–value tables
				}
				for ci, cell := range row {
					csv := strings.Split(heads[ti][ci], ", ")[0]
					col, ok := kinds[csv]
					if !ok || cell == undefinedV {
						continue
					}
					where := name + ": " + csv + " = " + strconv.Quote(cell)
					switch {
					case col.Kind == report.Fraction && (strings.Contains(csv, "bias") || strings.Contains(csv, "diff")):
						checked["pp"]++
						if !ppRe.MatchString(cell) {
							t.Errorf("%s: a difference of rates is not in percentage points", where)
						}
					case col.Kind == report.Fraction:
						checked["rate"]++
						m := pctIntRe.FindStringSubmatch(cell)
						if m == nil {
							m = pctRe.FindStringSubmatch(cell)
						}
						if m == nil {
							t.Errorf("%s: a rate is not shown as a percent", where)
							continue
						}
						for _, v := range m[1:] {
							x, _ := strconv.ParseFloat(v, 64)
							if x < 0 || x > 100 {
								t.Errorf("%s: %v %% is outside [0 %%, 100 %%]", where, x)
							}
						}
						if len(m) == 4 {
							checked["rate interval"]++
						}
					case csv == "p" || csv == "p_holm":
						checked["p"]++
						if !pValueRe.MatchString(cell) {
							t.Errorf("%s: not a p-value form", where)
						}
					}
				}
			}
		}
	}
	// The test report has rates, rate intervals, differences and p-values.
	for _, k := range []string{"rate", "rate interval", "pp", "p"} {
		if checked[k] == 0 {
			t.Errorf("no %s cell checked: the test checks nothing", k)
		}
	}
	units := html.UnescapeString(string(files(t, dir)["judges.html"]))
	for _, want := range []string{"1.2 % [0.0 %, 4.0 %]", "99.0 % [95.0 %, 100.0 %]", "-9.0 pp [-20.0 pp, +2.0 pp]", "8.2e-07", "0.014"} {
		if !strings.Contains(units, want) {
			t.Errorf("judges.html lacks %q", want)
		}
	}
}

// An evaluator's page lists their gradings with the other human graders'
// scores of the same response; the question index carries each question's
// Solve Rate and disagreement as sort keys.
func TestEvaluatorPageAndQuestionIndex(t *testing.T) {
	r := reporttest.Small()
	q := r.Questions[0]
	q.SolveRate, q.Solved, q.Graded, q.Disagreement = 0.25, 1, 4, 0.75
	r.Tables = append(r.Tables, &report.Table{Name: "evaluators", Section: report.SectionDataset,
		Columns: []report.Column{{Name: "evaluator"}, {Name: "n_gradings", Kind: report.Int}, {Name: "rubric_mean", Kind: report.Float},
			{Name: "solve_rate", Kind: report.Fraction}, {Name: "group"},
			{Name: "rubric_abs_diff_others", Kind: report.Float}, {Name: "spearman_others", Kind: report.Float}, {Name: "solve_agreement", Kind: report.Fraction}},
		Rows: [][]any{{"human_a", int64(3), 3.5, 0.3333, "lenient", 0.5, math.NaN(), 0.75}}})
	dir := writeSite(t, r, Options{})
	fs := files(t, dir)
	page := html.UnescapeString(string(fs["evaluators/human_a.html"]))
	for _, want := range []string{
		"<th scope=\"row\">Rubric mean (points)</th><td>3.50</td>", "<td>33.3 %</td>", "<td>lenient</td>",
		`<a href="../questions/q1.html">q1</a>`, "Only 3 gradings",
		"<th scope=\"row\">Mean |Δ| from the others (points)</th><td>0.50</td>",
		"<th scope=\"row\">Solve agreement with the others</th><td>75.0 %</td>",
		"<th scope=\"row\">Spearman ρ with the others</th><td>—</td>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("evaluators/human_a.html lacks %q", want)
		}
	}
	qi := string(fs["questions/index.html"])
	for _, want := range []string{`data-sort="0.25">25.0 %</td>`, `data-sort="0.75">0.75</td>`} {
		if !strings.Contains(qi, want) {
			t.Errorf("questions/index.html lacks %q", want)
		}
	}
}

func TestFewPointsWarning(t *testing.T) {
	pts := func(n int) []report.Point {
		var p []report.Point
		for i := 0; i < n; i++ {
			p = append(p, report.Point{X: float64(i + 1), Y: 1})
		}
		return p
	}
	for _, c := range []struct {
		name string
		f    *report.Figure
		want string
	}{
		{"scatter of 4", &report.Figure{Kind: report.Scatter, Series: []report.Series{{Points: pts(4)}}}, "Small sample: this chart rests on 4 points; a fitted line or calibration from so few points is not to be relied on."},
		{"scatter of 5", &report.Figure{Kind: report.Scatter, Series: []report.Series{{Points: pts(3)}, {Points: pts(2)}}}, ""},
		{"curve of 2", &report.Figure{Kind: report.Line, Series: []report.Series{{Points: pts(6)}, {Points: pts(2)}}}, "Small sample: a curve here is drawn from 2 points."},
		{"curve of 3", &report.Figure{Kind: report.Line, Series: []report.Series{{Points: pts(3)}}}, ""},
		{"bars", &report.Figure{Kind: report.Bar, Categories: []string{"a"}, Series: []report.Series{{Values: []float64{1}}}}, ""},
	} {
		if got := fewPoints(c.f); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// Tables with a model and a Solve Rate are ordered by Solve Rate (places
// shared by equal rates) or, on request, by display name keeping the
// places; blocks of set and graders stay apart and in their order.
func TestHeadlineOrder(t *testing.T) {
	tab := &report.Table{Columns: []report.Column{{Name: "set"}, {Name: "model"}, {Name: "solve_rate", Kind: report.Fraction}},
		Rows: [][]any{
			{"all", "zeta", 0.2}, {"all", "Alpha", 0.5}, {"all", "beta", 0.5}, {"all", "mid", 0.3},
			{"ref", "b", 0.1}, {"ref", "a", 0.9},
		}}
	display := map[string]string{"zeta": "Zeta", "mid": "Aardvark"}
	name := func(id string) string {
		if d, ok := display[id]; ok {
			return d
		}
		return id
	}
	for _, c := range []struct {
		by   format.Order
		want string // model:place in display order
	}{
		{"", "Alpha:1 beta:1 mid:3 zeta:4 a:1 b:2"},
		{format.OrderRank, "Alpha:1 beta:1 mid:3 zeta:4 a:1 b:2"},
		{format.OrderAlpha, "mid:3 Alpha:1 beta:1 zeta:4 a:1 b:2"},
	} {
		order, rank, ok := headlineOrder(tab, c.by, name, headline{column: "solve_rate", label: "Solve Rate"})
		if !ok {
			t.Fatal("not ranked")
		}
		var got []string
		for k, r := range order {
			got = append(got, fmt.Sprintf("%s:%d", tab.Rows[r][1], rank[k]))
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("order %q: got %s, want %s", c.by, g, c.want)
		}
	}
}

// A judge that graded every response of a large study gets an evaluator
// page under 1 MB: it lists the first maxEvaluatorRows gradings, says how
// many there are and where the rest are; the evaluators index counts all.
func TestEvaluatorPageCapped(t *testing.T) {
	r := reporttest.Small()
	models := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta"}
	r.Questions = nil
	const nq = 700 // 4,200 gradings of judge:J1, 2,100 more than the cap
	for q := 0; q < nq; q++ {
		qp := &report.QuestionPage{ID: fmt.Sprintf("Q%05d", q), Domain: "Law", Prompt: "p"}
		for _, m := range models {
			qp.Responses = append(qp.Responses, report.ResponseView{Model: m, Gradings: []report.GradingView{
				{Evaluator: "judge:J1", Kind: "judge", Round: "main", RubricMean: 3.25, ChecklistRate: 0.5},
				{Evaluator: "human_a", Kind: "human", Round: "main", RubricMean: 2.5, ChecklistRate: 0.5},
			}})
		}
		r.Questions = append(r.Questions, qp)
	}
	dir := writeSite(t, r, Options{})
	fs := files(t, dir)
	var page string
	for name, b := range fs {
		if strings.HasPrefix(name, "evaluators/judge") {
			page = string(b)
			if len(b) >= 1<<20 {
				t.Errorf("%s is %d bytes, want < 1 MB", name, len(b))
			}
		}
	}
	if got, want := strings.Count(page, `<tr><td><a href="../questions/`), 2000; got != want {
		t.Errorf("judge page lists %d gradings, want %d", got, want)
	}
	for _, want := range []string{"<h2>Gradings (4200)</h2>", "The first 2000 of 4200 gradings", "study.duckdb"} {
		if !strings.Contains(page, want) {
			t.Errorf("judge page lacks %q", want)
		}
	}
	if idx := string(fs["evaluators/index.html"]); !strings.Contains(idx, `data-sort="4200">4200</td>`) {
		t.Errorf("evaluators/index.html does not count the judge's 4,200 gradings")
	}
}

// With a primary metric other than Solve Rate the tables that have its
// column are ordered by it (lowest first on a lower-is-better rubric;
// undefined values last, sharing their place); a metric without a column
// orders by its values by model.
func TestHeadlineOrderPrimary(t *testing.T) {
	tab := &report.Table{Columns: []report.Column{{Name: "model"}, {Name: "solve_rate", Kind: report.Fraction}, {Name: "rubric", Kind: report.Float}},
		Rows: [][]any{
			{"a", 0.9, 2.5}, {"b", 0.1, 0.3}, {"c", 0.5, math.NaN()}, {"d", 0.4, 0.3}, {"e", 0.3, nil},
		}}
	same := func(id string) string { return id }
	for _, c := range []struct {
		name string
		h    headline
		want string
	}{
		{"solve rate", headline{column: "solve_rate", label: "Solve Rate"}, "a:1 c:2 d:3 e:4 b:5"},
		{"rubric lower", headline{column: "rubric", lower: true, label: "mean MQM"}, "b:1 d:1 a:3 c:4 e:4"},
		{"rubric higher", headline{column: "rubric", label: "mean rubric score"}, "a:1 b:2 d:2 c:4 e:4"},
		{"ratings by model", headline{byModel: map[string]float64{"e": 1200, "b": 1100, "a": 900}, label: "Bradley–Terry rating"}, "e:1 b:2 a:3 c:4 d:4"},
	} {
		order, rank, ok := headlineOrder(tab, format.OrderRank, same, c.h)
		if !ok {
			t.Fatalf("%s: not ranked", c.name)
		}
		var got []string
		for k, r := range order {
			got = append(got, fmt.Sprintf("%s:%d", tab.Rows[r][0], rank[k]))
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%s: got %s, want %s", c.name, g, c.want)
		}
	}
}

// The index's headline chart is the primary metric's: the Solve Rate (the
// summary's bar chart) by default, the Bradley–Terry ratings when
// [report] primary = "pairwise".
func TestHeadlineFigurePrimary(t *testing.T) {
	figs := []*report.Figure{
		{ID: "pairwise_bt_ratings", Kind: report.Bar, Table: "pairwise_models"},
		{ID: "solve_rate_by_model", Kind: report.Bar, Table: "summary"},
	}
	for _, c := range []struct {
		primary, want string
	}{
		{"", "solve_rate_by_model"},
		{"pairwise", "pairwise_bt_ratings"},
		{"prbench", "solve_rate_by_model"}, // no PRBench figure: the summary's
	} {
		r := &report.Report{Figures: figs}
		if c.primary != "" {
			r.Settings = []report.KV{{Key: "report.primary", Value: c.primary}}
		}
		b := newBuilder(r, Options{}, true)
		if f := b.headlineFigure(); f == nil || f.ID != c.want {
			t.Errorf("primary %q: headline %+v, want %s", c.primary, f, c.want)
		}
	}
}
