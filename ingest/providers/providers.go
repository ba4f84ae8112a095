package providers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"

	"github.com/euroexec/euroexec/ingest/internal/jsontext"
)

// Format names the shape of a batch output file.
type Format string

// The accepted formats.
const (
	// FormatOpenAI is an OpenAI Batch API output or error file.
	FormatOpenAI Format = "openai"
	// FormatAnthropic is an Anthropic Message Batches results file.
	FormatAnthropic Format = "anthropic"
	// FormatGemini is a Gemini Batch API (file mode) results file.
	FormatGemini Format = "gemini"
	// FormatPlain is anything else, in particular a plain responses dump.
	FormatPlain Format = "plain"
)

// ErrMalformed is wrapped by every error [Parse] returns for a line that does
// not have the shape of its format.
var ErrMalformed = errors.New("malformed line")

// ErrNotProvider is returned by [Parse] for [FormatPlain] lines, which are
// not provider batch output and are read by the ingest package itself.
var ErrNotProvider = errors.New("plain line is not provider batch output")

// Record is what one batch output line says about one request.
type Record struct {
	// RequestID is the id the request was submitted with (custom_id for
	// OpenAI and Anthropic, key for Gemini).
	RequestID string
	// Model is the model the provider reports having run ("" when the line
	// does not say, as for most failures).
	Model string
	// Text is the answer, byte for byte as the provider returned it ("" for
	// a failed request).
	Text string
	// InputTokens is the number of prompt tokens, cached ones included; -1
	// when the line does not carry it.
	InputTokens int64
	// OutputTokens is the number of generated tokens, reasoning included;
	// -1 when the line does not carry it.
	OutputTokens int64
	// StopReason is the provider's reason for ending the answer
	// (finish_reason, stop_reason, finishReason), "" when absent.
	StopReason string
	// Failed is true when the provider did not produce an answer.
	Failed bool
	// Error is the provider's error text for a failed request.
	Error string
	// ErrorCode is the provider's machine-readable error code or type for a
	// failed request (for example "batch_expired", "invalid_request_error",
	// "expired", "RESOURCE_EXHAUSTED"), "" when it gives none.
	ErrorCode string
}

// Detect tells the format of a batch output file from one JSON line, the
// first non-blank line of the file. A leading UTF-8 byte order mark and
// surrounding white space are ignored. The rules look only at top-level keys:
// custom_id with result is Anthropic; custom_id with response or error is
// OpenAI; key with response, error or status is Gemini; anything else,
// including a line that is not a JSON object, is [FormatPlain].
func Detect(line []byte) Format {
	line = trimLine(line)
	if len(line) == 0 || line[0] != '{' {
		return FormatPlain
	}
	var p struct {
		CustomID presence `json:"custom_id"`
		Result   presence `json:"result"`
		Response presence `json:"response"`
		Error    presence `json:"error"`
		Key      presence `json:"key"`
		Status   presence `json:"status"`
	}
	if err := json.Unmarshal(line, &p); err != nil {
		return FormatPlain
	}
	customID, result, response := bool(p.CustomID), bool(p.Result), bool(p.Response)
	key, errorKey, status := bool(p.Key), bool(p.Error), bool(p.Status)
	switch {
	case customID && result:
		return FormatAnthropic
	case customID && (response || errorKey):
		return FormatOpenAI
	case key && (response || errorKey || status):
		return FormatGemini
	}
	return FormatPlain
}

