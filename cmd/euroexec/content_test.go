package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
	"golang.org/x/net/html"

	"github.com/euroexec/euroexec/metrics/judgeaudit"
	"github.com/euroexec/euroexec/report/xlsx"
)

// changeKey is one flagged change as every output writes it: model,
// metric words, graders and the change with its interval.
func changeKey(cells ...string) string {
	for i, c := range cells {
		cells[i] = strings.Join(strings.Fields(c), " ")
	}
	return strings.Join(cells, " | ")
}

// htmlRows returns the cell texts of the rows of the table inside the
// element with id in the HTML of path.
func htmlRows(t *testing.T, path, id string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := html.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	var find func(n *html.Node) *html.Node
	find = func(n *html.Node) *html.Node {
		for _, a := range n.Attr {
			if a.Key == "id" && a.Val == id {
				return n
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if m := find(c); m != nil {
				return m
			}
		}
		return nil
	}
	sec := find(doc)
	if sec == nil {
		t.Fatalf("%s: no element #%s", path, id)
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
	var rows [][]string
	var walk func(n *html.Node, inBody bool)
	walk = func(n *html.Node, inBody bool) {
		if n.Type == html.ElementNode && n.Data == "tbody" {
			inBody = true
		}
		if inBody && n.Type == html.ElementNode && n.Data == "tr" {
			var row []string
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.Data == "td" {
					row = append(row, text(c))
				}
			}
			rows = append(rows, row)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inBody)
		}
	}
	walk(sec, false)
	return rows
}

// TestCompareSummaryConsistent runs compare with --labels and checks that
// the terminal, the workbook's first sheet and the site's index show the
// same flagged changes — the rows of compare_models flagged "yes", in the
// same order, with the run labels — and that the workbook no longer says
// there is nothing to report.
func TestCompareSummaryConsistent(t *testing.T) {
	dir, rep, study := fixture(t)
	out := filepath.Join(dir, "cmp-summary")
	var stdout, stderr bytes.Buffer
	err := runCompare(context.Background(), &stdout, &stderr, []string{rep, study},
		compareOptions{out: out, bootstrap: 200, seed: -1, maps: []string{"ember-3.1=ember-3.2"}, labels: "spring, autumn", now: fixedNow})
	if err != nil {
		t.Fatalf("compare: %v\n%s", err, stderr.String())
	}
	// compare_models: the flagged rows, the reference
	flagged := 0
	for _, row := range readCompareCSV(t, filepath.Join(out, "tables", "compare_models.csv"))[1:] {
		if row[len(row)-1] == "yes" {
			flagged++
		}
	}
	if flagged == 0 {
		t.Fatal("the fixture flags no change: nothing to compare")
	}
	// terminal
	term := stdout.String()
	head := regexp.MustCompile(`What changed: spring → autumn — (\d+) of \d+ changes significant`).FindStringSubmatch(term)
	if head == nil {
		t.Fatalf("terminal lacks the what-changed heading with the labels:\n%s", term)
	}
	var fromTerm []string
	lines := strings.Split(term[strings.Index(term, head[0]):], "\n")[2:]
	cell := regexp.MustCompile(`\s{2,}`)
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			break
		}
		c := cell.Split(strings.TrimSpace(l), -1)
		if len(c) < 7 {
			t.Fatalf("terminal row %q: %d cells", l, len(c))
		}
		fromTerm = append(fromTerm, changeKey(c[0], c[1], c[2], c[5], c[6]))
	}
	// workbook, first sheet
	f, err := excelize.OpenFile(filepath.Join(out, "report.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if first := f.GetSheetList()[0]; first != xlsx.SheetFindings {
		t.Fatalf("first sheet %q", first)
	}
	rows, err := f.GetRows(xlsx.SheetFindings)
	if err != nil {
		t.Fatal(err)
	}
	var fromBook []string
	all := ""
	for i, r := range rows {
		all += strings.Join(r, "\t") + "\n"
		if len(r) > 0 && strings.HasPrefix(r[0], "What changed — spring → autumn") {
			for _, d := range rows[i+2:] {
				if len(d) < 8 || d[0] == "" {
					break
				}
				// the change is a number there; its text with the interval is
				// rebuilt from the interval column's units
				fromBook = append(fromBook, changeKey(d[0], d[1], d[2], d[6], d[7]))
			}
		}
	}
	if strings.Contains(all, "nothing to report") {
		t.Errorf("the workbook's first sheet says there is nothing to report:\n%s", all)
	}
	// site index
	var fromSite []string
	for _, r := range htmlRows(t, filepath.Join(out, "site", "index.html"), "changes") {
		if len(r) != 7 {
			t.Fatalf("site row %q: %d cells", r, len(r))
		}
		iv := r[5][strings.Index(r[5], " ")+1:]
		fromSite = append(fromSite, changeKey(r[0], r[1], r[2], iv, r[6]))
	}
	// the terminal shows the change with its interval; compare its
	// interval part, as the workbook writes it
	for i, k := range fromTerm {
		parts := strings.Split(k, " | ")
		d := parts[3]
		parts[3] = d[strings.Index(d, " ")+1:]
		fromTerm[i] = strings.Join(parts, " | ")
	}
	if len(fromTerm) != flagged || len(fromBook) != flagged || len(fromSite) != flagged {
		t.Fatalf("flagged rows: compare_models %d, terminal %d, workbook %d, site %d\nterminal %q\nworkbook %q\nsite %q",
			flagged, len(fromTerm), len(fromBook), len(fromSite), fromTerm, fromBook, fromSite)
	}
	for i := range fromTerm {
		if fromTerm[i] != fromBook[i] || fromTerm[i] != fromSite[i] {
			t.Errorf("row %d differs:\n terminal %q\n workbook %q\n site     %q", i, fromTerm[i], fromBook[i], fromSite[i])
		}
	}
	t.Logf("%d flagged changes, e.g. %q", flagged, fromTerm[0])
}

