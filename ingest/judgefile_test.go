package ingest

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// judgeParseToml maps the nested verdicts below onto the instrument.
const judgeParseToml = `[judges.parse]
rubric = { Domain = "/scores/Domain", Localization = "/scores/Localization", Reasoning = "/scores/Reasoning", Communication = "/scores/Communication", Actionability = "/scores/Actionability" }
checklist = "/checklist/{index}"
rank = "/rank"
`

// The verdicts of the base study's plain judge sheet (grades/judges/gpt.jsonl)
// as a judge would write them: nested scores, checklist as an array.
var verdicts = map[string]string{
	"q1::m1": `{"scores":{"Domain":4.5,"Localization":4,"Reasoning":3,"Communication":5,"Actionability":4},"checklist":["hit","hit"],"rank":1}`,
	"q1::m2": `{"scores":{"Domain":2,"Localization":3,"Reasoning":2,"Communication":3},"checklist":["miss","miss"],"rank":2}`,
}

func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Batch output lines per provider, shaped as each provider documents them.
func openaiLine(id, text string) string {
	return `{"id":"batch_req_x","custom_id":"` + id + `","response":{"status_code":200,"request_id":"r","body":{"id":"chatcmpl-x","object":"chat.completion","model":"judge-1","choices":[{"index":0,"message":{"role":"assistant","content":` + jsonText(text) + `},"finish_reason":"stop"}],"usage":{"prompt_tokens":900,"completion_tokens":120,"total_tokens":1020}}},"error":null}`
}

func anthropicLine(id, text string) string {
	return `{"custom_id":"` + id + `","result":{"type":"succeeded","message":{"id":"msg_x","type":"message","role":"assistant","model":"claude-judge","content":[{"type":"thinking","thinking":"Let me weigh it.","signature":"s"},{"type":"text","text":` + jsonText(text) + `}],"stop_reason":"end_turn","usage":{"input_tokens":900,"output_tokens":120}}}}`
}

func geminiLine(id, text string) string {
	return `{"key":"` + id + `","response":{"candidates":[{"content":{"parts":[{"text":"weighing…","thought":true},{"text":` + jsonText(text) + `}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":900,"candidatesTokenCount":120,"totalTokenCount":1020},"modelVersion":"gemini-judge"}}`
}

