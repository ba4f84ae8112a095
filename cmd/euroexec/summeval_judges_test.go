package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/euroexec/euroexec/internal/realdata"
	"github.com/euroexec/euroexec/sample"
)

// TestSummEvalJudges adds the three LLM judges of the SummEval data set to
// the expert study and checks Table 9's judge and human rubric per model
// against means computed here straight from the judges' long file. The judge
// answers have no license, so they are read from the shared folder beside
// the repository at test time and never copied into the project
// (realdata.SharedPath: skipped without it, failed under CI).
func TestSummEvalJudges(t *testing.T) {
	long := realdata.SharedPath(t, "datasets/summeval-llm-judge/derived/judge_scores_long.csv")
	experts, err := realdata.Open(realdata.SummEvalExperts)
	if err != nil {
		t.Fatal(err)
	}
	judges, err := os.Open(long)
	if err != nil {
		t.Fatal(err)
	}
	defer judges.Close()
	study := filepath.Join(t.TempDir(), "study")
	if err := sample.SummEvalJudgeStudy(experts, judges, study); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "r")
	var so, se bytes.Buffer
	if _, err := runStudy(context.Background(), &so, &se, study, runOptions{out: out, quiet: true, now: fixedNow}); err != nil {
		t.Fatalf("run: %v\n%s", err, se.String())
	}
	// Expected: per judge and system, the mean over articles of the mean of
	// the parsed attribute scores (an unparsable score is left out).
	f, err := os.Open(long)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	type resp struct{ judge, sys, doc string }
	sum, cnt := map[resp]float64{}, map[resp]float64{}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, r := range recs[1:] {
		k := resp{r[col["judge"]], r[col["system"]], r[col["doc_id"]]}
		if v, err := strconv.ParseFloat(r[col["score"]], 64); err == nil {
			sum[k] += v
			cnt[k]++
		} else {
			sum[k] += 0 // the response exists; its unparsable score is left out
		}
	}
	type js struct{ judge, sys string }
	tot, n := map[js]float64{}, map[js]float64{}
	for k, s := range sum {
		if cnt[k] == 0 {
			continue
		}
		tot[js{k.judge, k.sys}] += s / cnt[k]
		n[js{k.judge, k.sys}]++
	}
	rows := readCSV(t, filepath.Join(out, "tables", "judge_vs_human.csv"))
	if len(rows) != 36 {
		t.Errorf("judge_vs_human has %d rows, want 3 judges × 12 systems", len(rows))
	}
	for _, r := range rows {
		k := js{r["judge"][len("judge:"):], r["model"]}
		if n[k] == 0 {
			t.Errorf("unexpected row %v", k)
			continue
		}
		near(t, "judge rubric "+k.judge+"/"+k.sys, r["judge_rubric"], tot[k]/n[k])
	}
}
