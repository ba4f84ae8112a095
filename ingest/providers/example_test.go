package providers_test

import (
	"fmt"

	"github.com/euroexec/euroexec/ingest/providers"
)

// A line of an Anthropic Message Batches results file: detect the format,
// parse the line, split the request id and price the tokens at $3 / $15 per
// million tokens with the 50 % batch discount.
func ExampleParse() {
	line := []byte(`{"custom_id":"q17::claude-sonnet-4-5","result":{"type":"succeeded","message":{"model":"claude-sonnet-4-5-20250929","content":[{"type":"thinking","thinking":"…","signature":"x"},{"type":"text","text":"Yes: "},{"type":"text","text":"the clause is void."}],"stop_reason":"end_turn","usage":{"input_tokens":1000,"output_tokens":200}}}}`)

	f := providers.Detect(line)
	r, err := providers.Parse(f, line)
	if err != nil {
		fmt.Println(err)
		return
	}
	tmpl, err := providers.ParseIDTemplate(providers.DefaultIDTemplate)
	if err != nil {
		fmt.Println(err)
		return
	}
	q, model, ok := tmpl.Match(r.RequestID)
	fmt.Println(f, q, model, ok)
	fmt.Printf("%q from %s\n", r.Text, r.Model)
	// (1000·0.003 + 200·0.015)/1000 · 0.5 = 0.003
	fmt.Printf("%d in, %d out, $%.4f\n", r.InputTokens, r.OutputTokens,
		providers.Cost(r.InputTokens, r.OutputTokens, 0.003, 0.015, 0.5))
	// Output:
	// anthropic q17 claude-sonnet-4-5 true
	// "Yes: the clause is void." from claude-sonnet-4-5-20250929
	// 1000 in, 200 out, $0.0030
}
