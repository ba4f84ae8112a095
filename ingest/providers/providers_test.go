package providers

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureLines reads the non-blank lines of testdata/name with no
// line-length limit.
func fixtureLines(t testing.TB, name string) [][]byte {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines [][]byte
	r := bufio.NewReader(f)
	for {
		l, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(l)) > 0 {
			lines = append(lines, l)
		}
		if err == io.EOF {
			return lines
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// checkRecord compares every field of a parsed record.
func checkRecord(t *testing.T, got, want Record) {
	t.Helper()
	if got.RequestID != want.RequestID {
		t.Errorf("RequestID: got %q, want %q", got.RequestID, want.RequestID)
	}
	if got.Model != want.Model {
		t.Errorf("Model: got %q, want %q", got.Model, want.Model)
	}
	if got.Text != want.Text {
		t.Errorf("Text:\n got %q\nwant %q", got.Text, want.Text)
	}
	if got.InputTokens != want.InputTokens || got.OutputTokens != want.OutputTokens {
		t.Errorf("tokens: got in %d out %d, want in %d out %d", got.InputTokens, got.OutputTokens, want.InputTokens, want.OutputTokens)
	}
	if got.StopReason != want.StopReason {
		t.Errorf("StopReason: got %q, want %q", got.StopReason, want.StopReason)
	}
	if got.Failed != want.Failed {
		t.Errorf("Failed: got %v, want %v", got.Failed, want.Failed)
	}
	if got.Error != want.Error {
		t.Errorf("Error:\n got %q\nwant %q", got.Error, want.Error)
	}
	if got.ErrorCode != want.ErrorCode {
		t.Errorf("ErrorCode: got %q, want %q", got.ErrorCode, want.ErrorCode)
	}
}

// The expected records below are read off the fixture lines by hand.
var fixtureWant = map[string][]Record{
	"openai.jsonl": {
		// Chat completion, string content; \u00e9 is é and the surrogate
		// pair \ud83d\ude00 is U+1F600; leading and trailing spaces kept.
		{RequestID: "q1::gpt-4o", Model: "gpt-4o-2024-08-06",
			Text:        "  Paris is the capital of France.\n\nIt has ~2.1 million inhabitants (café culture \U0001F600) \"quoted\"  ",
			InputTokens: 24, OutputTokens: 31, StopReason: "stop"},
		// Content as an array of text parts, joined with no separator;
		// completion_tokens (2048) already holds the 1500 reasoning tokens.
		{RequestID: "q2::o3-mini", Model: "o3-mini-2025-01-31", Text: "Part one. Part two.",
			InputTokens: 100, OutputTokens: 2048, StopReason: "length"},
		// Responses API: reasoning item skipped, two output_text parts.
		{RequestID: "q3::gpt-5", Model: "gpt-5-2025-08-07", Text: "First paragraph.\nSecond paragraph.",
			InputTokens: 57, OutputTokens: 412, StopReason: "completed"},
		// HTTP 400: the error is in the body.
		{RequestID: "q4::gpt-4o", InputTokens: -1, OutputTokens: -1, Failed: true,
			Error:     "This model's maximum context length is 128000 tokens. However, you requested 1000024 tokens (24 in the messages, 1000000 in the completion). Please reduce the length of the messages or completion.",
			ErrorCode: "context_length_exceeded"},
		// Error-file line of an expired request.
		{RequestID: "q5::gpt-4o", InputTokens: -1, OutputTokens: -1, Failed: true,
			Error:     "This request could not be executed before the completion window expired.",
			ErrorCode: "batch_expired"},
		// HTTP 500 with a null code: the type is the code.
		{RequestID: "q6::gpt-4o", InputTokens: -1, OutputTokens: -1, Failed: true,
			Error:     "The server had an error while processing your request. Sorry about that!",
			ErrorCode: "server_error"},
		// Refusal with null content.
		{RequestID: "q7::gpt-4o", Model: "gpt-4o-2024-08-06", Text: "I'm sorry, I can't help with that.",
			InputTokens: 18, OutputTokens: 10, StopReason: "stop"},
		// Responses API cut off while reasoning: no text, not a failure.
		{RequestID: "q8::gpt-5", Model: "gpt-5-2025-08-07", Text: "",
			InputTokens: 80, OutputTokens: 4096, StopReason: "max_output_tokens"},
		// Error-file line of a cancelled batch.
		{RequestID: "q9::gpt-4o", InputTokens: -1, OutputTokens: -1, Failed: true,
			Error:     "This request was cancelled because the batch was cancelled.",
			ErrorCode: "batch_cancelled"},
	},
	"anthropic.jsonl": {
		// The example line of Anthropic's "Retrieve Message Batch results".
		{RequestID: "my-second-request", Model: "claude-3-5-sonnet-20240620",
			Text:        "Hello again! It's nice to see you. How can I assist you today? Is there anything specific you'd like to chat about or any questions you have?",
			InputTokens: 11, OutputTokens: 36, StopReason: "end_turn"},
		// Thinking block left out.
		{RequestID: "q2::claude-sonnet-4-5", Model: "claude-sonnet-4-5-20250929", Text: "The answer is **42**.\n",
			InputTokens: 120, OutputTokens: 856, StopReason: "end_turn"},
		// Three text blocks joined, redacted thinking and tool_use left out;
		// input 15 + 1024 cache writes + 2048 cache reads = 3087.
		{RequestID: "q3::claude-sonnet-4-5", Model: "claude-sonnet-4-5-20250929",
			Text:        "According to the report, revenue grew 12 %. The rest is unclear.\t",
			InputTokens: 3087, OutputTokens: 64, StopReason: "end_turn"},
		// Errored, ErrorResponse envelope.
		{RequestID: "q4::claude-sonnet-4-5", InputTokens: -1, OutputTokens: -1, Failed: true,
			Error:     "max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5-20250929",
			ErrorCode: "invalid_request_error"},
		// Errored, bare error object.
		{RequestID: "q5::claude-sonnet-4-5", InputTokens: -1, OutputTokens: -1, Failed: true,
			Error: "Overloaded", ErrorCode: "overloaded_error"},
		{RequestID: "q6::claude-sonnet-4-5", InputTokens: -1, OutputTokens: -1, Failed: true,
			Error: "canceled", ErrorCode: "canceled"},
		{RequestID: "q7::claude-sonnet-4-5", InputTokens: -1, OutputTokens: -1, Failed: true,
			Error: "expired", ErrorCode: "expired"},
	},
	"gemini.jsonl": {
		// Thought part left out; output = 5 candidates + 230 thoughts.
		{RequestID: "q1::gemini-2.5-flash", Model: "gemini-2.5-flash", Text: "The capital is Canberra.",
			InputTokens: 12, OutputTokens: 235, StopReason: "STOP"},
		// \u00fc is ü, \u00a0 a no-break space; no thoughtsTokenCount.
		{RequestID: "q2::gemini-2.5-flash", Model: "gemini-2.5-flash", Text: "Ja, das ist richtig: über 3\u00a0km.\n",
			InputTokens: 9, OutputTokens: 14, StopReason: "STOP"},
		// Cut off while thinking: candidatesTokenCount omitted (0), 1024
		// thoughts.
		{RequestID: "q3::gemini-2.5-pro", Model: "gemini-2.5-pro", Text: "",
			InputTokens: 20, OutputTokens: 1024, StopReason: "MAX_TOKENS"},
		{RequestID: "q4::gemini-2.5-pro", InputTokens: -1, OutputTokens: -1, Failed: true,
			Error: "Request contains an invalid argument.", ErrorCode: "INVALID_ARGUMENT"},
		// Blocked prompt: no candidates; the prompt tokens are still billed.
		{RequestID: "q5::gemini-2.5-pro", Model: "gemini-2.5-pro", InputTokens: 31, OutputTokens: 0, Failed: true,
			Error: "prompt blocked (PROHIBITED_CONTENT)", ErrorCode: "PROHIBITED_CONTENT"},
		{RequestID: "q6::gemini-2.5-pro", InputTokens: -1, OutputTokens: -1, Failed: true,
			Error: "Resource has been exhausted (e.g. check quota).", ErrorCode: "RESOURCE_EXHAUSTED"},
		// Vertex AI style status string.
		{RequestID: "q7::gemini-2.5-pro", InputTokens: -1, OutputTokens: -1, Failed: true,
			Error: "Deadline exceeded while waiting for the model."},
	},
}

var fixtureFormat = map[string]Format{
	"openai.jsonl":    FormatOpenAI,
	"anthropic.jsonl": FormatAnthropic,
	"gemini.jsonl":    FormatGemini,
}

func TestParseFixtures(t *testing.T) {
	for name, want := range fixtureWant {
		lines := fixtureLines(t, name)
		if len(lines) != len(want) {
			t.Fatalf("%s: %d lines, %d expected records", name, len(lines), len(want))
		}
		for i, line := range lines {
			t.Run(name+"/"+want[i].RequestID, func(t *testing.T) {
				got, err := Parse(fixtureFormat[name], line)
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				checkRecord(t, got, want[i])
			})
		}
	}
}

func TestDetect(t *testing.T) {
	for name, f := range fixtureFormat {
		for i, line := range fixtureLines(t, name) {
			if got := Detect(line); got != f {
				t.Errorf("%s line %d: Detect = %q, want %q", name, i+1, got, f)
			}
		}
	}
	openai := fixtureLines(t, "openai.jsonl")[0]
	tests := []struct {
		name string
		line string
		want Format
	}{
		{"plain responses dump", `{"question_id":"q1","model":"gpt-4o","text":"x"}`, FormatPlain},
		{"plain with an id", `{"custom_id":"q1","text":"x"}`, FormatPlain},
		{"not JSON", `question_id,model,text`, FormatPlain},
		{"array", `[{"custom_id":"a","response":{}}]`, FormatPlain},
		{"blank", "  \r\n", FormatPlain},
		{"truncated JSON", `{"custom_id":"a","response":{`, FormatPlain},
		{"byte order mark", "\xef\xbb\xbf" + string(openai), FormatOpenAI},
		{"CRLF", strings.TrimSpace(string(openai)) + "\r\n", FormatOpenAI},
		{"openai error file, null response", `{"id":"b","custom_id":"a","response":null,"error":{"code":"x","message":"y"}}`, FormatOpenAI},
		{"anthropic", `{"custom_id":"a","result":{"type":"expired"}}`, FormatAnthropic},
		{"gemini error only", `{"key":"a","error":{"code":500}}`, FormatGemini},
		{"key alone", `{"key":"a","text":"x"}`, FormatPlain},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Detect([]byte(tc.line)); got != tc.want {
				t.Errorf("Detect(%q) = %q, want %q", tc.line, got, tc.want)
			}
		})
	}
}