// judgeGrades returns every grade of evaluator gpt in the database as
// sorted text lines (scores, verdicts, ranks), source locations left out.
func judgeGrades(t *testing.T, db string) string {
	t.Helper()
	h := openDB(t, db)
	rows, err := h.Query(`
		SELECT g.round || '|' || g.run || '|' || g.question_id || '|' || g.model || '|rank=' || coalesce(CAST(g.rank AS VARCHAR), '') ||
		       '|' || coalesce((SELECT string_agg(attribute || '=' || coalesce(CAST(score AS VARCHAR), 'NULL'), ',' ORDER BY attribute) FROM rubric_scores r WHERE r.grading_id = g.grading_id), '') ||
		       '|' || coalesce((SELECT string_agg(item || '=' || coalesce(verdict, 'NULL'), ',' ORDER BY item) FROM checklist_verdicts v WHERE v.grading_id = g.grading_id), '')
		FROM gradings g WHERE g.evaluator = 'gpt' ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return strings.Join(out, "\n")
}

func ingestGrades(t *testing.T, edits map[string]string) (string, *Result, error) {
	t.Helper()
	dir := copyStudy(t, edits)
	db := filepath.Join(t.TempDir(), "s.duckdb")
	res, err := Ingest(context.Background(), dir, Options{DB: db})
	if err != nil {
		return "", res, err
	}
	return judgeGrades(t, db), res, nil
}

// TestJudgeBatchRoundTrip: the same verdicts, returned by each provider's
// batch API as a JSON object, in a code fence, or after prose, load into the
// same grades as the plain judge sheet of the base study; so does a plain
// JSONL file with nested verdict objects.
func TestJudgeBatchRoundTrip(t *testing.T) {
	want, _, err := ingestGrades(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(want, "main||q1|m1|rank=1|Actionability=4.0") || !strings.Contains(want, "Actionability=NULL") {
		t.Fatalf("base grades unexpected:\n%s", want)
	}
	shapes := map[string]func(string) string{
		"json":   func(v string) string { return v },
		"fenced": func(v string) string { return "```json\n" + v + "\n```" },
		"prose+json": func(v string) string {
			return "The answer is accurate but thin on local law. My grading: " + v + "\nHope this helps."
		},
	}
	providers := map[string]func(id, text string) string{"openai": openaiLine, "anthropic": anthropicLine, "gemini": geminiLine}
	for pname, line := range providers {
		for sname, shape := range shapes {
			t.Run(pname+"/"+sname, func(t *testing.T) {
				file := line("q1::m1", shape(verdicts["q1::m1"])) + "\n" + line("q1::m2", shape(verdicts["q1::m2"])) + "\n"
				got, res, err := ingestGrades(t, map[string]string{"grades/judges/gpt.jsonl": file, "study.toml": judgeParseToml})
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("grades differ from the plain sheet's:\n got %s\nwant %s", got, want)
				}
				for _, w := range res.Warnings {
					if strings.Contains(w, "no verdict") {
						t.Errorf("unexpected warning %q", w)
					}
				}
			})
		}
	}
	t.Run("plain nested jsonl", func(t *testing.T) {
		var b strings.Builder
		for _, id := range []string{"q1::m1", "q1::m2"} {
			qm := strings.Split(id, "::")
			b.WriteString(`{"evaluator":"gpt","question_id":"` + qm[0] + `","model":"` + qm[1] + `","comment":"ok",` + verdicts[id][1:] + "\n")
		}
		got, _, err := ingestGrades(t, map[string]string{"grades/judges/gpt.jsonl": b.String(), "study.toml": judgeParseToml})
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("grades differ from the plain sheet's:\n got %s\nwant %s", got, want)
		}
	})
	t.Run("nested jsonl without [judges.parse] loads no scores", func(t *testing.T) {
		// Today's behaviour without the section, kept: nested objects are not columns.
		file := `{"evaluator":"gpt","question_id":"q1","model":"m1",` + verdicts["q1::m1"][1:] + "\n"
		got, _, err := ingestGrades(t, map[string]string{"grades/judges/gpt.jsonl": file})
		if err == nil && strings.Contains(got, "Domain=4.5") {
			t.Errorf("scores loaded without [judges.parse]: %s", got)
		}
	})
}

// TestJudgeBatchBrokenOutputs: an output that does not parse is a located
// warning (file, line, request id, first 80 characters); above
// max_failed_share the load fails and says why.
func TestJudgeBatchBrokenOutputs(t *testing.T) {
	broken := `{"scores":{"Domain":4,"Reasoning": 3` + strings.Repeat(" and then the judge rambled on", 5)
	file := openaiLine("q1::m1", verdicts["q1::m1"]) + "\n" + openaiLine("q1::m2", broken) + "\n" +
		openaiLine("q2::m1", `{"scores":{"Domain":3,"Localization":3,"Reasoning":3,"Communication":3,"Actionability":3},"checklist":["hit"],"rank":1}`) + "\n"
	_, _, err := ingestGrades(t, map[string]string{"grades/judges/gpt.jsonl": file, "study.toml": judgeParseToml})
	if err == nil {
		t.Fatal("1 of 3 outputs broken passed the default 5 % limit")
	}
	for _, w := range []string{"grades/judges/gpt.jsonl", "at most 5 % of a judge's outputs without a verdict", "judge gpt: 1 of 3 outputs (33.3 %) gave no verdict"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
	got, res, err := ingestGrades(t, map[string]string{"grades/judges/gpt.jsonl": file, "study.toml": judgeParseToml + "max_failed_share = 0.5\n"})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(res.Warnings, "\n")
	for _, w := range []string{
		`grades/judges/gpt.jsonl, line 2, request q1::m2: judge gpt: the output does not parse (no JSON object in the text): "{\"scores\":{\"Domain\":4,\"Reasoning\": 3 and then the judge rambled on and then the …"`, // 80 characters,
		"judge gpt: 1 of 3 outputs (33.3 %) gave no verdict (grades/judges/gpt.jsonl); they are left out",
	} {
		if !strings.Contains(all, w) {
			t.Errorf("warnings lack %q:\n%s", w, all)
		}
	}
	if strings.Contains(got, "|q1|m2|") || !strings.Contains(got, "|q2|m1|") {
		t.Errorf("grades: %s", got)
	}
}
