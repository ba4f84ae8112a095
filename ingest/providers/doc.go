// Package providers parses the batch output files of the OpenAI, Anthropic and
// Gemini batch APIs one JSONL line at a time, so that a study can take a
// provider's results file as it was downloaded instead of a hand-made
// responses dump. The package does no I/O: the caller reads the file with a
// reader that has no line-length limit (lines can be tens of MB), calls
// [Detect] on the first non-blank line and [Parse] on every line, maps the
// request id to a question (and model) with an [IDTemplate], and prices the
// tokens with [Cost].
//
// # Common choices
//
// Text is the answer exactly as the provider returned it: the JSON-decoded
// string, never trimmed or normalised. Where an answer comes in several
// pieces (content parts, content blocks, candidate parts) the pieces are
// joined in order with no separator, which is what the providers' own SDK
// helpers do (the OpenAI Python SDK's Response.output_text, in
// src/openai/types/responses/response.py, joins the output_text parts with
// ""; Google's gemini-cli getResponseText joins
// candidates[0].content.parts[].text with ""; Anthropic splits one answer into
// several text blocks at citation boundaries, mid-sentence, so a separator
// would insert text the model never wrote). Reasoning is never part of the
// text: OpenAI reasoning output items, Anthropic thinking, redacted_thinking
// and tool_use blocks, and Gemini parts with "thought": true are left out.
// An OpenAI refusal is kept as the text (the SDK's output_text leaves it
// out): it is what the model answered, and graders score it as such.
//
// Tokens are the counts the provider bills: InputTokens is every prompt token
// (cached ones included) and OutputTokens every generated token (reasoning or
// thinking tokens included). A count the line does not carry is -1, and [Cost]
// of an unknown count is NaN. A failed request has Failed set, an empty Text,
// Error holding the provider's message and ErrorCode its machine-readable
// code. A line that is not valid JSON, lacks the request id, or holds a field
// of the wrong type is malformed: Parse returns an error wrapping
// [ErrMalformed] that names the field and what was expected.
//
// # OpenAI Batch API
//
// Each line of an output or error file is a BatchRequestOutput
// (https://platform.openai.com/docs/api-reference/batch/request-output, as
// generated in the openai-struct and openai-client-base crates on docs.rs):
//
//	{"id":"batch_req_…","custom_id":"…","response":{"status_code":200,"request_id":"…","body":{…}},"error":null}
//
// RequestID is custom_id. The body of a 200 response is either a chat
// completion (Text from choices[0].message.content, a string or an array of
// "text" parts; a message whose content is null and that carries a refusal
// gives the refusal text; a legacy completion's choices[0].text is also read;
// usage.prompt_tokens / completion_tokens, completion tokens including
// reasoning tokens) or a Responses API object (Text from the "message" items
// of output[], their "output_text" parts and, like the chat refusals,
// "refusal" parts; reasoning and tool-call items skipped;
// usage.input_tokens / output_tokens). Model is body.model and StopReason is
// choices[0].finish_reason, or incomplete_details.reason / status for a
// Responses object. A request failed when error is non-null (ErrorCode
// error.code, e.g. "batch_expired"), when status_code is not 200 (the error
// is then inside the body, as reported in openai/openai-openapi issue 302:
// Error body.error.message, ErrorCode body.error.code, else body.error.type,
// else "http" and the status code), or when a Responses object says
// "status":"failed" or "cancelled" or carries an error.
//
// # Anthropic Message Batches
//
// Each line of the results stream is a MessageBatchIndividualResponse
// (https://docs.anthropic.com/en/api/retrieving-message-batch-results):
//
//	{"custom_id":"…","result":{"type":"succeeded","message":{"model":"…","content":[…],"stop_reason":"end_turn","usage":{"input_tokens":11,"output_tokens":36}}}}
//
// RequestID is custom_id, Model message.model, StopReason message.stop_reason,
// Text the "text" blocks of message.content joined with no separator.
// InputTokens is usage.input_tokens + cache_creation_input_tokens +
// cache_read_input_tokens (Anthropic reports cached prompt tokens apart,
// whereas OpenAI and Gemini include them in the prompt count; summing keeps
// the three comparable); OutputTokens is usage.output_tokens, which includes
// thinking tokens. Result types "errored" (an ErrorResponse
// {"type":"error","error":{"type":"invalid_request_error","message":"…"}},
// or the inner object alone), "canceled" and "expired" are failures; for the
// last two, which carry no message, Error and ErrorCode are the type name.
//
// # Gemini Batch API
//
// A file-based Gemini batch writes one line per request
// (https://ai.google.dev/gemini-api/docs/batch-api: "a JSONL file where each
// line is either a GenerateContentResponse or a status object"):
//
//	{"key":"…","response":{"candidates":[{"content":{"parts":[{"text":"…"}]},"finishReason":"STOP"}],"usageMetadata":{…},"modelVersion":"…"}}
//	{"key":"…","error":{"code":400,"message":"…","status":"INVALID_ARGUMENT"}}
//
// RequestID is key, Model modelVersion, StopReason candidates[0].finishReason,
// Text the text of candidates[0].content.parts joined with no separator,
// parts with "thought": true left out. InputTokens is
// usageMetadata.promptTokenCount; OutputTokens is candidatesTokenCount +
// thoughtsTokenCount, because Google bills thinking tokens as output ("Output
// price (including thinking tokens)" on the Gemini API pricing page; the
// pydantic/genai-prices v0.0.26 release made the same change). Gemini writes
// its JSON with proto3 rules, which omit zero values, so inside a present
// usageMetadata a missing count is 0; without usageMetadata both counts are
// -1. A line is failed when it carries an error object, a status object, or a
// non-empty status string (the Vertex AI style); and when the response has no
// candidates (a blocked prompt: ErrorCode is promptFeedback.blockReason).
//
// # Plain files
//
// [Detect] answers [FormatPlain] for any line that is not one of the three
// provider shapes (including a line that is not JSON): such a file is an
// ordinary responses dump (question_id, model, text, …) read by the ingest
// package itself, and [Parse] of FormatPlain returns [ErrNotProvider].
package providers
