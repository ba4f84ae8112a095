package providers

import (
	"encoding/json"
	"strings"
)

// anthropicLine is one MessageBatchIndividualResponse line.
type anthropicLine struct {
	CustomID *string          `json:"custom_id"`
	Result   *anthropicResult `json:"result"`
}

type anthropicResult struct {
	Type    string            `json:"type"`
	Message *anthropicMessage `json:"message"`
	Error   *anthropicError   `json:"error"`
}

// anthropicError is an ErrorResponse {"type":"error","error":{…}} or the
// inner error object {"type":"invalid_request_error","message":"…"}.
type anthropicError struct {
	Type    string          `json:"type"`
	Message string          `json:"message"`
	Error   *anthropicError `json:"error"`
}

type anthropicMessage struct {
	Model      string           `json:"model"`
	Content    []anthropicBlock `json:"content"`
	StopReason string           `json:"stop_reason"`
	Usage      *struct {
		InputTokens              *int64 `json:"input_tokens"`
		OutputTokens             *int64 `json:"output_tokens"`
		CacheCreationInputTokens *int64 `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     *int64 `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

type anthropicBlock struct {
	Type string  `json:"type"`
	Text *string `json:"text"`
}

func parseAnthropic(line []byte) (Record, error) {
	const f = FormatAnthropic
	var l anthropicLine
	if err := json.Unmarshal(line, &l); err != nil {
		return Record{}, decodeError(f, err)
	}
	if l.CustomID == nil {
		return Record{}, malformed(f, `field "custom_id" is missing; want the request's custom id`)
	}
	if l.Result == nil {
		return Record{}, malformed(f, `field "result" is missing; want the request's result object`)
	}
	r := Record{RequestID: *l.CustomID, InputTokens: -1, OutputTokens: -1}
	switch l.Result.Type {
	case "succeeded":
	case "errored":
		r.Failed = true
		e := l.Result.Error
		// Unwrap the ErrorResponse envelope down to the innermost error
		// that has a message or a specific type.
		for e != nil && e.Error != nil && e.Message == "" {
			e = e.Error
		}
		if e != nil {
			r.Error, r.ErrorCode = e.Message, e.Type
		}
		if r.Error == "" {
			r.Error = "request errored"
		}
		return r, nil
	case "canceled", "expired":
		r.Failed = true
		r.Error, r.ErrorCode = l.Result.Type, l.Result.Type
		return r, nil
	default:
		return Record{}, malformed(f, `field "result.type" is %q; want succeeded, errored, canceled or expired`, l.Result.Type)
	}
	m := l.Result.Message
	if m == nil {
		return Record{}, malformed(f, `field "result.message" is missing; a succeeded result carries the message`)
	}
	r.Model, r.StopReason = m.Model, m.StopReason
	n := 0
	for _, b := range m.Content {
		if b.Type == "text" && b.Text != nil {
			n += len(*b.Text)
		}
	}
	var b strings.Builder
	b.Grow(n)
	for _, blk := range m.Content {
		if blk.Type == "text" && blk.Text != nil {
			b.WriteString(*blk.Text)
		}
	}
	r.Text = b.String()
	if u := m.Usage; u != nil {
		var err error
		if u.InputTokens != nil || u.CacheCreationInputTokens != nil || u.CacheReadInputTokens != nil {
			r.InputTokens, err = addTokens(f, []string{
				"result.message.usage.input_tokens",
				"result.message.usage.cache_creation_input_tokens",
				"result.message.usage.cache_read_input_tokens",
			}, u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens)
			if err != nil {
				return Record{}, err
			}
		}
		if r.OutputTokens, err = tokenCount(f, "result.message.usage.output_tokens", u.OutputTokens); err != nil {
			return Record{}, err
		}
	}
	return r, nil
}
