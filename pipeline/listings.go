package pipeline

import (
	"fmt"
	"strconv"

	"github.com/euroexec/euroexec/readback"
	"github.com/euroexec/euroexec/report"
)

// listingTables turns the loaded responses and failed batch requests into
// the report tables responses and failed_requests.
func listingTables(l readback.Listings) []*report.Table {
	resp := &report.Table{
		Name: "responses", Title: "Responses", Section: report.SectionCost,
		Doc: "One row per response as loaded: every source file and attempt; latest marks the one analysed.",
		Columns: []report.Column{
			{Name: "question_id", Kind: report.Text, Doc: "question id"},
			{Name: "model", Kind: report.Text, Doc: "model name"},
			{Name: "source_file", Kind: report.Text, Doc: "response dump the text came from (relative to the study folder)"},
			{Name: "source_row", Kind: report.Int, Doc: "line of the dump"},
			{Name: "attempt", Kind: report.Int, Doc: "attempt number (0 when the dump has none)"},
			{Name: "latest", Kind: report.Text, Doc: "true for the highest attempt, the one analysed"},
			{Name: "chars", Kind: report.Int, Doc: "length in Unicode code points"},
			{Name: "words", Kind: report.Int, Doc: "whitespace-separated words"},
			{Name: "input_tokens", Kind: report.Int, Doc: "prompt tokens, empty when unknown"},
			{Name: "output_tokens", Kind: report.Int, Doc: "generated tokens, empty when unknown"},
			{Name: "cost_usd", Kind: report.Float, Doc: "cost in USD from the dump, or from provider usage × models prices; empty when unknown"},
		},
	}
	known := func(n int64) any {
		if n < 0 {
			return nil
		}
		return n
	}
	for _, r := range l.Responses {
		resp.Rows = append(resp.Rows, []any{r.QuestionID, r.Model, r.SourceFile, r.SourceRow, r.Attempt,
			strconv.FormatBool(r.Latest), r.Chars, r.Words, known(r.InputTokens), known(r.OutputTokens), r.CostUSD})
	}
	failed := &report.Table{
		Name: "failed_requests", Title: "Failed batch requests", Section: report.SectionCost,
		Doc: "Batch requests that produced no answer (non-200, errored, canceled, expired), with the provider's error text.",
		Columns: []report.Column{
			{Name: "question_id", Kind: report.Text, Doc: "question id from the request id"},
			{Name: "model", Kind: report.Text, Doc: "model from the request id or the line"},
			{Name: "source_file", Kind: report.Text, Doc: "batch output file"},
			{Name: "source_row", Kind: report.Int, Doc: "line of the file"},
			{Name: "request_id", Kind: report.Text, Doc: "the request's custom id or key"},
			{Name: "error", Kind: report.Text, Doc: "the provider's error text (or code)"},
		},
	}
	for _, f := range l.Failed {
		failed.Rows = append(failed.Rows, []any{f.QuestionID, f.Model, f.SourceFile, f.SourceRow, f.RequestID, f.Error})
	}
	return []*report.Table{resp, failed}
}

// failedSummary says, per model, how many batch requests failed and the
// first error text.
func failedSummary(fs []readback.FailedRequest) []string {
	type agg struct {
		n     int
		first string
	}
	by := map[string]*agg{}
	var order []string
	for _, f := range fs {
		if by[f.Model] == nil {
			by[f.Model] = &agg{first: f.Error}
			order = append(order, f.Model)
		}
		by[f.Model].n++
	}
	var out []string
	for _, m := range order {
		out = append(out, fmt.Sprintf("model %s: %d failed batch requests (first: %s); see tables/failed_requests.csv", m, by[m].n, by[m].first))
	}
	return out
}
