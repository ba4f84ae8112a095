package providers

import (
	"encoding/json"
	"reflect"
	"strings"
)

// geminiLine is one line of a Gemini batch results file.
type geminiLine struct {
	Key      *string         `json:"key"`
	Response *geminiResponse `json:"response"`
	Error    *geminiStatus   `json:"error"`
	Status   geminiStatusAny `json:"status"`
}

// geminiStatus is a google.rpc.Status.
type geminiStatus struct {
	Code    looseString `json:"code"`
	Message string      `json:"message"`
	Status  string      `json:"status"`
}

// geminiStatusAny is a "status" field: a google.rpc.Status object or, in the
// Vertex AI style, a string that is empty on success.
type geminiStatusAny struct {
	set    bool
	status geminiStatus
}

// UnmarshalJSON accepts an object, a string or null.
func (s *geminiStatusAny) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) == 0 || string(b) == "null":
		return nil
	case b[0] == '"':
		var msg string
		if err := json.Unmarshal(b, &msg); err != nil {
			return err
		}
		s.set = msg != ""
		s.status = geminiStatus{Message: msg}
		return nil
	case b[0] != '{':
		return &json.UnmarshalTypeError{Value: jsonValueKind(b), Type: reflect.TypeFor[geminiStatusAny]()}
	}
	var st geminiStatus
	if err := json.Unmarshal(b, &st); err != nil {
		return err
	}
	s.set, s.status = true, st
	return nil
}

type geminiResponse struct {
	Candidates []struct {
		Content *struct {
			Parts []struct {
				Text    *string `json:"text"`
				Thought bool    `json:"thought"`
			} `json:"parts"`
		} `json:"content"`
		FinishReason string `json:"finishReason"`
	} `json:"candidates"`
	PromptFeedback *struct {
		BlockReason        string `json:"blockReason"`
		BlockReasonMessage string `json:"blockReasonMessage"`
	} `json:"promptFeedback"`
	UsageMetadata *struct {
		PromptTokenCount     *int64 `json:"promptTokenCount"`
		CandidatesTokenCount *int64 `json:"candidatesTokenCount"`
		ThoughtsTokenCount   *int64 `json:"thoughtsTokenCount"`
	} `json:"usageMetadata"`
	ModelVersion string `json:"modelVersion"`
}

func parseGemini(line []byte) (Record, error) {
	const f = FormatGemini
	var l geminiLine
	if err := json.Unmarshal(line, &l); err != nil {
		return Record{}, decodeError(f, err)
	}
	if l.Key == nil {
		return Record{}, malformed(f, `field "key" is missing; want the request's key`)
	}
	r := Record{RequestID: *l.Key, InputTokens: -1, OutputTokens: -1}
	st, failed := geminiStatus{}, false
	switch {
	case l.Error != nil:
		st, failed = *l.Error, true
	case l.Status.set:
		st, failed = l.Status.status, true
	}
	if failed {
		r.Failed = true
		r.Error = st.Message
		r.ErrorCode = st.Status
		if r.ErrorCode == "" {
			r.ErrorCode = string(st.Code)
		}
		if r.Error == "" {
			r.Error = "request failed"
			if r.ErrorCode != "" {
				r.Error += " with status " + r.ErrorCode
			}
		}
		return r, nil
	}
	resp := l.Response
	if resp == nil {
		return Record{}, malformed(f, `field "response" is missing and there is no "error" or "status"; want one of them`)
	}
	r.Model = resp.ModelVersion
	if u := resp.UsageMetadata; u != nil {
		// Proto3 JSON omits zero counts, so a missing count is 0 here.
		var err error
		if r.InputTokens, err = addTokens(f, []string{"response.usageMetadata.promptTokenCount"}, u.PromptTokenCount); err != nil {
			return Record{}, err
		}
		r.OutputTokens, err = addTokens(f, []string{
			"response.usageMetadata.candidatesTokenCount",
			"response.usageMetadata.thoughtsTokenCount",
		}, u.CandidatesTokenCount, u.ThoughtsTokenCount)
		if err != nil {
			return Record{}, err
		}
	}
	if len(resp.Candidates) == 0 {
		r.Failed = true
		r.Error = "response has no candidates"
		if pf := resp.PromptFeedback; pf != nil && pf.BlockReason != "" {
			r.ErrorCode = pf.BlockReason
			r.Error = "prompt blocked (" + pf.BlockReason + ")"
			if pf.BlockReasonMessage != "" {
				r.Error += ": " + pf.BlockReasonMessage
			}
		}
		return r, nil
	}
	c := resp.Candidates[0]
	r.StopReason = c.FinishReason
	if c.Content != nil {
		n := 0
		for _, p := range c.Content.Parts {
			if !p.Thought && p.Text != nil {
				n += len(*p.Text)
			}
		}
		var b strings.Builder
		b.Grow(n)
		for _, p := range c.Content.Parts {
			if !p.Thought && p.Text != nil {
				b.WriteString(*p.Text)
			}
		}
		r.Text = b.String()
	}
	return r, nil
}
