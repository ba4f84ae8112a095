package ingest

import (
	"strings"
	"testing"
)

// TestJudgeDuplicates: a key twice in a judge file's JSON line (a batch
// output line or a plain line) is a problem naming the file, the line and
// the key; a verdict with a key twice is an output without a verdict,
// named in the warnings; the same response graded twice by a judge was
// already a problem and stays one. The messages are written by hand.
func TestJudgeDuplicates(t *testing.T) {
	plain := func(q, m string) string {
		return `{"evaluator":"gpt","question_id":"` + q + `","model":"` + m + `","comment":"ok",` + verdicts[q+"::"+m][1:]
	}
	tests := []struct {
		name, file string
		share      string // max_failed_share, when the case needs more than the default
		wantErr    string // in the error
		wantWarn   string // in the warnings ("" for none)
	}{
		{"a batch line with a key twice",
			strings.Replace(openaiLine("q1::m1", verdicts["q1::m1"]), `"custom_id":"q1::m1"`, `"custom_id":"q1::m1","custom_id":"q1::m2"`, 1) + "\n",
			"", `grades/judges/gpt.jsonl, line 1: a openai batch output line: openai line: malformed line: field "custom_id" twice in one JSON object (at /custom_id)`, ""},
		{"a plain line with a key twice",
			strings.Replace(plain("q1", "m1"), `"model":"m1"`, `"model":"m1","model":"m2"`, 1) + "\n",
			"", `grades/judges/gpt.jsonl, line 1, column "model": found "model"; each key once in a JSON object`, ""},
		{"a batch request twice",
			openaiLine("q1::m1", verdicts["q1::m1"]) + "\n" + openaiLine("q1::m2", verdicts["q1::m2"]) + "\n" + openaiLine("q1::m1", verdicts["q1::m1"]) + "\n",
			"", `grades/judges/gpt.jsonl, line 3: found "q1 / m1"; one grading per evaluator, round, question and model (evaluator gpt graded it also at grades/judges/gpt.jsonl, line 1)`, ""},
		{"a plain line twice",
			plain("q1", "m1") + "\n" + plain("q1", "m2") + "\n" + plain("q1", "m1") + "\n",
			"", `grades/judges/gpt.jsonl, line 3: found "q1 / m1"; one grading per evaluator, round, question and model`, ""},
		{"a verdict with a key twice",
			openaiLine("q1::m1", verdicts["q1::m1"]) + "\n" + openaiLine("q1::m2", `{"scores":{"Domain":2,"Domain":5,"Localization":3,"Reasoning":2,"Communication":3},"checklist":["miss","miss"],"rank":2}`) + "\n",
			"max_failed_share = 0.5\n", "",
			`grades/judges/gpt.jsonl, line 2, request q1::m2: judge gpt: the output does not parse (key "Domain" twice in one JSON object (at /scores/Domain))`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, res, err := ingestGrades(t, map[string]string{"grades/judges/gpt.jsonl": tc.file, "study.toml": judgeParseToml + tc.share})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v\nwant it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if all := strings.Join(res.Warnings, "\n"); !strings.Contains(all, tc.wantWarn) {
				t.Errorf("warnings lack %q:\n%s", tc.wantWarn, all)
			}
		})
	}
}
