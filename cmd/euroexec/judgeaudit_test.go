package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/euroexec/euroexec/sample"
)

// TestJudgeAuditEndToEnd runs the bundled sample twice: as shipped, and with
// the judges' providers in evaluators.csv, display positions in blinding.csv
// and critic-mini's gradings delivered as an OpenAI Batch API output file
// whose answers hold the verdict in a ```json fence. The audit's rows that do
// not need the new inputs are the same in both runs (the batch file loads
// into the same grades); self_preference and position appear only with them.
func TestJudgeAuditEndToEnd(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, sample.Sample()); err != nil {
		t.Fatal(err)
	}
	run := func(name string) map[string]map[string]string {
		t.Helper()
		out := filepath.Join(t.TempDir(), name)
		var so, se bytes.Buffer
		if _, err := runStudy(context.Background(), &so, &se, dir, runOptions{out: out, quiet: true, now: fixedNow}); err != nil {
			t.Fatalf("run %s: %v\n%s", name, err, se.String())
		}
		for _, f := range []string{"site/judge_audit.html", "tables/judge_audit.csv", "tables/judge_bias_by_attribute.csv"} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
		rows := map[string]map[string]string{}
		for _, r := range readCSV(t, filepath.Join(out, "tables", "judge_bias.csv")) {
			rows[r["judge"]+"/"+r["bias"]] = r
		}
		for _, r := range readCSV(t, filepath.Join(out, "tables", "judge_audit.csv")) {
			rows[r["judge"]+"/audit"] = r
		}
		// The audit's τ is Table 8's rubric llm_mean, computed by package paper.
		for _, r := range readCSV(t, filepath.Join(out, "tables", "judge_consistency.csv")) {
			if r["instrument"] == "rubric" && r["comparison"] == "llm_mean" {
				j := strings.TrimPrefix(r["graders"], "judge:")
				if got := rows[j+"/audit"]["tau"]; got != r["tau"] {
					t.Errorf("%s: judge_audit tau %s, judge_consistency %s", j, got, r["tau"])
				}
			}
		}
		return rows
	}
	before := run("before")

	// Providers and positions.
	ev, _ := os.ReadFile(filepath.Join(dir, "evaluators.csv"))
	var evOut strings.Builder
	for i, l := range strings.Split(strings.TrimRight(string(ev), "\n"), "\n") {
		switch {
		case i == 0:
			l += ",provider"
		case strings.HasPrefix(l, "arbiter-large,"):
			l += ",Atlas AI"
		case strings.HasPrefix(l, "critic-mini,"):
			l += ", borealis labs "
		default:
			l += ","
		}
		evOut.WriteString(l + "\n")
	}
	os.WriteFile(filepath.Join(dir, "evaluators.csv"), []byte(evOut.String()), 0o644)
	bl, _ := os.ReadFile(filepath.Join(dir, "blinding.csv"))
	var blOut strings.Builder
	for i, l := range strings.Split(strings.TrimRight(string(bl), "\n"), "\n") {
		if i == 0 {
			blOut.WriteString(l + ",position\n")
			continue
		}
		label := strings.Split(l, ",")[1]
		blOut.WriteString(l + "," + string(rune('1'+label[0]-'A')) + "\n")
	}
	os.WriteFile(filepath.Join(dir, "blinding.csv"), []byte(blOut.String()), 0o644)

	// critic-mini as an OpenAI batch output file.
	src := filepath.Join(dir, "grades", "judges", "critic-mini.jsonl")
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	var batch strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		id := line["question_id"].(string) + "::" + line["model"].(string)
		for _, k := range []string{"evaluator", "question_id", "model", "comment"} {
			delete(line, k)
		}
		verdict, _ := json.Marshal(line)
		text, _ := json.Marshal("Here is my assessment.\n```json\n" + string(verdict) + "\n```")
		batch.WriteString(`{"id":"batch_req","custom_id":"` + id + `","response":{"status_code":200,"request_id":"r","body":{"object":"chat.completion","model":"critic-mini","choices":[{"index":0,"message":{"role":"assistant","content":` + string(text) + `},"finish_reason":"stop"}]}},"error":null}` + "\n")
	}
	f.Close()
	os.WriteFile(src, []byte(batch.String()), 0o644)

	after := run("after")
	for _, j := range []string{"arbiter-large", "critic-mini"} {
		for _, b := range []string{"leniency", "leniency_std", "length", "scale", "rerun", "checklist_leniency"} {
			k := j + "/" + b
			if before[k]["estimate"] != after[k]["estimate"] || before[k]["lo"] != after[k]["lo"] || before[k]["n"] != after[k]["n"] {
				t.Errorf("%s changed: %v → %v", k, before[k], after[k])
			}
		}
		for _, b := range []string{"self_preference", "position"} {
			k := j + "/" + b
			if before[k]["estimate"] != "" || after[k]["estimate"] == "" || after[k]["n"] == "0" || after[k]["flagged"] == "" {
				t.Errorf("%s: before %v, after %v; want empty before, an estimate after", k, before[k], after[k])
			}
		}
	}
	if p := after["critic-mini/audit"]["provider"]; p != "borealis labs" {
		t.Errorf("critic-mini provider = %q", p)
	}
}
