package ingest

import (
	"context"
	"database/sql"
	"math"
	"path/filepath"
	"strings"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// Provider batch lines, shaped as the providers document them.
const (
	openaiOK     = `{"id":"batch_req_1","custom_id":"q2::m2","response":{"status_code":200,"request_id":"r1","body":{"id":"chatcmpl-1","object":"chat.completion","model":"m2-2025","choices":[{"index":0,"message":{"role":"assistant","content":"GDPR  protects\npersonal data. ü"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1000,"completion_tokens":2000,"total_tokens":3000}}},"error":null}`
	anthropicErr = `{"custom_id":"q1::m1","result":{"type":"errored","error":{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long"}}}}`
	anthropicOK  = `{"custom_id":"q2::m1","result":{"type":"succeeded","message":{"id":"msg_1","type":"message","role":"assistant","model":"m1","content":[{"type":"thinking","thinking":"hmm","signature":"x"},{"type":"text","text":"GDPR is "},{"type":"text","text":"EU law."}],"stop_reason":"end_turn","usage":{"input_tokens":100,"output_tokens":50}}}}`
	geminiOK     = `{"key":"q1::m1","response":{"candidates":[{"content":{"parts":[{"text":"thinking…","thought":true},{"text":"EBITDA is "},{"text":"earnings."}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":4,"totalTokenCount":14},"modelVersion":"m1"}}`
)

func TestMixedProviderStudy(t *testing.T) {
	// Plain JSONL for q1/m2, OpenAI for q2/m2, Gemini for q1/m1, Anthropic
	// for q2/m1; an Anthropic failure for q1/m2 (answered in the plain dump)
	// is listed, not an answer.
	dir := copyStudy(t, map[string]string{
		"responses/all.jsonl":             `{"question_id":"q1","model":"m2","text":"Don't know","input_tokens":10,"output_tokens":20}` + "\n",
		"responses/openai_batch.jsonl":    openaiOK + "\n",
		"responses/claude_batch.jsonl":    anthropicOK + "\n",
		"responses/gemini_batch.jsonl":    geminiOK + "\n",
		"responses/anthropic_batch.jsonl": strings.Replace(anthropicErr, "q1::m1", "q1::m2", 1) + "\n",
		"study.toml":                      "[responses]\nbatch_discount = 0.5\n",
	})
	db := filepath.Join(t.TempDir(), "s.duckdb")
	res, err := Ingest(context.Background(), dir, Options{DB: db})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Rows["failed_requests"]; got != 1 {
		t.Errorf("failed_requests rows = %d, want 1", got)
	}
	c, _ := duckdb.NewConnector(db, nil)
	h := sql.OpenDB(c)
	defer h.Close()
	type resp struct {
		text    string
		in, out sql.NullInt64
		cost    sql.NullFloat64
		file    string
	}
	get := func(q, m string) resp {
		t.Helper()
		var r resp
		err := h.QueryRow(`SELECT text, input_tokens, output_tokens, cost_usd, source_file FROM responses WHERE question_id = ? AND model = ?`, q, m).
			Scan(&r.text, &r.in, &r.out, &r.cost, &r.file)
		if err != nil {
			t.Fatalf("%s/%s: %v", q, m, err)
		}
		return r
	}
	// Anthropic: text blocks joined, the thinking block left out; m1 costs
	// (100·0.001 + 50·0.002)/1000 · 0.5 = 0.2/1000 · 0.5 = 0.0001.
	if r := get("q2", "m1"); r.text != "GDPR is EU law." || r.in.Int64 != 100 || r.out.Int64 != 50 || math.Abs(r.cost.Float64-0.0001) > 1e-18 {
		t.Errorf("anthropic row = %+v", r)
	}
	// OpenAI: m2 costs nothing known (models.csv has no prices for m2).
	if r := get("q2", "m2"); r.text != "GDPR  protects\npersonal data. ü" || r.in.Int64 != 1000 || r.out.Int64 != 2000 || r.cost.Valid {
		t.Errorf("openai row = %+v", r)
	}
	// Gemini: thought parts left out; m1 costs (10·0.001 + 4·0.002)/1000 · 0.5
	// = 0.018/1000 · 0.5 = 9e-06.
	r := get("q1", "m1")
	if r.text != "EBITDA is earnings." || r.in.Int64 != 10 || r.out.Int64 != 4 || r.file != "responses/gemini_batch.jsonl" {
		t.Errorf("gemini row = %+v", r)
	}
	if want := 0.018 / 1000 * 0.5; !r.cost.Valid || math.Abs(r.cost.Float64-want) > 1e-18 {
		t.Errorf("gemini cost = %v, want %v", r.cost, want)
	}
	var q, m, e string
	if err := h.QueryRow(`SELECT question_id, model, error FROM failed_requests`).Scan(&q, &m, &e); err != nil {
		t.Fatal(err)
	}
	if q != "q1" || m != "m2" || e != "prompt is too long" {
		t.Errorf("failed request = %s %s %q", q, m, e)
	}
}

func TestGradedFailedRequestIsAProblem(t *testing.T) {
	dir := copyStudy(t, map[string]string{
		"responses/all.jsonl":             `{"question_id":"q1","model":"m2","text":"x"}` + "\n",
		"responses/anthropic_batch.jsonl": anthropicErr + "\n",
	})
	_, err := Validate(context.Background(), dir)
	if err == nil {
		t.Fatal("no problem for a graded response whose request failed")
	}
	want := `grades/humans/main/alice.csv, row 2: found "q1 / m1"; a response that exists: its batch request failed (responses/anthropic_batch.jsonl, line 1, prompt is too long)`
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error\n%v\nlacks\n%s", err, want)
	}
}

func TestUnmatchedRequestID(t *testing.T) {
	dir := copyStudy(t, map[string]string{"responses/x.jsonl": strings.Replace(geminiOK, "q1::m1", "nonsense", 1) + "\n"})
	_, err := Validate(context.Background(), dir)
	if err == nil || !strings.Contains(err.Error(), `responses/x.jsonl, line 1: found "nonsense"; a request id of the form {question_id}::{model}`) {
		t.Errorf("err = %v", err)
	}
}

// openDB opens a study database for a test's queries; closed at cleanup.
func openDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	c, err := duckdb.NewConnector(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	t.Cleanup(func() { db.Close() })
	return db
}
