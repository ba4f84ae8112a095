package readback

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/euroexec/euroexec/ingest"
	"github.com/euroexec/euroexec/study"
)

// withFiles copies ingest/testdata/base and adds files (path → content).
func withFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(filepath.Join("..", "ingest", "testdata", "base"))); err != nil {
		t.Fatal(err)
	}
	for rel, c := range files {
		p := filepath.Join(dst, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// Pairwise judgments in wide (labels, position, the winner spellings), long
// and judge JSONL form load into Study.Comparisons with the first-shown
// model as ModelA.
func TestLoadComparisons(t *testing.T) {
	dir := withFiles(t, map[string]string{
		"grades/humans/main/carol.csv": "evaluator,question_id,label_a,label_b,winner,position,comment\n" +
			"carol,q1,A,B,a,1,first is better\n" + // A = m1 shown first, m1 wins
			"carol,q2,A,B,Model_B,2,\n" + // A = m2 shown second: m1 first; model_b (m1) wins → the first shown
			"carol,q2,A,B,tie (bothbad),,\n", // position empty: the order shown is unknown
		"grades/humans/main/dave.csv": "evaluator,question_id,model,model_a,model_b,instrument,key,value\n" +
			"dave,q1,,m2,m1,pairwise,winner,2\n",
		"grades/judges/pj.jsonl": `{"evaluator":"pj","question_id":"q1","model_a":"m1","model_b":"m2","winner":"B","run":"1"}` + "\n" +
			`{"evaluator":"pj","question_id":"q1","model_a":"m1","model_b":"m2","winner":"0","run":"2"}` + "\n",
		// No evaluator column: the file name is the grader.
		"grades/judges/stemjudge.csv": "question_id,model_a,model_b,winner\nq2,m2,m1,model_a\n",
	})
	db := filepath.Join(t.TempDir(), "s.duckdb")
	res, err := ingest.Ingest(context.Background(), dir, ingest.Options{DB: db})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s, _, err := d.Load(context.Background(), res.Config)
	if err != nil {
		t.Fatal(err)
	}
	c := func(ev, kind, run, q, a, b string, w study.Preference, comment string) study.Comparison {
		return study.Comparison{Evaluator: ev, Kind: kind, Round: "main", Run: run, QuestionID: q, ModelA: a, ModelB: b, Winner: w, Comment: comment}
	}
	unknown := func(x study.Comparison) study.Comparison {
		x.PositionUnknown = true
		return x
	}
	want := []study.Comparison{
		c("carol", "human", "", "q1", "m1", "m2", study.PreferA, "first is better"),
		c("dave", "human", "", "q1", "m2", "m1", study.PreferB, ""),
		c("pj", "judge", "1", "q1", "m1", "m2", study.PreferB, ""),
		c("pj", "judge", "2", "q1", "m1", "m2", study.Tie, ""),
		c("carol", "human", "", "q2", "m1", "m2", study.PreferA, ""),
		unknown(c("carol", "human", "", "q2", "m2", "m1", study.Tie, "")),
		c("stemjudge", "judge", "", "q2", "m2", "m1", study.PreferA, ""),
	}
	if !slices.Equal(s.Comparisons, want) {
		t.Errorf("comparisons:\ngot  %+v\nwant %+v", s.Comparisons, want)
	}
	// The rubric gradings of the base study are still there.
	if len(s.Gradings) == 0 {
		t.Error("no gradings")
	}
}

// The markdown counts of style control, read for studies with pairwise
// judgments: headers, list items and bold spans outside fenced code.
func TestLoadStyle(t *testing.T) {
	text := "# Title\n\nSome **bold** and __more__ text.\n\n## Part\n- one\n* two\n1. three\n10) four\n" +
		"```\n# not a header\n- not an item **nor bold**\n```\n#nospace\n-nospace\n"
	b, _ := json.Marshal(map[string]string{"question_id": "q1", "model": "m1", "text": text})
	dir := withFiles(t, map[string]string{
		"responses/all.jsonl":          string(b) + "\n" + `{"question_id":"q1","model":"m2","text":"plain"}` + "\n",
		"grades/humans/main/carol.csv": "evaluator,question_id,model_a,model_b,winner\ncarol,q1,m1,m2,a\n",
	})
	db := filepath.Join(t.TempDir(), "s.duckdb")
	res, err := ingest.Ingest(context.Background(), dir, ingest.Options{DB: db})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s, _, err := d.Load(context.Background(), res.Config)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][3]int32{}
	for _, r := range s.Responses {
		if r.QuestionID == "q1" && r.HasStyle {
			got[r.Model] = [3]int32{r.Headers, r.ListItems, r.Bold}
		}
	}
	if got["m1"] != [3]int32{2, 4, 2} || got["m2"] != [3]int32{} || len(got) != 2 {
		t.Errorf("style counts %v; want m1 [2 4 2] (headers, list items, bold), m2 [0 0 0]", got)
	}
}