func TestParseLabels(t *testing.T) {
	for _, c := range []struct {
		in   string
		runs int
		want string // joined by |, or the error's start
	}{
		{"", 2, ""},
		{"old,new", 2, "old|new"},
		{" spring , autumn ", 2, "spring|autumn"},
		{"a,b", 3, "--labels \"a,b\": 2 labels for 3 runs"},
		{"a,,c", 3, "--labels \"a,,c\": label 2 is empty"},
		{"a,a", 2, "--labels \"a,a\": label \"a\" is given twice"},
	} {
		got, err := parseLabels(c.in, c.runs)
		s := strings.Join(got, "|")
		if err != nil {
			s = err.Error()
		}
		if !strings.HasPrefix(s, c.want) || (c.want == "" && s != "") {
			t.Errorf("parseLabels(%q, %d) = %q, want %q", c.in, c.runs, s, c.want)
		}
	}
}

// TestSampleVerdictsMatchFlags holds the bundled sample's judge verdicts
// (tables/judge_audit.csv) to their flags: every flagged bias named with
// its size, none claimed to agree with the humans
// (judgeaudit.ContradictsFlags). The sample's judges are flagged for
// leniency, scale and checklist leniency below the materiality
// thresholds, the case that used to read "usable … absolute scores".
func TestSampleVerdictsMatchFlags(t *testing.T) {
	_, rep, _ := fixture(t)
	rows := readCompareCSV(t, filepath.Join(rep, "tables", "judge_audit.csv"))
	head := map[string]int{}
	for i, c := range rows[0] {
		head[c] = i
	}
	flaggedJudges := 0
	for _, r := range rows[1:] {
		var flags []string
		if f := r[head["flagged"]]; f != "" {
			flags = strings.Split(f, ";")
			flaggedJudges++
		}
		for _, p := range judgeaudit.ContradictsFlags(flags, r[head["verdict"]]) {
			t.Errorf("judge %s: %s", r[head["judge"]], p)
		}
	}
	if flaggedJudges == 0 {
		t.Fatal("no judge of the sample is flagged: the check sees nothing")
	}
}
