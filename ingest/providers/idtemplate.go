package providers

import (
	"errors"
	"fmt"
	"strings"
)

// DefaultIDTemplate is the request-id template used when a study does not
// name one: the question id and the model joined by "::".
const DefaultIDTemplate = "{question_id}::{model}"

// ErrIDTemplate is wrapped by every error [ParseIDTemplate] returns.
var ErrIDTemplate = errors.New("invalid request-id template")

// slot names a placeholder of a template.
type slot int

const (
	slotQuestion slot = iota
	slotModel
)

// IDTemplate maps a batch request id to a question id and, when the template
// has {model}, a model name. A template is literal text with the placeholder
// {question_id} exactly once and {model} at most once, for example
// "{question_id}::{model}" (the default), "{model}/{question_id}" or
// "q-{question_id}". The zero IDTemplate matches nothing; build one with
// [ParseIDTemplate].
type IDTemplate struct {
	src   string
	slots []slot    // the placeholders in order (1 or 2)
	lits  [3]string // literal text before, between and after them
}

// ParseIDTemplate reads a request-id template. It is an error for the
// template to lack {question_id}, to repeat a placeholder, to use any other
// {name} or a lone brace, or to put {question_id} and {model} next to each
// other with no literal text between them (the split would be ambiguous).
func ParseIDTemplate(s string) (IDTemplate, error) {
	t := IDTemplate{src: s}
	var lit strings.Builder
	seen := map[slot]bool{}
	for i := 0; i < len(s); {
		switch s[i] {
		case '}':
			return IDTemplate{}, fmt.Errorf("providers: %w %q: lone '}' at byte %d", ErrIDTemplate, s, i)
		case '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return IDTemplate{}, fmt.Errorf("providers: %w %q: '{' at byte %d is not closed", ErrIDTemplate, s, i)
			}
			name := s[i+1 : i+end]
			var sl slot
			switch name {
			case "question_id":
				sl = slotQuestion
			case "model":
				sl = slotModel
			default:
				return IDTemplate{}, fmt.Errorf("providers: %w %q: unknown placeholder {%s} at byte %d; want {question_id} or {model}", ErrIDTemplate, s, name, i)
			}
			if seen[sl] {
				return IDTemplate{}, fmt.Errorf("providers: %w %q: {%s} appears more than once", ErrIDTemplate, s, name)
			}
			if len(t.slots) == 1 && lit.Len() == 0 {
				return IDTemplate{}, fmt.Errorf("providers: %w %q: {question_id} and {model} are adjacent, so an id cannot be split unambiguously; put a separator between them", ErrIDTemplate, s)
			}
			seen[sl] = true
			t.lits[len(t.slots)] = lit.String()
			lit.Reset()
			t.slots = append(t.slots, sl)
			i += end + 1
		default:
			lit.WriteByte(s[i])
			i++
		}
	}
	if !seen[slotQuestion] {
		return IDTemplate{}, fmt.Errorf("providers: %w %q: it has no {question_id}", ErrIDTemplate, s)
	}
	t.lits[len(t.slots)] = lit.String()
	return t, nil
}

// String returns the template as written.
func (t IDTemplate) String() string { return t.src }

// HasModel tells whether the template has {model}; when it has not, the
// model comes from the line itself (Record.Model).
func (t IDTemplate) HasModel() bool {
	for _, s := range t.slots {
		if s == slotModel {
			return true
		}
	}
	return false
}

// Match splits a request id by the template. ok is false when the id does
// not have the template's literal text or a placeholder would be empty.
// model is "" when the template has no {model}. When the separator between
// the two placeholders also occurs inside a value ("{model}/{question_id}"
// with the id "openai/gpt-4o/q7"), the split giving the shortest question id
// is taken ("openai/gpt-4o" and "q7"), since model names often contain
// separators and question ids seldom do; the caller should check that the
// question id exists.
func (t IDTemplate) Match(id string) (questionID, model string, ok bool) {
	switch len(t.slots) {
	case 1:
		pre, post := t.lits[0], t.lits[1]
		if len(id) <= len(pre)+len(post) || !strings.HasPrefix(id, pre) || !strings.HasSuffix(id, post) {
			return "", "", false
		}
		return id[len(pre) : len(id)-len(post)], "", true
	case 2:
		pre, sep, post := t.lits[0], t.lits[1], t.lits[2]
		if len(id) < len(pre)+len(sep)+len(post)+2 || !strings.HasPrefix(id, pre) || !strings.HasSuffix(id, post) {
			return "", "", false
		}
		mid := id[len(pre) : len(id)-len(post)]
		var i int // where sep starts in mid
		if t.slots[0] == slotQuestion {
			// Shortest question id: the first separator after at least
			// one byte.
			j := strings.Index(mid[1:], sep)
			if j < 0 {
				return "", "", false
			}
			i = j + 1
		} else {
			// Shortest question id: the last separator followed by at
			// least one byte.
			i = strings.LastIndex(mid[:len(mid)-1], sep)
			if i < 0 {
				return "", "", false
			}
		}
		first, second := mid[:i], mid[i+len(sep):]
		if first == "" || second == "" {
			return "", "", false
		}
		if t.slots[0] == slotQuestion {
			return first, second, true
		}
		return second, first, true
	}
	return "", "", false
}
