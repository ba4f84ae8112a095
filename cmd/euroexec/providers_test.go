package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMixedResponseSources runs a study whose answers come from a plain dump
// for some models and from provider batch files for others, and checks the
// responses and failed_requests listings.
func TestMixedResponseSources(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "ingest", "testdata", "base"))); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"responses/all.jsonl": `{"question_id":"q1","model":"m2","text":"Don't know","input_tokens":10,"output_tokens":20}` + "\n" +
			`{"question_id":"q2","model":"m1","text":"GDPR is the EU privacy law."}` + "\n",
		"responses/openai.jsonl":    `{"id":"batch_req_1","custom_id":"q2::m2","response":{"status_code":200,"request_id":"r1","body":{"object":"chat.completion","model":"m2","choices":[{"index":0,"message":{"role":"assistant","content":"Über GDPR."},"finish_reason":"stop"}],"usage":{"prompt_tokens":7,"completion_tokens":3}}},"error":null}` + "\n",
		"responses/gemini.jsonl":    `{"key":"q1::m1","response":{"candidates":[{"content":{"parts":[{"text":"EBITDA is earnings."}],"role":"model"}}],"usageMetadata":{"promptTokenCount":1000,"candidatesTokenCount":500},"modelVersion":"m1"}}` + "\n",
		"responses/anthropic.jsonl": `{"custom_id":"q9x::m1","result":{"type":"expired"}}` + "\n",
	}
	// q9x is not a question: make the failed line name a real one.
	files["responses/anthropic.jsonl"] = strings.Replace(files["responses/anthropic.jsonl"], "q9x", "q2", 1)
	files["responses/all.jsonl"] = `{"question_id":"q1","model":"m2","text":"Don't know"}` + "\n"
	for rel, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// q2/m1 is graded by alice, and its only request expired: a located error.
	var so, se bytes.Buffer
	_, err := runStudy(context.Background(), &so, &se, dir, runOptions{out: filepath.Join(t.TempDir(), "r"), quiet: true, now: fixedNow})
	if err == nil || !strings.Contains(se.String(), `grades/humans/main/alice.csv, row 4: found "q2 / m1"; a response that exists: its batch request failed (responses/anthropic.jsonl, line 1, expired)`) {
		t.Fatalf("graded failed request: err %v, stderr:\n%s", err, se.String())
	}
	// Without that grading the study runs.
	alice := filepath.Join(dir, "grades", "humans", "main", "alice.csv")
	b, _ := os.ReadFile(alice)
	lines := strings.Split(string(b), "\n")
	var keep []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "alice,q2,") {
			keep = append(keep, l)
		}
	}
	os.WriteFile(alice, []byte(strings.Join(keep, "\n")), 0o644)
	out := filepath.Join(t.TempDir(), "r")
	se.Reset()
	if _, err := runStudy(context.Background(), &so, &se, dir, runOptions{out: out, quiet: true, now: fixedNow}); err != nil {
		t.Fatalf("run: %v\n%s", err, se.String())
	}
	resp := readCSV(t, filepath.Join(out, "tables", "responses.csv"))
	want := map[string][4]string{ // source_file, chars, words, cost_usd
		"q1/m1": {"responses/gemini.jsonl", "19", "3", "0.002"}, // (1000·0.001 + 500·0.002)/1000 = 0.002
		"q1/m2": {"responses/all.jsonl", "10", "2", ""},
		"q2/m2": {"responses/openai.jsonl", "10", "2", ""}, // m2 has no prices
	}
	if len(resp) != len(want) {
		t.Errorf("responses.csv has %d rows, want %d: %v", len(resp), len(want), resp)
	}
	for _, r := range resp {
		k := r["question_id"] + "/" + r["model"]
		w, ok := want[k]
		if !ok {
			t.Errorf("unexpected response %s", k)
			continue
		}
		if got := [4]string{r["source_file"], r["chars"], r["words"], r["cost_usd"]}; got != w {
			t.Errorf("%s = %v, want %v", k, got, w)
		}
	}
	failed := readCSV(t, filepath.Join(out, "tables", "failed_requests.csv"))
	if len(failed) != 1 || failed[0]["model"] != "m1" || failed[0]["question_id"] != "q2" || failed[0]["error"] != "expired" || failed[0]["source_file"] != "responses/anthropic.jsonl" {
		t.Errorf("failed_requests.csv = %v", failed)
	}
}
