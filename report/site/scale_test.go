package site

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/report"
	"github.com/euroexec/euroexec/report/internal/reporttest"
)

// scaledReport is the small report with n extra questions, every third
// one with a page (Featured) and the others summary lines; question 1 of
// the extras has a hostile id and prompt.
func scaledReport(n int) *report.Report {
	r := reporttest.Small()
	for i := 0; i < n; i++ {
		q := &report.QuestionPage{ID: fmt.Sprintf("x%03d", i), Domain: "D", Prompt: fmt.Sprintf("prompt %d", i)}
		if i == 1 {
			q.ID, q.Prompt = `x001"</script><img src=x onerror=alert(2)>`, `</script><script>alert('p')</script>`
		}
		if i%3 == 0 {
			q.Featured = report.FeaturedSample
			q.Responses = []report.ResponseView{{Model: "m", Text: "answer", HasText: true}}
		} else {
			q.Summary, q.NResponses, q.NGradings = true, 6, 12
		}
		r.Questions = append(r.Questions, q)
	}
	return r
}

// Above IndexRows the index is a search page over data files loaded with
// <script>; summary questions get no page; every row is in the data, its
// text JSON-encoded (no raw markup), and pages link only to pages.
var hrefRE = regexp.MustCompile(`href="([^"]+)"`)

func TestShardedIndex(t *testing.T) {
	r := scaledReport(10)
	opt := DefaultOptions
	opt.IndexRows = 4
	dir := writeSite(t, r, opt)
	fs := files(t, dir)
	var shards []string
	var qpages []string
	for name := range fs {
		if strings.HasPrefix(name, "questions/data/") {
			shards = append(shards, name)
		} else if strings.HasPrefix(name, "questions/") && name != "questions/index.html" {
			qpages = append(qpages, name)
		}
	}
	sort.Strings(shards)
	total := len(r.Questions)
	if want := (total + 3) / 4; len(shards) != want {
		t.Fatalf("%d data files %v, want %d", len(shards), shards, want)
	}
	wantPages := 0
	for _, q := range r.Questions {
		if !q.Summary {
			wantPages++
		}
	}
	if len(qpages) != wantPages {
		t.Errorf("%d question pages %v, want %d (the questions that are not summaries)", len(qpages), qpages, wantPages)
	}
	index := string(fs["questions/index.html"])
	for _, s := range shards {
		tag := `<script src="` + strings.TrimPrefix(s, "questions/") + `"></script>`
		if !strings.Contains(index, tag) {
			t.Errorf("index lacks %s", tag)
		}
	}
	if !strings.Contains(index, `data-shards=`) || strings.Contains(index, "x001") {
		t.Error("the sharded index should hold no question rows in its HTML")
	}
	if !strings.Contains(index, "responses.csv") {
		t.Error("the index does not say where the full texts are")
	}
	// every question exactly once across the data files, in order
	var ids []string
	for _, s := range shards {
		b := string(fs[s])
		if strings.Contains(b, "<") {
			t.Errorf("%s holds a raw '<': %.200s", s, b)
		}
		const pre = "push.apply(window.EUROEXEC_QUESTIONS, "
		i, j := strings.Index(b, pre)+len(pre), strings.LastIndex(b, "]")
		var rows [][]any
		if err := json.Unmarshal([]byte(b[i:j+1]), &rows); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		for _, row := range rows {
			ids = append(ids, row[0].(string))
			file := row[1].(string)
			if file != "" {
				if _, ok := fs["questions/"+file]; !ok {
					t.Errorf("row %v links to a missing page", row)
				}
			}
		}
	}
	if len(ids) != total {
		t.Fatalf("%d rows in the data, want %d", len(ids), total)
	}
	for k, q := range r.Questions {
		if ids[k] != q.ID {
			t.Errorf("row %d is %q, want %q", k, ids[k], q.ID)
		}
	}
	// prev/next only between pages
	for _, p := range qpages {
		b := string(fs[p])
		for _, m := range hrefRE.FindAllStringSubmatch(b, -1) {
			if strings.HasSuffix(m[1], ".html") && !strings.Contains(m[1], "/") {
				if _, ok := fs["questions/"+m[1]]; !ok {
					t.Errorf("%s links to missing %s", p, m[1])
				}
			}
		}
	}
}

// Below IndexRows the index stays an HTML table; summary rows show their
// counts and no link, and the note says how many questions have pages.
func TestIndexWithSummaryRows(t *testing.T) {
	r := scaledReport(4)
	dir := writeSite(t, r, DefaultOptions)
	index, err := os.ReadFile(filepath.Join(dir, "questions", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(index)
	if strings.Contains(s, "data-shards") {
		t.Error("a small index became sharded")
	}
	if !strings.Contains(s, "<tr><td>x002</td>") {
		t.Error("the summary question x002 should be listed without a link")
	}
	if !strings.Contains(s, `<a href="x000.html">x000</a>`) {
		t.Error("the featured question x000 should link to its page")
	}
	if want := fmt.Sprintf("%d questions; %d have a page", len(r.Questions), len(r.Questions)-2); !strings.Contains(s, want) {
		t.Errorf("index lacks %q", want)
	}
}