func TestParseMalformed(t *testing.T) {
	tests := []struct {
		name    string
		format  Format
		line    string
		mention string // a part of the message that says where
	}{
		{"openai not JSON", FormatOpenAI, `{"custom_id":"a",`, "not valid JSON"},
		{"openai no custom_id", FormatOpenAI, `{"id":"b","response":{"status_code":200,"body":{"choices":[]}},"error":null}`, `"custom_id" is missing`},
		{"openai custom_id number", FormatOpenAI, `{"custom_id":7,"response":null,"error":null}`, `field "custom_id": got a JSON number, want a string`},
		{"openai neither response nor error", FormatOpenAI, `{"custom_id":"a","response":null,"error":null}`, `"response" and "error"`},
		{"openai no status", FormatOpenAI, `{"custom_id":"a","response":{"body":{}},"error":null}`, `"response.status_code" is missing`},
		{"openai no body", FormatOpenAI, `{"custom_id":"a","response":{"status_code":200},"error":null}`, `"response.body" is missing`},
		{"openai body of unknown kind", FormatOpenAI, `{"custom_id":"a","response":{"status_code":200,"body":{"object":"list","data":[]}},"error":null}`, `neither "choices"`},
		{"openai empty choices", FormatOpenAI, `{"custom_id":"a","response":{"status_code":200,"body":{"choices":[]}},"error":null}`, `"response.body.choices" is empty`},
		{"openai content number", FormatOpenAI, `{"custom_id":"a","response":{"status_code":200,"body":{"choices":[{"message":{"content":5}}]}},"error":null}`, `field "response.body.choices.message.content": got a JSON number, want a string, an array of content parts or null`},
		{"openai part text number", FormatOpenAI, `{"custom_id":"a","response":{"status_code":200,"body":{"choices":[{"message":{"content":[{"type":"text","text":5}]}}]}},"error":null}`, `text`},
		{"openai fractional tokens", FormatOpenAI, `{"custom_id":"a","response":{"status_code":200,"body":{"choices":[{"message":{"content":"x"}}],"usage":{"prompt_tokens":1.5}}},"error":null}`, `response.body.usage.prompt_tokens`},
		{"openai negative tokens", FormatOpenAI, `{"custom_id":"a","response":{"status_code":200,"body":{"choices":[{"message":{"content":"x"}}],"usage":{"prompt_tokens":3,"completion_tokens":-2}}},"error":null}`, `completion_tokens": token count -2 is negative`},
		{"openai choice without message", FormatOpenAI, `{"custom_id":"a","response":{"status_code":200,"body":{"choices":[{"index":0}]}},"error":null}`, `neither "message" nor "text"`},
		{"anthropic no result", FormatAnthropic, `{"custom_id":"a"}`, `"result" is missing`},
		{"anthropic unknown type", FormatAnthropic, `{"custom_id":"a","result":{"type":"pending"}}`, `"result.type" is "pending"`},
		{"anthropic succeeded without message", FormatAnthropic, `{"custom_id":"a","result":{"type":"succeeded"}}`, `"result.message" is missing`},
		{"anthropic content not array", FormatAnthropic, `{"custom_id":"a","result":{"type":"succeeded","message":{"content":"hi"}}}`, `result.message.content`},
		{"anthropic no custom_id", FormatAnthropic, `{"result":{"type":"expired"}}`, `"custom_id" is missing`},
		{"gemini no key", FormatGemini, `{"response":{"candidates":[]}}`, `"key" is missing`},
		{"gemini nothing", FormatGemini, `{"key":"a"}`, `"response" is missing`},
		{"gemini text number", FormatGemini, `{"key":"a","response":{"candidates":[{"content":{"parts":[{"text":1}]}}]}}`, `response.candidates.content.parts.text`},
		{"gemini status number", FormatGemini, `{"key":"a","status":3}`, `field "status": got a JSON number, want a status object or a string`},
		{"gemini error code object", FormatGemini, `{"key":"a","error":{"code":{}}}`, `field "error.code": got a JSON object, want a string or a number`},
		{"gemini tokens string", FormatGemini, `{"key":"a","response":{"candidates":[],"usageMetadata":{"promptTokenCount":"12"}}}`, `response.usageMetadata.promptTokenCount`},
		{"empty line", FormatGemini, ``, `not valid JSON`},
		{"openai custom_id twice", FormatOpenAI, `{"custom_id":"a","custom_id":"b","response":{"status_code":200,"body":{"choices":[{"message":{"content":"x"}}]}},"error":null}`, `field "custom_id" twice in one JSON object (at /custom_id)`},
		{"openai content twice", FormatOpenAI, `{"custom_id":"a","response":{"status_code":200,"body":{"choices":[{"message":{"content":"x","content":"y"}}]}},"error":null}`, `field "content" twice in one JSON object (at /response/body/choices/0/message/content)`},
		{"anthropic type twice", FormatAnthropic, `{"custom_id":"a","result":{"type":"succeeded","type":"errored","message":{"content":[]}}}`, `field "type" twice in one JSON object (at /result/type)`},
		{"gemini key twice", FormatGemini, `{"key":"a","key":"b","response":{"candidates":[]}}`, `field "key" twice in one JSON object (at /key)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.format, []byte(tc.line))
			if err == nil {
				t.Fatalf("Parse(%q) gave no error, want one mentioning %q", tc.line, tc.mention)
			}
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("error %q does not wrap ErrMalformed", err)
			}
			if !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("error %q does not mention %q", err, tc.mention)
			}
			if !strings.HasPrefix(err.Error(), "providers: "+string(tc.format)+" line: ") {
				t.Errorf("error %q does not say where (want prefix %q)", err, "providers: "+string(tc.format)+" line: ")
			}
		})
	}
}

func TestParseFormats(t *testing.T) {
	if _, err := Parse(FormatPlain, []byte(`{"question_id":"q"}`)); !errors.Is(err, ErrNotProvider) {
		t.Errorf("Parse(plain): got %v, want ErrNotProvider", err)
	}
	if _, err := Parse("bedrock", []byte(`{}`)); err == nil || !strings.Contains(err.Error(), `unknown format "bedrock"`) {
		t.Errorf("Parse(bedrock): got %v, want an unknown-format error", err)
	}
}

// TestParseLenient covers shapes that are valid but rare.
func TestParseLenient(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		line   string
		want   Record
	}{
		{"openai legacy completion", FormatOpenAI,
			`{"custom_id":"a","response":{"status_code":200,"body":{"object":"text_completion","model":"gpt-3.5-turbo-instruct","choices":[{"text":" 4","finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1}}},"error":null}`,
			Record{RequestID: "a", Model: "gpt-3.5-turbo-instruct", Text: " 4", InputTokens: 5, OutputTokens: 1, StopReason: "stop"}},
		{"openai no usage", FormatOpenAI,
			`{"custom_id":"a","response":{"status_code":200,"body":{"model":"m","choices":[{"message":{"content":"x"}}]}},"error":null}`,
			Record{RequestID: "a", Model: "m", Text: "x", InputTokens: -1, OutputTokens: -1}},
		{"openai error body without error object", FormatOpenAI,
			`{"custom_id":"a","response":{"status_code":503,"body":{}},"error":null}`,
			Record{RequestID: "a", InputTokens: -1, OutputTokens: -1, Failed: true, Error: "request failed with HTTP status 503", ErrorCode: "http 503"}},
		{"openai responses failed", FormatOpenAI,
			`{"custom_id":"a","response":{"status_code":200,"body":{"object":"response","status":"failed","model":"gpt-5","error":{"code":"server_error","message":"Something went wrong."},"output":[]}},"error":null}`,
			Record{RequestID: "a", Model: "gpt-5", InputTokens: -1, OutputTokens: -1, Failed: true, Error: "Something went wrong.", ErrorCode: "server_error"}},
		{"openai responses refusal part", FormatOpenAI,
			`{"custom_id":"a","response":{"status_code":200,"body":{"object":"response","status":"completed","model":"gpt-5","output":[{"type":"message","content":[{"type":"refusal","refusal":"No."}]}],"usage":{"input_tokens":3,"output_tokens":2}}},"error":null}`,
			Record{RequestID: "a", Model: "gpt-5", Text: "No.", InputTokens: 3, OutputTokens: 2, StopReason: "completed"}},
		{"openai responses cancelled", FormatOpenAI,
			`{"custom_id":"a","response":{"status_code":200,"body":{"object":"response","status":"cancelled","model":"gpt-5","error":null,"output":[]}},"error":null}`,
			Record{RequestID: "a", Model: "gpt-5", InputTokens: -1, OutputTokens: -1, Failed: true, Error: "response cancelled", ErrorCode: "cancelled"}},
		{"anthropic no usage", FormatAnthropic,
			`{"custom_id":"a","result":{"type":"succeeded","message":{"model":"m","content":[]}}}`,
			Record{RequestID: "a", Model: "m", InputTokens: -1, OutputTokens: -1}},
		{"anthropic errored without message", FormatAnthropic,
			`{"custom_id":"a","result":{"type":"errored","error":{"type":"error","error":{"type":"api_error"}}}}`,
			Record{RequestID: "a", InputTokens: -1, OutputTokens: -1, Failed: true, Error: "request errored", ErrorCode: "api_error"}},
		{"gemini empty usage", FormatGemini,
			`{"key":"a","response":{"candidates":[{"content":{"parts":[{"text":"x"}]}}],"usageMetadata":{}}}`,
			Record{RequestID: "a", Text: "x", InputTokens: 0, OutputTokens: 0}},
		{"gemini no usage", FormatGemini,
			`{"key":"a","response":{"candidates":[{"content":{"parts":[{"text":"x"},{"functionCall":{"name":"f"}}]}}]}}`,
			Record{RequestID: "a", Text: "x", InputTokens: -1, OutputTokens: -1}},
		{"gemini empty status string is success", FormatGemini,
			`{"key":"a","status":"","response":{"candidates":[{"content":{"parts":[{"text":"y"}]}}]}}`,
			Record{RequestID: "a", Text: "y", InputTokens: -1, OutputTokens: -1}},
		{"gemini no candidates, no block reason", FormatGemini,
			`{"key":"a","response":{}}`,
			Record{RequestID: "a", InputTokens: -1, OutputTokens: -1, Failed: true, Error: "response has no candidates"}},
		{"gemini numeric error code only", FormatGemini,
			`{"key":"a","error":{"code":500}}`,
			Record{RequestID: "a", InputTokens: -1, OutputTokens: -1, Failed: true, Error: "request failed with status 500", ErrorCode: "500"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.format, []byte(tc.line))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			checkRecord(t, got, tc.want)
		})
	}
}

// bigText is a long answer with characters JSON must escape.
func bigText(n int) string {
	unit := "Ünïcode \"quotes\" and \\ back\tslash\n€ 😀 "
	return strings.Repeat(unit, n/len(unit))
}

// jsonQuote escapes s for a JSON string by hand, independently of the code
// under test and of encoding/json's escaping choices.
func jsonQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`)
	return `"` + r.Replace(s) + `"`
}

func TestParseLargeLine(t *testing.T) {
	text := bigText(30 << 20) // 30 MB
	q := jsonQuote(text)
	lines := map[Format]string{
		FormatOpenAI:    `{"custom_id":"big","response":{"status_code":200,"body":{"model":"m","choices":[{"message":{"content":` + q + `}}],"usage":{"prompt_tokens":1,"completion_tokens":2}}},"error":null}`,
		FormatAnthropic: `{"custom_id":"big","result":{"type":"succeeded","message":{"model":"m","content":[{"type":"text","text":` + q + `}],"usage":{"input_tokens":1,"output_tokens":2}}}}`,
		FormatGemini:    `{"key":"big","response":{"candidates":[{"content":{"parts":[{"text":` + q + `}]}}],"usageMetadata":{"promptTokenCount":1,"candidatesTokenCount":2},"modelVersion":"m"}}`,
	}
	for f, line := range lines {
		t.Run(string(f), func(t *testing.T) {
			if got := Detect([]byte(line)); got != f {
				t.Fatalf("Detect = %q, want %q", got, f)
			}
			r, err := Parse(f, []byte(line))
			if err != nil {
				t.Fatal(err)
			}
			if r.Text != text {
				t.Fatalf("text of %d bytes differs from the %d bytes written", len(r.Text), len(text))
			}
			if r.RequestID != "big" || r.Model != "m" || r.InputTokens != 1 || r.OutputTokens != 2 {
				t.Errorf("got %q %q %d %d, want big m 1 2", r.RequestID, r.Model, r.InputTokens, r.OutputTokens)
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	text := bigText(8 << 20)
	q := jsonQuote(text)
	lines := map[Format]string{
		FormatOpenAI:    `{"custom_id":"big","response":{"status_code":200,"body":{"model":"m","choices":[{"message":{"content":` + q + `}}]}},"error":null}`,
		FormatAnthropic: `{"custom_id":"big","result":{"type":"succeeded","message":{"model":"m","content":[{"type":"text","text":` + q + `}]}}}`,
		FormatGemini:    `{"key":"big","response":{"candidates":[{"content":{"parts":[{"text":` + q + `}]}}],"modelVersion":"m"}}`,
	}
	for _, f := range []Format{FormatOpenAI, FormatAnthropic, FormatGemini} {
		line := []byte(lines[f])
		b.Run(string(f), func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				if _, err := Parse(f, line); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
