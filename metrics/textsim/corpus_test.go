package textsim

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// corpusItem is one question: its references and the responses scored
// against them.
type corpusItem struct {
	refs, hyps []string
}

// studyCorpus reads the references and responses of a euroexec study
// directory (the questions with a reference only).
func studyCorpus(t testing.TB, dir string) []corpusItem {
	t.Helper()
	read := func(path string, fn func(q, text string)) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<26)
		for sc.Scan() {
			var r struct {
				QuestionID string `json:"question_id"`
				Text       string `json:"text"`
			}
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			fn(r.QuestionID, r.Text)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	byQ := map[string]*corpusItem{}
	var order []string
	read(filepath.Join(dir, "references.jsonl"), func(q, text string) {
		it := byQ[q]
		if it == nil {
			it = &corpusItem{}
			byQ[q] = it
			order = append(order, q)
		}
		it.refs = append(it.refs, text)
	})
	files, _ := filepath.Glob(filepath.Join(dir, "responses", "*.jsonl"))
	sort.Strings(files)
	for _, f := range files {
		read(f, func(q, text string) {
			if it := byQ[q]; it != nil && text != "" {
				it.hyps = append(it.hyps, text)
			}
		})
	}
	out := make([]corpusItem, 0, len(order))
	for _, q := range order {
		out = append(out, *byQ[q])
	}
	return out
}