// Parse reads one line of a batch output file of format f. The error, which
// wraps [ErrMalformed], says which field is missing, has the wrong type or
// is there twice in one object;
// a failed request is not an error but a Record with Failed set. Parse of
// [FormatPlain] returns [ErrNotProvider].
func Parse(f Format, line []byte) (Record, error) {
	line = trimLine(line)
	if f != FormatPlain {
		// encoding/json would keep the last of the two values silently
		if d, dup := jsontext.DuplicateName(line); dup {
			return Record{}, malformed(f, "field %q twice in one JSON object (at /%s): which value is meant cannot be told", d.Name, d.Path)
		}
	}
	switch f {
	case FormatOpenAI:
		return parseOpenAI(line)
	case FormatAnthropic:
		return parseAnthropic(line)
	case FormatGemini:
		return parseGemini(line)
	case FormatPlain:
		return Record{}, fmt.Errorf("providers: %w", ErrNotProvider)
	}
	return Record{}, fmt.Errorf("providers: unknown format %q (want openai, anthropic, gemini or plain)", string(f))
}

// trimLine drops a UTF-8 byte order mark and JSON white space around line.
func trimLine(line []byte) []byte {
	line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
	return bytes.Trim(line, " \t\r\n")
}

// presence records whether a key occurs in an object, whatever its value.
type presence bool

// UnmarshalJSON marks the key as present, null included.
func (p *presence) UnmarshalJSON([]byte) error {
	*p = true
	return nil
}

// looseString is a JSON string, number or null read as text; error codes are
// strings for OpenAI and Anthropic but numbers for Gemini.
type looseString string

// UnmarshalJSON accepts a string, a number (kept as written) or null.
func (s *looseString) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) == 0 || string(b) == "null":
		return nil
	case b[0] == '"':
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = looseString(v)
		return nil
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9'):
		*s = looseString(b)
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonValueKind(b), Type: reflect.TypeFor[looseString]()}
}

// jsonValueKind names the kind of a raw JSON value the way encoding/json
// does in its errors.
func jsonValueKind(b []byte) string {
	if len(b) == 0 {
		return "empty value"
	}
	switch b[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// malformed builds the error for a line of format f that lacks what is
// described by the message.
func malformed(f Format, format string, args ...any) error {
	return fmt.Errorf("providers: %s line: %w: %s", f, ErrMalformed, fmt.Sprintf(format, args...))
}

// decodeError turns an encoding/json error into a malformed-line error that
// names the field and the expected type.
func decodeError(f Format, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("providers: %s line: %w: not valid JSON (byte offset %d): %w", f, ErrMalformed, se.Offset, err)
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "(the line itself)"
		}
		return fmt.Errorf("providers: %s line: %w: field %q: got a JSON %s, want %s", f, ErrMalformed, field, te.Value, describeType(te.Type))
	}
	return fmt.Errorf("providers: %s line: %w: %w", f, ErrMalformed, err)
}

// describeType names the JSON kind expected for a Go type.
func describeType(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case reflect.TypeFor[openaiContent]():
		return "a string, an array of content parts or null"
	case reflect.TypeFor[geminiStatusAny]():
		return "a status object or a string"
	case reflect.TypeFor[looseString]():
		return "a string or a number"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a value of type " + t.String()
}

// tokenCount validates an optional token count: nil is -1 (absent), a
// negative value is malformed.
func tokenCount(f Format, field string, v *int64) (int64, error) {
	if v == nil {
		return -1, nil
	}
	if *v < 0 {
		return 0, malformed(f, "field %q: token count %d is negative", field, *v)
	}
	return *v, nil
}

// addTokens sums token counts that are each either known (≥ 0) or nil; nil
// counts are taken as zero. It reports malformed negative values and sums
// that overflow int64.
func addTokens(f Format, fields []string, vals ...*int64) (int64, error) {
	var sum int64
	for i, v := range vals {
		if v == nil {
			continue
		}
		if *v < 0 {
			return 0, malformed(f, "field %q: token count %d is negative", fields[i], *v)
		}
		if sum > (1<<63-1)-*v {
			return 0, malformed(f, "field %q: token count %d overflows the sum", fields[i], *v)
		}
		sum += *v
	}
	return sum, nil
}

// httpCode renders an HTTP status code for ErrorCode.
func httpCode(code int) string {
	return "http " + strconv.Itoa(code)
}
