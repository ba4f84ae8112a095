package sample

import (
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/internal/realdata"
)

const summEvalFixture = "testdata/summeval"

// experts returns SummEval's expert ratings (internal/realdata's copy).
func experts(t *testing.T) io.Reader {
	t.Helper()
	r, err := realdata.Open(realdata.SummEvalExperts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSummEvalFixture regenerates the SummEval fixture from the expert
// ratings and compares it with the committed one; -update rewrites it.
func TestSummEvalFixture(t *testing.T) {
	if *update {
		for _, p := range []string{"grades", "questions.csv", "models.csv", "evaluators.csv", "study.toml", "LICENSE-SummEval"} {
			os.RemoveAll(filepath.Join(summEvalFixture, p))
		}
		if err := WriteSummEval(experts(t), summEvalFixture); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	if err := WriteSummEval(experts(t), dir); err != nil {
		t.Fatal(err)
	}
	got := listFiles(t, os.DirFS(dir))
	for _, p := range got {
		g, _ := os.ReadFile(filepath.Join(dir, p))
		w, err := os.ReadFile(filepath.Join(summEvalFixture, p))
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if string(g) != string(w) {
			t.Errorf("%s differs from the committed fixture (go test ./sample -run TestSummEvalFixture -update)", p)
		}
	}
}

// TestSummEvalFixtureContent checks the committed fixture against facts read
// by hand from the SummEval data set (its SOURCE.md and the first
// rows of derived/human_scores_long.csv): 100 articles, 12 systems, 3 experts,
// every unit graded by each expert; the first article's M8 summary got
// coherence 4, consistency 5, fluency 5, relevance 2 from expert_1.
func TestSummEvalFixtureContent(t *testing.T) {
	read := func(rel string) [][]string {
		t.Helper()
		f, err := os.Open(filepath.Join(summEvalFixture, rel))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		return rows
	}
	if n := len(read("questions.csv")) - 1; n != 100 {
		t.Errorf("questions: got %d, want 100", n)
	}
	if n := len(read("models.csv")) - 1; n != 12 {
		t.Errorf("models: got %d, want 12", n)
	}
	for _, e := range []string{"expert_1", "expert_2", "expert_3"} {
		rows := read("grades/humans/main/" + e + ".csv")
		if len(rows)-1 != 1200 {
			t.Errorf("%s: got %d gradings, want 1200", e, len(rows)-1)
		}
		for i, r := range rows[1:] {
			for _, v := range r[3:] {
				if len(v) != 1 || v[0] < '1' || v[0] > '5' {
					t.Fatalf("%s row %d: score %q, want 1..5", e, i+2, v)
				}
			}
		}
	}
	want := "expert_1,cnn-test-404f859482d47c127868964a9a39d1a7645dd2e9,M8,4,5,5,2"
	found := false
	for _, r := range read("grades/humans/main/expert_1.csv") {
		if strings.Join(r, ",") == want {
			found = true
		}
	}
	if !found {
		t.Errorf("expert_1.csv has no row %q", want)
	}
}

func TestSummEvalJudgeStudy(t *testing.T) {
	judges, err := os.Open(realdata.SharedPath(t, "datasets/summeval-llm-judge/derived/judge_scores_long.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer judges.Close()
	dir := t.TempDir()
	if err := SummEvalJudgeStudy(experts(t), judges, dir); err != nil {
		t.Fatal(err)
	}
	// SOURCE.md: 3 judges × 1,200 units, exactly 1 unparsable (NA) score, of llama-2-70b.
	blank := 0
	for _, j := range []string{"gpt-4-0314", "gpt-3.5-turbo-0301", "llama-2-70b-chat-hf"} {
		f, err := os.Open(filepath.Join(dir, "grades/judges", j+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows)-1 != 1200 {
			t.Errorf("%s: got %d rows, want 1200", j, len(rows)-1)
		}
		for _, r := range rows[1:] {
			for _, v := range r[3:] {
				if v == "" {
					blank++
				}
			}
		}
	}
	if blank != 1 {
		t.Errorf("blank judge scores: got %d, want 1", blank)
	}
	ev, _ := os.ReadFile(filepath.Join(dir, "evaluators.csv"))
	if !strings.Contains(string(ev), "gpt-4-0314,\n") {
		t.Errorf("evaluators.csv lacks the judges:\n%s", ev)
	}
}
