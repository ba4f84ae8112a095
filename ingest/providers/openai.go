package providers

import (
	"encoding/json"
	"fmt"
	"github.com/euroexec/euroexec/ingest/internal/jsontext"
	"reflect"
	"strings"
)

// openaiLine is one BatchRequestOutput line.
type openaiLine struct {
	CustomID *string         `json:"custom_id"`
	Response *openaiResponse `json:"response"`
	Error    *openaiError    `json:"error"`
}

type openaiResponse struct {
	StatusCode *int        `json:"status_code"`
	Body       *openaiBody `json:"body"`
}

type openaiError struct {
	Code    looseString `json:"code"`
	Type    string      `json:"type"`
	Message string      `json:"message"`
}

// openaiBody is the union of a chat completion, a legacy completion, a
// Responses API object and an error body.
type openaiBody struct {
	Model             string             `json:"model"`
	Choices           []openaiChoice     `json:"choices"`
	Output            []openaiOutputItem `json:"output"`
	Usage             *openaiUsage       `json:"usage"`
	Status            string             `json:"status"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Error *openaiError `json:"error"`
}

type openaiChoice struct {
	Message      *openaiMessage `json:"message"`
	Text         *string        `json:"text"`
	FinishReason string         `json:"finish_reason"`
}

type openaiMessage struct {
	Content openaiContent `json:"content"`
	Refusal *string       `json:"refusal"`
}

// openaiContent is a chat message's content: a string, an array of content
// parts, or null.
type openaiContent struct {
	set   bool
	text  string
	parts []openaiPart
}

// UnmarshalJSON accepts a string, an array of parts or null.
func (c *openaiContent) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) == 0 || string(b) == "null":
		return nil
	case b[0] == '"':
		c.set = true
		// b is a valid JSON string (encoding/json checked the whole line
		// before calling UnmarshalJSON); unquoting it here saves the two
		// passes over a long answer that json.Unmarshal would make.
		if t, ok := jsontext.Unquote(b); ok {
			c.text = t
			return nil
		}
		return json.Unmarshal(b, &c.text)
	case b[0] == '[':
		c.set = true
		return json.Unmarshal(b, &c.parts)
	}
	return &json.UnmarshalTypeError{Value: jsonValueKind(b), Type: reflect.TypeFor[openaiContent]()}
}

// openaiPart is a content part of a chat message ("text", "refusal") or of a
// Responses output message ("output_text", "refusal").
type openaiPart struct {
	Type    string  `json:"type"`
	Text    *string `json:"text"`
	Refusal *string `json:"refusal"`
}

type openaiOutputItem struct {
	Type    string       `json:"type"`
	Content []openaiPart `json:"content"`
}

type openaiUsage struct {
	PromptTokens     *int64 `json:"prompt_tokens"`
	CompletionTokens *int64 `json:"completion_tokens"`
	InputTokens      *int64 `json:"input_tokens"`
	OutputTokens     *int64 `json:"output_tokens"`
}

func parseOpenAI(line []byte) (Record, error) {
	const f = FormatOpenAI
	var l openaiLine
	if err := json.Unmarshal(line, &l); err != nil {
		return Record{}, decodeError(f, err)
	}
	if l.CustomID == nil {
		return Record{}, malformed(f, `field "custom_id" is missing; want the request's custom id`)
	}
	r := Record{RequestID: *l.CustomID, InputTokens: -1, OutputTokens: -1}
	if l.Error != nil {
		r.Failed = true
		r.Error, r.ErrorCode = l.Error.Message, string(l.Error.Code)
		if r.ErrorCode == "" {
			r.ErrorCode = l.Error.Type
		}
		if r.Error == "" {
			r.Error = "request failed"
			if r.ErrorCode != "" {
				r.Error += " with error code " + r.ErrorCode
			}
		}
		return r, nil
	}
	if l.Response == nil {
		return Record{}, malformed(f, `fields "response" and "error" are both null or missing; want one of them`)
	}
	if l.Response.StatusCode == nil {
		return Record{}, malformed(f, `field "response.status_code" is missing; want the HTTP status code`)
	}
	status := *l.Response.StatusCode
	body := l.Response.Body
	if status != 200 {
		r.Failed = true
		r.ErrorCode = httpCode(status)
		r.Error = fmt.Sprintf("request failed with HTTP status %d", status)
		if body != nil && body.Error != nil {
			if body.Error.Message != "" {
				r.Error = body.Error.Message
			}
			if body.Error.Code != "" {
				r.ErrorCode = string(body.Error.Code)
			} else if body.Error.Type != "" {
				r.ErrorCode = body.Error.Type
			}
		}
		if body != nil {
			r.Model = body.Model
		}
		return r, nil
	}
	if body == nil {
		return Record{}, malformed(f, `field "response.body" is missing; want the response object`)
	}
	r.Model = body.Model
	if (body.Error != nil && (body.Error.Message != "" || body.Error.Code != "")) || body.Status == "failed" || body.Status == "cancelled" {
		r.Failed = true
		r.ErrorCode = "failed"
		if body.Status == "cancelled" {
			r.ErrorCode = "cancelled"
		}
		r.Error = "response " + r.ErrorCode
		if body.Error != nil {
			if body.Error.Message != "" {
				r.Error = body.Error.Message
			}
			if body.Error.Code != "" {
				r.ErrorCode = string(body.Error.Code)
			} else if body.Error.Type != "" {
				r.ErrorCode = body.Error.Type
			}
		}
		return r, nil
	}
	var err error
	switch {
	case body.Choices != nil:
		err = openaiChat(&r, body)
	case body.Output != nil:
		openaiResponses(&r, body)
	default:
		return Record{}, malformed(f, `field "response.body" has neither "choices" (chat completion) nor "output" (Responses API)`)
	}
	if err != nil {
		return Record{}, err
	}
	if u := body.Usage; u != nil {
		in, out := u.PromptTokens, u.CompletionTokens
		inName, outName := "response.body.usage.prompt_tokens", "response.body.usage.completion_tokens"
		if body.Choices == nil || (in == nil && out == nil) {
			in, out = u.InputTokens, u.OutputTokens
			inName, outName = "response.body.usage.input_tokens", "response.body.usage.output_tokens"
		}
		if r.InputTokens, err = tokenCount(f, inName, in); err != nil {
			return Record{}, err
		}
		if r.OutputTokens, err = tokenCount(f, outName, out); err != nil {
			return Record{}, err
		}
	}
	return r, nil
}

// openaiChat reads the first choice of a chat (or legacy) completion.
func openaiChat(r *Record, body *openaiBody) error {
	if len(body.Choices) == 0 {
		return malformed(FormatOpenAI, `field "response.body.choices" is empty; want at least one choice`)
	}
	c := body.Choices[0]
	r.StopReason = c.FinishReason
	switch {
	case c.Message != nil:
		m := c.Message
		switch {
		case m.Content.parts != nil:
			r.Text = joinParts(m.Content.parts, "text")
		case m.Content.set:
			r.Text = m.Content.text
		case m.Refusal != nil:
			r.Text = *m.Refusal
		}
	case c.Text != nil:
		r.Text = *c.Text
	default:
		return malformed(FormatOpenAI, `field "response.body.choices[0]" has neither "message" nor "text"`)
	}
	return nil
}

// openaiResponses reads the message items of a Responses API object.
func openaiResponses(r *Record, body *openaiBody) {
	var b strings.Builder
	for _, it := range body.Output {
		if it.Type == "message" {
			b.WriteString(joinParts(it.Content, "output_text"))
		}
	}
	r.Text = b.String()
	r.StopReason = body.Status
	if body.IncompleteDetails != nil && body.IncompleteDetails.Reason != "" {
		r.StopReason = body.IncompleteDetails.Reason
	}
}

// joinParts concatenates, in order, the text of the parts of type textType
// and the refusal of the parts of type "refusal".
func joinParts(parts []openaiPart, textType string) string {
	n := 0
	for _, p := range parts {
		switch {
		case p.Type == textType && p.Text != nil:
			n += len(*p.Text)
		case p.Type == "refusal" && p.Refusal != nil:
			n += len(*p.Refusal)
		}
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range parts {
		switch {
		case p.Type == textType && p.Text != nil:
			b.WriteString(*p.Text)
		case p.Type == "refusal" && p.Refusal != nil:
			b.WriteString(*p.Refusal)
		}
	}
	return b.String()
}
